package vm_test

import (
	"context"
	"fmt"
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

// The engine "ast" is imported by this test only, to compare with: the
// packages themselves never import each other.

var lib = builtin.New(array.Install, text.Install, json.Install, numeric.Install, collections.Install, web.Install)

// render describes how a run ended, the same way for both engines: the
// value as JSON (or described), or the exception with its location, and
// the console lines.
func render(r *value.Realm, src *ast.Source, v value.Value, exc *value.Exception, intr *value.Interrupt, logs []string) string {
	var b strings.Builder
	switch {
	case intr != nil:
		fmt.Fprintf(&b, "interrupt %s: %s", intr.Kind, intr.Message)
	case exc != nil:
		fmt.Fprintf(&b, "throw %s", renderValue(r, exc.Value))
		if o := exc.Value.AsObject(); o != nil {
			if d, ok := o.Internal.(*value.ErrorData); ok && d.Raised && d.Pos >= 0 {
				loc := src.Location(ast.Pos(d.Pos))
				fmt.Fprintf(&b, " (line %d, col %d)", loc.Line, loc.Column)
			}
		}
	default:
		b.WriteString(renderValue(r, v))
	}
	for _, l := range logs {
		b.WriteString("\n" + l)
	}
	return b.String()
}

func renderValue(r *value.Realm, v value.Value) string {
	if v.IsUndefined() {
		return "undefined"
	}
	if o := v.AsObject(); o != nil && o.Class == value.ClassError {
		var s string
		if exc := r.Try(func() { s = builtin.ErrorString(r, v).String() }); exc != nil {
			return "error"
		}
		return s
	}
	if s, ok, err := value.StringifyData(v, ""); ok && err == nil {
		return s
	}
	return r.Describe(v)
}

func parse(t testing.TB, code string) *ast.Program {
	t.Helper()
	p, err := ast.ParseWith(code, ast.Options{})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return p
}

const testTimeout = 5 * time.Second

// runVM runs code on the VM; err is a compile error.
func runVM(t testing.TB, code string) (string, error) {
	p := parse(t, code)
	prog, err := vm.Compile(p)
	if err != nil {
		return "", err
	}
	run := vm.NewRun(context.Background(), prog, vm.Options{Library: lib, Deadline: time.Now().Add(testTimeout)})
	v, pr, fail := run.Start()
	if fail == nil && pr != nil {
		fail = run.Settle(pr)
		v = pr.Internal.(*value.PromiseData).Result
	}
	if fail != nil && fail.Panic != nil {
		t.Fatalf("vm panicked: %v\n%s", fail.Panic, fail.Stack)
	}
	var exc *value.Exception
	var intr *value.Interrupt
	if fail != nil {
		exc, intr = fail.Exception, fail.Interrupt
	}
	return render(run.Realm(), p.Source, v, exc, intr, run.Realm().Logs), nil
}

// runAST runs code on engine "ast".
func runAST(t testing.TB, code string) string {
	p := parse(t, code)
	prog, err := interp.Compile(p)
	if err != nil {
		t.Fatalf("interp compile: %v", err)
	}
	run := interp.NewRun(context.Background(), prog, interp.Options{Library: lib, Deadline: time.Now().Add(testTimeout)})
	defer run.Close()
	v, pr, fail := run.Start()
	if fail == nil && pr != nil {
		fail = run.Settle(pr)
		v = pr.Internal.(*value.PromiseData).Result
	}
	if fail != nil && fail.Panic != nil {
		t.Fatalf("interp panicked: %v", fail.Panic)
	}
	var exc *value.Exception
	var intr *value.Interrupt
	if fail != nil {
		exc, intr = fail.Exception, fail.Interrupt
	}
	return render(run.Realm(), p.Source, v, exc, intr, run.Realm().Logs)
}

func TestPrograms(t *testing.T) {
	tests := []struct{ name, code, want string }{
		{"arith", "1 + 2 * 3 - 4 / 2", "5"},
		{"strings", `"a" + 1 + "b"`, `"a1b"`},
		{"compare", "[1 < 2, 2 <= 1, 'a' < 'b', 1 == '1', 1 === '1', null ?? 3, 0 || 'x', 1 && 2]", `[true,false,true,true,false,3,"x",2]`},
		{"let", "let x = 1; { let x = 2; } x", "1"},
		{"tdz", "x; let x = 1", "throw ReferenceError: Cannot access 'x' before initialization (line 1, col 1)"},
		{"const", "const x = 1; x = 2", "throw TypeError: Assignment to constant variable. (line 1, col 14)"},
		{"while", "let i = 0, s = 0; while (i < 10) { s += i; i++ } s", "45"},
		{"for", "let s = 0; for (let i = 0; i < 5; i++) { if (i == 3) continue; s += i } s", "7"},
		{"do", "let i = 0; do { i++ } while (i < 3); i", "3"},
		{"labels", "let n = 0; outer: for (let i = 0; i < 3; i++) { for (let j = 0; j < 3; j++) { if (j == 1) continue outer; if (i == 2) break outer; n++ } } n", "2"},
		{"fib", "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) } fib(15)", "610"},
		{"closures", "const fs = []; for (let i = 0; i < 3; i++) fs.push(() => i); fs.map(f => f())", "[0,1,2]"},
		{"counter", "function mk() { let c = 0; return { inc() { return ++c }, get: () => c } } const o = mk(); o.inc(); o.inc(); o.get()", "2"},
		{"objects", "const o = {a: 1, ['b' + 1]: 2, 'c d': [1, , 3]}; o.a += 10; o['x'] = 5; delete o.a; o", `{"b1":2,"c d":[1,null,3],"x":5}`},
		{"update", "const a = [1]; let o = {n: 1}; const r = [a[0]++, ++a[0], o.n--, --o.n]; [r, a, o]", `[[1,3,1,-1],[3],{"n":-1}]`},
		{"try", "let log = []; try { log.push(1); throw new Error('x') } catch (e) { log.push(e.message) } finally { log.push(2) } log", `[1,"x",2]`},
		{"finally-return", "function f() { try { return 1 } finally { console.log('fin') } } f()", "1\nfin"},
		{"finally-override", "function f() { try { throw 1 } finally { return 2 } } f()", "2"},
		{"finally-break", "let n = 0; for (;;) { try { n++; if (n > 2) break } finally { n += 10 } } n", "22"},
		{"nested-finally", "function f() { try { try { return 'a' } finally { console.log(1) } } finally { console.log(2) } } f()", "\"a\"\n1\n2"},
		{"throw-across", "function g() { null.x } function f() { try { g() } catch (e) { return e.message } } f()", `"Cannot read properties of null (reading 'x')"`},
		{"uncaught", "function g() { undefinedName } g()", "throw ReferenceError: undefinedName is not defined (line 1, col 16)"},
		{"not-a-function", "const o = {}; o.f(1)", "throw TypeError: o.f is not a function (line 1, col 15)"},
		{"callbacks", "[3, 1, 2].sort((a, b) => a - b).map(x => x * 2).filter(x => x > 2)", "[4,6]"},
		{"callback-throws", "let m; try { [1].map(() => { throw new Error('in map') }) } catch (e) { m = e.message } m", `"in map"`},
		{"new", "function P(x) { this.x = x } const p = new P(3); [p.x, p instanceof P]", "[3,true]"},
		{"switch", "function f(x) { switch (x) { case 1: return 'one'; case 2: case 3: return 'few'; default: return 'many' } } [f(1), f(3), f(9)]", `["one","few","many"]`},
		{"switch-break", "let s = ''; switch (2) { case 1: s += 'a'; case 2: s += 'b'; case 3: s += 'c'; break; case 4: s += 'd' } s", `"bc"`},
		{"template", "const n = 3; `n=${n}, s=${'x'}${[1, 2]}`", `"n=3, s=x1,2"`},
		{"typeof", "[typeof 1, typeof nope, typeof {}, typeof (() => 1)]", `["number","undefined","object","function"]`},
		{"globals", "Math.max(1, 5, 3) + JSON.parse('[2]')[0]", "7"},
		{"console", "console.log('hi', 1); 2", "2\nhi 1"},
		{"recursion-limit", "function f(n) { return f(n + 1) } f(0)", "throw RangeError: Maximum call stack size exceeded (line 1, col 24)"},
		{"recursion-caught", "function f(n) { return f(n + 1) } let m; try { f(0) } catch (e) { m = e.message } m", `"Maximum call stack size exceeded"`},
		{"logical-assign", "let a = null; a ??= 5; let o = {x: 0}; o.x ||= 7; o.y &&= 1; [a, o]", `[5,{"x":7}]`},
		{"named-fn", "const f = function () {}; const g = () => 1; [f.name, g.name]", `["f","g"]`},
		{"regexp", "/a(b+)/.exec('xabbb')[1]", `"bbb"`},
		{"return-top", "if (true) { return 4 } 5", "4"},
		{"switch-tdz", "switch (1) { case 0: let x = 1; case 1: x }", "throw ReferenceError: Cannot access 'x' before initialization (line 1, col 41)"},
		{"loop-tdz", "let out = []; for (let k = 0; k < 2; k++) { try { out.push(y) } catch (e) { out.push(e.name) } let y = k } out", `["ReferenceError","ReferenceError"]`},
		{"inc-string", "let s = '5'; s++; s--; s--; s", "4"},
		{"reentrant-depth", "function f(n) { return n > 0 ? [n - 1].map(f)[0] : 0 } f(20000)", "throw RangeError: Maximum call stack size exceeded (line 1, col 32)"},
		{"reentrant-deep-ok", "function f(n) { return n > 0 ? [n - 1].map(f)[0] + 1 : 0 } f(3000)", "3000"},
		{"spread-array", "const a = [2, 3]; [1, ...a, , ...'xy', 4]", `[1,2,3,null,"x","y",4]`},
		{"spread-call", "Math.max(...[1, 5], 2, ...new Set([9]))", "9"},
		{"spread-program-call", "function add(a, b, c) { return a + b + c } const xs = [1, 2]; add(...xs, 3) + add(...[1, 1, 1, 1])", "9"},
		{"spread-new", "function P(a, b) { this.s = a + b } new P(...[1, 2]).s", "3"},
		{"spread-not-iterable", "Math.max(...1)", "throw TypeError: 1 is not iterable (line 1, col 6)"},
		{"spread-array-not-iterable", "[0, ...null]", "throw TypeError: null is not iterable (line 1, col 1)"},
		{"getter-setter", "const o = {v: 1, get x() { return this.v * 10 }, set x(n) { this.v = n }}; o.x = 4; [o.x, Object.getOwnPropertyDescriptor(o, 'x').get.name]", `[40,"get x"]`},
		{"defaults", "function f(a, b = a + 1, c = () => b) { return [a, b, c()] } [f(1), f(1, 5), f(1, undefined, undefined), f.length]", "[[1,2,2],[1,5,5],[1,2,2],1]"},
		{"default-tdz", "function f(a = b, b) { return a } f()", "throw ReferenceError: Cannot access 'b' before initialization (line 1, col 16)"},
		{"rest", "function f(a, ...r) { return [a, r, r.length] } [f(), f(1), f(1, 2, 3), f.length]", "[[null,[],0],[1,[],0],[1,[2,3],2],1]"},
		{"arguments", "function f(a) { a = 5; return [arguments.length, arguments[0], Array.isArray(arguments), [...arguments]] } f(1, 2)", "[2,1,false,[1,2]]"},
		{"arguments-captured", "function f() { const g = () => arguments[1]; return g() } f('x', 'y')", `"y"`},
		{"for-of", "let s = 0; for (const x of [1, 2, 3]) s += x; for (const ch of 'ab') s += ch; s", `"6ab"`},
		{"for-of-closures", "const fs = []; for (const x of [1, 2]) fs.push(() => x); fs.map(f => f())", "[1,2]"},
		{"for-of-break-closes", "let log = []; const it = { [Symbol.iterator]() { let i = 0; return { next: () => ({value: i++, done: i > 5}), return() { log.push('closed'); return {} } } } }; outer: for (const a of [1]) { for (const v of it) { if (v == 1) continue; if (v == 2) continue outer; log.push(v) } } for (const v of it) { if (v == 1) break } function f() { for (const v of it) return v } f(); try { for (const v of it) throw 'x' } catch (e) { log.push(e) } log", `[0,"closed","closed","closed","closed","x"]`},
		{"for-of-target", "const o = {}; let last; for (o.k of [1, 2]) ; for (last of 'xyz') ; [o.k, last]", `[2,"z"]`},
		{"for-of-finally", "function f() { for (const x of [1, 2]) { try { return x } finally { console.log('f', x) } } } f()", "1\nf 1"},
		{"computed-methods", "const k = 'm'; const s = Symbol('t'); const o = {[k + 1]() { return 1 }, [s]: function () {}, [k]: () => 2}; [o.m1(), o.m1.name, o[s].name, o.m.name, o.m()]", `[1,"m1","[t]","m",2]`},
		{"computed-key-order", "const log = []; const o = {[{toString() { log.push('key'); return 'k' }}]: log.push('value')}; log", `["key","value"]`},
		{"destructure-decl", "const {a, b: [c, , d = 4, ...e], ...rest} = {a: 1, b: [2, 3, undefined, 5, 6], x: 7, y: 8}; [a, c, d, e, rest]", `[1,2,4,[5,6],{"x":7,"y":8}]`},
		{"destructure-computed", "const k = 'q'; const {[k]: v = 9, [k + 1]: w = 10, ...o} = {q: undefined, z: 1}; [v, w, o]", `[9,10,{"z":1}]`},
		{"destructure-assign", "let a, b; const o = {}; [a, b] = [b, a] = [1, 2]; ({x: o.p, y: o['q'] = 5} = {x: 3}); [a, b, o]", `[1,2,{"p":3,"q":5}]`},
		{"destructure-params", "function f({a, b = a}, [c] = [7], ...[d, e]) { return [a, b, c, d, e] } [f({a: 1}), f({a: 1, b: 2}, [3], 4, 5)]", "[[1,1,7,null,null],[1,2,3,4,5]]"},
		{"destructure-null", "const {a} = null", "throw TypeError: Cannot destructure property 'a' of 'null' as it is null. (line 1, col 7)"},
		{"destructure-not-iterable", "const [a] = undefined", "throw TypeError: undefined is not iterable (line 1, col 7)"},
		{"destructure-closes", "let log = []; const it = { [Symbol.iterator]() { return { next: () => ({value: 1, done: false}), return() { log.push('closed'); return {} } } } }; const [x] = it; try { const [y = (() => { throw 'boom' })()] = [undefined] } catch (e) { log.push(e) } [x, log]", `[1,["closed","boom"]]`},
		{"destructure-catch-forof", "const out = []; try { throw {m: 'x', n: [1]} } catch ({m, n: [k]}) { out.push(m, k) } for (const [i, v] of [[0, 'a'], [1, 'b']]) out.push(i + v); for ({length: out[9]} of ['abc']) ; out", `["x",1,"0a","1b",null,null,null,null,null,3]`},
		{"optional-chain", "const o = {a: {b: () => 5, n: null}, f: null}; [o?.a.b(), o.x?.y.z, o.a.n?.q, o.f?.(), o.a.b?.(), o.a?.['b']?.(), o.zz?.[(() => { throw 1 })()]]", "[5,null,null,null,5,5,null]"},
		{"optional-this", "const o = {v: 3, m() { return this.v }}; o?.m()", "3"},
		{"object-spread", "const a = {x: 1, y: 2}; ({...a, y: 3, ...null, ...'hi'})", `{"0":"h","1":"i","x":1,"y":3}`},
		{"for-in", "const o = {a: 1, b: 2}; const p = Object.create(o); p.c = 3; const ks = []; for (const k in p) { ks.push(k); delete o.b } for (k2 in 'xy') ks.push(k2); var k2; for (const k in null) ks.push(k); ks", `["c","a","0","1"]`},
		{"big-frames", "function f(n) { let v0 = n + 0; let v1 = n + 1; let v2 = n + 2; let v3 = n + 3; let v4 = n + 4; let v5 = n + 5; let v6 = n + 6; let v7 = n + 7; let v8 = n + 8; let v9 = n + 9; let v10 = n + 10; let v11 = n + 11; let v12 = n + 12; let v13 = n + 13; let v14 = n + 14; let v15 = n + 15; let v16 = n + 16; let v17 = n + 17; let v18 = n + 18; let v19 = n + 19; let v20 = n + 20; let v21 = n + 21; let v22 = n + 22; let v23 = n + 23; let v24 = n + 24; let v25 = n + 25; let v26 = n + 26; let v27 = n + 27; let v28 = n + 28; let v29 = n + 29; let v30 = n + 30; let v31 = n + 31; let v32 = n + 32; let v33 = n + 33; let v34 = n + 34; let v35 = n + 35; let v36 = n + 36; let v37 = n + 37; let v38 = n + 38; let v39 = n + 39; return v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12 + v13 + v14 + v15 + v16 + v17 + v18 + v19 + v20 + v21 + v22 + v23 + v24 + v25 + v26 + v27 + v28 + v29 + v30 + v31 + v32 + v33 + v34 + v35 + v36 + v37 + v38 + v39 } let s = 0; for (let i = 0; i < 100; i++) s += f(i); [s, [1, 2].map(x => f(x))]", "[276000,[820,860]]"},
		{"tagged-template", "function tag(s, ...v) { return [s, s.raw, v, Object.isFrozen(s)] } const sites = []; for (let i = 0; i < 2; i++) sites.push((x => x)`a${i}`); [tag`x${1}\\n${2}`, String.raw`\\u${'z'}`, sites[0] === sites[1]]", `[[["x","\n",""],["x","\\n",""],[1,2],true],"\\uz",true]`},
		{"add-assign-order", "let s = 1; s += (s = 10, 2); let t = 'a'; t += 1; t += {toString() { return 'o' }}; let u = 1; u += [u++][0]; [s, t, u]", `[3,"a1o",2]`},
		{"cmp-jump", "const r = []; for (const [a, b] of [[1, 2], ['b', 'a'], [NaN, 1], [null, 0], [1, '1']]) { if (a < b) r.push('lt'); if (a <= b) r.push('le'); if (a > b) r.push('gt'); if (a >= b) r.push('ge'); if (a === b) r.push('eq'); if (a !== b) r.push('ne') } r.join()", `"lt,le,ne,gt,ge,ne,ne,le,ge,ne,le,ge,ne"`},
		{"method-this", "const o = {n: 2, m() { return this.n }}; o.m()", "2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := runVM(t, tt.code)
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			if got != tt.want {
				t.Errorf("vm:\n got %s\nwant %s", got, tt.want)
			}
			if a := runAST(t, tt.code); a != got {
				t.Errorf("engines differ:\n vm  %s\n ast %s", got, a)
			}
		})
	}
}

