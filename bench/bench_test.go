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
