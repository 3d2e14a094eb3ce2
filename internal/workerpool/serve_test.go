package workerpool

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/protocol"
)

// serveHarness runs Serve in process, on pipes, as a pool would talk to
// it: frames written to in, frames read from out.
type serveHarness struct {
	in   *io.PipeWriter
	out  chan any
	done chan error
}

func newServeHarness(t *testing.T, ctx context.Context, w io.Writer) *serveHarness {
	t.Helper()
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &serveHarness{in: inW, out: make(chan any, 64), done: make(chan error, 1)}
	if w == nil {
		w = outW
	}
	go func() {
		h.done <- Serve(ctx, inR, w, rt.Executor(codemode.ExecutorOptions{}))
		outW.Close()
	}()
	go func() {
		br := bufio.NewReader(outR)
		for {
			b, err := readFrame(br, maxFrame)
			if err != nil {
				close(h.out)
				return
			}
			m, err := decodeMessage(b)
			if err != nil {
				m = err
			}
			h.out <- m
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
	})
	return h
}

func (h *serveHarness) send(t *testing.T, m any) {
	t.Helper()
	if err := writeFrame(h.in, mustEncode(m)); err != nil {
		t.Fatal(err)
	}
}

func (h *serveHarness) sendRaw(t *testing.T, frame string) {
	t.Helper()
	if err := writeFrame(h.in, []byte(frame)); err != nil {
		t.Fatal(err)
	}
}

// next returns the next message from the worker other than a memory
// report.
func (h *serveHarness) next(t *testing.T) any {
	t.Helper()
	for {
		select {
		case m, ok := <-h.out:
			if !ok {
				t.Fatal("the worker's output ended")
			}
			if _, mem := m.(*memoryMessage); !mem {
				return m
			}
		case <-time.After(time.Minute):
			t.Fatal("no message from the worker")
		}
	}
}

func (h *serveHarness) result(t *testing.T) error {
	t.Helper()
	select {
	case err := <-h.done:
		return err
	case <-time.After(time.Minute):
		t.Fatal("Serve did not return")
	}
	return nil
}

func startExecute(id, code string, dispatch bool) *startMessage {
	return &startMessage{Type: typeStart, ID: id, Dispatch: dispatch,
		Request: mustEncode(&protocol.ExecuteMessage{ID: id, Code: code, Providers: storeProvider("get")})}
}

// TestServeRun: a run's tool call goes out as a dispatch and its
// result, preceded by a memory report, comes back; the end of input
// ends Serve cleanly.
func TestServeRun(t *testing.T) {
	h := newServeHarness(t, context.Background(), nil)
	h.send(t, startExecute("r1", `async () => { const v = await store.get(2); console.log("got", v); return v * 10 }`, true))
	d, ok := h.next(t).(*protocol.DispatchMessage)
	if !ok || d.ID != "r1" || d.Provider != "store" || d.Tool != "get" || d.Args != "[2]" {
		t.Fatalf("dispatch %+v", d)
	}
	h.send(t, &protocol.DispatchResultMessage{ID: "r1", CallID: "unknown", Envelope: `{"result":0}`}) // dropped
	h.send(t, &protocol.DispatchResultMessage{ID: "r1", CallID: d.CallID, Envelope: `{"result":4}`})
	mem := 0
	for {
		m, ok := <-h.out
		if !ok {
			t.Fatal("no result")
		}
		if _, isMem := m.(*memoryMessage); isMem {
			mem++
			continue
		}
		r, ok := m.(*protocol.ResultMessage)
		if !ok || r.ID != "r1" || string(r.ResultJSON) != "40" || len(r.Logs) != 1 || mem != 1 {
			t.Fatalf("result %+v after %d memory reports", m, mem)
		}
		break
	}
	h.send(t, &protocol.CancelMessage{ID: "r1"})            // over: ignored
	h.send(t, &suspendMessage{Type: typeSuspend, ID: "r9"}) // unknown: ignored
	h.in.Close()
	if err := h.result(t); err != nil {
		t.Fatalf("Serve after the end of input: %v", err)
	}
}

