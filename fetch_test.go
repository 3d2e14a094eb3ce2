package codemode_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/outbound"
	"github.com/go-codemode/codemode/protocol"
)

// recordingFetch answers every request with a JSON echo of it and keeps
// the requests.
type recordingFetch struct {
	mu   sync.Mutex
	reqs []protocol.OutboundRequest
}

func (f *recordingFetch) fetch(_ context.Context, req protocol.OutboundRequest) (protocol.OutboundResponse, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	if strings.Contains(req.URL, "down") {
		return protocol.OutboundResponse{}, errors.New("connection refused")
	}
	body := fmt.Sprintf(`{"method":%q,"url":%q,"body":%q}`, req.Method, req.URL, req.Body)
	return protocol.OutboundResponse{Status: 201, Headers: [][2]string{{"Content-Type", "application/json"}, {"X-Trace", "t1"}},
		Body: []byte(body)}, nil
}

// TestFetch: a run given a performer has the web's fetch, resolving to a
// Response; without one there is no fetch; WithFetch(nil) makes it throw.
func TestFetch(t *testing.T) {
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, code string
		want       string
	}{
		{"a GET", `const r = await fetch("https://api.example/items?q=1"); return [r.status, r.ok, r.statusText, r.url, r.headers.get("x-trace"), (await r.json()).method]`,
			`[201,true,"Created","https://api.example/items?q=1","t1","GET"]`},
		{"a POST with headers and a body", `const r = await fetch(new URL("https://api.example/items"), {method: "post", headers: {"X-Key": "k"}, body: JSON.stringify({a: 1})}); return (await r.json()).body`,
			`"{\"a\":1}"`},
		{"the body is read once", `const r = await fetch("https://api.example/"); await r.text(); try { await r.text() } catch (e) { return e.message }`,
			`"Body is unusable: Body has already been read"`},
		{"a failed request", `try { await fetch("https://down.example/") } catch (e) { return [e.name, e.message] }`,
			`["TypeError","fetch failed: connection refused"]`},
		{"a relative URL", `try { await fetch("/items") } catch (e) { return [e.name, e.message] }`,
			`["TypeError","Failed to parse URL from /items"]`},
		{"another scheme", `try { await fetch("file:///etc/passwd") } catch (e) { return e.message }`,
			`"fetch failed: only http and https URLs can be fetched, not file:///etc/passwd"`},
		{"a GET with a body", `try { await fetch("https://api.example/", {body: "x"}) } catch (e) { return e.message }`,
			`"Request with GET/HEAD method cannot have body."`},
		{"fetch calls overlap", `const rs = await Promise.all([1, 2, 3].map(i => fetch("https://api.example/" + i).then(r => r.json()))); return rs.map(r => r.url)`,
			`["https://api.example/1","https://api.example/2","https://api.example/3"]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var f recordingFetch
			res := rt.Execute(context.Background(), c.code, codemode.WithFetch(f.fetch))
			if !res.OK || string(res.Value) != c.want {
				t.Errorf("got  %s\nwant %s", res, c.want)
			}
			if len(res.ToolCalls) != 0 {
				t.Errorf("fetch counted as tool calls: %v", res.ToolCalls)
			}
		})
	}
	t.Run("the request sent", func(t *testing.T) {
		var f recordingFetch
		rt.Execute(context.Background(), `await fetch("https://api.example/x", {method: "PUT", headers: [["X-A", "1"], ["x-a", "2"]], body: new URLSearchParams({q: "a b"})})`, codemode.WithFetch(f.fetch))
		got := fmt.Sprintf("%s %s %q %s", f.reqs[0].Method, f.reqs[0].URL, f.reqs[0].Headers, f.reqs[0].Body)
		want := `PUT https://api.example/x [["x-a" "1"] ["x-a" "2"] ["content-type" "application/x-www-form-urlencoded;charset=UTF-8"]] q=a+b`
		if got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	})
	t.Run("no performer, no fetch", func(t *testing.T) {
		res := rt.Execute(context.Background(), `return typeof fetch`)
		if string(res.Value) != `"undefined"` {
			t.Errorf("got %s", res)
		}
	})
	t.Run("disabled", func(t *testing.T) {
		res := rt.Execute(context.Background(), `try { await fetch("https://api.example/") } catch (e) { return e.message }`, codemode.WithFetch(nil))
		if string(res.Value) != `"fetch is disabled: this run has no network access. Get the data through the tools instead."` {
			t.Errorf("got %s", res)
		}
	})
	t.Run("a Response cannot be the value", func(t *testing.T) {
		var f recordingFetch
		res := rt.Execute(context.Background(), `return await fetch("https://api.example/")`, codemode.WithFetch(f.fetch))
		if res.OK || !strings.Contains(res.Error.Message, "A Response cannot cross to the host") {
			t.Errorf("got %s", res)
		}
	})
}

