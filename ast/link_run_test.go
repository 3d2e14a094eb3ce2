package ast_test

// Linked programs run on both engines, unchanged: these tests link a
// program and its modules, run the result on engine "ast" (interp) and on
// the VM, and compare what each run gives with what JavaScript gives.
// Only this test imports the engines; package ast does not.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/builtin"
	"github.com/go-codemode/codemode/builtin/array"
	"github.com/go-codemode/codemode/builtin/collections"
	"github.com/go-codemode/codemode/builtin/json"
	"github.com/go-codemode/codemode/builtin/numeric"
	"github.com/go-codemode/codemode/builtin/text"
	"github.com/go-codemode/codemode/builtin/web"
	"github.com/go-codemode/codemode/interp"
	"github.com/go-codemode/codemode/value"
	"github.com/go-codemode/codemode/vm"
)

var runLib = builtin.New(array.Install, text.Install, json.Install, numeric.Install, collections.Install, web.Install)

// linkMods is the module map most of the run tests import from.
var linkMods = map[string]ast.ModuleSource{
	"helpers": {Kind: "js", Text: `import { lower } from "strings"
export function slugify(s) { return lower(s).trim().replace(/ +/g, "-") }
export let count = 0
export function bump() { count++ }
export default function () { return "default of helpers" }
export * from "strings"
`},
	"strings": {Kind: "js", Text: `export const lower = s => s.toLowerCase()
export const upper = s => s.toUpperCase()
export { upper as "shout out" }
`},
	"legacy": {Kind: "cjs", Text: `const h = require("helpers")
exports.twice = x => 2 * x
exports.slug = h.slugify
exports.self = this === module.exports
`},
	"replaced":    {Kind: "cjs", Text: "module.exports = function greet(n) { return `hi ${n}` }\nmodule.exports.extra = 1\nreturn\nmodule.exports = null\n"},
	"config.json": {Kind: "json", Text: `{"name": "demo", "tags": ["a", "b"], "limits": {"max": 3}, "__proto__": {"x": 1}}`},
	"notes.txt":   {Kind: "text", Text: "line one\nline two"},
	"slow":        {Kind: "js", Text: "export const order = []\norder.push('slow start')\nawait null\norder.push('slow end')\n"},
	"fast":        {Kind: "js", Text: "import { order } from 'slow'\norder.push('fast')\nexport { order }\n"},
	"scope":       {Kind: "js", Text: "export const seen = [typeof data, typeof JSON, this === undefined, typeof arguments]\n"},
	"thrower":     {Kind: "js", Text: "export function boom() {\n  return null.x\n}\n"},
	"counter":     {Kind: "js", Text: "export let n = 0\nexport const inc = () => ++n\n"},
	"os-info": {Kind: "js", Text: `import os from "node:os"
export const where = os.platform
export { platform, arch as cpu } from "node:os"
export * as os from "node:os"
`},
}

// testHost provides modules node:*, all alike, as hosts provide theirs: by
// name, when the program runs.
type testHost struct{}

// Global provides require, for the modules the host has.
func (h testHost) Global(r *value.Realm, name string) (value.Value, bool) {
	if name != "require" {
		return value.Undefined, false
	}
	return value.Obj(r.NewNative(&value.Native{Name: "require", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
		return h.Module(r, r.ToString(c.Arg(0)).String())
	}})), true
}

func (testHost) Module(r *value.Realm, name string) value.Value {
	if !strings.HasPrefix(name, "node:") {
		r.ThrowError(value.Error, "Cannot find module '%s'", name)
	}
	o := value.NewObject(nil)
	o.Define("platform", value.StrOf("test"), value.DefaultFlags)
	o.Define("arch", value.StrOf("wasm"), value.DefaultFlags)
	return value.Obj(o)
}

