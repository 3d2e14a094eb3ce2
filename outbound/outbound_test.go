package outbound

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-codemode/codemode/protocol"
)

func newClient(t *testing.T, cfg Config) *Client {
	t.Helper()
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func get(c *Client, ctx context.Context, url string) (protocol.OutboundResponse, error) {
	return c.Do(ctx, protocol.OutboundRequest{Method: "GET", URL: url})
}

// hits counts the requests a handler served.
type hits struct{ n atomic.Int64 }

func (h *hits) wrap(f http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { h.n.Add(1); f(w, r) }
}

// serveOn starts a test server listening on addr ("127.0.0.2:0"),
// skipping the test where the machine cannot listen there.
func serveOn(t *testing.T, addr string, h http.Handler) *httptest.Server {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	s := httptest.NewUnstartedServer(h)
	s.Listener.Close()
	s.Listener = ln
	s.Start()
	t.Cleanup(s.Close)
	return s
}

func mustRefuse(t *testing.T, err error, want string) {
	t.Helper()
	var re *RefusedError
	if !errors.As(err, &re) {
		t.Fatalf("error %v (%T), want a *RefusedError", err, err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q\nwant it to contain %q", err, want)
	}
}

// TestLoopback: a loopback server is refused by default, by address and
// by a name that resolves to it, and reached with each allowance.
func TestLoopback(t *testing.T) {
	var h hits
	srv := httptest.NewServer(h.wrap(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello") }))
	defer srv.Close()
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	byName := "http://localhost:" + strconv.Itoa(port) + "/x"

	_, err := get(newClient(t, Config{}), t.Context(), srv.URL+"/x")
	mustRefuse(t, err, "fetch "+srv.URL+"/x refused: 127.0.0.1 is a loopback address; the host allows only public addresses (outbound.Config.AllowLoopback allows loopback ones)")
	_, err = get(newClient(t, Config{}), t.Context(), byName)
	mustRefuse(t, err, "fetch "+byName+" refused: ")
	_, err = get(newClient(t, Config{}), t.Context(), srv.URL+"/x#frag")
	mustRefuse(t, err, "fetch "+srv.URL+"/x#frag refused: 127.0.0.1 is a loopback address")
	_, err = get(newClient(t, Config{AllowPrivate: true}), t.Context(), byName)
	mustRefuse(t, err, "is a loopback address; the host allows only public and private addresses")
	if h.n.Load() != 0 {
		t.Fatalf("the server was reached %d times", h.n.Load())
	}

	for name, cfg := range map[string]Config{
		"AllowLoopback": {AllowLoopback: true},
		"AllowCIDRs":    {AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}},
		"AllowHosts":    {AllowHosts: []string{"localhost", "127.0.0.1"}},
	} {
		c := newClient(t, cfg)
		for _, u := range []string{srv.URL + "/x", byName} {
			resp, err := get(c, t.Context(), u)
			if err != nil {
				t.Fatalf("%s: %s: %v", name, u, err)
			}
			if resp.Status != 200 || resp.StatusText != "OK" || string(resp.Body) != "hello" || resp.URL != "" {
				t.Fatalf("%s: %s: got %+v", name, u, resp)
			}
		}
	}
}

// TestRedirectRefused: an allowed server (127.0.0.2, admitted by
// AllowCIDRs) that redirects to a loopback address it may not reach is
// refused at the redirect's dial.
func TestRedirectRefused(t *testing.T) {
	var target hits
	inner := httptest.NewServer(target.wrap(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "secret") }))
	defer inner.Close()
	innerPort := inner.Listener.Addr().(*net.TCPAddr).Port
	outer := serveOn(t, "127.0.0.2:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ip":
			http.Redirect(w, r, inner.URL+"/secret", http.StatusFound)
		case "/name":
			http.Redirect(w, r, "http://localhost:"+strconv.Itoa(innerPort)+"/secret", http.StatusTemporaryRedirect)
		case "/mapped":
			http.Redirect(w, r, "http://[::ffff:127.0.0.1]:"+strconv.Itoa(innerPort)+"/secret", http.StatusMovedPermanently)
		case "/ok":
			io.WriteString(w, "outer")
		}
	}))
	c := newClient(t, Config{AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("127.0.0.2/32")}})
	resp, err := get(c, t.Context(), outer.URL+"/ok")
	if err != nil || string(resp.Body) != "outer" {
		t.Fatalf("the allowed server: %+v, %v", resp, err)
	}
	_, err = get(c, t.Context(), outer.URL+"/ip")
	mustRefuse(t, err, "fetch "+outer.URL+"/ip refused: it redirected to "+inner.URL+"/secret, and 127.0.0.1 is a loopback address")
	_, err = get(c, t.Context(), outer.URL+"/name")
	mustRefuse(t, err, "it redirected to http://localhost:"+strconv.Itoa(innerPort)+"/secret, and ")
	_, err = c.Do(t.Context(), protocol.OutboundRequest{Method: "POST", URL: outer.URL + "/mapped", Body: []byte("x")})
	mustRefuse(t, err, "127.0.0.1 is a loopback address")
	if target.n.Load() != 0 {
		t.Fatalf("the loopback server was reached %d times", target.n.Load())
	}
}

