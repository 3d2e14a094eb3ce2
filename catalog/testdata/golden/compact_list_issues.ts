{ owner: string; after?: string; perPage?: number; labels?: Array<string>; state?: "open" | "closed" }
