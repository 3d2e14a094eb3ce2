{
  /** Search filter */
  filter?: {
    /** Issue state */
    state?: string,
  },
}
