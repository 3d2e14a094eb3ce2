package openapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-codemode/codemode/openapi"
)

// FuzzLoad feeds arbitrary bytes to Load: it must return a document or an
// error, never panic or hang, and every tool it makes must have JSON
// schemas and build a request (sent to a transport that answers without
// the network) without panicking.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(stylesSpec))
	f.Add([]byte(directionalSpec("3.0.3")))
	f.Add([]byte(single("post", `"requestBody":{"required":true,"content":{"application/json":{"schema":{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string"}}}}}}`)))
	f.Add([]byte("openapi: 3.1.0\nx: &a {b: *a}\n"))
	f.Add([]byte("openapi: 3.0.0\npaths:\n  /a/{b}:\n    get:\n      parameters: [{$ref: '#/paths/~1a~1{b}/get/parameters/0'}]\n"))
	f.Add([]byte(`{"openapi":"3.1.0","components":{"schemas":{"A":{"$ref":"#/components/schemas/A"}}},"paths":{"/":{"get":{"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/A"}}}}}}}}}`))
	if data, err := os.ReadFile(filepath.Join("..", "..", "shared", "data", "openapi", "petstore3.yaml")); err == nil {
		f.Add(data)
	}
	client := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		if r.Body != nil {
			io.Copy(io.Discard, r.Body)
		}
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"ok":true}`)), Request: r}, nil
	})}
	f.Fuzz(func(t *testing.T, data []byte) {
		api, err := openapi.Load(data, openapi.Options{Client: client, Auth: openapi.BearerToken("t")})
		if err != nil {
			if api != nil {
				t.Fatal("an API and an error")
			}
			return
		}
		api.Namespace()
		for i, tl := range api.Tools {
			if !json.Valid(tl.Tool.Input) || (tl.Tool.Output != nil && !json.Valid(tl.Tool.Output)) {
				t.Fatalf("%s: schemas %s => %s", tl.Name, tl.Tool.Input, tl.Tool.Output)
			}
			if i < 8 {
				tl.Tool.Func(context.Background(), json.RawMessage(`{"id":"1","body":{"a":[1,{"b":null}]},"q":["x"],"filter":{"a":"b"}}`))
			}
		}
	})
}

// FuzzCall feeds arbitrary inputs to every tool of the styles document:
// a call returns a value or an error, never panics.
func FuzzCall(f *testing.F) {
	f.Add(`{"id":"a b","keys":["a",1,true,null],"point":{"x":1},"ids":[1,2]}`)
	f.Add(`{"tags":["x"],"filter":{"q":"x","n":2},"page":{"size":1},"sort":{"by":"a"},"space":["a b"],"pipe":["|"]}`)
	f.Add(`{"X-Id":1e400,"X-List":[{}],"session":"é;\"","path_id":"..","name":"n","body":{"a":[1]}}`)
	f.Add(`[]`)
	client := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{}`)), Request: r}, nil
	})}
	api, err := openapi.Load([]byte(strings.Replace(stylesSpec, "%s", "https://styles.example", 1)),
		openapi.Options{Client: client, Auth: openapi.BearerToken("t"), SkipValidation: true})
	if err != nil || len(api.Tools) == 0 {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, input string) {
		for _, tl := range api.Tools {
			tl.Tool.Func(context.Background(), json.RawMessage(input))
		}
	})
}
