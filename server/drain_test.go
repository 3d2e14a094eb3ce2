package server

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/go-codemode/codemode/protocol"
)

// shutdown starts s.Shutdown and returns its error's channel.
func shutdown(s *Server) chan error {
	errc := make(chan error, 1)
	go func() { errc <- s.Shutdown(context.Background()) }()
	return errc
}

func waitErr(t *testing.T, errc chan error) error {
	t.Helper()
	select {
	case err := <-errc:
		return err
	case <-time.After(wait):
		t.Fatal("Shutdown did not return")
	}
	return nil
}

// suspender waits for its dispatch answer; asked to suspend, it comes
// back SUSPENDED with its state.
func suspender(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
	answered := make(chan string, 1)
	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { answered <- req.Dispatch(callCtx, "store", "get", "[1]") }()
	select {
	case env := <-answered:
		return protocol.ExecuteResult{Result: json.RawMessage(env)}, nil
	case <-req.Suspend:
		return protocol.ExecuteResult{Error: protocol.NewError(protocol.CodeSuspended, "the server drained; resume the state"),
			State: []byte("state of " + req.Code), Logs: []protocol.LogLine{{Level: "log", Text: "before"}}}, nil
	case <-ctx.Done():
		return protocol.ExecuteResult{Error: protocol.NewError(protocol.CodeCancelled, "cancelled")}, nil
	}
}

// finisher finishes when asked to suspend (it cannot be saved: it is not
// waiting on the host).
func finisher(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
	select {
	case <-req.Suspend:
		return value(`"finished"`), nil
	case <-ctx.Done():
		return protocol.ExecuteResult{Error: protocol.NewError(protocol.CodeCancelled, "cancelled")}, nil
	}
}

func TestDrainLetsRunsFinish(t *testing.T) {
	be := newBackend().on("call", suspender).on("ping", pingProgram)
	h := newHarness(t, Config{ShutdownDrain: wait}, be)
	c := h.connect()
	c.execute("e1", "call", protocol.ExecuteOptions{})
	d := expect[*protocol.DispatchMessage](c)

	errc := shutdown(h.srv)
	eventually(t, "closing", func() bool { return h.srv.closing.Load() })
	if code, _ := h.get("/readyz"); code != http.StatusServiceUnavailable {
		t.Errorf("readyz %d while draining", code)
	}
	if code, _ := h.get("/healthz"); code != http.StatusOK {
		t.Errorf("healthz %d while draining", code)
	}
	if v, _ := h.metric("codemode_draining"); v != 1 {
		t.Errorf("codemode_draining %v while draining", v)
	}
	late := h.dial(nil)
	late.send(&protocol.HelloMessage{ID: "h", Version: protocol.Version})
	if e := late.expectError("h", protocol.CodeShuttingDown); !strings.Contains(e.Message, "another server") {
		t.Errorf("message %q", e.Message)
	}
	late.expectClose(websocket.StatusGoingAway)

	// The open connection takes no new work, but its run goes on.
	c.execute("e2", "ping", protocol.ExecuteOptions{})
	c.expectError("e2", protocol.CodeShuttingDown)
	c.send(&protocol.InvokeHandleMessage{ID: "i1", ExecutionID: "x", Handle: "f"})
	c.expectError("i1", protocol.CodeShuttingDown)
	c.send(&protocol.DispatchResultMessage{ID: "e1", CallID: d.CallID, Envelope: `{"result":1}`})
	if r := c.expectResult("e1"); string(r.ResultJSON) != `{"result":1}` {
		t.Fatalf("result %s", r.ResultJSON)
	}
	c.expectClose(websocket.StatusGoingAway)
	if err := waitErr(t, errc); err != nil {
		t.Fatal(err)
	}
	if err := h.srv.Shutdown(context.Background()); err != nil { // again: returns at once
		t.Fatal(err)
	}
	h.srv.ResumeAccepting() // too late: no effect
	if h.srv.Accepting() {
		t.Error("accepting after Shutdown")
	}
}

