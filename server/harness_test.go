package server

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/go-codemode/codemode/protocol"
)

// The tests run a Server behind httptest with a fake Backend whose
// programs are Go functions keyed by the request's code, and talk to it
// with coder/websocket's client. None runs in parallel: each checks at
// its end that no goroutine of the server (or of the websocket library)
// is left.

// wait bounds every wait of a test; it is never reached when the server
// works.
const wait = 10 * time.Second

// program is a fake execution: the backend runs the one whose name is
// the request's code.
type program func(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error)

// fakeBackend is a Backend whose programs are Go functions.
type fakeBackend struct {
	mu       sync.Mutex
	programs map[string]program
	resume   func(ctx context.Context, req protocol.ResumeRequest) (protocol.ExecuteResult, error)
	invoke   func(ctx context.Context, req protocol.ExecuteRequest, handle, args string) (protocol.ExecuteResult, error)
	retained map[string]protocol.ExecuteRequest // by execution id
	closed   chan string                        // executions CloseHandles released
	requests []protocol.ExecuteRequest
}

func newBackend() *fakeBackend {
	return &fakeBackend{
		programs: make(map[string]program),
		retained: make(map[string]protocol.ExecuteRequest),
		closed:   make(chan string, 100),
	}
}

func (b *fakeBackend) on(code string, p program) *fakeBackend {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.programs[code] = p
	return b
}

func (b *fakeBackend) Execute(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
	b.mu.Lock()
	p := b.programs[req.Code]
	b.requests = append(b.requests, req)
	b.mu.Unlock()
	if p == nil {
		return protocol.ExecuteResult{Error: &protocol.Error{Message: "ReferenceError: no program " + req.Code}}, nil
	}
	res, err := p(ctx, req)
	if err == nil && res.ExecutionID != "" {
		b.mu.Lock()
		b.retained[res.ExecutionID] = req
		b.mu.Unlock()
	}
	return res, err
}

func (b *fakeBackend) Resume(ctx context.Context, req protocol.ResumeRequest) (protocol.ExecuteResult, error) {
	if b.resume == nil {
		return protocol.ExecuteResult{}, protocol.NewError(protocol.CodeInvalidRequest, "cannot resume")
	}
	return b.resume(ctx, req)
}

func (b *fakeBackend) InvokeHandle(ctx context.Context, id, handle, args string) (protocol.ExecuteResult, error) {
	b.mu.Lock()
	req, ok := b.retained[id]
	b.mu.Unlock()
	if !ok || b.invoke == nil {
		return protocol.ExecuteResult{}, protocol.Errorf(protocol.CodeUnknownExecution, "unknown execution %q", id)
	}
	return b.invoke(ctx, req, handle, args)
}

func (b *fakeBackend) CloseHandles(_ context.Context, id string) error {
	b.mu.Lock()
	_, ok := b.retained[id]
	delete(b.retained, id)
	b.mu.Unlock()
	if !ok {
		return protocol.Errorf(protocol.CodeUnknownExecution, "unknown execution %q", id)
	}
	b.closed <- id
	return nil
}

// lastRequest returns the last request Execute received.
func (b *fakeBackend) lastRequest(t testing.TB) protocol.ExecuteRequest {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.requests) == 0 {
		t.Fatal("the backend received no request")
	}
	return b.requests[len(b.requests)-1]
}

// harness is a server under test.
type harness struct {
	t   testing.TB
	srv *Server
	ts  *httptest.Server
	url string
	be  *fakeBackend
}

// newHarness starts a server with cfg (Logger defaulted to the test's
// log) and be. At the end of the test it shuts the server down and
// checks that no goroutine is left.
func newHarness(t testing.TB, cfg Config, be *fakeBackend) *harness {
	t.Helper()
	return newHarnessOf(t, cfg, be, be)
}

// newHarnessOf is newHarness with a backend of another type, around the
// fake be.
func newHarnessOf(t testing.TB, cfg Config, backend Backend, be *fakeBackend) *harness {
	t.Helper()
	return newHarnessOn(t, cfg, backend, be, nil)
}

