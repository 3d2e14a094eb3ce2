{
  /**
   * @minItems 1
   * Each item: First * / line
   *
   *   Second line
   *   @pattern ^\d+
   *   * /$
   */
  values?: Array<string>,
}
