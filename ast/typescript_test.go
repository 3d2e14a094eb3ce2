package ast

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tsErased pairs TypeScript with the JavaScript it erases to: both must
// parse to the same tree (printed the same).
var tsErased = []struct{ name, ts, js string }{
	// Annotations on bindings, parameters and returns.
	{"const annotation", "const x: number[] = []", "const x = []"},
	{"let union", "let s: string | undefined", "let s"},
	{"let definite", "let x!: number\nx = 1", "let x\nx = 1"},
	{"destructuring annotation", "const { a, b }: { a: number; b: string } = o", "const { a, b } = o"},
	{"array pattern annotation", "const [a, b]: [number, string] = t", "const [a, b] = t"},
	{"for-of annotation", "for (const x of xs as number[]) {}", "for (const x of xs) {}"},
	{"for annotation", "for (let i: number = 0; i < n; i++) {}", "for (let i = 0; i < n; i++) {}"},
	{"param annotation", "function f(a: string, b: number = 1, ...rest: string[]) {}", "function f(a, b = 1, ...rest) {}"},
	{"optional param", "function f(a?: string, b?) {}", "function f(a, b) {}"},
	{"return type", "function f(): Promise<void> {}\nf()", "function f() {}\nf()"},
	{"this param", "function f(this: Window, x: number) { return x }", "function f(x) { return x }"},
	{"this param alone", "function f(this: void) {}\nf()", "function f() {}\nf()"},
	{"type predicate", "function isStr(x: unknown): x is string { return typeof x === 'string' }", "function isStr(x) { return typeof x === 'string' }"},
	{"asserts predicate", "function check(x: unknown): asserts x is string {}", "function check(x) {}"},
	{"asserts", "function ok(c: unknown): asserts c {}", "function ok(c) {}"},
	{"this predicate", "class A { isB(): this is B { return true } }", "class A { isB() { return true } }"},
	{"catch annotation", "try {} catch (e: unknown) {}", "try {} catch (e) {}"},
	{"object method types", "const o = { m<T>(x: T): T { return x }, get g(): number { return 1 } }", "const o = { m(x) { return x }, get g() { return 1 } }"},

	// Arrows.
	{"arrow params", "const f = (a: number, b?: string): string => a + b", "const f = (a, b) => a + b"},
	{"arrow no params return", "const f = (): void => {}", "const f = () => {}"},
	{"async arrow", "const f = async (x: string): Promise<number> => x.length", "const f = async (x) => x.length"},
	{"generic arrow", "const id = <T>(x: T): T => x", "const id = (x) => x"},
	{"generic arrow comma", "const id = <T,>(x: T) => x", "const id = (x) => x"},
	{"generic arrow constraint", "const k = <T extends object, K extends keyof T = keyof T>(o: T, k: K): T[K] => o[k]", "const k = (o, k) => o[k]"},
	{"async generic arrow", "const f = async <T>(x: T): Promise<T> => x", "const f = async (x) => x"},
	{"arrow pattern default", "const f = ({ a, b }: Opts = {}, [c]: number[] = []) => a", "const f = ({ a, b } = {}, [c] = []) => a"},
	{"arrow optional no type", "const f = (a?, b?) => a", "const f = (a, b) => a"},
	{"arrow rest", "const f = (...xs: number[]): number => xs.length", "const f = (...xs) => xs.length"},
	{"arrow predicate", "const isN = (x: unknown): x is number => typeof x === 'number'", "const isN = (x) => typeof x === 'number'"},
	{"conditional not arrow", "const v = c ? (x) : y", "const v = c ? (x) : y"},
	{"conditional arrow branch", "const v = c ? (x: number): number => x : null", "const v = c ? (x) => x : null"},
	{"conditional arrow else", "const v = c ? (x) : y => z", "const v = c ? x : (y) => z"},
	{"conditional async arrow else", "const v = c ? async (x) : y => z", "const v = c ? async(x) : (y) => z"},
	{"case paren", "switch (x) { case (1): break }", "switch (x) { case (1): break }"},
	{"arrow in args", "xs.map((x: Item, i: number) => x.id + i)", "xs.map((x, i) => x.id + i)"},

	// Assertions.
	{"as", "const n = (await tools.count()) as number", "const n = await tools.count()"},
	{"as member", "const y = (x as any).y", "const y = x.y"},
	{"as const", "const c = { a: 1, b: [1, 2] } as const", "const c = { a: 1, b: [1, 2] }"},
	{"as precedence", "const s = a + b as string", "const s = a + b"},
	{"as in equality", "const e = a === b as any", "const e = a === b"},
	{"as chain", "const u = x as unknown as Foo", "const u = x"},
	{"as then operator", "const m = (x as number) * 2", "const m = x * 2"},
	{"satisfies", "const cfg = { port: 80 } satisfies Config", "const cfg = { port: 80 }"},
	{"angle assertion", "const n = <number>x", "const n = x"},
	{"angle assertion member", "const n = (<any>x).y", "const n = x.y"},
	{"non-null", "const n = a!.b!.c", "const n = a.b.c"},
	{"non-null space", "const n = a! .b", "const n = a.b"},
	{"non-null call", "const r = f!(x)", "const r = f(x)"},
	{"non-null index", "const r = a![0]!", "const r = a[0]"},
	{"non-null return", "return user!", "return user"},
	{"non-null assign", "obj!.x = 1", "obj.x = 1"},
	{"not equal untouched", "const b = a != c", "const b = a != c"},

	// Type arguments.
	{"call type args", "const r = f<string>(x)", "const r = f(x)"},
	{"new type args", "const m = new Map<string, number>()", "const m = new Map()"},
	{"new type args no parens", "const s = new Set<string>\ns.add('a')", "const s = new Set\ns.add('a')"},
	{"nested type args", "const m = new Map<string, Array<Map<string, number>>>()", "const m = new Map()"},
	{"type args >= split", "const r = useState<User[]>([])", "const r = useState([])"},
	{"method type args", "const j = await res.json<Repo[]>()", "const j = await res.json()"},
	{"optional call type args", "const r = f?.<T>(x)", "const r = f?.(x)"},
	{"tagged template type args", "const q = sql<Row>`select 1`", "const q = sql`select 1`"},
	{"comparison stays", "const b = a < b && c > (d)", "const b = a < b && c > (d)"},
	{"lowercase comparison stays", "x = i<n>(0)", "x = i<n>(0)"},
	{"comparison list stays", "f(a<b, c>(d))", "f(a<b, c>(d))"},
	{"less than loop", "for (let i = 0; i<n; i++) {}", "for (let i = 0; i<n; i++) {}"},
	{"instantiation expression", "const v = f<string>", "const v = f"},
	{"type args then binary", "const g = f<T> === h", "const g = f === h"},
	{"function type arg", "const p = new Promise<(x: number) => void>(r => r)", "const p = new Promise(r => r)"},

	// Declarations.
	{"interface", "interface User { id: number; name?: string, readonly tags: string[] }\nreturn 1", "return 1"},
	{"interface extends", "interface A<T> extends B<T>, C { m(x: T): void; (y: number): string; new (z): A<T>; [k: string]: any }\nreturn 1", "return 1"},
	{"type alias", "type ID = string | number\nreturn 1", "return 1"},
	{"type alias generic", "type Box<T = unknown> = { value: T }\nreturn 1", "return 1"},
	{"conditional type", "type U<T> = T extends (infer E)[] ? E : T extends Promise<infer R extends string> ? R : never\nreturn 1", "return 1"},
	{"mapped type", "type P<T> = { readonly [K in keyof T as `get${string & K}`]-?: T[K] }\nreturn 1", "return 1"},
	{"template literal type", "type Ev = `on${Capitalize<'click' | 'key'>}`\nreturn 1", "return 1"},
	{"tuple types", "type T = [a: string, b?: number, ...rest: boolean[]]\nreturn 1", "return 1"},
	{"function types", "type F = (a: number, { b }: { b: string }) => void\ntype C = new (...args: any[]) => object\ntype G = abstract new () => void\nreturn 1", "return 1"},
	{"typeof keyof indexed", "type K = keyof typeof obj\ntype V = (typeof obj)[K]\ntype X = Foo['a']['b'][number]\nreturn 1", "return 1"},
	{"literal types", "type L = 'a' | 1 | -1 | true | null | undefined | void | 10n\nreturn 1", "return 1"},
	{"unique symbol", "declare const s: unique symbol\nreturn 1", "return 1"},
	{"import type in type", "type M = import('./mod').Thing<string>\nreturn 1", "return 1"},
	{"parenthesized type", "let x: (string | number)[] = []", "let x = []"},
	{"object type methods", "let o: { m(): void; get x(): number; set x(v: number) } = v", "let o = v"},
	{"intersection", "let x: A & B & { c: 1 } = v", "let x = v"},
	{"declare const", "declare const x: number\nreturn 1", "return 1"},
	{"declare function", "declare function f(x: string): void\nreturn 1", "return 1"},
	{"declare class", "declare class A { m(): void; x: number; constructor(private y: string) }\nreturn 1", "return 1"},
	{"declare module", "declare module 'x' { export function f(): void }\ndeclare global { interface Window { a: 1 } }\nreturn 1", "return 1"},
	{"declare namespace", "declare namespace N { const x: number }\nreturn 1", "return 1"},
	{"declare enum", "declare enum E { A }\ndeclare const enum F { B }\nreturn 1", "return 1"},
	{"overloads", "function f(x: string): string\nfunction f(x: number): number;\nfunction f(x: any) { return x }\nreturn f(1)", "function f(x) { return x }\nreturn f(1)"},
	{"type as identifier", "const type = 1\ntype\nreturn type", "const type = 1\ntype\nreturn type"},
	{"declare as identifier", "const declare = (x) => x\ndeclare(1)", "const declare = (x) => x\ndeclare(1)"},
	{"interface in block", "if (x) { interface A {} return 1 }", "if (x) { return 1 }"},
	{"import type", "import type { A, B } from 'mod'\nimport type C from 'mod'\nreturn 1", "return 1"},
	{"import type specifier", "import { type A, b, type C as D } from 'mod'\nreturn b", "import { b } from 'mod'\nreturn b"},
	{"import named type", "import { type } from 'mod'\nreturn type", "import { type } from 'mod'\nreturn type"},
	{"export type", "export type { A } from 'mod'\nexport type B = string\nexport interface C {}\nexport declare const d: number\nreturn 1", "return 1"},

	// Classes.
	{"class fields", "class A { x: number = 1; y?: string; z!: boolean; static n: number }", "class A { x = 1; y; z; static n }"},
	{"class modifiers", "class A { private x = 1; public static readonly y = 2; protected m() {} override n() {} private async o() {} public get p() { return 1 } }",
		"class A { x = 1; static y = 2; m() {} n() {} async o() {} get p() { return 1 } }"},
	{"class modifier names", "class A { private() {} readonly = 1; public; static declare() {} }", "class A { private() {} readonly = 1; public; static declare() {} }"},
	{"class generics", "class Box<T extends object = {}> extends Base<T> implements I<T>, J { value: T; constructor(v: T) { super(); this.value = v } }",
		"class Box extends Base { value; constructor(v) { super(); this.value = v } }"},
	{"abstract class", "abstract class Shape { abstract area(): number; abstract name: string; describe(): string { return 'x' } }\nreturn 1",
		"class Shape { describe() { return 'x' } }\nreturn 1"},
	{"class declare field", "class A { declare x: number; y = 1 }", "class A { y = 1 }"},
	{"class index signature", "class A { [key: string]: any; static [k: number]: string; [computed] = 1 }", "class A { [computed] = 1 }"},
	{"method overloads", "class A { m(x: string): void; m(x: number): void; m(x: any) {} }", "class A { m(x) {} }"},
	{"constructor overloads", "class A { constructor(x: string); constructor(x: any) {} }", "class A { constructor(x) {} }"},
	{"optional method", "class A { m?(): void; n?(x: number) { return x } }", "class A { n(x) { return x } }"},
	{"generic method", "class A { m<T>(x: T): T { return x } static async *g<U>(): AsyncGenerator<U> {} }", "class A { m(x) { return x } static async *g() {} }"},
	{"private names kept", "class A { #x: number = 1; get x(): number { return this.#x } }", "class A { #x = 1; get x() { return this.#x } }"},
	{"class expression", "const C = class<T> implements I { x: T }", "const C = class { x }"},

	// Normalize: a TypeScript wrapper.
	{"wrapper", "async (): Promise<void> => { return 1 }", "return 1"},
}

