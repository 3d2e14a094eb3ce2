{
  /** Full-text search query. Supports quoted… @minLength 1 */
  query: string,
  /** Narrow the results. */
  filter: {
    state?: "open" | "closed" | "merged" | "draft" | "all",
    /** Each item: Label name, case-insensitive, as shown… */
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
}
