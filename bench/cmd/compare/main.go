// Command compare runs every workload on codemode's engines "ast" and
// "vm" and on goja in one process and prints Markdown tables, ready for
// the README: time and allocation per run, the ratios vm/ast, vm/goja and
// ast/goja; Execute("1 + 1") on an existing Runtime; and the speed of
// compiling a 100 KB program.
//
//	cd bench && go run ./cmd/compare [-run regexp]
//
// A cell an engine cannot run says why ("n/a (not compiled: await)"),
// and so do the ratios that would need it: a missing cell is never a
// number. A run that fails or gives the wrong result prints "failed:"
// with the error, and the command exits 1 after the tables.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/bench"
)

func main() {
	only := flag.String("run", "", "measure only the rows whose name matches this regular expression")
	flag.Parse()
	sel, err := regexp.Compile(*only)
	if err != nil {
		fatal(fmt.Errorf("-run: %v", err))
	}
	dir, err := bench.WorkloadsDir()
	if err != nil {
		fatal(err)
	}
	ws, err := bench.Load(dir)
	if err != nil {
		fatal(err)
	}
	text, err := bench.JSONText(dir)
	if err != nil {
		fatal(err)
	}
	r, err := bench.NewRunner(text)
	if err != nil {
		fatal(err)
	}
	args := ""
	if *only != "" {
		args = " -run '" + *only + "'"
	}
	fmt.Printf("%s, %s/%s, GOMAXPROCS %d; one run of `cd bench && go run ./cmd/compare%s`.\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), args)
	failed := workloads(r, sel, append(append(ws, bench.AwaitSettled), bench.ToolCallPrograms...))
	failed = executeTrivial(sel) || failed
	failed = compile(sel) || failed
	failed = liveHeap(sel) || failed
	failed = suspendResume(sel) || failed
	failed = dispatchTable(sel) || failed
	if failed {
		os.Exit(1)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "compare:", err)
	os.Exit(2)
}

// cell is one workload measured on one column: a result, or why there
// is none.
type cell struct {
	res     testing.BenchmarkResult
	missing string // why the column cannot run the workload
	err     error  // the run failed or gave the wrong result
}

func (c cell) ok() bool { return c.missing == "" && c.err == nil }

// na is the text of a cell without a measurement.
func (c cell) na() string {
	if c.missing != "" {
		return "n/a (" + c.missing + ")"
	}
	return "failed: " + oneLine(c.err.Error())
}

// measure benchmarks f, which runs the workload once; the first error
// stops the benchmark and is the cell's.
func measure(bytes int64, f func() error) cell {
	var runErr error
	res := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(bytes)
		for b.Loop() {
			if err := f(); err != nil {
				runErr = err
				b.FailNow()
			}
		}
	})
	if runErr == nil && res.N == 0 {
		runErr = fmt.Errorf("the benchmark did not run")
	}
	return cell{res: res, err: runErr}
}

// workloads prints the main table and reports whether a run failed.
func workloads(r *bench.Runner, sel *regexp.Regexp, ws []bench.Workload) (failed bool) {
	fmt.Println("| workload | ast | vm | goja | vm/ast | vm/goja | ast/goja | ast alloc/run | vm alloc/run | goja alloc/run |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, w := range ws {
		if !sel.MatchString(w.Name) {
			continue
		}
		cells := map[string]cell{}
		for _, col := range bench.Columns {
			if why := w.Missing(col); why != "" {
				cells[col] = cell{missing: why}
				continue
			}
			cells[col] = measure(0, func() error { return r.Run(col, w) })
			failed = failed || cells[col].err != nil
		}
		ast, vm, gj := cells[codemode.EngineAST], cells[codemode.EngineVM], cells[bench.Goja]
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", w.Name,
			timeCell(ast, w), timeCell(vm, w), timeCell(gj, w),
			ratio(vm, ast), ratio(vm, gj), ratio(ast, gj),
			allocCell(ast), allocCell(vm), allocCell(gj))
	}
	fmt.Println()
	return failed
}

