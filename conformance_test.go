package codemode_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/internal/conformance"
	"github.com/go-codemode/codemode/tools/demo"
)

var (
	updateExpectations = flag.Bool("update-expectations", false,
		"rewrite testdata/conformance/<engine>.txt with the test262 tests that fail now (reasons are kept)")
	t262Filter = flag.String("t262", "", "run only the test262 tests whose path contains this (the expectations of the others are not checked)")
	t262JSON   = flag.String("t262-json", "", "write the per-test results as run.py --out does, to this file with the engine before .json (run.py --compare reads it)")
)

// t262Dir is where the test262 selection is, beside the module.
var t262Dir = filepath.Join("..", "shared", "conformance")

// sampleEvery: under the race detector, which makes the engine many
// times slower, and with -short, TestTest262 runs one test in
// sampleEvery; .ci/run runs the whole selection without them.
const sampleEvery = 40

// TestTest262 runs the test262 selection of ../shared/conformance
// in-process on every engine, judged as its run.py judges it. Every test
// that fails must be listed in testdata/conformance/<engine>.txt with its
// reason, and every listed test must still fail, so the file says exactly
// what each engine misses.
func TestTest262(t *testing.T) {
	suite, err := conformance.Load(t262Dir)
	if err != nil {
		abs, _ := filepath.Abs(t262Dir)
		t.Fatalf("the test262 selection is not at %s (../shared/conformance beside the module, as in CI): %v", abs, err)
	}
	tests, full := suite.Tests, true
	switch {
	case *t262Filter != "":
		tests, full = nil, false
		for _, tc := range suite.Tests {
			if strings.Contains(tc.Path, *t262Filter) {
				tests = append(tests, tc)
			}
		}
	case raceEnabled || testing.Short():
		tests, full = nil, false
		for i := 0; i < len(suite.Tests); i += sampleEvery {
			tests = append(tests, suite.Tests[i])
		}
		t.Logf("-race or -short: running 1 test262 test in %d (%d); go test -run TestTest262 . runs them all", sampleEvery, len(tests))
	}
	if *updateExpectations && !full {
		t.Fatal("-update-expectations needs the whole selection: drop -t262, -short and -race")
	}
	for _, engine := range engines {
		t.Run(engine, func(t *testing.T) {
			exec := t262Exec(t, engine)
			start := time.Now()
			outs := conformance.Run(suite, tests, runtime.GOMAXPROCS(0), exec)
			var table bytes.Buffer
			conformance.WriteTable(&table, outs)
			t.Logf("engine %s, %d tests in %.1fs:\n%s", engine, len(outs), time.Since(start).Seconds(), table.String())
			logSlowest(t, outs, 5)
			if *t262JSON != "" {
				writeT262JSON(t, engine, outs, time.Since(start))
			}
			checkExpectations(t, engine, suite, outs, full)
		})
	}
}

// t262Exec runs programs as `codemode run` does: the demo tools, 256 MiB
// of memory and 30 seconds (run.py stops a test after 10; the slowest
// takes under a second alone but a few on a loaded machine, and no test
// ends between 10 and 30 seconds), four times that under the race
// detector.
func t262Exec(t *testing.T, engine string) conformance.Exec {
	opts := codemode.Options{Tools: demo.Tools(), Limits: codemode.Limits{
		Timeout:        30 * time.Second,
		MaxMemoryBytes: 256 << 20,
	}}
	if raceEnabled {
		opts.Limits.Timeout *= 4
	}
	opts.Engine = engine
	rt, err := codemode.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return conformance.Watchdog(func(program string) []byte {
		res := rt.Execute(context.Background(), program)
		out, err := res.MarshalJSON()
		if err != nil {
			msg, _ := json.Marshal(err.Error())
			return []byte(`{"ok":false,"error":{"kind":"MarshalJSON","message":` + string(msg) + `}}`)
		}
		return out
	}, opts.Limits.Timeout+30*time.Second)
}

func expectationsFile(engine string) string {
	return filepath.Join("testdata", "conformance", engine+".txt")
}

