package bench

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/protocol"
	"github.com/go-codemode/codemode/remote"
	"github.com/go-codemode/codemode/server"
)

// DispatchProgram makes DispatchCalls tool calls in sequence through a
// provider, each one round trip to the host's dispatch function.
const DispatchProgram = `async () => { let s = 0; for (let i = 0; i < 20; i++) s += await store.next(i); return s }`

// DispatchCalls is how many dispatches one run of DispatchProgram makes.
const DispatchCalls = 20

// DispatchWant is DispatchProgram's value with DispatchFunc answering.
const DispatchWant = "210"

// DispatchProviders are DispatchProgram's providers.
var DispatchProviders = []protocol.ProviderDescriptor{{Name: "store", Tools: []string{"next"}}}

// DispatchFunc answers store.next(i) with i + 1.
func DispatchFunc(_ context.Context, _, _, args string) string {
	var i int
	_, _ = fmt.Sscanf(args, "[%d]", &i)
	return fmt.Sprintf(`{"result":%d}`, i+1)
}

// Dispatchers are the two ways of running DispatchProgram compared: the
// in-process executor, and codemode serve over loopback through the Go
// client. Close releases them.
type Dispatchers struct {
	InProcess protocol.Executor
	Remote    protocol.Executor
	close     func()
}

// Close stops the server and the clients.
func (d *Dispatchers) Close() { d.close() }

// NewDispatchers starts a server on loopback (an in-process runtime on
// engine vm behind the WebSocket protocol) and dials it.
func NewDispatchers(ctx context.Context) (*Dispatchers, error) {
	rt, err := codemode.New(codemode.Options{Engine: codemode.EngineVM})
	if err != nil {
		return nil, err
	}
	local := rt.Executor(codemode.ExecutorOptions{})
	backend := rt.Executor(codemode.ExecutorOptions{})
	srv, err := server.New(server.Config{PingInterval: -1}, backend)
	if err != nil {
		return nil, err
	}
	ts := httptest.NewServer(srv.Handler())
	url := "ws" + strings.TrimPrefix(ts.URL, "http")
	client, err := remote.Dial(ctx, url, remote.Options{})
	if err != nil {
		ts.Close()
		return nil, err
	}
	return &Dispatchers{InProcess: local, Remote: client, close: func() {
		_ = client.Close()
		_ = srv.Shutdown(context.Background())
		ts.Close()
		_ = backend.Close()
		_ = local.Close()
	}}, nil
}

// RunDispatch runs DispatchProgram on ex and checks its value.
func RunDispatch(ctx context.Context, ex protocol.Executor) error {
	res, err := ex.Execute(ctx, protocol.ExecuteRequest{Code: DispatchProgram, Providers: DispatchProviders, Dispatch: DispatchFunc})
	if err != nil {
		return err
	}
	if res.Error != nil || string(res.Result) != DispatchWant {
		return fmt.Errorf("got %s %v", res.Result, res.Error)
	}
	return nil
}
