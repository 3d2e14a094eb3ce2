{
  nested?: boolean,
  inherited?: string,
  sibling?: number,
}