// checkExpectations fails the test on a failure the file does not list
// and on a listed test that passes, or rewrites the file with
// -update-expectations.
func checkExpectations(t *testing.T, engine string, suite *conformance.Suite, outs []conformance.Outcome, full bool) {
	name := expectationsFile(engine)
	exp := &conformance.Expectations{}
	if f, err := os.Open(name); err == nil {
		exp, err = conformance.ParseExpectations(f, name)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	} else if !os.IsNotExist(err) || !*updateExpectations {
		t.Fatalf("the expectations file: %v (make it with go test -run TestTest262 -update-expectations .)", err)
	}
	if *updateExpectations {
		if len(exp.Header) == 0 {
			exp.Header = expectationsHeader(engine)
		}
		var b bytes.Buffer
		exp.Update(outs, classifyT262(t, engine, suite)).WriteTo(&b)
		if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", name)
		return
	}
	unexpected, nowPassing := exp.Check(outs)
	for _, o := range unexpected {
		t.Errorf("FAIL %s: %s", o.Test.Path, firstLine(o.Detail))
	}
	for _, p := range nowPassing {
		t.Errorf("passes now: %s; remove it from %s, or run go test -run TestTest262 -update-expectations .", p, name)
	}
	if full {
		for _, p := range exp.NotIn(suite.Tests) {
			t.Errorf("%s lists %s, which is not in the selection: remove it (or run with -update-expectations)", name, p)
		}
	}
	if len(nowPassing) > 0 {
		t.Errorf("%d tests listed in %s pass now: go test -count=1 -run TestTest262 -update-expectations . removes them", len(nowPassing), name)
	}
	if len(unexpected) > 0 {
		t.Errorf("%d test262 tests fail that %s does not list: fix them, or list each with its reason (go test -run TestTest262 -update-expectations . adds them)", len(unexpected), name)
	}
}

// classifyT262 gives a new failure the reason another engine's file
// gives the same test, else conformance.Classify's.
func classifyT262(t *testing.T, engine string, suite *conformance.Suite) func(conformance.Outcome) string {
	others := map[string]string{}
	for _, e := range engines {
		f, err := os.Open(expectationsFile(e))
		if e == engine || err != nil {
			continue
		}
		exp, err := conformance.ParseExpectations(f, expectationsFile(e))
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for path, reason := range exp.Reasons() {
			others[path] = reason
		}
	}
	classify := conformance.Classify(suite)
	return func(o conformance.Outcome) string {
		if r, ok := others[o.Test.Path]; ok {
			return r
		}
		return classify(o)
	}
}

func expectationsHeader(engine string) []string {
	return []string{
		"# The test262 tests (../shared/conformance) that engine " + engine + " fails, each under its reason.",
		"# TestTest262 fails on a failure not listed here and on a listed test that passes.",
		"# A group is \"## reason\" lines, then one test path a line; after a path, \"# ...\" is the",
		"# first line of its error when the file was regenerated. Regenerate (reasons are kept; new",
		"# failures get a reason from their error and source, or \"not yet triaged: <area>\"):",
		"#   go test -count=1 -run TestTest262 -update-expectations .",
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// logSlowest names the slowest tests, which bound the run's time.
func logSlowest(t *testing.T, outs []conformance.Outcome, n int) {
	slow := slices.Clone(outs)
	slices.SortFunc(slow, func(a, b conformance.Outcome) int { return cmp.Compare(b.Elapsed, a.Elapsed) })
	var b strings.Builder
	for _, o := range slow[:min(n, len(slow))] {
		fmt.Fprintf(&b, "\n  %6.2fs %s", o.Elapsed.Seconds(), o.Test.Path)
	}
	t.Logf("slowest:%s", b.String())
}

func writeT262JSON(t *testing.T, engine string, outs []conformance.Outcome, total time.Duration) {
	name := strings.TrimSuffix(*t262JSON, ".json") + "." + engine + ".json"
	var b bytes.Buffer
	if err := conformance.WriteResults(&b, outs, total); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", name)
}
