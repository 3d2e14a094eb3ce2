package codemode_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/protocol"
	"github.com/go-codemode/codemode/tools"
)

var testModules = protocol.ModuleMap{
	"helpers":     protocol.JSModule(`import cfg from "config.json"; export const slugify = s => s.toLowerCase().replace(/\s+/g, "-"); export let count = 0; export function bump() { count++ } export default cfg.region`),
	"config.json": protocol.JSONModule(json.RawMessage(`{"region":"eu","__proto__":{"x":1}}`)),
	"banner":      protocol.TextModule("hello"),
	"legacy":      protocol.CJSModule(`const h = require("helpers"); module.exports = { twice: x => 2 * x, slug: h.slugify("A B") }`),
	"thrower":     protocol.JSModule("export function boom() {\n  return null.x\n}"),
	"broken":      protocol.JSModule("export const = 1"),
	"a":           protocol.JSModule(`import { b } from "b"; export const a = 1`),
	"b":           protocol.JSModule(`import { a } from "a"; export const b = 2`),
	"nowhere":     protocol.JSModule(`import x from "lodash"; export default x`),
}

// TestModuleMaps: programs import the host's modules by name (ES,
// CommonJS, JSON, text), in the seed's entry form too; errors name the
// module.
func TestModuleMaps(t *testing.T) {
	rt, err := codemode.New(codemode.Options{Modules: testModules})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, code string
		want       string // the value, or "error: <message>"
		module     string // the error's location's module
	}{
		{"the entry form", "import { slugify } from \"helpers\"\nasync () => slugify(\"Ada Lovelace\")", `"ada-lovelace"`, ""},
		{"default, JSON and text", `import region from "helpers"; import cfg from "config.json"; import b from "banner"; return [region, cfg.region, Object.keys(cfg), b]`,
			`["eu","eu",["region","__proto__"],"hello"]`, ""},
		{"a namespace is live", `import * as h from "helpers"; h.bump(); h.bump(); return [h.count, Object.keys(h)]`, `[2,["bump","count","default","slugify"]]`, ""},
		{"CommonJS, requiring an ES module", `const l = require("legacy"); return [l.twice(21), l.slug]`, `[42,"a-b"]`, ""},
		{"host modules still work", `import { URL } from "node:url"; import { slugify } from "helpers"; return slugify(new URL("https://x.example/A B").hostname)`, `"x.example"`, ""},
		{"an error inside a module", `import { boom } from "thrower"; boom()`,
			`error: TypeError: Cannot read properties of null (reading 'x') (line 2, col 15 of module "thrower")`, "thrower"},
		{"a syntax error in a module", `import x from "broken"; return x`, `error: Module "broken": Unexpected token '=' (1:13)`, "broken"},
		{"a cycle", `import { a } from "a"; return a`, `error: Module cycle: "a" imports "b", which imports "a". (1:18)`, ""},
		{"an unknown name", `import x from "nowhere"; return x`, `error: Module "nowhere" imports "lodash", which is not in the module map (it has: a, b, banner, broken, config.json, helpers, legacy, nowhere, thrower) and is not a module this host provides. (1:14)`, ""},
		{"a missing export", `import { nope } from "helpers"; return nope`, `error: The requested module 'helpers' does not provide an export named 'nope' (1:9)`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := rt.Execute(context.Background(), c.code)
			got := string(res.Value)
			if !res.OK {
				got = "error: " + res.Error.Message
			}
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			if c.module != "" && (res.Error == nil || res.Error.Location == nil || res.Error.Location.Module != c.module) {
				t.Errorf("location %+v, want in module %q", res.Error, c.module)
			}
		})
	}
}

// TestModulesPerRun: WithModules adds to and overrides Options.Modules.
func TestModulesPerRun(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{Modules: protocol.ModuleMap{"v": protocol.TextModule("runtime"), "w": protocol.TextModule("kept")}})
	res := rt.Execute(context.Background(), `import v from "v"; import w from "w"; return v + " " + w`, codemode.WithModules(protocol.ModuleMap{"v": protocol.TextModule("run")}))
	if string(res.Value) != `"run kept"` {
		t.Errorf("got %s", res)
	}
}

// TestModulesSurviveResume: a state keeps the run's modules; the
// Runtime that resumes it needs none.
func TestModulesSurviveResume(t *testing.T) {
	ctx := context.Background()
	hold := func(context.Context, codemode.ToolCallInfo) error { return codemode.ErrSuspend }
	echo := &tools.Tool{Description: "echo", Output: json.RawMessage(`{}`), Func: func(_ context.Context, in json.RawMessage) (any, error) { return in, nil }}
	first, _ := codemode.New(codemode.Options{Tools: map[string]any{"echo": echo}, Hooks: codemode.Hooks{ToolBefore: hold}})
	out, err := first.Program(`import * as h from "helpers"; h.bump(); const r = await tools.echo({s: h.slugify("X Y")}); h.bump(); return [r.s, h.count]`,
		codemode.WithModules(testModules)).Run(ctx)
	if err != nil || !out.IsSuspended() {
		t.Fatalf("%v %+v", err, out.Result)
	}
	second, _ := codemode.New(codemode.Options{Tools: map[string]any{"echo": echo}})
	res, err := second.Resume(out.Suspended.State, codemode.Approve(out.Suspended.Pending[0].Key)).Run(ctx)
	if err != nil || string(res.Result.Value) != `["x-y",2]` {
		t.Fatalf("%v %s", err, res.Result)
	}
}

// TestExecutorModules: a request's module map.
func TestExecutorModules(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{})
	res, err := rt.Executor(codemode.ExecutorOptions{}).Execute(context.Background(), protocol.ExecuteRequest{
		Code: "import { slugify } from \"helpers\"\nimport b from \"banner\"\nasync () => slugify(b + \" World\")", Modules: testModules})
	if err != nil || string(res.Result) != `"hello-world"` {
		t.Fatalf("%+v %v", res, err)
	}
	res, _ = rt.Executor(codemode.ExecutorOptions{}).Execute(context.Background(), protocol.ExecuteRequest{Code: `import x from "broken"; return x`, Modules: testModules})
	if res.Error == nil || !strings.HasPrefix(res.Error.Message, `Module "broken"`) {
		t.Errorf("got %+v", res)
	}
}

// TestModulesCountAgainstTheSourceLimit: modules are source too.
func TestModulesCountAgainstTheSourceLimit(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{Limits: codemode.Limits{MaxSourceBytes: 1000}})
	res := rt.Execute(context.Background(), `return 1`, codemode.WithModules(protocol.ModuleMap{"big": protocol.TextModule(strings.Repeat("x", 2000))}))
	if res.OK || !strings.HasPrefix(res.Error.Message, "The program and its modules are ") {
		t.Errorf("got %s", res)
	}
}
