// Package hostile_test runs the hostile-program suite (testdata/hostile):
// programs written to crash, hang or exhaust the host, each with its
// limits and the clean outcome codemode must give it. Every case runs in
// its own child process (this test binary re-executed), so a Go fatal
// error (stack overflow, out of memory) fails that case and not the run;
// the parent checks the outcome, the wall time past the timeout and the
// child's memory.
//
//	go test ./internal/hostile                      # the whole suite
//	go test ./internal/hostile -run 'TestHostile/memory/'
//	go test ./internal/hostile -update-known-failures  # rewrite the list
package hostile_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// corpusDir holds one txtar-style file per class of hostile program.
const corpusDir = "../../testdata/hostile"

// knownFailuresFile lists the cases the current code fails.
var knownFailuresFile = filepath.Join(corpusDir, "known-failures.txt")

var updateKnown = flag.Bool("update-known-failures", false, "rewrite testdata/hostile/known-failures.txt with the cases that fail now")

// childEnv names the case a child process runs ("file.txtar#name").
const childEnv = "CODEMODE_HOSTILE_CASE"

// reportPrefix starts the child's report line on stdout.
const reportPrefix = "HOSTILE-REPORT "

// Defaults for a case's bounds.
const (
	// defaultPast is the wall time allowed past the timeout: the issue's
	// 100 ms plus one poll interval, made generous for a noisy 2-core box.
	defaultPast = 400 * time.Millisecond
	// runtimeAllowance is what the Go runtime, the test binary and the
	// garbage not yet collected may add to twice the memory budget.
	runtimeAllowance = 64 << 20
	// unbudgetedGoMemory bounds a case with no memory budget.
	unbudgetedGoMemory = 512 << 20
	// killAfter is how long past its timeout a child may run before the
	// parent kills it (the case then fails as a hang).
	killAfter = 3 * time.Second
	// minKill is the least time a child gets, startup included.
	minKill = 5 * time.Second
	// shortTimeoutMs is the longest timeout a case may have to run with
	// -short.
	shortTimeoutMs = 1000
	// maxChildren is how many children run at once (the box has 2 cores).
	maxChildren = 2
)

// raceClasses are the classes run under the race detector: their cases
// race tool goroutines, hooks and the deadline, and their outcomes do not
// depend on speed. The others measure time and memory, which the race
// detector distorts.
var raceClasses = map[string]bool{"lifecycle": true, "internal": true, "escapes": true}

// raceSlowdown widens the time bounds under the race detector.
const raceSlowdown = 5

// TestHostile runs every case of the corpus in a child process and
// prints a summary per class.
func TestHostile(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("running as a child")
	}
	cases, err := loadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	known, err := loadKnownFailures(knownFailuresFile)
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	sum := &summary{rows: map[string]*classRow{}}
	sem := make(chan struct{}, maxChildren)
	t.Run("case", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.ID(), func(t *testing.T) {
				t.Parallel()
				if testing.Short() && (c.Spec.Heavy || c.Spec.Limits.TimeoutMs > shortTimeoutMs) {
					t.Skip("heavy case skipped in -short mode")
				}
				if raceEnabled && !raceClasses[c.Class] {
					t.Skip("measures time and memory: run without -race (go test ./internal/hostile)")
				}
				sem <- struct{}{}
				defer func() { <-sem }()
				out := runChild(exe, c)
				problems := c.check(out)
				reason, listed := known[c.ID()]
				sum.add(c, out, problems, listed)
				switch {
				case len(problems) > 0 && listed:
					t.Skipf("known failure (%s); observed: %s", reason, strings.Join(problems, "; "))
				case len(problems) > 0:
					t.Errorf("%s:%d: %s\nobserved: %s", c.File, c.Line, strings.Join(problems, "\n"), out.describe())
				case listed && !*updateKnown && !isFlaky(reason):
					t.Errorf("%s passes now: remove it from %s (observed: %s)", c.ID(), knownFailuresFile, out.describe())
				default:
					t.Logf("observed: %s", out.describe())
				}
			})
		}
	})
	t.Logf("hostile suite: %d cases in %v\n%s", len(cases), time.Since(start).Round(time.Millisecond), sum.table())
	if *updateKnown {
		if err := writeKnownFailures(knownFailuresFile, sum.failures(), known); err != nil {
			t.Fatal(err)
		}
	}
}

// childOutcome is what the parent learned from one child.
type childOutcome struct {
	report   *report
	exitErr  error
	killed   bool
	wall     time.Duration
	maxRSS   int64 // bytes
	stderr   string
	stdout   string
	parseErr error
}

