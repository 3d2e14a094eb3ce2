package bench

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/protocol"
)

func load(t testing.TB) ([]Workload, string) {
	dir, err := WorkloadsDir()
	if err != nil {
		t.Skip(err)
	}
	ws, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	text, err := JSONText(dir)
	if err != nil {
		t.Fatal(err)
	}
	return ws, text
}

func runner(t testing.TB, text string) *Runner {
	r, err := NewRunner(text)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestWorkloadsRun checks every workload's result on both codemode
// engines; a workload engine "vm" does not compile yet is skipped with
// the construct (goja runs only in the benchmarks: it takes half a minute
// on the string workloads).
func TestWorkloadsRun(t *testing.T) {
	ws, text := load(t)
	r := runner(t, text)
	ws = append(ws, AwaitSettled)
	ws = append(ws, ToolCallPrograms...)
	for _, w := range ws {
		for _, e := range []string{codemode.EngineAST, codemode.EngineVM} {
			t.Run(w.Name+"/"+e, func(t *testing.T) {
				if why := w.Missing(e); why != "" {
					t.Skip(why)
				}
				if err := r.Run(e, w); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// TestGojaExtras checks the programs of this package's own on goja: the
// wrapping of a body in an async function and the draining of its jobs.
func TestGojaExtras(t *testing.T) {
	r := runner(t, "")
	for _, w := range append([]Workload{AwaitSettled}, ToolCallPrograms...) {
		if err := r.Run(Goja, w); err != nil {
			t.Errorf("%s: %v", w.Name, err)
		}
	}
}

// TestMissing checks that the only reason a codemode column is missing
// is a synchronous host function or a NotCompiledError, and that a
// program the VM compiles is not reported missing.
func TestMissing(t *testing.T) {
	cases := []struct {
		w      Workload
		column string
		want   string // a prefix of the reason; "" for none
	}{
		{Workload{Source: "1 + 1"}, codemode.EngineVM, ""},
		{Workload{Source: "1 + 1"}, codemode.EngineAST, ""},
		{Workload{Source: "lookup({id: 1})", NeedsHost: "lookup"}, codemode.EngineAST, "sync host function lookup"},
		{Workload{Source: "lookup({id: 1})", NeedsHost: "lookup"}, Goja, ""},
		{Workload{Source: "syntax error ("}, codemode.EngineVM, ""},
		{Workload{Source: CompileProgram(2000)}, codemode.EngineVM, ""},
	}
	for _, c := range cases {
		if got := c.w.Missing(c.column); !strings.HasPrefix(got, c.want) || (c.want == "" && got != "") {
			t.Errorf("%.30q on %s: got %q, want %q", c.w.Source, c.column, got, c.want)
		}
	}
}

// TestCompileProgram checks that compile_100kb's program is about the
// size asked, compiles on every path and runs on both engines.
func TestCompileProgram(t *testing.T) {
	src := CompileProgram(100 << 10)
	if n := len(src); n < 100<<10 || n > 102<<10 {
		t.Fatalf("the program is %d bytes, want about 100 KB", n)
	}
	for name, f := range map[string]func(string) error{"parse": ParseOnly, "ast": CompileAST, "vm": CompileVM, "goja": CompileGoja} {
		if err := f(src); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	r := runner(t, "")
	n := strings.Count(src, "function summarize")
	for _, e := range []string{codemode.EngineAST, codemode.EngineVM} {
		w := Workload{Name: "compile_100kb", Source: src, Expected: strconv.Itoa(n)}
		if err := r.Run(e, w); err != nil {
			t.Errorf("%s: %v", e, err)
		}
	}
}

// benchColumns runs w on each column as sub-benchmarks named after the
// column; a column that cannot run w is skipped with the reason.
func benchColumns(b *testing.B, r *Runner, w Workload) {
	for _, c := range Columns {
		b.Run(c, func(b *testing.B) {
			if why := w.Missing(c); why != "" {
				b.Skip(why)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := r.Run(c, w); err != nil {
					b.Fatal(err)
				}
			}
			if w.PerRun > 0 {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(w.PerRun), "ns/"+w.Unit)
			}
		})
	}
}

// BenchmarkWorkloads runs each workload on ast, vm and goja.
func BenchmarkWorkloads(b *testing.B) {
	ws, text := load(b)
	r := runner(b, text)
	for _, w := range ws {
		b.Run(w.Name, func(b *testing.B) { benchColumns(b, r, w) })
	}
}

// BenchmarkAwaitSettled awaits 100,000 settled promises per run.
func BenchmarkAwaitSettled(b *testing.B) { benchColumns(b, runner(b, ""), AwaitSettled) }

// BenchmarkToolCall compares an awaited host call on codemode (a tool on
// a worker goroutine, its argument and result copied as JSON) with goja
// (a host function resolving a promise synchronously): 1,000 calls per
// run, in sequence and under Promise.all.
func BenchmarkToolCall(b *testing.B) {
	r := runner(b, "")
	for _, w := range ToolCallPrograms {
		b.Run(strings.TrimPrefix(w.Name, "toolcall_"), func(b *testing.B) { benchColumns(b, r, w) })
	}
}

// BenchmarkExecuteTrivial is Execute("1 + 1") on an existing Runtime,
// against goja's RunString on an existing runtime.
func BenchmarkExecuteTrivial(b *testing.B) {
	for _, e := range []string{codemode.EngineAST, codemode.EngineVM} {
		b.Run(e, func(b *testing.B) {
			rt, err := NewRuntime(e)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if res := rt.Execute(context.Background(), TrivialProgram); !res.OK {
					b.Fatal(res)
				}
			}
		})
	}
	b.Run(Goja, func(b *testing.B) {
		rt := goja.New()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := rt.RunString(TrivialProgram); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCompile100KB parses and compiles a 100 KB program without
// running it, on each path; execute_* runs it through Execute, where the
// run only defines its functions.
func BenchmarkCompile100KB(b *testing.B) {
	src := CompileProgram(100 << 10)
	for _, p := range []struct {
		name string
		f    func(string) error
	}{{"parse", ParseOnly}, {"ast", CompileAST}, {"vm", CompileVM}, {Goja, CompileGoja}} {
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if err := p.f(src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, e := range []string{codemode.EngineAST, codemode.EngineVM} {
		b.Run("execute_"+e, func(b *testing.B) {
			rt, err := NewRuntime(e)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if res := rt.Execute(context.Background(), src); !res.OK {
					b.Fatal(res)
				}
			}
		})
	}
}

// TestLiveHeap checks that the live-heap measurement runs on every
// column: each run reaches its held call with its 200 records. The sizes
// are compare's to report, not a test's to assert.
func TestLiveHeap(t *testing.T) {
	for _, column := range Columns {
		if column == codemode.EngineVM && NotCompiled(LiveHeapProgram) != "" {
			t.Logf("vm: not compiled yet: %s", NotCompiled(LiveHeapProgram))
			continue
		}
		for _, text := range []bool{false, true} {
			heap, stacks, err := LiveHeap(column, 20, text)
			if err != nil {
				t.Fatalf("%s: %v", column, err)
			}
			t.Logf("%s (JSON text %v): %d KB heap, %d KB with stacks per held run", column, text, heap>>10, stacks>>10)
		}
	}
}

// BenchmarkDispatch runs a program making 20 provider calls in sequence,
// in process and through codemode serve over loopback with the Go
// client: the difference, per call, is the dispatch round trip.
func BenchmarkDispatch(b *testing.B) {
	ctx := context.Background()
	d, err := NewDispatchers(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	for _, c := range []struct {
		name string
		ex   protocol.Executor
	}{{"in-process", d.InProcess}, {"remote", d.Remote}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := RunDispatch(ctx, c.ex); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*DispatchCalls), "ns/call")
		})
	}
}

// TestDispatchers: the dispatch comparison's two executors give the
// program's value.
func TestDispatchers(t *testing.T) {
	ctx := context.Background()
	d, err := NewDispatchers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, ex := range []protocol.Executor{d.InProcess, d.Remote} {
		if err := RunDispatch(ctx, ex); err != nil {
			t.Error(err)
		}
	}
}
