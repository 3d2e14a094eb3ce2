package main

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/go-codemode/codemode/tools"
)

// inflight tracks the tool calls of a run, so that the command can wait
// for the ones still running when Execute returns (Execute cancels their
// context, but does not wait for them) before the process exits: a
// command tool's process is killed and reaped only when its call
// returns, and a process that exits first would leave it running.
type inflight struct {
	mu      sync.Mutex
	running int
	closed  bool          // wait was called: no call starts any more
	idle    chan struct{} // closed when running drops to 0 after closed
}

// wrap returns a copy of a tool tree definition whose tools are tracked.
func (f *inflight) wrap(def map[string]any) map[string]any {
	out := make(map[string]any, len(def))
	for k, v := range def {
		out[k] = f.wrapValue(v)
	}
	return out
}

func (f *inflight) wrapValue(v any) any {
	switch v := v.(type) {
	case *tools.Tool:
		if v == nil {
			return v
		}
		return f.wrapTool(*v)
	case tools.Tool:
		return f.wrapTool(v)
	case *tools.Namespace:
		if v == nil {
			return v
		}
		return &tools.Namespace{Description: v.Description, Tools: f.wrap(v.Tools)}
	case tools.Namespace:
		return &tools.Namespace{Description: v.Description, Tools: f.wrap(v.Tools)}
	case map[string]any:
		return f.wrap(v)
	}
	return v // tools.New reports it
}

func (f *inflight) wrapTool(t tools.Tool) *tools.Tool {
	fn := t.Func
	if fn == nil {
		return &t // tools.New reports it
	}
	t.Func = func(ctx context.Context, input json.RawMessage) (any, error) {
		if !f.enter() {
			// The run is over (a call's goroutine may start late).
			return nil, context.Canceled
		}
		defer f.leave()
		return fn(ctx, input)
	}
	return &t
}

func (f *inflight) enter() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return false
	}
	f.running++
	return true
}

func (f *inflight) leave() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.running--
	if f.running == 0 && f.closed {
		close(f.idle)
	}
}

// wait stops new calls from starting and waits at most d for the running
// ones to return. It reports whether they all did.
func (f *inflight) wait(d time.Duration) bool {
	f.mu.Lock()
	f.closed = true
	f.idle = make(chan struct{})
	if f.running == 0 {
		close(f.idle)
	}
	idle := f.idle
	f.mu.Unlock()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-idle:
		return true
	case <-t.C:
		return false
	}
}
