package ast

import (
	"errors"
	"testing"
)

// earlyErrors is every early error the front end reports, with its exact
// message and where it points. Columns count UTF-16 code units.
var earlyErrors = []struct {
	src       string
	msg       string
	line, col int
}{
	// Invalid assignment targets.
	{"1 = 2", "Invalid left-hand side in assignment", 1, 1},
	{"a?.b = 1", "Invalid left-hand side in assignment", 1, 1},
	{"f() = 1", "Invalid left-hand side in assignment", 1, 1},
	{"x;\n  f() += 1", "Invalid left-hand side in assignment", 2, 3},
	{"a + b = c", "Invalid left-hand side in assignment", 1, 1},
	{"++f()", "Invalid left-hand side expression in prefix operation", 1, 3},
	{"f()++", "Invalid left-hand side expression in postfix operation", 1, 1},
	{"({a: 1} = x)", "Invalid destructuring assignment target", 1, 6},
	{"({a}) = x", "Invalid destructuring assignment target", 1, 2},
	{"[a, ...b = 1] = c", "Invalid destructuring assignment target", 1, 8},
	{"for (f() of xs) {}", "Invalid left-hand side in assignment", 1, 6},
	{"for (a = 0 of b) {}", "Invalid left-hand side in for-of loop", 1, 6},
	{"for ((a, b) in c) {}", "Invalid left-hand side in for-in loop", 1, 6},
	{"const f = (a.b) => 1", "Invalid destructuring assignment target", 1, 12},

	// Redeclarations.
	{"let a; let a;", "Identifier 'a' has already been declared", 1, 12},
	{"const a = 1;\nlet a = 2", "Identifier 'a' has already been declared", 2, 5},
	{"class A {}\nclass A {}", "Identifier 'A' has already been declared", 2, 7},
	{"let a; var a;", "Identifier 'a' has already been declared", 1, 5},
	{"{ let a; { var a; } }", "Identifier 'a' has already been declared", 1, 16},
	{"function f() { let x; var x }", "Identifier 'x' has already been declared", 1, 20},
	{"function f(x) { let x }", "Identifier 'x' has already been declared", 1, 21},
	{"try {} catch (e) { let e }", "Identifier 'e' has already been declared", 1, 18},
	{"switch (x) { case 1: let y; break; default: let y }", "Identifier 'y' has already been declared", 1, 49},
	{"{ function f() {} function f() {} }", "Identifier 'f' has already been declared", 1, 28},
	{"function f(a, a) {}", "Duplicate parameter name not allowed in this context", 1, 15},
	{"const g = (a, [a]) => a", "Duplicate parameter name not allowed in this context", 1, 16},

	// let as a name.
	{"let let = 1", "let is disallowed as a lexically bound name", 1, 5},
	{"const [let] = x", "let is disallowed as a lexically bound name", 1, 8},
	{"let = 1", "Unexpected strict mode reserved word 'let'", 1, 1},

	// break and continue.
	{"break", "Unexpected 'break' outside of a loop.", 1, 1},
	{"continue", "Unexpected 'continue' outside of a loop.", 1, 1},
	{"switch (x) { case 1: continue }", "Unexpected 'continue' outside of a loop.", 1, 22},
	{"for (;;) { () => { break } }", "Unexpected 'break' outside of a loop.", 1, 20},
	{"foo: for (;;) { continue bar }", "Undefined label 'bar'", 1, 26},
	{"foo: { break bar }", "Undefined label 'bar'", 1, 14},
	{"foo: { for (;;) continue foo }", "Illegal continue statement: 'foo' does not denote an iteration statement", 1, 26},
	{"a: a: ;", "Label 'a' has already been declared", 1, 4},

	// await and yield.
	{"function f() { await x }", "'await' is only valid in async functions and at the top level of the program.", 1, 16},
	{"const f = () => await x", "'await' is only valid in async functions and at the top level of the program.", 1, 17},
	{"function f() { for await (const x of y) {} }", "'for await' is only valid in async functions and at the top level of the program.", 1, 20},
	{"function f() { yield 1 }", "'yield' is only valid in generator functions.", 1, 16},
	{"yield 1", "'yield' is only valid in generator functions.", 1, 1},
	{"function* g() { const h = () => yield 1 }", "'yield' is only valid in generator functions.", 1, 33},

	// Operators.
	{"-2 ** 2", "Unary operator used immediately before exponentiation expression. Parentheses must be used to disambiguate operator precedence", 1, 1},
	{"x = typeof a ** 2", "Unary operator used immediately before exponentiation expression. Parentheses must be used to disambiguate operator precedence", 1, 5},
	{"a ?? b || c", "Cannot mix '??' with '||' or '&&' without parentheses", 1, 3},
	{"a && b ?? c", "Cannot mix '??' with '||' or '&&' without parentheses", 1, 8},
	{"delete x", "Delete of an unqualified identifier in strict mode.", 1, 1},
	{"delete ((x))", "Delete of an unqualified identifier in strict mode.", 1, 1},

	// Rest elements.
	{"[...a, b] = c", "Rest element must be last element", 1, 2},
	{"[...a,] = c", "Rest element must be last element", 1, 6},
	{"const [...a, b] = c", "Rest element must be last element", 1, 12},
	{"const {...a, b} = c", "Rest element must be last element", 1, 12},
	{"function f(...a, b) {}", "Rest parameter must be last formal parameter", 1, 12},
	{"const f = (...a, b) => 1", "Rest parameter must be last formal parameter", 1, 12},
	{"const f = (...a,) => 1", "A rest parameter may not have a trailing comma", 1, 16},

	// Object literals.
	{"x = {__proto__: 1, __proto__: 2}", "Duplicate __proto__ fields are not allowed in object literals", 1, 20},
	{"x = {a = 1}", "Invalid shorthand property initializer: '=' in an object literal is only valid in a destructuring pattern", 1, 8},
	{"x = {get a(b) {}}", "Getter must not have any formal parameters.", 1, 6},
	{"x = {set a() {}}", "Setter must have exactly one formal parameter.", 1, 6},
	{"class A { get a(b) {} }", "Getter must not have any formal parameters.", 1, 11},

	// Literals.
	{"/a/zz", "Invalid regular expression flags", 1, 4},
	{"x = /a/gg", "Invalid regular expression flags", 1, 8},
	{"/a/uv", "Invalid regular expression flags", 1, 4},
	{"/(?<a>)(?<a>)/", "Invalid regular expression: /(?<a>)(?<a>)/: Duplicate capture group name", 1, 1},
	{"x = 1;\n  y = /{1}/u", "Invalid regular expression: /{1}/u: Nothing to repeat", 2, 7},
	{"f(/a{2,1}/)", "Invalid regular expression: /a{2,1}/: numbers out of order in {} quantifier", 1, 3},
	{"'😀'; /(?<=a)?/", "Invalid regular expression: /(?<=a)?/: Invalid quantifier", 1, 7},
	{"/\\k<a>/u", "Invalid regular expression: /\\k<a>/u: Invalid named capture referenced", 1, 1},
	{"/(?<a/", "Invalid regular expression: /(?<a/: Invalid capture group name", 1, 1},
	{"/\\-/u", "Invalid regular expression: /\\-/u: Invalid escape", 1, 1},
	{"/[b-a]/", "Invalid regular expression: /[b-a]/: Range out of order in character class", 1, 1},
	{"010", "Octal literals are not allowed in strict mode.", 1, 1},
	{"x = \"\\012\"", "Octal escape sequences are not allowed in strict mode.", 1, 6},
	{"x = `\\01`", "Octal escape sequences are not allowed in template strings", 1, 6},
	{"x = \"\\u{110000}\"", "Invalid Unicode escape sequence", 1, 6},
	{"x = 'abc", "Invalid or unexpected token: unterminated string literal", 1, 5},
	{"x = `abc", "Unterminated template literal", 1, 5},

	// Meta properties and super.
	{"new.target", "new.target expression is not allowed here", 1, 1},
	{"const f = () => new.target", "new.target expression is not allowed here", 1, 17},
	{"super.x", "'super' keyword unexpected here", 1, 1},
	{"class A { constructor() { super() } }", "'super' keyword unexpected here", 1, 27},
	{"function f() { super.x }", "'super' keyword unexpected here", 1, 16},

	// Classes.
	{"class A { constructor() {} constructor() {} }", "A class may only have one constructor", 1, 28},
	{"class A { get constructor() {} }", "Class constructor may not be an accessor", 1, 15},
	{"class A { constructor = 1 }", "Classes may not have a field named 'constructor'", 1, 11},
	{"class A { m() { return this.#x } }", "Private field '#x' must be declared in an enclosing class", 1, 29},
	{"class A { #x; #x }", "Identifier '#x' has already been declared", 1, 15},
	{"this.#x", "Private field '#x' must be declared in an enclosing class", 1, 6},

	// Modules.
	{"export const x = 1", "'export' is not allowed: the program is the body of an async function; return the value instead", 1, 1},
	{"if (x) { import a from 'b' }", "Cannot use import statement outside the top level of the program", 1, 10},

	// Statements.
	{"if (x) function f() {}", "In strict mode code, functions can only be declared at top level or inside a block.", 1, 8},
	{"if (x) let y = 1", "Lexical declaration cannot appear in a single-statement context", 1, 8},
	{"const x", "Missing initializer in const declaration", 1, 8},
	{"let [a]", "Missing initializer in destructuring declaration", 1, 8},
	{"for (let a = 1 of b) {}", "for-of loop variable declaration may not have an initializer.", 1, 10},
	{"for (let a, b of c) {}", "Invalid left-hand side in for-of loop: Must have a single binding.", 1, 6},
	{"throw\nnew Error()", "Illegal newline after throw", 2, 1},
	{"try {}", "Missing catch or finally after try", 1, 7},
	{"switch (x) { default: default: }", "More than one default clause in switch statement", 1, 23},
	{"class A { static { return } }", "Illegal return statement", 1, 20},
	{"var eval = 1", "Unexpected eval or arguments in strict mode", 1, 5},
	{"x = function(arguments) {}", "Unexpected eval or arguments in strict mode", 1, 14},

	// Syntax errors with their positions, including after multi-byte text.
	{"const s = '😀'; )", "Unexpected token ')'", 1, 17},
	{"let é = 1;\nlet é = 2", "Identifier 'é' has already been declared", 2, 5},
	{"x = (1, 2", "Unexpected end of input", 1, 10},
	{"f(a b)", "Unexpected identifier 'b'", 1, 5},
	{"a\n=> 1", "Unexpected token '=>'", 2, 1},
	{"x = ()", "Unexpected token ')'", 1, 6},
	{"x = (a, b,)", "Unexpected token ')'", 1, 11},
	{"a?.b`t`", "Invalid tagged template on optional chain", 1, 5},
	{"new a?.b()", "Invalid optional chain from new expression", 1, 6},

	// Found by differential testing against V8.
	{"({ \\u0069f })", "Keyword must not contain escaped characters", 1, 4},
	{"var \\u0069f = 1", "Keyword must not contain escaped characters", 1, 5},
	{"function f() { ({await}) }", "'await' is only valid in async functions and at the top level of the program.", 1, 18},
	{"for (async of x);", "The left-hand side of a for-of loop may not be 'async'.", 1, 6},
	{"let [...a b] = c", "Unexpected identifier 'b'", 1, 11},
	{"let {...a b} = c", "Unexpected identifier 'b'", 1, 11},
	{"function f([...a b]) {}", "Unexpected identifier 'b'", 1, 18},
	{"x = () => {} + 1", "Unexpected token '+'", 1, 14},
	{"a => {} ? 1 : 2", "Unexpected token '?'", 1, 9},
	{"f(() => {} + 1)", "Unexpected token '+'", 1, 12},
	{"function f(a = 1) { \"use strict\" }", "Illegal 'use strict' directive in function with non-simple parameter list", 1, 21},
	{"(x = 1) => { \"use strict\" }", "Illegal 'use strict' directive in function with non-simple parameter list", 1, 14},
	{"((a)) => 1", "Invalid destructuring assignment target", 1, 3},
	{"(a, (b)) => 1", "Invalid destructuring assignment target", 1, 6},
	{"([(a)]) => 1", "Invalid destructuring assignment target", 1, 4},
	{"(x = await y) => x", "Illegal await-expression in formal parameters of async function", 1, 6},
	{"x = async function(a = await b) {}", "Illegal await-expression in formal parameters of async function", 1, 24},
	{"function* g(a = yield) {}", "Yield expression not allowed in formal parameter", 1, 17},
	{"function* g() { (a = yield) => 1 }", "Yield expression not allowed in formal parameter", 1, 22},
	{"class A { #a; m(o) { return !#a in o } }", "Unexpected private name", 1, 30},
	{"class A { #a; m(o) { return #a in #a in o } }", "Unexpected private name", 1, 35},
	{"class A extends B { #a; m() { super.#a } }", "Unexpected private field", 1, 37},
	{"class A { #\\u0061; #a }", "Identifier '#a' has already been declared", 1, 20},
	{"class A { #\\u0030 }", "Invalid Unicode escape sequence", 1, 11},
	{"class A { #a; m() { delete this?.#a } }", "Private fields can not be deleted", 1, 21},
	{"class A { x = arguments }", "'arguments' is not allowed in class field initializer or static initialization block", 1, 15},
	{"class A { x = () => arguments }", "'arguments' is not allowed in class field initializer or static initialization block", 1, 21},
	{"class A { static { arguments } }", "'arguments' is not allowed in class field initializer or static initialization block", 1, 20},
	{"for (let x of y) { var x }", "Identifier 'x' has already been declared", 1, 24},
	{"for (let x;;) { var x }", "Identifier 'x' has already been declared", 1, 21},
	{"try {} catch ([e]) { var e }", "Identifier 'e' has already been declared", 1, 26},
	{"a: async function f() {}", "Async functions can only be declared at the top level or inside a block.", 1, 4},
	{"if (a) async function f() {}", "Async functions can only be declared at the top level or inside a block.", 1, 8},
	{"({ get *x() {} })", "Unexpected token '*'", 1, 8},
	{"({ set *x(v) {} })", "Unexpected token '*'", 1, 8},
	{"class A { get *x() {} }", "Unexpected token '*'", 1, 15},
	{"class A extends B { constructor() { new super() } }", "'super' keyword unexpected here", 1, 41},
	// Second round of differential testing.
	{"x = a<\\b>(c)", "Invalid or unexpected token", 1, 7},
	{"({ arguments = 1 } = x)", "Unexpected eval or arguments in strict mode", 1, 4},
	{"({ eval = 1 } = x)", "Unexpected eval or arguments in strict mode", 1, 4},
	{"[{ arguments = 1 }] = x", "Unexpected eval or arguments in strict mode", 1, 4},
	{"((a) = 1) => 1", "Invalid destructuring assignment target", 1, 3},
	{"([(a) = 1]) => 1", "Invalid destructuring assignment target", 1, 4},
	{"(a, (b) = 1) => 1", "Invalid destructuring assignment target", 1, 6},

	// Nothing to run.
	{"", "Code cannot be empty.", 1, 1},
	{"  \n\t ", "Code cannot be empty.", 1, 1},
}

