package conformance

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"sync"
	"time"
)

// Outcome is one test's judged result.
type Outcome struct {
	Test    Test
	Pass    bool
	Detail  string // why it failed, see Judge
	Elapsed time.Duration
}

// Exec runs one program and returns its Result as JSON. It must bound
// the run itself (a time and a memory limit), so that a test that hangs
// or allocates without end fails instead of stopping the runner.
type Exec func(program string) []byte

// Run runs the tests on workers goroutines and returns their outcomes in
// the order of tests.
func Run(s *Suite, tests []Test, workers int, exec Exec) []Outcome {
	outs := make([]Outcome, len(tests))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				outs[i] = runOne(s, tests[i], exec)
			}
		}()
	}
	for i := range tests {
		next <- i
	}
	close(next)
	wg.Wait()
	return outs
}

func runOne(s *Suite, t Test, exec Exec) Outcome {
	program, err := s.Program(t)
	if err != nil {
		return Outcome{Test: t, Detail: "assembling the program: " + err.Error()}
	}
	start := time.Now()
	res := exec(program)
	o := Outcome{Test: t, Elapsed: time.Since(start)}
	o.Pass, o.Detail = Judge(t, res)
	return o
}

// Passed counts the outcomes that passed.
func Passed(outs []Outcome) int {
	n := 0
	for _, o := range outs {
		if o.Pass {
			n++
		}
	}
	return n
}

// WriteTable prints run.py's summary: one line per area (passed, failed,
// the share passed), then "N passed, N failed".
func WriteTable(w io.Writer, outs []Outcome) {
	perArea := map[string][2]int{}
	for _, o := range outs {
		c := perArea[o.Test.Area]
		if o.Pass {
			c[0]++
		} else {
			c[1]++
		}
		perArea[o.Test.Area] = c
	}
	areas := make([]string, 0, len(perArea))
	for a := range perArea {
		areas = append(areas, a)
	}
	sort.Strings(areas)
	for _, a := range areas {
		p, f := perArea[a][0], perArea[a][1]
		fmt.Fprintf(w, "%-50s %6d %6d %6.1f%%\n", a, p, f, 100*float64(p)/float64(p+f))
	}
	passed := Passed(outs)
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, len(outs)-passed)
}

// WriteResults writes the outcomes as run.py's --out does, so that
// `run.py --compare` compares an in-process run with a process-per-test
// one.
func WriteResults(w io.Writer, outs []Outcome, total time.Duration) error {
	type entry struct {
		Status  string  `json:"status"`
		Detail  string  `json:"detail"`
		Seconds float64 `json:"seconds"`
	}
	results := make(map[string]entry, len(outs))
	for _, o := range outs {
		status := "fail"
		if o.Pass {
			status = "pass"
		}
		results[o.Test.Path] = entry{status, o.Detail, math.Round(o.Elapsed.Seconds()*1000) / 1000}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Duration float64          `json:"duration_s"`
		Results  map[string]entry `json:"results"`
	}{math.Round(total.Seconds()*10) / 10, results})
}

// Watchdog gives up on a program that has not returned after limit (set
// well past the run's own timeout): the test fails as hung and the runner
// goes on, while the engine's goroutine is left behind. A Runtime that
// keeps its limits never trips it.
func Watchdog(exec Exec, limit time.Duration) Exec {
	return func(program string) []byte {
		done := make(chan []byte, 1)
		go func() { done <- exec(program) }()
		select {
		case out := <-done:
			return out
		case <-time.After(limit):
			msg, _ := json.Marshal(fmt.Sprintf("the run did not return within %v: the engine ignored its timeout", limit))
			return []byte(`{"ok":false,"error":{"kind":"Hung","message":` + string(msg) + `}}`)
		}
	}
}
