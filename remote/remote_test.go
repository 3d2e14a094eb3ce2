package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/go-codemode/codemode/protocol"
	"github.com/go-codemode/codemode/server"
)

var store = []protocol.ProviderDescriptor{{Name: "store", Tools: []string{"getUser", "bytes", "slow", "log"}}}

// storeDispatch answers store.getUser(1) with Ada and any other id with
// an error; store.bytes(b) with {data: b reversed} as binary.
func storeDispatch(ctx context.Context, provider, tool, args string) string {
	switch tool {
	case "getUser":
		list, err := protocol.ParseDispatchArguments(args)
		if err != nil || len(list) != 1 || list[0] != float64(1) {
			return protocol.ErrorEnvelope("no such user")
		}
		return `{"result":{"id":1,"name":"Ada"}}`
	case "bytes":
		list, err := protocol.ParseDispatchArguments(args)
		if err != nil || len(list) != 1 {
			return protocol.ErrorEnvelope("bytes takes one argument")
		}
		b, ok := list[0].([]byte)
		if !ok {
			return protocol.ErrorEnvelope(fmt.Sprintf("not binary: %T", list[0]))
		}
		r := slices.Clone(b)
		slices.Reverse(r)
		s, err := protocol.StringifyForDispatch(map[string]any{"data": r})
		if err != nil {
			return protocol.ErrorEnvelope(err.Error())
		}
		return `{"result":` + s + `}`
	}
	return protocol.ErrorEnvelope("unknown tool " + tool)
}

// outcome renders a result as the table tests compare it: the value's
// JSON, or "CODE: message".
func outcome(res protocol.ExecuteResult) string {
	if res.Error != nil {
		return string(res.Error.Code) + ": " + res.Error.Message
	}
	return string(res.Result)
}

func logLines(res protocol.ExecuteResult) string {
	var out []string
	for _, l := range res.Logs {
		out = append(out, l.Level+":"+l.Text)
	}
	return strings.Join(out, " ")
}

