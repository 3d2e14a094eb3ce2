{
  /**
   * Full-text search query. Supports quoted phrases, boolean operators and field prefixes such as author: or label:.
   * @minLength 1
   */
  query: string,
  /** Narrow the results. */
  filter: {
    state?: "open" | "closed" | "merged" /* … 2 more values */,
    /** Each item: Label name, case-insensitive, as shown in the repository's label list. */
    labels?: Array<string>,
    author?: {
      login: string,
      /** @integer */
      id?: number,
    },
  },
  sort?: "created" | "updated" | "comments" /* … 2 more values */,
  // … 4 more properties: page?, perPage?, include?, meta?
}
