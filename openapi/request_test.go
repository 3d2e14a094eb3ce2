package openapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/go-codemode/codemode/openapi"
)

// stylesSpec declares one operation per serialization the tools support.
// Its server URL is filled in with the test server's.
const stylesSpec = `openapi: 3.1.0
info: {title: styles, version: "1"}
servers: [{url: "%s"}]
components:
  securitySchemes:
    query_key: {type: apiKey, in: query, name: api_key}
    header_key: {type: apiKey, in: header, name: X-API-Key}
    basic: {type: http, scheme: basic}
    bearer: {type: http, scheme: bearer}
paths:
  /items/{id}:
    get:
      operationId: simple
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {"200": {description: ok}}
  /simple/{keys}:
    get:
      operationId: simpleArray
      parameters: [{name: keys, in: path, required: true, schema: {type: array, items: {type: string}}}]
      responses: {"200": {description: ok}}
  /object/{point}:
    get:
      operationId: simpleObject
      parameters: [{name: point, in: path, required: true, explode: true, schema: {type: object, properties: {x: {type: integer}, y: {type: integer}}}}]
      responses: {"200": {description: ok}}
  /label/{ids}:
    get:
      operationId: label
      parameters: [{name: ids, in: path, required: true, style: label, schema: {type: array, items: {type: integer}}}]
      responses: {"200": {description: ok}}
  /labelx/{ids}:
    get:
      operationId: labelExploded
      parameters: [{name: ids, in: path, required: true, style: label, explode: true, schema: {type: array, items: {type: integer}}}]
      responses: {"200": {description: ok}}
  /matrix/{ids}:
    get:
      operationId: matrix
      parameters: [{name: ids, in: path, required: true, style: matrix, schema: {type: array, items: {type: integer}}}]
      responses: {"200": {description: ok}}
  /matrixx/{ids}:
    get:
      operationId: matrixExploded
      parameters: [{name: ids, in: path, required: true, style: matrix, explode: true, schema: {type: array, items: {type: integer}}}]
      responses: {"200": {description: ok}}
  /matrixs/{id}:
    get:
      operationId: matrixScalar
      parameters: [{name: id, in: path, required: true, style: matrix, schema: {type: integer}}]
      responses: {"200": {description: ok}}
  /query:
    get:
      operationId: query
      parameters:
        - {name: tags, in: query, schema: {type: array, items: {type: string}}}
        - {name: ids, in: query, explode: false, schema: {type: array, items: {type: integer}}}
        - {name: space, in: query, style: spaceDelimited, explode: false, schema: {type: array, items: {type: string}}}
        - {name: pipe, in: query, style: pipeDelimited, explode: false, schema: {type: array, items: {type: string}}}
        - {name: filter, in: query, style: deepObject, explode: true, schema: {type: object, properties: {q: {type: string}, n: {type: integer}}}}
        - {name: flag, in: query, schema: {type: boolean}}
        - {name: n, in: query, schema: {type: number}}
      responses: {"200": {description: ok}}
  /page:
    get:
      operationId: page
      parameters:
        - {name: page, in: query, schema: {type: object, properties: {size: {type: integer}, after: {type: string}}}}
        - {name: sort, in: query, explode: false, schema: {type: object, properties: {by: {type: string}, dir: {type: string}}}}
      responses: {"200": {description: ok}}
  /headers:
    get:
      operationId: headers
      parameters:
        - {name: X-Id, in: header, required: true, schema: {type: integer}}
        - {name: X-List, in: header, schema: {type: array, items: {type: string}}}
        - {name: X-Obj, in: header, explode: true, schema: {type: object, properties: {a: {type: integer}, b: {type: integer}}}}
        - {name: Accept, in: header, schema: {type: string}}
      responses: {"200": {description: ok, content: {application/json: {schema: {type: object}}}}}
  /cookies:
    get:
      operationId: cookies
      parameters:
        - {name: session, in: cookie, required: true, schema: {type: string}}
        - {name: ids, in: cookie, explode: false, schema: {type: array, items: {type: integer}}}
      responses: {"200": {description: ok}}
  /body/{id}:
    post:
      operationId: body
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
              required: [name]
              properties: {name: {type: string}, tags: {type: array, items: {type: string}}, id: {type: string}}
      responses: {"200": {description: ok}}
  /value:
    put:
      operationId: value
      requestBody:
        content: {application/merge-patch+json: {schema: {type: object}}}
      responses: {"204": {description: ok}}
  /form:
    post:
      operationId: form
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema: {type: object, properties: {name: {type: string}, tags: {type: array, items: {type: string}}}}
      responses: {"200": {description: ok}}
  /secure/query:
    get:
      operationId: secureQuery
      security: [{query_key: []}]
      parameters: [{name: q, in: query, schema: {type: string}}]
      responses: {"200": {description: ok}}
  /secure/header:
    get:
      operationId: secureHeader
      security: [{header_key: []}]
      responses: {"200": {description: ok}}
  /secure/basic:
    get:
      operationId: secureBasic
      security: [{basic: []}]
      responses: {"200": {description: ok}}
  /secure/either:
    get:
      operationId: secureEither
      security: [{bearer: []}, {basic: []}, {}]
      responses: {"200": {description: ok}}
`

