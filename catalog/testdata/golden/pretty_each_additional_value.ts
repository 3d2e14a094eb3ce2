{
  /** Each additional value: @minimum 0 */
  scores?: {
    /** Score title */
    title?: string,
    [key: string]: number,
  },
}
