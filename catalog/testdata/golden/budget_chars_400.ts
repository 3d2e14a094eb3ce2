{
  /** Full-text search query. Supports quoted phrases, boolean… @minLength 1 */
  query: string,
  /** Narrow the results. */
  filter: { /* … 3 properties: state?, labels?, author? */ },
  sort?: "created" | "updated" /* … 3 more values */,
  /** @default 1 @integer @minimum 1 */
  page?: number,
  // … 3 more properties: perPage?, include?, meta?
}