// TestExecute: programs run on a real server; tool calls reach
// Dispatch, binary crosses both ways, and the program's failures and the
// executor's codes come back in the result, with the console lines.
func TestExecute(t *testing.T) {
	_, f := deployment(t, server.Config{})
	e := dial(t, f.url, Options{})
	panics := func(context.Context, string, string, string) string { panic("boom") }
	notEnvelope := func(context.Context, string, string, string) string { return "oops" }
	catch := `async () => { try { return await store.getUser(1) } catch (e) { return e.message } }`
	cases := []struct {
		name     string
		req      protocol.ExecuteRequest
		want     string
		logs     string
		prefix   bool // want is a prefix of the outcome
		noDisp   bool
		dispatch protocol.DispatchFunc
	}{
		{name: "providers and logs", req: protocol.ExecuteRequest{Code: `async () => { const u = await store.getUser(1); console.log(u.name); console.warn("careful"); console.error("bad"); return u.id }`},
			want: `1`, logs: `log:Ada warn:careful error:bad`},
		{name: "binary both ways", req: protocol.ExecuteRequest{Code: `async () => { const r = await store.bytes(new Uint8Array([1, 2, 3])); return [r.data instanceof Uint8Array, Array.from(r.data)] }`},
			want: `[true,[3,2,1]]`},
		{name: "a program's throw has no code", req: protocol.ExecuteRequest{Code: `async () => { await store.getUser(2) }`}, want: `: no such user`},
		{name: "a syntax error", req: protocol.ExecuteRequest{Code: `async () => { return ( }`}, want: `: Unexpected token '}' (1:23)`},
		{name: "undefined", req: protocol.ExecuteRequest{Code: `async () => { console.info("nothing") }`}, want: `null`, logs: `log:nothing`},
		{name: "a timeout", req: protocol.ExecuteRequest{Code: `async () => { while (true) {} }`, Timeout: protocol.TimeoutMillis(100)},
			want: `TIMEOUT: Execution timed out after 100ms.`},
		{name: "invalid providers", req: protocol.ExecuteRequest{Code: `1`, Providers: []protocol.ProviderDescriptor{{Name: "JSON", Tools: []string{"x"}}}},
			want: `INVALID_REQUEST: Provider name "JSON" is reserved`},
		{name: "invalid modules", req: protocol.ExecuteRequest{Code: `1`, Modules: protocol.ModuleMap{"m": {Kind: "wasm"}}},
			want: `INVALID_REQUEST: module "m": module source has unknown kind "wasm"`, prefix: true},
		{name: "modules", req: protocol.ExecuteRequest{Code: "import { twice } from \"helpers\"\nasync () => twice(21)",
			Modules: protocol.ModuleMap{"helpers": protocol.JSModule("export const twice = x => 2 * x")}}, want: `42`},
		{name: "no dispatch", req: protocol.ExecuteRequest{Code: catch}, noDisp: true, want: `"Tool \"store.getUser\" not found"`},
		{name: "a dispatch that panics", req: protocol.ExecuteRequest{Code: catch}, dispatch: panics, want: `"tool store.getUser panicked: boom"`},
		{name: "a dispatch that answers no envelope", req: protocol.ExecuteRequest{Code: catch}, dispatch: notEnvelope,
			want: `"tool store.getUser answered with malformed envelope: not valid JSON: invalid character 'o' looking for beginning of value"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := c.req
			if req.Providers == nil {
				req.Providers = store
			}
			switch {
			case c.dispatch != nil:
				req.Dispatch = c.dispatch
			case !c.noDisp:
				req.Dispatch = storeDispatch
			}
			res, err := e.Execute(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			got := outcome(res)
			if c.prefix && strings.HasPrefix(got, c.want) {
				got = c.want
			}
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			if logLines(res) != c.logs {
				t.Errorf("logs %q, want %q", logLines(res), c.logs)
			}
		})
	}
}

// TestDefaults: the Options' request defaults apply to a request that
// leaves the field absent, and a request's own field overrides them.
func TestDefaults(t *testing.T) {
	_, f := deployment(t, server.Config{})
	yes := true
	e := dial(t, f.url, Options{Timeout: protocol.TimeoutMillis(100), CountHostWaits: &yes,
		Modules: protocol.ModuleMap{"n": protocol.JSModule("export default 7")}})
	slow := func(ctx context.Context, _, _, _ string) string {
		select {
		case <-time.After(300 * time.Millisecond):
		case <-ctx.Done():
		}
		return `{"result":1}`
	}
	cases := []struct {
		name string
		req  protocol.ExecuteRequest
		want string
	}{
		{"default timeout", protocol.ExecuteRequest{Code: `async () => { while (true) {} }`}, `TIMEOUT: Execution timed out after 100ms.`},
		{"a request's timeout wins", protocol.ExecuteRequest{Code: `async () => { while (true) {} }`, Timeout: protocol.TimeoutMillis(150)},
			`TIMEOUT: Execution timed out after 150ms.`},
		{"host waits counted by default", protocol.ExecuteRequest{Code: `async () => await store.slow()`, Providers: store, Dispatch: slow},
			`TIMEOUT: Execution timed out after 100ms.`},
		{"default modules", protocol.ExecuteRequest{Code: "import n from \"n\"\nasync () => n"}, `7`},
		{"a request's modules replace them", protocol.ExecuteRequest{Code: "import n from \"n\"\nasync () => n",
			Modules: protocol.ModuleMap{"n": protocol.JSModule("export default 8")}}, `8`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := e.Execute(context.Background(), c.req)
			if err != nil {
				t.Fatal(err)
			}
			if got := outcome(res); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestConcurrentDispatch: several runs at once on one executor, each
// making three tool calls at once that Dispatch answers in reverse
// order; each run gets its own answers.
func TestConcurrentDispatch(t *testing.T) {
	_, f := deployment(t, server.Config{MaxWorkers: 4})
	e := dial(t, f.url, Options{})
	const runs = 6
	var wg sync.WaitGroup
	for i := range runs {
		wg.Go(func() {
			// The three calls all arrive before any is answered (they
			// are concurrent), then c, b and a return in that order.
			arrived := make(chan string, 3)
			release := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{}), "c": make(chan struct{})}
			returned := make(chan string, 3)
			dispatch := func(ctx context.Context, _, tool, args string) string {
				arrived <- tool
				<-release[tool]
				defer func() { returned <- tool }()
				return fmt.Sprintf(`{"result":"%s%d"}`, tool, i)
			}
			go func() {
				for range 3 {
					<-arrived
				}
				for _, tool := range []string{"c", "b", "a"} {
					close(release[tool])
					<-returned
				}
			}()
			res, err := e.Execute(context.Background(), protocol.ExecuteRequest{
				Code:      `async () => (await Promise.all([p.a(), p.b(), p.c()])).join(" ")`,
				Providers: []protocol.ProviderDescriptor{{Name: "p", Tools: []string{"a", "b", "c"}}},
				Dispatch:  dispatch,
			})
			want := fmt.Sprintf(`"a%d b%d c%d"`, i, i, i)
			if err != nil || string(res.Result) != want {
				t.Errorf("run %d: %s %v, want %s", i, outcome(res), err, want)
			}
		})
	}
	wg.Wait()
}

// TestStubFetch: in the outbound mode stub, the program's fetch reaches
// the request's Fetch.
func TestStubFetch(t *testing.T) {
	_, f := deployment(t, server.Config{})
	e := dial(t, f.url, Options{})
	var seen atomic.Value
	fetch := func(ctx context.Context, req protocol.OutboundRequest) (protocol.OutboundResponse, error) {
		seen.Store(req.Method + " " + req.URL)
		if strings.Contains(req.URL, "down") {
			return protocol.OutboundResponse{}, errors.New("connection refused")
		}
		return protocol.OutboundResponse{Status: 200, Headers: [][2]string{{"content-type", "text/plain"}}, Body: []byte("hello from the stub")}, nil
	}
	cases := []struct {
		name  string
		code  string
		fetch protocol.FetchFunc
		want  string
		err   protocol.Code
	}{
		{"a response", `async () => await (await fetch("https://x.example/")).text()`, fetch, `"hello from the stub"`, ""},
		{"a failure", `async () => { try { await fetch("https://down.example/") } catch (e) { return e.name + ": " + e.message } }`, fetch,
			`"TypeError: fetch failed: connection refused"`, ""},
		{"no Fetch", `async () => 1`, nil, ``, protocol.CodeProtocolMismatch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := e.Execute(context.Background(), protocol.ExecuteRequest{Code: c.code, Outbound: protocol.OutboundStub, Fetch: c.fetch})
			if c.err != "" {
				if !errors.Is(err, &protocol.Error{Code: c.err}) {
					t.Fatalf("got %+v, %v; want the error %s", res, err, c.err)
				}
				return
			}
			if err != nil || string(res.Result) != c.want {
				t.Fatalf("got %s %v, want %s", outcome(res), err, c.want)
			}
		})
	}
	if got, _ := seen.Load().(string); got != "GET https://down.example/" {
		t.Errorf("the last request was %q", got)
	}
	// The Options' outbound mode is the default.
	e2 := dial(t, f.url, Options{Outbound: protocol.OutboundStub})
	res, err := e2.Execute(context.Background(), protocol.ExecuteRequest{Code: `async () => await (await fetch("https://x.example/")).text()`, Fetch: fetch})
	if err != nil || string(res.Result) != `"hello from the stub"` {
		t.Errorf("default stub: %s %v", outcome(res), err)
	}
}

// TestCancel: a ctx that ends sends a cancel; the run's tool calls see
// their context end, and the answer is the server's CANCELLED result.
func TestCancel(t *testing.T) {
	_, f := deployment(t, server.Config{})
	e := dial(t, f.url, Options{})

	started := make(chan struct{})
	cause := make(chan error, 1) // how the tool call's context ended
	blocking := func(ctx context.Context, _, _, _ string) string {
		close(started)
		<-ctx.Done()
		cause <- context.Cause(ctx)
		return protocol.ErrorEnvelope("interrupted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	res, err := e.Execute(ctx, protocol.ExecuteRequest{Code: `async () => await store.slow()`, Providers: store, Dispatch: blocking})
	if err != nil || res.Error == nil || res.Error.Code != protocol.CodeCancelled {
		t.Fatalf("got %s %v, want a CANCELLED result", outcome(res), err)
	}
	if c := <-cause; !errors.Is(c, context.Canceled) {
		t.Errorf("the tool call's context ended with %v", c)
	}

	// A ctx already done: nothing is sent.
	_, err = e.Execute(ctx, protocol.ExecuteRequest{Code: `1`})
	if !errors.Is(err, &protocol.Error{Code: protocol.CodeCancelled}) || !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled ctx: %v", err)
	}
	// The session goes on.
	if res, err := e.Execute(context.Background(), protocol.ExecuteRequest{Code: `async () => 2`}); err != nil || string(res.Result) != "2" {
		t.Errorf("after: %s %v", outcome(res), err)
	}
}

// TestHandles: a retained execution's handles run on the session that
// retained it, their tool calls reaching the execution's Dispatch.
func TestHandles(t *testing.T) {
	_, f := deployment(t, server.Config{})
	e := dial(t, f.url, Options{})
	ctx := context.Background()
	var calls atomic.Int32
	counting := func(ctx context.Context, p, tool, args string) string {
		calls.Add(1)
		return storeDispatch(ctx, p, tool, args)
	}
	res, err := e.Execute(ctx, protocol.ExecuteRequest{Providers: store, Dispatch: counting, RetainHandles: true,
		Code: `async () => { const seen = []; return { lookup: async id => { const u = await store.getUser(id); seen.push(u.name); return seen }, size: b => b.length } }`})
	if err != nil || res.ExecutionID == "" || strings.Join(res.Handles, ",") != "lookup,size" {
		t.Fatalf("got %+v, %v", res, err)
	}
	id := res.ExecutionID
	steps := []struct {
		handle, args, want string
		err                protocol.Code
	}{
		{"lookup", `[1]`, `["Ada"]`, ""},
		{"lookup", `1`, `["Ada","Ada"]`, ""},
		{"size", `[{"$binary":"AQIDBA=="}]`, `4`, ""},
		{"lookup", `[2]`, `: no such user`, ""},
		{"lookup", `[1`, ``, protocol.CodeMalformedMessage},
		{"nope", `[]`, ``, protocol.CodeUnknownExecution},
	}
	for _, s := range steps {
		got, err := e.InvokeHandle(ctx, id, s.handle, s.args)
		switch {
		case s.err != "" && protocol.CodeOf(err) != s.err:
			t.Errorf("%s(%s): %v, want %s", s.handle, s.args, err, s.err)
		case s.err == "" && (err != nil || outcome(got) != s.want):
			t.Errorf("%s(%s): %s %v, want %s", s.handle, s.args, outcome(got), err, s.want)
		}
	}
	if calls.Load() != 3 {
		t.Errorf("%d tool calls reached the execution's Dispatch, want 3", calls.Load())
	}
	if err := e.CloseHandles(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := e.InvokeHandle(ctx, id, "lookup", `[1]`); !errors.Is(err, &protocol.Error{Code: protocol.CodeUnknownExecution}) {
		t.Errorf("after CloseHandles: %v", err)
	}
	if err := e.CloseHandles(ctx, id); !errors.Is(err, &protocol.Error{Code: protocol.CodeUnknownExecution}) {
		t.Errorf("CloseHandles twice: %v", err)
	}
	if err := e.CloseHandles(ctx, "x-nope"); !errors.Is(err, &protocol.Error{Code: protocol.CodeUnknownExecution}) {
		t.Errorf("an unknown execution: %v", err)
	}
}

// TestServerErrors: the server's error messages are Execute's error,
// with their codes; the session goes on.
func TestServerErrors(t *testing.T) {
	_, f := deployment(t, server.Config{MaxWorkers: 1, MaxQueue: -1})
	e := dial(t, f.url, Options{})
	started := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := e.Execute(context.Background(), protocol.ExecuteRequest{Code: `async () => await store.slow()`, Providers: store,
			Dispatch: func(context.Context, string, string, string) string {
				close(started)
				<-release
				return `{"result":1}`
			}})
		done <- err
	}()
	<-started
	_, err := e.Execute(context.Background(), protocol.ExecuteRequest{Code: `1`})
	if !errors.Is(err, &protocol.Error{Code: protocol.CodeQueueOverflow}) {
		t.Errorf("a full server: %v, want QUEUE_OVERFLOW", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	// A request over the frame limit is not sent.
	small := dial(t, f.url, Options{MaxFrameBytes: 1024})
	_, err = small.Execute(context.Background(), protocol.ExecuteRequest{Code: `async () => "` + strings.Repeat("x", 2000) + `"`})
	if !errors.Is(err, &protocol.Error{Code: protocol.CodePayloadTooLarge}) {
		t.Errorf("a large request: %v, want PAYLOAD_TOO_LARGE", err)
	}
	if res, err := small.Execute(context.Background(), protocol.ExecuteRequest{Code: `async () => 1`}); err != nil || string(res.Result) != "1" {
		t.Errorf("after: %s %v", outcome(res), err)
	}
}

// TestRejected: a refused token is CONNECTION_REJECTED, tried once.
func TestRejected(t *testing.T) {
	_, f := deployment(t, server.Config{Token: "s3cret"})
	cases := []struct {
		name string
		opts Options
		err  protocol.Code
	}{
		{"the right token", Options{Token: "s3cret"}, ""},
		{"a bearer header", Options{Header: map[string][]string{"Authorization": {"Bearer s3cret"}}}, ""},
		{"a wrong token", Options{Token: "wrong"}, protocol.CodeConnectionRejected},
		{"no token", Options{}, protocol.CodeConnectionRejected},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := f.upgrades.Load()
			e, err := Dial(context.Background(), f.url, c.opts)
			if c.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if res, err := e.Execute(context.Background(), protocol.ExecuteRequest{Code: `async () => 1`}); err != nil || string(res.Result) != "1" {
					t.Errorf("got %s %v", outcome(res), err)
				}
				_ = e.Close()
				return
			}
			if !errors.Is(err, &protocol.Error{Code: c.err}) {
				t.Fatalf("Dial: %v, want %s", err, c.err)
			}
			if n := f.upgrades.Load() - before; n != 1 {
				t.Errorf("%d upgrades, want 1: a refusal is not retried", n)
			}
		})
	}
	checkNoLeaks(t)
}

// TestVersionMismatch: a server of another version is PROTOCOL_MISMATCH,
// at Dial and at a reconnection, and never retried.
func TestVersionMismatch(t *testing.T) {
	f := fakeServer(t, func(c *fakeConn) {
		h, ok := c.recv().(*protocol.HelloMessage)
		if !ok {
			return
		}
		if c.n == 2 { // the first connection of the second executor: accepted, then dropped
			c.send(&protocol.HelloAckMessage{ID: h.ID, Version: protocol.Version})
			return
		}
		c.send(protocol.NewErrorMessage(h.ID, protocol.AssertCompatible(h.Version, 2)))
		_ = c.ws.Close(websocket.StatusProtocolError, "version mismatch")
	})
	_, err := Dial(context.Background(), f.url, Options{})
	if !errors.Is(err, &protocol.Error{Code: protocol.CodeProtocolMismatch}) || !strings.Contains(err.Error(), "this side speaks version 2") {
		t.Fatalf("Dial: %v, want PROTOCOL_MISMATCH", err)
	}
	if n := f.upgrades.Load(); n != 1 {
		t.Errorf("%d upgrades, want 1", n)
	}

	e := dial(t, f.url, Options{})
	waits := recordBackoffs(e)
	eventually(t, "the session to drop", func() bool { return !e.hasLive() })
	_, err = e.Execute(context.Background(), protocol.ExecuteRequest{Code: `1`})
	if !errors.Is(err, &protocol.Error{Code: protocol.CodeProtocolMismatch}) {
		t.Fatalf("Execute: %v, want PROTOCOL_MISMATCH", err)
	}
	if n, w := f.upgrades.Load(), waits.take(); n != 3 || len(w) != 0 {
		t.Errorf("%d upgrades, backoffs %v; want 3 and none", n, w)
	}
}

// TestReconnect: a dropped connection fails the requests in flight with
// CONNECTION_LOST and loses the executions it retained; the next call
// opens a new session, backing off 250, 500, 750 ms between attempts.
func TestReconnect(t *testing.T) {
	_, f := deployment(t, server.Config{})
	e := dial(t, f.url, Options{})
	waits := recordBackoffs(e)
	ctx := context.Background()

	kept, err := e.Execute(ctx, protocol.ExecuteRequest{Code: `async () => ({ f: () => 1 })`, RetainHandles: true})
	if err != nil || kept.ExecutionID == "" {
		t.Fatalf("retain: %+v %v", kept, err)
	}
	started := make(chan struct{})
	cause := make(chan error, 1) // how the tool call's context ended
	blocking := func(ctx context.Context, _, _, _ string) string {
		close(started)
		<-ctx.Done()
		cause <- context.Cause(ctx)
		return protocol.ErrorEnvelope("interrupted")
	}
	go func() {
		<-started
		f.cut()
	}()
	_, err = e.Execute(ctx, protocol.ExecuteRequest{Code: `async () => await store.slow()`, Providers: store, Dispatch: blocking})
	if !errors.Is(err, &protocol.Error{Code: CodeConnectionLost}) {
		t.Fatalf("in flight: %v, want CONNECTION_LOST", err)
	}
	if c := <-cause; protocol.CodeOf(c) != CodeConnectionLost {
		t.Errorf("the tool call's context ended with %v", c)
	}
	if _, err := e.InvokeHandle(ctx, kept.ExecutionID, "f", ""); !errors.Is(err, &protocol.Error{Code: protocol.CodeUnknownExecution}) {
		t.Errorf("a handle of the lost session: %v, want UNKNOWN_EXECUTION", err)
	}

	steps := []struct {
		name    string
		refuse  int32
		waits   []time.Duration
		lost    bool
		upgrade int32
	}{
		{"two refusals, then a session", 2, []time.Duration{250 * time.Millisecond, 500 * time.Millisecond}, false, 3},
		{"refused throughout", 10, []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, 750 * time.Millisecond}, true, 4},
		{"at once", 0, nil, false, 1},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			f.cut()
			eventually(t, "the session to drop", func() bool { return !e.hasLive() })
			f.refuse.Store(s.refuse)
			before := f.upgrades.Load()
			res, err := e.Execute(ctx, protocol.ExecuteRequest{Code: `async () => 1`})
			f.refuse.Store(0)
			switch {
			case s.lost && !errors.Is(err, &protocol.Error{Code: CodeConnectionLost}):
				t.Errorf("got %s %v, want CONNECTION_LOST", outcome(res), err)
			case s.lost && !strings.Contains(err.Error(), "after 4 attempts"):
				t.Errorf("the error does not count the attempts: %v", err)
			case !s.lost && (err != nil || string(res.Result) != "1"):
				t.Errorf("got %s %v", outcome(res), err)
			}
			if w := waits.take(); !slices.Equal(w, s.waits) {
				t.Errorf("backoffs %v, want %v", w, s.waits)
			}
			if n := f.upgrades.Load() - before; n != s.upgrade {
				t.Errorf("%d upgrades, want %d", n, s.upgrade)
			}
		})
	}
}

// TestReconnectDisabled: with reconnection off, a lost session stays
// lost; a session the server retired (status 1001) is no loss.
func TestReconnectDisabled(t *testing.T) {
	_, f := deployment(t, server.Config{})
	e := dial(t, f.url, Options{Reconnect: &ReconnectOptions{Disabled: true}})
	ctx := context.Background()
	f.cut()
	eventually(t, "the session to drop", func() bool { return !e.hasLive() })
	before := f.upgrades.Load()
	for range 2 {
		_, err := e.Execute(ctx, protocol.ExecuteRequest{Code: `1`})
		if !errors.Is(err, &protocol.Error{Code: CodeConnectionLost}) || !strings.Contains(err.Error(), "reconnection is disabled") {
			t.Errorf("got %v, want CONNECTION_LOST", err)
		}
	}
	if n := f.upgrades.Load() - before; n != 0 {
		t.Errorf("%d upgrades, want none", n)
	}

	// A server that closes with 1001 (its connection reached its maximum
	// age) retires the session: the next call opens a new one.
	g := fakeServer(t, func(c *fakeConn) {
		if c.ack() && c.n == 1 {
			_ = c.ws.Close(websocket.StatusGoingAway, "connection reached its maximum age")
			return
		}
		for {
			m, ok := c.recv().(*protocol.ExecuteMessage)
			if !ok {
				return
			}
			c.send(&protocol.ResultMessage{ID: m.ID, ResultJSON: json.RawMessage(`"second"`)})
		}
	})
	e2 := dial(t, g.url, Options{Reconnect: &ReconnectOptions{Disabled: true}})
	eventually(t, "the session to close", func() bool { return !e2.hasLive() })
	res, err := e2.Execute(ctx, protocol.ExecuteRequest{Code: `1`})
	if err != nil || string(res.Result) != `"second"` {
		t.Errorf("after a 1001: %s %v", outcome(res), err)
	}
}

// TestRefusedWhileDraining: a request a draining server refuses with
// SHUTTING_DOWN did not start: it goes once more, to a new session.
func TestRefusedWhileDraining(t *testing.T) {
	var executes atomic.Int32
	f := fakeServer(t, func(c *fakeConn) {
		if !c.ack() {
			return
		}
		for {
			m, ok := c.recv().(*protocol.ExecuteMessage)
			if !ok {
				return
			}
			executes.Add(1)
			if c.n == 1 {
				c.send(&protocol.ErrorMessage{ID: m.ID, Code: protocol.CodeShuttingDown, Message: "draining"})
				continue
			}
			c.send(&protocol.ResultMessage{ID: m.ID, ResultJSON: json.RawMessage(fmt.Sprintf(`"from %d"`, c.n))})
		}
	})
	e := dial(t, f.url, Options{})
	res, err := e.Execute(context.Background(), protocol.ExecuteRequest{Code: `1`})
	if err != nil || string(res.Result) != `"from 2"` || executes.Load() != 2 {
		t.Fatalf("got %s %v after %d executes", outcome(res), err, executes.Load())
	}
	eventually(t, "the draining session to close", func() bool { return e.openSessions() == 1 })
}

// TestRotation: a session retires after RotateAfterExecutions runs, and
// closes once idle; an execution it retained keeps it open, and its
// handles go to it.
func TestRotation(t *testing.T) {
	_, f := deployment(t, server.Config{})
	ctx := context.Background()
	t.Run("sequential", func(t *testing.T) {
		before := f.upgrades.Load()
		e := dial(t, f.url, Options{RotateAfterExecutions: 2})
		for i := range 5 {
			res, err := e.Execute(ctx, protocol.ExecuteRequest{Code: fmt.Sprintf(`async () => %d`, i)})
			if err != nil || string(res.Result) != fmt.Sprint(i) {
				t.Fatalf("run %d: %s %v", i, outcome(res), err)
			}
		}
		if n := f.upgrades.Load() - before; n != 3 {
			t.Errorf("%d sessions for 5 runs rotating after 2, want 3", n)
		}
		eventually(t, "the retired sessions to close", func() bool { return e.openSessions() == 1 })
	})
	t.Run("concurrent", func(t *testing.T) {
		e := dial(t, f.url, Options{RotateAfterExecutions: 3})
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Go(func() {
				res, err := e.Execute(ctx, protocol.ExecuteRequest{Code: `async () => await store.getUser(1)`, Providers: store, Dispatch: storeDispatch})
				if err != nil || string(res.Result) != `{"id":1,"name":"Ada"}` {
					t.Errorf("run %d: %s %v", i, outcome(res), err)
				}
			})
		}
		wg.Wait()
		eventually(t, "the retired sessions to close", func() bool { return e.openSessions() <= 1 })
	})
	t.Run("retained", func(t *testing.T) {
		before := f.upgrades.Load()
		e := dial(t, f.url, Options{RotateAfterExecutions: 1})
		var calls atomic.Int32
		counting := func(ctx context.Context, p, tool, args string) string {
			calls.Add(1)
			return storeDispatch(ctx, p, tool, args)
		}
		kept, err := e.Execute(ctx, protocol.ExecuteRequest{Providers: store, Dispatch: counting, RetainHandles: true,
			Code: `async () => ({ name: async () => (await store.getUser(1)).name })`})
		if err != nil || kept.ExecutionID == "" {
			t.Fatalf("retain: %+v %v", kept, err)
		}
		if res, err := e.Execute(ctx, protocol.ExecuteRequest{Code: `async () => 2`}); err != nil || string(res.Result) != "2" {
			t.Fatalf("second: %s %v", outcome(res), err)
		}
		eventually(t, "the second session to close", func() bool { return e.openSessions() == 1 })
		// The retired first session is still open for the handles: the
		// server would answer UNKNOWN_EXECUTION on any other.
		res, err := e.InvokeHandle(ctx, kept.ExecutionID, "name", "")
		if err != nil || string(res.Result) != `"Ada"` || calls.Load() != 1 {
			t.Fatalf("invoke: %s %v, %d calls", outcome(res), err, calls.Load())
		}
		if err := e.CloseHandles(ctx, kept.ExecutionID); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the first session to close", func() bool { return e.openSessions() == 0 })
		if n := f.upgrades.Load() - before; n != 2 {
			t.Errorf("%d sessions, want 2", n)
		}
	})
}

// TestDrain: a server drains while a run waits on a tool; the run comes
// back SUSPENDED and resumes on the server behind the same URL after it
// (sharing the snapshot key), making the cut-off tool call again.
func TestDrain(t *testing.T) {
	for _, transparent := range []bool{true, false} {
		t.Run(fmt.Sprintf("transparent=%v", transparent), func(t *testing.T) {
			a := newServer(t, server.Config{ShutdownDrain: time.Millisecond})
			b := newServer(t, server.Config{})
			f := newFront(t, a.Handler())
			e := dial(t, f.url, Options{ResumeSuspended: &transparent})

			started := make(chan struct{})
			var calls atomic.Int32
			cutOff := make(chan error, 1) // how the cut-off call's context ended
			dispatch := func(ctx context.Context, p, tool, args string) string {
				if calls.Add(1) == 1 {
					close(started)
					<-ctx.Done()
					cutOff <- context.Cause(ctx)
					return protocol.ErrorEnvelope("cut off")
				}
				return storeDispatch(ctx, p, tool, args)
			}
			req := protocol.ExecuteRequest{Providers: store, Dispatch: dispatch,
				Code: `async () => { console.log("start"); const u = await store.getUser(1); console.log("got " + u.name); return "hello " + u.name }`}
			type result struct {
				res protocol.ExecuteResult
				err error
			}
			done := make(chan result, 1)
			go func() {
				res, err := e.Execute(context.Background(), req)
				done <- result{res, err}
			}()
			<-started
			f.use(b.Handler()) // B answers at the same URL from now on
			shutdown := make(chan error, 1)
			go func() { shutdown <- a.Shutdown(context.Background()) }()
			r := <-done
			if err := <-shutdown; err != nil {
				t.Fatal(err)
			}
			if !transparent {
				if r.err != nil || r.res.Error == nil || r.res.Error.Code != protocol.CodeSuspended || len(r.res.State) == 0 {
					t.Fatalf("got %s %v, want SUSPENDED with a state", outcome(r.res), r.err)
				}
				res, err := e.Resume(context.Background(), protocol.ResumeRequest{State: r.res.State, Providers: store, Dispatch: dispatch})
				r = result{res, err}
			}
			if r.err != nil || string(r.res.Result) != `"hello Ada"` || logLines(r.res) != "log:start log:got Ada" {
				t.Fatalf("got %s (logs %q) %v", outcome(r.res), logLines(r.res), r.err)
			}
			if n := calls.Load(); n != 2 {
				t.Errorf("%d tool calls, want 2: the cut-off one and its retry", n)
			}
			if c := <-cutOff; !errors.Is(c, errRunEnded) {
				t.Errorf("the cut-off call's context ended with %v", c)
			}
			if n := f.upgrades.Load(); n != 2 {
				t.Errorf("%d sessions, want 2", n)
			}
		})
	}
}

// TestClose: Close fails the calls in flight and every later one with
// SHUTTING_DOWN, ends their tool calls' contexts, and leaves nothing
// running.
func TestClose(t *testing.T) {
	_, f := deployment(t, server.Config{})
	e, err := Dial(context.Background(), f.url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	kept, err := e.Execute(context.Background(), protocol.ExecuteRequest{Code: `async () => ({ f: () => 1 })`, RetainHandles: true})
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := e.Execute(context.Background(), protocol.ExecuteRequest{Code: `async () => await store.slow()`, Providers: store,
			Dispatch: func(ctx context.Context, _, _, _ string) string {
				close(started)
				<-ctx.Done()
				return protocol.ErrorEnvelope("closed")
			}})
		done <- err
	}()
	<-started
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, &protocol.Error{Code: protocol.CodeShuttingDown}) {
		t.Errorf("in flight: %v, want SHUTTING_DOWN", err)
	}
	checkNoLeaks(t)
	if err := e.Close(); err != nil {
		t.Errorf("Close twice: %v", err)
	}
	_, err = e.Execute(context.Background(), protocol.ExecuteRequest{Code: `1`})
	if !errors.Is(err, &protocol.Error{Code: protocol.CodeShuttingDown}) {
		t.Errorf("Execute after Close: %v", err)
	}
	if _, err := e.InvokeHandle(context.Background(), kept.ExecutionID, "f", ""); !errors.Is(err, &protocol.Error{Code: protocol.CodeShuttingDown}) {
		t.Errorf("InvokeHandle after Close: %v", err)
	}
}

// TestDialErrors: bad options and an address with nothing behind it.
func TestDialErrors(t *testing.T) {
	cases := []struct {
		name string
		url  string
		opts Options
		want string
	}{
		{"a URL of another scheme", "ftp://x", Options{}, "not a ws:// or wss:// URL"},
		{"negative retries", "ws://x", Options{Reconnect: &ReconnectOptions{Retries: -1}}, "Reconnect.Retries is -1"},
		{"an unknown outbound mode", "ws://x", Options{Outbound: "web"}, `Outbound is "web"`},
		{"nothing listening", "ws://127.0.0.1:1/", Options{}, string(CodeConnectionLost)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Dial(context.Background(), c.url, c.opts)
			if err == nil || (!strings.Contains(err.Error(), c.want) && protocol.CodeOf(err) != protocol.Code(c.want)) {
				t.Errorf("got %v, want %s", err, c.want)
			}
		})
	}
	checkNoLeaks(t)
}
