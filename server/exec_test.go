package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/go-codemode/codemode/protocol"
)

func TestExecuteAnswers(t *testing.T) {
	ret := func(res protocol.ExecuteResult, err error) program {
		return func(context.Context, protocol.ExecuteRequest) (protocol.ExecuteResult, error) { return res, err }
	}
	logs := []protocol.LogLine{{Level: "log", Text: "2 users"}}
	tests := []struct {
		name      string
		cfg       Config
		prog      program
		providers []protocol.ProviderDescriptor
		want      string // the answer, its id "e1"
		metric    string // the outcome counted
	}{
		{name: "value and logs", prog: ret(protocol.ExecuteResult{Result: json.RawMessage(`["ada-lovelace"]`), Logs: logs}, nil),
			want: `{"type":"result","id":"e1","resultJson":["ada-lovelace"],"logs":[{"level":"log","text":"2 users"}]}`, metric: "ok"},
		{name: "undefined", prog: ret(protocol.ExecuteResult{}, nil), want: `{"type":"result","id":"e1"}`, metric: "ok"},
		{name: "program failure", prog: ret(protocol.ExecuteResult{Error: &protocol.Error{Message: "TypeError: x"}, Logs: logs}, nil),
			want: `{"type":"result","id":"e1","error":{"message":"TypeError: x"},"logs":[{"level":"log","text":"2 users"}]}`, metric: "error"},
		{name: "worker crashed", prog: ret(protocol.ExecuteResult{}, protocol.NewError(protocol.CodeWorkerCrashed, "the worker died")),
			want: `{"type":"result","id":"e1","error":{"code":"WORKER_CRASHED","message":"the worker died"}}`, metric: "crashed"},
		{name: "backend queue overflow", prog: ret(protocol.ExecuteResult{}, protocol.NewError(protocol.CodeQueueOverflow, "full")),
			want: `{"type":"error","id":"e1","code":"QUEUE_OVERFLOW","message":"full"}`, metric: "rejected"},
		{name: "backend error without a code", prog: ret(protocol.ExecuteResult{}, errors.New("disk on fire")),
			want: `{"type":"result","id":"e1","error":{"code":"INTERNAL","message":"disk on fire"}}`, metric: "internal"},
		{name: "backend panic", prog: func(context.Context, protocol.ExecuteRequest) (protocol.ExecuteResult, error) { panic("oops") },
			want: `{"type":"result","id":"e1","error":{"code":"INTERNAL","message":"the backend panicked: oops"}}`, metric: "internal"},
		{name: "unencodable result", prog: ret(protocol.ExecuteResult{Result: json.RawMessage(`1`), Error: &protocol.Error{Message: "both"}}, nil),
			want:   `{"type":"result","id":"e1","error":{"code":"INTERNAL","message":"the backend's result cannot be encoded: message cannot be encoded: a result has both \"resultJson\" and \"error\""}}`,
			metric: "internal"},
		{name: "value over the payload limit", prog: ret(protocol.ExecuteResult{Error: protocol.NewError(protocol.CodePayloadTooLarge, "too big")}, nil),
			want: `{"type":"result","id":"e1","error":{"code":"PAYLOAD_TOO_LARGE","message":"too big"}}`, metric: "too_large"},
		{name: "result over the response limit", cfg: Config{ResponseLimit: 100},
			prog:   ret(protocol.ExecuteResult{Result: json.RawMessage(`"` + strings.Repeat("x", 100) + `"`)}, nil),
			want:   `{"type":"result","id":"e1","error":{"code":"PAYLOAD_TOO_LARGE","message":"the result is 143 bytes, over the server's response limit of 100 bytes"}}`,
			metric: "too_large"},
		{name: "result over the frame limit", cfg: Config{MaxFrameBytes: 200},
			prog:   ret(protocol.ExecuteResult{Result: json.RawMessage(`"` + strings.Repeat("x", 200) + `"`)}, nil),
			want:   `{"type":"result","id":"e1","error":{"code":"PAYLOAD_TOO_LARGE","message":"the result is 243 bytes, over the frame limit of 200 bytes"}}`,
			metric: "too_large"},
		{name: "reserved provider", prog: ret(value(`1`), nil), providers: []protocol.ProviderDescriptor{{Name: "tools"}},
			want: `{"type":"result","id":"e1","error":{"code":"INVALID_REQUEST","message":"Provider name \"tools\" is reserved"}}`, metric: "invalid"},
		{name: "duplicate provider", prog: ret(value(`1`), nil),
			providers: []protocol.ProviderDescriptor{{Name: "store"}, {Name: "store"}},
			want:      `{"type":"result","id":"e1","error":{"code":"INVALID_REQUEST","message":"Duplicate provider name \"store\""}}`, metric: "invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.cfg, newBackend().on("p", tt.prog))
			c := h.connect()
			c.send(&protocol.ExecuteMessage{ID: "e1", Code: "p", Providers: tt.providers})
			got, err := protocol.Encode(c.recv())
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("answer\n got %s\nwant %s", got, tt.want)
			}
			series := fmt.Sprintf(`codemode_executions_total{kind="execute",outcome=%q}`, tt.metric)
			if v, _ := h.metric(series); v != 1 {
				t.Errorf("%s = %v, want 1", series, v)
			}
		})
	}
}

