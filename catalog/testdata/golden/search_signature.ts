search({
  query?: string,
  namespace?: string,
  /** @integer @exclusiveMinimum 0 */
  limit?: number,
  /** @integer @minimum 0 */
  offset?: number,
}): {
  items: Array<{
      path: string,
      description: string,
      signature: string,
    }>,
  /** @integer @minimum 0 */
  remaining: number,
  next: {
      /** @integer @minimum 0 */
      offset: number,
    } | null,
}
