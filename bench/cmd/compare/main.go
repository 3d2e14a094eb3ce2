// Command compare runs every workload on codemode and on goja in one
// process and prints a Markdown table of time per run, allocation, and
// the ratio codemode/goja.
//
//	cd bench && go run ./cmd/compare
package main

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/bench"
)

func main() {
	dir, err := bench.WorkloadsDir()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ws, err := bench.Load(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	text, err := bench.JSONText(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	rt, err := codemode.New(codemode.Options{Tools: bench.Tools()})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Println("| workload | codemode | goja | codemode/goja | codemode alloc/run | goja alloc/run |")
	fmt.Println("|---|---:|---:|---:|---:|---:|")
	for _, w := range ws {
		if !w.Runnable() {
			fmt.Printf("| %s | n/a: its host function %s is synchronous; codemode tools are asynchronous (see tool_calls_async) | | | | |\n", w.Name, w.NeedsHost)
			continue
		}
		if got, err := bench.Codemode(rt, w, text); err != nil || !bench.Same(got, w.Expected) {
			fmt.Printf("| %s | wrong result: %v %s | | | | |\n", w.Name, err, got)
			continue
		}
		cm := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = bench.Codemode(rt, w, text)
			}
		})
		gj := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = bench.Goja(w, text)
			}
		})
		ratio := float64(cm.NsPerOp()) / float64(gj.NsPerOp())
		fmt.Printf("| %s | %v | %v | %.2fx | %s | %s |\n", w.Name, dur(cm.NsPerOp()), dur(gj.NsPerOp()), ratio,
			bytes(cm.AllocedBytesPerOp()), bytes(gj.AllocedBytesPerOp()))
	}
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
