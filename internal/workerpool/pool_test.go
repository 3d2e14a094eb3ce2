package workerpool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/protocol"
)

// TestExecuteMatchesInProcess runs requests on the pool and on the
// in-process executor the workers run, and wants the same results:
// values, program failures, codes and logs, with the tool calls and
// stub fetches forwarded through the pipe.
func TestExecuteMatchesInProcess(t *testing.T) {
	t.Parallel()
	rt, err := codemode.New(codemode.Options{Extensions: []codemode.Extension{procExtension()}})
	if err != nil {
		t.Fatal(err)
	}
	local := rt.Executor(codemode.ExecutorOptions{})
	p := newPool(t, Config{MaxWorkers: 2})

	users := func(_ context.Context, _, tool, args string) string {
		switch tool {
		case "getUser":
			var a []int
			_ = json.Unmarshal([]byte(args), &a)
			if len(a) == 1 && a[0] == 1 {
				return `{"result":{"id":1,"name":"Ada"}}`
			}
			return protocol.ErrorEnvelope(fmt.Sprintf("no user %s", args))
		case "bad":
			return `not an envelope`
		case "panics":
			panic("the tool broke")
		case "bytes":
			return `{"result":{"$binary":"AQID"}}`
		}
		return protocol.ErrorEnvelope("unknown tool " + tool)
	}
	fetch := func(_ context.Context, req protocol.OutboundRequest) (protocol.OutboundResponse, error) {
		if strings.Contains(req.URL, "fail") {
			return protocol.OutboundResponse{}, errors.New("connection refused")
		}
		return protocol.OutboundResponse{Status: 201, Headers: [][2]string{{"x-method", req.Method}},
			Body: append([]byte("echo:"), req.Body...)}, nil
	}
	tools := storeProvider("getUser", "bad", "panics", "bytes")

	tests := []struct {
		name string
		req  protocol.ExecuteRequest
	}{
		{"value", protocol.ExecuteRequest{Code: `async () => { return 6 * 7 }`}},
		{"concise body", protocol.ExecuteRequest{Code: `async () => 6 * 7`}},
		{"undefined", protocol.ExecuteRequest{Code: `async () => {}`}},
		{"logs", protocol.ExecuteRequest{Code: `async () => { console.log("a", 1); console.warn("b"); console.error("c"); return "done" }`}},
		{"throw", protocol.ExecuteRequest{Code: `async () => { throw new Error("boom") }`}},
		{"syntax error", protocol.ExecuteRequest{Code: `async () => { return ) }`}},
		{"timeout", protocol.ExecuteRequest{Code: `async () => { for (;;) {} }`, Timeout: protocol.TimeoutMillis(50)}},
		{"dispatch", protocol.ExecuteRequest{Code: `async () => { const u = await store.getUser(1); return u.name }`,
			Providers: tools, Dispatch: users}},
		{"dispatch error", protocol.ExecuteRequest{Code: `async () => { try { await store.getUser(2) } catch (e) { return e.message } }`,
			Providers: tools, Dispatch: users}},
		{"not an envelope", protocol.ExecuteRequest{Code: `async () => { try { await store.bad() } catch (e) { return e.message } }`,
			Providers: tools, Dispatch: users}},
		{"dispatch panics", protocol.ExecuteRequest{Code: `async () => { try { await store.panics() } catch (e) { return e.message } }`,
			Providers: tools, Dispatch: users}},
		{"binary", protocol.ExecuteRequest{Code: `async () => { const b = await store.bytes(); return [b instanceof Uint8Array, b.length, b[2]] }`,
			Providers: tools, Dispatch: users}},
		{"no dispatch", protocol.ExecuteRequest{Code: `async () => { try { await store.getUser(1) } catch (e) { return e.message } }`,
			Providers: tools}},
		{"invalid providers", protocol.ExecuteRequest{Code: `async () => { return 1 }`,
			Providers: []protocol.ProviderDescriptor{{Name: "class", Tools: []string{"x"}}}}},
		{"modules", protocol.ExecuteRequest{Code: "import { twice } from \"helpers\"\nasync () => { return twice(21) }",
			Modules: protocol.ModuleMap{"helpers": protocol.ModuleSource{Source: "export const twice = x => 2 * x"}}}},
		{"stub fetch", protocol.ExecuteRequest{Code: `async () => {
			const r = await fetch("https://api.example/v1/x", { method: "POST", body: "q" })
			return [r.status, r.headers.get("x-method"), await r.text()]
		}`, Outbound: protocol.OutboundStub, Fetch: fetch}},
		{"stub fetch error", protocol.ExecuteRequest{Code: `async () => {
			try { await fetch("https://fail.example/") } catch (e) { return [e.name, e.message] }
		}`, Outbound: protocol.OutboundStub, Fetch: fetch}},
		{"stub without fetch", protocol.ExecuteRequest{Code: `async () => { return 1 }`, Outbound: protocol.OutboundStub}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, wantErr := local.Execute(context.Background(), tt.req)
			got, gotErr := p.Execute(context.Background(), tt.req)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || protocol.CodeOf(gotErr) != protocol.CodeOf(wantErr) {
				t.Fatalf("error %v, in process %v", gotErr, wantErr)
			}
			if !reflect.DeepEqual(normalize(got), normalize(want)) {
				t.Fatalf("result\n%+v (error %+v)\nin process\n%+v (error %+v)", got, got.Error, want, want.Error)
			}
		})
	}
}