// exchange is what the test server saw of a request.
type exchange struct {
	method, uri string
	header      http.Header
	body        string
	invalid     error // kin-openapi's verdict
}

// stylesServer serves the styles document, recording every request and
// checking it with kin-openapi's own request validator.
func stylesServer(t *testing.T) (*openapi.API, *[]exchange, *sync.Mutex) {
	t.Helper()
	var mu sync.Mutex
	var seen []exchange
	var router routers.Router
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		ex := exchange{method: r.Method, uri: r.RequestURI, header: r.Header.Clone(), body: string(data)}
		r.Body = io.NopCloser(bytes.NewReader(data))
		route, params, err := router.FindRoute(r)
		if err == nil {
			err = openapi3filter.ValidateRequest(r.Context(), &openapi3filter.RequestValidationInput{
				Request: r, PathParams: params, Route: route,
				Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true},
			})
		}
		ex.invalid = err
		mu.Lock()
		seen = append(seen, ex)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	}))
	t.Cleanup(srv.Close)
	spec := fmt.Sprintf(stylesSpec, srv.URL)
	doc, err := openapi3.NewLoader().LoadFromData([]byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	if router, err = gorillamux.NewRouter(doc); err != nil {
		t.Fatal(err)
	}
	api, err := openapi.Load([]byte(spec), openapi.Options{
		Headers: map[string]string{"X-Static": "static", "X-Id": "static"},
		Auth: openapi.Credentials(map[string]*openapi.Credential{
			"query_key":  openapi.APIKey("q-secret"),
			"header_key": openapi.APIKey("h-secret"),
			"basic":      openapi.Basic("ada", "pässword"),
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(api.Skipped) > 0 || len(api.Warnings) > 0 {
		t.Fatalf("skipped %v, warnings %q", api.Skipped, api.Warnings)
	}
	return api, &seen, &mu
}

func TestRequests(t *testing.T) {
	api, seen, mu := stylesServer(t)
	cases := []struct {
		tool, input string
		method, uri string
		header      map[string]string
		body        string
	}{
		{"simple", `{"id":"a b/c"}`, "GET", "/items/a%20b%2Fc", nil, ""},
		{"simple", `{"id":"ünï"}`, "GET", "/items/%C3%BCn%C3%AF", nil, ""},
		{"simpleArray", `{"keys":["a!","b*"]}`, "GET", "/simple/a%21,b%2A", nil, ""},
		{"simpleObject", `{"point":{"x":1,"y":2}}`, "GET", "/object/x=1,y=2", nil, ""},
		{"label", `{"ids":[1,2]}`, "GET", "/label/.1,2", nil, ""},
		{"labelExploded", `{"ids":[1,2]}`, "GET", "/labelx/.1.2", nil, ""},
		{"matrix", `{"ids":[1,2]}`, "GET", "/matrix/;ids=1,2", nil, ""},
		{"matrixExploded", `{"ids":[1,2]}`, "GET", "/matrixx/;ids=1;ids=2", nil, ""},
		{"matrixScalar", `{"id":5}`, "GET", "/matrixs/;id=5", nil, ""},
		{"query", `{"tags":["first value","second&value"],"ids":[1,2],"space":["a","b"],"pipe":["a","b"],"filter":{"q":"x y","n":2},"flag":true,"n":1e21}`,
			"GET", "/query?tags=first+value&tags=second%26value&ids=1%2C2&space=a+b&pipe=a%7Cb&filter%5Bq%5D=x+y&filter%5Bn%5D=2&flag=true&n=1e%2B21", nil, ""},
		{"query", `{"n":0.000001}`, "GET", "/query?n=0.000001", nil, ""},
		{"query", `{"n":1.5E-7}`, "GET", "/query?n=1.5e-7", nil, ""},
		{"query", `{"n":-0}`, "GET", "/query?n=0", nil, ""},
		{"page", `{"page":{"size":10,"after":"c/1"},"sort":{"by":"name","dir":"asc"}}`, "GET", "/page?size=10&after=c%2F1&sort=by%2Cname%2Cdir%2Casc", nil, ""},
		{"headers", `{"X-Id":7,"X-List":["a","b"],"X-Obj":{"a":1,"b":2}}`, "GET", "/headers",
			map[string]string{"X-Id": "7", "X-List": "a,b", "X-Obj": "a=1,b=2", "X-Static": "static", "Accept": "application/json"}, ""},
		{"cookies", `{"session":"abc","ids":[1,2]}`, "GET", "/cookies", map[string]string{"Cookie": `session=abc; ids="1,2"`}, ""},
		{"body", `{"path_id":3,"body_id":"x","tags":["a"],"name":"n","extra":1}`, "POST", "/body/3", map[string]string{"Content-Type": "application/json"}, `{"name":"n","tags":["a"],"id":"x"}`},
		{"value", `{"body":{"b":1,"a":[true,null,1.50]}}`, "PUT", "/value", map[string]string{"Content-Type": "application/merge-patch+json"}, `{"b":1,"a":[true,null,1.50]}`},
		{"value", `{}`, "PUT", "/value", map[string]string{"Content-Type": ""}, ""},
		{"form", `{"body":{"name":"a b","tags":["x","y"]}}`, "POST", "/form", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "name=a+b&tags=x&tags=y"},
		{"secureQuery", `{"q":"1","api_key":"model-supplied"}`, "GET", "/secure/query?q=1&api_key=q-secret", nil, ""},
		{"secureHeader", `{}`, "GET", "/secure/header", map[string]string{"X-Api-Key": "h-secret"}, ""},
		{"secureBasic", `{}`, "GET", "/secure/basic", map[string]string{"Authorization": "Basic YWRhOnDDpHNzd29yZA=="}, ""},
		{"secureEither", `{}`, "GET", "/secure/either", map[string]string{"Authorization": "Basic YWRhOnDDpHNzd29yZA=="}, ""},
	}
	for _, c := range cases {
		mu.Lock()
		*seen = (*seen)[:0]
		mu.Unlock()
		_, err := mustFind(t, api, c.tool).Func(context.Background(), json.RawMessage(c.input))
		if err != nil {
			t.Errorf("%s %s: %v", c.tool, c.input, err)
			continue
		}
		mu.Lock()
		got := (*seen)[0]
		mu.Unlock()
		if got.method != c.method || got.uri != c.uri || got.body != c.body {
			t.Errorf("%s %s:\n got %s %s %q\nwant %s %s %q", c.tool, c.input, got.method, got.uri, got.body, c.method, c.uri, c.body)
		}
		for k, v := range c.header {
			if h := got.header.Get(k); h != v {
				t.Errorf("%s: header %s = %q, want %q", c.tool, k, h, v)
			}
		}
		if got.invalid != nil {
			t.Errorf("%s %s: kin-openapi rejects %s: %v", c.tool, c.input, got.uri, got.invalid)
		}
	}
	// The validator does reject what does not match the document.
	for _, uri := range []string{"/label/1,2", "/matrix/ids=1,2", "/query?ids=1%2Cx"} {
		mu.Lock()
		*seen = (*seen)[:0]
		mu.Unlock()
		resp, err := http.Get(serverURL(t, api) + uri)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		mu.Lock()
		if (*seen)[0].invalid == nil {
			t.Errorf("kin-openapi accepts %s", uri)
		}
		mu.Unlock()
	}
}

// serverURL is the styles document's server.
func serverURL(t *testing.T, api *openapi.API) string {
	if api.Document == nil || len(api.Document.Servers) == 0 {
		t.Fatal("no document")
	}
	return api.Document.Servers[0].URL
}

func TestRequestErrors(t *testing.T) {
	api, seen, mu := stylesServer(t)
	cases := []struct{ tool, input, want string }{
		{"simple", `{}`, "Missing required path parameter 'id'."},
		{"simple", `{"id":""}`, "Invalid path parameter 'id'."},
		{"simple", `{"id":".."}`, "Invalid path parameter 'id'."},
		{"simple", `[1]`, "Missing required path parameter 'id'."},
		{"simpleArray", `{"keys":[{}]}`, "Parameter 'keys' contains an unsupported nested value."},
		{"headers", `{}`, "Missing required header parameter 'X-Id'."},
		{"headers", `{"X-Id":"a\r\nX-Evil: 1"}`, "Header parameter 'X-Id' contains a character HTTP headers cannot carry."},
		{"body", `{"path_id":1}`, "Missing required body field 'name'."},
		{"query", `{"filter":"x"}`, "Deep-object parameter 'filter' must be an object."},
		{"query", `{"filter":{"q":[]}}`, "Deep-object parameter 'filter' contains an unsupported nested value."},
		{"query", `{"tags":[["a"]]}`, "Parameter 'tags' contains an unsupported nested value."},
		{"page", `{"page":{"size":{}}}`, "Query parameter 'page' contains an unsupported nested value."},
		{"form", `{"body":[1]}`, "The form body for POST /form must be an object."},
		{"cookies", `{}`, "Missing required cookie parameter 'session'."},
	}
	for _, c := range cases {
		_, err := mustFind(t, api, c.tool).Func(context.Background(), json.RawMessage(c.input))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s %s: err = %v, want %q", c.tool, c.input, err, c.want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(*seen) != 0 {
		t.Errorf("%d requests reached the server", len(*seen))
	}
}

func TestAuthentication(t *testing.T) {
	var got http.Header
	var uri string
	srv := recorder(t, func(r *http.Request) { got, uri = r.Header.Clone(), r.RequestURI }, `{}`)
	spec := `{"openapi":"3.1.0","security":[{"bearer":[]},{"key":[],"second":[]}],"components":{"securitySchemes":{
		"bearer":{"type":"http","scheme":"bearer"},"key":{"type":"apiKey","in":"header","name":"X-Key"},
		"second":{"type":"apiKey","in":"header","name":"x-key"},"cookie":{"type":"apiKey","in":"cookie","name":"session"},
		"proto":{"type":"apiKey","in":"query","name":"__proto__"}}},
		"paths":{"/t":{"get":{"operationId":"t","responses":{"200":{"description":"ok"}}}},
		"/c":{"get":{"operationId":"c","security":[{"cookie":[]},{"bearer":[]}],"responses":{"200":{"description":"ok"}}}},
		"/p":{"get":{"operationId":"p","security":[{"proto":[]}],"responses":{"200":{"description":"ok"}}}}}}`
	call := func(name string, auth openapi.AuthResolver) error {
		got, uri = nil, ""
		api := load(t, spec, openapi.Options{BaseURL: srv.URL, Auth: auth, Headers: map[string]string{"Authorization": "static"}})
		_, err := mustFind(t, api, name).Func(context.Background(), nil)
		return err
	}
	if err := call("t", openapi.BearerToken("tok")); err != nil || got.Get("Authorization") != "Bearer tok" {
		t.Errorf("bearer: %v, Authorization %q", err, got.Get("Authorization"))
	}
	// With Headers set, the host has taken charge: no credential is no error.
	if err := call("t", nil); err != nil || got.Get("Authorization") != "static" {
		t.Errorf("no resolver, with Headers: %v, %v", err, got)
	}
	got = nil
	_, err := mustFind(t, load(t, spec, openapi.Options{BaseURL: srv.URL}), "t").Func(context.Background(), nil)
	if err == nil || err.Error() != "GET /t requires authentication; no credential available for: bearer, key." || got != nil {
		t.Errorf("no resolver: %v", err)
	}
	err = call("t", openapi.Credentials(map[string]*openapi.Credential{"key": openapi.APIKey("1"), "second": openapi.APIKey("2")}))
	if err == nil || err.Error() != "Authentication resolves multiple credentials for header 'x-key'." {
		t.Errorf("duplicate: %v", err)
	}
	err = call("t", openapi.Credentials(map[string]*openapi.Credential{"bearer": openapi.APIKey("1")}))
	if err == nil || err.Error() != "Security scheme 'bearer' is not an apiKey scheme and the document declares no single apiKey scheme to send the key as; give the apiKey credential a header Name, or resolve a bearer, basic, or header credential." {
		t.Errorf("apiKey for bearer: %v", err)
	}
	err = call("t", openapi.Credentials(map[string]*openapi.Credential{"bearer": openapi.Header("X-Custom", "v")}))
	if err != nil || got.Get("X-Custom") != "v" || got.Get("Authorization") != "static" {
		t.Errorf("header credential: %v, %v", err, got)
	}
	boom := errors.New("vault unreachable: token=hunter2")
	err = call("t", func(context.Context, openapi.AuthRequest) (*openapi.Credential, error) { return nil, boom })
	if err == nil || strings.Contains(err.Error(), "hunter2") || !errors.Is(err, boom) {
		t.Errorf("resolver error: %v", err)
	}
	if err := call("c", openapi.BearerToken("tok")); err != nil || got.Get("Authorization") != "Bearer tok" {
		t.Errorf("cookie alternative dropped: %v, %v", err, got)
	}
	if err := call("p", openapi.Credentials(map[string]*openapi.Credential{"proto": openapi.APIKey("secret")})); err != nil || uri != "/p?__proto__=secret" {
		t.Errorf("__proto__ query key: %v, %s", err, uri)
	}
}

func TestResponses(t *testing.T) {
	var status int
	var contentType, body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		} else {
			w.Header()["Content-Type"] = nil // no sniffing
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	defer srv.Close()
	api := load(t, single("get", ""), openapi.Options{BaseURL: srv.URL, MaxResponseBytes: 64})
	tl := mustFind(t, api, "test")
	long := strings.Repeat("é", 1030)
	cases := []struct {
		status      int
		ctype, body string
		want        any
		err         string
	}{
		{200, "application/json", `{"a":[1,2]}`, json.RawMessage(`{"a":[1,2]}`), ""},
		{200, "application/vnd.example+json; charset=utf-8", `[true]`, json.RawMessage(`[true]`), ""},
		{200, "application/json", ``, nil, ""},
		{200, "text/plain", `2 matches`, "2 matches", ""},
		{200, "", ``, nil, ""},
		{200, "", `{"sniffed":true}`, `{"sniffed":true}`, ""}, // no Content-Type: text, the output being undeclared
		{201, "application/json", `{`, nil, "GET /test returned malformed JSON."},
		{404, "application/json", `{"error": "not found"}`, nil, `GET /test failed with HTTP 404: {"error":"not found"}`},
		{500, "application/json", `"boom"`, nil, "GET /test failed with HTTP 500: boom"},
		{502, "text/html", ``, nil, "GET /test failed with HTTP 502: no response body"},
		{400, "application/json", `{bad`, nil, "GET /test failed with HTTP 400: {bad"},
		{200, "application/json", strings.Repeat("1", 65), nil, "GET /test response exceeds 64 bytes."},
	}
	for _, c := range cases {
		status, contentType, body = c.status, c.ctype, c.body
		got, err := tl.Func(context.Background(), nil)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%d %s %q: err = %v, want %q", c.status, c.ctype, c.body, err, c.err)
			}
			continue
		}
		if err != nil || fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%d %s %q: got %#v, %v; want %#v", c.status, c.ctype, c.body, got, err, c.want)
		}
	}
	// Without a Content-Type, a JSON-only operation's body is parsed.
	jsonOnly := load(t, single("get", `"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object"}}}}}`),
		openapi.Options{BaseURL: srv.URL})
	status, contentType, body = 200, "", `{"sniffed":true}`
	if got, err := mustFind(t, jsonOnly, "test").Func(context.Background(), nil); err != nil || fmt.Sprint(got) != fmt.Sprint(json.RawMessage(body)) {
		t.Errorf("sniffed: %#v, %v", got, err)
	}
	// The summary keeps 1024 characters.
	api = load(t, single("get", ""), openapi.Options{BaseURL: srv.URL})
	status, contentType, body = 500, "text/plain", long
	_, err := mustFind(t, api, "test").Func(context.Background(), nil)
	var e *openapi.Error
	if !errors.As(err, &e) || e.StatusCode != 500 || e.Body != strings.Repeat("é", 1024)+"..." {
		t.Errorf("long body: %v", err)
	}
	// 50 MiB, declared and streamed.
	status, contentType, body = 200, "application/json", strings.Repeat(" ", 50<<20+1)
	if _, err := mustFind(t, api, "test").Func(context.Background(), nil); err == nil || err.Error() != "GET /test response exceeds 50 MiB." {
		t.Errorf("50 MiB: %v", err)
	}
}

func TestContextAndTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	api := load(t, single("get", ""), openapi.Options{BaseURL: srv.URL, Timeout: 50 * time.Millisecond})
	start := time.Now()
	_, err := mustFind(t, api, "test").Func(context.Background(), nil)
	if err == nil || err.Error() != "GET /test timed out after 50ms." || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("timeout: %v", err)
	}
	api = load(t, single("get", ""), openapi.Options{BaseURL: srv.URL})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = mustFind(t, api, "test").Func(ctx, nil)
	if err == nil || err.Error() != "GET /test failed: transport error" || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cancelled: %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Error("calls did not end with their context")
	}
}