// TestServeEndCancelsRuns: when its input ends, Serve cancels the runs
// still going and returns once they have.
func TestServeEndCancelsRuns(t *testing.T) {
	h := newServeHarness(t, context.Background(), nil)
	h.send(t, startExecute("r1", `async () => { await store.get(1) }`, true))
	if _, ok := h.next(t).(*protocol.DispatchMessage); !ok {
		t.Fatal("no dispatch")
	}
	h.in.Close()
	r, ok := h.next(t).(*protocol.ResultMessage)
	if !ok || r.Error == nil || r.Error.Code != protocol.CodeCancelled {
		t.Fatalf("result %+v", r)
	}
	if err := h.result(t); err != nil {
		t.Fatal(err)
	}
}

// TestServeExecutorError: the executor's own failure is an error
// message of the request's id.
func TestServeExecutorError(t *testing.T) {
	h := newServeHarness(t, context.Background(), nil)
	h.send(t, &startMessage{Type: typeStart, ID: "r1", Request: mustEncode(&protocol.ExecuteMessage{ID: "r1", Code: "1",
		Options: protocol.ExecuteOptions{Outbound: protocol.OutboundStub}})})
	if e, ok := h.next(t).(*protocol.ErrorMessage); !ok || e.ID != "r1" || e.Code != protocol.CodeProtocolMismatch {
		t.Fatalf("answer %+v", e)
	}
	h.send(t, &protocol.InvokeHandleMessage{ID: "i1", ExecutionID: "x-none", Handle: "f"})
	if e, ok := h.next(t).(*protocol.ErrorMessage); !ok || e.ID != "i1" || e.Code != protocol.CodeUnknownExecution {
		t.Fatalf("answer %+v", e)
	}
	h.send(t, &protocol.CloseHandlesMessage{ID: "c1", ExecutionID: "x-none"})
	if e, ok := h.next(t).(*protocol.ErrorMessage); !ok || e.ID != "c1" || e.Code != protocol.CodeUnknownExecution {
		t.Fatalf("answer %+v", e)
	}
}

// TestServeBadInput: a frame the pool would never send ends Serve with
// an error.
func TestServeBadInput(t *testing.T) {
	execute := string(mustEncode(&protocol.ExecuteMessage{ID: "r1", Code: `async () => { await store.get() }`,
		Providers: storeProvider("get")}))
	tests := []struct {
		name   string
		frames []string
		want   string
	}{
		{"not JSON", []string{"hello"}, "not one JSON object"},
		{"a message for the pool", []string{`{"type":"result","id":"r1"}`}, `unexpected "result" message`},
		{"unknown field", []string{`{"type":"suspend","id":"r1","x":1}`}, "unknown field"},
		{"start of a cancel", []string{`{"type":"start","id":"r1","request":{"type":"cancel","id":"r1"}}`}, `carries a "cancel" message`},
		{"start of another id", []string{`{"type":"start","id":"r2","request":` + execute + `}`}, `carries a request of id "r1"`},
		{"start of garbage", []string{`{"type":"start","id":"r1","request":{"type":"execute"}}`}, "malformed message"},
		{"reused id", []string{`{"type":"start","id":"r1","dispatch":true,"request":` + execute + `}`,
			`{"type":"start","id":"r1","request":` + execute + `}`}, "already in flight"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newServeHarness(t, context.Background(), nil)
			go func() {
				for range h.out {
				}
			}()
			for _, f := range tt.frames {
				h.sendRaw(t, f)
			}
			if err := h.result(t); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Serve returned %v, want %q", err, tt.want)
			}
		})
	}
	t.Run("broken frame", func(t *testing.T) {
		h := newServeHarness(t, context.Background(), nil)
		h.in.Write([]byte("\x00\x00\x00\x09abc"))
		h.in.Close()
		if err := h.result(t); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("Serve returned %v", err)
		}
	})
}

// TestServeWriteFails: a pool that no longer reads ends Serve.
func TestServeWriteFails(t *testing.T) {
	h := newServeHarness(t, context.Background(), failWriter{})
	h.send(t, startExecute("r1", `async () => { return 1 }`, false))
	if err := h.result(t); err == nil || !strings.Contains(err.Error(), "writing to the pool") {
		t.Fatalf("Serve returned %v", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestServeContext: ending Serve's context ends it.
func TestServeContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	h := newServeHarness(t, ctx, nil)
	go func() {
		for range h.out {
		}
	}()
	cancel()
	if err := h.result(t); !errors.Is(err, context.Canceled) {
		t.Fatalf("Serve returned %v", err)
	}
}
