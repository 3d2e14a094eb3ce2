package vm_test

import (
	"strings"
	"testing"
)

// langTest is a program and its expected outcome, which engine "ast"
// must give too.
type langTest struct{ name, code, want string }

func runLangTests(t *testing.T, tests []langTest) {
	t.Helper()
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

func TestClasses(t *testing.T) {
	runLangTests(t, []langTest{
		{"named-function-expression-param", "var x = (function f(arg) { return [arg, typeof f] })(1); [x, typeof f]", `[[1,"function"],"undefined"]`},
		{"basic", "class P { constructor(x) { this.x = x } get double() { return this.x * 2 } static make() { return new P(4) } } const p = P.make(); [p.x, p.double, p instanceof P, typeof P, P.name, P.length]", `[4,8,true,"function","P",1]`},
		{"derived", "class A { constructor(n) { this.n = n } who() { return 'A' + this.n } } class B extends A { constructor() { super(7); this.m = 1 } who() { return 'B' + super.who() } } const b = new B(); [b.who(), b.n, b.m, b instanceof A]", `["BA7",7,1,true]`},
		{"implicit-derived", "class A { constructor(...a) { this.a = a } } class B extends A {} new B(1, 2).a", "[1,2]"},
		{"fields", "let i = 0; class C { a = ++i; b = this.a * 10; static s = 'st'; static { C.t = C.s + '!' } } const c = new C(); [c.a, c.b, new C().a, C.s, C.t]", `[1,10,2,"st","st!"]`},
		{"private", "class Counter { #n = 0; #step() { return 1 } get #v() { return this.#n } inc() { this.#n += this.#step(); return this.#v } static has(o) { return #n in o } } const c = new Counter(); c.inc(); [c.inc(), Counter.has(c), Counter.has({})]", "[2,true,false]"},
		{"private-brand", "class A { #x = 1; static get(o) { return o.#x } } A.get({})", "throw TypeError: Cannot read private member #x from an object whose class did not declare it (line 1, col 44)"},
		{"private-method-brand", "class A { #m() {} static call(o) { return o.#m() } } A.call({})", "throw TypeError: Receiver must be an instance of class A (line 1, col 45)"},
		{"no-new", "class A {} A()", "throw TypeError: Class constructor A cannot be invoked without 'new' (line 1, col 12)"},
		{"this-before-super", "class A {} class B extends A { constructor() { this.x = 1; super() } } new B()", "throw ReferenceError: Must call super constructor in derived class before accessing 'this' or returning from derived constructor (line 1, col 48)"},
		{"super-twice", "class A {} class B extends A { constructor() { super(); super() } } new B()", "throw ReferenceError: Super constructor may only be called once (line 1, col 57)"},
		{"no-super", "class A {} class B extends A { constructor() {} } new B()", "throw ReferenceError: Must call super constructor in derived class before accessing 'this' or returning from derived constructor (line 1, col 51)"},
		{"super-arrow", "class A { constructor() { this.k = new.target.name } } class B extends A { constructor() { const f = () => super(); f() } } new B().k", `"B"`},
		{"new-target", "function F() { return new.target === F } [new F() instanceof F, F()]", "[true,false]"},
		{"computed-accessors", "const k = 'v'; const o = {get [k]() { return 1 }, set [k](x) { this.w = x }}; o.v = 5; class C { static get [k + 2]() { return 2 } } [o.v, o.w, C.v2, Object.getOwnPropertyDescriptor(o, 'v').get.name]", `[1,5,2,"get v"]`},
		{"super-property", "const base = {greet() { return 'hi ' + this.n }}; const o = {__proto__: base, n: 'o', greet() { return super.greet() + '!' }}; o.greet()", `"hi o!"`},
		{"super-assign", "class A { get v() { return 1 } } class B extends A { m() { super.x = 5; return [super.v, this.x] } } new B().m()", "[1,5]"},
		{"class-expr-name", "const K = class Inner { who() { return Inner.name } }; const Anon = class {}; [new K().who(), K.name, Anon.name]", `["Inner","Inner","Anon"]`},
		{"extends-null-error", "class A extends 1 {}", "throw TypeError: Class extends value 1 is not a constructor or null (line 1, col 1)"},
		{"extends-builtin", "class E extends Error { constructor(m) { super(m); this.name = 'E' } } const e = new E('boom'); [e.message, e instanceof Error, String(e)]", `["boom",true,"E: boom"]`},
		{"optional-callee", "const o = {v: 1, m() { return this.v }}; const n = null; [(o?.m)(), (o.m)()]", "[1,1]"},
		{"optional-callee-short", "const n = null; (n?.m)()", "throw TypeError: n?.m is not a function (line 1, col 17)"},
		{"optional-delete", "const o = {a: {b: 1}}; const n = null; [delete o?.a.b, delete n?.x, o]", `[true,true,{"a":{}}]`},
		{"static-inheritance", "class A { static s() { return 'A.s' } } class B extends A { static s() { return super.s() + '>B' } } B.s()", `"A.s>B"`},
		{"accessor-pair", "class T { #v = 0; get v() { return this.#v } set v(x) { this.#v = x * 2 } } const t = new T(); t.v = 4; t.v", "8"},
	})
}

func TestGenerators(t *testing.T) {
	runLangTests(t, []langTest{
		{"basic", "function* g(a) { const x = yield a; yield x * 2; return 'end' } const it = g(1); [it.next(), it.next(5), it.next(), it.next()]", `[{"value":1,"done":false},{"value":10,"done":false},{"value":"end","done":true},{"done":true}]`},
		{"spread", "function* range(n) { for (let i = 0; i < n; i++) yield i } [...range(4), Array.from(range(2))]", "[0,1,2,3,[0,1]]"},
		{"return-finally", "const log = []; function* g() { try { yield 1; yield 2 } finally { log.push('fin') } } const it = g(); it.next(); [it.return(9), it.next(), log]", `[{"value":9,"done":true},{"done":true},["fin"]]`},
		{"yield-in-finally", "function* g() { try { yield 1 } finally { yield 'f' } } const it = g(); it.next(); [it.return(3), it.next()]", `[{"value":"f","done":false},{"value":3,"done":true}]`},
		{"throw", "function* g() { try { yield 1 } catch (e) { yield 'caught ' + e } } const it = g(); it.next(); [it.throw('x'), it.next()]", `[{"value":"caught x","done":false},{"done":true}]`},
		{"throw-uncaught", "function* g() { yield 1 } const it = g(); it.next(); it.throw(new Error('boom'))", "throw Error: boom"},
		{"delegate", "function* inner() { const r = yield 'a'; yield r; return 'ret' } function* outer() { const v = yield* inner(); yield v } const it = outer(); [it.next().value, it.next('sent').value, it.next().value, it.next().done]", `["a","sent","ret",true]`},
		{"delegate-return", "const log = []; function* inner() { try { yield 1 } finally { log.push('inner') } } function* outer() { yield* inner() } const it = outer(); it.next(); [it.return(5), log]", `[{"value":5,"done":true},["inner"]]`},
		{"delegate-iterable", "function* g() { yield* [1, 2]; yield* 'ab' } [...g()]", `[1,2,"a","b"]`},
		{"running", "function* g() { it.next() } const it = g(); it.next()", "throw TypeError: Generator is already running (line 1, col 17)"},
		{"params-at-call", "function* g(a = (() => { throw new Error('early') })()) {} let m; try { g() } catch (e) { m = e.message } m", `"early"`},
		{"methods", "class C { *[Symbol.iterator]() { yield 1; yield 2 } static *s() { yield 's' } } const o = { *m() { yield 'm' } }; [...new C(), ...C.s(), ...o.m()]", `[1,2,"s","m"]`},
		{"closure-state", "function* counter() { let n = 0; const get = () => n; while (true) { n++; yield get } } const it = counter(); const a = it.next().value; it.next(); a()", "2"},
		{"for-of-break-returns", "const log = []; function* g() { try { yield 1; yield 2 } finally { log.push('closed') } } for (const x of g()) { if (x == 1) break } log", `["closed"]`},
		{"deep-delegation", "function* g(n) { if (n > 0) yield* g(n - 1); yield n } let s = 0; for (const x of g(300)) s += x; s", "45150"},
		{"deep-recursion", "function* g(n) { yield* g(n + 1) } g(0).next()", "throw RangeError: Maximum call stack size exceeded (line 1, col 25)"},
		{"recursion-through-generators", "function f(n) { return n ? [...(function* () { yield f(n - 1) })()][0] + 1 : 0 } f(3000)", "3000"},
		{"suspended-in-loops", "function* g() { for (const x of [1, 2]) for (const k in {a: 1}) { const r = yield x + k; if (r) return r } } const it = g(); [it.next().value, it.next().value, it.next('stop')]", `["1a","2a",{"value":"stop","done":true}]`},
		{"not-constructor", "function* g() {} new g()", "throw TypeError: g is not a constructor (line 1, col 18)"},
	})
}

func TestAsync(t *testing.T) {
	runLangTests(t, []langTest{
		{"await-top", "const v = await Promise.resolve(2); v * 3", "6"},
		{"async-fn", "async function f(x) { const a = await x; return a + 1 } await f(Promise.resolve(1))", "2"},
		// An await resumed by a job goes on in place only when its own
		// resumption is the only job: here other jobs interleave.
		{"await-in-place-order", "const log = []; async function a() { for (let i = 0; i < 3; i++) { await null; log.push('a' + i) } } async function b() { for (let i = 0; i < 3; i++) { await null; log.push('b' + i) } } a(); b(); await null; await null; await null; await null; log", `["a0","b0","a1","b1","a2","b2"]`},
		{"await-in-place-rejected", "let s = 0; for (let i = 0; i < 3; i++) { await null; try { await Promise.reject(i) } catch (e) { s += e } } s", "3"},
		{"order", "const log = []; async function f() { log.push('f1'); await null; log.push('f2') } f(); log.push('main'); await null; log.push('after'); log", `["f1","main","f2","after"]`},
		{"reject-caught", "async function f() { throw new Error('no') } let m; try { await f() } catch (e) { m = e.message } m", `"no"`},
		{"reject-uncaught", "async function f() { await null; throw new Error('late') } await f()", "throw Error: late"},
		{"await-rejection-in-try", "async function f() { try { await Promise.reject(new Error('r')) } catch (e) { return 'caught ' + e.message } finally { console.log('fin') } } await f()", "\"caught r\"\nfin"},
		{"arrows-methods", "const o = { async m() { return 'm' } }; const a = async (x) => (await x) * 2; class C { async c() { return await o.m() + 'c' } } [await a(4), await new C().c()]", `[8,"mc"]`},
		{"all", "const sleep = (v) => new Promise(r => r(v)); const rs = await Promise.all([1, 2, 3].map(async (x) => { await sleep(); return x * x })); rs", "[1,4,9]"},
		{"async-gen", "async function* g() { yield 1; const x = await Promise.resolve(2); yield x; return 3 } const it = g(); [await it.next(), await it.next(), await it.next(), await it.next()]", `[{"value":1,"done":false},{"value":2,"done":false},{"value":3,"done":true},{"done":true}]`},
		{"for-await", "async function* g() { yield 'a'; yield 'b' } const out = []; for await (const x of g()) out.push(x); for await (const y of [Promise.resolve(1), 2]) out.push(y); out", `["a","b",1,2]`},
		{"for-await-break", "const log = []; async function* g() { try { yield 1; yield 2 } finally { log.push('closed') } } for await (const x of g()) { if (x === 1) break } log", `["closed"]`},
		{"for-await-sync-iter", "const it = { [Symbol.iterator]() { let i = 0; return { next: () => ({ value: Promise.resolve(i++), done: i > 3 }), return() { console.log('ret'); return {} } } } }; let s = 0; for await (const v of it) { s += v; if (v == 1) break } s", "1\nret"},
		{"yield-star-async", "async function* inner() { yield 1; yield 2 } async function* outer() { yield* inner(); yield 3 } const out = []; for await (const v of outer()) out.push(v); out", "[1,2,3]"},
		{"async-gen-return", "async function* g() { try { yield 1 } finally { console.log('fin') } } const it = g(); await it.next(); await it.return(7)", "{\"value\":7,\"done\":true}\nfin"},
		{"main-throws-first", "throw new Error('x'); await 1", "throw Error: x"},
		{"never-settles", "await new Promise(() => {})", "interrupt ExecutionFailure: The program is waiting for a promise that can never settle: nothing is left to run. Make sure every promise you await is resolved or rejected."},
		{"deep-async-ok", "async function f(n) { return n ? 1 + await f(n - 1) : 0 } await f(3000)", "3000"},
		{"body-ends-first", "(async () => { await null; await null; console.log('late') })(); await null; 'done'", `"done"`},
		{"return-thenable", "const p = Promise.resolve(5); await null; p", "5"},
	})
}

func TestUnsupportedAndModules(t *testing.T) {
	runLangTests(t, []langTest{
		{"bigint", "let m; try { 1n } catch (e) { m = e.name + ': ' + e.message } m", `"SyntaxError: BigInt literals are not supported."`},
		{"debugger", "debugger", "throw SyntaxError: Syntax 'DebuggerStatement' is not supported. This is a restricted JavaScript-like language. Supported: functions of every kind, classes, data literals, destructuring, standard control flow, await and Promise, and built-ins such as Array, Object, Math, JSON, Date, RegExp, Map, Set, and URL. Unsupported: with, debugger, BigInt, and import.meta. (line 1, col 1)"},
		{"import-meta", "let n; try { import.meta } catch (e) { n = e.name } n", `"SyntaxError"`},
		{"import-no-host", "import {x} from 'lib'; x", "throw Error: Cannot find module 'lib': this host provides no modules (line 1, col 1)"},
		{"import-call", "let m; try { await import('lib') } catch (e) { m = e.message } m", `"Cannot find module 'lib': this host provides no modules"`},
	})
}

// TestDeepAsyncRecursion: nested async and generator calls past the
// limits end with a RangeError the program sees (the pending-promise cap
// or the call depth), never a crash: an async frame whose promise cannot
// be made throws to its caller. Where the error comes differs between
// the engines when generators or awaits are in the recursion: engine
// "ast" also bounds its estimated Go stack (each coroutine holds one),
// the VM's frames are data; plain recursion stops at the same 10,000
// calls on both (TestEnginesAgree).
func TestDeepAsyncRecursion(t *testing.T) {
	for _, code := range []string{
		"function f(n) { return n ? [...(function* () { yield f(n - 1) })()][0] + 1 : 0 } f(20000)",
		"async function f(n) { return n > 0 ? await f(n - 1) : 0 } await f(20000)",
		"async function f(n) { return n ? await f(n - 1) : 0 } await null; return await f(9999)",
		"async function f(n) { return n ? await f(n - 1) : 0 } return await f(20000)",
		"async function f(n) { try { return n ? await f(n - 1) : 0 } catch (e) { throw e } } await null; return await f(12000)",
	} {
		got, err := runVM(t, code)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got, "RangeError") {
			t.Errorf("%s\n got %s, want a RangeError", code, got)
		}
		if ast := runAST(t, code); !strings.Contains(ast, "RangeError") {
			t.Errorf("%s\n engine ast: %s, want a RangeError", code, ast)
		}
	}
}

