{
  /** Each item: @minItems 2 */
  matrix?: Array<Array<number>>,
  /** Each item: Recipient */
  refs?: Array<string>,
  choices?: Array<string | number>,
}
