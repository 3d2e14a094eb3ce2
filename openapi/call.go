package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Error is a failed call. Its text is what the program sees; it names the
// operation by method and path template, never by URL, so no credential
// (a query api key, say) can show in it. Unwrap gives the cause, when
// there is one (a transport error, the context's error, an auth
// resolver's or a Decorate hook's error).
type Error struct {
	// Method and Path name the operation ("GET", "/pets/{petId}").
	Method, Path string
	// StatusCode is the HTTP status of a non-2xx response, else 0.
	StatusCode int
	// Body is that response's body as the message shows it: its text (or
	// compact JSON), cut to 1024 characters and "...", or "no response
	// body".
	Body string

	msg    string
	cause  error
	fields map[string]any // ErrorFields, for an HTTP failure
}

// ErrorFields returns the properties the program's Error gets besides name
// and message: for an HTTP failure, status (the code), statusText,
// body (the response's JSON parsed, or else its text, either cut to
// maxErrorData bytes: then the text, cut, with "...") and headers (the
// response's, by lower-case name, values of a repeated header joined by
// ", ", without any that could carry a credential: see credentialHeader).
// It is nil for other failures.
func (e *Error) ErrorFields() map[string]any { return e.fields }

func (e *Error) Error() string { return e.msg }

func (e *Error) Unwrap() error { return e.cause }

func (p *plan) fail(cause error, format string, args ...any) *Error {
	return &Error{Method: p.op.Method, Path: p.op.Path, msg: fmt.Sprintf(format, args...), cause: cause}
}

// caller holds what every tool of one conversion calls with.
type caller struct {
	client   *http.Client
	headers  map[string]string
	auth     AuthResolver
	decorate func(*http.Request) error
	max      int64
	timeout  time.Duration
}

func newCaller(opts Options) *caller {
	c := &caller{
		client:   opts.Client,
		headers:  maps.Clone(opts.Headers),
		auth:     opts.Auth,
		decorate: opts.Decorate,
		max:      opts.MaxResponseBytes,
		timeout:  opts.Timeout,
	}
	if c.client == nil {
		c.client = &http.Client{}
	}
	if c.max == 0 {
		c.max = DefaultMaxResponseBytes
	}
	return c
}

// hostAuth says whether the host authenticates the requests itself, with
// Options.Headers or Options.Decorate: a missing credential is then no
// error.
func (c *caller) hostAuth() bool { return len(c.headers) > 0 || c.decorate != nil }

// maxErrorBody is how much of a failed response's body an error shows.
const maxErrorBody = 1024

// invoke is the tool's Func: it builds the request, authenticates it,
// sends it and reads the response.
func (p *plan) invoke(ctx context.Context, input json.RawMessage) (any, error) {
	parent := ctx
	if p.call.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.call.timeout)
		defer cancel()
	}
	d, err := p.build(parseInput(input))
	if err != nil {
		return nil, err
	}
	auth, err := p.authenticate(ctx)
	if err != nil {
		return nil, err
	}
	if auth != nil {
		for name, v := range auth.headers {
			d.header.Set(name, v)
		}
		for _, q := range auth.query {
			kept := d.query[:0]
			for _, e := range d.query {
				if e[0] != q[0] {
					kept = append(kept, e)
				}
			}
			d.query = append(kept, q)
		}
	}
	target := d.url
	if len(d.query) > 0 {
		target += "?" + encodePairs(d.query)
	}
	var body io.Reader
	if d.body != nil {
		body = bytes.NewReader(d.body)
	}
	req, err := http.NewRequestWithContext(ctx, p.op.Method, target, body)
	if err != nil {
		return nil, p.fail(err, "%s %s failed: the request URL is invalid.", p.op.Method, p.op.Path)
	}
	req.Header = d.header
	if p.call.decorate != nil {
		if err := p.call.decorate(req); err != nil {
			return nil, p.fail(err, "%s %s failed: the request could not be prepared.", p.op.Method, p.op.Path)
		}
	}
	resp, err := p.call.client.Do(req)
	if err != nil {
		return nil, p.transportError(parent, ctx, err, "transport error")
	}
	defer resp.Body.Close()
	data, err := p.read(resp)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return nil, err
		}
		return nil, p.transportError(parent, ctx, err, "")
	}
	return p.result(resp, data)
}

