package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/go-codemode/codemode/protocol"
)

// testLogger sends the server's logs to the test's log.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

func TestHandshake(t *testing.T) {
	bearer := func(tok string) http.Header { return http.Header{"Authorization": {"Bearer " + tok}} }
	hello := func(version int, token string) string {
		data, _ := protocol.Encode(&protocol.HelloMessage{ID: "h1", Version: version, Token: token})
		return string(data)
	}
	identify := func(_ context.Context, h Handshake) (Identity, error) {
		if h.Token == "alice" && h.Header.Get("X-Team") == "red" && h.RemoteAddr != "" {
			return Identity{Subject: "alice"}, nil
		}
		return Identity{}, errors.New("only alice of the red team")
	}
	tests := []struct {
		name    string
		cfg     Config
		header  http.Header
		first   string // the first frame
		binary  bool   // send first as a binary frame
		code    protocol.Code
		id      string
		message string // a substring of the error's message
		status  websocket.StatusCode
	}{
		{name: "no token configured", first: hello(1, "")},
		{name: "no token configured, one given", first: hello(1, "whatever")},
		{name: "token in hello", cfg: Config{Token: "s3cret"}, first: hello(1, "s3cret")},
		{name: "token in header", cfg: Config{Token: "s3cret"}, header: bearer("s3cret"), first: hello(1, "")},
		{name: "wrong hello token, right header", cfg: Config{Token: "s3cret"}, header: bearer("s3cret"), first: hello(1, "nope")},
		{name: "wrong token", cfg: Config{Token: "s3cret"}, first: hello(1, "nope"),
			code: protocol.CodeConnectionRejected, id: "h1", message: "not valid", status: websocket.StatusPolicyViolation},
		{name: "wrong header token", cfg: Config{Token: "s3cret"}, header: bearer("nope"), first: hello(1, ""),
			code: protocol.CodeConnectionRejected, id: "h1", message: "not valid", status: websocket.StatusPolicyViolation},
		{name: "missing token", cfg: Config{Token: "s3cret"}, first: hello(1, ""),
			code: protocol.CodeConnectionRejected, id: "h1", message: "requires a token", status: websocket.StatusPolicyViolation},
		{name: "version mismatch", first: hello(2, ""), code: protocol.CodeProtocolMismatch, id: "h1",
			message: "protocol version mismatch: the peer speaks version 2, this side speaks version 1; both sides must speak the same version",
			status:  websocket.StatusProtocolError},
		{name: "execute before hello", first: `{"type":"execute","id":"e1","code":"x"}`,
			code: protocol.CodeMalformedMessage, id: "e1", message: "before the hello", status: websocket.StatusProtocolError},
		{name: "garbage before hello", first: `hello?`,
			code: protocol.CodeMalformedMessage, message: "not valid JSON", status: websocket.StatusProtocolError},
		{name: "malformed hello", first: `{"type":"hello","id":"h1","version":"1"}`,
			code: protocol.CodeMalformedMessage, id: "h1", message: `"version"`, status: websocket.StatusProtocolError},
		{name: "binary before hello", first: hello(1, ""), binary: true,
			code: protocol.CodeMalformedMessage, message: "binary", status: websocket.StatusProtocolError},
		{name: "oversized hello", cfg: Config{MaxFrameBytes: 64}, first: hello(1, strings.Repeat("x", 100)),
			code: protocol.CodePayloadTooLarge, message: "64 bytes", status: websocket.StatusMessageTooBig},
		{name: "identify accepts", cfg: Config{Identify: identify, Token: "ignored"}, header: http.Header{"X-Team": {"red"}},
			first: hello(1, "alice")},
		{name: "identify refuses", cfg: Config{Identify: identify}, first: hello(1, "bob"),
			code: protocol.CodeConnectionRejected, id: "h1", message: "only alice of the red team", status: websocket.StatusPolicyViolation},
		{name: "identify panics", cfg: Config{Identify: func(context.Context, Handshake) (Identity, error) { panic("boom") }},
			first: hello(1, ""), code: protocol.CodeConnectionRejected, id: "h1", message: "hook failed",
			status: websocket.StatusPolicyViolation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.cfg, newBackend().on("ping", pingProgram))
			c := h.dial(tt.header)
			typ := websocket.MessageText
			if tt.binary {
				typ = websocket.MessageBinary
			}
			if err := c.ws.Write(context.Background(), typ, []byte(tt.first)); err != nil {
				t.Fatal(err)
			}
			if tt.code == "" {
				ack := expect[*protocol.HelloAckMessage](c)
				if ack.ID != "h1" || ack.Version != protocol.Version {
					t.Fatalf("ack %+v", ack)
				}
				c.silent()
				return
			}
			e := c.expectError(tt.id, tt.code)
			if !strings.Contains(e.Message, tt.message) {
				t.Errorf("message %q, want it to contain %q", e.Message, tt.message)
			}
			c.expectClose(tt.status)
		})
	}
}