// normalize makes results that mean the same compare equal: no logs is
// nil.
func normalize(r protocol.ExecuteResult) protocol.ExecuteResult {
	if len(r.Logs) == 0 {
		r.Logs = nil
	}
	return r
}

// TestDispatchConcurrentOutOfOrder answers three concurrent tool calls
// of one run in the reverse of the order they arrived.
func TestDispatchConcurrentOutOfOrder(t *testing.T) {
	t.Parallel()
	p := newPool(t, Config{MaxWorkers: 1})
	var (
		mu       sync.Mutex
		answered []string
	)
	gates := map[string]chan struct{}{"1": make(chan struct{}), "2": make(chan struct{}), "3": make(chan struct{})}
	done := make(chan string, 3)
	h := newHost(map[string]func(context.Context, string) string{
		"get": func(ctx context.Context, args string) string {
			var a []string
			_ = json.Unmarshal([]byte(args), &a)
			<-gates[a[0]]
			mu.Lock()
			answered = append(answered, a[0])
			mu.Unlock()
			defer func() { done <- a[0] }()
			return `{"result":"v` + a[0] + `"}`
		},
	})
	ch := goExecute(context.Background(), p, protocol.ExecuteRequest{
		Code:      `async () => { return await Promise.all([store.get("1"), store.get("2"), store.get("3")]) }`,
		Providers: storeProvider("get"), Dispatch: h.dispatch,
	})
	for range 3 {
		h.await(t, "get")
	}
	for _, k := range []string{"3", "2", "1"} {
		close(gates[k])
		<-done
	}
	o := recv(t, ch)
	if got := mustValue(t, o.res, o.err); got != `["v1","v2","v3"]` {
		t.Fatalf("value %s", got)
	}
	if fmt.Sprint(answered) != "[3 2 1]" {
		t.Fatalf("answered in order %v", answered)
	}
}