func parseOrNil(code string) (*ast.Program, error) { return ast.ParseWith(code, ast.Options{}) }

// TestDeepNesting runs programs nested as deep as the parser allows on
// both engines: the compiler's recursion is bounded by the parser's, and
// the operand stack grows in segments.
func TestDeepNesting(t *testing.T) {
	const n = 900
	programs := []string{
		strings.Repeat("(", n) + "1" + strings.Repeat(" + 1)", n),
		strings.Repeat("[", n) + strings.Repeat("]", n) + ".length",
		"let x = 0; " + strings.Repeat("if (true) { ", n/3) + "x++" + strings.Repeat(" }", n/3) + "; x",
		"function f(n) { return n == 0 ? 0 : 1 + f(n - 1) } f(9000)",
		"function g(a, b, c, d, e, f, h) { return a + b + c + d + e + f + h } let s = 0; for (let i = 0; i < 1000; i++) s += g(" + strings.Repeat("i, ", 6) + "g(1, 2, 3, 4, 5, 6, 7)); s",
	}
	for _, code := range programs {
		got, err := runVM(t, code)
		if err != nil {
			t.Fatalf("compile: %v", err)
		}
		if want := runAST(t, code); got != want {
			t.Errorf("engines differ on %.40q...:\n vm  %.200s\n ast %.200s", code, got, want)
		}
	}
}