func (o *childOutcome) describe() string {
	var b strings.Builder
	if o.report != nil {
		r := o.report
		if r.OK {
			fmt.Fprintf(&b, "ok value=%s", clip(string(r.Value), 200))
		} else {
			fmt.Fprintf(&b, "%s %q", r.Kind, clip(r.Message, 200))
		}
		fmt.Fprintf(&b, " elapsed=%dms goMem=%dMiB rss=%dMiB resultBytes=%d toolCalls=%v",
			r.ElapsedMs, r.PeakGoMem>>20, o.maxRSS>>20, r.ResultBytes, r.ToolCalls)
		if r.Truncated {
			b.WriteString(" truncated")
		}
		return b.String()
	}
	switch {
	case o.killed:
		fmt.Fprintf(&b, "hang: killed after %v", o.wall.Round(time.Millisecond))
	case o.exitErr != nil:
		fmt.Fprintf(&b, "child crashed (%v) after %v", o.exitErr, o.wall.Round(time.Millisecond))
	default:
		fmt.Fprintf(&b, "no report (%v)", o.parseErr)
	}
	fmt.Fprintf(&b, " rss=%dMiB", o.maxRSS>>20)
	if first := firstLines(o.stderr+o.stdout, 3); first != "" {
		b.WriteString(": " + first)
	}
	return b.String()
}

// runChild re-executes the test binary to run one case.
func runChild(exe string, c *hcase) *childOutcome {
	limit := max(time.Duration(c.Spec.Limits.TimeoutMs)*time.Millisecond+killAfter, minKill)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "-test.run=^TestHostileChild$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"="+c.File+"#"+c.Name)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	start := time.Now()
	err := cmd.Run()
	out := &childOutcome{wall: time.Since(start), exitErr: err, killed: ctx.Err() != nil,
		stderr: stderr.String(), stdout: stdout.String()}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			out.maxRSS = ru.Maxrss << 10 // kilobytes on Linux
		}
	}
	if err == nil {
		out.report, out.parseErr = parseReport(stdout.Bytes())
	}
	return out
}

func parseReport(stdout []byte) (*report, error) {
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), reportPrefix); ok {
			var r report
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				return nil, fmt.Errorf("the report does not decode: %v", err)
			}
			return &r, nil
		}
	}
	return nil, fmt.Errorf("the child printed no %q line", strings.TrimSpace(reportPrefix))
}

// check returns what the outcome got wrong (nothing: the case passes).
func (c *hcase) check(o *childOutcome) []string {
	if o.report == nil {
		return []string{o.describe()}
	}
	r := o.report
	s := c.Spec
	var p []string
	got := "ok"
	if !r.OK {
		got = r.Kind
	}
	if !slices.Contains(s.Expect, got) {
		p = append(p, fmt.Sprintf("outcome %s, want one of %v", got, s.Expect))
	}
	if strings.Contains(r.Message, "Internal error") || strings.Contains(r.Message, "bug in codemode") {
		p = append(p, "an internal error reached the Result: "+clip(r.Message, 300))
	}
	// The message belongs to the first, preferred outcome.
	if !r.OK && s.Message != "" && got == s.Expect[0] && !strings.Contains(r.Message, s.Message) {
		p = append(p, fmt.Sprintf("message %q does not contain %q", clip(r.Message, 200), s.Message))
	}
	if r.OK && s.Value != nil && r.ValueOmitted {
		p = append(p, fmt.Sprintf("a value of more than %d bytes, want %s", maxReportedValue, s.Value))
	} else if r.OK && s.Value != nil && !sameJSON(r.Value, s.Value) {
		p = append(p, fmt.Sprintf("value %s, want %s", clip(string(r.Value), 200), s.Value))
	}
	if s.Truncated != nil && r.OK && r.Truncated != *s.Truncated {
		p = append(p, fmt.Sprintf("truncated=%v, want %v", r.Truncated, *s.Truncated))
	}
	if s.ToolCalls != nil && !slices.Equal(r.ToolCalls, *s.ToolCalls) {
		p = append(p, fmt.Sprintf("toolCalls %v, want %v", r.ToolCalls, *s.ToolCalls))
	}
	if t := s.Limits.TimeoutMs; t > 0 {
		past := defaultPast
		if s.PastMs > 0 {
			past = time.Duration(s.PastMs) * time.Millisecond
		}
		if raceEnabled {
			past *= raceSlowdown
		}
		if over := time.Duration(r.ElapsedMs)*time.Millisecond - time.Duration(t)*time.Millisecond; over > past {
			p = append(p, fmt.Sprintf("Execute took %dms, %v past the %dms timeout (bound %v)", r.ElapsedMs, over, t, past))
		}
	}
	if bound := c.goMemoryBound(); raceEnabled {
		// The race detector's shadow memory and slower collection say
		// nothing about the engine's bounds.
	} else if r.PeakGoMem > bound {
		p = append(p, fmt.Sprintf("Go memory peaked at %d MiB, bound %d MiB", r.PeakGoMem>>20, bound>>20))
	} else if o.maxRSS > bound+runtimeAllowance {
		p = append(p, fmt.Sprintf("the child's RSS peaked at %d MiB, bound %d MiB", o.maxRSS>>20, (bound+runtimeAllowance)>>20))
	}
	if m := s.Limits.MaxOutputBytes; m != nil && r.ResultBytes > 3**m+4096 {
		p = append(p, fmt.Sprintf("the Result is %d bytes under a %d-byte output limit", r.ResultBytes, *m))
	}
	p = append(p, r.Lifecycle...)
	return p
}