func TestRequestToBackend(t *testing.T) {
	yes := true
	tests := []struct {
		name     string
		cfg      Config
		opts     protocol.ExecuteOptions
		timeout  time.Duration
		outbound protocol.OutboundMode
		fetch    bool
	}{
		{name: "defaults", timeout: time.Minute, outbound: protocol.OutboundDisabled},
		{name: "server default timeout", cfg: Config{DefaultTimeout: time.Second}, timeout: time.Second, outbound: protocol.OutboundDisabled},
		{name: "explicit timeout", opts: protocol.ExecuteOptions{Timeout: protocol.TimeoutMillis(5000)}, timeout: 5 * time.Second,
			outbound: protocol.OutboundDisabled},
		{name: "capped timeout", cfg: Config{MaxTimeout: 2 * time.Second}, opts: protocol.ExecuteOptions{Timeout: protocol.TimeoutMillis(5000)},
			timeout: 2 * time.Second, outbound: protocol.OutboundDisabled},
		{name: "null timeout", opts: protocol.ExecuteOptions{Timeout: protocol.UnboundedTimeout()},
			timeout: protocol.MaxSupportedTimeout, outbound: protocol.OutboundDisabled},
		{name: "null timeout, capped", cfg: Config{MaxTimeout: time.Hour}, opts: protocol.ExecuteOptions{Timeout: protocol.UnboundedTimeout()},
			timeout: time.Hour, outbound: protocol.OutboundDisabled},
		{name: "default outbound", cfg: Config{OutboundDefault: protocol.OutboundNative}, timeout: time.Minute, outbound: protocol.OutboundNative},
		{name: "native", opts: protocol.ExecuteOptions{Outbound: protocol.OutboundNative}, timeout: time.Minute, outbound: protocol.OutboundNative},
		{name: "native vetoed", cfg: Config{ForbidNative: true}, opts: protocol.ExecuteOptions{Outbound: protocol.OutboundNative},
			timeout: time.Minute, outbound: protocol.OutboundDisabled},
		{name: "stub", opts: protocol.ExecuteOptions{Outbound: protocol.OutboundStub}, timeout: time.Minute,
			outbound: protocol.OutboundStub, fetch: true},
		{name: "flags", opts: protocol.ExecuteOptions{CountHostWaits: true, RetainHandles: true}, timeout: time.Minute,
			outbound: protocol.OutboundDisabled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			be := newBackend().on("p", func(context.Context, protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
				return value("1"), nil
			})
			h := newHarness(t, tt.cfg, be)
			c := h.connect()
			msg := &protocol.ExecuteMessage{ID: "e1", Code: "p", Options: tt.opts,
				Providers: []protocol.ProviderDescriptor{{Name: "store", Tools: []string{"get"}, PositionalArgs: &yes}},
				Modules:   protocol.ModuleMap{"helpers": protocol.JSModule("export const x = 1")}}
			c.send(msg)
			c.expectResult("e1")
			req := be.lastRequest(t)
			if got := req.Timeout.Resolve(1, 1<<62); got != tt.timeout {
				t.Errorf("timeout %v, want %v", got, tt.timeout)
			}
			if req.Outbound != tt.outbound {
				t.Errorf("outbound %q, want %q", req.Outbound, tt.outbound)
			}
			if (req.Fetch != nil) != tt.fetch {
				t.Errorf("fetch given: %v, want %v", req.Fetch != nil, tt.fetch)
			}
			if req.Dispatch == nil || req.Suspend == nil {
				t.Error("no Dispatch or no Suspend")
			}
			if req.CountHostWaits != tt.opts.CountHostWaits || req.RetainHandles != tt.opts.RetainHandles {
				t.Errorf("flags %v %v, want %v %v", req.CountHostWaits, req.RetainHandles, tt.opts.CountHostWaits, tt.opts.RetainHandles)
			}
			if len(req.Providers) != 1 || req.Providers[0].Name != "store" || req.Modules["helpers"].Source != "export const x = 1" {
				t.Errorf("providers %+v, modules %+v", req.Providers, req.Modules)
			}
		})
	}
}

func TestStubForbidden(t *testing.T) {
	h := newHarness(t, Config{ForbidStub: true}, newBackend().on("ping", pingProgram))
	c := h.connect()
	c.execute("e1", "p", protocol.ExecuteOptions{Outbound: protocol.OutboundStub})
	e := c.expectError("e1", protocol.CodeProtocolMismatch)
	if !strings.Contains(e.Message, `"stub" is forbidden`) {
		t.Errorf("message %q", e.Message)
	}
	c.silent() // the connection stays open
}

// dispatcher calls the tools named in its code ("tools:a,b,c") at once
// and returns their envelopes in order.
func dispatchProgram(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
	_, list, _ := strings.Cut(req.Code, ":")
	tools := strings.Split(list, ",")
	envs := make([]string, len(tools))
	var wg sync.WaitGroup
	for i, tool := range tools {
		wg.Go(func() { envs[i] = req.Dispatch(ctx, "store", tool, fmt.Sprintf("[%d]", i)) })
	}
	wg.Wait()
	out, _ := json.Marshal(envs)
	return protocol.ExecuteResult{Result: out}, nil
}

