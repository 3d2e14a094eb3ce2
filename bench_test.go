package codemode_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// BenchmarkExecuteTrivial is the fixed cost of one execution on an
// existing Runtime: parse, compile, run and marshal `1 + 1`.
func BenchmarkExecuteTrivial(b *testing.B) {
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := rt.Execute(ctx, "1 + 1"); !res.OK {
			b.Fatal(res)
		}
	}
}

// BenchmarkToolCall measures what an awaited tool call costs on top of
// the Go function: 1,000 calls in a loop, against the same loop awaiting
// a resolved value. The difference per call is the overhead (goroutine,
// inbox, both boundary copies, the promise).
func BenchmarkToolCall(b *testing.B) {
	lookup := &tools.Tool{Description: "lookup", Output: json.RawMessage(`{"type":"object"}`),
		Func: func(_ context.Context, in json.RawMessage) (any, error) {
			var arg struct {
				ID int `json:"id"`
			}
			if err := json.Unmarshal(in, &arg); err != nil {
				return nil, err
			}
			return map[string]int{"id": arg.ID, "score": arg.ID % 7}, nil
		}}
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{"lookupAsync": lookup}})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct{ name, src string }{
		{"tool", `let t = 0; for (let i = 0; i < 1000; i++) { const r = await tools.lookupAsync({id: i, tag: "item"}); t += r.score; } t`},
		{"baseline", `let t = 0; for (let i = 0; i < 1000; i++) { const r = await {id: i, tag: "item", score: i % 7}; t += r.score; } t`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res := rt.Execute(context.Background(), bc.src); !res.OK || string(res.Value) != "2997" {
					b.Fatal(res)
				}
			}
		})
	}
}
