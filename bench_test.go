package codemode_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// BenchmarkExecuteTrivial is the fixed cost of one execution on an
// existing Runtime: parse, compile, run and marshal `1 + 1`, on each
// engine.
func BenchmarkExecuteTrivial(b *testing.B) {
	for _, engine := range engines {
		b.Run(engine, func(b *testing.B) {
			rt, err := codemode.New(codemode.Options{Engine: engine})
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
		})
	}
}

// BenchmarkToolCall measures what an awaited tool call costs on top of
// the Go function: 1,000 calls in a loop, against the same loop awaiting
// a resolved value. The difference per call is the overhead (goroutine,
// inbox, both boundary copies, the promise). schema adds an input schema
// to the same tool; parallel starts the 1,000 calls at once and awaits
// them with Promise.all; noop calls a tool that does nothing, so that
// noop minus baseline is the dispatch alone.
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
	// The same tool with an input schema: the validation's cost.
	checked := *lookup
	checked.Input = json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"},"tag":{"type":"string"}},"required":["id"]}`)
	// A tool that does nothing: what is left is the dispatch itself.
	noop := &tools.Tool{Description: "does nothing", Func: func(context.Context, json.RawMessage) (any, error) { return nil, nil }}
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{"lookupAsync": lookup, "checked": &checked, "noop": noop}})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct{ name, src string }{
		{"tool", `let t = 0; for (let i = 0; i < 1000; i++) { const r = await tools.lookupAsync({id: i, tag: "item"}); t += r.score; } t`},
		{"noop", `let t = 0; for (let i = 0; i < 1000; i++) { await tools.noop({id: i, tag: "item"}); t += i % 7; } t`},
		{"schema", `let t = 0; for (let i = 0; i < 1000; i++) { const r = await tools.checked({id: i, tag: "item"}); t += r.score; } t`},
		// 1,000 calls in flight at once, as Promise.all over a list makes.
		{"parallel", `const ps = []; for (let i = 0; i < 1000; i++) ps.push(tools.lookupAsync({id: i, tag: "item"})); let t = 0; for (const r of await Promise.all(ps)) t += r.score; t`},
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

// BenchmarkWithTools compares a run that calls one of a large Runtime's
// tools with a run that calls the same tool given by WithTools (a fresh
// overlay each run, as a per-user tool would be): the overlay's extra
// cost should not grow with the Runtime's 2,000 tools, whose schemas are
// never recompiled.
func BenchmarkWithTools(b *testing.B) {
	schema := json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}}},"required":["id"]}`)
	echo := func(_ context.Context, in json.RawMessage) (any, error) { return json.RawMessage(in), nil }
	def := map[string]any{}
	for i := range 2000 {
		def[fmt.Sprintf("ns%d.tool%d", i%40, i)] = &tools.Tool{Description: "a tool", Input: schema, Output: json.RawMessage(`{"type":"object"}`), Func: echo}
	}
	rt, err := codemode.New(codemode.Options{Tools: def})
	if err != nil {
		b.Fatal(err)
	}
	user := &tools.Tool{Description: "the user's tool", Input: schema, Output: json.RawMessage(`{"type":"object"}`), Func: echo}
	for _, bc := range []struct {
		name string
		src  string
		opts func() []codemode.ExecOption
	}{
		{"runtime-tool", `return (await tools.ns0.tool0({id: 1})).id`, func() []codemode.ExecOption { return nil }},
		{"overlay-tool", `return (await tools.user.tool({id: 1})).id`, func() []codemode.ExecOption {
			return []codemode.ExecOption{codemode.WithTools(map[string]any{"user.tool": user})}
		}},
		{"runtime-search", `return (await search({query: "ns0 tool"})).items[0].path`, func() []codemode.ExecOption { return nil }},
		{"overlay-search", `return (await search({query: "user tool"})).items[0].path`, func() []codemode.ExecOption {
			return []codemode.ExecOption{codemode.WithTools(map[string]any{"user.tool": user})}
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res := rt.Execute(context.Background(), bc.src, bc.opts()...); !res.OK {
					b.Fatal(res)
				}
			}
		})
	}
}

// BenchmarkSuspend measures the typical suspended run of
// testdata/snapshot/restock.js (three tool calls, 50 records held, a
// fourth call waiting for approval) beside the same run without a
// suspension: run is the whole run with the order approved by nobody
// (no hook), suspend the run up to its suspension, resume the resumed
// run to its end (resume-cold compiling the program again, as a new
// process does). suspend-µs is saving and encoding the state alone;
// resume-µs decoding and restoring it, up to running again; bytes the
// state's size.
func BenchmarkSuspend(b *testing.B) {
	ctx := context.Background()
	src, err := os.ReadFile("testdata/snapshot/restock.js")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("run", func(b *testing.B) {
		rt := inventoryRuntime(b, 50, false)
		b.ReportAllocs()
		for b.Loop() {
			if res := rt.Execute(ctx, string(src)); !res.OK {
				b.Fatal(res)
			}
		}
	})
	var state []byte
	b.Run("suspend", func(b *testing.B) {
		rt := inventoryRuntime(b, 50, true)
		var saved time.Duration
		b.ReportAllocs()
		for b.Loop() {
			p := rt.Program(string(src))
			out, err := p.Run(ctx)
			if err != nil || !out.IsSuspended() {
				b.Fatal(err, out.Result)
			}
			state = out.Suspended.State
			s, _ := codemode.ProgramTimes(p)
			saved += s
		}
		b.ReportMetric(float64(saved.Microseconds())/float64(b.N), "suspend-µs")
		b.ReportMetric(float64(len(state)), "bytes")
	})
	b.Run("save", func(b *testing.B) {
		// The save alone, repeated at the run's suspension.
		p := inventoryRuntime(b, 50, true).Program(string(src))
		codemode.SaveRepeatedly(p, b.N)
		b.ReportAllocs()
		b.ResetTimer()
		if out, err := p.Run(ctx); err != nil || !out.IsSuspended() {
			b.Fatal(err, out.Result)
		}
	})
	b.Run("resume", func(b *testing.B) {
		rt := inventoryRuntime(b, 50, true)
		var restored time.Duration
		b.ReportAllocs()
		for b.Loop() {
			p := rt.Resume(state, codemode.Approve("call-4"))
			out, err := p.Run(ctx)
			if err != nil || !out.Result.OK {
				b.Fatal(err, out.Result)
			}
			_, r := codemode.ProgramTimes(p)
			restored += r
		}
		b.ReportMetric(float64(restored.Microseconds())/float64(b.N), "resume-µs")
	})
	b.Run("resume-cold", func(b *testing.B) {
		// As a new process resumes it: the program compiled again.
		rt := inventoryRuntime(b, 50, true)
		var restored time.Duration
		b.ReportAllocs()
		for b.Loop() {
			codemode.ForgetCompiled(rt)
			p := rt.Resume(state, codemode.Approve("call-4"))
			out, err := p.Run(ctx)
			if err != nil || !out.Result.OK {
				b.Fatal(err, out.Result)
			}
			_, r := codemode.ProgramTimes(p)
			restored += r
		}
		b.ReportMetric(float64(restored.Microseconds())/float64(b.N), "resume-µs")
	})
}