// newHarnessOn is newHarnessOf whose listener is wrap's, when wrap is not
// nil.
func newHarnessOn(t testing.TB, cfg Config, backend Backend, be *fakeBackend, wrap func(net.Listener) net.Listener) *harness {
	t.Helper()
	if cfg.MaxWorkers == 0 { // not GOMAXPROCS: the tests run the same on every machine
		cfg.MaxWorkers = 4
	}
	if cfg.Logger == nil && testing.Verbose() {
		cfg.Logger = testLogger(t)
	}
	srv, err := New(cfg, backend)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(srv.Handler())
	if wrap != nil {
		ts.Listener = wrap(ts.Listener)
	}
	ts.Start()
	h := &harness{t: t, srv: srv, ts: ts, url: "ws" + strings.TrimPrefix(ts.URL, "http"), be: be}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		ts.Close()
		checkNoLeaks(t)
	})
	return h
}

// client is a test's WebSocket client. Unless made silent, a goroutine
// reads its messages all the time (so that it answers pings and closes).
type client struct {
	t    testing.TB
	ws   *websocket.Conn
	msgs chan protocol.Message
	end  error         // the read's error, once msgs is closed
	done chan struct{} // closed when the reader returns
}

// dial opens a connection without a hello.
func (h *harness) dial(header http.Header) *client {
	h.t.Helper()
	return h.dialOpts(header, true)
}

func (h *harness) dialOpts(header http.Header, read bool) *client {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	ws, resp, err := websocket.Dial(ctx, h.url, &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		h.t.Fatalf("dial: %v", err)
	}
	if resp.Body != nil {
		resp.Body.Close()
	}
	ws.SetReadLimit(256 << 20)
	c := &client{t: h.t, ws: ws, msgs: make(chan protocol.Message, 4096), done: make(chan struct{})}
	if read {
		go c.readLoop()
	} else {
		close(c.done)
	}
	h.t.Cleanup(func() {
		_ = ws.CloseNow()
		<-c.done
	})
	return c
}

// connect opens a connection and says hello.
func (h *harness) connect() *client {
	h.t.Helper()
	c := h.dial(nil)
	c.hello("")
	return c
}

func (c *client) readLoop() {
	defer close(c.done)
	defer close(c.msgs)
	for {
		typ, data, err := c.ws.Read(context.Background())
		if err != nil {
			c.end = err
			return
		}
		if typ != websocket.MessageText {
			c.t.Errorf("the server sent a binary frame")
			continue
		}
		m, err := protocol.DecodeLimit(data, 1<<30)
		if err != nil {
			c.t.Errorf("the server sent a malformed frame %.200s: %v", data, err)
			continue
		}
		seen.note(m, false)
		c.msgs <- m
	}
}

// hello says hello with token and expects the ack.
func (c *client) hello(token string) {
	c.t.Helper()
	c.send(&protocol.HelloMessage{ID: "h", Version: protocol.Version, Token: token})
	ack := expect[*protocol.HelloAckMessage](c)
	if ack.ID != "h" || ack.Version != protocol.Version {
		c.t.Fatalf("helloAck = %+v", ack)
	}
}

func (c *client) send(m protocol.Message) {
	c.t.Helper()
	data, err := protocol.Encode(m)
	if err != nil {
		c.t.Fatal(err)
	}
	seen.note(m, true)
	c.sendRaw(string(data))
}

func (c *client) sendRaw(s string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, []byte(s)); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// execute sends an execute of the program code.
func (c *client) execute(id, code string, opts protocol.ExecuteOptions) {
	c.t.Helper()
	c.send(&protocol.ExecuteMessage{ID: id, Code: code, Options: opts})
}

// recv returns the next message.
func (c *client) recv() protocol.Message {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.t.Fatalf("the connection closed: %v", c.end)
		}
		return m
	case <-time.After(wait):
		c.t.Fatal("no message")
	}
	return nil
}