func TestDrainSuspends(t *testing.T) {
	be := newBackend().on("call-1", suspender).on("call-2", suspender).on("finish", finisher).on("queued", pingProgram)
	h := newHarness(t, Config{MaxWorkers: 3, SuspendWait: wait}, be)
	a, b := h.connect(), h.connect()
	a.execute("e1", "call-1", protocol.ExecuteOptions{})
	expect[*protocol.DispatchMessage](a)
	b.execute("e2", "call-2", protocol.ExecuteOptions{})
	expect[*protocol.DispatchMessage](b)
	a.execute("e3", "finish", protocol.ExecuteOptions{})
	eventually(t, "3 running", func() bool { v, _ := h.metric("codemode_executions_active"); return v == 3 })
	b.execute("e4", "queued", protocol.ExecuteOptions{})
	eventually(t, "1 queued", func() bool { v, _ := h.metric("codemode_queue_depth"); return v == 1 })

	errc := shutdown(h.srv)
	// Every request gets its answer: none is lost.
	answers := map[string]protocol.Message{}
	for _, c := range []*client{a, a, b, b} {
		m := c.recv()
		answers[m.CorrelationID()] = m
	}
	for _, id := range []string{"e1", "e2"} {
		r, ok := answers[id].(*protocol.ResultMessage)
		if !ok || r.Error == nil || r.Error.Code != protocol.CodeSuspended || string(r.State) != "state of call-"+id[1:] ||
			len(r.Logs) != 1 {
			t.Errorf("%s: %+v", id, answers[id])
		}
	}
	if r, ok := answers["e3"].(*protocol.ResultMessage); !ok || string(r.ResultJSON) != `"finished"` {
		t.Errorf("e3: %+v", answers["e3"])
	}
	if e, ok := answers["e4"].(*protocol.ErrorMessage); !ok || e.Code != protocol.CodeShuttingDown {
		t.Errorf("e4: %+v", answers["e4"])
	}
	a.expectClose(websocket.StatusGoingAway)
	b.expectClose(websocket.StatusGoingAway)
	if err := waitErr(t, errc); err != nil {
		t.Fatal(err)
	}
	if v, _ := h.metric(`codemode_executions_total{kind="execute",outcome="suspended"}`); v != 2 {
		t.Errorf("suspended counted %v", v)
	}
}

func TestDrainCancelsTheRest(t *testing.T) {
	stuck := newBlocker() // ignores Suspend; answers its cancellation
	stubborn := newBlocker()
	stubborn.ignoreCx = true // answers nothing until released
	be := newBackend().on("stuck", stuck.run).on("stubborn", stubborn.run)
	h := newHarness(t, Config{MaxWorkers: 2, SuspendWait: time.Millisecond, TerminationDelay: time.Millisecond}, be)
	t.Cleanup(func() { close(stubborn.release) })
	c := h.connect()
	c.execute("e1", "stuck", protocol.ExecuteOptions{})
	stuck.waitStart(t)
	c.execute("e2", "stubborn", protocol.ExecuteOptions{})
	stubborn.waitStart(t)
	errc := shutdown(h.srv)
	got := map[string]*protocol.ResultMessage{}
	for range 2 {
		r := expect[*protocol.ResultMessage](c)
		got[r.ID] = r
	}
	for _, id := range []string{"e1", "e2"} {
		r := got[id]
		if r == nil || r.Error == nil || r.Error.Code != protocol.CodeShuttingDown || r.Error.Message != errShutdown.Message {
			t.Errorf("%s: %+v", id, r)
		}
	}
	c.expectClose(websocket.StatusGoingAway)
	if err := waitErr(t, errc); err != nil {
		t.Fatal(err)
	}
	if cause := stuck.waitEnd(t); !errors.Is(cause, errShutdown) {
		t.Errorf("the run's context ended with %v", cause)
	}
}

func TestShutdownDeadline(t *testing.T) {
	stuck := newBlocker()
	h := newHarness(t, Config{ShutdownDrain: wait}, newBackend().on("stuck", stuck.run))
	c := h.connect()
	c.execute("e1", "stuck", protocol.ExecuteOptions{})
	stuck.waitStart(t)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- h.srv.Shutdown(ctx) }()
	eventually(t, "closing", func() bool { return h.srv.closing.Load() })
	cancel()
	if err := waitErr(t, errc); !errors.Is(err, context.Canceled) {
		t.Fatalf("Shutdown = %v, want the context's error", err)
	}
	stuck.waitEnd(t)
	select {
	case <-c.done:
	case <-time.After(wait):
		t.Fatal("the connection stayed open")
	}
}

