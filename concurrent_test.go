package codemode_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// TestConcurrentIsolation runs bombs (memory, time, a tool left in
// flight), normal programs and programs that break intrinsics at once on
// one Runtime: each gets its own Result, no run sees another's
// intrinsics, and afterwards goroutines and heap return to their
// baseline. Run it with -race.
func TestConcurrentIsolation(t *testing.T) {
	slow := &tools.Tool{Description: "answers late", Output: objectOut, Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(5 * time.Second):
			return map[string]any{}, nil
		}
	}}
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{"slow": slow},
		Limits: codemode.Limits{Timeout: 3 * time.Second, MaxMemoryBytes: 8 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	// The memory bomb runs with a generous deadline: on a loaded machine
	// under -race, 100 concurrent runs (15 of them spinning until their
	// deadline) can starve it for seconds, and the test is about
	// isolation, not speed.
	rtMem, err := codemode.New(codemode.Options{Limits: codemode.Limits{Timeout: time.Minute, MaxMemoryBytes: 8 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		src, want string
		rt        *codemode.Runtime
	}{
		{`for (;;) {}`, `{"ok":false,"error":{"kind":"TimeoutExceeded","message":"Execution timed out after 3000ms."},"toolCalls":[]}`, nil},
		{`const a = []; for (;;) a.push("x".repeat(1e5) + a.length)`, `{"ok":false,"error":{"kind":"MemoryLimitExceeded","message":"Execution exceeded its memory limit of 8388608 bytes."},"toolCalls":[]}`, rtMem},
		{`return [1, 2, 3].map((x) => x * 2)`, `{"ok":true,"value":[2,4,6],"toolCalls":[]}`, nil},
		{`Array.prototype.map = null; Object.prototype.x = 1; return [typeof [].map, ({}).x]`, `{"ok":true,"value":["object",1],"toolCalls":[]}`, nil},
		{`return [typeof [].map, ({}).x, JSON.stringify({a: [1]})]`, `{"ok":true,"value":["function",null,"{\"a\":[1]}"],"toolCalls":[]}`, nil},
		{`tools.slow({}).catch(() => {}); return "left"`, `{"ok":true,"value":"left","warnings":[{"kind":"ToolFailure","message":"tools.slow (line 1, col 1) was still running when the program ended and was cancelled: await every tool call you start."}],"toolCalls":[{"name":"slow"}]}`, nil},
		{`await tools.slow({})`, `{"ok":false,"error":{"kind":"TimeoutExceeded","message":"Execution timed out after 3000ms."},"toolCalls":[{"name":"slow"}]}`, nil},
	}
	settle := func() (int, uint64) {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return runtime.NumGoroutine(), m.HeapAlloc
	}
	baseG, baseHeap := settle()
	const runs = 100
	var wg sync.WaitGroup
	errs := make(chan string, runs)
	for i := 0; i < runs; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c := cases[i%len(cases)]
			caseRT := rt
			if c.rt != nil {
				caseRT = c.rt
			}
			if got := caseRT.Execute(context.Background(), c.src).String(); got != c.want {
				errs <- fmt.Sprintf("run %d %q:\n got  %s\n want %s", i, c.src, got, c.want)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	// Workers and late tools wind down once their context ends; poll.
	deadline := time.Now().Add(5 * time.Second)
	g, heap := settle()
	for (g > baseG+2 || heap > baseHeap+32<<20) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		g, heap = settle()
	}
	if g > baseG+2 {
		t.Errorf("%d goroutines after the runs, %d before", g, baseG)
	}
	if heap > baseHeap+32<<20 {
		t.Errorf("heap %d MiB after the runs, %d MiB before", heap>>20, baseHeap>>20)
	}
}