// tsRejected is TypeScript with erasure turned off (Options.NoTypeScript):
// each construct is a ParseError that names it.
var tsRejected = []struct {
	src       string
	msg       string
	line, col int
}{
	{"const v: number = 1", "TypeScript syntax is not accepted (type annotation); write plain JavaScript", 1, 8},
	{"function f(a: string) {}", "TypeScript syntax is not accepted (type annotation); write plain JavaScript", 1, 13},
	{"function f(a?: string) {}", "TypeScript syntax is not accepted (optional parameter); write plain JavaScript", 1, 13},
	{"function f(): string {}", "TypeScript syntax is not accepted (return type annotation); write plain JavaScript", 1, 13},
	{"const f = (a: number) => a", "TypeScript syntax is not accepted (type annotation); write plain JavaScript", 1, 13},
	{"const f = (): void => {}", "TypeScript syntax is not accepted (return type annotation); write plain JavaScript", 1, 13},
	{"const x = y as Foo", "TypeScript syntax is not accepted ('as' type assertion); write plain JavaScript", 1, 13},
	{"const x = y satisfies Foo", "TypeScript syntax is not accepted ('satisfies' type assertion); write plain JavaScript", 1, 13},
	{"interface A { a: string }", "TypeScript syntax is not accepted (interface declaration); write plain JavaScript", 1, 1},
	{"type X = string", "TypeScript syntax is not accepted (type alias); write plain JavaScript", 1, 1},
	{"enum Color { Red }", "TypeScript syntax is not accepted (enum declaration); write plain JavaScript", 1, 1},
	{"declare const x: number", "TypeScript syntax is not accepted (declare statement); write plain JavaScript", 1, 1},
	{"const n = a!.b", "TypeScript syntax is not accepted (non-null assertion); write plain JavaScript", 1, 12},
	{"return user!", "TypeScript syntax is not accepted (non-null assertion); write plain JavaScript", 1, 12},
	{"const r = f<string>(x)", "TypeScript syntax is not accepted (generic type arguments); write plain JavaScript", 1, 12},
	{"const m = new Map<string, number>()", "TypeScript syntax is not accepted (generic type arguments); write plain JavaScript", 1, 18},
	{"class A implements B {}", "TypeScript syntax is not accepted (implements clause); write plain JavaScript", 1, 9},
	{"class A { private x = 1 }", "TypeScript syntax is not accepted (access modifier); write plain JavaScript", 1, 11},
	{"class A { x: number }", "TypeScript syntax is not accepted (type annotation); write plain JavaScript", 1, 12},
	{"class A { constructor(private x) {} }", "TypeScript syntax is not accepted (parameter property); write plain JavaScript", 1, 23},
	{"const y = <T>(x) => x", "TypeScript syntax is not accepted (type assertion or generic arrow function); write plain JavaScript", 1, 11},
	{"let x!: number", "TypeScript syntax is not accepted (definite assignment assertion); write plain JavaScript", 1, 6},
	{"const s = useState<User[]>([])", "TypeScript syntax is not accepted (generic type arguments); write plain JavaScript", 1, 19},
}

