tools.constrained({
  /** @integer @minimum 0 @maximum 10 */
  count: number,
  /** @minLength 1 @maxLength 20 @pattern ^[a-z]+$ */
  name: string,
  /**
   * @minItems 1 @maxItems 5
   * Each item: @minLength 1
   */
  labels: Array<string>,
  /** Each value: @integer @minimum 0 */
  scores: {
    [key: string]: number,
  },
}): Promise<{
  /** @integer @minimum 0 @maximum 10 */
  count: number,
  /** @minLength 1 @maxLength 20 @pattern ^[a-z]+$ */
  name: string,
  /**
   * @minItems 1 @maxItems 5
   * Each item: @minLength 1
   */
  labels: Array<string>,
  /** Each value: @integer @minimum 0 */
  scores: {
    [key: string]: number,
  },
}>
