package hostile_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// report is what a child prints for the parent.
type report struct {
	OK           bool            `json:"ok"`
	Kind         string          `json:"kind,omitempty"`
	Message      string          `json:"message,omitempty"`
	Value        json.RawMessage `json:"value,omitempty"`
	ValueOmitted bool            `json:"valueOmitted,omitempty"`
	Truncated    bool            `json:"truncated,omitempty"`
	ToolCalls    []string        `json:"toolCalls"`
	ResultBytes  int             `json:"resultBytes"`
	ElapsedMs    int64           `json:"elapsedMs"`
	PeakGoMem    int64           `json:"peakGoMem"`
	// Lifecycle lists broken rules about tool and hook calls.
	Lifecycle []string `json:"lifecycle,omitempty"`
}

// maxReportedValue is the largest value a child reports in full.
const maxReportedValue = 64 << 10

// TestHostileChild runs the one case named by the environment; it is
// what TestHostile re-executes.
func TestHostileChild(t *testing.T) {
	ref := os.Getenv(childEnv)
	if ref == "" {
		t.Skip("only runs as TestHostile's child")
	}
	c, err := findCase(ref)
	if err != nil {
		t.Fatal(err)
	}
	// A runaway Go recursion must become a fatal error of this child
	// quickly, not eat the machine's memory.
	debug.SetMaxStack(64 << 20)
	rep, err := runCase(c)
	if err != nil {
		t.Fatal(err)
	}
	line, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(reportPrefix + string(line))
}

// runCase executes the program under its limits and measures it.
func runCase(c *hcase) (*report, error) {
	rec := &recorder{}
	defs := map[string]any{}
	for _, name := range c.Spec.Tools {
		defs[name] = toolSet[name](rec)
	}
	lim := c.Spec.Limits
	rt, err := codemode.New(codemode.Options{
		Tools: defs,
		Limits: codemode.Limits{Timeout: time.Duration(lim.TimeoutMs) * time.Millisecond,
			MaxMemoryBytes: lim.MaxMemoryBytes, MaxOutputBytes: lim.MaxOutputBytes, MaxToolCalls: lim.MaxToolCalls},
		Hooks: rec.hooks(),
	})
	if err != nil {
		return nil, err
	}
	sampler := startSampler()
	rec.begin()
	res := rt.Execute(context.Background(), c.Program)
	elapsed := rec.end()
	linger := time.Duration(c.Spec.LingerMs) * time.Millisecond
	if linger == 0 && len(c.Spec.Tools) > 0 {
		linger = 300 * time.Millisecond
	}
	time.Sleep(linger)
	peak := sampler.stop()

	text, err := res.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("the Result does not marshal: %v", err)
	}
	rep := &report{OK: res.OK, Truncated: res.Truncated, ResultBytes: len(text), ElapsedMs: elapsed.Milliseconds(),
		PeakGoMem: peak, ToolCalls: []string{}, Lifecycle: rec.violations(len(res.ToolCalls))}
	for _, tc := range res.ToolCalls {
		rep.ToolCalls = append(rep.ToolCalls, tc.Name)
	}
	if res.Error != nil {
		rep.Kind, rep.Message = string(res.Error.Kind), clip(res.Error.Message, 2000)
	}
	if len(res.Value) <= maxReportedValue {
		rep.Value = res.Value
	} else {
		rep.ValueOmitted = true
	}
	return rep, nil
}