// TestLinkRun runs linked programs on both engines.
func TestLinkRun(t *testing.T) {
	tests := []struct {
		name, entry, want string
	}{
		{"named import", `import { slugify } from "helpers"; return slugify("Hello World")`, `"hello-world"`},
		{"seed form: imports then an async arrow", "import { slugify } from \"helpers\"\nasync () => { return slugify(\"A B\") }", `"a-b"`},
		{"imports then export default arrow", "import { upper } from 'strings'\nexport default async () => { return upper('x') }", `"X"`},
		{"default import of a function", `import d from "helpers"; return d()`, `"default of helpers"`},
		{"default function is named default", `import d from "helpers"; return d.name`, `"default"`},
		{"star re-export", `import { upper } from "helpers"; return upper("a")`, `"A"`},
		{"string export name", `import { "shout out" as s } from "strings"; return s("hey")`, `"HEY"`},
		{"namespace keys are sorted", `import * as h from "helpers"; return Object.keys(h)`, `["bump","count","default","lower","shout out","slugify","upper"]`},
		{"namespace has no prototype", `import * as h from "helpers"; return Object.getPrototypeOf(h)`, `null`},
		{"namespace reads live", `import * as h from "helpers"; h.bump(); h.bump(); return h.count`, `2`},
		{"named imports are copies", `import { count, bump } from "helpers"; bump(); return count`, `0`},
		{"namespace is read-only", `import * as h from "helpers"; try { h.count = 5 } catch (e) { return e.name }`, `"TypeError"`},
		{"same module, same namespace", `import * as a from "helpers"; const b = await import("helpers"); return a === b`, `true`},
		{"import binding is constant", `import { slugify } from "helpers"; try { slugify = 1 } catch (e) { return e.message }`, `"Assignment to constant variable."`},
		{"require a cjs module", `const l = require("legacy"); return [l.twice(21), l.slug("X Y"), l.self]`, `[42,"x-y",true]`},
		{"ES import of cjs: default and named", `import l, { twice } from "legacy"; return [typeof l, twice(4)]`, `["object",8]`},
		{"cjs replaces module.exports and returns early", `import greet from "replaced"; return [greet("Ann"), greet.extra]`, `["hi Ann",1]`},
		{"cjs namespace", `import * as ns from "replaced"; return [typeof ns.default, ns.extra]`, `["function",1]`},
		{"json default", `import cfg from "config.json"; return [cfg.name, cfg.tags.length, cfg.limits.max]`, `["demo",2,3]`},
		{"json __proto__ is an own key", `import cfg from "config.json"; return [Object.keys(cfg), Object.getPrototypeOf(cfg) === Object.prototype]`, `[["name","tags","limits","__proto__"],true]`},
		{"require json", `return require("config.json").tags`, `["a","b"]`},
		{"text default", `import notes from "notes.txt"; return notes.split("\n")`, `["line one","line two"]`},
		{"dynamic import", `const m = await import("strings"); return m.upper("q")`, `"Q"`},
		{"dynamic import of json", `const m = await import("config.json"); return m.default.name`, `"demo"`},
		{"top-level await runs first", `import { order } from "fast"; return order`, `["slow start","slow end","fast"]`},
		{"module scope", `import { seen } from "scope"; const data = 1, JSON = 2; return seen`, `["undefined","object",true,"undefined"]`},
		{"import hoisted above use", `const r = f("x"); import { upper as f } from "strings"; return r`, `"X"`},
		{"module runs once", `import { inc } from "counter"; import * as c from "counter"; const c2 = await import("counter"); inc(); return [c.n, c2.n]`, `[1,1]`},
		{"last expression is the result", `import { upper } from "strings"; upper("z")`, `"Z"`},
		{"a module imports a host module", `import { where } from "os-info"; return where`, `"test"`},
		{"a module re-exports a host module", `import { platform, cpu, os } from "os-info"; return [platform, cpu, os.arch]`, `["test","wasm","wasm"]`},
		{"the program imports a host module", `import os from "node:os"; import { where } from "os-info"; return os.platform + where`, `"testtest"`},
		{"a closure captures a host import", `import os from "node:os"; const f = () => os.platform; return f()`, `"test"`},
		{"runtime error inside a module", `import { boom } from "thrower"; boom()`, `throw TypeError: Cannot read properties of null (reading 'x') (line 2, col 15 of module "thrower")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog, err := ast.Link(tt.entry, linkMods, ast.LinkOptions{})
			if err != nil {
				t.Fatalf("link: %v", err)
			}
			if got := runInterp(t, prog); got != tt.want {
				t.Errorf("engine ast: got %s\nwant %s", got, tt.want)
			}
			prog, _ = ast.Link(tt.entry, linkMods, ast.LinkOptions{})
			if got := runVM(t, prog); got != tt.want {
				t.Errorf("engine vm: got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestLinkRunDeep runs a chain of 1,000 modules, each importing the next.
func TestLinkRunDeep(t *testing.T) {
	const n = 1000
	mods := map[string]ast.ModuleSource{}
	for i := 0; i < n; i++ {
		text := fmt.Sprintf("export const v = %d", i)
		if i+1 < n {
			text = fmt.Sprintf("import { v as next } from \"m%d\"\nexport const v = next + 1", i+1)
		}
		mods[fmt.Sprintf("m%d", i)] = ast.ModuleSource{Kind: "js", Text: text}
	}
	prog, err := ast.Link(`import { v } from "m0"; v`, mods, ast.LinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := runVM(t, prog); got != "1998" {
		t.Errorf("got %s, want 1998", got)
	}
}

func runInterp(t *testing.T, p *ast.Program) string {
	t.Helper()
	code, err := interp.Compile(p)
	if err != nil {
		t.Fatalf("interp compile: %v", err)
	}
	run := interp.NewRun(context.Background(), code, interp.Options{Library: runLib, Host: testHost{}, Deadline: time.Now().Add(10 * time.Second)})
	defer run.Close()
	v, pr, fail := run.Start()
	if fail == nil && pr != nil {
		fail = run.Settle(pr)
		v = pr.Internal.(*value.PromiseData).Result
	}
	if fail != nil && fail.Panic != nil {
		t.Fatalf("interp panicked: %v\n%s", fail.Panic, fail.Stack)
	}
	var exc *value.Exception
	if fail != nil {
		exc = fail.Exception
	}
	return renderRun(run.Realm(), p.Source, v, exc)
}

func runVM(t *testing.T, p *ast.Program) string {
	t.Helper()
	code, err := vm.Compile(p)
	if err != nil {
		t.Fatalf("vm compile: %v", err)
	}
	run := vm.NewRun(context.Background(), code, vm.Options{Library: runLib, Host: testHost{}, Deadline: time.Now().Add(10 * time.Second)})
	v, pr, fail := run.Start()
	if fail == nil && pr != nil {
		fail = run.Settle(pr)
		v = pr.Internal.(*value.PromiseData).Result
	}
	if fail != nil && fail.Panic != nil {
		t.Fatalf("vm panicked: %v\n%s", fail.Panic, fail.Stack)
	}
	var exc *value.Exception
	if fail != nil {
		exc = fail.Exception
	}
	return renderRun(run.Realm(), p.Source, v, exc)
}

// renderRun is the value as JSON, or the exception with its location.
func renderRun(r *value.Realm, src *ast.Source, v value.Value, exc *value.Exception) string {
	var b strings.Builder
	if exc != nil {
		v = exc.Value
		b.WriteString("throw ")
	}
	switch o := v.AsObject(); {
	case v.IsUndefined():
		b.WriteString("undefined")
	case o != nil && o.Class == value.ClassError:
		b.WriteString(builtin.ErrorString(r, v).String())
		if d, ok := o.Internal.(*value.ErrorData); ok && d.Raised && d.Pos >= 0 {
			loc := src.Location(ast.Pos(d.Pos))
			fmt.Fprintf(&b, " (%s)", loc)
		}
	default:
		if s, ok, err := value.StringifyData(v, ""); ok && err == nil {
			b.WriteString(s)
		} else {
			b.WriteString(r.Describe(v))
		}
	}
	return b.String()
}

// TestLinkRunGolden runs the linker's golden cases (testdata/link) on both
// engines.
func TestLinkRunGolden(t *testing.T) {
	want := map[string]string{
		"seed.txt":    `["hello-world","code-mode"]`,
		"exports.txt": `[["Shape","again","counter","default","fn","gen","later","legacy","lower","one","quoted name","renamed","shout","strings","three","two","upper"],"default",1,"not exported","not exported",0]`,
		"cjs.txt":     `[true,42,3]`,
		"dynamic.txt": `[2,4,"object","Cannot find module 'helpers'"]`,
		"order.txt":   `["a","b"]`,
		"data.txt":    `[{"name":"demo","limits":{"max":-1500,"min":0},"tags":["a","é😀"],"__proto__":{"polluted":true},"empty":{},"none":null,"on":true},true,"Hello, \"world\""]`,
		"scope.txt":   `"[\"undefined\",true]"`,
	}
	inputs, _ := filepath.Glob("testdata/link/*.txt")
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			text, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			entry, modules := ast.ReadLinkCase(t, string(text))
			for i, run := range []func(*testing.T, *ast.Program) string{runInterp, runVM} {
				prog, err := ast.Link(entry, modules, ast.LinkOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if got := run(t, prog); got != want[filepath.Base(in)] {
					t.Errorf("engine %d: got %s\nwant %s", i, got, want[filepath.Base(in)])
				}
			}
		})
	}
}
