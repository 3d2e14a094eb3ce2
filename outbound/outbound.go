// Package outbound performs a program's HTTP requests (its fetch) in the
// native outbound mode, safely: a program can reach the public internet
// and nothing else unless the host says so.
//
// The machine: a Client wraps an http.Client whose Transport dials
// through a guard. The guard checks the address each connection actually
// dials, after DNS resolution (net.Dialer.ControlContext), for every
// connection a request makes, redirects included: a host name that
// resolves to a loopback, private, link-local or metadata address is
// refused however it was spelled, and a name whose DNS answer changes
// between two connections (DNS rebinding) is checked again at the second
// dial. Environment proxies are off, since a proxy would be the address
// dialed. Request and response bodies are bounded, the response both by
// its Content-Length and while it is read; the request's context aborts
// everything at once.
//
// Requests and responses are plain data (protocol.OutboundRequest and
// protocol.OutboundResponse), so that a Client's Fetch is the same kind
// of function a host supplies in the stub outbound mode.
//
// Request headers: names and values are checked (an HTTP token; no CR,
// LF or NUL in a value). The headers that describe the connection rather
// than the request, which Go computes, are dropped without an error, as
// a browser's fetch forbids them: Host, Content-Length, Connection,
// Keep-Alive, Transfer-Encoding, TE, Trailer, Upgrade, Expect,
// Accept-Encoding (Go asks for gzip and decodes it) and every Proxy-*
// name. The other names browsers forbid (Cookie, Origin, Referer,
// Sec-*) are sent, as node's fetch sends them. A request without Accept
// gets "Accept: */*", as fetch sends.
//
// A Client is safe for concurrent use and keeps no global state.
package outbound

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-codemode/codemode/protocol"
)

// The defaults of Config's limits.
const (
	DefaultMaxRequestBytes  = 8 << 20 // 8 MiB
	DefaultMaxResponseBytes = 8 << 20 // 8 MiB
	DefaultMaxRedirects     = 10
)

// Config configures the native outbound mode. The zero Config is a
// client that reaches public addresses only, with the default limits.
type Config struct {
	// Client is the base client whose settings (Timeout, Jar,
	// CheckRedirect) are kept. Its Transport must be an *http.Transport
	// or nil (a default one): it is cloned, and its dialing (Dial,
	// DialContext, DialTLS, DialTLSContext) and Proxy are replaced so
	// that every connection goes through the guard. nil: a default
	// client with no timeout of its own (the request's context bounds
	// it).
	Client *http.Client
	// Resolver resolves host names; nil is the system's.
	Resolver *net.Resolver

	// AllowLoopback admits loopback addresses (127.0.0.0/8, ::1).
	AllowLoopback bool
	// AllowPrivate admits private addresses (10/8, 172.16/12,
	// 192.168/16, fc00::/7) and shared ones (100.64/10, carrier-grade
	// NAT), but not the cloud metadata endpoints among them.
	AllowPrivate bool
	// AllowCIDRs admits the addresses in these prefixes, whatever their
	// kind: the only way, with AllowHosts, to reach link-local,
	// metadata, multicast or reserved addresses.
	AllowCIDRs []netip.Prefix
	// AllowHosts admits connections to these host names whatever they
	// resolve to: "api.internal" or "*.internal" (any name below it).
	// An IP literal ("10.0.0.5", "::1") admits that address as the
	// URL spells it. The host trusts the names' DNS.
	AllowHosts []string

	// MaxRequestBytes bounds a request body; 0 is
	// DefaultMaxRequestBytes.
	MaxRequestBytes int64
	// MaxResponseBytes bounds a response body (after any gzip decoding);
	// 0 is DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// MaxRedirects is how many redirects a request follows; 0 is
	// DefaultMaxRedirects, and a negative number follows none (the 3xx
	// response is the answer).
	MaxRedirects int
	// UserAgent is sent when the program's request has no User-Agent;
	// empty is Go's default.
	UserAgent string
}

// Client performs outbound requests. Make it with New.
type Client struct {
	hc           *http.Client
	policy       *policy
	maxReq       int64
	maxResp      int64
	maxRedirects int
	userAgent    string
}

