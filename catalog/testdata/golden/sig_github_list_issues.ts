tools.github.list_issues({
  /** Repository owner */
  owner: string,
  /** Cursor from the previous response's pageInfo */
  after?: string,
  /** Results per page. @default 30 */
  perPage?: number,
  /** Filter by labels. @minItems 1 @maxItems 10 */
  labels?: Array<string>,
  state?: "open" | "closed",
}): Promise<unknown>
