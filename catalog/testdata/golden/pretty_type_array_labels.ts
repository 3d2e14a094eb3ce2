{
  /** Each item: @format email */
  recipients?: Array<string> | null,
  /** Each value: @minimum 0 */
  scores?: {
      [key: string]: number,
    } | null,
  /**
   * Each item: @minLength 1
   * Each value: @minimum 0
   */
  either?: Array<string> | {
      [key: string]: number,
    },
}
