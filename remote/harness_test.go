package remote

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/protocol"
	"github.com/go-codemode/codemode/server"
)

// wait bounds every wait of a test that should not happen.
const wait = 20 * time.Second

// testKey is the snapshot key the servers of one deployment share.
var testKey = []byte("0123456789abcdef0123456789abcdef")

// newServer returns a real server on an in-process runtime of engine vm,
// shut down when the test ends.
func newServer(t *testing.T, cfg server.Config) *server.Server {
	t.Helper()
	rt, err := codemode.New(codemode.Options{Engine: "vm", SnapshotKey: testKey})
	if err != nil {
		t.Fatal(err)
	}
	backend := rt.Executor(codemode.ExecutorOptions{})
	srv, err := server.New(cfg, backend)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		_ = srv.Shutdown(ctx)
		_ = backend.Close()
	})
	return srv
}

// front is the address the client dials: an HTTP server that passes
// each request to a handler the test can switch (server A, then B),
// counts the upgrades, can refuse the next ones, and can cut every
// connection it accepted.
type front struct {
	ts  *httptest.Server
	url string

	mu      sync.Mutex
	handler http.Handler
	conns   []net.Conn

	upgrades atomic.Int32 // WebSocket upgrades asked for
	refuse   atomic.Int32 // the next upgrades answered 503
}

func newFront(t *testing.T, h http.Handler) *front {
	t.Helper()
	f := &front{handler: h}
	f.ts = httptest.NewUnstartedServer(f)
	f.ts.Config.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		f.mu.Lock()
		f.conns = append(f.conns, c)
		f.mu.Unlock()
		return ctx
	}
	f.ts.Start()
	t.Cleanup(f.ts.Close)
	f.url = "ws" + strings.TrimPrefix(f.ts.URL, "http")
	return f
}

func (f *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		f.upgrades.Add(1)
		for {
			n := f.refuse.Load()
			if n <= 0 {
				break
			}
			if f.refuse.CompareAndSwap(n, n-1) {
				http.Error(w, "not now", http.StatusServiceUnavailable)
				return
			}
		}
	}
	f.mu.Lock()
	h := f.handler
	f.mu.Unlock()
	h.ServeHTTP(w, r)
}

// use switches the handler new requests go to.
func (f *front) use(h http.Handler) {
	f.mu.Lock()
	f.handler = h
	f.mu.Unlock()
}

// cut closes every connection accepted so far, as a network failure
// would.
func (f *front) cut() {
	f.mu.Lock()
	conns := f.conns
	f.conns = nil
	f.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
	}
}

// deployment is a real server behind a front.
func deployment(t *testing.T, cfg server.Config) (*server.Server, *front) {
	t.Helper()
	srv := newServer(t, cfg)
	return srv, newFront(t, srv.Handler())
}

// dial dials url, failing the test on an error, and closes the executor
// (checking that nothing of it is left running) when the test ends.
func dial(t *testing.T, url string, opts Options) *Executor {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	e, err := Dial(ctx, url, opts)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	open.Add(1)
	t.Cleanup(func() { closeAndCheck(t, e) })
	return e
}

// open counts the executors dial opened and closeAndCheck did not close
// yet (the tests do not run in parallel).
var open atomic.Int32

// closeAndCheck closes e and, once no executor is open, checks that no
// goroutine of an executor is left.
func closeAndCheck(t *testing.T, e *Executor) {
	t.Helper()
	if err := e.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if open.Add(-1) == 0 {
		checkNoLeaks(t)
	}
}

// checkNoLeaks fails the test when a goroutine of an Executor (a
// session's loops, an open, a tool call, a close) is still there.
func checkNoLeaks(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		leaked := ownGoroutines()
		if len(leaked) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines left:\n\n%s", len(leaked), strings.Join(leaked, "\n\n"))
		}
		time.Sleep(5 * time.Millisecond) // a goroutine past its wg.Done may not have returned yet
	}
}

func ownGoroutines() []string {
	buf := make([]byte, 4<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "codemode/remote.(*session)") || strings.Contains(g, "codemode/remote.(*Executor)") {
			out = append(out, g)
		}
	}
	return out
}

// eventually waits until cond holds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// sessions returns how many sessions e holds open.
func (e *Executor) openSessions() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.sessions)
}

// hasLive reports whether e has a current live session.
func (e *Executor) hasLive() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.current != nil && e.current.usable()
}

// backoffs records the waits of e's reconnections instead of waiting.
type backoffs struct {
	mu    sync.Mutex
	waits []time.Duration
}

func recordBackoffs(e *Executor) *backoffs {
	b := &backoffs{}
	e.sleep = func(ctx context.Context, d time.Duration) error {
		b.mu.Lock()
		b.waits = append(b.waits, d)
		b.mu.Unlock()
		return ctx.Err()
	}
	return b
}

func (b *backoffs) take() []time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	w := b.waits
	b.waits = nil
	return w
}

// A fake server, for what a real one does not do on demand: one
// function per connection (numbered from 1) speaks for the server.
type fakeConn struct {
	t  *testing.T
	ws *websocket.Conn
	n  int
}

func fakeServer(t *testing.T, serve func(c *fakeConn)) *front {
	t.Helper()
	var n atomic.Int32
	var wg sync.WaitGroup
	t.Cleanup(wg.Wait)
	return newFront(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		wg.Add(1)
		defer wg.Done()
		defer ws.CloseNow()
		serve(&fakeConn{t: t, ws: ws, n: int(n.Add(1))})
	}))
}

// recv reads one message; nil when the connection ended.
func (c *fakeConn) recv() protocol.Message {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	_, data, err := c.ws.Read(ctx)
	if err != nil {
		return nil
	}
	m, err := protocol.Decode(data)
	if err != nil {
		c.t.Errorf("fake server: %v", err)
		return nil
	}
	return m
}

func (c *fakeConn) send(m protocol.Message) {
	data, err := protocol.Encode(m)
	if err != nil {
		c.t.Errorf("fake server: %v", err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	_ = c.ws.Write(ctx, websocket.MessageText, data)
}

// ack reads the hello and accepts it.
func (c *fakeConn) ack() bool {
	h, ok := c.recv().(*protocol.HelloMessage)
	if !ok {
		return false
	}
	c.send(&protocol.HelloAckMessage{ID: h.ID, Version: protocol.Version})
	return true
}
