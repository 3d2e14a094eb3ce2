package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-codemode/codemode/protocol"
	"github.com/go-codemode/codemode/server"
)

// TestLoad: 100 connections run 20 executions each at once against a
// real server on loopback, every execution making three tool-call round
// trips to its client (two at once, then one). Every result must arrive
// once and be the right one. The latencies and the throughput are
// logged (go test -run TestLoad -v ./remote), never asserted: once with
// the server's default slots (one run per processor, the seed's
// maxWorkers), once with a slot for every connection. Under the race
// detector it runs 20 connections of 5.
func TestLoad(t *testing.T) {
	conns, perConn := 100, 20
	if raceEnabled || testing.Short() {
		conns, perConn = 20, 5
	}
	for _, c := range []struct {
		name  string
		slots int
	}{{"default slots", 0}, {"a slot per connection", conns}} {
		t.Run(c.name, func(t *testing.T) { load(t, conns, perConn, c.slots) })
	}
}

func load(t *testing.T, conns, perConn, slots int) {
	srv := newServer(t, server.Config{MaxQueue: conns * 2, PingInterval: -1, ExecutionsPerWorker: max(1, slots/max(1, runtime.GOMAXPROCS(0)))})
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	url := "ws" + strings.TrimPrefix(ts.URL, "http")
	providers := []protocol.ProviderDescriptor{{Name: "store", Tools: []string{"get", "add"}}}
	const code = `async () => {
  const [a, b] = await Promise.all([store.get(run, "a"), store.get(run, "b")]);
  const sum = await store.add(a, b);
  return { run, sum };
}`
	var dispatches atomic.Int64
	dispatch := func(_ context.Context, provider, tool, args string) string {
		dispatches.Add(1)
		var xs []json.RawMessage
		if err := json.Unmarshal([]byte(args), &xs); err != nil || len(xs) != 2 {
			return protocol.ErrorEnvelope("bad arguments " + args)
		}
		switch tool {
		case "get": // get(run, "a") is run*2, get(run, "b") is run*2+1
			var run float64
			_ = json.Unmarshal(xs[0], &run)
			if string(xs[1]) == `"b"` {
				return fmt.Sprintf(`{"result":%v}`, run*2+1)
			}
			return fmt.Sprintf(`{"result":%v}`, run*2)
		case "add":
			var a, b float64
			_ = json.Unmarshal(xs[0], &a)
			_ = json.Unmarshal(xs[1], &b)
			return fmt.Sprintf(`{"result":%v}`, a+b)
		}
		return protocol.ErrorEnvelope("no tool " + tool)
	}
	ctx := context.Background()
	executors := make([]*Executor, conns)
	for i := range executors {
		ex, err := Dial(ctx, url, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer ex.Close()
		executors[i] = ex
	}
	latencies := make([]time.Duration, conns*perConn)
	seen := make([]atomic.Int32, conns*perConn)
	var wg sync.WaitGroup
	start := time.Now()
	for c, ex := range executors {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perConn {
				run := c*perConn + i
				t0 := time.Now()
				res, err := ex.Execute(ctx, protocol.ExecuteRequest{Code: strings.Replace(code, "async () => {", fmt.Sprintf("async () => {\n  const run = %d;", run), 1),
					Providers: providers, Dispatch: dispatch})
				latencies[run] = time.Since(t0)
				if err != nil || res.Error != nil {
					t.Errorf("run %d: %v %+v", run, err, res.Error)
					continue
				}
				var got struct{ Run, Sum int }
				if err := json.Unmarshal(res.Result, &got); err != nil || got.Sum != 4*got.Run+1 {
					t.Errorf("run %d: result %s", run, res.Result)
					continue
				}
				seen[got.Run].Add(1)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	for run := range seen {
		if n := seen[run].Load(); n != 1 {
			t.Errorf("run %d: its result arrived %d times", run, n)
		}
	}
	if got, want := dispatches.Load(), int64(3*conns*perConn); got != want {
		t.Errorf("%d dispatches, want %d", got, want)
	}
	slices.Sort(latencies)
	pct := func(p float64) time.Duration { return latencies[int(p*float64(len(latencies)-1))] }
	t.Logf("%d connections x %d executions (3 dispatch round trips each): %d executions in %v, %.0f executions/s, %.0f round trips/s; latency p50 %v, p90 %v, p99 %v, max %v",
		conns, perConn, len(latencies), elapsed.Round(time.Millisecond), float64(len(latencies))/elapsed.Seconds(),
		float64(dispatches.Load())/elapsed.Seconds(), pct(0.5).Round(10*time.Microsecond), pct(0.9).Round(10*time.Microsecond),
		pct(0.99).Round(10*time.Microsecond), latencies[len(latencies)-1].Round(10*time.Microsecond))
}
