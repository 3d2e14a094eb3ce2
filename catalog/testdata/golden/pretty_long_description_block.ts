{
  /**
   * A detailed description. A detailed description. A detailed description. A detailed description. A detailed description. A detailed description. A detailed description. A detailed description.
   * @minLength 1
   */
  name?: string,
}