// goMemoryBound is the most Go memory (heap objects and stacks) the
// child may reach.
func (c *hcase) goMemoryBound() int64 {
	if c.Spec.MaxGoMiB > 0 {
		return int64(c.Spec.MaxGoMiB) << 20
	}
	if b := c.Spec.Limits.MaxMemoryBytes; b > 0 {
		return 2*b + runtimeAllowance
	}
	return unbudgetedGoMemory
}

// summary collects per-class results for the final table.
type summary struct {
	mu   sync.Mutex
	rows map[string]*classRow
	fail []failure
}

type classRow struct {
	cases, pass, known, fail int
	maxPast                  time.Duration
	maxMem                   int64
}

type failure struct{ id, observed string }

func (s *summary) add(c *hcase, o *childOutcome, problems []string, listed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	row := s.rows[c.Class]
	if row == nil {
		row = &classRow{}
		s.rows[c.Class] = row
	}
	row.cases++
	switch {
	case len(problems) == 0:
		row.pass++
	case listed:
		row.known++
	default:
		row.fail++
	}
	if len(problems) > 0 {
		s.fail = append(s.fail, failure{c.ID(), o.describe()})
	}
	if r := o.report; r != nil {
		if t := c.Spec.Limits.TimeoutMs; t > 0 {
			row.maxPast = max(row.maxPast, time.Duration(r.ElapsedMs-int64(t))*time.Millisecond)
		}
		row.maxMem = max(row.maxMem, r.PeakGoMem)
	}
}

func (s *summary) table() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "%-12s %6s %6s %6s %6s %14s %12s\n", "class", "cases", "pass", "known", "fail", "max past (ms)", "max Go MiB")
	var classes []string
	for k := range s.rows {
		classes = append(classes, k)
	}
	sort.Strings(classes)
	for _, k := range classes {
		r := s.rows[k]
		fmt.Fprintf(&b, "%-12s %6d %6d %6d %6d %14d %12d\n", k, r.cases, r.pass, r.known, r.fail, r.maxPast.Milliseconds(), r.maxMem>>20)
	}
	return b.String()
}

func (s *summary) failures() []failure {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := slices.Clone(s.fail)
	sort.Slice(f, func(i, j int) bool { return f[i].id < f[j].id })
	return f
}

// isFlaky says that a known failure's note marks it as one that may
// pass on the current code too (a race between an uninterruptible
// built-in and the deadline): passing is then no reason to fail.
func isFlaky(note string) bool { return strings.HasPrefix(note, "flaky:") }

// loadKnownFailures reads "class/name # observation" lines.
func loadKnownFailures(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	known := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, note, _ := strings.Cut(line, "#")
		known[strings.TrimSpace(id)] = strings.TrimSpace(note)
	}
	return known, nil
}

// writeKnownFailures lists the failing cases with what was observed,
// keeping the flaky marks of the old list (a flaky case stays listed
// even when it passed this time).
func writeKnownFailures(path string, fails []failure, old map[string]string) error {
	seen := map[string]bool{}
	for i, f := range fails {
		seen[f.id] = true
		if isFlaky(old[f.id]) {
			fails[i].observed = old[f.id]
		}
	}
	for id, note := range old {
		if isFlaky(note) && !seen[id] {
			fails = append(fails, failure{id, note})
		}
	}
	sort.Slice(fails, func(i, j int) bool { return fails[i].id < fails[j].id })
	var b strings.Builder
	b.WriteString("# Hostile cases the current code fails, with what was observed. TestHostile treats a\n")
	b.WriteString("# listed failure as expected and fails when a listed case passes: prune this list as\n")
	b.WriteString("# fixes land. Regenerate: go test ./internal/hostile -update-known-failures\n")
	b.WriteString("# A note starting with \"flaky:\" marks a case that may also pass on the current code.\n")
	for _, f := range fails {
		b.WriteString(f.id + " # " + strings.ReplaceAll(clip(f.observed, 300), "\n", " ") + "\n")
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("... (%d bytes)", len(s))
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	var keep []string
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "=== RUN") {
			keep = append(keep, l)
		}
		if len(keep) == n {
			break
		}
	}
	return clip(strings.Join(keep, " | "), 400)
}