func TestDispatch(t *testing.T) {
	be := newBackend().on("tools:a,b,c", dispatchProgram).on("tools:a", dispatchProgram).on("ping", pingProgram)
	h := newHarness(t, Config{}, be)
	c := h.connect()
	c.execute("e1", "tools:a,b,c", protocol.ExecuteOptions{})
	calls := map[string]*protocol.DispatchMessage{}
	for range 3 {
		d := expect[*protocol.DispatchMessage](c)
		if d.ID != "e1" || d.Provider != "store" || calls[d.CallID] != nil {
			t.Fatalf("dispatch %+v", d)
		}
		calls[d.CallID] = d
	}
	// Answered in an order of their own: by tool name, backwards.
	for _, tool := range []string{"c", "b", "a"} {
		for _, d := range calls {
			if d.Tool == tool {
				c.send(&protocol.DispatchResultMessage{ID: "e1", CallID: d.CallID,
					Envelope: fmt.Sprintf(`{"result":{"tool":%q,"args":%s}}`, d.Tool, d.Args)})
			}
		}
	}
	r := c.expectResult("e1")
	want := `["{\"result\":{\"tool\":\"a\",\"args\":[0]}}","{\"result\":{\"tool\":\"b\",\"args\":[1]}}","{\"result\":{\"tool\":\"c\",\"args\":[2]}}"]`
	if string(r.ResultJSON) != want {
		t.Fatalf("result %s\nwant %s", r.ResultJSON, want)
	}

	// Answers nobody waits for are dropped without a reply: late, unknown,
	// of another id, of the wrong kind.
	for _, d := range calls {
		c.send(&protocol.DispatchResultMessage{ID: "e1", CallID: d.CallID, Envelope: `{"result":1}`})
	}
	c.send(&protocol.DispatchResultMessage{ID: "e1", CallID: "nope", Envelope: `{"error":"x"}`})
	c.send(&protocol.FetchResultMessage{ID: "e1", CallID: "nope", Error: "x"})
	c.silent()

	// A second run gets callIds of its own; answers of the wrong id or
	// kind do not settle its call.
	c.execute("e2", "tools:a", protocol.ExecuteOptions{})
	d := expect[*protocol.DispatchMessage](c)
	if calls[d.CallID] != nil {
		t.Fatalf("callId %q reused", d.CallID)
	}
	c.send(&protocol.DispatchResultMessage{ID: "e1", CallID: d.CallID, Envelope: `{"result":"wrong id"}`})
	c.send(&protocol.FetchResultMessage{ID: "e2", CallID: d.CallID, Error: "wrong kind"})
	c.send(&protocol.DispatchResultMessage{ID: "e2", CallID: d.CallID, Envelope: `{"error":"no such user"}`})
	if r := c.expectResult("e2"); string(r.ResultJSON) != `["{\"error\":\"no such user\"}"]` {
		t.Fatalf("result %s", r.ResultJSON)
	}

	// A malformed envelope is a malformed message.
	c.execute("e3", "tools:a", protocol.ExecuteOptions{})
	d = expect[*protocol.DispatchMessage](c)
	c.sendRaw(fmt.Sprintf(`{"type":"dispatchResult","id":"e3","callId":%q,"envelope":"{\"nope\":1}"}`, d.CallID))
	c.expectError("e3", protocol.CodeMalformedMessage)
	c.send(&protocol.DispatchResultMessage{ID: "e3", CallID: d.CallID, Envelope: `{"result":null}`})
	if r := c.expectResult("e3"); string(r.ResultJSON) != `["{\"result\":null}"]` {
		t.Fatalf("result %s", r.ResultJSON)
	}
	if v, _ := h.metric(`codemode_dispatch_duration_seconds_count{type="dispatch"}`); v != 5 {
		t.Errorf("dispatch round trips counted: %v, want 5", v)
	}
}

