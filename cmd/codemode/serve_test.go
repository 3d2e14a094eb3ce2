package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/go-codemode/codemode/protocol"
)

// startServe runs `codemode serve args` until the returned stop is
// called, and returns its address.
func startServe(t *testing.T, args []string, env map[string]string) (url string, stop func() int, stderr *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	stderr = &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- runServe(ctx, args, func(k string) string { return env[k] }, pw, stderr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed no address: %v; stderr: %s", err, stderr)
	}
	go io.Copy(io.Discard, pr)
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if !ok {
		t.Fatalf("first line %q", line)
	}
	return url, func() int { cancel(); return <-done }, stderr
}

// syncBuffer is a bytes.Buffer safe for the server's log writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Buffer() *bytes.Buffer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.NewBuffer(bytes.Clone(s.b.Bytes()))
}

func (s *syncBuffer) String() string { return s.Buffer().String() }

// session is a raw protocol session for the tests.
type session struct {
	t    *testing.T
	conn *websocket.Conn
}

func dial(t *testing.T, url, token string) (*session, protocol.Message) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, conn: c}
	s.send(&protocol.HelloMessage{ID: "h", Version: protocol.Version, Token: token})
	return s, s.read()
}

func (s *session) send(m protocol.Message) {
	b, err := protocol.Encode(m)
	if err != nil {
		s.t.Fatal(err)
	}
	if err := s.conn.Write(context.Background(), websocket.MessageText, b); err != nil {
		s.t.Fatal(err)
	}
}

func (s *session) read() protocol.Message {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, b, err := s.conn.Read(ctx)
	if err != nil {
		s.t.Fatal(err)
	}
	m, err := protocol.Decode(b)
	if err != nil {
		s.t.Fatalf("%s: %v", b, err)
	}
	return m
}

// TestServe: `codemode serve` speaks the protocol: a program calls a
// provider, the client answers the dispatch, the result comes back; a
// wrong token is refused; SIGTERM (the context) drains it.
func TestServe(t *testing.T) {
	url, stop, _ := startServe(t, []string{"--addr", "127.0.0.1:0"}, map[string]string{"CODEMODE_TOKEN": "s3cret"})
	s, ack := dial(t, url, "s3cret")
	if _, ok := ack.(*protocol.HelloAckMessage); !ok {
		t.Fatalf("hello answered %#v", ack)
	}
	s.send(&protocol.ExecuteMessage{ID: "1", Code: `async () => { const u = await store.getUser(1); console.log(u.name); return u.id }`,
		Providers: []protocol.ProviderDescriptor{{Name: "store", Tools: []string{"getUser"}}}})
	d, ok := s.read().(*protocol.DispatchMessage)
	if !ok || d.Provider != "store" || d.Tool != "getUser" || d.Args != "[1]" {
		t.Fatalf("dispatch %#v", d)
	}
	s.send(&protocol.DispatchResultMessage{ID: "1", CallID: d.CallID, Envelope: `{"result":{"id":1,"name":"Ada"}}`})
	res, ok := s.read().(*protocol.ResultMessage)
	if !ok || string(res.ResultJSON) != "1" || len(res.Logs) != 1 || res.Logs[0].Text != "Ada" {
		t.Fatalf("result %#v", res)
	}
	s.send(&protocol.ExecuteMessage{ID: "2", Code: `async () => { while (true) {} }`, Options: protocol.ExecuteOptions{Timeout: protocol.TimeoutMillis(50)}})
	res, _ = s.read().(*protocol.ResultMessage)
	if res == nil || res.Error == nil || res.Error.Code != protocol.CodeTimeout {
		t.Fatalf("timeout %#v", res)
	}
	other, refused := dial(t, url, "wrong")
	if e, ok := refused.(*protocol.ErrorMessage); !ok || e.Code != protocol.CodeConnectionRejected {
		t.Fatalf("wrong token answered %#v", refused)
	}
	other.conn.CloseNow()
	// The client reads while the server drains: it sees the close.
	go func() {
		for {
			if _, _, err := s.conn.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	if code := stop(); code != 0 {
		t.Errorf("serve exited %d", code)
	}
}

// TestServeUsage: bad flags and variables are usage errors (exit 2).
func TestServeUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--outbound", "proxy"}, nil, `--outbound is "proxy"; the modes are native, stub and disabled`},
		{[]string{"--engine", "v8"}, nil, `--engine is "v8"; the engines are ast and vm`},
		{[]string{"--snapshot-key", "abc"}, nil, "--snapshot-key must be at least 16 bytes written in hex"},
		{[]string{"extra"}, nil, `serve takes no arguments, got ["extra"]`},
		{nil, map[string]string{"CODEMODE_MAX_WORKERS": "many"}, `invalid value "many" for CODEMODE_MAX_WORKERS`},
		{[]string{"--addr", "256.0.0.1:99999"}, nil, "codemode serve: listen tcp"},
	} {
		var out, errb bytes.Buffer
		code := runServe(context.Background(), c.args, func(k string) string { return c.env[k] }, &out, &errb)
		if code == 0 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v %v: exit %d, stderr %q; want %q", c.args, c.env, code, errb.String(), c.want)
		}
	}
	var out bytes.Buffer
	if code := runServe(context.Background(), []string{"-h"}, func(string) string { return "" }, &out, io.Discard); code != 0 || !strings.Contains(out.String(), "usage: codemode serve") {
		t.Errorf("-h: %d %q", code, out.String())
	}
}