// toolSet are the tools a case may ask for, by path. Each gets the
// recorder so that its starts and ends are timed.
var toolSet = map[string]func(*recorder) *tools.Tool{
	// x.echo returns its input.
	"x.echo": func(rec *recorder) *tools.Tool {
		return rawTool(rec, "x.echo", func(ctx context.Context, in json.RawMessage) (any, error) {
			return in, nil
		})
	},
	// x.pending never answers and ignores its context.
	"x.pending": func(rec *recorder) *tools.Tool {
		return rawTool(rec, "x.pending", func(ctx context.Context, in json.RawMessage) (any, error) {
			select {}
		})
	},
	// x.slow answers after 200 ms unless its context ends first.
	"x.slow": func(rec *recorder) *tools.Tool {
		return rawTool(rec, "x.slow", func(ctx context.Context, in json.RawMessage) (any, error) {
			select {
			case <-time.After(200 * time.Millisecond):
				return map[string]any{"done": true}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
	},
	// x.fail always fails.
	"x.fail": func(rec *recorder) *tools.Tool {
		return rawTool(rec, "x.fail", func(ctx context.Context, in json.RawMessage) (any, error) {
			return nil, errors.New("x.fail always fails")
		})
	},
	// x.big returns a 4 MiB string.
	"x.big": func(rec *recorder) *tools.Tool {
		return rawTool(rec, "x.big", func(ctx context.Context, in json.RawMessage) (any, error) {
			return map[string]any{"s": strings.Repeat("b", 4<<20)}, nil
		})
	},
	// mail.send ignores its context and takes 1 s: longer than the runs
	// that call it last, so that its natural end never stands in for the
	// interruption the runtime owes the after hook.
	"mail.send": func(rec *recorder) *tools.Tool {
		return rawTool(rec, "mail.send", func(ctx context.Context, in json.RawMessage) (any, error) {
			time.Sleep(time.Second)
			return map[string]any{"sent": true}, nil
		})
	},
}

// rawTool makes a tool with any input and any output that records when
// it starts.
func rawTool(rec *recorder, name string, f tools.Handler) *tools.Tool {
	return &tools.Tool{Description: "hostile-suite tool " + name, Output: json.RawMessage(`{}`),
		Func: func(ctx context.Context, in json.RawMessage) (any, error) {
			rec.event("start " + name)
			return f(ctx, in)
		}}
}

// recorder times tool starts and hook calls against Execute's return.
type recorder struct {
	mu       sync.Mutex
	start    time.Time
	returned bool
	late     []string // events after Execute returned
	before   int      // before-hook calls
	afterCnt int      // after-hook calls
}

func (r *recorder) begin() {
	r.mu.Lock()
	r.start = time.Now()
	r.mu.Unlock()
}

func (r *recorder) end() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.returned = true
	return time.Since(r.start)
}

func (r *recorder) event(what string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.returned {
		r.late = append(r.late, fmt.Sprintf("%s at %dms", what, time.Since(r.start).Milliseconds()))
	}
}

func (r *recorder) hooks() codemode.Hooks {
	return codemode.Hooks{
		ToolBefore: func(ctx context.Context, call codemode.ToolCallInfo) error {
			r.event("before-hook " + call.Name)
			r.mu.Lock()
			r.before++
			r.mu.Unlock()
			return nil
		},
		ToolAfter: func(ctx context.Context, call codemode.ToolCallInfo, out codemode.CallOutcome) {
			r.event("after-hook " + call.Name + " " + string(out.Status))
			r.mu.Lock()
			r.afterCnt++
			r.mu.Unlock()
		},
	}
}

// violations states the lifecycle rules broken: nothing starts and no
// hook runs after Execute returned, and every admitted call (the runner's
// before-hook denies none) got exactly one after-hook outcome by then,
// including a call cut off before it started, whose before-hook never ran.
func (r *recorder) violations(admitted int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var v []string
	for _, e := range r.late {
		v = append(v, "after Execute returned: "+e)
	}
	if r.afterCnt != admitted {
		v = append(v, fmt.Sprintf("%d calls were admitted (%d passed the before hook) but %d after-hook outcomes arrived", admitted, r.before, r.afterCnt))
	}
	return v
}

// sampler polls the Go runtime's memory (heap objects plus goroutine
// stacks) and keeps the peak.
type sampler struct {
	done chan struct{}
	peak chan int64
}

func startSampler() *sampler {
	s := &sampler{done: make(chan struct{}), peak: make(chan int64, 1)}
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/stacks:bytes"}}
	read := func() int64 {
		metrics.Read(samples)
		var n int64
		for _, x := range samples {
			if x.Value.Kind() == metrics.KindUint64 {
				n += int64(x.Value.Uint64())
			}
		}
		return n
	}
	go func() {
		var peak int64
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, read())
			select {
			case <-s.done:
				s.peak <- max(peak, read())
				return
			case <-tick.C:
			}
		}
	}()
	return s
}

func (s *sampler) stop() int64 {
	close(s.done)
	return <-s.peak
}
