package ast

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// ReadLinkCase is readLinkCase, for the tests that run linked programs.
var ReadLinkCase = readLinkCase

// readLinkCase reads a case of testdata/link: a comment, then the program
// and its modules, each after a line "-- entry --" or "-- NAME (KIND) --".
func readLinkCase(t testing.TB, text string) (string, map[string]ModuleSource) {
	var entry string
	modules := map[string]ModuleSource{}
	var name, kind string
	var body []string
	flush := func() {
		if name == "" {
			return
		}
		text := strings.Join(body, "\n")
		if name == "entry" {
			entry = text
		} else {
			modules[name] = ModuleSource{Kind: kind, Text: text}
		}
	}
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if strings.HasPrefix(line, "-- ") && strings.HasSuffix(line, " --") {
			flush()
			head := strings.TrimSuffix(strings.TrimPrefix(line, "-- "), " --")
			name, kind, body = head, "", nil
			if i := strings.LastIndex(head, " ("); i >= 0 && strings.HasSuffix(head, ")") {
				name, kind = head[:i], head[i+2:len(head)-1]
			}
			continue
		}
		body = append(body, line)
	}
	flush()
	if entry == "" {
		t.Fatal("no -- entry -- section")
	}
	return entry, modules
}

// TestLinkGolden links each case under testdata/link and compares, with
// NAME.golden, the modules' units in the Source, the free names, each
// module function's frame and the linked program, printed. Run with
// -update to rewrite them.
func TestLinkGolden(t *testing.T) {
	inputs, _ := filepath.Glob("testdata/link/*.txt")
	if len(inputs) == 0 {
		t.Fatal("no link cases")
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			text, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			entry, modules := readLinkCase(t, string(text))
			prog, err := Link(entry, modules, LinkOptions{})
			if err != nil {
				t.Fatalf("link: %v", err)
			}
			var b strings.Builder
			for _, u := range prog.Source.Units() {
				fmt.Fprintf(&b, "unit %s (%s) at %d, %s\n", u.Module, u.Kind, u.Start, prog.Source.Location(Pos(u.Start)))
			}
			b.WriteString("globals: " + strings.Join(prog.Globals, " ") + "\n")
			Inspect(prog.Func, func(n Node) bool {
				if fn, ok := n.(*Function); ok && fn.Module != "" {
					fmt.Fprintf(&b, "module %s: async=%v %s\n", fn.Module, fn.Async, frameSummary(fn.Scope))
				}
				return true
			})
			b.WriteString("\n--- linked ---\n")
			b.WriteString(Print(prog))
			b.WriteString("\n")
			got := b.String()
			golden := strings.TrimSuffix(in, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./ast -run TestLinkGolden -update)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (run with -update and review the diff):\n%s", golden, got)
			}
		})
	}
}

