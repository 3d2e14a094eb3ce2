package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"

	"github.com/dop251/goja"
	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// LiveHeapProgram is a typical run for the live-heap measurement: ten
// awaited calls of 20 records each, kept, then a call that holds the run
// open while the heap is measured.
const LiveHeapProgram = `const all = [];
for (let page = 0; page < 10; page++) {
  const r = await records({page});
  all.push(...r.items);
}
await hold({n: all.length});
return all.length`

// liveRecords is one page of records, made fresh for every call: a real
// tool decodes its response into new values each time.
func liveRecords(page int) []any {
	out := make([]any, 20)
	for i := range out {
		id := page*20 + i
		out[i] = map[string]any{"id": id, "name": fmt.Sprintf("customer %d", id), "email": fmt.Sprintf("c%d@example.com", id),
			"balance": float64(id) * 1.25, "tags": []any{"active", "retail"}}
	}
	return out
}

// liveRecordsJSON is a page as the JSON text an HTTP API answers.
func liveRecordsJSON(page int) []byte {
	b, _ := json.Marshal(map[string]any{"items": liveRecords(page)})
	return b
}

// LiveHeap is what one run holds while it is suspended in the middle of
// LiveHeapProgram, averaged over n runs held at once: heap, and heap
// plus goroutine stacks (codemode's suspended run keeps the goroutine
// of its Execute and of the worker in the held call; goja keeps none).
// With text, the records tool answers JSON text, as an HTTP API does
// (codemode: a json.RawMessage result; goja: JSON.parse of the text);
// without, Go maps (goja wraps them, codemode copies them).
func LiveHeap(column string, n int, text bool) (heap, withStacks uint64, err error) {
	before := settledMem()
	var release func()
	switch column {
	case Goja:
		held, err := holdGoja(n, text)
		if err != nil {
			return 0, 0, err
		}
		defer runtime.KeepAlive(held)
		release = func() {}
	default:
		if release, err = holdCodemode(column, n, text); err != nil {
			return 0, 0, err
		}
	}
	after := settledMem()
	release()
	return (after.HeapAlloc - before.HeapAlloc) / uint64(n),
		(after.HeapAlloc + after.StackInuse - before.HeapAlloc - before.StackInuse) / uint64(n), nil
}

func settledMem() runtime.MemStats {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m
}

// holdCodemode starts n runs on the engine and returns once each is held
// in its last call; release lets them finish and waits for them.
func holdCodemode(engine string, n int, text bool) (release func(), err error) {
	var held sync.WaitGroup
	gate := make(chan struct{})
	out := json.RawMessage(`{"type":"object"}`)
	rt, err := codemode.New(codemode.Options{Engine: engine, Tools: map[string]any{
		"records": &tools.Tool{Description: "a page of records", Output: out, Func: func(_ context.Context, in json.RawMessage) (any, error) {
			var arg struct{ Page int }
			if err := json.Unmarshal(in, &arg); err != nil {
				return nil, err
			}
			if text {
				return json.RawMessage(liveRecordsJSON(arg.Page)), nil
			}
			return map[string]any{"items": liveRecords(arg.Page)}, nil
		}},
		"hold": &tools.Tool{Description: "waits", Output: out, Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
			held.Done()
			select {
			case <-gate:
			case <-ctx.Done():
			}
			return map[string]any{}, nil
		}},
	}})
	if err != nil {
		return nil, err
	}
	src := "const records = tools.records, hold = tools.hold;\n" + LiveHeapProgram
	held.Add(n)
	var done sync.WaitGroup
	errs := make(chan string, n)
	for range n {
		done.Go(func() {
			if res := rt.Execute(context.Background(), src); !res.OK || string(res.Value) != "200" {
				errs <- res.String()
				held.Done() // it never reached hold
			}
		})
	}
	held.Wait()
	select {
	case e := <-errs:
		close(gate)
		done.Wait()
		return nil, fmt.Errorf("%s: %s", engine, e)
	default:
	}
	return func() { close(gate); done.Wait() }, nil
}

// heldGoja is a goja runtime suspended at its last await, with the
// resolve function of the awaited promise: without it nothing could
// resume the run, and the collector would take the suspended function
// and its records.
type heldGoja struct {
	rt      *goja.Runtime
	resolve func(any) error
}

// holdGoja runs LiveHeapProgram on n goja runtimes, each left suspended
// at its last await.
func holdGoja(n int, text bool) ([]heldGoja, error) {
	held := make([]heldGoja, n)
	for i := range held {
		rt := goja.New()
		parse, _ := goja.AssertFunction(rt.Get("JSON").ToObject(rt).Get("parse"))
		_ = rt.Set("records", func(arg map[string]any) goja.Value {
			page, _ := arg["page"].(int64)
			p, resolve, _ := rt.NewPromise()
			if text {
				v, err := parse(goja.Undefined(), rt.ToValue(string(liveRecordsJSON(int(page)))))
				if err != nil {
					panic(err)
				}
				_ = resolve(v)
			} else {
				_ = resolve(map[string]any{"items": liveRecords(int(page))})
			}
			return rt.ToValue(p)
		})
		got := int64(-1)
		_ = rt.Set("hold", func(arg map[string]any) goja.Value {
			got, _ = arg["n"].(int64)
			p, resolve, _ := rt.NewPromise()
			held[i].resolve = resolve
			return rt.ToValue(p)
		})
		v, err := rt.RunString("(async () => {\n" + LiveHeapProgram + "\n})()")
		if err != nil {
			return nil, err
		}
		if p, ok := v.Export().(*goja.Promise); !ok || p.State() != goja.PromiseStatePending || got != 200 {
			return nil, fmt.Errorf("goja: the run is not held at its last await with its 200 records (%v, %d)", v, got)
		}
		held[i].rt = rt
	}
	return held, nil
}
