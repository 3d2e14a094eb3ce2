package interp_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/go-codemode/codemode"
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
)

// The stack tests run hostile programs in a child process (this test
// binary re-executed) whose Go stack is capped at childMaxStack: a
// program that overflows it kills the child, which the parent reports as
// a failure instead of dying itself.

const (
	childMaxStack = 64 << 20
	envSrc        = "CODEMODE_STACK_SRC"
	envMax        = "CODEMODE_STACK_MAX"
	envProbe      = "CODEMODE_STACK_PROBE"
	envBudget     = "CODEMODE_STACK_BUDGET"
	envRuntime    = "CODEMODE_STACK_RUNTIME"
	// childTimeout is far more than any child needs: one that runs
	// this long hangs.
	childTimeout = 2 * time.Minute
)

// stackProbe wraps the run's agent: every raised error asks for the
// position, so Pos sees the stack at the RangeError's throw.
type stackProbe struct {
	value.Agent
	r         *value.Realm
	base, low uintptr
	// size is the stack's size: a position outside it is on another
	// goroutine's stack (a coroutine's), which the probe cannot measure.
	size    uintptr
	goDepth int
}

func (p *stackProbe) Pos() int {
	var x byte
	sp := uintptr(unsafe.Pointer(&x))
	if sp <= p.base && p.base-sp < p.size && (p.low == 0 || sp < p.low) {
		p.low = sp
		p.goDepth = p.r.GoDepth
	}
	return p.Agent.Pos()
}

// growStack touches n bytes of stack, so that the goroutine's stack is
// already at its final size and no longer moves while the probe measures.
//
//go:noinline
func growStack(n int) byte {
	var buf [16 << 10]byte
	buf[n%len(buf)] = byte(n)
	if n > len(buf) {
		return growStack(n-len(buf)) + buf[(n/7)%len(buf)]
	}
	return buf[0]
}

// TestStackChild is the child's side: it runs the program in envSrc
// with the Go stack capped and prints how it ended.
func TestStackChild(t *testing.T) {
	src, ok := os.LookupEnv(envSrc)
	if !ok {
		t.Skip("only runs as the child of the stack tests")
	}
	max := childMaxStack
	if s := os.Getenv(envMax); s != "" {
		max, _ = strconv.Atoi(s)
	}
	debug.SetMaxStack(max)
	var probe *stackProbe
	if os.Getenv(envProbe) != "" {
		debug.SetGCPercent(-1) // no GC, so the stack is never shrunk
		growStack(max/2 + 1<<20)
		var x byte
		probe = &stackProbe{base: uintptr(unsafe.Pointer(&x)), size: uintptr(max)}
	}
	var out string
	if os.Getenv(envRuntime) != "" {
		out = execute(t, codemode.Options{}, src).String()
	} else {
		out = childRun(t, src, probe)
	}
	fmt.Printf("\nRESULT %s\n", out)
	if probe != nil && probe.low != 0 {
		fmt.Printf("STACK %d %d\n", probe.base-probe.low, probe.goDepth)
	}
}

func childRun(t *testing.T, src string, probe *stackProbe) string {
	prog, err := ast.Parse(src)
	if err != nil {
		return "parse error: " + err.Error()
	}
	code, err := interp.Compile(prog)
	if err != nil {
		return "compile error: " + err.Error()
	}
	run := interp.NewRun(context.Background(), code, interp.Options{Library: testLibrary()})
	defer run.Close()
	r := run.Realm()
	if b := os.Getenv(envBudget); b != "" {
		r.Budget, _ = strconv.ParseInt(b, 10, 64)
		defer printMemory()
	}
	if probe != nil {
		probe.Agent, probe.r = r.Agent, r
		r.Agent = probe
	}
	v, p, fail := run.Start()
	if fail == nil && p != nil {
		fail = run.Settle(p)
		if fail == nil {
			v = p.Internal.(*value.PromiseData).Result
		}
	}
	switch {
	case fail == nil:
		return "ok " + builtin.Format(r, v)
	case fail.Exception != nil:
		return "throw " + builtin.Format(r, fail.Exception.Value)
	case fail.Interrupt != nil:
		return "interrupt " + fail.Interrupt.Kind
	}
	return "panic " + fmt.Sprint(fail.Panic)
}