// TestCrash kills a worker in every way one dies while it runs two
// runs and another worker runs a third: the two fail with
// WORKER_CRASHED, the third finishes, OnCrash counts one crash, and
// the next request runs on a fresh worker.
func TestCrash(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		action string // what the crashing run does once its gate opens; "" for a SIGKILL from the test
		want   string // in the crash message
	}{
		{"go fatal error", "proc.overflow()", "fatal error: stack overflow"},
		{"exit", "proc.exit(3)", "exit status 3"},
		{"sigkill", "", "signal: killed"},
		{"garbage", `proc.garbage("json")`, "malformed message"},
		{"oversized frame", `proc.garbage("huge")`, "frame exceeds the limit"},
		{"wrong message", `proc.garbage("type")`, `unexpected "hello" message`},
		{"stdout closed", `proc.mute()`, "signal: killed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var crashes, hooked counter
			p := newPool(t, Config{MaxWorkers: 2, ExecutionsPerWorker: 2, OnCrash: crashes.inc, Logger: testLogger(t)})
			p.SetCrashHook(hooked.inc)
			gate := make(chan struct{})
			h := newHost(map[string]func(context.Context, string) string{
				"hold":  holdTool,
				"hold2": func(ctx context.Context, _ string) string { waitFor(ctx, gate); return `{"result":"b"}` },
				"gate":  func(ctx context.Context, _ string) string { waitFor(ctx, gate); return `{"result":null}` },
			})
			req := func(code string) protocol.ExecuteRequest {
				return protocol.ExecuteRequest{Code: code, Providers: storeProvider("hold", "hold2", "gate"), Dispatch: h.dispatch}
			}
			a1 := goExecute(context.Background(), p, req(`async () => { await store.hold(proc.pid()); return "a1" }`))
			pidA := h.await(t, "hold").args
			a2 := goExecute(context.Background(), p, req(`async () => { await store.gate(proc.pid()); `+tt.action+`; return "a2" }`))
			if got := h.await(t, "gate").args; got != pidA {
				t.Fatalf("the second run is on worker %s, want %s", got, pidA)
			}
			b := goExecute(context.Background(), p, req(`async () => { return await store.hold2(proc.pid()) }`))
			if pidB := h.await(t, "hold2").args; pidB == pidA {
				t.Fatalf("the third run is on the crashing worker %s", pidB)
			}

			if tt.action == "" {
				pid, _ := strconv.Atoi(strings.Trim(pidA, "[]"))
				proc, err := os.FindProcess(pid)
				if err != nil {
					t.Fatal(err)
				}
				if err := proc.Kill(); err != nil {
					t.Fatal(err)
				}
				for _, ch := range []<-chan outcome{a1, a2} {
					o := recv(t, ch)
					wantCode(t, o.res, o.err, protocol.CodeWorkerCrashed, tt.want)
				}
				close(gate)
			} else {
				close(gate)
				for _, ch := range []<-chan outcome{a1, a2} {
					o := recv(t, ch)
					wantCode(t, o.res, o.err, protocol.CodeWorkerCrashed, tt.want)
				}
			}
			o := recv(t, b)
			if got := mustValue(t, o.res, o.err); got != `"b"` {
				t.Fatalf("the other worker's run: %s", got)
			}
			res, err := p.Execute(context.Background(), protocol.ExecuteRequest{Code: `async () => { return proc.pid() }`})
			if pid := mustPID(t, res, err); "["+strconv.Itoa(pid)+"]" == pidA {
				t.Fatalf("the next run is on the dead worker %d", pid)
			}
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			if crashes.load() != 1 || hooked.load() != 1 {
				t.Fatalf("OnCrash called %d times, the hook %d; want 1", crashes.load(), hooked.load())
			}
		})
	}
}

// TestHungWorker: a worker that does not answer is killed after the
// run's timeout, Grace and TerminationDelay, or after Grace and
// TerminationDelay once its run is cancelled, and its run fails as
// crashed.
func TestHungWorker(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		timeout protocol.Timeout
		cancel  bool
		want    string
	}{
		{"past its timeout", protocol.TimeoutMillis(50), false, "did not end within its timeout"},
		{"cancelled", protocol.TimeoutMillis(600000), true, "did not answer the cancelled run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var crashes counter
			watch := newStderrWatch("proc.hang: hanging")
			p := newPool(t, Config{MaxWorkers: 1, Grace: 10 * time.Millisecond, TerminationDelay: 100 * time.Millisecond,
				Stderr: watch, OnCrash: crashes.inc})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ch := goExecute(ctx, p, protocol.ExecuteRequest{Code: `async () => { proc.hang() }`, Timeout: tt.timeout})
			if tt.cancel {
				<-watch.seen
				cancel()
			}
			o := recv(t, ch)
			wantCode(t, o.res, o.err, protocol.CodeWorkerCrashed, tt.want)
			res, err := p.Execute(context.Background(), protocol.ExecuteRequest{Code: `async () => { return 1 }`})
			mustValue(t, res, err)
			p.Close()
			if crashes.load() != 1 {
				t.Fatalf("%d crashes", crashes.load())
			}
		})
	}
}

