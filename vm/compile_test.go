package vm_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-codemode/codemode/vm"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestDisassembleGolden checks the disassembler's output, instruction by
// instruction with source positions, against testdata/disasm.golden.
func TestDisassembleGolden(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "disasm.js"))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := vm.Compile(parse(t, string(src)))
	if err != nil {
		t.Fatal(err)
	}
	got := prog.Disassemble()
	golden := filepath.Join("testdata", "disasm.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("disassembly differs from %s (run with -update to accept):\n%s", golden, got)
	}
}

// TestDeterministic compiles the same source twice, from two parses, and
// requires the same bytes.
func TestDeterministic(t *testing.T) {
	programs := []string{
		`const o = {b: 1, a: 2, c: "x"}; let s = 0; for (const k of []) {} `,
		`function f(a, b) { const g = () => a + b; return g() } let x = 1; x += f(1, 2); [x, -0, 0, NaN, "-0"]`,
		`try { throw 1 } catch (e) { e } finally { 2 } switch (3) { case 1: break; default: 4 }`,
		`label: while (true) { for (let i = 0; i < 2; i++) { if (i) continue label; break label } }`,
		"class A { #x = 1; static s = 2; get [Symbol.iterator]() { return 1 } m() { return #x in this } } class B extends A { constructor() { super(); super.m() } }",
		"function* g(a) { yield* a; return yield 1 } async function* h() { for await (const x of g([])) await x } await h().next()",
	}
	for _, code := range programs {
		p1, err1 := vm.Compile(parse(t, code))
		p2, err2 := vm.Compile(parse(t, code))
		if err1 != nil || err2 != nil {
			if vm.IsNotCompiled(err1) && vm.IsNotCompiled(err2) && err1.Error() == err2.Error() {
				continue
			}
			t.Fatalf("compile %q: %v, %v", code, err1, err2)
		}
		b1, b2 := p1.Encode(), p2.Encode()
		if !bytes.Equal(b1, b2) {
			t.Errorf("%q compiled to different bytes", code)
		}
		if !bytes.HasPrefix(b1, []byte("cmvm")) {
			t.Errorf("%q: no header", code)
		}
	}
}

// TestEncodeDistinguishes checks that the encoding depends on what was
// compiled (it is not a constant), including -0 against 0.
func TestEncodeDistinguishes(t *testing.T) {
	a, _ := vm.Compile(parse(t, "0"))
	b, _ := vm.Compile(parse(t, "-0 + 0"))
	c, _ := vm.Compile(parse(t, "1"))
	if bytes.Equal(a.Encode(), c.Encode()) || bytes.Equal(a.Encode(), b.Encode()) {
		t.Error("different programs encode the same")
	}
}

// TestCompilesAll checks that what was once not compiled now is: each
// construct compiles (TestClasses, TestGenerators, TestAsync and
// TestUnsupportedAndModules check how they run).
func TestCompilesAll(t *testing.T) {
	programs := []string{
		"class A {}", "const f = async () => 1", "function* g() {}; 1", "await 1",
		"const a = {}; (a?.b)()", "const k = 'x'; ({get [k]() { return 1 }})",
		"1n", "debugger", "function f() { return new.target }; 1", "import x from 'm'",
		"import('m')", "import.meta", "with ({}) {}", "class B { #x; m(o) { return #x in o && super.y } }",
		"async function* ag() { for await (const x of []) yield* ag() }",
	}
	for _, code := range programs {
		p, err := parseOrNil(code)
		if err != nil {
			continue // the front end rejects it: nothing to compile
		}
		if _, err := vm.Compile(p); err != nil {
			t.Errorf("%q: %v", code, err)
		}
	}
}

// TestNotCompiled checks that what the compiler does not handle (only a
// BigInt literal as a property key, which engine "ast" does not compile
// either) gives a clean, located error and never a panic.
func TestNotCompiled(t *testing.T) {
	for _, code := range []string{"({0n: 1})", "const {1n: x} = {}", "class A { 2n() {} }"} {
		p, err := parseOrNil(code)
		if err != nil {
			continue
		}
		_, err = vm.Compile(p)
		if !vm.IsNotCompiled(err) {
			t.Errorf("%q: got %v, want a NotCompiledError", code, err)
			continue
		}
		if want := "vm: a BigInt property key is not compiled yet (line 1"; len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
			t.Errorf("%q: got %q", code, err)
		}
	}
}