// printMemory prints the Go heap and stacks in use, before the run is
// closed: suspended coroutines still hold their stacks.
func printMemory() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("\nMEMORY %d %d\n", ms.HeapAlloc, ms.StackInuse)
}

// testLibrary is the whole standard library, as the runtime installs it.
func testLibrary() *value.Library {
	return builtin.New(array.Install, text.Install, json.Install, numeric.Install, collections.Install, web.Install)
}

// childResult runs src in a child process and returns its RESULT line
// and the stack it measured (probe mode only), or an error when the child
// did not end normally.
func childResult(src string, maxStack int, probe bool, env ...string) (result string, stack, estimate int, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), childTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestStackChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), envSrc+"="+src, envMax+"="+strconv.Itoa(maxStack))
	if probe {
		cmd.Env = append(cmd.Env, envProbe+"=1")
	}
	cmd.Env = append(cmd.Env, env...)
	out, runErr := cmd.CombinedOutput()
	s := string(out)
	i := strings.Index(s, "\nRESULT ")
	if runErr != nil || i < 0 {
		first := s
		if len(first) > 300 {
			first = first[:300]
		}
		return "", 0, 0, fmt.Errorf("child died (%v): %s", runErr, first)
	}
	line := s[i+len("\nRESULT "):]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	if k := strings.Index(s, "\nSTACK "); k >= 0 {
		fmt.Sscanf(s[k+len("\nSTACK "):], "%d %d", &stack, &estimate)
	}
	return line, stack, estimate, nil
}

// labels nests n labeled blocks with loops around body.
func labels(n int, body string) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "l%d: { for (let i = 0; i < 1; i++) { while (true) { ", i)
	}
	b.WriteString(body)
	b.WriteString(strings.Repeat(" } } }", n))
	return b.String()
}

func nest(open, close string, n int, inner string) string {
	return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
}

const rangeErr = "throw RangeError: Maximum call stack size exceeded"