// TestRetire: a worker retires after RetireAfterExecutions runs, or
// when the memory it reports passes WorkerMemoryLimit; the next run
// gets a new process and the old one exits.
func TestRetire(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  Config
		runs int
		grow map[int]int // MiB the run of that index keeps alive in its worker
		want []int       // which worker (0, 1, ...) each run must land on
	}{
		{"after executions", Config{RetireAfterExecutions: 2}, 5, nil, []int{0, 0, 1, 1, 2}},
		{"on memory", Config{WorkerMemoryLimit: 1}, 3, nil, []int{0, 1, 2}},
		{"on memory grown", Config{WorkerMemoryLimit: 160 << 20}, 4, map[int]int{1: 192}, []int{0, 0, 1, 1}},
		{"never", Config{RetireAfterExecutions: -1, WorkerMemoryLimit: -1}, 4, nil, []int{0, 0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var crashes counter
			cfg := tt.cfg
			cfg.MaxWorkers, cfg.OnCrash = 1, crashes.inc
			p := newPool(t, cfg)
			var pids []int
			index := map[int]int{}
			for i := range tt.runs {
				code := `async () => { return proc.pid() }`
				if mb := tt.grow[i]; mb > 0 {
					code = fmt.Sprintf(`async () => { proc.grow(%d); return proc.pid() }`, mb)
				}
				res, err := p.Execute(context.Background(), protocol.ExecuteRequest{Code: code})
				pid := mustPID(t, res, err)
				if _, ok := index[pid]; !ok {
					index[pid] = len(index)
				}
				pids = append(pids, index[pid])
			}
			if !reflect.DeepEqual(pids, tt.want) {
				t.Fatalf("runs landed on workers %v, want %v", pids, tt.want)
			}
			for pid, i := range index {
				if i < tt.want[len(tt.want)-1] {
					eventually(t, fmt.Sprintf("retired worker %d exits", pid), func() bool { return !hasPID(p, pid) })
				}
			}
			// The last worker is left, unless its own run retired it
			// too (a limit of one byte).
			if ws := p.Workers(); len(ws) > 1 || len(ws) == 1 && ws[0].Memory == 0 {
				t.Fatalf("workers %+v", ws)
			}
			p.Close()
			if crashes.load() != 0 {
				t.Fatalf("a retirement counted as %d crashes", crashes.load())
			}
		})
	}
}