func TestTypeScriptRejected(t *testing.T) {
	for _, tt := range tsRejected {
		checkParseError(t, tt.src, Options{NoTypeScript: true}, tt.msg, tt.line, tt.col)
	}
}

// checkParseError parses src and requires the error msg at line:col.
func checkParseError(t *testing.T, src string, opts Options, msg string, line, col int) {
	t.Helper()
	_, err := ParseWith(src, opts)
	if err == nil {
		t.Errorf("%q: parsed, want error %q", src, msg)
		return
	}
	var perr *Error
	if !errors.As(err, &perr) {
		t.Errorf("%q: error %T, want *ast.Error", src, err)
		return
	}
	if perr.Msg != msg || perr.Location.Line != line || perr.Location.Column != col {
		t.Errorf("%q:\n got %q at %d:%d\nwant %q at %d:%d", src, perr.Msg, perr.Location.Line, perr.Location.Column, msg, line, col)
	}
}

func TestEarlyErrors(t *testing.T) {
	for _, tt := range earlyErrors {
		_, err := Parse(tt.src)
		if err == nil {
			t.Errorf("%q: parsed, want error %q", tt.src, tt.msg)
			continue
		}
		var perr *Error
		if !errors.As(err, &perr) {
			t.Errorf("%q: error %T, want *ast.Error", tt.src, err)
			continue
		}
		if perr.Msg != tt.msg || perr.Location.Line != tt.line || perr.Location.Column != tt.col {
			t.Errorf("%q:\n got %q at %d:%d\nwant %q at %d:%d", tt.src, perr.Msg, perr.Location.Line, perr.Location.Column, tt.msg, tt.line, tt.col)
		}
	}
}