// hostile are programs whose recursion costs a lot of Go stack per
// level, one for each recursive path of the evaluator and the library.
var hostile = []struct{ name, src, want string }{
	{"getter building nested arrays", `const o = { get x() { return ` + nest("[", "]", 300, "this.x") + ` } }; return String(o.x)`, rangeErr},
	{"nested call arguments", `const id = (x) => x; function f(n) { return n <= 0 ? 0 : ` + nest("id(", ")", 200, "f(n - 1)") + ` } return f(1e4)`, rangeErr},
	{"switch nesting", `function f(n) { ` + nest("switch (n % 2) { default: ", " }", 150, "return f(n + 1);") + ` } return f(0)`, rangeErr},
	{"try/finally nesting", `function f(n) { ` + nest("try { ", " } finally { n++ }", 150, "return f(n + 1);") + ` } return f(0)`, rangeErr},
	{"try/catch nesting", `function f(n) { ` + nest("try { ", " } catch (e) { throw e }", 150, "return f(n + 1);") + ` } return f(0)`, rangeErr},
	{"loop and label nesting", `function f(n) { ` + labels(80, "return f(n + 1);") + ` } return f(0)`, rangeErr},
	{"nested literals with a call inside", `function f(n) { return ` + nest("[{ a: ", " }]", 150, "f(n + 1)") + ` } return f(0)`, rangeErr},
	{"nested template literals", "function f(n) { return " + nest("`${", "}`", 200, "f(n + 1)") + " } return f(0)", rangeErr},
	{"nested conditionals and operators", `function f(n) { return ` + nest("(n >= 0 ? 1 + ", " : 0)", 200, "f(n + 1)") + ` } return f(0)`, rangeErr},
	{"getters calling getters", `const o = { get a() { return this.b }, get b() { return ` + nest("[", "]", 100, "this.a") + ` } }; return o.a`, rangeErr},
	{"valueOf through +", `const o = { valueOf() { return ` + nest("(1 + ", ")", 100, "this") + ` } }; return o + 1`, rangeErr},
	{"toString through a template", "const o = { toString() { return " + nest("`${", "}`", 100, "this") + " } }; return `${o}`", rangeErr},
	{"String of nested arrays", `let a = []; for (let i = 0; i < 3e4; i++) a = [a]; return String(a)`, rangeErr},
	{"join of nested arrays with objects", `let a = {}; for (let i = 0; i < 3e4; i++) a = [[a], 1]; return a.join("-")`, rangeErr},
	{"String of objects nested through toString", `let o = { toString() { return "end" } }; for (let i = 0; i < 3e4; i++) { const inner = o; o = { toString() { return String(inner) } } } return String(o)`, rangeErr},
	{"JSON.stringify with toJSON recursion", `const o = { toJSON() { return [JSON.stringify(this)] } }; return JSON.stringify(o)`, rangeErr},
	{"JSON.stringify of nested arrays", `let a = []; for (let i = 0; i < 3e4; i++) a = [a]; return JSON.stringify(a).length`, rangeErr},
	{"structuredClone of nested arrays", `let a = []; for (let i = 0; i < 3e4; i++) a = [{ a }]; return structuredClone(a).length`, rangeErr},
	{"sort comparator recursion", `function f(n) { return [2, 1].sort((a, b) => f(n + 1) + a - b) } return f(0)`, rangeErr},
	{"map callback recursion", `function g(x) { return ` + nest("[", "]", 50, "[x].map(g)") + ` } return g(1)`, rangeErr},
	{"iterator helper recursion", `function f(n) { return [n].values().map((x) => f(x + 1)).toArray() } return f(0)`, rangeErr},
	{"iterator helper chain", `let it = [1, 2, 3].values(); for (let i = 0; i < 3e4; i++) it = it.map((x) => x); return it.toArray()`, rangeErr},
	{"tagged template recursion", "function f(s, n) { return " + nest("[", "]", 100, "f`${n + 1}`") + " } return f([], 0)", rangeErr},
	{"spread recursion", `const it = { [Symbol.iterator]() { return [` + nest("[", "]", 100, "...it") + `][Symbol.iterator]() } }; return [...it]`, rangeErr},
	{"class constructors with super chains", `class A { constructor(n) { this.c = ` + nest("[", "]", 100, "new B(n + 1)") + ` } } class B extends A { constructor(n) { super(n) } } return new B(0)`, rangeErr},
	{"generator recursion", `function* g(n) { yield ` + nest("[", "]", 100, "g(n + 1).next()") + ` } return g(0).next()`, rangeErr},
	{"yield* recursion", `function* g() { yield* g() } return [...g()]`, rangeErr},
	{"async recursion", `async function f(n) { return ` + nest("[", "]", 100, "await f(n + 1)") + ` } return await f(0)`, rangeErr},
	{"then chains", `let p = Promise.resolve(0); for (let i = 0; i < 5000; i++) p = p.then((x) => x + 1); return p`, "ok 5000"},
	{"then recursion", `function f(n) { return n ? Promise.resolve(n).then((v) => f(v - 1)) : "done" } return f(5000)`, "ok done"},
	{"console.log of nested arrays", `let a = []; for (let i = 0; i < 1e5; i++) a = [a]; console.log(a); return 1`, "ok 1"},
	{"throwing nested arrays", `let a = []; for (let i = 0; i < 1e5; i++) a = [a]; throw a`, "throw " + nest("[", "]", 32, "...")},
	{"Array.from callback recursion", `function f(n) { return Array.from([n], (x) => f(x + 1)) } return f(0)`, rangeErr},
	{"bound function recursion", `function f(n) { return g(n + 1) } const g = f.bind(null); return f(0)`, rangeErr},
	{"class field initializer recursion", `class C { x = ` + nest("[", "]", 100, "new C()") + ` } return new C()`, rangeErr},
	{"default parameter recursion", `function f(n, x = ` + nest("[", "]", 100, "f(n + 1)") + `) { return x } return f(0)`, rangeErr},
	{"destructuring default recursion", `function f(n) { const { a = ` + nest("[", "]", 100, "f(n + 1)") + ` } = {}; return a } return f(0)`, rangeErr},
	{"member chain after a call", `function f(n) { return f(n + 1)` + strings.Repeat(".a", 300) + ` } return f(0)`, rangeErr},
	{"optional chain after a call", `function f(n) { return f(n + 1)` + strings.Repeat("?.a", 300) + ` } return f(0)`, rangeErr},
	{"computed keys", `function f(n) { return { [` + nest("[", "]", 100, "f(n + 1)") + `]: 1 } } return f(0)`, rangeErr},
	{"for-of over a recursive iterator", `function f(n) { for (const x of { [Symbol.iterator]() { return f(n + 1) } }) {} } return f(0)`, rangeErr},
	{"Promise executor recursion", `function f(n) { let p; new Promise(() => { p = ` + nest("[", "]", 100, "f(n + 1)") + ` }); return p } return f(0)`, "ok " + nest("[", "]", 32, "...")},
	{"async without await recursion", `async function f(n) { ` + nest("[", "]", 100, "f(n + 1)") + ` } return f(0).then(() => "done")`, "ok done"},
	{"replace callback recursion", `function f(n) { return "a".replace("a", () => f(n + 1)) } return f(0)`, rangeErr},
	{"reduce callback recursion", `function f(n) { return [1].reduce(() => f(n + 1), 0) } return f(0)`, rangeErr},
	{"JSON.parse reviver recursion", `function f(n) { return JSON.parse("[1]", () => f(n + 1)) } return f(0)`, rangeErr},
	{"JSON.parse of deep nesting", `return JSON.parse("[".repeat(1e6) + "]".repeat(1e6))`, "ok " + nest("[", "]", 32, "...")},
	{"flat of nested arrays", `let a = []; for (let i = 0; i < 3e4; i++) a = [a]; return a.flat(Infinity).length`, rangeErr},
	{"toLocaleString of nested arrays", `let a = []; for (let i = 0; i < 3e4; i++) a = [a]; return a.toLocaleString().length`, rangeErr},
	{"Object.defineProperty getter recursion", `const o = {}; Object.defineProperty(o, "x", { get() { return ` + nest("[", "]", 100, "o.x") + ` } }); return o.x`, rangeErr},
	{"prototype getter recursion", `class A { get x() { return ` + nest("[", "]", 100, "this.x") + ` } } class B extends A { get x() { return super.x } } return new B().x`, rangeErr},
	{"setter recursion", `const o = { set x(v) { this.x = ` + nest("[", "]", 100, "v") + ` } }; o.x = 1`, rangeErr},
	{"comparison recursion", `const o = { valueOf() { return ` + nest("(1 < ", ")", 100, "this") + ` } }; return o < 1`, rangeErr},
	{"in and instanceof recursion", `const C = { [Symbol.hasInstance](x) { return ` + nest("[", "]", 100, "x instanceof C") + ` } }; return 1 instanceof C`, rangeErr},
	{"array destructuring of a recursive iterable", `const it = { [Symbol.iterator]() { const [[[a]]] = [[it]]; return [][Symbol.iterator]() } }; const [x] = it; return x`, rangeErr},
	{"recursion inside for-of", `function f(n) { for (const x of [n]) f(x + 1) } return f(0)`, rangeErr},
	{"recursion inside for-in and spread arguments", `function f(n) { for (const k in { a: 1 }) return Math.max(...[f(n + 1)]) } return f(0)`, rangeErr},
	{"console.log of nested getters", `function f(n) { console.log(` + nest("[", "]", 30, "{ get x() { return f(n + 1) } }") + `) } return f(0)`, rangeErr},
	{"console.log of an error with a recursive message", `function f(n) { const e = new Error(); Object.defineProperty(e, "message", { get() { return f(n + 1) } }); console.log(` + nest("[", "]", 30, "e") + `) } return f(0)`, rangeErr},
	{"JSON.stringify of deep arrays with toJSON recursion", `function f(n) { return JSON.stringify(` + nest("[", "]", 500, "{ toJSON() { return f(n + 1) } }") + `) } return f(0)`, rangeErr},
	{"JSON.stringify replacer recursion", `function f(n) { return JSON.stringify(` + nest("[", "]", 500, "1") + `, (k, v) => v === 1 ? f(n + 1) : v) } return f(0)`, rangeErr},
	{"JSON.parse reviver over deep nesting", `return JSON.parse("[".repeat(1e5) + "]".repeat(1e5), (k, v) => v).length`, rangeErr},
	{"deeply nested regular expression", `try { return new RegExp("(".repeat(1e5) + "a" + ")".repeat(1e5)).test("a") } catch (e) { return e.name }`, "ok SyntaxError"},
	{"regular expression backtracking", `return /^(a|ab)*c$/.test("ab".repeat(5e4))`, "ok false"},
	{"structuredClone with getters", `function f(n) { return structuredClone(` + nest("[", "]", 200, "{ get x() { return f(n + 1) } }") + `) } return f(0)`, rangeErr},
	{"Object.entries and getters", `function f(n) { return Object.entries({ get x() { return f(n + 1) } }) } return f(0)`, rangeErr},
	{"error cause chains", `let e = new Error("x"); for (let i = 0; i < 1e5; i++) e = new Error("y", { cause: e }); throw e`, "throw Error: y"},
	{"nested destructuring patterns", `function f(n) { const ` + nest("{ a: ", " = {} }", 100, "{ x = f(n + 1) }") + ` = {}; return x } return f(0)`, rangeErr},
	{"nested array patterns over a recursive iterable", `const it = { [Symbol.iterator]() { const ` + nest("[", "]", 60, "a") + ` = ` + nest("[", "]", 59, "it") + `; return [][Symbol.iterator]() } }; const [x] = it; return x`, rangeErr},
	{"nested unary operators", `function f(n) { return ` + nest("!(-(typeof (void (", "))))", 60, "f(n + 1)") + ` } return f(0)`, rangeErr},
	{"nested logical operators", `function f(n) { return ` + nest("(0 || (null ?? (1 && ", ")))", 70, "f(n + 1)") + ` } return f(1)`, rangeErr},
	{"nested assignments and sequences", `function f(n) { let a; return ` + nest("(a = (0, ", "))", 100, "f(n + 1)") + ` } return f(0)`, rangeErr},
	{"nested spreads", `function f(n) { return ` + nest("[...[", "]]", 80, "f(n + 1)") + ` } return f(0)`, rangeErr},
	{"nested object spreads", `function f(n) { return ` + nest("{ ...{ a: ", " } }", 80, "f(n + 1)") + ` } return f(0)`, rangeErr},
	{"nested optional calls", `const id = (x) => x; function f(n) { return ` + nest("id?.(", ")", 150, "f(n + 1)") + ` } return f(0)`, rangeErr},
	{"nested index expressions", `function f(n) { const o = {}; return ` + nest("o[", "]", 150, "f(n + 1)") + ` } return f(0)`, rangeErr},
	{"nested new expressions", `function C(x) { this.x = x } function f(n) { return ` + nest("new C(", ")", 150, "f(n + 1)") + ` } return f(0)`, rangeErr},
	{"nested if and blocks", `function f(n) { ` + nest("if (n >= 0) { { ", " } }", 150, "return f(n + 1);") + ` } return f(0)`, rangeErr},
	{"async generator recursion", `async function* g(n) { yield ` + nest("[", "]", 100, "await g(n + 1).next()") + ` } try { await g(0).next() } catch (e) { return e.message }`, "ok Maximum call stack size exceeded"},
	{"for await recursion", `async function f(n) { for await (const x of [n]) { return ` + nest("[", "]", 100, "await f(x + 1)") + ` } } try { await f(0) } catch (e) { return e.message }`, "ok Too many pending promises (limit 10000); await promises before creating more."},
	{"Promise subclass recursion", `class P extends Promise { constructor(ex) { super(ex); ` + nest("[", "]", 50, "new P(() => {})") + ` } } return new P(() => {})`, rangeErr},
	{"call and apply recursion", `function f(n) { return f.call(null, n + 1) + f.apply(null, [n]) } return f(0)`, rangeErr},
}

