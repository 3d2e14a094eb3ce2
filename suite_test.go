package codemode_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/internal/scripttest"
	"github.com/go-codemode/codemode/tools"
)

var (
	updateSkips = flag.Bool("update-skips", false, "rewrite testdata/scripts/<engine>.skip with the cases that fail now")
	scriptsOnly = flag.String("scripts", "", "run only the script cases whose id starts with this prefix (e.g. array/), ignoring the skip list")
)

// engines are the engines the script suite and the test262 selection
// run on.
var engines = []string{codemode.EngineAST, codemode.EngineVM}

// TestScripts runs the script suite (testdata/scripts) on every engine:
// each program must produce exactly its expected Result. Cases listed in
// testdata/scripts/<engine>.skip are known gaps, each with its reason; a
// listed case that starts passing fails the test, so the list only
// shrinks.
func TestScripts(t *testing.T) {
	cases, err := scripttest.Load(filepath.Join("testdata", "scripts"))
	if err != nil {
		t.Fatal(err)
	}
	for _, engine := range engines {
		t.Run(engine, func(t *testing.T) {
			skips := loadSkips(t, engine)
			rt, err := codemode.New(codemode.Options{Engine: engine, Limits: codemode.Limits{Timeout: 10 * time.Second}})
			if err != nil {
				t.Fatal(err)
			}
			var failing []string
			passed := 0
			for _, c := range cases {
				if *scriptsOnly != "" && !strings.HasPrefix(c.ID(), *scriptsOnly) {
					continue
				}
				if *scriptsOnly != "" {
					skips = nil
				}
				caseRT := rt
				if c.Tools != nil || c.Limits != nil {
					caseRT = caseRuntime(t, engine, c)
				}
				got := caseRT.Execute(context.Background(), c.Program)
				gotJSON, _ := got.MarshalJSON()
				ok := sameJSON(gotJSON, c.Expected)
				if ok {
					passed++
				} else {
					failing = append(failing, c.ID())
				}
				_, skipped := skips[c.ID()]
				switch {
				case *updateSkips:
				case !ok && !skipped:
					t.Errorf("%s (%s:%d)\nprogram:\n%s\ngot:  %s\nwant: %s", c.ID(), c.File, c.Line, c.Program, gotJSON, c.Expected)
				case ok && skipped:
					t.Errorf("%s passes now: remove it from testdata/scripts/%s.skip", c.ID(), engine)
				}
			}
			t.Logf("engine %s: %d of %d cases pass", engine, passed, len(cases))
			if *updateSkips && *scriptsOnly == "" {
				writeSkips(t, engine, failing, skips)
			}
		})
	}
}

// sameJSON compares two JSON texts byte for byte after compaction: key
// order matters, as it does in a Result.
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}

func skipFile(engine string) string {
	return filepath.Join("testdata", "scripts", engine+".skip")
}

// loadSkips reads "<case id> <reason>" lines.
func loadSkips(t *testing.T, engine string) map[string]string {
	skips := map[string]string{}
	f, err := os.Open(skipFile(engine))
	if os.IsNotExist(err) {
		return skips
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, reason, _ := strings.Cut(line, " ")
		skips[id] = strings.TrimSpace(reason)
	}
	return skips
}

func writeSkips(t *testing.T, engine string, failing []string, old map[string]string) {
	var b strings.Builder
	b.WriteString("# Script cases the " + engine + " engine does not pass yet: \"<case> <reason>\".\n")
	b.WriteString("# Regenerate with: go test -run TestScripts -update-skips . (reasons are kept)\n")
	for _, id := range failing {
		reason := old[id]
		if reason == "" {
			reason = "not yet implemented"
		}
		b.WriteString(id + " " + reason + "\n")
	}
	if err := os.WriteFile(skipFile(engine), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// caseRuntime makes a Runtime with the tools and limits a case declares.
func caseRuntime(t *testing.T, engine string, c *scripttest.Case) *codemode.Runtime {
	opts := codemode.Options{Engine: engine, Tools: map[string]any{}, Limits: codemode.Limits{Timeout: 10 * time.Second}}
	for path, spec := range c.Tools {
		spec := spec
		opts.Tools[path] = &tools.Tool{Description: spec.Description, Output: spec.Output,
			Func: func(ctx context.Context, input json.RawMessage) (any, error) {
				if spec.DelayMs > 0 {
					select {
					case <-time.After(time.Duration(spec.DelayMs) * time.Millisecond):
					case <-ctx.Done():
						return nil, ctx.Err()
					}
				}
				switch {
				case spec.Error != "":
					return nil, errors.New(spec.Error)
				case spec.Echo:
					return input, nil
				}
				return spec.Result, nil
			}}
	}
	if l := c.Limits; l != nil {
		if l.TimeoutMs > 0 {
			opts.Limits.Timeout = time.Duration(l.TimeoutMs) * time.Millisecond
		}
		opts.Limits.MaxToolCalls = l.MaxToolCalls
		opts.Limits.MaxOutputBytes = l.MaxOutputBytes
		opts.Limits.MaxMemoryBytes = l.MaxMemoryBytes
	}
	rt, err := codemode.New(opts)
	if err != nil {
		t.Fatalf("%s: %v", c.ID(), err)
	}
	return rt
}