func TestHandshakeTimeout(t *testing.T) {
	h := newHarness(t, Config{HandshakeTimeout: 20 * time.Millisecond}, newBackend())
	c := h.dial(nil)
	e := c.expectError("", protocol.CodeConnectionRejected)
	if !strings.Contains(e.Message, "no hello within 20ms") {
		t.Errorf("message %q", e.Message)
	}
	c.expectClose(websocket.StatusPolicyViolation)
	if v, _ := h.metric(`codemode_handshakes_total{outcome="timeout"}`); v != 1 {
		t.Errorf("timeout handshakes = %v, want 1", v)
	}
}

func TestSecondHello(t *testing.T) {
	h := newHarness(t, Config{}, newBackend().on("ping", pingProgram))
	c := h.connect()
	c.send(&protocol.HelloMessage{ID: "h2", Version: protocol.Version})
	c.expectError("h2", protocol.CodeMalformedMessage)
	c.silent() // ignored: the connection works on
}

func TestHelloWhileNotAccepting(t *testing.T) {
	h := newHarness(t, Config{}, newBackend().on("ping", pingProgram))
	open := h.connect()
	if code, body := h.get("/readyz"); code != http.StatusOK {
		t.Fatalf("readyz %d %q before StopAccepting", code, body)
	}
	h.srv.StopAccepting()
	if h.srv.Accepting() {
		t.Fatal("Accepting after StopAccepting")
	}
	if code, _ := h.get("/readyz"); code != http.StatusServiceUnavailable {
		t.Fatalf("readyz %d while not accepting, want 503", code)
	}
	if code, _ := h.get("/healthz"); code != http.StatusOK {
		t.Fatalf("healthz %d while not accepting, want 200", code)
	}
	if v, _ := h.metric("codemode_draining"); v != 1 {
		t.Errorf("codemode_draining = %v, want 1", v)
	}
	c := h.dial(nil)
	c.send(&protocol.HelloMessage{ID: "h", Version: protocol.Version})
	c.expectError("h", protocol.CodeShuttingDown)
	c.expectClose(websocket.StatusGoingAway)
	open.silent() // open connections keep working

	h.srv.ResumeAccepting()
	if code, _ := h.get("/readyz"); code != http.StatusOK {
		t.Fatalf("readyz %d after ResumeAccepting", code)
	}
	h.connect().silent()
}

func TestIdentityReachesBackend(t *testing.T) {
	be := newBackend().on("whoami", func(ctx context.Context, _ protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
		id, ok := IdentityFromContext(ctx)
		if !ok {
			return protocol.ExecuteResult{}, errors.New("no identity")
		}
		return value(`"` + id.Subject + "/" + id.Attributes["team"] + `"`), nil
	})
	h := newHarness(t, Config{Identify: func(_ context.Context, hs Handshake) (Identity, error) {
		return Identity{Subject: hs.Token, Attributes: map[string]string{"team": "red"}}, nil
	}}, be)
	c := h.dial(nil)
	c.hello("alice")
	c.execute("1", "whoami", protocol.ExecuteOptions{})
	if r := c.expectResult("1"); string(r.ResultJSON) != `"alice/red"` {
		t.Fatalf("result %s", r.ResultJSON)
	}
	if _, ok := IdentityFromContext(context.Background()); ok {
		t.Error("an identity in a bare context")
	}
}