func TestDecorate(t *testing.T) {
	var got http.Header
	srv := recorder(t, func(r *http.Request) { got = r.Header.Clone() }, `{}`)
	api := load(t, single("get", ""), openapi.Options{BaseURL: srv.URL, Decorate: func(r *http.Request) error {
		r.Header.Set("X-Signature", r.Method+" "+r.URL.Path)
		return nil
	}})
	if _, err := mustFind(t, api, "test").Func(context.Background(), nil); err != nil || got.Get("X-Signature") != "GET /test" {
		t.Errorf("decorate: %v, %v", err, got)
	}
	boom := errors.New("no key")
	api = load(t, single("get", ""), openapi.Options{BaseURL: srv.URL, Decorate: func(*http.Request) error { return boom }})
	_, err := mustFind(t, api, "test").Func(context.Background(), nil)
	if err == nil || err.Error() != "GET /test failed: the request could not be prepared." || !errors.Is(err, boom) {
		t.Errorf("decorate error: %v", err)
	}
}

func TestLiteralQueryInPath(t *testing.T) {
	var uri string
	srv := recorder(t, func(r *http.Request) { uri = r.RequestURI }, `{}`)
	api := load(t, `{"openapi":"3.1.0","paths":{"/responses?beta=true":{"post":{"operationId":"create",
		"parameters":[{"name":"q","in":"query","schema":{"type":"string"}}],"responses":{"200":{"description":"ok"}}}}}}`,
		openapi.Options{BaseURL: srv.URL + "/v1/"})
	if _, err := mustFind(t, api, "create").Func(context.Background(), json.RawMessage(`{"q":"a&b"}`)); err != nil {
		t.Fatal(err)
	}
	if uri != "/v1/responses?beta=true&q=a%26b" {
		t.Errorf("URI = %s", uri)
	}
}

