package bench

import (
	"testing"

	"github.com/go-codemode/codemode"
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

// TestWorkloadsRun checks every workload's result on codemode (goja runs
// only in the benchmarks: it takes half a minute on the string workloads).
func TestWorkloadsRun(t *testing.T) {
	ws, text := load(t)
	rt, err := codemode.New(codemode.Options{Tools: Tools()})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if !w.Runnable() {
			continue
		}
		t.Run(w.Name, func(t *testing.T) {
			got, err := Codemode(rt, w, text)
			if err != nil {
				t.Fatal(err)
			}
			if !Same(got, w.Expected) {
				t.Errorf("codemode: got %s, want %s", got, w.Expected)
			}
		})
	}
}

// BenchmarkWorkloads runs each workload on codemode and goja.
func BenchmarkWorkloads(b *testing.B) {
	ws, text := load(b)
	rt, err := codemode.New(codemode.Options{Tools: Tools()})
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range ws {
		if !w.Runnable() {
			continue
		}
		b.Run(w.Name+"/codemode", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Codemode(rt, w, text); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(w.Name+"/goja", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Goja(w, text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// toolCallPrograms are BenchmarkToolCall's programs: 1,000 awaited calls
// of a trivial host function, in sequence and all at once.
var toolCallPrograms = []Workload{
	{Name: "sequence", NeedsHost: "lookupAsync", Expected: "2997",
		Source: `(async () => { let t = 0; for (let i = 0; i < 1000; i++) { const r = await lookupAsync({id: i, tag: "item"}); t += r.score; } return t })()`},
	{Name: "parallel", NeedsHost: "lookupAsync", Expected: "2997",
		Source: `(async () => { const ps = []; for (let i = 0; i < 1000; i++) ps.push(lookupAsync({id: i, tag: "item"})); let t = 0; for (const r of await Promise.all(ps)) t += r.score; return t })()`},
}

// BenchmarkToolCall compares an awaited host call on codemode (a tool on
// a worker goroutine, its argument and result copied as JSON) with goja
// (a host function resolving a promise synchronously): 1,000 calls per
// run, in sequence and under Promise.all.
func BenchmarkToolCall(b *testing.B) {
	rt, err := codemode.New(codemode.Options{Tools: Tools()})
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range toolCallPrograms {
		b.Run(w.Name+"/codemode", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if got, err := Codemode(rt, w, ""); err != nil || !Same(got, w.Expected) {
					b.Fatal(got, err)
				}
			}
		})
		b.Run(w.Name+"/goja", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if got, err := Goja(w, ""); err != nil || got != w.Expected {
					b.Fatal(got, err)
				}
			}
		})
	}
}