// TestRedirects: the redirect limit, following none, the final URL, and
// a redirect to another scheme.
func TestRedirects(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/ftp":
			http.Redirect(w, r, "ftp://example.com/x", http.StatusFound)
		case strings.HasPrefix(r.URL.Path, "/hop/"):
			n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hop/"))
			if n == 0 {
				io.WriteString(w, "end")
				return
			}
			http.Redirect(w, r, "/hop/"+strconv.Itoa(n-1), http.StatusFound)
		}
	}))
	defer srv.Close()
	c := newClient(t, Config{AllowLoopback: true, MaxRedirects: 3})
	resp, err := get(c, t.Context(), srv.URL+"/hop/3")
	if err != nil || string(resp.Body) != "end" || resp.URL != srv.URL+"/hop/0" {
		t.Fatalf("3 redirects: %+v, %v", resp, err)
	}
	_, err = get(c, t.Context(), srv.URL+"/hop/4")
	if err == nil || err.Error() != "fetch "+srv.URL+"/hop/4: stopped after 3 redirects, the most the host allows (outbound.Config.MaxRedirects)" {
		t.Fatalf("4 redirects: %v", err)
	}
	_, err = get(c, t.Context(), srv.URL+"/ftp")
	if err == nil || err.Error() != "fetch "+srv.URL+"/ftp: it redirected to ftp://example.com/x, and only http and https URLs can be fetched" {
		t.Fatalf("ftp redirect: %v", err)
	}
	// A base client with a Timeout (whose requests Go copies) reports no
	// redirect where there was none.
	timed := newClient(t, Config{AllowLoopback: true, Client: &http.Client{Timeout: time.Minute}})
	resp, err = get(timed, t.Context(), srv.URL+"/hop/0")
	if err != nil || resp.URL != "" {
		t.Fatalf("no redirect: %+v, %v", resp, err)
	}
	none := newClient(t, Config{AllowLoopback: true, MaxRedirects: -1})
	resp, err = get(none, t.Context(), srv.URL+"/hop/1")
	if loc, _ := protocol.HeaderValue(resp.Headers, "location"); err != nil || resp.Status != 302 || loc != "/hop/0" || resp.URL != "" {
		t.Fatalf("no redirects: %+v, %v", resp, err)
	}
	// The default is 10.
	_, err = get(newClient(t, Config{AllowLoopback: true}), t.Context(), srv.URL+"/hop/11")
	if err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") {
		t.Fatalf("11 redirects: %v", err)
	}
	// The base client's own check runs after the guard's.
	base := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return errors.New("no thanks") }}
	_, err = get(newClient(t, Config{AllowLoopback: true, Client: base}), t.Context(), srv.URL+"/hop/1")
	if err == nil || !strings.Contains(err.Error(), "no thanks") {
		t.Fatalf("base CheckRedirect: %v", err)
	}
}

