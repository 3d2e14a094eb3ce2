package protocol_test

import (
	"testing"

	"github.com/go-codemode/codemode/protocol"
)

func TestSeparateImports(t *testing.T) {
	cases := []struct {
		name, code, imports, body string
	}{
		{"none", "async () => 1", "", "async () => 1"},
		{"none, leading space", "\n  async () => 1\n", "", "async () => 1\n"},
		{"empty", "", "", ""},
		{"two on a line and a next line",
			"import x from \"a\"; import {y} from 'b'\nasync () => {}",
			"import x from \"a\"; import {y} from 'b'", "async () => {}"},
		{"side effect", `import "polyfill"; async () => 1`, `import "polyfill";`, "async () => 1"},
		{"namespace", "import * as ns from \"m\"\n() => ns", `import * as ns from "m"`, "() => ns"},
		{"default and named", "import a, {b as c, d} from \"m\";\nasync () => c",
			`import a, {b as c, d} from "m";`, "async () => c"},
		{"default and namespace", "import a, * as b from 'm'\n() => b", "import a, * as b from 'm'", "() => b"},
		{"multi-line", "import {\n  a,\n  b, // the b\n} from \"m\"\n\nasync () => a",
			"import {\n  a,\n  b, // the b\n} from \"m\"", "async () => a"},
		{"comments and blank lines between",
			"// header\nimport a from \"a\"\n\n/* the b\nmodule */\nimport b from \"b\";\n\nasync () => a + b",
			"// header\nimport a from \"a\"\n\n/* the b\nmodule */\nimport b from \"b\";", "async () => a + b"},
		{"comment after the block stays in the body",
			"import a from \"a\"\n// entry\nasync () => a", `import a from "a"`, "// entry\nasync () => a"},
		{"attributes", "import cfg from \"./c.json\" with { type: \"json\" };\n() => cfg",
			`import cfg from "./c.json" with { type: "json" };`, "() => cfg"},
		{"assert attributes", "import cfg from 'c' assert {type: 'json'}\n() => cfg",
			"import cfg from 'c' assert {type: 'json'}", "() => cfg"},
		{"binding named from", "import from from \"m\"\n() => from", `import from from "m"`, "() => from"},
		{"named import called from", "import {from} from \"m\"\n() => from", `import {from} from "m"`, "() => from"},
		{"string import name", "import {\"a-b\" as ab} from \"m\"\n() => ab", `import {"a-b" as ab} from "m"`, "() => ab"},
		{"stray semicolons", "import a from \"a\";;\nimport b from \"b\"\n() => 1",
			"import a from \"a\";;\nimport b from \"b\"", "() => 1"},
		{"leading semicolon is body", ";() => 1", "", ";() => 1"},
		{"dynamic import is body", "import(\"m\").then(x => x)", "", "import(\"m\").then(x => x)"},
		{"import.meta is body", "import.meta.url", "", "import.meta.url"},
		{"dynamic import after a static one",
			"import a from \"a\"\nawait import(\"b\")", `import a from "a"`, "await import(\"b\")"},
		{"identifier starting with import", "imported => 1", "", "imported => 1"},
		{"unfinished import ends the block",
			"import a from \"a\"\nimport b\n() => 1", `import a from "a"`, "import b\n() => 1"},
		{"no specifier", "import a from\n() => 1", "", "import a from\n() => 1"},
		{"unterminated string", "import a from \"a\n() => 1", "", "import a from \"a\n() => 1"},
		{"unterminated comment", "import a from \"a\" /* no end", `import a from "a"`, "/* no end"},
		{"type import is not ours", "import type {T} from \"m\"\n() => 1", "", "import type {T} from \"m\"\n() => 1"},
		{"escaped quote in specifier", `import a from "a\"b"; () => a`, `import a from "a\"b";`, "() => a"},
		{"only imports", "import a from \"a\"\n", `import a from "a"`, ""},
		{"CRLF", "import a from \"a\"\r\nimport b from \"b\"\r\n() => 1", "import a from \"a\"\r\nimport b from \"b\"", "() => 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			imports, body := protocol.SeparateImports(c.code)
			if imports != c.imports || body != c.body {
				t.Errorf("SeparateImports(%q)\n= %q, %q\nwant %q, %q", c.code, imports, body, c.imports, c.body)
			}
		})
	}
}
