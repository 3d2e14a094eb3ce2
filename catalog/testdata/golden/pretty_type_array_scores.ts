{
  /** Each value: @minimum 0 */
  scores?: {
      [key: string]: number,
    } | null,
}
