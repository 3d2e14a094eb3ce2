tools.github.search_issues({
  /** Full-text search query. Supports quoted phrases, boolean… @minLength 1 */
  query: string,
  /** Narrow the results. */
  filter: {
    state?: "open" | "closed" | "merged" | "draft" | "all",
    /** Each item: Label name, case-insensitive, as shown in the repository's… */
    labels?: Array<string>,
    author?: {
      login: string,
      /** @integer */
      id?: number,
    },
  },
  sort?: "created" | "updated" | "comments" | "reactions" | "interactions",
  /** @default 1 @integer @minimum 1 */
  page?: number,
  /** @default 30 @integer @minimum 1 @maximum 100 */
  perPage?: number,
  include?: Array<string | number | boolean | null>,
  meta?: {
    [key: string]: {
      value?: string,
    },
  },
}): Promise<{
  items: Array<{
      /** @integer */
      id: number,
      title: string,
      /** Markdown body of the issue, possibly empty. */
      body?: string,
      user?: { /* … 3 properties: login?, id?, site_admin? */ },
      labels?: Array<{ /* … 2 properties: name?, color? */ }>,
    }>,
  /** @integer */
  total: number,
  /** Cursor for the next page. */
  next?: string | null,
}>