// expect returns the next message, which must be a T.
func expect[T protocol.Message](c *client) T {
	c.t.Helper()
	m := c.recv()
	v, ok := m.(T)
	if !ok {
		data, _ := protocol.Encode(m)
		var zero T
		c.t.Fatalf("got %s, want a %T", data, zero)
	}
	return v
}

// expectResult returns the next message, which must be the result of
// id.
func (c *client) expectResult(id string) *protocol.ResultMessage {
	c.t.Helper()
	r := expect[*protocol.ResultMessage](c)
	if r.ID != id {
		c.t.Fatalf("result of %q, want %q: %+v", r.ID, id, r)
	}
	return r
}

// expectError returns the next message, which must be an error of id and
// code.
func (c *client) expectError(id string, code protocol.Code) *protocol.ErrorMessage {
	c.t.Helper()
	e := expect[*protocol.ErrorMessage](c)
	if e.ID != id || e.Code != code {
		c.t.Fatalf("error %q %s (%s), want %q %s", e.ID, e.Code, e.Message, id, code)
	}
	return e
}

// expectResultCode returns the next message, which must be the result of
// id failing with code.
func (c *client) expectResultCode(id string, code protocol.Code) *protocol.ResultMessage {
	c.t.Helper()
	r := c.expectResult(id)
	if r.Error == nil || r.Error.Code != code {
		c.t.Fatalf("result %+v (error %+v), want an error of code %s", r, r.Error, code)
	}
	return r
}

// expectClose waits for the connection to close, with no other message
// first, and checks its status.
func (c *client) expectClose(status websocket.StatusCode) {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if ok {
			data, _ := protocol.Encode(m)
			c.t.Fatalf("got %s, want the close", data)
		}
	case <-time.After(wait):
		c.t.Fatal("the connection did not close")
	}
	if got := websocket.CloseStatus(c.end); got != status {
		c.t.Fatalf("closed with %v (%v), want status %v", got, c.end, status)
	}
}

// silent checks that the next message is the answer of a ping execute,
// i.e. that nothing was sent before.
func (c *client) silent() {
	c.t.Helper()
	c.execute("ping", "ping", protocol.ExecuteOptions{})
	c.expectResult("ping")
}

// pingProgram answers the silent check.
func pingProgram(context.Context, protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
	return protocol.ExecuteResult{Result: json.RawMessage(`"pong"`)}, nil
}

// value returns a result of the JSON text v.
func value(v string) protocol.ExecuteResult {
	return protocol.ExecuteResult{Result: json.RawMessage(v)}
}

// blocker is a program that signals its start and waits for release or
// for its context, reporting how it ended.
type blocker struct {
	started  chan protocol.ExecuteRequest
	release  chan struct{}
	ended    chan error // the context's cause, or nil when released
	ignoreCx bool       // wait for release only
}

func newBlocker() *blocker {
	return &blocker{started: make(chan protocol.ExecuteRequest, 100), release: make(chan struct{}),
		ended: make(chan error, 100)}
}

func (b *blocker) run(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
	b.started <- req
	if b.ignoreCx {
		<-b.release
		b.ended <- context.Cause(ctx)
		return value(`"late"`), nil
	}
	select {
	case <-b.release:
		b.ended <- nil
		return value(`"released"`), nil
	case <-ctx.Done():
		b.ended <- context.Cause(ctx)
		return protocol.ExecuteResult{Error: protocol.NewError(protocol.CodeCancelled, "cancelled")}, nil
	}
}

func (b *blocker) waitStart(t *testing.T) protocol.ExecuteRequest {
	t.Helper()
	select {
	case req := <-b.started:
		return req
	case <-time.After(wait):
		t.Fatal("the program did not start")
	}
	return protocol.ExecuteRequest{}
}

func (b *blocker) waitEnd(t *testing.T) error {
	t.Helper()
	select {
	case err := <-b.ended:
		return err
	case <-time.After(wait):
		t.Fatal("the program did not end")
	}
	return nil
}