// TestHostTakesChargeOfAuth runs Petstore as deployed: addPet declares
// oauth2, the server wants its api_key header.
func TestHostTakesChargeOfAuth(t *testing.T) {
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("api_key") != "special-key" && r.Header.Get("Authorization") != "Bearer special-key" {
			w.WriteHeader(401)
			io.WriteString(w, `{"message":"bad api key"}`)
			return
		}
		io.WriteString(w, `{"id":1,"name":"Rex","photoUrls":[]}`)
	}))
	defer srv.Close()
	pet := json.RawMessage(`{"body":{"name":"Rex","photoUrls":[]}}`)
	cases := []struct {
		name   string
		opts   openapi.Options
		tool   string
		header string // the header that must carry the key
		err    string
	}{
		{"Headers", openapi.Options{Headers: map[string]string{"api_key": "special-key"}}, "addPet", "api_key", ""},
		{"Decorate", openapi.Options{Decorate: func(r *http.Request) error { r.Header.Set("api_key", "special-key"); return nil }}, "addPet", "api_key", ""},
		{"Headers with a resolver that has nothing", openapi.Options{
			Headers: map[string]string{"api_key": "special-key"},
			Auth:    openapi.Credentials(nil),
		}, "addPet", "api_key", ""},
		{"neither", openapi.Options{}, "addPet", "", "POST /pet requires authentication; no credential available for: petstore_auth."},
		{"apiKey for oauth2 goes to the only apiKey scheme", openapi.Options{
			Auth: openapi.Credentials(map[string]*openapi.Credential{"petstore_auth": openapi.APIKey("special-key")}),
		}, "addPet", "api_key", ""},
		{"apiKey for oauth2 in a named header", openapi.Options{
			Auth: openapi.Credentials(map[string]*openapi.Credential{"petstore_auth": {Type: openapi.APIKeyCredential, Name: "X-Key", Value: "k"}}),
		}, "addPet", "x-key", "POST /pet failed with HTTP 401: {\"message\":\"bad api key\"}"},
		{"bearer for apiKey", openapi.Options{
			Auth: openapi.Credentials(map[string]*openapi.Credential{"api_key": openapi.Bearer("special-key")}),
		}, "getInventory", "authorization", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got = nil
			c.opts.BaseURL, c.opts.SkipValidation = srv.URL, true
			api, err := openapi.LoadFile(sharedSpec(t, "petstore3.yaml"), c.opts)
			if err != nil {
				t.Fatal(err)
			}
			input := pet
			if c.tool != "addPet" {
				input = nil
			}
			_, err = mustFind(t, api, c.tool).Func(context.Background(), input)
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Errorf("err = %v, want %q", err, c.err)
				}
			} else if err != nil {
				t.Errorf("err = %v", err)
			}
			if c.header != "" && (got == nil || got.Get(c.header) == "") {
				t.Errorf("header %s missing: %v", c.header, got)
			}
		})
	}
}