// TestFusedAndFast covers the superinstructions decode makes and the
// loop's fast paths when their operands are not numbers: each falls back
// to the instruction it starts with, and errors are located as before.
func TestFusedAndFast(t *testing.T) {
	runLangTests(t, []langTest{
		{"cmpjmp-strings", "let s = 'a', n = 0; while (s < 'aaaa') { s += 'a'; n++ } [s, n]", `["aaaa",3]`},
		{"cmpjmp-nan", "let x = NaN, r = []; if (x < 1) r.push('lt'); if (x >= 1) r.push('ge'); if (x !== 1) r.push('sne'); r", `["sne"]`},
		{"addlocal-strings", "let s = '', t = 'x'; for (let i = 0; i < 3; i++) { s += t } s", `"xxx"`},
		{"addlocal-object", "let s = 1, o = {valueOf() { return 10 }}; s += o; s", "11"},
		{"inc-loop-string", "let r = []; for (let i = '1'; i < 4; i++) r.push(i); r", `["1",2,3]`},
		{"inc-loop-continue", "let s = 0; for (let i = 0; i < 10; i++) { if (i % 2) continue; s += i } s", "20"},
		{"const-add-string", "let a = 'x'; [a + 1, a - 1]", `["x1",null]`},
		{"const-sub-throws", "let a = {valueOf() { throw new Error('v') }};\nlet b = a - 1", "throw Error: v"},
		{"local-getprop-null", "let a = null;\nlet b = 1 + a.x", "throw TypeError: Cannot read properties of null (reading 'x') (line 2, col 15)"},
		{"local-getprop-getter", "let o = {get g() { return this.v * 2 }, v: 4}; o.g", "8"},
		{"local-local", "function f(a, b) { return [a, b, a - b] } f(5, 2)", "[5,2,3]"},
		{"mod", "[7 % 3, -7 % 3, 7 % -3, -0 % 5, 0 % 5, 5.5 % 2, 5 % 0, 2 ** 60 % 7, 1 / (-4 % 2), 1 / (4 % 2)]", "[1,-1,1,0,0,1.5,null,1,null,null]"},
		{"mod-signs", "[Object.is(-0 % 5, -0), Object.is(-4 % 2, -0), Object.is(4 % 2, 0), Object.is(0 % 3, 0)]", "[true,true,true,true]"},
		{"mul-div-eq", "[3 * 4, 1 / 0, -1 / 0, 0 / 0, 2 == 2, 2 != 3, 0 == -0, NaN == NaN, NaN != NaN, 1 <= 1, 2 >= 3, 2 > 1]", "[12,null,null,null,true,true,true,false,true,true,false,true]"},
		{"compare-mixed", "[1 < '2', '10' > 9, null >= 0, undefined == null, '1' == 1]", "[true,true,true,true,true]"},
		{"call-args", "function f(a, b, c) { return [a, b, c] } [f(1), f(1, 2, 3, 4)]", "[[1,null,null],[1,2,3]]"},
		{"call-deep", "function f(n) { return n ? f(n - 1) + 1 : 0 } f(5000)", "5000"},
		{"call-overflow", "function f(n) { return f(n + 1) }\nf(0)", "throw RangeError: Maximum call stack size exceeded (line 1, col 24)"},
		{"call-not-function", "let o = {};\no.m()", "throw TypeError: o.m is not a function (line 2, col 1)"},
		{"return-through-finally", "function f() { try { return 1 } finally { console.log('fin') } } f()", "1\nfin"},
		{"tdz", "{ x; let x = 1 }", "throw ReferenceError: Cannot access 'x' before initialization (line 1, col 3)"},
	})
}