// TestBodies: request and response bodies at and over their limits.
func TestBodies(t *testing.T) {
	var h hits
	srv := httptest.NewServer(h.wrap(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		if r.URL.Query().Get("chunked") == "" {
			w.Header().Set("Content-Length", strconv.Itoa(n))
		}
		w.Write([]byte(strings.Repeat("a", n)))
	}))
	defer srv.Close()
	c := newClient(t, Config{AllowLoopback: true, MaxRequestBytes: 100, MaxResponseBytes: 1000})

	_, err := c.Do(t.Context(), protocol.OutboundRequest{Method: "POST", URL: srv.URL, Body: make([]byte, 101)})
	if err == nil || err.Error() != "fetch "+srv.URL+": the request body is 101 bytes; the host allows at most 100 (outbound.Config.MaxRequestBytes)" {
		t.Fatalf("oversized request: %v", err)
	}
	if h.n.Load() != 0 {
		t.Fatal("an oversized request was sent")
	}
	if _, err := c.Do(t.Context(), protocol.OutboundRequest{Method: "POST", URL: srv.URL, Body: make([]byte, 100)}); err != nil {
		t.Fatalf("request at the limit: %v", err)
	}
	for _, q := range []string{"?n=1000", "?n=1000&chunked=1"} {
		resp, err := get(c, t.Context(), srv.URL+q)
		if err != nil || len(resp.Body) != 1000 {
			t.Fatalf("%s: %d bytes, %v", q, len(resp.Body), err)
		}
	}
	_, err = get(c, t.Context(), srv.URL+"?n=1001")
	if err == nil || err.Error() != "fetch "+srv.URL+"?n=1001: the response body is 1001 bytes (its Content-Length); the host allows at most 1000 (outbound.Config.MaxResponseBytes)" {
		t.Fatalf("oversized response: %v", err)
	}
	_, err = get(c, t.Context(), srv.URL+"?n=5000&chunked=1")
	if err == nil || err.Error() != "fetch "+srv.URL+"?n=5000&chunked=1: the response body is over 1000 bytes, the most the host allows (outbound.Config.MaxResponseBytes)" {
		t.Fatalf("oversized chunked response: %v", err)
	}
	resp, err := c.Do(t.Context(), protocol.OutboundRequest{Method: "HEAD", URL: srv.URL + "?n=50000"})
	if err != nil || len(resp.Body) != 0 {
		t.Fatalf("HEAD: %+v, %v", resp, err)
	}
}

// TestCancel: a slow server and a context that ends abort the request
// at once, while waiting for the headers and while reading the body.
func TestCancel(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/body" {
			w.Header().Set("Content-Length", "100")
			w.Write([]byte("partial"))
			w.(http.Flusher).Flush()
		}
		select {
		case <-r.Context().Done():
		case <-release:
		case <-time.After(10 * time.Second):
		}
	}))
	defer srv.Close()
	c := newClient(t, Config{AllowLoopback: true})
	for _, path := range []string{"/headers", "/body"} {
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		start := time.Now()
		_, err := get(c, ctx, srv.URL+path)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%s: %v, want the deadline", path, err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("%s: took %v", path, d)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := get(c, ctx, srv.URL+"/headers")
	if !errors.Is(err, context.Canceled) || err.Error() != "fetch "+srv.URL+"/headers: context canceled" {
		t.Fatalf("cancelled: %v", err)
	}
}