// validPrograms are close relatives of the errors above that JavaScript
// accepts; the front end must too.
var validPrograms = []string{
	"(a) = 1",
	"[a, b] = [b, a]",
	"({a, b: [c = 1, ...d], ...e} = x)",
	"({__proto__: a, __proto__: b} = x)",
	"x = {__proto__: 1, ['__proto__']: 2, __proto__() {}}",
	"x = {a = 1} = y",
	"for ({a = 1} of xs) {}",
	"(-2) ** 2",
	"(a ?? b) || c",
	"a ?? (b && c)",
	"let x; { let x; }",
	"var a; var a;",
	"function f() {} function f() {}",
	"try {} catch (e) { var e }",
	"try {} catch { }",
	"foo: for (;;) { for (;;) { continue foo } }",
	"foo: bar: while (x) { continue foo }",
	"x = a < b > (c)",
	"x = a\n!b",
	"async function f() { await x }",
	"function* g() { yield; yield* h(); }",
	"async function* g() { for await (const x of y) yield x }",
	"class A extends B { constructor() { super(); super.x(); new.target } #p; get #q() { return 1 } set #q(v) {} static { this.y = 1 } m() { return #p in this } }",
	"x = class { static async *gen() {} static = 1; get = 2; set; async }",
	"let async = 1; async = async + 1; async(x)",
	"x = async => async",
	"x = async (a, b) => a + b",
	"const { default: d } = x",
	"x = a.if.class.new + a?.return",
	"x = /[/]/.test(s) / 2",
	"if (a) /re/g.test(b)",
	"x = `a${`b${c}`}d`",
	"x = String.raw`\\unicode`",
	"x = 1_000_000 + 0x1F + 0o17 + 0b1 + .5 + 5. + 1e-7",
	"return",
	"return\n42",
	"import fs from 'fs'; import {readFile as rf, \"x-y\" as xy} from \"fs/promises\"; import * as path from 'path'",
	"x = import('m')",
	"x = 10n",
	"with (o) { x }",
	"debugger",
	"x = { get: 1, set: 2, async: 3, static: 4, await: 5 }",
	"x = a?.b?.[c]?.(d)",
	"a ||= b; a &&= c; a ??= d; a **= 2",
	"label: { break label }",
	"x = y => ({ a: 1 })",
	"for (const [k, v] of Object.entries(o)) {}",
	"for (let i = 0, j = 0; i < 10; i++, j--) {}",
	"for (x in y);",
	"do x++; while (x < 5) y()",
	// Found by differential testing against V8.
	"x = a.\\u0069f",
	"({ \\u0069f: 1 })",
	"class A { st\\u0061tic() {} }",
	"if (lo<x && x>(hi)) {}",
	"if (i<n && arr[i]>(max)) {}",
	"f(a<b, c>(d))",
	"x = i<n>(0)",
	"type in x",
	"module instanceof M",
	"class A { #\\u0061; m() { this.#a } }",
	"class A { #a; m() { this.#\\u0061 } }",
	"for await (async of x);",
	"for (\\u0061sync of x);",
	"async of => 1",
	"x = () => {}",
	"x++",
	"function f(a) { \"use strict\" }",
	"[(a)] = x",
	"x = (a = await b)",
	"class A { x = function() { return arguments } }",
	"try {} catch (e) { var e }",
	// Second round of differential testing; the first five once hung the
	// TypeScript lookahead.
	"a<\\u0062",
	"if (n<é) {}",
	"a<ü>(c)",
	"while (i<\\u006e) i++",
	"for (asyncTask of tasks);",
	"for (async1 of x);",
	"class A { get\n*x() {} }",
	"class A { x = 1\nset\n*y(v) {} }",
	"class A extends B { constructor() { new super.x() } }",
	"({ m() { new super.x } })",
	"class A extends B { m() { new super[x]() } }",
}

func TestValidPrograms(t *testing.T) {
	for _, src := range validPrograms {
		if _, err := Parse(src); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}
