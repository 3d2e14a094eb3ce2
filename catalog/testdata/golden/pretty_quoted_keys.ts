{
  "123"?: number,
  "foo-bar"?: string,
  "@type": string,
  /** Dotted name */
  "x.y"?: number,
  plain?: boolean,
}
