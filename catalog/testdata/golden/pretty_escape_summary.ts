{
  /** @default "* /" @format * / @pattern ^a* /b$ */
  value?: string,
}