// TestStackHostile: each hostile program ends with its RangeError (or
// its value) in a child whose Go stack is capped at 64 MiB, never with a
// fatal stack overflow.
func TestStackHostile(t *testing.T) {
	runInChildren(t, hostile)
}

// runInChildren runs each case in a child with the capped Go stack, in
// parallel, and compares its outcome.
func runInChildren[C ~struct{ name, src, want string }](t *testing.T, cases []C) {
	for _, tc := range cases {
		tt := struct{ name, src, want string }(tc)
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, _, _, err := childResult(tt.src, childMaxStack, false)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestStackOrdinary: recursion as deep as node allows for ordinary code
// still works under the same cap.
func TestStackOrdinary(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"plain recursion", `function f(n) { return n ? 1 + f(n - 1) : 0 } return f(9000)`, "ok 9000"},
		{"recursion with a loop and a branch", `function f(n) { let s = 0; for (const x of [1]) { if (n > 0) { s += x + f(n - 1) } } return s } return f(9000)`, "ok 9000"},
		{"recursion through a method", `const o = { f(n) { return n ? this.f(n - 1) + 1 : 0 } }; return o.f(9000)`, "ok 9000"},
		{"recursion through map", `function f(n) { return n ? [n].map((x) => f(x - 1))[0] + 1 : 0 } return f(3000)`, "ok 3000"},
		{"recursion in a try", `function f(n) { try { return n ? f(n - 1) + 1 : 0 } catch (e) { throw e } } return f(9000)`, "ok 9000"},
		{"recursion in a generator", `function* g() { function f(n) { return n ? 1 + f(n - 1) : 0 } yield f(9000) } return g().next().value`, "ok 9000"},
		{"recursion in an async function", `async function g() { await null; function f(n) { return n ? 1 + f(n - 1) : 0 } return f(9000) } return await g()`, "ok 9000"},
		{"depth recovers after the RangeError", `function g() { return [[[[g()]]]] } try { g() } catch {} function f(n) { return n ? 1 + f(n - 1) : 0 } return f(9000)`, "ok 9000"},
	}
	runInChildren(t, tests)
}