// TestHeaders: request headers arrive with repeated names kept, the
// connection's own headers are dropped, defaults fill in, and response
// headers come back lower-case, sorted, repeats apart.
func TestHeaders(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Set-Cookie", "a=1")
		w.Header().Add("Set-Cookie", "b=2")
		w.Header().Add("X-Multi", "one")
		w.Header().Add("X-Multi", "two")
		w.Header().Set("Content-Type", "text/plain")
		for _, k := range []string{"X-A", "Content-Type", "Accept", "User-Agent", "Cookie", "Proxy-Authorization", "Connection", "Te"} {
			fmt.Fprintf(w, "%s=%q\n", k, r.Header.Values(k))
		}
		fmt.Fprintf(w, "host=%s len=%d te=%q gzip=%v\n", r.Host, r.ContentLength, r.TransferEncoding, r.Header.Get("Accept-Encoding"))
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	c := newClient(t, Config{AllowLoopback: true, UserAgent: "codemode-test"})
	resp, err := c.Do(t.Context(), protocol.OutboundRequest{Method: "post", URL: srv.URL + "/#frag", Body: []byte("{}"), Headers: [][2]string{
		{"x-a", "1"}, {"X-A", " 2 "}, {"Content-Type", "application/json"}, {"Cookie", "s=1"},
		{"Host", "evil.example"}, {"Content-Length", "999"}, {"Connection", "upgrade"}, {"Upgrade", "websocket"},
		{"Transfer-Encoding", "chunked"}, {"TE", "trailers"}, {"Accept-Encoding", "br"}, {"Proxy-Authorization", "x"},
		{"Keep-Alive", "1"}, {"Expect", "100-continue"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := `X-A=["1" "2"]
Content-Type=["application/json"]
Accept=["*/*"]
User-Agent=["codemode-test"]
Cookie=["s=1"]
Proxy-Authorization=[]
Connection=[]
Te=[]
host=` + host + ` len=2 te=[] gzip=gzip
`
	if string(resp.Body) != want {
		t.Errorf("the server saw:\n%s\nwant:\n%s", resp.Body, want)
	}
	var names []string
	for _, h := range resp.Headers {
		names = append(names, h[0]+"="+h[1])
	}
	if got := strings.Join(names, " "); got != "content-length="+strconv.Itoa(len(want))+" content-type=text/plain date="+resp.Headers[2][1]+" set-cookie=a=1 set-cookie=b=2 x-multi=one x-multi=two" {
		t.Errorf("response headers: %s", got)
	}
	// The program's own Accept and User-Agent win.
	resp, err = c.Do(t.Context(), protocol.OutboundRequest{URL: srv.URL, Headers: [][2]string{{"accept", "text/html"}, {"user-agent", "mine"}}})
	if err != nil || !strings.Contains(string(resp.Body), `Accept=["text/html"]`) || !strings.Contains(string(resp.Body), `User-Agent=["mine"]`) {
		t.Errorf("own Accept and User-Agent: %s, %v", resp.Body, err)
	}
	for _, c2 := range []struct {
		h    [2]string
		want string
	}{
		{[2]string{"bad name", "x"}, `"bad name" is not a valid header name`},
		{[2]string{"", "x"}, `"" is not a valid header name`},
		{[2]string{"x", "a\r\nInjected: 1"}, `the value of header "x" contains a line break or NUL`},
		{[2]string{"x", "a\x00"}, `the value of header "x" contains a line break or NUL`},
	} {
		_, err := c.Do(t.Context(), protocol.OutboundRequest{URL: srv.URL, Headers: [][2]string{c2.h}})
		if err == nil || err.Error() != "fetch "+srv.URL+": "+c2.want {
			t.Errorf("header %q: %v", c2.h, err)
		}
	}
}

// TestMethods: fetch's method rules.
func TestMethods(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.Method) }))
	defer srv.Close()
	c := newClient(t, Config{AllowLoopback: true})
	cases := []struct {
		method string
		body   []byte
		want   string // the method the server saw, or the error after "fetch URL: "
	}{
		{"", nil, "GET"}, {"get", nil, "GET"}, {"GET", nil, "GET"}, {"head", nil, ""}, {"post", []byte("x"), "POST"},
		{"put", nil, "PUT"}, {"patch", []byte("x"), "PATCH"}, {"delete", nil, "DELETE"}, {"options", nil, "OPTIONS"},
		{"PROPFIND", nil, "PROPFIND"}, {"custom", nil, "custom"},
		{"CONNECT", nil, "error: the method CONNECT is forbidden (fetch refuses CONNECT, TRACE and TRACK)"},
		{"trace", nil, "error: the method TRACE is forbidden (fetch refuses CONNECT, TRACE and TRACK)"},
		{"Track", nil, "error: the method TRACK is forbidden (fetch refuses CONNECT, TRACE and TRACK)"},
		{"BAD METHOD", nil, `error: "BAD METHOD" is not a valid HTTP method`},
		{"GET\r\n", nil, `error: "GET\r\n" is not a valid HTTP method`},
		{"GET", []byte("x"), "error: a GET request cannot have a body"},
		{"head", []byte{}, "error: a HEAD request cannot have a body"},
	}
	for _, tc := range cases {
		resp, err := c.Do(t.Context(), protocol.OutboundRequest{Method: tc.method, URL: srv.URL, Body: tc.body})
		if want, ok := strings.CutPrefix(tc.want, "error: "); ok {
			if err == nil || err.Error() != "fetch "+srv.URL+": "+want {
				t.Errorf("%q: %v, want %q", tc.method, err, want)
			}
			continue
		}
		if err != nil || string(resp.Body) != tc.want {
			t.Errorf("%q: %q, %v, want %q", tc.method, resp.Body, err, tc.want)
		}
	}
}

