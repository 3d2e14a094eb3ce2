tools.consume({
  token: string,
}): Promise<string>
