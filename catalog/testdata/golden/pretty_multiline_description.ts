{
  /**
   * First line
   *
   * Second line
   */
  query?: string,
}