func TestFetch(t *testing.T) {
	be := newBackend().on("fetch", func(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
		resp, err := req.Fetch(ctx, protocol.OutboundRequest{Method: "POST", URL: "https://api.example/v1/x",
			Headers: [][2]string{{"content-type", "application/json"}}, Body: []byte(`{"a":1}`)})
		if err != nil {
			return protocol.ExecuteResult{}, err
		}
		_, err2 := req.Fetch(ctx, protocol.OutboundRequest{Method: "GET", URL: "https://down.example/"})
		out, _ := json.Marshal([]any{resp.Status, string(resp.Body), resp.URL, err2.Error()})
		return protocol.ExecuteResult{Result: out}, nil
	})
	h := newHarness(t, Config{OutboundDefault: protocol.OutboundStub}, be)
	c := h.connect()
	c.execute("e1", "fetch", protocol.ExecuteOptions{})
	f := expect[*protocol.FetchMessage](c)
	if f.ID != "e1" || f.Request.Method != "POST" || string(f.Request.Body) != `{"a":1}` || !strings.HasPrefix(f.CallID, "f") {
		t.Fatalf("fetch %+v", f)
	}
	c.send(&protocol.FetchResultMessage{ID: "e1", CallID: f.CallID, Response: &protocol.OutboundResponse{
		Status: 200, StatusText: "OK", Body: []byte(`{"ok":true}`), URL: "https://api.example/v1/x"}})
	f = expect[*protocol.FetchMessage](c)
	c.send(&protocol.FetchResultMessage{ID: "e1", CallID: f.CallID, Error: "connection refused"})
	r := c.expectResult("e1")
	if want := `[200,"{\"ok\":true}","https://api.example/v1/x","connection refused"]`; string(r.ResultJSON) != want {
		t.Fatalf("result %s, want %s", r.ResultJSON, want)
	}
	if v, _ := h.metric(`codemode_dispatch_duration_seconds_count{type="fetch"}`); v != 2 {
		t.Errorf("fetch round trips counted: %v, want 2", v)
	}
}

// callOnce dispatches one call and records what Dispatch returned.
type callOnce struct {
	returned chan string
}

func (p *callOnce) run(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
	env := req.Dispatch(ctx, "store", "get", "[1]")
	p.returned <- env
	if ctx.Err() != nil {
		return protocol.ExecuteResult{Error: protocol.NewError(protocol.CodeCancelled, "cancelled")}, nil
	}
	return protocol.ExecuteResult{Result: json.RawMessage(env)}, nil
}

func (p *callOnce) wait(t *testing.T) string {
	t.Helper()
	select {
	case env := <-p.returned:
		return env
	case <-time.After(wait):
		t.Fatal("the dispatch did not return")
	}
	return ""
}

func TestCancel(t *testing.T) {
	call := &callOnce{returned: make(chan string, 1)}
	slow := newBlocker()
	be := newBackend().on("call", call.run).on("slow", slow.run).on("ping", pingProgram)
	h := newHarness(t, Config{MaxWorkers: 1}, be)
	c := h.connect()

	c.execute("e1", "call", protocol.ExecuteOptions{})
	d := expect[*protocol.DispatchMessage](c)
	c.send(&protocol.CancelMessage{ID: "e1"})
	if env := call.wait(t); env != protocol.ExecutionCompletedEnvelope {
		t.Errorf("the cancelled run's dispatch returned %s", env)
	}
	r := c.expectResultCode("e1", protocol.CodeCancelled)
	if r.ResultJSON != nil {
		t.Errorf("a cancelled run with a value: %s", r.ResultJSON)
	}
	c.send(&protocol.DispatchResultMessage{ID: "e1", CallID: d.CallID, Envelope: `{"result":1}`}) // late: dropped
	c.send(&protocol.CancelMessage{ID: "e1"})                                                     // not running: ignored
	c.send(&protocol.CancelMessage{ID: "nothing"})
	c.silent()

	// Cancelling a request waiting in the queue.
	c.execute("busy", "slow", protocol.ExecuteOptions{})
	slow.waitStart(t)
	c.execute("queued", "ping", protocol.ExecuteOptions{})
	eventually(t, "queued", func() bool { v, _ := h.metric("codemode_queue_depth"); return v == 1 })
	c.send(&protocol.CancelMessage{ID: "queued"})
	c.expectResultCode("queued", protocol.CodeCancelled)
	close(slow.release)
	c.expectResult("busy")
}

func TestBackendIgnoresCancel(t *testing.T) {
	stubborn := newBlocker()
	stubborn.ignoreCx = true
	h := newHarness(t, Config{TerminationDelay: time.Millisecond}, newBackend().on("stubborn", stubborn.run).on("ping", pingProgram))
	c := h.connect()
	c.execute("e1", "stubborn", protocol.ExecuteOptions{})
	stubborn.waitStart(t)
	c.send(&protocol.CancelMessage{ID: "e1"})
	r := c.expectResultCode("e1", protocol.CodeCancelled) // answered for the backend
	if r.Error.Message != errCancelled.Message {
		t.Errorf("message %q", r.Error.Message)
	}
	close(stubborn.release)
	if cause := stubborn.waitEnd(t); !errors.Is(cause, errCancelled) {
		t.Errorf("the backend's context ended with %v", cause)
	}
	c.silent() // the late result went nowhere
}

func TestReusedID(t *testing.T) {
	b := newBlocker()
	h := newHarness(t, Config{}, newBackend().on("block", b.run).on("ping", pingProgram))
	c := h.connect()
	c.execute("e1", "block", protocol.ExecuteOptions{})
	b.waitStart(t)
	for _, m := range []protocol.Message{
		&protocol.ExecuteMessage{ID: "e1", Code: "ping"},
		&protocol.ResumeMessage{ID: "e1", State: []byte("x")},
		&protocol.InvokeHandleMessage{ID: "e1", ExecutionID: "x", Handle: "f"},
		&protocol.CloseHandlesMessage{ID: "e1", ExecutionID: "x"},
	} {
		c.send(m)
		e := c.expectError("e1", protocol.CodeMalformedMessage)
		if !strings.Contains(e.Message, "already in flight") {
			t.Errorf("message %q", e.Message)
		}
	}
	close(b.release)
	if r := c.expectResult("e1"); string(r.ResultJSON) != `"released"` {
		t.Fatalf("result %s", r.ResultJSON)
	}
	c.execute("e1", "ping", protocol.ExecuteOptions{}) // free again
	c.expectResult("e1")
}

