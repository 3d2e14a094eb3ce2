{
  /**
   * Maximum attempts
   *
   * Includes the initial request.
   * @integer @minimum 1
   */
  attempts?: number,
}