// TestRetainedHandles: invocations route to the worker that retained
// the execution, with the retaining request's Dispatch, and a retired
// worker lives on until its executions are closed.
func TestRetainedHandles(t *testing.T) {
	t.Parallel()
	p := newPool(t, Config{MaxWorkers: 1, RetireAfterExecutions: 1})
	ctx := context.Background()
	retain := func(tag string) (protocol.ExecuteResult, int) {
		h := newHost(map[string]func(context.Context, string) string{
			"tag": func(context.Context, string) string { return `{"result":"` + tag + `"}` },
		})
		res, err := p.Execute(ctx, protocol.ExecuteRequest{
			Code: `async () => { let n = 0; return {
				inc: k => n += k,
				pid: () => proc.pid(),
				ask: async () => { return await store.tag() },
			} }`,
			Providers: storeProvider("tag"), Dispatch: h.dispatch, RetainHandles: true,
		})
		if err != nil || res.ExecutionID == "" || !reflect.DeepEqual(res.Handles, []string{"inc", "pid", "ask"}) {
			t.Fatalf("retain: %+v %v", res, err)
		}
		inv, err := p.InvokeHandle(ctx, res.ExecutionID, "pid", "")
		return res, mustPID(t, inv, err)
	}
	x1, pid1 := retain("one")
	x2, pid2 := retain("two") // worker 1 retired after one run: a new worker
	if pid1 == pid2 {
		t.Fatalf("both executions on worker %d", pid1)
	}
	if !strings.HasPrefix(x1.ExecutionID, "w") || x1.ExecutionID == x2.ExecutionID {
		t.Fatalf("execution ids %q and %q", x1.ExecutionID, x2.ExecutionID)
	}

	invoke := func(x protocol.ExecuteResult, handle, args string) string {
		t.Helper()
		res, err := p.InvokeHandle(ctx, x.ExecutionID, handle, args)
		return mustValue(t, res, err)
	}
	tests := []struct {
		x            protocol.ExecuteResult
		handle, args string
		want         string
	}{
		{x1, "inc", "[5]", "5"},
		{x2, "inc", "[1]", "1"},
		{x1, "inc", "[2]", "7"},
		{x1, "pid", "", strconv.Itoa(pid1)},
		{x2, "pid", "", strconv.Itoa(pid2)},
		{x1, "ask", "", `"one"`},
		{x2, "ask", "", `"two"`},
	}
	for _, tt := range tests {
		if got := invoke(tt.x, tt.handle, tt.args); got != tt.want {
			t.Fatalf("%s.%s(%s) = %s, want %s", tt.x.ExecutionID, tt.handle, tt.args, got, tt.want)
		}
	}
	if _, err := p.InvokeHandle(ctx, x1.ExecutionID, "nope", ""); protocol.CodeOf(err) != protocol.CodeUnknownExecution {
		t.Fatalf("unknown handle: %v", err)
	}

	// Both workers are retired (one run each) and live for their
	// executions.
	if !hasPID(p, pid1) || !hasPID(p, pid2) {
		t.Fatalf("workers %+v", p.Workers())
	}
	if err := p.CloseHandles(ctx, x1.ExecutionID); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the retired worker exits once its execution is closed", func() bool { return !hasPID(p, pid1) })
	if !hasPID(p, pid2) {
		t.Fatal("the other retired worker exited with an execution open")
	}
	_, err := p.InvokeHandle(ctx, x1.ExecutionID, "inc", "[1]")
	wantErrCode(t, err, protocol.CodeUnknownExecution)
	wantErrCode(t, p.CloseHandles(ctx, x1.ExecutionID), protocol.CodeUnknownExecution)
	if got := invoke(x2, "inc", "[1]"); got != "2" {
		t.Fatalf("x2.inc = %s", got)
	}
}

// TestRetainedLost: an execution is gone when it idles past
// HandlesIdleTimeout (and its retired worker exits), or when its
// worker dies.
func TestRetainedLost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  Config
		kill bool
	}{
		{"idle", Config{RetireAfterExecutions: 1, HandlesIdleTimeout: 50 * time.Millisecond}, false},
		{"idle, worker not retired", Config{HandlesIdleTimeout: 50 * time.Millisecond}, false},
		{"worker killed", Config{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := tt.cfg
			cfg.MaxWorkers = 1
			p := newPool(t, cfg)
			ctx := context.Background()
			res, err := p.Execute(ctx, protocol.ExecuteRequest{
				Code: `async () => { return { pid: () => proc.pid() } }`, RetainHandles: true})
			if err != nil || res.ExecutionID == "" {
				t.Fatalf("%+v %v", res, err)
			}
			inv, err := p.InvokeHandle(ctx, res.ExecutionID, "pid", "")
			pid := mustPID(t, inv, err)
			if tt.kill {
				proc, _ := os.FindProcess(pid)
				_ = proc.Kill()
			}
			// Polling with invocations would keep it alive: watch the
			// pool instead.
			eventually(t, "the execution is released", func() bool {
				for _, w := range p.Workers() {
					if w.Retained > 0 {
						return false
					}
				}
				return true
			})
			_, err = p.InvokeHandle(ctx, res.ExecutionID, "pid", "")
			wantErrCode(t, err, protocol.CodeUnknownExecution)
			wantErrCode(t, p.CloseHandles(ctx, res.ExecutionID), protocol.CodeUnknownExecution)
			if tt.cfg.RetireAfterExecutions == 1 || tt.kill {
				eventually(t, "its worker exits", func() bool { return !hasPID(p, pid) })
			} else if !hasPID(p, pid) {
				t.Fatal("a worker that is not retired exited")
			}
		})
	}
}

