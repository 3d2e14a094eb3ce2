package text_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/go-codemode/codemode"
)

// run executes a program and returns its Result decoded.
func run(t *testing.T, rt *codemode.Runtime, code string) map[string]any {
	t.Helper()
	res := rt.Execute(context.Background(), code)
	var got map[string]any
	if err := json.Unmarshal([]byte(res.String()), &got); err != nil {
		t.Fatalf("bad Result JSON %s: %v", res.String(), err)
	}
	return got
}

// TestNodeCases runs programs whose values were recorded from V8 and
// compares the values.
func TestNodeCases(t *testing.T) {
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range nodeCases {
		t.Run(c.name, func(t *testing.T) {
			got := run(t, rt, c.code)
			var want any
			if err := json.Unmarshal([]byte(c.want), &want); err != nil {
				t.Fatalf("bad expectation %s: %v", c.want, err)
			}
			if got["ok"] != true || !reflect.DeepEqual(got["value"], want) {
				gotJSON, _ := json.Marshal(got)
				t.Errorf("program:\n%s\ngot:  %s\nwant: %s", c.code, gotJSON, c.want)
			}
		})
	}
}

// TestKeyOrder checks the order of keys that a deep comparison cannot
// see: the groups object follows the pattern's group order.
func TestKeyOrder(t *testing.T) {
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ code, want string }{
		{`return Object.keys(/(?<z>a)(?<a>b)(?<m>c)?/.exec("ab").groups);`, `{"ok":true,"value":["z","a","m"],"toolCalls":[]}`},
		{`let g; "ab".replace(/(?<z>a)(?<a>b)/, (...args) => { g = args[args.length - 1]; return ""; }); return [g, Object.getPrototypeOf(g)];`,
			`{"ok":true,"value":[{"z":"a","a":"b"},null],"toolCalls":[]}`},
		{`return Object.keys(/(?<y>a)|(?<x>b)|(?<y>c)/.exec("c").groups);`, `{"ok":true,"value":["y","x"],"toolCalls":[]}`},
	} {
		if got := rt.Execute(context.Background(), c.code).String(); got != c.want {
			t.Errorf("program:\n%s\ngot:  %s\nwant: %s", c.code, got, c.want)
		}
	}
}

// TestUncaught checks that errors this package raises reach the Result
// with their location, and that a regex SyntaxError from a literal is an
// ordinary catchable error.
func TestUncaught(t *testing.T) {
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ code, want string }{
		{`"a".repeat(-1)`, `{"ok":false,"error":{"kind":"ExecutionFailure","message":"RangeError: Invalid count value: -1 (line 1, col 1)","location":{"line":1,"column":1}},"toolCalls":[]}`},
		{`String.raw({ raw: { length: 1e9 } })`, `{"ok":false,"error":{"kind":"ExecutionFailure","message":"RangeError: Invalid string length (line 1, col 1)","location":{"line":1,"column":1}},"toolCalls":[]}`},
		{`"x".split("", 2 ** 32 - 1).length + "a".repeat(2 ** 20).split("").length`, `{"ok":true,"value":1048577,"toolCalls":[]}`},
		{`const re = /a/; re.exec = () => ({ 0: "a", index: 0, length: 1e15 }); "a".replace(re, "b")`, `{"ok":false,"error":{"kind":"ExecutionFailure","message":"RangeError: Invalid array length (line 1, col 71)","location":{"line":1,"column":71}},"toolCalls":[]}`},
		{`RegExp.prototype.exec = () => ({ 0: "a", index: 0, length: 1e15 }); "a,b".split(/,/)`, `{"ok":false,"error":{"kind":"ExecutionFailure","message":"RangeError: Invalid array length (line 1, col 69)","location":{"line":1,"column":69}},"toolCalls":[]}`},
		{`const x = 1;
return new RegExp("[");`, `{"ok":false,"error":{"kind":"ExecutionFailure","message":"SyntaxError: Invalid regular expression: /[/: Unterminated character class (line 2, col 8)","location":{"line":2,"column":8}},"toolCalls":[]}`},
	} {
		if got := rt.Execute(context.Background(), c.code).String(); got != c.want {
			t.Errorf("program:\n%s\ngot:  %s\nwant: %s", c.code, got, c.want)
		}
	}
}

// TestHostileArguments calls every String and RegExp function with every
// pairing of odd receivers and arguments: each call must return or throw
// a JavaScript error, never crash the run.
func TestHostileArguments(t *testing.T) {
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const code = `
const vals = [undefined, null, true, 0, -0, NaN, Infinity, -Infinity, 1.5, -1, 2 ** 32, 2 ** 53, "", "abc", "a😀\ud800",
  Symbol.iterator, {}, [], /a/g, /(?<n>x)?/dy, { toString() { throw new Error("t"); } }, { valueOf() { return 3; } },
  () => "fn", { raw: ["a", "b"] }, new RegExp("", "u")];
const targets = [String.prototype, RegExp.prototype, String, RegExp];
let calls = 0;
for (const t of targets) {
  for (const k of Object.getOwnPropertyNames(t)) {
    const d = Object.getOwnPropertyDescriptor(t, k);
    const fns = [];
    if (typeof d.value === "function") fns[fns.length] = d.value;
    if (d.get) fns[fns.length] = d.get;
    for (const f of fns) for (const th of vals) for (const a of vals) for (const b of [undefined, "g"]) {
      calls++;
      try {
        const r = f.call(th, a, b);
        if (r && typeof r.next === "function" && r !== th) for (const x of r) {}
      } catch (e) {}
    }
  }
}
return calls > 1000;`
	res := rt.Execute(context.Background(), code)
	if got := res.String(); got != `{"ok":true,"value":true,"toolCalls":[]}` {
		t.Errorf("got %s", got)
	}
}
