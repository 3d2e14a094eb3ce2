package codemode_test

import (
	"context"
	"strings"
	"testing"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/internal/engine"
)

// TestLanguageDetails: behaviours the script suite does not reach,
// with expected values from node 26 (or, for what codemode rejects on
// purpose, the diagnostic it gives).
func TestLanguageDetails(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"asi", "let a = 1, b = 2\na\n++b\nconst f = () => { return\n  1 }\nreturn [a, b, f()]", `[1,3,null]`},
		{"object statics", `const o = {}; Object.defineProperties(o, { x: { value: 1, enumerable: true }, y: { get() { return 2 } } });
const d = Object.getOwnPropertyDescriptors(o);
return [o.x, o.y, Object.keys(o), d.x, typeof d.y.get, Object.getOwnPropertySymbols({ [Symbol.iterator]: 1, a: 2 }).length, ({}).toLocaleString()]`,
			`[1,2,["x"],{"value":1,"writable":false,"enumerable":true,"configurable":false},"function",1,"[object Object]"]`},
		{"date seconds", `const d = new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678));
const r = [d.getSeconds(), d.getMilliseconds()];
d.setSeconds(30); d.setUTCMinutes(15); d.setUTCMilliseconds(9);
return [...r, d.toISOString()]`, `[5,678,"2024-01-02T03:15:30.009Z"]`},
		{"symbols", `class Even { static [Symbol.hasInstance](n) { return n % 2 === 0 } }
return [Symbol.iterator.description, Symbol.asyncIterator.description, 4 instanceof Even, 3 instanceof Even]`,
			`["Symbol.iterator","Symbol.asyncIterator",true,false]`},
		{"optional chain boundary", `const n = null; try { (n?.a).b } catch (e) { return [n?.a, n?.a.b.c, e.message] }`,
			`[null,null,"Cannot read properties of undefined (reading 'b')"]`},
		{"invalid regex from the constructor", `try { new RegExp("(").test("x") } catch (e) { return [e.name, e.message] }`,
			`["SyntaxError","Invalid regular expression: /(/: Unterminated group"]`},
		{"symbol not constructible", `try { new Symbol() } catch (e) { return [e.name, e.message, typeof Symbol("x"), Symbol("x").description, Symbol().description] }`,
			`["TypeError","Symbol is not a constructor","symbol","x",null]`},
		{"no eval, Proxy, Reflect", `return [typeof eval, typeof Proxy, typeof Reflect]`, `["undefined","undefined","undefined"]`},
	}
	rt, _ := codemode.New(codemode.Options{})
	// A bad pattern in a literal is an early error, as in node: even
	// where the literal is never reached, nothing runs.
	for _, src := range []string{`try { /(/.test("x") } catch (e) { return e.name }`, `if (false) { /(/ } return "ok"`} {
		res := rt.Execute(context.Background(), src)
		if res.OK || res.Error == nil || res.Error.Kind != codemode.ParseError || !strings.HasPrefix(res.Error.Message, "Invalid regular expression: /(/: Unterminated group (1:") {
			t.Errorf("%s: got %s, want the ParseError 'Invalid regular expression: /(/: Unterminated group'", src, res)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := rt.Execute(context.Background(), tt.src)
			if !res.OK || string(res.Value) != tt.want {
				t.Errorf("got  %s\nwant value %s", res, tt.want)
			}
		})
	}
}

// TestUnsupportedSyntax: syntax codemode parses but does not run is a
// catchable SyntaxError at run time; uncaught, it is the UnsupportedSyntax
// diagnostic with the location and the supported-syntax suggestion.
func TestUnsupportedSyntax(t *testing.T) {
	tests := []struct{ src, node, at string }{
		{"with ({}) {}", "WithStatement", " (line 1, col 1)"},
		{"debugger", "DebuggerStatement", " (line 1, col 1)"},
		{"return import.meta", "MetaProperty", " (line 1, col 8)"},
	}
	rt, _ := codemode.New(codemode.Options{})
	// A bad pattern in a literal is an early error, as in node: even
	// where the literal is never reached, nothing runs.
	for _, src := range []string{`try { /(/.test("x") } catch (e) { return e.name }`, `if (false) { /(/ } return "ok"`} {
		res := rt.Execute(context.Background(), src)
		if res.OK || res.Error == nil || res.Error.Kind != codemode.ParseError || !strings.HasPrefix(res.Error.Message, "Invalid regular expression: /(/: Unterminated group (1:") {
			t.Errorf("%s: got %s, want the ParseError 'Invalid regular expression: /(/: Unterminated group'", src, res)
		}
	}
	for _, tt := range tests {
		t.Run(tt.node, func(t *testing.T) {
			res := rt.Execute(context.Background(), tt.src)
			want := "SyntaxError: Syntax '" + tt.node + "' is not supported. This is a restricted JavaScript-like language. "
			if res.OK || res.Error.Kind != codemode.UnsupportedSyntax || !strings.HasPrefix(res.Error.Message, want) ||
				!strings.HasSuffix(res.Error.Message, tt.at) || res.Error.Location == nil ||
				len(res.Error.Suggestions) != 1 || !strings.HasPrefix(res.Error.Suggestions[0], "Supported: ") {
				t.Errorf("got %s", res)
			}
		})
	}
	res := rt.Execute(context.Background(), "return 1n")
	if want := `{"ok":false,"error":{"kind":"UnsupportedSyntax","message":"SyntaxError: BigInt literals are not supported. (line 1, col 8)","location":{"line":1,"column":8},"suggestions":["` + engine.UnsupportedSuggestion + `"]},"toolCalls":[]}`; res.String() != want {
		t.Errorf("got  %s\nwant %s", res, want)
	}
	res = rt.Execute(context.Background(), "try { Function('return 1')() } catch (e) { return e.name }")
	if !res.OK || string(res.Value) != `"TypeError"` {
		t.Errorf("Function constructor: %s", res)
	}
	res = rt.Execute(context.Background(), "Function('return 1')")
	if res.OK || res.Error.Kind != codemode.UnsupportedSyntax || !strings.Contains(res.Error.Message, "The Function constructor is not supported; write the function inline.") {
		t.Errorf("Function constructor uncaught: %s", res)
	}
}

func TestNeverSettlingMessage(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{})
	res := rt.Execute(context.Background(), "await new Promise(() => {})")
	want := `{"ok":false,"error":{"kind":"ExecutionFailure","message":"The program is waiting for a promise that can never settle: nothing is left to run. Make sure every promise you await is resolved or rejected."},"toolCalls":[]}`
	if res.String() != want {
		t.Errorf("got  %s\nwant %s", res, want)
	}
}

func TestBoxedBoolean(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{})
	res := rt.Execute(context.Background(), "const b = new Boolean(false); return [typeof b, !!b, b.valueOf(), b == false, JSON.stringify(b), b]")
	if want := `{"ok":true,"value":["object",true,false,true,"false",false],"toolCalls":[]}`; res.String() != want {
		t.Errorf("got  %s\nwant %s", res, want)
	}
}