// TestLinkErrors shows the diagnostics: what is wrong, in which module,
// where in that module's own text.
func TestLinkErrors(t *testing.T) {
	js := func(text string) ModuleSource { return ModuleSource{Kind: "js", Text: text} }
	helpers := js("export function slugify(s) { return s }\nexport default 1")
	host := func(name string) bool { return strings.HasPrefix(name, "node:") }
	tests := []struct {
		name    string
		entry   string
		modules map[string]ModuleSource
		want    string // the error, with its location
	}{
		{"missing export", `import { nope } from "helpers"`, map[string]ModuleSource{"helpers": helpers},
			`The requested module 'helpers' does not provide an export named 'nope' (line 1, col 10)`},
		{"missing default", `import d from "m"`, map[string]ModuleSource{"m": js("export const a = 1")},
			`The requested module 'm' does not provide an export named 'default' (line 1, col 8)`},
		{"missing export in a module", `import "a"`, map[string]ModuleSource{"a": js("\nimport { x } from 'b'"), "b": js("export {}")},
			`Module "a": The requested module 'b' does not provide an export named 'x' (line 2, col 10 of module "a")`},
		{"missing re-export", `import "a"`, map[string]ModuleSource{"a": js("export { x } from 'b'"), "b": js("")},
			`Module "a": The requested module 'b' does not provide an export named 'x' (line 1, col 10 of module "a")`},
		{"named import of json", `import { a } from "c.json"`, map[string]ModuleSource{"c.json": {Kind: "json", Text: `{"a": 1}`}},
			`The requested module 'c.json' does not provide an export named 'a' (line 1, col 10)`},
		{"named import of text", `import { a } from "t"`, map[string]ModuleSource{"t": {Kind: "text", Text: "a"}},
			`The requested module 't' does not provide an export named 'a' (line 1, col 10)`},
		{"ambiguous star export", `import { x } from "a"`, map[string]ModuleSource{"a": js("export * from 'b'\nexport * from 'c'"), "b": js("export const x = 1"), "c": js("export const x = 2")},
			`The requested module 'a' contains conflicting star exports for name 'x' (line 1, col 10)`},
		{"cycle", `import "a"`, map[string]ModuleSource{"a": js(`import "b"`), "b": js(`import "a"`)},
			`Module cycle: "a" imports "b", which imports "a". (line 1, col 8 of module "b")`},
		{"cycle through require", `import "a"`, map[string]ModuleSource{"a": js(`import "b"`), "b": {Kind: "cjs", Text: "\nrequire('a')"}},
			`Module cycle: "a" imports "b", which imports "a". (line 2, col 9 of module "b")`},
		{"cycle through import()", `import "a"`, map[string]ModuleSource{"a": js(`export const f = () => import("a")`)},
			`Module cycle: "a" imports "a". (line 1, col 31 of module "a")`},
		{"cycle through export from", `import "a"`, map[string]ModuleSource{"a": js(`export * from "b"`), "b": js(`export * from "c"`), "c": js(`export { x } from "a"`)},
			`Module cycle: "a" imports "b", which imports "c", which imports "a". (line 1, col 19 of module "c")`},
		{"unknown module", `import _ from "lodash"`, map[string]ModuleSource{"helpers": helpers, "config.json": {Kind: "json", Text: "{}"}},
			`The program imports "lodash", which is not in the module map (it has: config.json, helpers) and is not a module this host provides. (line 1, col 15)`},
		{"unknown module in a module", `import "helpers2"`, map[string]ModuleSource{"helpers2": js("\nimport _ from 'lodash'")},
			`Module "helpers2" imports "lodash", which is not in the module map (it has: helpers2) and is not a module this host provides. (line 2, col 15 of module "helpers2")`},
		{"unknown require", `const x = require("lodash")`, nil,
			`The program imports "lodash", which is not in the module map (it is empty) and is not a module this host provides. (line 1, col 19)`},
		{"unknown import()", `const x = await import("lodash")`, nil,
			`The program imports "lodash", which is not in the module map (it is empty) and is not a module this host provides. (line 1, col 24)`},
		{"syntax error in a module", `import "m"`, map[string]ModuleSource{"m": js("let x = 1\nlet y = ;")},
			`Module "m": Unexpected token ';' (line 2, col 9 of module "m")`},
		{"early error in a module", `import "m"`, map[string]ModuleSource{"m": js("let x\nvar x")},
			`Module "m": Identifier 'x' has already been declared (line 1, col 5 of module "m")`},
		{"return in an ES module", `import "m"`, map[string]ModuleSource{"m": js("return 1")},
			`Module "m": Illegal return statement (line 1, col 1 of module "m")`},
		{"new.target in an ES module", `import "m"`, map[string]ModuleSource{"m": js("new.target")},
			`Module "m": new.target expression is not allowed here (line 1, col 1 of module "m")`},
		{"export in the program", `export const x = 1`, nil,
			`'export' is not allowed: the program is the body of an async function; return the value instead (line 1, col 1)`},
		{"export in a CommonJS module", `import "m"`, map[string]ModuleSource{"m": {Kind: "cjs", Text: "export const x = 1"}},
			`Module "m": 'export' is not allowed in a CommonJS module; assign to module.exports instead (line 1, col 1 of module "m")`},
		{"import in a CommonJS module", `import "m"`, map[string]ModuleSource{"m": {Kind: "cjs", Text: "import x from 'y'"}},
			`Module "m": Cannot use import statement in a CommonJS module; use require() instead (line 1, col 1 of module "m")`},
		{"await in a CommonJS module", `import "m"`, map[string]ModuleSource{"m": {Kind: "cjs", Text: "await 1"}},
			`Module "m": 'await' is only valid in async functions and at the top level of the program. (line 1, col 1 of module "m")`},
		{"nested export", `import "m"`, map[string]ModuleSource{"m": js("{ export const x = 1 }")},
			`Module "m": 'export' may only appear at the top level of a module (line 1, col 3 of module "m")`},
		{"duplicate export", `import "m"`, map[string]ModuleSource{"m": js("export const a = 1\nexport { a }")},
			`Module "m": Duplicate export of 'a' (line 2, col 10 of module "m")`},
		{"export of an undeclared name", `import "m"`, map[string]ModuleSource{"m": js("{ let a }\nexport { a }")},
			`Module "m": Export 'a' is not defined in module (line 2, col 10 of module "m")`},
		{"export of a reserved word", `import "m"`, map[string]ModuleSource{"m": js("export { default }")},
			`Module "m": Unexpected reserved word 'default' in export (line 1, col 10 of module "m")`},
		{"export of a string without from", `import "m"`, map[string]ModuleSource{"m": js(`export { "a" }`)},
			`Module "m": A string literal cannot be used as an exported binding without 'from' (line 1, col 10 of module "m")`},
		{"export * from CommonJS", `import "m"`, map[string]ModuleSource{"m": js(`export * from "c"`), "c": {Kind: "cjs", Text: ""}},
			`Module "m" re-exports everything from "c", a CommonJS module, whose names are only known when it runs; re-export them by name: export { a, b } from "c" (line 1, col 1 of module "m")`},
		{"export * from a host module", `import "m"`, map[string]ModuleSource{"m": js(`export * from "node:fs"`)},
			`Module "m" re-exports everything from "node:fs", a module the host provides, whose names are only known when it runs; re-export them by name: export { a, b } from "node:fs" (line 1, col 1 of module "m")`},
		{"invalid JSON", `import c from "c.json"`, map[string]ModuleSource{"c.json": {Kind: "json", Text: "{\n  \"a\": 1,\n  \"b\" 2\n}"}},
			`Module "c.json" is not valid JSON: Expected ':' after property name (line 3, col 7 of module "c.json")`},
		{"empty JSON", `import c from "c.json"`, map[string]ModuleSource{"c.json": {Kind: "json", Text: ""}},
			`Module "c.json" is not valid JSON: Unexpected end of JSON input (line 1, col 1 of module "c.json")`},
		{"JSON with a trailing comma", `import c from "c.json"`, map[string]ModuleSource{"c.json": {Kind: "json", Text: "[1,]"}},
			`Module "c.json" is not valid JSON: Unexpected token ']' (line 1, col 4 of module "c.json")`},
		{"JSON nested too deeply", `import c from "c.json"`, map[string]ModuleSource{"c.json": {Kind: "json", Text: strings.Repeat("[", 2000)}},
			`Module "c.json" is not valid JSON: The value is nested too deeply (more than 1000 levels) (line 1, col 1001 of module "c.json")`},
		{"not UTF-8", `import t from "t"`, map[string]ModuleSource{"t": {Kind: "text", Text: "ok\n\xff"}},
			`Module "t" is not valid UTF-8 (line 2, col 1 of module "t")`},
		{"type attribute of another kind", `import c from "c" with { type: "json" }`, map[string]ModuleSource{"c": js("export default 1")},
			`The requested module 'c' is a js module, not json: its import says with { type: "json" } (line 1, col 15)`},
		{"unknown type attribute", `import c from "c" with { type: "css" }`, map[string]ModuleSource{"c": js("export default 1")},
			`Import attribute type "css" is not supported (the types are json and text) (line 1, col 15)`},
		{"unknown import attribute", `import c from "c" with { mode: "x" }`, nil,
			`Import attribute 'mode' is not supported; the only one is type (line 1, col 26)`},
		{"unknown kind", `import "a"`, map[string]ModuleSource{"a": {Kind: "yaml"}},
			`Module "a" has unknown kind "yaml" (the kinds are js, cjs, json or text).`},
		{"no kind", `import "a"`, map[string]ModuleSource{"a": {Text: "1"}},
			`Module "a" has no kind (the kinds are js, cjs, json or text).`},
		{"empty name", `1`, map[string]ModuleSource{"": js("")},
			`The module map has a module with an empty name.`},
		{"the program's own error", `import "a"; let x = ;`, map[string]ModuleSource{"a": js("")},
			`Unexpected token ';' (line 1, col 21)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Link(tt.entry, tt.modules, LinkOptions{HostModule: host})
			var perr *Error
			if !errors.As(err, &perr) {
				t.Fatalf("got %v, want an *Error", err)
			}
			if got := perr.Error(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			// Pos is in the text of the module the error names.
			text := tt.entry
			if m := perr.Location.Module; m != "" {
				text = tt.modules[m].Text
			}
			if perr.Pos >= 0 {
				if loc := NewSource(text).Location(perr.Pos); loc.Line != perr.Location.Line || loc.Column != perr.Location.Column {
					t.Errorf("Pos %d is at %s in the text, the error says %s", perr.Pos, loc, perr.Location)
				}
			}
		})
	}
}

// TestLinkHostModules shows which names the linker leaves to the host.
func TestLinkHostModules(t *testing.T) {
	src := "import fs from \"node:fs\"\nconst c = require(\"crypto\")\nreturn [fs, c]"
	// Without HostModule, any name outside the map is the host's business.
	prog, err := Link(src, nil, LinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := Print(prog); got != "import fs from \"node:fs\";\nconst c = require(\"crypto\");\nreturn [fs, c];" {
		t.Errorf("printed:\n%s", got)
	}
	// With it, only the names it accepts.
	_, err = Link(src, nil, LinkOptions{HostModule: func(name string) bool { return name == "node:fs" }})
	if err == nil || !strings.Contains(err.Error(), `The program imports "crypto"`) {
		t.Errorf("got %v", err)
	}
	// A local require is not the module system's.
	if _, err := Link(`const require = x => x; return require("anything")`, nil, LinkOptions{HostModule: func(string) bool { return false }}); err != nil {
		t.Fatal(err)
	}
}

// TestLinkWithoutModules shows that a program that imports nothing from a
// map links to exactly what ParseWith makes of it.
func TestLinkWithoutModules(t *testing.T) {
	inputs, _ := filepath.Glob("testdata/corpus/*.js")
	golden, _ := filepath.Glob("testdata/golden/*.js")
	inputs = append(inputs, golden...)
	for _, in := range inputs {
		text, _ := os.ReadFile(in)
		want, err := Parse(string(text))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		got, err := Link(string(text), map[string]ModuleSource{"unused": {Kind: "js", Text: "export const a = 1"}}, LinkOptions{})
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if Dump(got.Func, got.Source) != Dump(want.Func, want.Source) {
			t.Errorf("%s: Link made a different tree", in)
		}
	}
}

// TestLinkImportsThenWrapper shows the seed's form, imports and then one
// arrow function, with and without a module map: the program is the
// imports and the arrow's body, at their own positions.
func TestLinkImportsThenWrapper(t *testing.T) {
	tests := []struct {
		name, text, printed string
	}{
		{"async arrow", "import { slugify } from \"helpers\"\nasync () => {\n  return slugify(\"A B\")\n}",
			"import {slugify} from \"helpers\";\nreturn slugify(\"A B\");"},
		{"plain arrow", "import a from 'a'\nimport * as b from 'b';\n() => { const x = a(); return b.f(x) };\n",
			"import a from 'a';\nimport * as b from 'b';\nconst x = a();\nreturn b.f(x);"},
		{"parenthesized", "import a from 'a'\n(async () => { return a })",
			"import a from 'a';\nreturn a;"},
		{"export default", "import a from 'a'\nexport default async () => { return a }",
			"import a from 'a';\nreturn a;"},
		{"function expression", "import a from 'a'\n;(async function () { return a })",
			"import a from 'a';\nreturn a;"},
		{"comments first", "// Slugify the titles.\n/* v2 */ import a from 'a'\nasync () => { return a }",
			"import a from 'a';\nreturn a;"},
		{"fenced", "```js\nimport a from 'a'\nasync () => { return a }\n```",
			"import a from 'a';\nreturn a;"},
		{"typescript", "import type { T } from 't'\nimport a from 'a'\nasync (): Promise<T> => { return a as T }",
			"import a from 'a';\nreturn a;"},
		{"arrow with parameters stays", "import a from 'a'\nasync (x) => { return x }",
			"import a from 'a';\nasync (x) => {\n  return x;\n};"},
		{"arrow called stays", "import a from 'a'\n(async () => { return a })()",
			"import a from 'a';\n(async () => {\n  return a;\n})();"},
		{"statements between stay", "import a from 'a'\nconst b = 1\nasync () => { return a }",
			"import a from 'a';\nconst b = 1;\nasync () => {\n  return a;\n};"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog, err := Parse(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if got := Print(prog); got != tt.printed {
				t.Errorf("printed:\n%s\nwant:\n%s", got, tt.printed)
			}
			if prog.Source.Text != tt.text {
				t.Errorf("the Source's text changed")
			}
			// Every node is where it is in the text: an identifier's
			// position holds its name.
			Inspect(prog.Func, func(n Node) bool {
				if id, ok := n.(*Ident); ok && !strings.HasPrefix(tt.text[id.Start:], id.Name) {
					t.Errorf("%s at %d is not there in the text", id.Name, id.Start)
				}
				return true
			})
		})
	}
	// An error in the body points into the text as sent.
	_, err := Parse("import a from 'a'\nasync () => {\n  let x = ;\n}")
	var perr *Error
	if !errors.As(err, &perr) || perr.Location != (Location{Line: 3, Column: 11}) {
		t.Errorf("got %v, want an error at 3:11", err)
	}
	// The same with a module map: the imports are linked.
	prog, err := Link("import { f } from \"m\"\nasync () => {\n  return f()\n}", map[string]ModuleSource{"m": {Kind: "js", Text: "export const f = () => 1"}}, LinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Print(prog.Body()[len(prog.Body())-1]), "return f();"; got != want {
		t.Errorf("last statement %q, want %q", got, want)
	}
}

// TestLinkLocations shows how positions in a linked program map back to
// the texts: the program's are unchanged, a module's are in its own text.
func TestLinkLocations(t *testing.T) {
	entry := "import { f } from \"m\"\r\nreturn f()"
	mods := map[string]ModuleSource{
		"m": {Kind: "js", Text: "import { g } from 'n'\nexport const f = () =>\n  g()\r"},
		"n": {Kind: "js", Text: "export function g(x) {\n  return \"😀\" + x.y\n}"},
	}
	prog, err := Link(entry, mods, LinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	src := prog.Source
	units := src.Units()
	if len(units) != 2 || units[0].Module != "n" || units[1].Module != "m" {
		t.Fatalf("units %+v, want n then m", units)
	}
	for _, u := range units {
		if got := src.Text[u.Start:u.End]; got != mods[u.Module].Text {
			t.Errorf("unit %s holds %q", u.Module, got)
		}
	}
	at := func(module, needle string) Pos {
		if module == "" {
			return Pos(strings.Index(entry, needle))
		}
		for _, u := range units {
			if u.Module == module {
				return Pos(u.Start + strings.Index(mods[module].Text, needle))
			}
		}
		t.Fatalf("no unit %s", module)
		return NoPos
	}
	tests := []struct {
		pos  Pos
		want Location
	}{
		{at("", "return"), Location{Line: 2, Column: 1}},
		{at("", "f()"), Location{Line: 2, Column: 8}},
		{at("n", "export"), Location{Line: 1, Column: 1, Module: "n"}},
		{at("n", ".y"), Location{Line: 2, Column: 18, Module: "n"}}, // 😀 is two columns
		{at("m", "g()"), Location{Line: 3, Column: 3, Module: "m"}},
		{Pos(units[1].End), Location{Line: 4, Column: 1, Module: "m"}}, // the end of m, after its last line break
	}
	for _, tt := range tests {
		if got := src.Location(tt.pos); got != tt.want {
			t.Errorf("Location(%d) = %+v, want %+v", tt.pos, got, tt.want)
		}
	}
	if got, want := src.Snippet(at("n", ".y")), "  return \"😀\" + x.y\n                ^"; got != want {
		t.Errorf("snippet:\n%s\nwant:\n%s", got, want)
	}
	// Without modules there are no units.
	if p, _ := Parse("1"); len(p.Source.Units()) != 0 {
		t.Error("a parsed program has units")
	}
}

// TestLinkScope shows how the resolver sees a module: its free names are
// globals, whatever the program declares, and the modules' constants are
// captured from the program.
func TestLinkScope(t *testing.T) {
	prog, err := Link("import { f } from \"m\"\nconst JSON = 1, data = 2\nreturn f()",
		map[string]ModuleSource{"m": {Kind: "js", Text: "export const f = () => JSON.stringify(data)"}}, LinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(prog.Globals, []string{"JSON", "data"}) {
		t.Errorf("globals %v, want [JSON data]", prog.Globals)
	}
	var names []string
	Inspect(prog.Func, func(n Node) bool {
		if id, ok := n.(*Ident); ok && (id.Name == "JSON" || id.Name == "data") {
			names = append(names, fmt.Sprintf("%s@%s:%s", id.Name, src(prog, id.Start), id.Binding.Storage))
		}
		return true
	})
	want := []string{"JSON@m:global", "data@m:global", "JSON@:local", "data@:local"}
	if !slices.Equal(names, want) {
		t.Errorf("bindings %v, want %v", names, want)
	}
}

func src(p *Program, pos Pos) string { return p.Source.Location(pos).Module }

// TestLinkDeterministic links the same inputs many times: the Program is
// the same every time, as the VM's snapshots need.
func TestLinkDeterministic(t *testing.T) {
	text, _ := os.ReadFile("testdata/link/exports.txt")
	entry, modules := readLinkCase(t, string(text))
	for i := 0; i < 8; i++ {
		modules[fmt.Sprintf("extra%d", i)] = ModuleSource{Kind: "js", Text: fmt.Sprintf("export * from 'lib'\nexport const e%d = %d", i, i)}
		entry = fmt.Sprintf("import * as x%d from 'extra%d'\n", i, i) + entry
	}
	first, err := Link(entry, modules, LinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := Dump(first.Func, first.Source)
	for i := 0; i < 20; i++ {
		p, err := Link(entry, modules, LinkOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if Dump(p.Func, p.Source) != want || p.Source.Text != first.Source.Text {
			t.Fatal("a second link made a different program")
		}
	}
}

// TestLinkBounds links large and hostile maps: each must finish quickly,
// whatever its shape, without exhausting the Go stack.
func TestLinkBounds(t *testing.T) {
	js := func(text string) ModuleSource { return ModuleSource{Kind: "js", Text: text} }
	wide := map[string]ModuleSource{}
	var imports strings.Builder
	for i := 0; i < 1000; i++ {
		wide[fmt.Sprintf("m%d", i)] = js(fmt.Sprintf("import { v as a } from 'shared'\nexport const v%d = a + %d", i, i))
		fmt.Fprintf(&imports, "import { v%d } from 'm%d'\n", i, i)
	}
	wide["shared"] = js("export const v = 1")
	chain := func(n int, text func(i int) string) map[string]ModuleSource {
		m := map[string]ModuleSource{}
		for i := 0; i < n; i++ {
			m[fmt.Sprintf("c%d", i)] = js(text(i))
		}
		return m
	}
	tests := []struct {
		name    string
		entry   string
		modules map[string]ModuleSource
		err     string // "" when it links
	}{
		{"1,000 modules", imports.String() + "return v999", wide, ""},
		{"a chain 1,000 deep", `import { v } from "c0"; v`, chain(1000, func(i int) string {
			if i == 999 {
				return "export const v = 0"
			}
			return fmt.Sprintf("import { v as w } from 'c%d'\nexport const v = w + 1", i+1)
		}), ""},
		{"a cycle 5,000 long", `import "c0"`, chain(5000, func(i int) string { return fmt.Sprintf("import 'c%d'", (i+1)%5000) }),
			`Module cycle: "c0" imports "c1", which imports "c2", which imports "c3", which imports "c4", which imports "c5", which imports "c6", which imports "c7", which imports ... (4985 more), which imports "c4993", which imports "c4994", which imports "c4995", which imports "c4996", which imports "c4997", which imports "c4998", which imports "c4999", which imports "c0".`},
		{"export * down a chain 2,000 deep", `import * as ns from "c0"`, chain(2000, func(i int) string {
			if i == 1999 {
				return "export const v = 0"
			}
			return fmt.Sprintf("export * from 'c%d'\nexport const v%d = %d", i+1, i, i)
		}), "The modules re-export too many names with export *"},
		{"a module importing itself 1,000 times over", `import "a"`, map[string]ModuleSource{"a": js(strings.Repeat("import 'b'\n", 1000)), "b": js("")}, ""},
		{"JSON 1,000 deep", `import c from "c"`, map[string]ModuleSource{"c": {Kind: "json", Text: strings.Repeat("[", 1000) + strings.Repeat("]", 1000)}}, ""},
		{"deep nesting in a module", `import "a"`, map[string]ModuleSource{"a": js(strings.Repeat("(", 100000))}, "nested too deeply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := Link(tt.entry, tt.modules, LinkOptions{})
			switch {
			case tt.err == "" && err != nil:
				t.Fatal(err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("got %v, want an error with %q", err, tt.err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// FuzzLink links an arbitrary program with arbitrary modules of every
// kind. It must never panic (an "internal error"), and whatever it links
// must resolve into a program whose every position maps to a location.
func FuzzLink(f *testing.F) {
	inputs, _ := filepath.Glob("testdata/link/*.txt")
	for _, in := range inputs {
		text, _ := os.ReadFile(in)
		entry, modules := readLinkCase(f, string(text))
		var js, cjs, json string
		for _, m := range modules {
			switch m.Kind {
			case "js":
				js = m.Text
			case "cjs":
				cjs = m.Text
			case "json":
				json = m.Text
			}
		}
		f.Add(entry, js, cjs, json)
	}
	f.Add(`import * as a from "a"; import b from "b"; return [a, b, require("c"), await import("a")]`,
		`export * from "b"; export { default as d } from "c"; export const x = 1`, `module.exports = require("c")`, `{"__proto__": 1}`)
	f.Add(`import "a"`, `import "a"`, `require("b")`, `[`)
	f.Fuzz(func(t *testing.T, entry, js, cjs, json string) {
		modules := map[string]ModuleSource{
			"a": {Kind: "js", Text: js},
			"b": {Kind: "cjs", Text: cjs},
			"c": {Kind: "json", Text: json},
			"d": {Kind: "text", Text: js},
		}
		prog, err := Link(entry, modules, LinkOptions{})
		if err != nil {
			var perr *Error
			if !errors.As(err, &perr) {
				t.Fatalf("not an *Error: %v", err)
			}
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("linker bug: %v", err)
			}
			return
		}
		Inspect(prog.Func, func(n Node) bool {
			if p := n.Pos(); p < NoPos || int(p) > len(prog.Source.Text) {
				t.Fatalf("%T at %d, outside the text", n, p)
			}
			prog.Source.Location(n.Pos())
			return true
		})
		again, err := Link(entry, modules, LinkOptions{})
		if err != nil || Dump(again.Func, again.Source) != Dump(prog.Func, prog.Source) {
			t.Fatalf("a second link made a different program (%v)", err)
		}
	})
}

// BenchmarkLink links the seed's case: a program, two ES modules and a
// JSON module.
func BenchmarkLink(b *testing.B) {
	text, err := os.ReadFile("testdata/link/seed.txt")
	if err != nil {
		b.Fatal(err)
	}
	entry, modules := readLinkCase(b, string(text))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Link(entry, modules, LinkOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
