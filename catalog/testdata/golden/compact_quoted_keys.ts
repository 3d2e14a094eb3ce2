{ "123"?: number; "foo-bar"?: string; "@type": string; "x.y"?: number; plain?: boolean }