// executeTrivial prints the execute_trivial table.
func executeTrivial(sel *regexp.Regexp) (failed bool) {
	if !sel.MatchString("execute_trivial") {
		return false
	}
	rows := []struct {
		name string
		c    cell
	}{}
	for _, e := range []string{codemode.EngineAST, codemode.EngineVM} {
		rt, err := bench.NewRuntime(e)
		if err != nil {
			fatal(err)
		}
		rows = append(rows, struct {
			name string
			c    cell
		}{"codemode " + e + ": `Execute(\"1 + 1\")` on an existing Runtime", measure(0, func() error {
			if res := rt.Execute(context.Background(), bench.TrivialProgram); !res.OK || string(res.Value) != "2" {
				return fmt.Errorf("%s", res)
			}
			return nil
		})})
	}
	gj := goja.New()
	rows = append(rows, struct {
		name string
		c    cell
	}{"goja: `RunString(\"1 + 1\")` on an existing runtime", measure(0, func() error {
		v, err := gj.RunString(bench.TrivialProgram)
		if err == nil && v.ToInteger() != 2 {
			err = fmt.Errorf("got %v, want 2", v)
		}
		return err
	})})
	fmt.Println("| execute_trivial | ns/op | B/op | allocs/op | vs ast |")
	fmt.Println("|---|---:|---:|---:|---:|")
	for _, row := range rows {
		c := row.c
		if !c.ok() {
			failed = true
			fmt.Printf("| %s | %s | | | |\n", row.name, c.na())
			continue
		}
		fmt.Printf("| %s | %d | %d | %d | %s |\n", row.name, c.res.NsPerOp(), c.res.AllocedBytesPerOp(), c.res.AllocsPerOp(), ratio(c, rows[0].c))
	}
	fmt.Println()
	return failed
}

// compile prints the compile_100kb table.
func compile(sel *regexp.Regexp) (failed bool) {
	if !sel.MatchString("compile_100kb") {
		return false
	}
	src := bench.CompileProgram(100 << 10)
	size := int64(len(src))
	execute := func(engine string) func() error {
		rt, err := bench.NewRuntime(engine)
		if err != nil {
			fatal(err)
		}
		return func() error {
			if res := rt.Execute(context.Background(), src); !res.OK {
				return fmt.Errorf("%s", res)
			}
			return nil
		}
	}
	rows := []struct {
		name string
		f    func() error
	}{
		{"parse only: `ast.Parse` (shared by both engines)", func() error { return bench.ParseOnly(src) }},
		{"codemode ast: `ast.Parse` + `interp.Compile`", func() error { return bench.CompileAST(src) }},
		{"codemode vm: `ast.Parse` + `vm.Compile`", func() error { return bench.CompileVM(src) }},
		{"goja: `goja.Compile` (parse + compile)", func() error { return bench.CompileGoja(src) }},
		{"codemode ast: `Execute` (the run only defines functions)", execute(codemode.EngineAST)},
		{"codemode vm: `Execute` (the run only defines functions)", execute(codemode.EngineVM)},
	}
	fmt.Printf("| compile_100kb (%d bytes) | MB/s | time/op | alloc/op | allocs/op |\n", size)
	fmt.Println("|---|---:|---:|---:|---:|")
	for _, row := range rows {
		c := measure(size, row.f)
		if !c.ok() {
			failed = true
			fmt.Printf("| %s | %s | | | |\n", row.name, c.na())
			continue
		}
		mbs := float64(size) * float64(c.res.N) / 1e6 / c.res.T.Seconds()
		fmt.Printf("| %s | %.1f | %v | %s | %d |\n", row.name, mbs, dur(c.res.NsPerOp()), bytes(c.res.AllocedBytesPerOp()), c.res.AllocsPerOp())
	}
	fmt.Println()
	return failed
}

// timeCell is the time per run, and per operation when the workload
// counts them.
func timeCell(c cell, w bench.Workload) string {
	if !c.ok() {
		return c.na()
	}
	s := dur(c.res.NsPerOp()).String()
	if w.PerRun > 0 {
		per := time.Duration(c.res.NsPerOp() / int64(w.PerRun))
		if per >= time.Microsecond {
			s += fmt.Sprintf(" (%.2fµs/%s)", float64(c.res.NsPerOp())/float64(w.PerRun)/1e3, w.Unit)
		} else {
			s += fmt.Sprintf(" (%dns/%s)", per.Nanoseconds(), w.Unit)
		}
	}
	return s
}

// ratio is a's time over b's, or n/a when either has none.
func ratio(a, b cell) string {
	if !a.ok() || !b.ok() {
		return "n/a"
	}
	x := float64(a.res.NsPerOp()) / float64(b.res.NsPerOp())
	if x < 0.1 {
		return fmt.Sprintf("%.2gx", x)
	}
	return fmt.Sprintf("%.2fx", x)
}

func allocCell(c cell) string {
	if !c.ok() {
		return "n/a"
	}
	return bytes(c.res.AllocedBytesPerOp())
}

// oneLine keeps a message on one table row: no newlines, no column
// separators, and not too long to read.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.ReplaceAll(s, "|", `\|`)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func dur(ns int64) time.Duration {
	d := time.Duration(ns)
	switch {
	case d > time.Second:
		return d.Round(time.Millisecond)
	case d > time.Millisecond:
		return d.Round(10 * time.Microsecond)
	case d > time.Microsecond:
		return d.Round(10 * time.Nanosecond)
	}
	return d
}

func bytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// liveHeap prints what one run of bench.LiveHeapProgram holds while it
// is suspended, on each column, with the records as Go maps and as JSON
// text.
func liveHeap(sel *regexp.Regexp) (failed bool) {
	if !sel.MatchString("live_heap") {
		return false
	}
	const runs = 100
	fmt.Printf("| live_heap (10 calls, 200 records, %d runs held at once) | ast | vm | goja |\n", runs)
	fmt.Println("|---|---:|---:|---:|")
	for _, text := range []bool{false, true} {
		name := "records as Go maps (goja wraps them, codemode copies them)"
		if text {
			name = "records as JSON text (codemode parses a json.RawMessage, goja runs JSON.parse)"
		}
		row := "| " + name
		for _, column := range bench.Columns {
			if column == codemode.EngineVM {
				if what := bench.NotCompiled(bench.LiveHeapProgram); what != "" {
					row += " | n/a (not compiled: " + what + ")"
					continue
				}
			}
			heap, stacks, err := bench.LiveHeap(column, runs, text)
			if err != nil {
				failed = true
				row += " | failed: " + oneLine(err.Error())
				continue
			}
			row += fmt.Sprintf(" | %d KB (%d KB with stacks)", heap>>10, stacks>>10)
		}
		fmt.Println(row + " |")
	}
	fmt.Println()
	return failed
}

// suspendResume prints the suspend table: the typical suspended run
// (bench.RestockProgram) beside the same run without a suspension.
func suspendResume(sel *regexp.Regexp) (failed bool) {
	if !sel.MatchString("suspend") {
		return false
	}
	ctx := context.Background()
	src, err := bench.RestockProgram()
	if err != nil {
		fatal(err)
	}
	plain, err := bench.InventoryRuntime(false)
	if err != nil {
		fatal(err)
	}
	held, err := bench.InventoryRuntime(true)
	if err != nil {
		fatal(err)
	}
	var state []byte
	whole := measure(0, func() error {
		if res := plain.Execute(ctx, src); !res.OK {
			return fmt.Errorf("%s", res)
		}
		return nil
	})
	suspend := measure(0, func() error {
		out, err := held.Program(src).Run(ctx)
		if err != nil || !out.IsSuspended() {
			return fmt.Errorf("not suspended: %v %s", err, out.Result)
		}
		state = out.Suspended.State
		return nil
	})
	resume := measure(0, func() error {
		out, err := held.Resume(state, codemode.Approve("call-4")).Run(ctx)
		if err != nil || !out.Result.OK {
			return fmt.Errorf("resume: %v %s", err, out.Result)
		}
		return nil
	})
	fmt.Printf("| suspend (restock.js: 3 calls, 50 records, a 4th waiting; state %d bytes) | time | B/op | allocs/op | vs the whole run |\n", len(state))
	fmt.Println("|---|---:|---:|---:|---:|")
	for _, row := range []struct {
		name string
		c    cell
	}{{"the whole run, no suspension (Execute)", whole}, {"run to the approval, suspend and encode", suspend},
		{"decode, resume and run to the end", resume}} {
		if !row.c.ok() {
			failed = true
			fmt.Printf("| %s | %s | | | |\n", row.name, row.c.na())
			continue
		}
		fmt.Printf("| %s | %s | %s | %d | %s |\n", row.name, dur(row.c.res.NsPerOp()), bytes(row.c.res.AllocedBytesPerOp()),
			row.c.res.AllocsPerOp(), ratio(row.c, whole))
	}
	fmt.Println()
	return failed
}

// dispatchTable prints the dispatch table: a program making 20 provider
// calls in process, and through codemode serve over loopback with the Go
// client.
func dispatchTable(sel *regexp.Regexp) (failed bool) {
	if !sel.MatchString("dispatch") {
		return false
	}
	ctx := context.Background()
	d, err := bench.NewDispatchers(ctx)
	if err != nil {
		fatal(err)
	}
	defer d.Close()
	local := measure(0, func() error { return bench.RunDispatch(ctx, d.InProcess) })
	remote := measure(0, func() error { return bench.RunDispatch(ctx, d.Remote) })
	fmt.Printf("| dispatch (%d provider calls in sequence) | per run | per call | B/op | allocs/op | vs in-process |\n", bench.DispatchCalls)
	fmt.Println("|---|---:|---:|---:|---:|---:|")
	for _, row := range []struct {
		name string
		c    cell
	}{{"in-process Executor (the dispatch a Go function)", local}, {"codemode serve over loopback, Go client (remote)", remote}} {
		if !row.c.ok() {
			failed = true
			fmt.Printf("| %s | %s | | | | |\n", row.name, row.c.na())
			continue
		}
		fmt.Printf("| %s | %s | %s | %s | %d | %s |\n", row.name, dur(row.c.res.NsPerOp()), dur(row.c.res.NsPerOp()/bench.DispatchCalls),
			bytes(row.c.res.AllocedBytesPerOp()), row.c.res.AllocsPerOp(), ratio(row.c, local))
	}
	fmt.Println()
	return failed
}
