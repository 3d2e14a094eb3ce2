package vm_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-codemode/codemode/interp"
	"github.com/go-codemode/codemode/vm"
)

const (
	fibProgram     = "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) } fib(25)"
	loopSumProgram = "let s = 0; for (let i = 0; i < 1000000; i++) { s += i } s"
)

func benchVM(b *testing.B, code string) {
	prog, err := vm.Compile(parse(b, code))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		run := vm.NewRun(context.Background(), prog, vm.Options{Library: lib})
		if _, _, fail := run.Start(); fail != nil {
			b.Fatal(fail)
		}
	}
}

func benchAST(b *testing.B, code string) {
	prog, err := interp.Compile(parse(b, code))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		run := interp.NewRun(context.Background(), prog, interp.Options{Library: lib})
		if _, _, fail := run.Start(); fail != nil {
			b.Fatal(fail)
		}
		run.Close()
	}
}

// The same workloads on both engines, in one run: go test -bench . ./vm/
func BenchmarkFib25VM(b *testing.B)    { benchVM(b, fibProgram) }
func BenchmarkFib25AST(b *testing.B)   { benchAST(b, fibProgram) }
func BenchmarkLoopSumVM(b *testing.B)  { benchVM(b, loopSumProgram) }
func BenchmarkLoopSumAST(b *testing.B) { benchAST(b, loopSumProgram) }

// TestTimeout checks that an endless loop and endless recursion without
// a loop both stop at the deadline.
func TestTimeout(t *testing.T) {
	for _, code := range []string{
		"while (true) {}",
		"function f() { try { f() } finally { f() } } f()",
	} {
		prog, err := vm.Compile(parse(t, code))
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		run := vm.NewRun(context.Background(), prog, vm.Options{Library: lib, Deadline: start.Add(50 * time.Millisecond)})
		_, _, fail := run.Start()
		if fail == nil || fail.Interrupt == nil || fail.Interrupt.Kind != "TimeoutExceeded" {
			t.Fatalf("%q: got %v, want a timeout", code, fail)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%q: stopped after %v", code, d)
		}
	}
}