func TestQueue(t *testing.T) {
	b := newBlocker()
	var mu sync.Mutex
	var order []string
	record := func(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
		mu.Lock()
		order = append(order, req.Code)
		mu.Unlock()
		return value("1"), nil
	}
	be := newBackend().on("block", b.run).on("q1", record).on("q2", record)
	h := newHarness(t, Config{MaxWorkers: 1, ExecutionsPerWorker: 1, MaxQueue: 2}, be)
	if v, _ := h.metric("codemode_execution_slots"); v != 1 {
		t.Errorf("slots %v", v)
	}
	c := h.connect()
	c.execute("e1", "block", protocol.ExecuteOptions{})
	b.waitStart(t)
	c.execute("e2", "q1", protocol.ExecuteOptions{})
	eventually(t, "one waits", func() bool { v, _ := h.metric("codemode_queue_depth"); return v == 1 })
	c.execute("e3", "q2", protocol.ExecuteOptions{})
	eventually(t, "two wait", func() bool { v, _ := h.metric("codemode_queue_depth"); return v == 2 })
	if v, _ := h.metric("codemode_executions_active"); v != 1 {
		t.Errorf("active %v, want 1", v)
	}
	c.execute("e4", "q2", protocol.ExecuteOptions{})
	e := c.expectError("e4", protocol.CodeQueueOverflow)
	if !strings.Contains(e.Message, "--max-queue") || !strings.Contains(e.Message, "retry later") {
		t.Errorf("message %q", e.Message)
	}
	close(b.release)
	got := map[string]bool{}
	for range 3 {
		got[expect[*protocol.ResultMessage](c).ID] = true
	}
	if len(got) != 3 {
		t.Fatalf("results %v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(order, ",") != "q1,q2" {
		t.Errorf("started %v, want q1 then q2", order)
	}
}

func TestNoQueue(t *testing.T) {
	b := newBlocker()
	h := newHarness(t, Config{MaxWorkers: 2, MaxQueue: -1}, newBackend().on("block", b.run))
	c := h.connect()
	c.execute("e1", "block", protocol.ExecuteOptions{})
	c.execute("e2", "block", protocol.ExecuteOptions{})
	b.waitStart(t)
	b.waitStart(t)
	c.execute("e3", "block", protocol.ExecuteOptions{})
	c.expectError("e3", protocol.CodeQueueOverflow)
	close(b.release)
	expect[*protocol.ResultMessage](c)
	expect[*protocol.ResultMessage](c)
}

func TestTimeoutWatchdog(t *testing.T) {
	stubborn := newBlocker()
	stubborn.ignoreCx = true
	retain := func(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
		stubborn.run(ctx, req)
		return protocol.ExecuteResult{Result: json.RawMessage(`{}`), ExecutionID: "x-late", Handles: []string{"f"}}, nil
	}
	be := newBackend().on("stubborn", retain).on("ping", pingProgram)
	h := newHarness(t, Config{Grace: time.Millisecond, TerminationDelay: time.Millisecond}, be)
	c := h.connect()
	c.execute("e1", "stubborn", protocol.ExecuteOptions{Timeout: protocol.TimeoutMillis(20)})
	stubborn.waitStart(t)
	r := c.expectResultCode("e1", protocol.CodeTimeout)
	if want := "Execution timed out after 20ms."; r.Error.Message != want {
		t.Errorf("message %q, want %q", r.Error.Message, want)
	}
	close(stubborn.release)
	var timeout *protocol.Error
	if cause := stubborn.waitEnd(t); !errors.As(cause, &timeout) || timeout.Code != protocol.CodeTimeout {
		t.Errorf("the backend's context ended with %v", cause)
	}
	// The execution it retained after the server gave up is released.
	select {
	case id := <-be.closed:
		if id != "x-late" {
			t.Errorf("closed %q", id)
		}
	case <-time.After(wait):
		t.Fatal("the late retained execution was not released")
	}
	c.silent()
	if v, _ := h.metric(`codemode_executions_total{kind="execute",outcome="timeout"}`); v != 1 {
		t.Errorf("timeouts counted %v", v)
	}
}

func TestWatchdogAndHostWaits(t *testing.T) {
	call := &callOnce{returned: make(chan string, 1)}
	h := newHarness(t, Config{Grace: time.Millisecond, TerminationDelay: time.Millisecond},
		newBackend().on("call", call.run))
	c := h.connect()

	// countHostWaits false: waiting on the client does not count.
	c.execute("e1", "call", protocol.ExecuteOptions{Timeout: protocol.TimeoutMillis(100)})
	d := expect[*protocol.DispatchMessage](c)
	time.Sleep(250 * time.Millisecond) // over twice the whole bound
	c.send(&protocol.DispatchResultMessage{ID: "e1", CallID: d.CallID, Envelope: `{"result":7}`})
	if r := c.expectResult("e1"); r.Error != nil || string(r.ResultJSON) != `{"result":7}` {
		t.Fatalf("result %+v %+v", r, r.Error)
	}
	call.wait(t)

	// countHostWaits true: it does.
	c.execute("e2", "call", protocol.ExecuteOptions{Timeout: protocol.TimeoutMillis(5), CountHostWaits: true})
	expect[*protocol.DispatchMessage](c)
	c.expectResultCode("e2", protocol.CodeTimeout)
	if env := call.wait(t); env != protocol.ExecutionCompletedEnvelope {
		t.Errorf("the timed out run's dispatch returned %s", env)
	}
}

func TestMalformedFrames(t *testing.T) {
	tests := []struct {
		name  string
		frame string
		id    string
		text  string
	}{
		{"not JSON", `{"type":`, "", "not valid JSON"},
		{"not an object", `[1,2]`, "", "not a JSON object"},
		{"no type", `{"id":"x"}`, "x", `"type" is missing`},
		{"unknown type", `{"type":"bogus","id":"x"}`, "x", `unknown message type "bogus"`},
		{"missing field", `{"type":"execute","id":"e1"}`, "e1", `"code" is missing`},
		{"unknown field", `{"type":"execute","id":"e1","code":"x","extra":1}`, "e1", `unknown field "extra"`},
		{"wrong type", `{"type":"cancel","id":7}`, "", `"id" must be a string`},
		{"key twice", `{"type":"cancel","id":"a","id":"b"}`, "b", `key "id" appears twice`},
		{"trailing data", `{"type":"cancel","id":"a"} {}`, "", "trailing data"},
		{"bad timeout", `{"type":"execute","id":"e1","code":"x","options":{"timeout":0}}`, "e1", "timeout must be a positive"},
		{"bad outbound", `{"type":"execute","id":"e1","code":"x","options":{"outbound":"magic"}}`, "e1", "outbound modes"},
		{"empty executionId", `{"type":"invokeHandle","id":"i1","executionId":"","handle":"f"}`, "i1", "must not be empty"},
		{"result from a client", `{"type":"result","id":"r1"}`, "r1", "from the server to the client"},
		{"dispatch from a client", `{"type":"dispatch","id":"e1","callId":"c1","provider":"p","tool":"t","args":""}`, "e1",
			"from the server to the client"},
		{"helloAck from a client", `{"type":"helloAck","id":"h","version":1}`, "h", "from the server to the client"},
		{"error from a client", `{"type":"error","id":"x","code":"INTERNAL","message":"m"}`, "x", "from the server to the client"},
		{"fetch result with both", `{"type":"fetchResult","id":"e1","callId":"f1","error":"x","response":{"status":200}}`, "e1",
			"exactly one"},
	}
	h := newHarness(t, Config{}, newBackend().on("ping", pingProgram))
	c := h.connect()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			c.sendRaw(tt.frame)
			e := c.expectError(tt.id, protocol.CodeMalformedMessage)
			if !strings.Contains(e.Message, tt.text) {
				t.Errorf("message %q, want it to contain %q", e.Message, tt.text)
			}
		})
	}
	c.t = t
	if err := c.ws.Write(context.Background(), websocket.MessageBinary, []byte(`{"type":"cancel","id":"a"}`)); err != nil {
		t.Fatal(err)
	}
	if e := c.expectError("", protocol.CodeMalformedMessage); !strings.Contains(e.Message, "binary") {
		t.Errorf("binary frame: %q", e.Message)
	}
	c.silent() // the connection is still open
}

