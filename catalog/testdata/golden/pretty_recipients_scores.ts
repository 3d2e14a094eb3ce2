{
  /**
   * People to notify. @minItems 1
   * Each item: Email address. @format email
   */
  recipients?: Array<string>,
  /** Each value: @minimum 0 */
  scores?: {
    [key: string]: number,
  },
}