// TestFetchNative: the native mode is outbound's guarded client: a
// loopback server is refused unless the host allows it.
func TestFetchNative(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "hello %s", r.URL.Query().Get("name"))
	}))
	defer srv.Close()
	guarded, err := outbound.New(outbound.Config{})
	if err != nil {
		t.Fatal(err)
	}
	open, err := outbound.New(outbound.Config{AllowLoopback: true})
	if err != nil {
		t.Fatal(err)
	}
	code := fmt.Sprintf(`try { const r = await fetch(%q); return await r.text() } catch (e) { return e.message }`, srv.URL+"/?name=ada")
	rt, _ := codemode.New(codemode.Options{Fetch: guarded.Fetch()})
	res := rt.Execute(context.Background(), code)
	if !strings.Contains(string(res.Value), "is a loopback address; the host allows only public addresses") {
		t.Errorf("guarded: %s", res)
	}
	res = rt.Execute(context.Background(), code, codemode.WithFetch(open.Fetch()))
	if string(res.Value) != `"hello ada"` {
		t.Errorf("allowed: %s", res)
	}
}

// TestFetchHooks: the extension hooks see every fetch, and a before-hook
// denies one.
func TestFetchHooks(t *testing.T) {
	var f recordingFetch
	var seen []string
	var mu sync.Mutex
	rt, _ := codemode.New(codemode.Options{Fetch: f.fetch, Hooks: codemode.Hooks{
		ExtensionBefore: func(_ context.Context, info codemode.ExtensionCallInfo) error {
			mu.Lock()
			seen = append(seen, fmt.Sprint(info.Extension, " ", info.Args))
			mu.Unlock()
			if strings.Contains(fmt.Sprint(info.Args), "secret") {
				return errors.New("this host does not fetch secrets")
			}
			return nil
		}}})
	res := rt.Execute(context.Background(), `await fetch("https://api.example/ok");
try { await fetch("https://secret.example/") } catch (e) { return e.message }`)
	if string(res.Value) != `"fetch failed: this host does not fetch secrets"` {
		t.Errorf("got %s", res)
	}
	if strings.Join(seen, "; ") != "fetch [GET https://api.example/ok]; fetch [GET https://secret.example/]" || len(f.reqs) != 1 {
		t.Errorf("hooks saw %q, performer %d", seen, len(f.reqs))
	}
}

// TestFetchTwice: a fetch global from an extension and a performer
// cannot both be given.
func TestFetchTwice(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{Extensions: []codemode.Extension{{Name: "web", Globals: map[string]any{
		"fetch": codemode.AsyncHostFunc(func(context.Context, []any) (any, error) { return nil, nil })}}}})
	res := rt.Execute(context.Background(), `1`, codemode.WithFetch(nil))
	if res.OK || !strings.Contains(res.Error.Message, "fetch is given twice") {
		t.Errorf("got %s", res)
	}
}