// New makes a Client. It fails on a negative limit, an invalid
// allow-list entry, or a Client whose Transport is not an
// *http.Transport.
func New(cfg Config) (*Client, error) {
	c := &Client{maxReq: cfg.MaxRequestBytes, maxResp: cfg.MaxResponseBytes, maxRedirects: cfg.MaxRedirects,
		userAgent: cfg.UserAgent}
	switch {
	case c.maxReq < 0:
		return nil, fmt.Errorf("outbound: Config.MaxRequestBytes is %d; it must be 0 (the default, %d) or more", c.maxReq, DefaultMaxRequestBytes)
	case c.maxResp < 0:
		return nil, fmt.Errorf("outbound: Config.MaxResponseBytes is %d; it must be 0 (the default, %d) or more", c.maxResp, DefaultMaxResponseBytes)
	}
	if c.maxReq == 0 {
		c.maxReq = DefaultMaxRequestBytes
	}
	if c.maxResp == 0 {
		c.maxResp = DefaultMaxResponseBytes
	}
	if c.maxRedirects == 0 {
		c.maxRedirects = DefaultMaxRedirects
	}
	if strings.ContainsAny(cfg.UserAgent, "\r\n\x00") {
		return nil, errors.New("outbound: Config.UserAgent contains a line break or NUL")
	}
	p, err := newPolicy(cfg)
	if err != nil {
		return nil, err
	}
	c.policy = p

	base := cfg.Client
	if base == nil {
		base = &http.Client{}
	}
	var tr *http.Transport
	switch t := base.Transport.(type) {
	case nil:
		tr = &http.Transport{ForceAttemptHTTP2: true, MaxIdleConns: 100, IdleConnTimeout: 90 * time.Second,
			TLSHandshakeTimeout: 10 * time.Second, ExpectContinueTimeout: time.Second}
	case *http.Transport:
		tr = t.Clone()
	default:
		return nil, fmt.Errorf("outbound: Config.Client.Transport is a %T; the guard needs an *http.Transport (whose dialing it replaces) or nil", t)
	}
	g := &guard{policy: p, dialer: net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Resolver: cfg.Resolver}}
	tr.Proxy = nil
	//lint:ignore SA1019 the deprecated dial hooks must not bypass the guard either
	tr.Dial, tr.DialTLS, tr.DialTLSContext = nil, nil, nil
	tr.DialContext = g.dialContext

	hc := *base
	hc.Transport = tr
	hc.CheckRedirect = c.checkRedirect(base.CheckRedirect)
	c.hc = &hc
	return c, nil
}

// Fetch returns c.Do as a protocol.FetchFunc.
func (c *Client) Fetch() protocol.FetchFunc { return c.Do }

// checkRedirect bounds redirects and keeps them to http and https, then
// asks the base client's own check, if any.
func (c *Client) checkRedirect(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if c.maxRedirects < 0 {
			return http.ErrUseLastResponse
		}
		if len(via) > c.maxRedirects {
			return &redirectError{fmt.Sprintf("stopped after %d redirects, the most the host allows (outbound.Config.MaxRedirects)", c.maxRedirects)}
		}
		if s := req.URL.Scheme; s != "http" && s != "https" {
			return &redirectError{fmt.Sprintf("it redirected to %s, and only http and https URLs can be fetched", req.URL.Redacted())}
		}
		if hops, ok := req.Context().Value(hopsKey{}).(*int); ok {
			*hops = len(via)
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
}

// hopsKey keys the count of redirects a request followed in its context.
type hopsKey struct{}

// redirectError is a redirect the client refused to follow.
type redirectError struct{ msg string }

func (e *redirectError) Error() string { return e.msg }

// forbiddenMethods are the methods fetch refuses.
var forbiddenMethods = map[string]bool{"CONNECT": true, "TRACE": true, "TRACK": true}

// normalizedMethods are the methods fetch upper-cases (PATCH added: a
// lower-case "patch" is always a mistake).
var normalizedMethods = map[string]bool{"DELETE": true, "GET": true, "HEAD": true, "OPTIONS": true, "PATCH": true, "POST": true, "PUT": true}

// droppedHeaders are the request headers that belong to the connection
// rather than the request: Go computes them, and a program's are dropped
// (with every Proxy-* name).
var droppedHeaders = map[string]bool{"host": true, "content-length": true, "connection": true, "keep-alive": true,
	"transfer-encoding": true, "te": true, "trailer": true, "upgrade": true, "expect": true, "accept-encoding": true}

// Do performs one request. Its error says what failed and how to fix it;
// a refused address is a *RefusedError. The response's URL is set when
// redirects led to it, and empty when the request's URL answered.
func (c *Client) Do(ctx context.Context, req protocol.OutboundRequest) (protocol.OutboundResponse, error) {
	var out protocol.OutboundResponse
	u, err := url.Parse(req.URL)
	if err != nil {
		return out, fmt.Errorf("fetch %q: the URL is not valid: %v", req.URL, errors.Unwrap(err))
	}
	shown := u.Redacted()
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return out, fmt.Errorf("fetch %s refused: only http and https URLs can be fetched", shown)
	case u.Host == "" || u.Hostname() == "":
		return out, fmt.Errorf("fetch %s: the URL has no host", shown)
	case u.User != nil:
		return out, fmt.Errorf("fetch %s refused: the URL includes credentials; send them in an Authorization header instead", shown)
	}
	method, err := checkMethod(req.Method)
	if err != nil {
		return out, fmt.Errorf("fetch %s: %v", shown, err)
	}
	if n := int64(len(req.Body)); n > c.maxReq {
		return out, fmt.Errorf("fetch %s: the request body is %d bytes; the host allows at most %d (outbound.Config.MaxRequestBytes)", shown, n, c.maxReq)
	}
	var body io.Reader
	if req.Body != nil {
		if method == "GET" || method == "HEAD" {
			return out, fmt.Errorf("fetch %s: a %s request cannot have a body", shown, method)
		}
		body = bytes.NewReader(req.Body)
	}
	u.Fragment, u.RawFragment = "", ""
	sent := u.Redacted()
	hops := 0
	hreq, err := http.NewRequestWithContext(context.WithValue(ctx, hopsKey{}, &hops), method, u.String(), body)
	if err != nil {
		return out, fmt.Errorf("fetch %s: %v", shown, err)
	}
	for _, h := range req.Headers {
		name, val := h[0], strings.Trim(h[1], " \t\r\n")
		if !protocol.IsToken(name) {
			return out, fmt.Errorf("fetch %s: %q is not a valid header name", shown, name)
		}
		if strings.ContainsAny(val, "\r\n\x00") {
			return out, fmt.Errorf("fetch %s: the value of header %q contains a line break or NUL", shown, name)
		}
		lower := strings.ToLower(name)
		if droppedHeaders[lower] || strings.HasPrefix(lower, "proxy-") {
			continue
		}
		hreq.Header.Add(name, val)
	}
	if _, ok := hreq.Header["Accept"]; !ok {
		hreq.Header.Set("Accept", "*/*")
	}
	if _, ok := hreq.Header["User-Agent"]; !ok && c.userAgent != "" {
		hreq.Header.Set("User-Agent", c.userAgent)
	}

	resp, err := c.hc.Do(hreq)
	if err != nil {
		return out, c.explain(ctx, shown, sent, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 599 {
		return out, fmt.Errorf("fetch %s: the server answered with status %d; a fetch response's status is 200 to 599", shown, resp.StatusCode)
	}
	if method != "HEAD" && resp.ContentLength > c.maxResp {
		return out, fmt.Errorf("fetch %s: the response body is %d bytes (its Content-Length); the host allows at most %d (outbound.Config.MaxResponseBytes)", shown, resp.ContentLength, c.maxResp)
	}
	var buf bytes.Buffer
	if method != "HEAD" && resp.ContentLength > 0 {
		buf.Grow(int(resp.ContentLength))
	}
	n, err := buf.ReadFrom(io.LimitReader(resp.Body, c.maxResp+1))
	switch {
	case n > c.maxResp:
		return out, fmt.Errorf("fetch %s: the response body is over %d bytes, the most the host allows (outbound.Config.MaxResponseBytes)", shown, c.maxResp)
	case err != nil:
		if ctx.Err() != nil {
			return out, fmt.Errorf("fetch %s: the response body was cut off: %w", shown, ctx.Err())
		}
		return out, fmt.Errorf("fetch %s: reading the response body failed: %v", shown, err)
	}
	out = protocol.OutboundResponse{Status: resp.StatusCode, Headers: flatten(resp.Header), Body: buf.Bytes()}
	out.StatusText = strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)+" ")
	if out.StatusText == resp.Status {
		out.StatusText = ""
	}
	if hops > 0 && resp.Request != nil {
		out.URL = resp.Request.URL.String()
	}
	return out, nil
}