// TestRegexpDeadline checks that a catastrophic regular expression
// stops at the run's deadline: the VM gives built-ins its deadline.
func TestRegexpDeadline(t *testing.T) {
	prog, err := vm.Compile(parse(t, "/^(a+)+$/.test('a'.repeat(40) + 'b')"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	run := vm.NewRun(context.Background(), prog, vm.Options{Library: lib, Deadline: start.Add(100 * time.Millisecond)})
	_, _, fail := run.Start()
	if fail == nil || fail.Interrupt == nil {
		t.Fatalf("got %v, want an interrupt", fail)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("stopped after %v", d)
	}
}

// TestMemoryBudget checks that the budget stops a program that keeps
// allocating, in a loop and in recursion (stack segments are charged).
func TestMemoryBudget(t *testing.T) {
	for _, code := range []string{
		"const keep = []; for (;;) keep.push([1, 2, 3, 4, 5, 6, 7, 8])",
		"function f(n) { return [n].concat(f(n + 1)) } f(0)",
	} {
		prog, err := vm.Compile(parse(t, code))
		if err != nil {
			t.Fatal(err)
		}
		run := vm.NewRun(context.Background(), prog, vm.Options{Library: lib, Deadline: time.Now().Add(testTimeout)})
		run.Realm().Budget = 1 << 20
		_, _, fail := run.Start()
		if fail == nil {
			t.Fatalf("%q: no failure", code)
		}
		if fail.Interrupt == nil && (fail.Exception == nil || !isRangeError(run.Realm(), fail.Exception.Value)) {
			t.Errorf("%q: got %v, want the memory limit or the call depth limit", code, fail)
		}
	}
}

// TestCancel checks that cancelling the context ends a run.
func TestCancel(t *testing.T) {
	prog, err := vm.Compile(parse(t, "for (;;) {}"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	run := vm.NewRun(ctx, prog, vm.Options{Library: lib})
	_, _, fail := run.Start()
	if fail == nil || fail.Interrupt == nil || fail.Interrupt.Kind != "ExecutionFailure" {
		t.Fatalf("got %v, want a cancellation", fail)
	}
}

// The cost of a trivial run (compiled once), on both engines.
func BenchmarkTrivialVM(b *testing.B)  { b.ReportAllocs(); benchVM(b, "1 + 1") }
func BenchmarkTrivialAST(b *testing.B) { b.ReportAllocs(); benchAST(b, "1 + 1") }

// benchWorkload runs a workload of ../shared/bench/workloads (beside the
// checkout) on engine vm: go test ./vm -run XXX -bench Workload.
func benchWorkload(b *testing.B, name string) { benchWorkloadOn(b, name, benchVM) }

// benchWorkloadAST is benchWorkload on engine ast, for comparison.
func benchWorkloadAST(b *testing.B, name string) { benchWorkloadOn(b, name, benchAST) }

func benchWorkloadOn(b *testing.B, name string, bench func(*testing.B, string)) {
	var src []byte
	for _, d := range []string{"../../shared/bench/workloads", "../../../shared/bench/workloads"} {
		if s, err := os.ReadFile(filepath.Join(d, name+".js")); err == nil {
			src = s
			break
		}
	}
	if src == nil {
		b.Skip("the shared workloads are not beside the checkout")
	}
	b.ReportAllocs()
	bench(b, string(src))
}

func BenchmarkWorkloadFib(b *testing.B)            { benchWorkload(b, "fib") }
func BenchmarkWorkloadLoopSum(b *testing.B)        { benchWorkload(b, "loop_sum") }
func BenchmarkWorkloadStringTemplate(b *testing.B) { benchWorkload(b, "string_template") }
func BenchmarkWorkloadMemArray(b *testing.B)       { benchWorkload(b, "mem_array") }
func BenchmarkWorkloadStartup(b *testing.B)        { benchWorkload(b, "startup") }
func BenchmarkWorkloadDataMunging(b *testing.B)    { benchWorkload(b, "data_munging") }

func BenchmarkWorkloadASTDataMunging(b *testing.B)    { benchWorkloadAST(b, "data_munging") }
func BenchmarkWorkloadASTLoopSum(b *testing.B)        { benchWorkloadAST(b, "loop_sum") }
func BenchmarkWorkloadASTFib(b *testing.B)            { benchWorkloadAST(b, "fib") }
func BenchmarkWorkloadASTStringTemplate(b *testing.B) { benchWorkloadAST(b, "string_template") }
func BenchmarkWorkloadASTMemArray(b *testing.B)       { benchWorkloadAST(b, "mem_array") }
func BenchmarkWorkloadASTStartup(b *testing.B)        { benchWorkloadAST(b, "startup") }

const awaitProgram = "let s = 0; for (let i = 0; i < 100000; i++) s += await Promise.resolve(i); s"

// BenchmarkAwaitSettled is bench's await_settled: 100,000 awaits of
// settled promises, each a frame park and a job.
func BenchmarkAwaitSettledVM(b *testing.B) {
	prog, err := vm.Compile(parse(b, awaitProgram))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		run := vm.NewRun(context.Background(), prog, vm.Options{Library: lib})
		_, p, fail := run.Start()
		if fail == nil && p != nil {
			fail = run.Settle(p)
		}
		if fail != nil {
			b.Fatal(fail)
		}
		run.Close()
	}
}

func BenchmarkAwaitSettledAST(b *testing.B) {
	prog, err := interp.Compile(parse(b, awaitProgram))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		run := interp.NewRun(context.Background(), prog, interp.Options{Library: lib})
		_, p, fail := run.Start()
		if fail == nil && p != nil {
			fail = run.Settle(p)
		}
		if fail != nil {
			b.Fatal(fail)
		}
		run.Close()
	}
}
