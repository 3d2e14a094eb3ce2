package codemode_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/protocol"
)

var storeProviders = []protocol.ProviderDescriptor{{Name: "store", Tools: []string{"getUser", "slow"}}}

// storeDispatch answers store.getUser(id) and store.slow() (after
// delay).
func storeDispatch(delay time.Duration, calls *atomic.Int32) protocol.DispatchFunc {
	return func(ctx context.Context, provider, tool, args string) string {
		if calls != nil {
			calls.Add(1)
		}
		if tool == "slow" {
			select {
			case <-time.After(delay):
			case <-ctx.Done():
				return protocol.ErrorEnvelope("cancelled")
			}
			return `{"result":"slow done"}`
		}
		var a []float64
		_ = json.Unmarshal([]byte(args), &a)
		if len(a) == 0 || a[0] != 1 {
			return protocol.ErrorEnvelope("no such user")
		}
		return `{"result":{"id":1,"name":"Ada"}}`
	}
}

// TestExecutorExecute: the executor contract in-process: the result's
// JSON or its failure with the protocol's code, and the console lines
// with their levels.
func TestExecutorExecute(t *testing.T) {
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ex := rt.Executor(codemode.ExecutorOptions{})
	defer ex.Close()
	cases := []struct {
		name string
		req  protocol.ExecuteRequest
		want string // result JSON, or code: message
		logs string
	}{
		{"providers and logs", protocol.ExecuteRequest{Code: `async () => { const u = await store.getUser(1); console.log(u.name); console.warn("careful"); console.error("bad"); console.debug("dbg"); return u.id }`},
			`1`, `log:Ada warn:careful error:bad debug:dbg`},
		{"a program's throw has no code", protocol.ExecuteRequest{Code: `async () => { await store.getUser(2) }`}, `: no such user`, ``},
		{"a syntax error", protocol.ExecuteRequest{Code: `async () => { return ( }`}, `: Unexpected token '}' (1:23)`, ``},
		{"a timeout", protocol.ExecuteRequest{Code: `async () => { while (true) {} }`, Timeout: protocol.TimeoutMillis(50)},
			`TIMEOUT: Execution timed out after 50ms.`, ``},
		{"host waits do not count by default", protocol.ExecuteRequest{Code: `async () => { return await store.slow() }`, Timeout: protocol.TimeoutMillis(100)},
			`"slow done"`, ``},
		{"host waits counted when asked", protocol.ExecuteRequest{Code: `async () => { return await store.slow() }`, Timeout: protocol.TimeoutMillis(100), CountHostWaits: true},
			`TIMEOUT: Execution timed out after 100ms.`, ``},
		{"invalid providers", protocol.ExecuteRequest{Code: `1`, Providers: []protocol.ProviderDescriptor{{Name: "JSON"}}},
			`INVALID_REQUEST: Provider name "JSON" is reserved`, ``},
		{"warnings are warn lines", protocol.ExecuteRequest{Code: `async () => { Promise.reject(new Error("lost")); return 1 }`},
			`1`, `warn:Warning: Unhandled rejection from an un-awaited promise: Error: lost`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := c.req
			if req.Providers == nil {
				req.Providers = storeProviders
			}
			req.Dispatch = storeDispatch(250*time.Millisecond, nil)
			res, err := ex.Execute(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			got := string(res.Result)
			if res.Error != nil {
				got = string(res.Error.Code) + ": " + res.Error.Message
			}
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			var logs []string
			for _, l := range res.Logs {
				logs = append(logs, l.Level+":"+l.Text)
			}
			if strings.Join(logs, " ") != c.logs {
				t.Errorf("logs %q, want %q", logs, c.logs)
			}
		})
	}
}

// TestExecutorRefuses: stub outbound without a performer and a closed
// executor are the executor's own errors.
func TestExecutorRefuses(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{})
	ex := rt.Executor(codemode.ExecutorOptions{})
	_, err := ex.Execute(context.Background(), protocol.ExecuteRequest{Code: "1", Outbound: protocol.OutboundStub})
	if protocol.CodeOf(err) != protocol.CodeProtocolMismatch {
		t.Errorf("stub without fetch: %v", err)
	}
	_ = ex.Close()
	_, err = ex.Execute(context.Background(), protocol.ExecuteRequest{Code: "1"})
	if protocol.CodeOf(err) != protocol.CodeShuttingDown {
		t.Errorf("after Close: %v", err)
	}
}

