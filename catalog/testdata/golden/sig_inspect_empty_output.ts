tools.inspect(): Promise<{}>