// TestURLs: only absolute http and https URLs without credentials.
func TestURLs(t *testing.T) {
	c := newClient(t, Config{})
	cases := map[string]string{
		"ftp://example.com/x":        "fetch ftp://example.com/x refused: only http and https URLs can be fetched",
		"file:///etc/passwd":         "fetch file:///etc/passwd refused: only http and https URLs can be fetched",
		"data:text/plain,hi":         "fetch data:text/plain,hi refused: only http and https URLs can be fetched",
		"javascript:alert(1)":        "fetch javascript:alert(1) refused: only http and https URLs can be fetched",
		"/relative":                  "fetch /relative refused: only http and https URLs can be fetched",
		"http:///path":               "fetch http:///path: the URL has no host",
		"http://:80/":                "fetch http://:80/: the URL has no host",
		"http://user:pw@example.com": "fetch http://user:xxxxx@example.com refused: the URL includes credentials; send them in an Authorization header instead",
		"http://exa mple.com/":       `fetch "http://exa mple.com/": the URL is not valid: invalid character " " in host name`,
		"http://[::1/":               `fetch "http://[::1/": the URL is not valid: missing ']' in host`,
	}
	for u, want := range cases {
		_, err := get(c, t.Context(), u)
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", u, err, want)
		}
	}
}

// TestProxyIgnored: a base Transport's proxy (like the environment's)
// is never used: the proxy would be the address dialed.
func TestProxyIgnored(t *testing.T) {
	var proxied hits
	proxy := httptest.NewServer(proxied.wrap(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "via proxy") }))
	defer proxy.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "direct") }))
	defer srv.Close()
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("http_proxy", proxy.URL)
	tr := &http.Transport{Proxy: http.ProxyFromEnvironment}
	for _, cfg := range []Config{{AllowLoopback: true}, {AllowLoopback: true, Client: &http.Client{Transport: tr}}} {
		resp, err := get(newClient(t, cfg), t.Context(), srv.URL)
		if err != nil || string(resp.Body) != "direct" {
			t.Fatalf("%+v, %v", resp, err)
		}
	}
	if proxied.n.Load() != 0 {
		t.Fatal("the proxy was used")
	}
}

// TestNew: configuration mistakes are errors at construction.
func TestNew(t *testing.T) {
	type rt struct{ http.RoundTripper }
	cases := []struct {
		cfg  Config
		want string
	}{
		{Config{MaxRequestBytes: -1}, "outbound: Config.MaxRequestBytes is -1; it must be 0 (the default, 8388608) or more"},
		{Config{MaxResponseBytes: -5}, "outbound: Config.MaxResponseBytes is -5; it must be 0 (the default, 8388608) or more"},
		{Config{Client: &http.Client{Transport: rt{}}}, "outbound: Config.Client.Transport is a outbound.rt; the guard needs an *http.Transport (whose dialing it replaces) or nil"},
		{Config{AllowCIDRs: []netip.Prefix{{}}}, "outbound: Config.AllowCIDRs[0] is not a valid prefix"},
		{Config{AllowHosts: []string{"ok", "x:1"}}, `outbound: Config.AllowHosts[1] is "x:1"; give a host name without a scheme or port ("api.internal"), "*.internal" for the names below one, or an IP address`},
		{Config{UserAgent: "a\nb"}, "outbound: Config.UserAgent contains a line break or NUL"},
	}
	for _, c := range cases {
		if _, err := New(c.cfg); err == nil || err.Error() != c.want {
			t.Errorf("%+v: %v\nwant %s", c.cfg, err, c.want)
		}
	}
	// The base client is not changed; its Transport's dialing is replaced
	// in a clone.
	base := &http.Client{Transport: &http.Transport{DialContext: (&net.Dialer{}).DialContext}, Timeout: time.Minute}
	c := newClient(t, Config{Client: base})
	if c.hc == base || c.hc.Timeout != time.Minute || base.CheckRedirect != nil || c.hc.Transport == base.Transport {
		t.Fatal("the base client was not copied")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	_, err := get(c, t.Context(), srv.URL)
	mustRefuse(t, err, "loopback")
	if c.Fetch() == nil {
		t.Fatal("no Fetch")
	}
}

// TestConcurrent: one Client serves many requests at once (run it with
// -race).
func TestConcurrent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.URL.Path) }))
	defer srv.Close()
	ok := newClient(t, Config{AllowLoopback: true})
	refused := newClient(t, Config{})
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 20 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			p := "/" + strconv.Itoa(i)
			if resp, err := get(ok, t.Context(), srv.URL+p); err != nil || string(resp.Body) != p {
				errs <- fmt.Errorf("%s: %q, %v", p, resp.Body, err)
			}
		}()
		go func() {
			defer wg.Done()
			var re *RefusedError
			if _, err := get(refused, t.Context(), srv.URL); !errors.As(err, &re) {
				errs <- fmt.Errorf("not refused: %v", err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