func TestErrorFields(t *testing.T) {
	var status int
	var header http.Header
	var body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range header {
			w.Header()[k] = v
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	defer srv.Close()
	api := load(t, `{"openapi":"3.1.0","paths":{"/pets/{petId}":{"get":{"operationId":"getPet",
		"parameters":[{"name":"petId","in":"path","required":true,"schema":{"type":"integer"}}],
		"responses":{"200":{"description":"ok"}}}}}}`, openapi.Options{BaseURL: srv.URL})
	tl := mustFind(t, api, "getPet")
	big := "a" + strings.Repeat("é", 40<<10) // 80 KiB, the 64 KiB bound falling inside an é
	cases := []struct {
		name   string
		status int
		header http.Header
		body   string
		msg    string
		want   map[string]any
	}{
		{"JSON", 404, http.Header{
			"Content-Type":       {"application/json"},
			"Set-Cookie":         {"session=s3cret"},
			"Www-Authenticate":   {`Bearer realm="x"`},
			"X-Auth-Token":       {"t0ken"},
			"X-Api-Key":          {"k3y"},
			"X-Request-Id":       {"r1"},
			"X-Ratelimit-Remain": {"1", "2"},
		}, `{"code":404,"message":"Pet not found"}`,
			`GET /pets/{petId} failed with HTTP 404: {"code":404,"message":"Pet not found"}`,
			map[string]any{"status": 404, "statusText": "Not Found",
				"body":    map[string]any{"code": 404.0, "message": "Pet not found"},
				"headers": map[string]any{"content-type": "application/json", "x-request-id": "r1", "x-ratelimit-remain": "1, 2"}}},
		{"text", 503, http.Header{"Content-Type": {"text/plain"}, "Retry-After": {"5"}}, "down for maintenance",
			"GET /pets/{petId} failed with HTTP 503: down for maintenance",
			map[string]any{"status": 503, "statusText": "Service Unavailable", "body": "down for maintenance",
				"headers": map[string]any{"content-type": "text/plain", "retry-after": "5"}}},
		{"malformed JSON is text", 400, http.Header{"Content-Type": {"application/json"}}, `{bad`,
			"GET /pets/{petId} failed with HTTP 400: {bad",
			map[string]any{"status": 400, "statusText": "Bad Request", "body": "{bad",
				"headers": map[string]any{"content-type": "application/json"}}},
		{"empty", 500, http.Header{"Content-Type": {"application/json"}}, ``,
			"GET /pets/{petId} failed with HTTP 500: no response body",
			map[string]any{"status": 500, "statusText": "Internal Server Error", "body": nil,
				"headers": map[string]any{"content-type": "application/json"}}},
		{"bounded", 500, http.Header{"Content-Type": {"text/plain; charset=utf-8"}}, big,
			"GET /pets/{petId} failed with HTTP 500: a" + strings.Repeat("é", 1023) + "...",
			map[string]any{"status": 500, "statusText": "Internal Server Error", "body": "a" + strings.Repeat("é", 32<<10-1) + "...",
				"headers": map[string]any{"content-type": "text/plain; charset=utf-8"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, header, body = c.status, c.header, c.body
			_, err := tl.Func(context.Background(), json.RawMessage(`{"petId":7}`))
			var e *openapi.Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want an *openapi.Error", err)
			}
			if e.Error() != c.msg {
				t.Errorf("message %q, want %q", e.Error(), c.msg)
			}
			got := e.ErrorFields()
			delete(got["headers"].(map[string]any), "date")
			delete(got["headers"].(map[string]any), "content-length")
			if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", c.want) {
				t.Errorf("fields\n got %#v\nwant %#v", got, c.want)
			}
		})
	}
	// Failures that are not HTTP answers have no fields.
	status, header, body = 200, http.Header{"Content-Type": {"application/json"}}, `{`
	_, err := tl.Func(context.Background(), json.RawMessage(`{"petId":7}`))
	var e *openapi.Error
	if !errors.As(err, &e) || e.ErrorFields() != nil {
		t.Errorf("malformed 200: %v, %v", err, e)
	}
}
