{
  /**
   * @default "a\nb" @pattern ^\d+
   * * /$
   */
  value?: string,
}