func TestOversizedFrame(t *testing.T) {
	b := newBlocker()
	h := newHarness(t, Config{MaxFrameBytes: 1024}, newBackend().on("block", b.run))
	c := h.connect()
	c.execute("e1", "block", protocol.ExecuteOptions{})
	b.waitStart(t)
	c.sendRaw(`{"type":"execute","id":"big","code":"` + strings.Repeat("x", 2000) + `"}`)
	e := c.expectError("", protocol.CodePayloadTooLarge)
	if !strings.Contains(e.Message, "1024 bytes") {
		t.Errorf("message %q", e.Message)
	}
	c.expectClose(websocket.StatusMessageTooBig)
	if cause := b.waitEnd(t); !errors.Is(cause, errConnClosed) {
		t.Errorf("the run's context ended with %v", cause)
	}
}

func TestHandles(t *testing.T) {
	var n int
	var mu sync.Mutex
	be := newBackend()
	be.on("retain", func(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
		mu.Lock()
		n++
		id := fmt.Sprintf("x-%d", n)
		mu.Unlock()
		return protocol.ExecuteResult{Result: json.RawMessage(`{"ok":true}`), ExecutionID: id,
			Handles: []string{"increment", "nested.reset"}}, nil
	}).on("ping", pingProgram)
	be.invoke = func(ctx context.Context, req protocol.ExecuteRequest, handle, args string) (protocol.ExecuteResult, error) {
		if handle != "increment" {
			return protocol.ExecuteResult{}, protocol.Errorf(protocol.CodeUnknownExecution, "unknown handle %q", handle)
		}
		callCtx := ctx
		if args == `"lost"` { // a backend that loses the invocation's context
			callCtx = context.Background()
		}
		env := req.Dispatch(callCtx, "store", "add", args)
		return protocol.ExecuteResult{Result: json.RawMessage(env)}, nil
	}
	h := newHarness(t, Config{}, be)
	a, b := h.connect(), h.connect()

	a.execute("e1", "retain", protocol.ExecuteOptions{RetainHandles: true})
	r := a.expectResult("e1")
	if r.ExecutionID != "x-1" || strings.Join(r.Handles, ",") != "increment,nested.reset" {
		t.Fatalf("result %+v", r)
	}
	for _, args := range []string{"[5]", `"lost"`} {
		a.send(&protocol.InvokeHandleMessage{ID: "i1", ExecutionID: "x-1", Handle: "increment", Args: args})
		d := expect[*protocol.DispatchMessage](a)
		if d.ID != "i1" || d.Args != args {
			t.Fatalf("the invocation's tool call: %+v", d)
		}
		a.send(&protocol.DispatchResultMessage{ID: "i1", CallID: d.CallID, Envelope: `{"result":6}`})
		if r := a.expectResult("i1"); string(r.ResultJSON) != `{"result":6}` {
			t.Fatalf("invocation result %s", r.ResultJSON)
		}
	}
	a.send(&protocol.InvokeHandleMessage{ID: "i2", ExecutionID: "x-1", Handle: "nope"})
	a.expectError("i2", protocol.CodeUnknownExecution)

	// Another connection does not see it.
	b.send(&protocol.InvokeHandleMessage{ID: "i1", ExecutionID: "x-1", Handle: "increment"})
	b.expectError("i1", protocol.CodeUnknownExecution)
	b.send(&protocol.CloseHandlesMessage{ID: "c1", ExecutionID: "x-1"})
	b.expectError("c1", protocol.CodeUnknownExecution)

	a.send(&protocol.CloseHandlesMessage{ID: "c1", ExecutionID: "x-1"})
	if r := a.expectResult("c1"); r.ResultJSON != nil || r.Error != nil {
		t.Fatalf("closeHandles result %+v", r)
	}
	if id := <-be.closed; id != "x-1" {
		t.Fatalf("closed %q", id)
	}
	a.send(&protocol.InvokeHandleMessage{ID: "i3", ExecutionID: "x-1", Handle: "increment"})
	a.expectError("i3", protocol.CodeUnknownExecution)
	a.send(&protocol.CloseHandlesMessage{ID: "c2", ExecutionID: "x-1"})
	a.expectError("c2", protocol.CodeUnknownExecution)

	// A connection that goes away releases what it retained.
	b.execute("e2", "retain", protocol.ExecuteOptions{RetainHandles: true})
	if r := b.expectResult("e2"); r.ExecutionID != "x-2" {
		t.Fatalf("result %+v", r)
	}
	_ = b.ws.Close(websocket.StatusNormalClosure, "")
	select {
	case id := <-be.closed:
		if id != "x-2" {
			t.Fatalf("closed %q", id)
		}
	case <-time.After(wait):
		t.Fatal("the closed connection's execution was not released")
	}
	a.silent()
}

