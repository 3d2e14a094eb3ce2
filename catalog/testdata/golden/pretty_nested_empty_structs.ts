{
  meta: {},
  /** Extra data */
  extra?: {},
}
