tools.users.lookup({
  login: string,
}): Promise<{
  login: string,
  id: number,
}>
