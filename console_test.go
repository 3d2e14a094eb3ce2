package codemode_test

import (
	"context"
	"strings"
	"testing"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/protocol"
)

// TestConsoleCapture: a run keeps at most 2,097,152 characters of console
// text (the executor seed's CONSOLE_CAPTURE_LIMIT, counted in UTF-16 code
// units as JavaScript counts them); the line that would pass it becomes
// the seed's final warn line, and later lines are dropped.
func TestConsoleCapture(t *testing.T) {
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		code      string
		wantLines int // lines kept before the final one
	}{
		{"ASCII", `const s = "x".repeat(1000); for (let i = 0; i < 3000; i++) console.log(s); return 1`, 2097},
		{"surrogate pairs count twice", `const s = "😀".repeat(500); for (let i = 0; i < 3000; i++) console.log(s); return 1`, 2097},
		{"one line over the limit", `console.log("a"); console.log("y".repeat(2097152)); console.log("b"); return 1`, 1},
		{"exactly at the limit", `console.log("z".repeat(2097151)); console.log("z"); console.log("over"); return 1`, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var streamed []string
			res := rt.Execute(context.Background(), c.code, codemode.OnLog(func(l string) { streamed = append(streamed, l) }))
			if !res.OK {
				t.Fatalf("got %s", res.Error)
			}
			if len(res.Logs) != c.wantLines+1 {
				t.Fatalf("%d lines, want %d and the final one", len(res.Logs), c.wantLines)
			}
			last := res.Logs[len(res.Logs)-1]
			if last != "[warn] "+protocol.ConsoleCaptureMessage {
				t.Errorf("last line %q", last)
			}
			if len(streamed) != len(res.Logs) || streamed[len(streamed)-1] != last {
				t.Errorf("OnLog saw %d lines, ending %q", len(streamed), streamed[len(streamed)-1])
			}
		})
	}
	t.Run("under the limit nothing is added", func(t *testing.T) {
		res := rt.Execute(context.Background(), `console.log("z".repeat(2097152)); return 1`)
		if len(res.Logs) != 1 || strings.Contains(res.Logs[0], "exceeded") {
			t.Fatalf("got %d lines", len(res.Logs))
		}
	})
}
