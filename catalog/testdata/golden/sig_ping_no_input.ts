tools.ping(): Promise<string>
