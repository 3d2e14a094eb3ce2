package server

import (
	"context"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/go-codemode/codemode/protocol"
)

func TestMetrics(t *testing.T) {
	call := &callOnce{returned: make(chan string, 1)}
	h := newHarness(t, Config{MaxWorkers: 3, ExecutionsPerWorker: 2}, newBackend().on("call", call.run))
	code, body := h.get("/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics %d", code)
	}
	for _, name := range []string{
		"codemode_executions_active", "codemode_queue_depth", "codemode_execution_slots",
		"codemode_worker_crashes_total", "codemode_connections", "codemode_draining",
		"go_goroutines",
	} {
		if !strings.Contains(body, "# HELP "+name+" ") || !strings.Contains(body, "\n"+name+" ") {
			t.Errorf("no series %s", name)
		}
	}
	if runtime.GOOS == "linux" && !strings.Contains(body, "process_cpu_seconds_total") {
		t.Error("no process series")
	}
	if v, _ := h.metric("codemode_execution_slots"); v != 6 {
		t.Errorf("slots %v, want 6", v)
	}

	c := h.connect()
	c.execute("e1", "call", protocol.ExecuteOptions{})
	d := expect[*protocol.DispatchMessage](c)
	if v, _ := h.metric("codemode_executions_active"); v != 1 {
		t.Errorf("active %v during the run", v)
	}
	c.send(&protocol.DispatchResultMessage{ID: "e1", CallID: d.CallID, Envelope: `{"result":1}`})
	c.expectResult("e1")
	call.wait(t)
	c.sendRaw("nonsense")
	c.expectError("", protocol.CodeMalformedMessage)

	for series, want := range map[string]float64{
		`codemode_executions_total{kind="execute",outcome="ok"}`:    1,
		`codemode_execution_duration_seconds_count{kind="execute"}`: 1,
		`codemode_dispatch_duration_seconds_count{type="dispatch"}`: 1,
		`codemode_handshakes_total{outcome="accepted"}`:             1,
		`codemode_errors_total{code="MALFORMED_MESSAGE"}`:           1,
		"codemode_executions_active":                                0,
		"codemode_queue_depth":                                      0,
		"codemode_connections":                                      1,
		"codemode_draining":                                         0,
		"codemode_worker_crashes_total":                             0,
	} {
		got, ok := h.metric(series)
		if !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", series, got, ok, want)
		}
	}
	_, body = h.get("/metrics")
	if !strings.Contains(body, `codemode_execution_duration_seconds_bucket{kind="execute",le="0.001"}`) {
		t.Error("no duration buckets")
	}
}

// crashingBackend reports its crashes through the hook.
type crashingBackend struct {
	*fakeBackend
	hook func()
}

func (b *crashingBackend) SetCrashHook(hook func()) { b.hook = hook }

func TestCrashes(t *testing.T) {
	crash := func(context.Context, protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
		return protocol.ExecuteResult{Error: protocol.NewError(protocol.CodeWorkerCrashed, "the worker died")}, nil
	}
	t.Run("from the results", func(t *testing.T) {
		h := newHarness(t, Config{}, newBackend().on("crash", crash))
		c := h.connect()
		c.execute("e1", "crash", protocol.ExecuteOptions{})
		c.expectResultCode("e1", protocol.CodeWorkerCrashed)
		if v, _ := h.metric("codemode_worker_crashes_total"); v != 1 {
			t.Errorf("crashes %v, want 1", v)
		}
	})
	t.Run("from a CrashReporter only", func(t *testing.T) {
		cb := &crashingBackend{fakeBackend: newBackend()}
		cb.on("crash", func(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error) {
			cb.hook()
			cb.hook() // a crash of another worker
			return crash(ctx, req)
		})
		h := newHarnessOf(t, Config{}, cb, cb.fakeBackend)
		c := h.connect()
		c.execute("e1", "crash", protocol.ExecuteOptions{})
		c.expectResultCode("e1", protocol.CodeWorkerCrashed)
		if v, _ := h.metric("codemode_worker_crashes_total"); v != 2 {
			t.Errorf("crashes %v, want 2", v)
		}
	})
}

func TestRegistry(t *testing.T) {
	h := newHarness(t, Config{}, newBackend())
	extra := prometheus.NewCounter(prometheus.CounterOpts{Name: "codemode_backend_things_total", Help: "Things."})
	h.srv.Registry().MustRegister(extra)
	extra.Add(3)
	if v, _ := h.metric("codemode_backend_things_total"); v != 3 {
		t.Errorf("the backend's series: %v", v)
	}
	if prometheus.DefaultRegisterer.Unregister(extra) {
		t.Error("the counter went to the global registry")
	}
}
