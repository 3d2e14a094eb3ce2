{
  /** Full-text search query. Supports quoted phrases, boolean… @minLength 1 */
  query: string,
  /** Narrow the results. */
  filter: {
    state?: "open" | "closed" | "merged" | "draft" | "all",
    /** Each item: Label name, case-insensitive, as shown in the repository's… */
    labels?: Array<string>,
    author?: { /* … 2 properties: login, id? */ },
  },
  sort?: "created" | "updated" | "comments" | "reactions" | "interactions",
  /** @default 1 @integer @minimum 1 */
  page?: number,
  /** @default 30 @integer @minimum 1 @maximum 100 */
  perPage?: number,
  include?: Array<string | number | boolean | null>,
  meta?: {
    [key: string]: { /* … 1 property: value? */ },
  },
}