func TestRetainedOverResponseLimit(t *testing.T) {
	be := newBackend().on("retain", func(context.Context, protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
		return protocol.ExecuteResult{Result: json.RawMessage(`"` + strings.Repeat("x", 100) + `"`), ExecutionID: "x-1",
			Handles: []string{"f"}}, nil
	})
	h := newHarness(t, Config{ResponseLimit: 100}, be)
	c := h.connect()
	c.execute("e1", "retain", protocol.ExecuteOptions{RetainHandles: true})
	c.expectResultCode("e1", protocol.CodePayloadTooLarge)
	if id := <-be.closed; id != "x-1" {
		t.Fatalf("closed %q", id)
	}
	c.send(&protocol.InvokeHandleMessage{ID: "i1", ExecutionID: "x-1", Handle: "f"})
	c.expectError("i1", protocol.CodeUnknownExecution)
}

func TestResume(t *testing.T) {
	be := newBackend()
	be.resume = func(ctx context.Context, req protocol.ResumeRequest) (protocol.ExecuteResult, error) {
		if string(req.State) != "saved" {
			return protocol.ExecuteResult{Error: protocol.NewError(protocol.CodeInvalidRequest,
				"the state cannot be resumed: it was sealed with another key")}, nil
		}
		if req.Suspend == nil || req.Fetch == nil || len(req.Providers) != 1 {
			return protocol.ExecuteResult{}, errors.New("incomplete request")
		}
		env := req.Dispatch(ctx, "store", "get", "[1]")
		return protocol.ExecuteResult{Result: json.RawMessage(`[` + env + `,` +
			fmt.Sprint(req.Timeout.Resolve(1, 1<<62).Milliseconds()) + `]`)}, nil
	}
	h := newHarness(t, Config{}, be)
	c := h.connect()
	c.send(&protocol.ResumeMessage{ID: "r1", State: []byte("saved"),
		Providers: []protocol.ProviderDescriptor{{Name: "store", Tools: []string{"get"}}},
		Options:   protocol.ExecuteOptions{Timeout: protocol.TimeoutMillis(5000)}})
	d := expect[*protocol.DispatchMessage](c)
	if d.ID != "r1" {
		t.Fatalf("dispatch %+v", d)
	}
	c.send(&protocol.DispatchResultMessage{ID: "r1", CallID: d.CallID, Envelope: `{"result":1}`})
	if r := c.expectResult("r1"); string(r.ResultJSON) != `[{"result":1},5000]` {
		t.Fatalf("result %s", r.ResultJSON)
	}
	c.send(&protocol.ResumeMessage{ID: "r2", State: []byte("tampered")})
	c.expectResultCode("r2", protocol.CodeInvalidRequest)
	c.send(&protocol.ResumeMessage{ID: "r3", State: []byte("saved"), Providers: []protocol.ProviderDescriptor{{Name: "class"}}})
	if r := c.expectResultCode("r3", protocol.CodeInvalidRequest); r.Error.Message != `Provider name "class" is a JavaScript reserved word` {
		t.Errorf("message %q", r.Error.Message)
	}
}

