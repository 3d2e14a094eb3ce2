{
  /**
   * Full-text search query. Supports quoted phrases, boolean operators and field prefixes such as author: or label:.
   * @minLength 1
   */
  query: string,
  /** Narrow the results. */
  filter: { /* … 3 properties: state?, labels?, author? */ },
  sort?: "created" | "updated" | "comments" | "reactions" | "interactions",
  /** @default 1 @integer @minimum 1 */
  page?: number,
  /** @default 30 @integer @minimum 1 @maximum 100 */
  perPage?: number,
  include?: Array<string | number | boolean | null>,
  meta?: { /* … [key: string]: … */ },
}
