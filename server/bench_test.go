package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/coder/websocket"

	"github.com/go-codemode/codemode/protocol"
)

// BenchmarkRoundTrip measures one execute whose program makes one tool
// call, over parallel connections (one per goroutine of RunParallel: use
// -cpu to vary them), through the whole server with a backend that does
// no work: the server's own cost per request. It is a helper for load
// tests, which put the real backend behind it.
func BenchmarkRoundTrip(b *testing.B) {
	be := newBackend().on("call", func(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
		return protocol.ExecuteResult{Result: json.RawMessage(req.Dispatch(ctx, "store", "get", "[1]"))}, nil
	})
	h := newHarness(b, Config{MaxWorkers: 64, MaxQueue: 1 << 16}, be)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		ws, _, err := websocket.Dial(ctx, h.url, nil)
		if err != nil {
			b.Error(err)
			return
		}
		defer ws.CloseNow()
		if err := roundTrips(ctx, ws, pb); err != nil {
			b.Error(err)
		}
		ws.Close(websocket.StatusNormalClosure, "")
	})
}

// roundTrips says hello and runs executes until pb says stop, answering
// their tool calls.
func roundTrips(ctx context.Context, ws *websocket.Conn, pb *testing.PB) error {
	write := func(m protocol.Message) error {
		data, err := protocol.Encode(m)
		if err != nil {
			return err
		}
		return ws.Write(ctx, websocket.MessageText, data)
	}
	read := func() (protocol.Message, error) {
		_, data, err := ws.Read(ctx)
		if err != nil {
			return nil, err
		}
		return protocol.Decode(data)
	}
	if err := write(&protocol.HelloMessage{ID: "h", Version: protocol.Version}); err != nil {
		return err
	}
	if _, err := read(); err != nil {
		return err
	}
	for i := 0; pb.Next(); i++ {
		id := strconv.Itoa(i)
		if err := write(&protocol.ExecuteMessage{ID: id, Code: "call"}); err != nil {
			return err
		}
		m, err := read()
		if err != nil {
			return err
		}
		d, ok := m.(*protocol.DispatchMessage)
		if !ok {
			return fmt.Errorf("got %T, want a dispatch", m)
		}
		if err := write(&protocol.DispatchResultMessage{ID: id, CallID: d.CallID, Envelope: `{"result":1}`}); err != nil {
			return err
		}
		if m, err = read(); err != nil {
			return err
		}
		if r, ok := m.(*protocol.ResultMessage); !ok || r.Error != nil {
			return fmt.Errorf("got %+v, want a result", m)
		}
	}
	return nil
}
