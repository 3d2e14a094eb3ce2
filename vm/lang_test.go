package vm_test

import "testing"

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
