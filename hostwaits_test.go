package codemode_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// TestCountHostWaits: with CountHostWaits false, the time a run spends
// waiting only on its tools does not count against its timeout, as the
// executor seed's countHostWaits: false; the program's own time still
// does. By default (nil) every moment counts, as in the reference.
func TestCountHostWaits(t *testing.T) {
	slow := &tools.Tool{Description: "takes 150ms", Output: objectOut, Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
		select {
		case <-time.After(150 * time.Millisecond):
			return map[string]any{"done": true}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}}
	sawDeadline := make(chan bool, 1)
	probe := &tools.Tool{Description: "reports whether its context has a deadline", Output: objectOut, Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
		_, ok := ctx.Deadline()
		sawDeadline <- ok
		return map[string]any{}, nil
	}}
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{"slow": slow, "probe": probe}})
	if err != nil {
		t.Fatal(err)
	}
	const three = "for (let i = 0; i < 3; i++) await tools.slow({}); return 'done'"
	cases := []struct {
		name   string
		limits codemode.Limits
		code   string
		want   string // the Result's value, or the error's kind
	}{
		{"counted by default", codemode.Limits{Timeout: 250 * time.Millisecond}, three, "TimeoutExceeded"},
		{"counted when true", codemode.Limits{Timeout: 250 * time.Millisecond, CountHostWaits: codemode.Bool(true)}, three, "TimeoutExceeded"},
		{"paused when false", codemode.Limits{Timeout: 250 * time.Millisecond, CountHostWaits: codemode.Bool(false)}, three, `"done"`},
		{"one wait longer than the timeout", codemode.Limits{Timeout: 100 * time.Millisecond, CountHostWaits: codemode.Bool(false)},
			"await tools.slow({}); return 'done'", `"done"`},
		{"the program's own time counts", codemode.Limits{Timeout: 100 * time.Millisecond, CountHostWaits: codemode.Bool(false)},
			"await tools.slow({}); while (true) {}", "TimeoutExceeded"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := rt.Execute(context.Background(), c.code, codemode.WithLimits(c.limits))
			got := string(res.Value)
			if !res.OK {
				got = string(res.Error.Kind)
			}
			if got != c.want {
				t.Fatalf("got %s, want %s", res, c.want)
			}
			if !res.OK && !strings.HasPrefix(res.Error.Message, "Execution timed out after ") {
				t.Errorf("message %q", res.Error.Message)
			}
		})
	}
	t.Run("tools see no deadline from a paused clock", func(t *testing.T) {
		res := rt.Execute(context.Background(), "await tools.probe({})", codemode.WithLimits(codemode.Limits{Timeout: time.Second, CountHostWaits: codemode.Bool(false)}))
		if !res.OK || <-sawDeadline {
			t.Fatalf("got %s; the tool's context has a deadline", res)
		}
		res = rt.Execute(context.Background(), "await tools.probe({})", codemode.WithLimits(codemode.Limits{Timeout: time.Second}))
		if !res.OK || !<-sawDeadline {
			t.Fatalf("got %s; the tool's context has no deadline", res)
		}
	})
	t.Run("the caller's context still bounds the wall clock", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		res := rt.Execute(ctx, three, codemode.WithLimits(codemode.Limits{Timeout: time.Minute, CountHostWaits: codemode.Bool(false)}))
		if res.OK || res.Error.Kind != codemode.TimeoutExceeded {
			t.Fatalf("got %s", res)
		}
	})
	t.Run("a run may not stop a clock the Runtime counts", func(t *testing.T) {
		strict, err := codemode.New(codemode.Options{Limits: codemode.Limits{CountHostWaits: codemode.Bool(true)}})
		if err != nil {
			t.Fatal(err)
		}
		res := strict.Execute(context.Background(), "1", codemode.WithLimits(codemode.Limits{CountHostWaits: codemode.Bool(false)}))
		want := "codemode: WithLimits: CountHostWaits false is looser than the Runtime's true; a run's limits may only be tighter"
		if res.OK || res.Error.Message != want {
			t.Fatalf("got %s", res)
		}
	})
}