func TestMaxConnectionAge(t *testing.T) {
	h := newHarness(t, Config{MaxConnectionAge: time.Millisecond}, newBackend())
	c := h.connect()
	c.expectClose(websocket.StatusGoingAway)
	if !h.srv.Accepting() {
		t.Error("the server stopped accepting")
	}
}

// retire retires the server's only connection, as its age does.
func (h *harness) retire() {
	h.t.Helper()
	cs := h.conns()
	if len(cs) != 1 {
		h.t.Fatalf("%d connections", len(cs))
	}
	go cs[0].retire()
	eventually(h.t, "retiring", func() bool {
		cs[0].mu.Lock()
		defer cs[0].mu.Unlock()
		return cs[0].closing
	})
}

func TestRetireWaitsForRuns(t *testing.T) {
	be := newBackend().on("call", suspender).on("ping", pingProgram)
	h := newHarness(t, Config{ShutdownDrain: wait}, be)
	c := h.connect()
	c.execute("e1", "call", protocol.ExecuteOptions{})
	d := expect[*protocol.DispatchMessage](c)
	h.retire()
	c.execute("e2", "ping", protocol.ExecuteOptions{})
	if e := c.expectError("e2", protocol.CodeShuttingDown); !strings.Contains(e.Message, "maximum age") {
		t.Errorf("message %q", e.Message)
	}
	c.send(&protocol.DispatchResultMessage{ID: "e1", CallID: d.CallID, Envelope: `{"result":1}`})
	c.expectResult("e1")
	c.expectClose(websocket.StatusGoingAway)
	h.connect().silent() // a new connection is welcome
}

func TestRetireSuspends(t *testing.T) {
	stuck := newBlocker()
	be := newBackend().on("call", suspender).on("stuck", stuck.run)
	h := newHarness(t, Config{SuspendWait: wait}, be) // ShutdownDrain 0: saved at once
	c := h.connect()
	c.execute("e1", "call", protocol.ExecuteOptions{})
	expect[*protocol.DispatchMessage](c)
	h.retire()
	r := c.expectResultCode("e1", protocol.CodeSuspended)
	if string(r.State) != "state of call" {
		t.Errorf("state %q", r.State)
	}
	c.expectClose(websocket.StatusGoingAway)
}

func TestRetireCancels(t *testing.T) {
	stuck := newBlocker()
	h := newHarness(t, Config{SuspendWait: time.Millisecond}, newBackend().on("stuck", stuck.run))
	c := h.connect()
	c.execute("e1", "stuck", protocol.ExecuteOptions{})
	stuck.waitStart(t)
	h.retire()
	r := c.expectResultCode("e1", protocol.CodeShuttingDown)
	if r.Error.Message != errAgedCancel.Message {
		t.Errorf("message %q", r.Error.Message)
	}
	c.expectClose(websocket.StatusGoingAway)
}

func TestServe(t *testing.T) {
	be := newBackend().on("ping", pingProgram)
	srv, err := New(Config{}, be)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	h := &harness{t: t, srv: srv, url: "ws://" + ln.Addr().String(), be: be}
	c := h.connect()
	c.silent()
	if err := srv.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.expectClose(websocket.StatusGoingAway)
	if err := waitErr(t, errc); !errors.Is(err, http.ErrServerClosed) {
		t.Fatalf("Serve = %v", err)
	}
	ln2, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Serve(ln2); !errors.Is(err, http.ErrServerClosed) {
		t.Fatalf("Serve after Shutdown = %v", err)
	}
	checkNoLeaks(t)
}

func TestListenAndServe(t *testing.T) {
	srv, err := New(Config{Addr: "127.0.0.1:0"}, newBackend())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe(ctx) }()
	cancel()
	if err := waitErr(t, errc); err != nil {
		t.Fatalf("ListenAndServe = %v", err)
	}
	srv2, _ := New(Config{Addr: "127.0.0.1:-1"}, newBackend())
	if err := srv2.ListenAndServe(context.Background()); err == nil {
		t.Fatal("ListenAndServe on a bad address succeeded")
	}
	checkNoLeaks(t)
}
