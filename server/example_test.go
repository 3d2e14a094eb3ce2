package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http/httptest"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/coder/websocket"

	"github.com/go-codemode/codemode/protocol"
	"github.com/go-codemode/codemode/server"
)

// toyBackend stands for the runtime: every program asks the client for
// user 1 and returns the user's name.
type toyBackend struct{}

func (toyBackend) Execute(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
	env := req.Dispatch(ctx, "store", "getUser", "[1]")
	result, msg, isErr, err := protocol.ParseEnvelope(env)
	if err != nil || isErr {
		return protocol.ExecuteResult{Error: &protocol.Error{Message: "Error: " + msg}}, nil
	}
	var user struct{ Name string }
	_ = json.Unmarshal(result, &user)
	name, _ := json.Marshal(user.Name)
	return protocol.ExecuteResult{Result: name,
		Logs: []protocol.LogLine{{Level: "log", Text: user.Name}}}, nil
}

func (toyBackend) Resume(context.Context, protocol.ResumeRequest) (protocol.ExecuteResult, error) {
	return protocol.ExecuteResult{}, protocol.NewError(protocol.CodeInvalidRequest, "nothing to resume")
}

func (toyBackend) InvokeHandle(_ context.Context, id, _, _ string) (protocol.ExecuteResult, error) {
	return protocol.ExecuteResult{}, protocol.Errorf(protocol.CodeUnknownExecution, "unknown execution %q", id)
}

func (toyBackend) CloseHandles(_ context.Context, id string) error {
	return protocol.Errorf(protocol.CodeUnknownExecution, "unknown execution %q", id)
}

// A session: hello, one execute whose tool call the client answers, and
// the result.
func Example() {
	srv, err := server.New(server.Config{Token: "s3cret"}, toyBackend{})
	if err != nil {
		log.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	defer srv.Shutdown(context.Background())

	ctx := context.Background()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close(websocket.StatusNormalClosure, "")
	send := func(frame string) {
		fmt.Println(">", frame)
		if err := ws.Write(ctx, websocket.MessageText, []byte(frame)); err != nil {
			log.Fatal(err)
		}
	}
	recv := func() protocol.Message {
		_, data, err := ws.Read(ctx)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("<", string(data))
		m, err := protocol.Decode(data)
		if err != nil {
			log.Fatal(err)
		}
		return m
	}

	send(`{"type":"hello","id":"h","version":1,"token":"s3cret"}`)
	recv()
	send(`{"type":"execute","id":"1","code":"async () => (await store.getUser(1)).name","providers":[{"name":"store","tools":["getUser"]}]}`)
	d := recv().(*protocol.DispatchMessage)
	send(fmt.Sprintf(`{"type":"dispatchResult","id":"1","callId":%q,"envelope":"{\"result\":{\"id\":1,\"name\":\"Ada\"}}"}`, d.CallID))
	recv()
	// Output:
	// > {"type":"hello","id":"h","version":1,"token":"s3cret"}
	// < {"type":"helloAck","id":"h","version":1}
	// > {"type":"execute","id":"1","code":"async () => (await store.getUser(1)).name","providers":[{"name":"store","tools":["getUser"]}]}
	// < {"type":"dispatch","id":"1","callId":"c1","provider":"store","tool":"getUser","args":"[1]"}
	// > {"type":"dispatchResult","id":"1","callId":"c1","envelope":"{\"result\":{\"id\":1,\"name\":\"Ada\"}}"}
	// < {"type":"result","id":"1","resultJson":"Ada","logs":[{"level":"log","text":"Ada"}]}
}

// Serving until SIGTERM, then draining: load balancers get 5 s to see
// /readyz fail, runs get 20 s to finish, and the rest come back
// SUSPENDED (or are cancelled).
func ExampleServer_ListenAndServe() {
	cfg := server.DefaultConfig()
	cfg.Token = os.Getenv("CODEMODE_TOKEN")
	cfg.ShutdownDelay = 5 * time.Second
	cfg.ShutdownDrain = 20 * time.Second
	srv, err := server.New(cfg, toyBackend{})
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := srv.ListenAndServe(ctx); err != nil {
		log.Fatal(err)
	}
}
