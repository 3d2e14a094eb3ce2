tools.adapter.call({
  id: string,
  count?: number,
}): Promise<void>
