package codemode_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// hookLog records hook events, safe for the workers that call hooks.
type hookLog struct {
	mu     sync.Mutex
	events []string
}

func (l *hookLog) add(e string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, e)
}

func (l *hookLog) sorted() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := append([]string(nil), l.events...)
	sort.Strings(out)
	return strings.Join(out, "; ")
}

func TestToolHooks(t *testing.T) {
	log := &hookLog{}
	ran := &hookLog{}
	slowStarted := make(chan struct{})
	slow := &tools.Tool{Description: "slow", Output: objectOut, Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
		close(slowStarted)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(5 * time.Second):
			return nil, nil
		}
	}}
	defs := testTools()
	defs["slow"] = slow
	// started returns once slow is running, so that the run ends with
	// slow in flight.
	defs["started"] = &tools.Tool{Description: "waits for slow", Output: objectOut, Func: func(context.Context, json.RawMessage) (any, error) {
		<-slowStarted
		return map[string]any{}, nil
	}}
	for name, v := range defs {
		if tool, ok := v.(*tools.Tool); ok {
			inner, path := tool.Func, name
			copyTool := *tool
			copyTool.Func = func(ctx context.Context, in json.RawMessage) (any, error) {
				ran.add(path)
				return inner(ctx, in)
			}
			defs[name] = &copyTool
		}
	}
	rt, err := codemode.New(codemode.Options{Tools: defs, Hooks: codemode.Hooks{
		ToolBefore: func(_ context.Context, c codemode.ToolCallInfo) error {
			log.add("before " + c.Name + " " + string(c.Input))
			if c.Name == "echo" {
				return errors.New("echo is not allowed")
			}
			return nil
		},
		ToolAfter: func(_ context.Context, c codemode.ToolCallInfo, o codemode.CallOutcome) {
			detail := ""
			if o.Err != nil {
				detail = " " + o.Err.Error()
			}
			log.add(fmt.Sprintf("after %s %s%s", c.Name, o.Status, detail))
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	res := rt.Execute(context.Background(), `
const sum = await tools.math.add({a: 1, b: 2});
let denied;
try { await tools.echo({x: 1}); } catch (e) { denied = [e.name, e.message]; }
try { await tools.fail({}); } catch {}
tools.slow({}).catch(() => {});
await tools.started({});
return [sum, denied];`)
	want := `{"ok":true,"value":[3,["Error","echo is not allowed"]],"warnings":[{"kind":"ToolFailure","message":"tools.slow (line 6, col 1) was still running when the program ended and was cancelled: await every tool call you start."}],"toolCalls":[{"name":"math.add"},{"name":"echo"},{"name":"fail"},{"name":"slow"},{"name":"started"}]}`
	if res.String() != want {
		t.Fatalf("got  %s\nwant %s", res, want)
	}
	// The slow call was cut off by the end of the run: its after-hook
	// ran before Execute returned, and its late completion reaches no
	// hook.
	wantLog := `after fail failure Lookup refused; after math.add success; after slow interrupted; after started success; before echo {"x":1}; before fail {}; before math.add {"a":1,"b":2}; before slow {}; before started {}`
	if got := log.sorted(); got != wantLog {
		t.Errorf("hooks saw\n %s\nwant\n %s", got, wantLog)
	}
	if got := ran.sorted(); got != "fail; math.add; slow; started" {
		t.Errorf("tools that ran: %s (a denied tool must never run)", got)
	}
	res = rt.Execute(context.Background(), `await tools.echo({})`)
	if want := `{"ok":false,"error":{"kind":"ToolFailure","message":"echo is not allowed"},"toolCalls":[{"name":"echo"}]}`; res.String() != want {
		t.Errorf("uncaught denial: got %s", res)
	}
}

func TestPanickingHookDenies(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{Tools: testTools(), Hooks: codemode.Hooks{
		ToolBefore: func(context.Context, codemode.ToolCallInfo) error { panic("boom") },
	}})
	res := rt.Execute(context.Background(), `await tools.ping()`)
	if want := `{"ok":false,"error":{"kind":"ToolFailure","message":"the before hook panicked: boom"},"toolCalls":[{"name":"ping"}]}`; res.String() != want {
		t.Errorf("got %s", res)
	}
}