func TestTypeScriptErased(t *testing.T) {
	for _, tt := range tsErased {
		t.Run(tt.name, func(t *testing.T) {
			want, err := Parse(tt.js)
			if err != nil {
				t.Fatalf("stripped JavaScript: %v", err)
			}
			got, err := Parse(tt.ts)
			if err != nil {
				t.Fatalf("TypeScript: %v", err)
			}
			if g, w := Print(got), Print(want); g != w {
				t.Fatalf("TypeScript prints\n%s\nwant\n%s", g, w)
			}
			if g, w := Dump(got.Func, nil), Dump(want.Func, nil); stripPositions(g) != stripPositions(w) {
				t.Fatalf("trees differ:\n%s\nwant\n%s", g, w)
			}
		})
	}
}

// stripPositions drops the @line:col marks of a Dump.
func stripPositions(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if i := strings.Index(line, " @"); i >= 0 {
			j := strings.IndexAny(line[i+2:], " ")
			if j < 0 {
				line = line[:i]
			} else {
				line = line[:i] + line[i+2+j:]
			}
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// tsRuntimeErrors are the TypeScript constructs with run-time meaning,
// and TypeScript mistakes: each is a ParseError at the construct.
var tsRuntimeErrors = []struct {
	src       string
	msg       string
	line, col int
}{
	{"enum Color { Red, Green }", tsEnumMessage, 1, 1},
	{"const enum Color { Red }", tsEnumMessage, 1, 1},
	{"if (x) { enum E { A } }", tsEnumMessage, 1, 10},
	{"namespace Utils { export const x = 1 }", tsNamespaceMessage, 1, 1},
	{"module M {}", tsNamespaceMessage, 1, 1},
	{"class A { constructor(private x: number) {} }", tsParamPropertyMessage, 1, 23},
	{"class A { constructor(readonly x) {} }", tsParamPropertyMessage, 1, 23},
	{"class A { constructor(public override x) {} }", tsParamPropertyMessage, 1, 23},
	{"@sealed\nclass A {}", tsDecoratorMessage, 1, 1},
	{"class A {\n  @log m() {}\n}", tsDecoratorMessage, 2, 3},
	{"class A { m(@inject x) {} }", tsDecoratorMessage, 1, 13},
	{"import fs = require('fs')", tsImportEqualsMessage, 1, 1},
	{"export enum E { A }", "'export' is not allowed: the program is the body of an async function; return the value instead", 1, 1},
	{"export const x: number = 1", "'export' is not allowed: the program is the body of an async function; return the value instead", 1, 1},
	{"function f() { import type { A } from 'm' }", "Cannot use import statement outside the top level of the program", 1, 16},
	// Mistakes keep their positions in the text as sent.
	{"const x: = 1", "Unexpected token '='", 1, 10},
	{"let v: Array<string = []", "Unexpected token '='", 1, 21},
	{"type T = ", "Unexpected end of input", 1, 10},
	{"interface A { a: string b: number }", "Unexpected identifier 'b'", 1, 25},
	{"const v = (a: number)", "Unexpected token ':'", 1, 13},
	{"const v = (a?, b)", "Unexpected token '?'", 1, 13},
	{"class A { abstract m() {} }", "A method with a body cannot be abstract or declare; remove the modifier", 1, 11},
	{"const o = { m(): void }", "Unexpected token '}'", 1, 23},
	{"x = function(): void", "Unexpected end of input", 1, 21},
}

func TestTypeScriptErrors(t *testing.T) {
	for _, tt := range tsRuntimeErrors {
		checkParseError(t, tt.src, Options{}, tt.msg, tt.line, tt.col)
	}
}

// TestTypeScriptOffRestoresErrors checks that with NoTypeScript every
// erased construct is a ParseError again.
func TestTypeScriptOffRestoresErrors(t *testing.T) {
	for _, tt := range tsErased {
		switch {
		case tt.ts == tt.js, tt.name == "wrapper":
			continue
		case tt.name == "new type args no parens", tt.name == "tagged template type args":
			continue // JavaScript reads these as comparisons
		case strings.HasPrefix(tt.name, "conditional") && strings.HasSuffix(tt.name, "else"):
			continue // JavaScript, printed differently
		}
		if _, err := ParseWith(tt.ts, Options{NoTypeScript: true}); err == nil {
			t.Errorf("%s: %q parsed with NoTypeScript", tt.name, tt.ts)
		}
	}
}

// TestJavaScriptUnchanged checks that erasure changes nothing for
// JavaScript: every corpus, golden and valid program parses to the same
// tree with TypeScript erasure on and off.
func TestJavaScriptUnchanged(t *testing.T) {
	var inputs []string
	for _, pattern := range []string{"testdata/corpus/*.js", "testdata/golden/*.js", "testdata/golden/*.md"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, string(b))
		}
	}
	inputs = append(inputs, validPrograms...)
	if len(inputs) < 100 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	for _, src := range inputs {
		js, jsErr := ParseWith(src, Options{NoTypeScript: true})
		ts, tsErr := Parse(src)
		if (jsErr == nil) != (tsErr == nil) {
			t.Errorf("%.60q: error %v with NoTypeScript, %v with erasure", src, jsErr, tsErr)
			continue
		}
		if jsErr == nil && Dump(js.Func, nil) != Dump(ts.Func, nil) {
			t.Errorf("%.60q: erasure changes the tree", src)
		}
	}
}
