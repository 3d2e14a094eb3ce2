{
  /** @integer */
  count?: number,
  amount?: number,
  name?: string,
  enabled?: boolean,
  values?: Array<unknown>,
  choice?: number | string,
}
