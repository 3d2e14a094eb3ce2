tools.context7["resolve-library-id"]({
  libraryName: string,
}): Promise<string>
