package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
)

// prelude is prepended to every case: t turns a throw into
// "Name: message".
const prelude = `const t = (f) => { try { return f(); } catch (e) { return e.name + ": " + e.message; } };
`

// ownCases are where codemode deliberately differs from node, or what
// node cannot show:
//   - structuredClone's failures are TypeErrors whose message starts
//     "DataCloneError: " (reference 2.9); node throws a DOMException
//     named DataCloneError with the rest of the message;
//   - the platform objects a program gets back from the host boundary
//     (URLSearchParams as its query string, Headers as an object) and
//     the Uint8Array rejection;
//   - TextDecoder knows only UTF-8: labels node supports for other
//     encodings throw the RangeError node gives for unknown ones.
var ownCases = []struct{ name, code, want string }{
	{"clone_failures", `return [t(() => structuredClone(Math.max)), t(() => structuredClone({ f: Math.min })), t(() => structuredClone(Promise.resolve())),
 t(() => structuredClone(Symbol.iterator)), t(() => structuredClone({ a: Symbol.asyncIterator })), t(() => structuredClone((function* () {})())),
 t(() => structuredClone([1].values())), t(() => structuredClone(new WeakMap())), t(() => structuredClone(new WeakSet())),
 t(() => structuredClone(new URL("http://a"))), t(() => structuredClone(new URLSearchParams("a=1"))), t(() => structuredClone(new Headers())),
 t(() => structuredClone(new Map([[1, Math.abs]]))), t(() => structuredClone(new Error("m", { cause: Math.abs }))),
 t(() => structuredClone()), t(() => structuredClone(1, 5)), t(() => structuredClone(1, { transfer: 5 })), t(() => structuredClone(1, { transfer: [{}] }))];`,
		`["TypeError: DataCloneError: function max() { [native code] } could not be cloned.","TypeError: DataCloneError: function min() { [native code] } could not be cloned.","TypeError: DataCloneError: #<Promise> could not be cloned.","TypeError: DataCloneError: Symbol(Symbol.iterator) could not be cloned.","TypeError: DataCloneError: Symbol(Symbol.asyncIterator) could not be cloned.","TypeError: DataCloneError: [object Generator] could not be cloned.","TypeError: DataCloneError: [object Array Iterator] could not be cloned.","TypeError: DataCloneError: #<WeakMap> could not be cloned.","TypeError: DataCloneError: #<WeakSet> could not be cloned.","TypeError: DataCloneError: Cannot clone object of unsupported type.","TypeError: DataCloneError: Cannot clone object of unsupported type.","TypeError: DataCloneError: Cannot clone object of unsupported type.","TypeError: DataCloneError: function abs() { [native code] } could not be cloned.","TypeError: DataCloneError: function abs() { [native code] } could not be cloned.","TypeError: The \"The value argument must be specified\" argument must be specified","TypeError: Failed to execute 'structuredClone': Options cannot be converted to a dictionary","TypeError: Failed to execute 'structuredClone': transfer in Options cannot be converted to sequence.","TypeError: DataCloneError: Found invalid value in transferList."]`},
	{"clone_deep_nesting", `let o = {}; const root = o;
for (let i = 0; i < 20000; i++) { o.next = {}; o = o.next; }
return t(() => structuredClone(root));`,
		`"RangeError: Maximum call stack size exceeded"`},
	{"boundary_values", `const p = new URLSearchParams({ page: "3", sort: "name desc" });
const h = new Headers({ B: "2", A: "1" });
h.append("set-cookie", "x"); h.append("set-cookie", "y");
return { p, h, u: new URL("https://e.example/a b"), e: new URLSearchParams() };`,
		`{"p":"page=3&sort=name+desc","h":{"a":"1","b":"2","set-cookie":"x, y"},"u":"https://e.example/a%20b","e":""}`},
	{"text_decoder_other_encodings", `return [t(() => new TextDecoder("latin1")), t(() => new TextDecoder("utf-16le"))];`,
		`["RangeError: The \"latin1\" encoding is not supported","RangeError: The \"utf-16le\" encoding is not supported"]`},
	{"error_codes", `const codes = [];
for (const f of [() => new URL("x"), () => new URLSearchParams([1]), () => new TextDecoder("x"), () => atob(), () => new TextEncoder().encodeInto("a", 1)]) {
  try { f(); } catch (e) { codes.push(e.code); }
}
return codes;`,
		`["ERR_INVALID_URL","ERR_INVALID_TUPLE","ERR_ENCODING_NOT_SUPPORTED","ERR_MISSING_ARGS","ERR_INVALID_ARG_TYPE"]`},
	{"hostile_sizes", `const big = "\u00e9".repeat(1 << 23);
return [t(() => encodeURIComponent(big).length), t(() => new Uint8Array(1e7 + 1)), t(() => Uint8Array.from({ length: 1e7 + 1 })), t(() => new Uint8Array(5e6).toHex().length)];`,
		`["RangeError: Invalid string length","RangeError: Array buffer allocation failed","RangeError: Array buffer allocation failed",10000000]`},
	{"headers_many_iterate", `const h = new Headers();
for (let i = 0; i < 2000; i++) h.append("x-" + (i % 500), String(i));
let n = 0; for (const _ of h) n++;
return [n, h.get("x-1")];`,
		`[500,"1, 501, 1001, 1501"]`},
}

func run(t *testing.T, rt *codemode.Runtime, name, code, want string) {
	t.Run(name, func(t *testing.T) {
		res := rt.Execute(context.Background(), prelude+code)
		got, _ := res.MarshalJSON()
		wantRes := `{"ok":true,"value":` + want + `,"toolCalls":[]}`
		if !sameJSON(got, []byte(wantRes)) {
			t.Errorf("program:\n%s\ngot:  %s\nwant: %s", code, got, wantRes)
		}
	})
}

func TestWeb(t *testing.T) {
	rt, err := codemode.New(codemode.Options{Limits: codemode.Limits{Timeout: 20 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range nodeCases {
		run(t, rt, c.name, c.code, c.want)
	}
	for _, c := range ownCases {
		run(t, rt, c.name, c.code, c.want)
	}
}

// sameJSON compares two JSON texts token by token: key order matters,
// string escapes and number spellings do not.
func sameJSON(a, b []byte) bool {
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	for {
		ta, ea := da.Token()
		tb, eb := db.Token()
		if errors.Is(ea, io.EOF) && errors.Is(eb, io.EOF) {
			return true
		}
		if ea != nil || eb != nil {
			return false
		}
		if na, ok := ta.(json.Number); ok {
			nb, ok := tb.(json.Number)
			if !ok {
				return false
			}
			fa, _ := na.Float64()
			fb, _ := nb.Float64()
			if fa != fb {
				return false
			}
			continue
		}
		if ta != tb {
			return false
		}
	}
}