// TestStackBoundary: the runtime's boundary (the result's copy out, the
// diagnostic of a thrown value, the logs) handles what the hostile
// programs leave behind, under the same cap.
func TestStackBoundary(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"uncaught RangeError from nested call arguments", hostile[1].src, `"message":"RangeError: Maximum call stack size exceeded`},
		{"uncaught RangeError from a getter", hostile[0].src, `"message":"RangeError: Maximum call stack size exceeded`},
		{"returning deeply nested arrays", `let a = []; for (let i = 0; i < 3e4; i++) a = [a]; return a`, `"ok":`},
		{"returning a value with a recursive toJSON", `const o = { toJSON() { return [o] } }; return o`, `"ok":`},
		{"throwing deeply nested arrays", `let a = []; for (let i = 0; i < 3e4; i++) a = [a]; throw a`, `"ok":false`},
		{"throwing an object with recursive getters", `function f(n) { return ` + nest("[", "]", 30, "{ get x() { return f(n + 1) } }") + ` } throw f(0)`, `"ok":false`},
		{"logging deeply nested arrays", `let a = []; for (let i = 0; i < 3e4; i++) a = [a]; console.log(a); return 1`, `"value":1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, _, _, err := childResult(tt.src, childMaxStack, false, envRuntime+"=1")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("got  %.300s\nwant it to contain %s", got, tt.want)
			}
			t.Logf("%.200s", got)
		})
	}
}

// TestStackDeterministic: where the RangeError comes depends on the
// program only.
func TestStackDeterministic(t *testing.T) {
	src := `let d = 0; const id = (x) => x; function f() { d++; return ` + nest("id(", ")", 50, "f()") + ` } try { f() } catch {} return d`
	first, fail := run(t, testLibrary(), src)
	if fail != nil {
		t.Fatal(fail)
	}
	for i := 0; i < 3; i++ {
		got, fail := run(t, testLibrary(), src)
		if fail != nil || got.Num() != first.Num() {
			t.Fatalf("run %d reached depth %v, the first %v (%v)", i, got, first, fail)
		}
	}
	if n := first.Num(); n < 1000 || n >= 10000 {
		t.Errorf("the RangeError came at depth %v: want it past 1,000 levels and before MaxCallDepth", n)
	}
}

// TestGeneratorStacksCharged: suspended generators whose goroutine stacks
// grew are charged for them, so keeping many ends with
// MemoryLimitExceeded while the Go heap and stacks stay near the budget.
func TestGeneratorStacksCharged(t *testing.T) {
	const budget = 64 << 20
	src := `function rec(n) { return n ? rec(n - 1) : 0 }
		const a = [];
		for (let i = 0; i < 1e5; i++) { const g = (function* () { rec(9000); yield i })(); g.next(); a.push(g) }
		return a.length`
	cmd := exec.Command(os.Args[0], "-test.run=^TestStackChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), envSrc+"="+src, envBudget+"="+strconv.Itoa(budget))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child died (%v): %.300s", err, out)
	}
	var heap, stacks int64
	s := string(out)
	if i := strings.Index(s, "\nMEMORY "); i < 0 {
		t.Fatalf("no memory line in %.300s", s)
	} else {
		fmt.Sscanf(s[i+len("\nMEMORY "):], "%d %d", &heap, &stacks)
	}
	if !strings.Contains(s, "\nRESULT interrupt MemoryLimitExceeded\n") {
		t.Errorf("want MemoryLimitExceeded, got %.300s", s)
	}
	if heap+stacks > 2*budget {
		t.Errorf("heap %d + stacks %d bytes: more than twice the budget of %d", heap, stacks, budget)
	}
	t.Logf("heap %.1f MiB, stacks %.1f MiB", float64(heap)/(1<<20), float64(stacks)/(1<<20))
}

// TestStackMeasure prints, for each hostile program, how it ends with the
// Go stack capped at 64 MiB and at 1 GiB, the real stack it used at the
// RangeError (measured by the probe) and GoDepth's estimate there: the
// calibration of stack.go's costs. CODEMODE_STACK_ONLY picks programs by
// name.
func TestStackMeasure(t *testing.T) {
	if os.Getenv("CODEMODE_STACK_MEASURE") == "" {
		t.Skip("set CODEMODE_STACK_MEASURE=1 to measure")
	}
	only := os.Getenv("CODEMODE_STACK_ONLY")
	for _, tt := range hostile {
		if only != "" && !strings.Contains(tt.name, only) {
			continue
		}
		res64, _, _, err64 := childResult(tt.src, 64<<20, false)
		if err64 != nil {
			res64 = "FATAL"
		}
		res, stack, est, err := childResult(tt.src, 1<<30, true)
		if err != nil {
			res = "FATAL"
		}
		res64, res1g := short(res64, tt.want), short(res, tt.want)
		if len(res) > 60 {
			res = res[:60]
		}
		ratio := 0.0
		if est > 0 {
			ratio = float64(stack) / float64(est)
		}
		fmt.Printf("%-42s | 64MiB: %-5s | 1GiB: %-5s stack %7.2f MiB est %7.2f MiB real/est %.2f | %s\n", tt.name, res64, res1g, float64(stack)/(1<<20), float64(est)/(1<<20), ratio, res)
	}
}

// short says whether a child's result is the expected one.
func short(res, want string) string {
	switch {
	case res == "FATAL":
		return res
	case res == want:
		return "ok"
	}
	return "other"
}