func TestDisconnectMidRun(t *testing.T) {
	call := &callOnce{returned: make(chan string, 1)}
	queued := newBlocker()
	be := newBackend().on("call", call.run).on("queued", queued.run)
	h := newHarness(t, Config{MaxWorkers: 1}, be)
	c := h.connect()
	c.execute("e1", "call", protocol.ExecuteOptions{})
	expect[*protocol.DispatchMessage](c)
	c.execute("e2", "queued", protocol.ExecuteOptions{})
	eventually(t, "queued", func() bool { v, _ := h.metric("codemode_queue_depth"); return v == 1 })
	_ = c.ws.CloseNow()
	if env := call.wait(t); env != protocol.ExecutionCompletedEnvelope {
		t.Errorf("the dispatch returned %s", env)
	}
	eventually(t, "no connection", func() bool { v, _ := h.metric("codemode_connections"); return v == 0 })
	if v, _ := h.metric("codemode_queue_depth"); v != 0 {
		t.Errorf("queue depth %v after the disconnect", v)
	}
	if v, _ := h.metric(`codemode_executions_total{kind="execute",outcome="disconnected"}`); v != 2 {
		t.Errorf("disconnected runs counted: %v, want 2", v)
	}
	select {
	case <-queued.started:
		t.Error("the queued run of a gone connection started")
	default:
	}
	checkNoLeaks(t)
}

// smallSendBuffers gives the server's side of every connection a small
// socket send buffer, so that a client that does not read blocks the
// server's writes after a few frames.
type smallSendBuffers struct{ net.Listener }

func (l smallSendBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(4096)
	}
	return c, err
}

func TestSlowClient(t *testing.T) {
	b := newBlocker()
	big := func(context.Context, protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
		return value(`"` + strings.Repeat("x", 256<<10) + `"`), nil
	}
	be := newBackend().on("block", b.run).on("big", big).on("ping", pingProgram)
	h := newHarnessOn(t, Config{SendQueue: 1, WriteTimeout: 50 * time.Millisecond}, be, be,
		func(ln net.Listener) net.Listener { return smallSendBuffers{ln} })

	slow := h.dialOpts(nil, false) // never reads
	slow.send(&protocol.HelloMessage{ID: "h", Version: protocol.Version})
	slow.execute("e0", "block", protocol.ExecuteOptions{})
	b.waitStart(t)
	fast := h.connect()
	for i := range 16 {
		slow.execute(fmt.Sprint(i), "big", protocol.ExecuteOptions{})
	}
	if cause := b.waitEnd(t); !errors.Is(cause, errSlowClient) {
		t.Errorf("the slow client's run ended with %v", cause)
	}
	fast.silent() // the other connection never noticed
}

func TestPings(t *testing.T) {
	b := newBlocker()
	h := newHarness(t, Config{PingInterval: 200 * time.Millisecond}, newBackend().on("block", b.run).on("ping", pingProgram))

	// A client that reads answers the pings and stays.
	c := h.connect()
	c.execute("e1", "block", protocol.ExecuteOptions{})
	b.waitStart(t)
	time.Sleep(500 * time.Millisecond) // two intervals and a half
	close(b.release)
	c.expectResult("e1")
	c.silent()

	// One that does not is dropped, and its runs with it.
	b2 := newBlocker()
	h.be.on("block2", b2.run)
	silent := h.dialOpts(nil, false)
	silent.send(&protocol.HelloMessage{ID: "h", Version: protocol.Version})
	silent.execute("e1", "block2", protocol.ExecuteOptions{})
	b2.waitStart(t)
	if cause := b2.waitEnd(t); !errors.Is(cause, errNoPong) {
		t.Errorf("the silent client's run ended with %v", cause)
	}
}