// transportError reports a failed exchange: our own timeout by its
// length, anything else with the reference's text.
func (p *plan) transportError(parent, ctx context.Context, err error, what string) error {
	if parent.Err() == nil && ctx.Err() == context.DeadlineExceeded {
		return p.fail(err, "%s %s timed out after %s.", p.op.Method, p.op.Path, p.call.timeout)
	}
	if what == "" {
		return p.fail(err, "%s %s failed while reading the response body.", p.op.Method, p.op.Path)
	}
	return p.fail(err, "%s %s failed: %s", p.op.Method, p.op.Path, what)
}

// read reads the body within the size cap, checking the declared length
// first.
func (p *plan) read(resp *http.Response) ([]byte, error) {
	limit := p.call.max
	if limit < 0 {
		return io.ReadAll(resp.Body)
	}
	if resp.ContentLength > limit {
		return nil, p.tooLarge()
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, p.tooLarge()
	}
	return data, nil
}

func (p *plan) tooLarge() error {
	return p.fail(nil, "%s %s response exceeds %s.", p.op.Method, p.op.Path, sizeText(p.call.max))
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// result turns a response into the tool's value: JSON media parsed (as
// json.RawMessage), other media as text, an empty body as null; a non-2xx
// status is an *Error with the body's summary.
func (p *plan) result(resp *http.Response, data []byte) (any, error) {
	mt := mediaBase(resp.Header.Get("Content-Type"))
	isJSON := mt == "application/json" || strings.HasSuffix(mt, "+json")
	if mt == "" && p.jsonOnly && json.Valid(data) {
		isJSON = true // no Content-Type, but the operation only answers JSON
	}
	text := strings.ToValidUTF8(string(data), "\uFFFD")
	var value any
	decoded := len(data) == 0
	if !decoded && isJSON && json.Valid(data) {
		value, decoded = json.RawMessage(data), true
	} else if !decoded && !isJSON {
		value = text
	}
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		rendered := text
		if raw, ok := value.(json.RawMessage); ok {
			var s string
			if json.Unmarshal(raw, &s) == nil {
				rendered = s
			} else {
				var b bytes.Buffer
				if json.Compact(&b, raw) == nil {
					rendered = b.String()
				}
			}
		}
		summary := rendered
		switch {
		case rendered == "" || rendered == "null":
			summary = "no response body"
		case utf8.RuneCountInString(rendered) > maxErrorBody:
			summary = string([]rune(rendered)[:maxErrorBody]) + "..."
		}
		e := p.fail(nil, "%s %s failed with HTTP %d: %s", p.op.Method, p.op.Path, resp.StatusCode, summary)
		e.StatusCode, e.Body = resp.StatusCode, summary
		e.fields = failureFields(resp, data, value)
		return nil, e
	}
	if isJSON && !decoded {
		return nil, p.fail(nil, "%s %s returned malformed JSON.", p.op.Method, p.op.Path)
	}
	return value, nil
}

// maxErrorData bounds the body an HTTP failure's fields carry.
const maxErrorData = 64 << 10

// failureFields are an HTTP failure's ErrorFields. value is the body as
// result decoded it: json.RawMessage for valid JSON.
func failureFields(resp *http.Response, data []byte, value any) map[string]any {
	var body any
	raw, isJSON := value.(json.RawMessage)
	switch {
	case len(data) == 0:
		body = nil
	case len(data) > maxErrorData:
		n := maxErrorData
		for i := 0; i < utf8.UTFMax && !utf8.RuneStart(data[n]); i++ {
			n-- // do not split the last character
		}
		cut := data[:n]
		body = strings.ToValidUTF8(string(cut), "\uFFFD") + "..."
	case isJSON && json.Unmarshal(raw, &body) == nil:
	default:
		body = strings.ToValidUTF8(string(data), "\uFFFD")
	}
	text := strings.TrimSpace(strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)))
	if text == "" {
		text = http.StatusText(resp.StatusCode)
	}
	headers := map[string]any{}
	for name, values := range resp.Header {
		lower := strings.ToLower(name)
		if len(values) == 0 || credentialHeader(lower) {
			continue
		}
		headers[lower] = strings.Join(values, ", ")
	}
	return map[string]any{"status": resp.StatusCode, "statusText": text, "body": body, "headers": headers}
}

// credentialWords mark a response header that could carry a credential
// (Set-Cookie, WWW-Authenticate, X-Auth-Token, X-Api-Key, X-Session-Id,
// X-Amz-Security-Token...): the program never sees those.
var credentialWords = []string{"auth", "cookie", "token", "secret", "key", "session", "password", "credential", "signature", "csrf", "xsrf"}

func credentialHeader(lower string) bool {
	for _, w := range credentialWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}