// TestServeIsolate: with --isolate the programs run in worker processes
// (this test binary, re-executed as codemode worker), and their tool
// calls still reach the client.
func TestServeIsolate(t *testing.T) {
	t.Setenv(childEnv, "argv")
	url, stop, stderr := startServe(t, []string{"--addr", "127.0.0.1:0", "--isolate", "--max-workers", "2"}, nil)
	s, ack := dial(t, url, "")
	if _, ok := ack.(*protocol.HelloAckMessage); !ok {
		t.Fatalf("hello answered %#v", ack)
	}
	for i, id := range []string{"1", "2", "3"} {
		s.send(&protocol.ExecuteMessage{ID: id, Code: `async () => (await store.get(7)) * 6`,
			Providers: []protocol.ProviderDescriptor{{Name: "store", Tools: []string{"get"}}}})
		d, ok := s.read().(*protocol.DispatchMessage)
		if !ok || d.Args != "[7]" {
			t.Fatalf("run %d: dispatch %#v; stderr %s", i, d, stderr)
		}
		s.send(&protocol.DispatchResultMessage{ID: id, CallID: d.CallID, Envelope: `{"result":7}`})
		res, ok := s.read().(*protocol.ResultMessage)
		if !ok || string(res.ResultJSON) != "42" {
			t.Fatalf("run %d: result %#v; stderr %s", i, res, stderr)
		}
	}
	go func() {
		for {
			if _, _, err := s.conn.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	if code := stop(); code != 0 {
		t.Errorf("serve exited %d; stderr %s", code, stderr)
	}
}

// TestServeClientLeavesMidRun: a client that disconnects while its run
// waits on a tool call: the run is cancelled (the metrics count it as
// disconnected, none stays active), in process and in a worker, and
// nothing of it is left once the server stops.
func TestServeClientLeavesMidRun(t *testing.T) {
	t.Setenv(childEnv, "argv")
	for _, isolate := range []bool{false, true} {
		t.Run(fmt.Sprintf("isolate=%v", isolate), func(t *testing.T) {
			before := runtime.NumGoroutine()
			args := []string{"--addr", "127.0.0.1:0"}
			if isolate {
				args = append(args, "--isolate", "--max-workers", "1")
			}
			url, stop, stderr := startServe(t, args, nil)
			metrics := strings.Replace(url, "ws://", "http://", 1) + "metrics"
			s, _ := dial(t, url, "")
			s.send(&protocol.ExecuteMessage{ID: "1", Code: `async () => { const x = await store.wait(); return x }`,
				Providers: []protocol.ProviderDescriptor{{Name: "store", Tools: []string{"wait"}}}})
			if _, ok := s.read().(*protocol.DispatchMessage); !ok {
				t.Fatal("no dispatch")
			}
			s.conn.CloseNow() // gone, without answering
			scrape := func() string {
				resp, err := http.Get(metrics)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				return string(b)
			}
			for i := 0; ; i++ {
				m := scrape()
				if strings.Contains(m, `codemode_executions_total{kind="execute",outcome="disconnected"} 1`) && strings.Contains(m, "codemode_executions_active 0") {
					break
				}
				if i > 500 {
					t.Fatalf("the run did not end: %s\nstderr %s", m, stderr)
				}
				time.Sleep(10 * time.Millisecond)
			}
			// The next client is served as if nothing happened.
			s2, _ := dial(t, url, "")
			s2.send(&protocol.ExecuteMessage{ID: "2", Code: `async () => 6 * 7`})
			if res, ok := s2.read().(*protocol.ResultMessage); !ok || string(res.ResultJSON) != "42" {
				t.Fatalf("next run: %#v", res)
			}
			s2.conn.CloseNow()
			if code := stop(); code != 0 {
				t.Errorf("serve exited %d", code)
			}
			http.DefaultClient.CloseIdleConnections()
			for i := 0; runtime.NumGoroutine() > before; i++ {
				if i > 500 {
					buf := make([]byte, 1<<20)
					t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}