// TestCancel: cancelling a run's context cancels it in its worker (and
// the context of its tool calls); cancelling one waiting for a slot
// ends its wait.
func TestCancel(t *testing.T) {
	t.Parallel()
	p := newPool(t, Config{MaxWorkers: 1})
	toolCtxDone := make(chan struct{})
	h := newHost(map[string]func(context.Context, string) string{
		"hold": func(ctx context.Context, _ string) string {
			<-ctx.Done()
			close(toolCtxDone)
			return protocol.ExecutionCompletedEnvelope
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	ch := goExecute(ctx, p, protocol.ExecuteRequest{Code: `async () => { await store.hold(); return 1 }`,
		Providers: storeProvider("hold"), Dispatch: h.dispatch})
	h.await(t, "hold")

	// The only slot is taken: this one waits, then gives up.
	waitCtx, waitCancel := context.WithCancel(context.Background())
	queued := goExecute(waitCtx, p, protocol.ExecuteRequest{Code: `async () => { return 2 }`})
	waitCancel()
	o := recv(t, queued)
	wantCode(t, o.res, o.err, protocol.CodeCancelled, "")

	cancel()
	o = recv(t, ch)
	wantCode(t, o.res, o.err, protocol.CodeCancelled, "")
	<-toolCtxDone
	res, err := p.Execute(context.Background(), protocol.ExecuteRequest{Code: `async () => { return 3 }`})
	if got := mustValue(t, res, err); got != "3" {
		t.Fatalf("after a cancel: %s", got)
	}
	if n := len(p.Workers()); n != 1 {
		t.Fatalf("%d workers: a cancel replaced the worker", n)
	}
}

// TestSuspendResume: closing Suspend while a run waits on a tool saves
// it; a new pool resumes the state to the end.
func TestSuspendResume(t *testing.T) {
	t.Parallel()
	code := `async () => { const a = await store.first(); const b = await store.second(); return a + b }`
	providers := storeProvider("first", "second")
	h1 := newHost(map[string]func(context.Context, string) string{
		"first":  func(context.Context, string) string { return `{"result":1}` },
		"second": holdTool,
	})
	suspend := make(chan struct{})
	p1 := newPool(t, Config{MaxWorkers: 1})
	ch := goExecute(context.Background(), p1, protocol.ExecuteRequest{Code: code, Providers: providers,
		Dispatch: h1.dispatch, Suspend: suspend})
	h1.await(t, "first")
	h1.await(t, "second")
	close(suspend)
	o := recv(t, ch)
	wantCode(t, o.res, o.err, protocol.CodeSuspended, "")
	if len(o.res.State) == 0 {
		t.Fatal("a suspended result without a state")
	}
	p1.Close()

	p2 := newPool(t, Config{MaxWorkers: 1})
	h2 := newHost(map[string]func(context.Context, string) string{
		"second": func(context.Context, string) string { return `{"result":41}` },
	})
	res, err := p2.Resume(context.Background(), protocol.ResumeRequest{State: o.res.State, Providers: providers,
		Dispatch: h2.dispatch})
	if got := mustValue(t, res, err); got != "42" {
		t.Fatalf("resumed: %s", got)
	}
}

// TestClose: Close answers the runs in flight SHUTTING_DOWN, reaps
// every worker and leaves no goroutine behind; later calls fail.
func TestClose(t *testing.T) {
	base := runtime.NumGoroutine()
	p, err := New(testConfig(Config{MaxWorkers: 2}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	h := newHost(map[string]func(context.Context, string) string{"hold": holdTool})
	x, err := p.Execute(ctx, protocol.ExecuteRequest{Code: `async () => { return { f: () => 1 } }`, RetainHandles: true})
	if err != nil || x.ExecutionID == "" {
		t.Fatalf("%+v %v", x, err)
	}
	var runs []<-chan outcome
	for range 2 {
		runs = append(runs, goExecute(ctx, p, protocol.ExecuteRequest{Code: `async () => { await store.hold(proc.pid()) }`,
			Providers: storeProvider("hold"), Dispatch: h.dispatch}))
		h.await(t, "hold")
	}
	// A third waits for a slot.
	queued := goExecute(ctx, p, protocol.ExecuteRequest{Code: `async () => { return 1 }`})
	var pids []int
	for _, w := range p.Workers() {
		pids = append(pids, w.PID)
	}
	if len(pids) != 2 {
		t.Fatalf("workers %+v", p.Workers())
	}

	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	for _, ch := range runs {
		o := recv(t, ch)
		wantCode(t, o.res, o.err, protocol.CodeShuttingDown, "")
	}
	o := recv(t, queued)
	wantErrCode(t, o.err, protocol.CodeShuttingDown)
	if ws := p.Workers(); len(ws) != 0 {
		t.Fatalf("workers after Close: %+v", ws)
	}
	for _, pid := range pids {
		if processAlive(pid) {
			t.Fatalf("worker %d still exists after Close", pid)
		}
	}
	_, err = p.Execute(ctx, protocol.ExecuteRequest{Code: `async () => { return 1 }`})
	wantErrCode(t, err, protocol.CodeShuttingDown)
	_, err = p.Resume(ctx, protocol.ResumeRequest{State: []byte("x")})
	wantErrCode(t, err, protocol.CodeShuttingDown)
	_, err = p.InvokeHandle(ctx, x.ExecutionID, "f", "")
	wantErrCode(t, err, protocol.CodeShuttingDown)
	wantErrCode(t, p.CloseHandles(ctx, x.ExecutionID), protocol.CodeShuttingDown)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	goroutinesSettle(t, base)
}

// processAlive reports whether pid names a process (zombies included):
// after Close every worker must have been reaped.
func processAlive(pid int) bool {
	proc, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return proc.Signal(syscall.Signal(0)) == nil
}

// TestManyRuns runs many programs with tool calls at once on a small
// pool, retiring workers as it goes.
func TestManyRuns(t *testing.T) {
	t.Parallel()
	p := newPool(t, Config{MaxWorkers: 2, ExecutionsPerWorker: 3, RetireAfterExecutions: 7})
	h := newHost(map[string]func(context.Context, string) string{
		"echo": func(_ context.Context, args string) string { return `{"result":` + args + `}` },
	})
	go func() {
		for range h.arrivals {
		}
	}()
	defer close(h.arrivals)
	const n = 40
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := p.Execute(context.Background(), protocol.ExecuteRequest{
				Code:      fmt.Sprintf(`async () => { const [a] = await store.echo(%d); const [b] = await store.echo(a + 1); return b }`, i),
				Providers: storeProvider("echo"), Dispatch: h.dispatch,
			})
			if err == nil && (res.Error != nil || string(res.Result) != strconv.Itoa(i+1)) {
				err = fmt.Errorf("run %d: %s %+v", i, res.Result, res.Error)
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestConfig: New refuses a config without a command, and a command
// that does not start fails the run with INTERNAL.
func TestConfig(t *testing.T) {
	t.Parallel()
	if _, err := New(Config{}); err == nil {
		t.Fatal("New without a command")
	}
	p, err := New(Config{Command: []string{"/nonexistent/codemode-worker"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	_, err = p.Execute(context.Background(), protocol.ExecuteRequest{Code: `async () => { return 1 }`})
	wantErrCode(t, err, protocol.CodeInternal)
	if ws := p.Workers(); len(ws) != 0 {
		t.Fatalf("workers %+v", ws)
	}

	// A worker that exits as it starts fails the run, either before
	// the run was given to it or after.
	var crashes counter
	cfg := testConfig(Config{OnCrash: crashes.inc})
	cfg.Env = append(os.Environ(), workerEnv+"=exit")
	q, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	for range 3 {
		res, err := q.Execute(context.Background(), protocol.ExecuteRequest{Code: `async () => { return 1 }`})
		if code := protocol.CodeOf(err); code != protocol.CodeInternal &&
			(err != nil || res.Error == nil || res.Error.Code != protocol.CodeWorkerCrashed) {
			t.Fatalf("a worker that does not start: %+v %v", res, err)
		}
	}
	q.Close()
	if crashes.load() != 3 {
		t.Fatalf("%d crashes, want 3", crashes.load())
	}
}
