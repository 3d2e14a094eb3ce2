package codemode_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/internal/snapfile"
	"github.com/go-codemode/codemode/tools"
)

// approvalRuntime has orders.get and orders.update, and holds every
// update for approval.
func approvalRuntime(t testing.TB, opts ...func(*codemode.Options)) *codemode.Runtime {
	t.Helper()
	get, update := getTool(), updateTool()
	o := codemode.Options{
		Tools: map[string]any{"orders": map[string]any{"get": get, "update": update}},
		Hooks: codemode.Hooks{ToolBefore: func(_ context.Context, info codemode.ToolCallInfo) error {
			if info.Name == "orders.update" {
				return codemode.ErrSuspend
			}
			return nil
		}},
	}
	for _, f := range opts {
		f(&o)
	}
	rt, err := codemode.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

const approvalProgram = `
const seen = [];
for (const id of [1, 2, 3]) seen.push(await tools.orders.get({ id }));
const big = seen.filter(o => o.total >= 20);
let updated;
try {
  updated = await tools.orders.update({ id: big[0].id, status: "shipped" });
} catch (e) {
  updated = "denied: " + e.message;
}
console.log("after the approval");
return { ids: seen.map(o => o.id), updated };`

func TestApprovalSuspendsAndResumes(t *testing.T) {
	ctx := context.Background()
	out, err := approvalRuntime(t).Program(approvalProgram).Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !out.IsSuspended() {
		t.Fatalf("the run was not suspended: %s", out.Result)
	}
	p := out.Suspended.Pending
	if len(p) != 1 || p[0].Key != "call-4" || p[0].Path != "orders.update" || string(p[0].Input) != `{"id":2,"status":"shipped"}` {
		t.Fatalf("pending = %+v", p)
	}
	cases := []struct {
		name string
		opt  codemode.ExecOption
		want string
	}{
		{"approved", codemode.Approve("call-4"), `{"ids":[1,2,3],"updated":{"id":2,"status":"shipped"}}`},
		{"denied", codemode.Deny("call-4", "not today"), `{"ids":[1,2,3],"updated":"denied: not today"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// A brand-new Runtime, as in another process.
			res, err := approvalRuntime(t).Resume(out.Suspended.State, c.opt).Run(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if res.IsSuspended() {
				t.Fatal("suspended again")
			}
			r := res.Result
			if !r.OK || string(r.Value) != c.want {
				t.Fatalf("got %s, want %s", r, c.want)
			}
			if len(r.Logs) != 1 || r.Logs[0] != "after the approval" {
				t.Fatalf("logs = %q", r.Logs)
			}
			if len(r.ToolCalls) != 4 || r.ToolCalls[3].Name != "orders.update" {
				t.Fatalf("toolCalls = %+v", r.ToolCalls)
			}
		})
	}
	t.Run("undecided", func(t *testing.T) {
		res, err := approvalRuntime(t).Resume(out.Suspended.State).Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsSuspended() || len(res.Suspended.Pending) != 1 || res.Suspended.Pending[0].Key != "call-4" {
			t.Fatalf("an undecided call should suspend again: %+v", res)
		}
	})
}

func TestResumeRefusesBadStates(t *testing.T) {
	ctx := context.Background()
	out, err := approvalRuntime(t).Program(approvalProgram).Run(ctx)
	if err != nil || !out.IsSuspended() {
		t.Fatal(err, out.Result)
	}
	state := out.Suspended.State
	flipped := append([]byte(nil), state...)
	flipped[len(flipped)/2] ^= 0x40
	cases := []struct {
		name   string
		rt     *codemode.Runtime
		state  []byte
		reason string
	}{
		{"truncated", approvalRuntime(t), state[:len(state)-3], "malformed"},
		{"empty", approvalRuntime(t), nil, "malformed"},
		{"other tools", func() *codemode.Runtime {
			rt, _ := codemode.New(codemode.Options{Tools: map[string]any{"x": &tools.Tool{Func: func(context.Context, json.RawMessage) (any, error) { return nil, nil }}}})
			return rt
		}(), state, "tools"},
		{"sealed required", approvalRuntime(t, func(o *codemode.Options) { o.SnapshotKey = []byte("k") }), state, "unsealed"},
		{"too large", approvalRuntime(t, func(o *codemode.Options) { o.MaxSnapshotBytes = 100 }), state, "too-large"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.rt.Resume(c.state, codemode.Approve("call-4")).Run(ctx)
			var se *codemode.SnapshotError
			if !errors.As(err, &se) || se.Reason != c.reason {
				t.Fatalf("got %v, want a SnapshotError %q", err, c.reason)
			}
		})
	}
	// A flipped bit is refused or, when it lands in a place the format
	// cannot check, still never crashes.
	_, _ = approvalRuntime(t).Resume(flipped, codemode.Approve("call-4")).Run(ctx)
}

func TestSealedStates(t *testing.T) {
	ctx := context.Background()
	key := func(k string) func(*codemode.Options) { return func(o *codemode.Options) { o.SnapshotKey = []byte(k) } }
	out, err := approvalRuntime(t, key("secret")).Program(approvalProgram).Run(ctx)
	if err != nil || !out.IsSuspended() {
		t.Fatal(err, out.Result)
	}
	if _, err := approvalRuntime(t, key("other")).Resume(out.Suspended.State).Run(ctx); err == nil || !strings.Contains(err.Error(), "seal") {
		t.Fatalf("another key: %v", err)
	}
	res, err := approvalRuntime(t, key("secret")).Resume(out.Suspended.State, codemode.Approve("call-4")).Run(ctx)
	if err != nil || !res.Result.OK {
		t.Fatal(err, res.Result)
	}
}

func TestProgramRunsOnce(t *testing.T) {
	p := approvalRuntime(t).Program("1 + 1")
	out, err := p.Run(context.Background())
	if err != nil || string(out.Result.Value) != "2" {
		t.Fatal(err, out.Result)
	}
	if _, err := p.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "already ran") {
		t.Fatalf("a second Run: %v", err)
	}
	// A suspend after the run ended gives its Result.
	got, err := p.Suspend(context.Background())
	if err != nil || string(got.Result.Value) != "2" {
		t.Fatal(err, got)
	}
}

func TestExecuteDeniesAHeldCall(t *testing.T) {
	res := approvalRuntime(t).Execute(context.Background(), `return await tools.orders.update({id: 1, status: "x"})`)
	if res.OK || !strings.Contains(res.Error.Message, "Runtime.Program") {
		t.Fatalf("got %s", res)
	}
}

// TestResumeKeepsTheHeap resumes runs that hold every kind of object
// across the suspension, in a new Runtime, and compares each with the
// same program run without one.
func TestResumeKeepsTheHeap(t *testing.T) {
	ctx := context.Background()
	for i, src := range resumeSeeds {
		out, err := approvalRuntime(t).Program(src).Run(ctx)
		if err != nil || !out.IsSuspended() {
			t.Fatalf("seed %d: %v %s", i, err, out.Result)
		}
		opts := []codemode.ExecOption{}
		for _, p := range out.Suspended.Pending {
			opts = append(opts, codemode.Approve(p.Key))
		}
		res, err := approvalRuntime(t).Resume(out.Suspended.State, opts...).Run(ctx)
		if err != nil || res.IsSuspended() {
			t.Fatalf("seed %d: %v %+v", i, err, res)
		}
		plain, _ := codemode.New(codemode.Options{Engine: codemode.EngineVM,
			Tools: map[string]any{"orders": map[string]any{"get": getTool(), "update": updateTool()}}})
		want := plain.Execute(ctx, src)
		if got, _ := res.Result.MarshalJSON(); !sameJSON(got, mustJSON(t, want)) {
			t.Fatalf("seed %d:\n got  %s\n want %s", i, got, mustJSON(t, want))
		}
	}
}

func mustJSON(t *testing.T, r codemode.Result) []byte {
	t.Helper()
	b, err := r.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func getTool() *tools.Tool {
	return &tools.Tool{Description: "Get an order", Output: json.RawMessage(`{"type":"object"}`),
		Func: func(_ context.Context, in json.RawMessage) (any, error) {
			var a struct{ ID int }
			_ = json.Unmarshal(in, &a)
			return map[string]any{"id": a.ID, "status": "open", "total": 10 * a.ID}, nil
		}}
}

func updateTool() *tools.Tool {
	return &tools.Tool{Description: "Update an order", Output: json.RawMessage(`{"type":"object"}`),
		Func: func(_ context.Context, in json.RawMessage) (any, error) {
			var a struct {
				ID     int
				Status string
			}
			_ = json.Unmarshal(in, &a)
			return map[string]any{"id": a.ID, "status": a.Status}, nil
		}}
}

// TestSuspendFromAnotherGoroutine: a Suspend while a tool runs is
// refused, naming the call, and the run goes on; one at a job boundary
// with no call running saves the run, and Run returns the same state.
func TestSuspendFromAnotherGoroutine(t *testing.T) {
	ctx := context.Background()
	started, release := make(chan struct{}), make(chan struct{})
	slow := &tools.Tool{Description: "waits", Output: json.RawMessage(`{"type":"object"}`),
		Func: func(context.Context, json.RawMessage) (any, error) {
			close(started)
			<-release
			return map[string]any{"n": 1}, nil
		}}
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{"slow": slow}})
	if err != nil {
		t.Fatal(err)
	}
	// The program spins through jobs after the call: a suspend there
	// finds no call running.
	p := rt.Program(`const r = await tools.slow({}); let n = 0;
while (true) { n++; await null; if (n > 1e8) break }
return n`)
	done := make(chan codemode.Outcome, 1)
	go func() {
		out, err := p.Run(ctx)
		if err != nil {
			t.Error(err)
		}
		done <- out
	}()
	<-started
	_, err = p.Suspend(ctx)
	var se *codemode.SuspendError
	if !errors.As(err, &se) || len(se.Blocking) != 1 || se.Blocking[0].Path != "tools.slow" || se.Blocking[0].Key != "call-1" {
		t.Fatalf("a suspend while tools.slow runs: %v", err)
	}
	close(release)
	var got codemode.Outcome
	for {
		got, err = p.Suspend(ctx)
		if err == nil {
			break
		}
		if !errors.As(err, &se) {
			t.Fatal(err)
		}
	}
	if !got.IsSuspended() || len(got.Suspended.Pending) != 0 {
		t.Fatalf("the suspend did not save the run: %+v", got)
	}
	out := <-done
	if !out.IsSuspended() || string(out.Suspended.State) != string(got.Suspended.State) {
		t.Fatal("Run did not return the same Suspended")
	}
}

// TestLimitsCarryOver: MaxToolCalls counts the calls of every session,
// and MaxSuspensions bounds how often one run is saved.
func TestLimitsCarryOver(t *testing.T) {
	ctx := context.Background()
	limit := func(o *codemode.Options) { o.Limits.MaxToolCalls = codemode.Max(4) }
	out, err := approvalRuntime(t, limit).Program(approvalProgram + `;`).Run(ctx)
	if err != nil || !out.IsSuspended() {
		t.Fatal(err, out.Result)
	}
	// The state made 4 calls; a resumed run that makes a fifth fails it.
	out2, err := approvalRuntime(t, limit).Program(`
const a = await tools.orders.get({ id: 1 });
const b = await tools.orders.get({ id: 2 });
const c = await tools.orders.update({ id: 3, status: "x" });
try { await tools.orders.get({ id: 4 }); await tools.orders.get({ id: 5 }) } catch (e) { return e.message }
return "no limit"`).Run(ctx)
	if err != nil || !out2.IsSuspended() {
		t.Fatal(err, out2.Result)
	}
	res, err := approvalRuntime(t, limit).Resume(out2.Suspended.State, codemode.Approve("call-3")).Run(ctx)
	if err != nil || string(res.Result.Value) != `"Execution exceeded its tool-call limit of 4."` {
		t.Fatalf("got %v %s", err, res.Result)
	}
	once := func(o *codemode.Options) { o.MaxSuspensions = 1 }
	again, err := approvalRuntime(t, once).Resume(out.Suspended.State).Run(ctx)
	if err != nil || again.IsSuspended() || again.Result.OK || !strings.Contains(again.Result.Error.Message, "MaxSuspensions") {
		t.Fatalf("a second suspension past MaxSuspensions: %v %+v", err, again)
	}
}

// TestDeflatedSectionsAreBounded: a state whose deflated heap claims to
// inflate to far more than it can, or does not inflate, is refused
// before anything is allocated for it.
func TestDeflatedSectionsAreBounded(t *testing.T) {
	ctx := context.Background()
	out, err := approvalRuntime(t).Program(approvalProgram).Run(ctx)
	if err != nil || !out.IsSuspended() {
		t.Fatal(err, out.Result)
	}
	hdr, body, err := snapfile.Read(out.Suspended.State, snapfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if hdr.Sections[2].Name != "heap.z" {
		t.Skipf("the heap is not deflated (%s)", hdr.Sections[2].Name)
	}
	keep := body[:len(body)-hdr.Sections[2].Size]
	for name, heap := range map[string][]byte{
		"a huge claim": append(binary.AppendUvarint(nil, 1<<40), 1, 2, 3),
		"not deflate":  append(binary.AppendUvarint(nil, 10), 0xff, 0xff, 0xff),
		"longer than it says": func() []byte {
			b := body[len(body)-hdr.Sections[2].Size:]
			n, k := binary.Uvarint(b)
			return append(binary.AppendUvarint(nil, n-1), b[k:]...)
		}(),
	} {
		t.Run(name, func(t *testing.T) {
			h := hdr
			h.Sections = append([]snapfile.Section(nil), hdr.Sections...)
			h.Sections[2].Size = len(heap)
			state, err := snapfile.Write(h, append(append([]byte(nil), keep...), heap...), snapfile.Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = approvalRuntime(t).Resume(state).Run(ctx)
			var se *codemode.SnapshotError
			if !errors.As(err, &se) || se.Reason != "malformed" || !strings.Contains(se.Msg, "heap") {
				t.Fatalf("got %v", err)
			}
		})
	}
}

// TestTimeoutCountsEverySession: the timeout counts the active time of
// the whole run, across a suspension: each session alone is well inside
// it, the two together are not.
func TestTimeoutCountsEverySession(t *testing.T) {
	ctx := context.Background()
	limit := func(o *codemode.Options) { o.Limits.Timeout = 3 * time.Second }
	burn := `{ const until = Date.now() + 1800; while (Date.now() < until) {} }`
	src := burn + `; await tools.orders.update({ id: 1, status: "x" }); ` + burn + `; return "done"`
	out, err := approvalRuntime(t, limit).Program(src).Run(ctx)
	if err != nil || !out.IsSuspended() {
		t.Fatalf("the first session: %v %s", err, out.Result)
	}
	if info, _ := codemode.InspectState(out.Suspended.State); info.UsedMillis < 1800 {
		t.Fatalf("the state says %d ms were used", info.UsedMillis)
	}
	res, err := approvalRuntime(t, limit).Resume(out.Suspended.State, codemode.Approve("call-1")).Run(ctx)
	if err != nil || res.Result.OK || res.Result.Error.Kind != codemode.TimeoutExceeded {
		t.Fatalf("the second session should time out: %v %s", err, res.Result)
	}
}

// TestResumeRecountsTheHeap: the memory a restored heap holds is counted
// again on resume, so a Runtime with a smaller budget refuses to go on
// with a run whose heap is already past it, and one with room goes on.
func TestResumeRecountsTheHeap(t *testing.T) {
	ctx := context.Background()
	prog := `
const held = Array.from({ length: 20000 }, (_, i) => "item " + i);
await tools.orders.update({ id: 1, status: "x" });
return held.length`
	out, err := approvalRuntime(t).Program(prog).Run(ctx)
	if err != nil || !out.IsSuspended() {
		t.Fatal(err, out.Result)
	}
	for _, tc := range []struct {
		budget int64
		want   string
	}{
		{budget: 200_000, want: `MemoryLimitExceeded: Execution exceeded its memory limit of 200000 bytes.`},
		{budget: 50_000_000, want: `20000`},
	} {
		small := func(o *codemode.Options) { o.Limits.MaxMemoryBytes = tc.budget }
		res, err := approvalRuntime(t, small).Resume(out.Suspended.State, codemode.Approve("call-1")).Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := string(res.Result.Value)
		if !res.Result.OK {
			got = string(res.Result.Error.Kind) + ": " + res.Result.Error.Message
		}
		if got != tc.want {
			t.Errorf("budget %d: got %s, want %s", tc.budget, got, tc.want)
		}
	}
}