// eventually waits for cond.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// get fetches path from the server's HTTP side.
func (h *harness) get(path string) (int, string) {
	h.t.Helper()
	resp, err := http.Get(h.ts.URL + path)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// metric returns the value of the series named exactly series (name and
// labels as the text exposition writes them), and false when absent.
func (h *harness) metric(series string) (float64, bool) {
	h.t.Helper()
	_, body := h.get("/metrics")
	for line := range strings.SplitSeq(body, "\n") {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			if err != nil {
				h.t.Fatalf("series %s: %v", series, err)
			}
			return v, true
		}
	}
	return 0, false
}

// conns returns the server's open connections.
func (h *harness) conns() []*conn {
	h.srv.mu.Lock()
	defer h.srv.mu.Unlock()
	var cs []*conn
	for c := range h.srv.conns {
		cs = append(cs, c)
	}
	return cs
}

// leakPattern matches a stack frame of the server's non-test code or of
// the websocket library.
var leakPattern = regexp.MustCompile(`/server/[a-z]+\.go:|coder/websocket`)

// checkNoLeaks waits for every goroutine of the server and of the
// websocket library to end, and fails the test with their stacks when
// some do not.
func checkNoLeaks(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		leaks := leakedGoroutines()
		if len(leaks) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%d goroutines leaked:\n\n%s", len(leaks), strings.Join(leaks, "\n\n"))
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func leakedGoroutines() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var leaks []string
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		if strings.Contains(g, "testing.tRunner") || strings.Contains(g, "testing.(*T).Run") {
			continue
		}
		if leakPattern.MatchString(g) {
			leaks = append(leaks, g)
		}
	}
	return leaks
}

// seen records the message types and error codes the tests exchanged,
// so that TestMain can check that they cover the whole protocol.
var seen = &coverage{sent: map[protocol.MessageType]bool{}, received: map[protocol.MessageType]bool{},
	codes: map[protocol.Code]bool{}}

type coverage struct {
	mu       sync.Mutex
	sent     map[protocol.MessageType]bool // by the clients
	received map[protocol.MessageType]bool // by the clients
	codes    map[protocol.Code]bool        // in errors and results received
}

func (c *coverage) note(m protocol.Message, sent bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if sent {
		c.sent[m.Type()] = true
		return
	}
	c.received[m.Type()] = true
	switch m := m.(type) {
	case *protocol.ErrorMessage:
		c.codes[m.Code] = true
	case *protocol.ResultMessage:
		if m.Error != nil && m.Error.Code != "" {
			c.codes[m.Error.Code] = true
		}
	}
}

// missing lists what the tests did not exchange.
func (c *coverage) missing() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var miss []string
	for _, t := range []protocol.MessageType{protocol.TypeHello, protocol.TypeExecute, protocol.TypeDispatchResult,
		protocol.TypeFetchResult, protocol.TypeInvokeHandle, protocol.TypeCloseHandles, protocol.TypeCancel, protocol.TypeResume} {
		if !c.sent[t] {
			miss = append(miss, "client message "+string(t))
		}
	}
	for _, t := range []protocol.MessageType{protocol.TypeHelloAck, protocol.TypeDispatch, protocol.TypeFetch,
		protocol.TypeResult, protocol.TypeError} {
		if !c.received[t] {
			miss = append(miss, "server message "+string(t))
		}
	}
	for _, code := range protocol.Codes() {
		if !c.codes[code] {
			miss = append(miss, "code "+string(code))
		}
	}
	slices.Sort(miss)
	return miss
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if f := flag.Lookup("test.run"); code == 0 && (f == nil || f.Value.String() == "") && !testing.Short() {
		if miss := seen.missing(); len(miss) > 0 {
			fmt.Fprintf(os.Stderr, "the tests do not cover: %s\n", strings.Join(miss, ", "))
			code = 1
		}
	}
	os.Exit(code)
}