// TestExecutorHandles: RetainHandles keeps a run whose value holds
// functions; InvokeHandle calls them with the dispatch grammar's
// arguments, its tool calls reaching the execution's dispatch.
func TestExecutorHandles(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{})
	ex := rt.Executor(codemode.ExecutorOptions{})
	defer ex.Close()
	ctx := context.Background()
	var calls atomic.Int32
	res, err := ex.Execute(ctx, protocol.ExecuteRequest{Providers: storeProviders, Dispatch: storeDispatch(0, &calls), RetainHandles: true,
		Code: `async () => { let seen = []; return { lookup: async id => { const u = await store.getUser(id); seen.push(u.name); return seen }, bytes: b => b.length } }`})
	if err != nil || res.ExecutionID == "" || strings.Join(res.Handles, ",") != "lookup,bytes" {
		t.Fatalf("got %+v, %v", res, err)
	}
	got, err := ex.InvokeHandle(ctx, res.ExecutionID, "lookup", `[1]`)
	if err != nil || string(got.Result) != `["Ada"]` || calls.Load() != 1 {
		t.Errorf("lookup: %+v %v", got, err)
	}
	got, _ = ex.InvokeHandle(ctx, res.ExecutionID, "lookup", `1`)
	if string(got.Result) != `["Ada","Ada"]` {
		t.Errorf("lookup again: %+v", got)
	}
	got, _ = ex.InvokeHandle(ctx, res.ExecutionID, "bytes", `[{"$binary":"AQIDBA=="}]`)
	if string(got.Result) != `4` {
		t.Errorf("bytes: %+v", got)
	}
	if _, err := ex.InvokeHandle(ctx, res.ExecutionID, "lookup", `[1`); protocol.CodeOf(err) != protocol.CodeMalformedMessage {
		t.Errorf("bad args: %v", err)
	}
	if err := ex.CloseHandles(ctx, res.ExecutionID); err != nil {
		t.Fatal(err)
	}
	if _, err := ex.InvokeHandle(ctx, res.ExecutionID, "lookup", `[1]`); !errors.Is(err, codemode.ErrUnknownExecution) {
		t.Errorf("after close: %v", err)
	}
	if err := ex.CloseHandles(ctx, "x-nope"); protocol.CodeOf(err) != protocol.CodeUnknownExecution {
		t.Errorf("unknown: %v", err)
	}
}

// TestExecutorSuspend: closing a request's Suspend channel while its run
// waits on a dispatch saves the run; Resume continues it with the same
// providers, making the cut-off call again.
func TestExecutorSuspend(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{})
	ex := rt.Executor(codemode.ExecutorOptions{})
	ctx := context.Background()
	started := make(chan struct{}, 1)
	var calls atomic.Int32
	blocking := func(ctx context.Context, provider, tool, args string) string {
		calls.Add(1)
		started <- struct{}{}
		<-ctx.Done()
		return protocol.ErrorEnvelope("cut off")
	}
	suspend := make(chan struct{})
	type outcome struct {
		res protocol.ExecuteResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := ex.Execute(ctx, protocol.ExecuteRequest{Providers: storeProviders, Dispatch: blocking, Suspend: suspend,
			Code: `async () => { console.log("start"); const u = await store.getUser(1); return "hello " + u.name }`})
		done <- outcome{res, err}
	}()
	<-started
	close(suspend)
	o := <-done
	if o.err != nil || o.res.Error == nil || o.res.Error.Code != protocol.CodeSuspended || len(o.res.State) == 0 {
		t.Fatalf("got %+v, %v", o.res, o.err)
	}
	other := rt.Executor(codemode.ExecutorOptions{})
	res, err := other.Resume(ctx, protocol.ResumeRequest{State: o.res.State, Providers: storeProviders, Dispatch: storeDispatch(0, &calls)})
	if err != nil || string(res.Result) != `"hello Ada"` || len(res.Logs) != 1 || res.Logs[0].Text != "start" {
		t.Fatalf("resumed: %+v, %v", res, err)
	}
	if calls.Load() != 2 {
		t.Errorf("%d dispatches, want the cut-off call and its retry", calls.Load())
	}
	res, _ = other.Resume(ctx, protocol.ResumeRequest{State: o.res.State, Providers: []protocol.ProviderDescriptor{{Name: "other", Tools: []string{"x"}}}})
	if res.Error == nil || res.Error.Code != protocol.CodeInvalidRequest || !strings.Contains(res.Error.Message, "tool tree") {
		t.Errorf("other providers: %+v", res)
	}
}

// TestExecutorOutbound: the request's outbound mode picks fetch's
// performer: the executor's native one, the request's stub, or none.
func TestExecutorOutbound(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{})
	native := func(context.Context, protocol.OutboundRequest) (protocol.OutboundResponse, error) {
		return protocol.OutboundResponse{Status: 200, Body: []byte("native")}, nil
	}
	stub := func(context.Context, protocol.OutboundRequest) (protocol.OutboundResponse, error) {
		return protocol.OutboundResponse{Status: 200, Body: []byte("stub")}, nil
	}
	code := `async () => { try { return await (await fetch("https://api.example/")).text() } catch (e) { return e.message } }`
	for _, c := range []struct {
		native protocol.FetchFunc
		mode   protocol.OutboundMode
		want   string
	}{
		{native, "", `"native"`},
		{native, protocol.OutboundNative, `"native"`},
		{native, protocol.OutboundStub, `"stub"`},
		{native, protocol.OutboundDisabled, `"fetch is disabled: this run has no network access. Get the data through the tools instead."`},
		{nil, "", `"fetch is disabled: this run has no network access. Get the data through the tools instead."`},
		{nil, protocol.OutboundNative, `"fetch is disabled: this run has no network access. Get the data through the tools instead."`},
	} {
		ex := rt.Executor(codemode.ExecutorOptions{Native: c.native})
		res, err := ex.Execute(context.Background(), protocol.ExecuteRequest{Code: code, Outbound: c.mode, Fetch: stub})
		if err != nil || string(res.Result) != c.want {
			t.Errorf("native %v, mode %q: got %s %v, want %s", c.native != nil, c.mode, res.Result, err, c.want)
		}
	}
}
