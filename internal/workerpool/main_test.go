package workerpool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/protocol"
)

// workerEnv, when "1", makes the test binary a worker: TestMain runs
// Serve on stdin and stdout with a codemode.Executor whose runtime has
// the proc extension below, so that tests re-exec their own binary as
// the pool's worker.
const workerEnv = "WORKERPOOL_TEST_WORKER"

func TestMain(m *testing.M) {
	switch os.Getenv(workerEnv) {
	case "1":
		os.Exit(testWorker())
	case "exit":
		fmt.Fprintln(os.Stderr, "panic: this worker does not start")
		os.Exit(7)
	}
	os.Exit(m.Run())
}

func testWorker() int {
	rt, err := codemode.New(codemode.Options{Extensions: []codemode.Extension{procExtension()}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := Serve(context.Background(), os.Stdin, os.Stdout, rt.Executor(codemode.ExecutorOptions{})); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// procExtension is the global `proc` of test programs: it tells the
// worker's pid and hurts the worker in the ways a worker can die.
func procExtension() codemode.Extension {
	return codemode.Extension{Name: "proc", Globals: map[string]any{"proc": map[string]any{
		"pid": codemode.HostFunc(func(context.Context, []any) (any, error) {
			return float64(os.Getpid()), nil
		}),
		// exit(code) ends the process as os.Exit does.
		"exit": codemode.HostFunc(func(_ context.Context, args []any) (any, error) {
			os.Exit(int(args[0].(float64)))
			return nil, nil
		}),
		// overflow() is a Go fatal error no recover catches: the stack
		// of unbounded recursion exceeds its (lowered) limit.
		"overflow": codemode.HostFunc(func(context.Context, []any) (any, error) {
			debug.SetMaxStack(1 << 20)
			return recurse(1), nil
		}),
		// hang() never returns and ignores its context; it says so on
		// stderr first.
		"hang": codemode.HostFunc(func(context.Context, []any) (any, error) {
			fmt.Fprintln(os.Stderr, "proc.hang: hanging")
			for {
				time.Sleep(time.Hour)
			}
		}),
		// garbage(kind) writes a bad frame to the pool.
		"garbage": codemode.HostFunc(func(_ context.Context, args []any) (any, error) {
			switch args[0] {
			case "json":
				os.Stdout.Write([]byte("\x00\x00\x00\x05hello"))
			case "huge":
				os.Stdout.Write([]byte("\xff\xff\xff\xff"))
			case "type":
				_ = writeFrame(os.Stdout, []byte(`{"type":"hello","id":"h","version":1}`))
			}
			time.Sleep(time.Hour) // the pool kills the worker
			return nil, nil
		}),
		// mute() closes stdout and hangs: the worker lives on but can
		// no longer answer.
		"mute": codemode.HostFunc(func(context.Context, []any) (any, error) {
			os.Stdout.Close()
			for {
				time.Sleep(time.Hour)
			}
		}),
		// grow(mb) keeps mb MiB alive for the life of the process.
		"grow": codemode.HostFunc(func(_ context.Context, args []any) (any, error) {
			ballast = append(ballast, bytes.Repeat([]byte{1}, int(args[0].(float64))<<20))
			return nil, nil
		}),
	}}}
}

var ballast [][]byte

// recurse overflows the Go stack on purpose: a fatal error no recover
// catches, which the pool must survive.
//
//go:noinline
func recurse(n int) int {
	var pad [256]byte
	pad[n%256] = byte(n)
	//lint:ignore SA5007 the infinite recursion is the point
	return recurse(n+1) + int(pad[(n+1)%256])
}

// testConfig is a worker command for tests: this binary, as a worker.
func testConfig(cfg Config) Config {
	cfg.Command = []string{os.Args[0], "-test.run=^$"}
	cfg.Env = append(os.Environ(), workerEnv+"=1")
	return cfg
}

// testLogger logs to t.
func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type tWriter struct{ t *testing.T }

func (w tWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(b), "\n"))
	return len(b), nil
}

// newPool returns a pool of test workers, closed when the test ends.
func newPool(t *testing.T, cfg Config) *Pool {
	t.Helper()
	p, err := New(testConfig(cfg))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// host is a test's side of tool calls: each tool answers with its
// function, and every call is announced on arrivals.
type host struct {
	tools    map[string]func(ctx context.Context, args string) string
	arrivals chan arrival
}

type arrival struct {
	tool string
	args string
}

func newHost(tools map[string]func(ctx context.Context, args string) string) *host {
	return &host{tools: tools, arrivals: make(chan arrival, 64)}
}

func (h *host) dispatch(ctx context.Context, provider, tool, args string) string {
	h.arrivals <- arrival{tool, args}
	if f := h.tools[tool]; f != nil {
		return f(ctx, args)
	}
	return protocol.ErrorEnvelope("no tool " + tool)
}

// await returns the next arrival, which must be of tool.
func (h *host) await(t *testing.T, tool string) arrival {
	t.Helper()
	select {
	case a := <-h.arrivals:
		if a.tool != tool {
			t.Fatalf("tool call %s(%s), want %s", a.tool, a.args, tool)
		}
		return a
	case <-time.After(time.Minute):
		t.Fatalf("no call of %s", tool)
	}
	return arrival{}
}

// waitFor waits until ch is closed or ctx ends.
func waitFor(ctx context.Context, ch <-chan struct{}) {
	select {
	case <-ch:
	case <-ctx.Done():
	}
}

// holdTool answers when its context ends, as a tool that never
// finishes.
func holdTool(ctx context.Context, _ string) string {
	<-ctx.Done()
	return protocol.ExecutionCompletedEnvelope
}

func storeProvider(tools ...string) []protocol.ProviderDescriptor {
	return []protocol.ProviderDescriptor{{Name: "store", Tools: tools}}
}

// outcome is an Execute's answer, from a goroutine.
type outcome struct {
	res protocol.ExecuteResult
	err error
}

// goExecute runs req on p on a goroutine of its own.
func goExecute(ctx context.Context, p *Pool, req protocol.ExecuteRequest) <-chan outcome {
	ch := make(chan outcome, 1)
	go func() {
		res, err := p.Execute(ctx, req)
		ch <- outcome{res, err}
	}()
	return ch
}

func recv(t *testing.T, ch <-chan outcome) outcome {
	t.Helper()
	select {
	case o := <-ch:
		return o
	case <-time.After(2 * time.Minute):
		t.Fatal("no answer")
	}
	return outcome{}
}

// mustValue returns the JSON value of a successful result.
func mustValue(t *testing.T, res protocol.ExecuteResult, err error) string {
	t.Helper()
	if err != nil {
		t.Fatalf("error %v", err)
	}
	if res.Error != nil {
		t.Fatalf("result error %+v (logs %v)", *res.Error, res.Logs)
	}
	return string(res.Result)
}

func mustPID(t *testing.T, res protocol.ExecuteResult, err error) int {
	t.Helper()
	var pid int
	if err := json.Unmarshal([]byte(mustValue(t, res, err)), &pid); err != nil || pid <= 0 {
		t.Fatalf("not a pid: %s", res.Result)
	}
	return pid
}

func wantCode(t *testing.T, res protocol.ExecuteResult, err error, code protocol.Code, text string) {
	t.Helper()
	if err != nil {
		t.Fatalf("error %v, want a result of code %s", err, code)
	}
	if res.Error == nil || res.Error.Code != code || !strings.Contains(res.Error.Message, text) {
		t.Fatalf("result %+v (error %+v), want code %s with %q", res, res.Error, code, text)
	}
}

func wantErrCode(t *testing.T, err error, code protocol.Code) {
	t.Helper()
	if protocol.CodeOf(err) != code {
		t.Fatalf("error %v, want code %s", err, code)
	}
}

// eventually polls cond until it holds, failing after a minute. It
// asserts an outcome, never a duration.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func hasPID(p *Pool, pid int) bool {
	for _, w := range p.Workers() {
		if w.PID == pid {
			return true
		}
	}
	return false
}

// counter counts calls, for OnCrash.
type counter struct{ n atomic.Int32 }

func (c *counter) inc()        { c.n.Add(1) }
func (c *counter) load() int32 { return c.n.Load() }

// stderrWatch is a Config.Stderr that announces a line containing a
// marker.
type stderrWatch struct {
	marker string
	once   sync.Once
	seen   chan struct{}
	mu     sync.Mutex
	buf    []byte
}

func newStderrWatch(marker string) *stderrWatch {
	return &stderrWatch{marker: marker, seen: make(chan struct{})}
}

func (s *stderrWatch) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = append(s.buf, b...)
	if bytes.Contains(s.buf, []byte(s.marker)) {
		s.once.Do(func() { close(s.seen) })
	}
	return len(b), nil
}

// goroutinesSettle waits until the number of goroutines is back to at
// most base, and reports the stacks if it never is.
func goroutinesSettle(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
}
