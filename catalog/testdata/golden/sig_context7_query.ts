tools.context7["resolve-library-id"]({
  query: string,
  libraryName: string,
}): Promise<unknown>