// explain turns the http.Client's error into one that says what failed:
// a refused address, a refused redirect, the context, or the network.
// shown is the URL as the program gave it, sent as it was sent (without
// its fragment): a URL in the error other than sent is a redirect's.
func (c *Client) explain(ctx context.Context, shown, sent string, err error) error {
	target := ""
	var ue *url.Error
	if errors.As(err, &ue) {
		if t, perr := url.Parse(ue.URL); perr == nil {
			target = t.Redacted()
		}
		err = ue.Err
	}
	var re *RefusedError
	if errors.As(err, &re) {
		cp := *re
		cp.URL = shown
		if target != sent {
			cp.Redirect = target
		}
		return &cp
	}
	var rd *redirectError
	if errors.As(err, &rd) {
		return fmt.Errorf("fetch %s: %s", shown, rd.msg)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("fetch %s: %w", shown, ctx.Err())
	}
	if target != "" && target != sent {
		return fmt.Errorf("fetch %s failed (redirected to %s): %w", shown, target, err)
	}
	return fmt.Errorf("fetch %s failed: %w", shown, err)
}

// checkMethod validates and normalizes a request method as fetch does.
func checkMethod(m string) (string, error) {
	if m == "" {
		return "GET", nil
	}
	if !protocol.IsToken(m) {
		return "", fmt.Errorf("%q is not a valid HTTP method", m)
	}
	up := strings.ToUpper(m)
	if forbiddenMethods[up] {
		return "", fmt.Errorf("the method %s is forbidden (fetch refuses CONNECT, TRACE and TRACK)", up)
	}
	if normalizedMethods[up] {
		return up, nil
	}
	return m, nil
}

// flatten lists a response's headers as fetch shows them: lower-case
// names in order, each value apart (a repeated name stays repeated).
func flatten(h http.Header) [][2]string {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	slices.SortFunc(names, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	var out [][2]string
	for _, k := range names {
		lk := strings.ToLower(k)
		for _, v := range h[k] {
			out = append(out, [2]string{lk, v})
		}
	}
	return out
}
