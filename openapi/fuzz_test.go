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
//
// Every seed declares a usable server: an operation without one is
// skipped before conversion ("spec declares no servers"), so a seed
// without a server would only ever exercise parsing. Seeds stay small,
// since the fuzzer mutates and minimizes them at a cost that grows with
// their size, and inputs past maxFuzzDocument are not loaded.
func FuzzLoad(f *testing.F) {
	for _, seed := range fuzzLoadSeeds() {
		f.Add([]byte(seed))
	}
	client := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		if r.Body != nil {
			io.Copy(io.Discard, r.Body)
		}
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"ok":true}`)), Request: r}, nil
	})}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzDocument {
			return
		}
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

// maxFuzzDocument bounds the inputs FuzzLoad loads: a bigger document
// only makes each execution slower (kin-openapi's loader and validator
// are linear but not fast), not more interesting.
const maxFuzzDocument = 32 << 10

// fuzzLoadSeeds are FuzzLoad's seeds: each becomes tools (checked by
// TestFuzzLoadSeedsMakeTools), except the ones meant to fail.
func fuzzLoadSeeds() []string {
	withServer := func(doc, version string) string {
		return strings.Replace(doc, `{"openapi":"`+version+`",`, `{"openapi":"`+version+`","servers":[{"url":"https://api.example/v1"}],`, 1)
	}
	seeds := []string{
		strings.Replace(stylesSpec, "%s", "https://styles.example", 1),
		withServer(directionalSpec("3.0.3"), "3.0.3"),
		withServer(directionalSpec("3.1.0"), "3.1.0"),
		single("post", `"requestBody":{"required":true,"content":{"application/json":{"schema":{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string"}}}}}}`,
			`"servers":[{"url":"https://single.example"}]`),
		single("get", `"parameters":[{"name":"q","in":"query","schema":{"type":"array","items":{"type":"integer"}}},{"name":"X-Id","in":"header","required":true,"schema":{"type":"string"}}],"security":[{"k":[]}]`,
			`"servers":[{"url":"https://{region}.example/{v}","variables":{"region":{"default":"eu","enum":["eu","us"]},"v":{"default":"v1"}}}]`,
			`"components":{"securitySchemes":{"k":{"type":"apiKey","in":"header","name":"X-Key"}}}`),
		"openapi: 3.1.0\nx: &a {b: *a}\n",
		"openapi: 3.0.0\nservers: [{url: 'https://a.example'}]\npaths:\n  /a/{b}:\n    get:\n      parameters: [{$ref: '#/paths/~1a~1{b}/get/parameters/0'}]\n  /ok:\n    get: {responses: {'200': {description: ok}}}\n",
		`{"openapi":"3.1.0","servers":[{"url":"https://a.example"}],"components":{"schemas":{"A":{"$ref":"#/components/schemas/A"}}},"paths":{"/":{"get":{"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/A"}}}}}}}}}`,
		`{"openapi":"3.1.0","servers":[{"url":"https://a.example"}],"components":{"schemas":{"T":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/components/schemas/T"}},"n":{"oneOf":[{"type":"string"},{"type":"null"}]}}}}},"paths":{"/t":{"put":{"operationId":"t","requestBody":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/T"}}}},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/T"}}}}}}}}}`,
	}
	if data, err := os.ReadFile(filepath.Join("..", "..", "shared", "data", "openapi", "petstore3.yaml")); err == nil && len(data) <= maxFuzzDocument {
		seeds = append(seeds, string(data))
	}
	return seeds
}

// TestFuzzLoadSeedsMakeTools keeps FuzzLoad's seeds meaningful: a seed
// whose operations are all skipped would fuzz the parser alone.
func TestFuzzLoadSeedsMakeTools(t *testing.T) {
	for i, seed := range fuzzLoadSeeds() {
		api, err := openapi.Load([]byte(seed), openapi.Options{})
		if strings.Contains(seed, "&a {b: *a}") {
			if err == nil {
				t.Errorf("seed %d: a self-referring YAML alias loaded", i)
			}
			continue
		}
		if err != nil {
			t.Errorf("seed %d: %v", i, err)
			continue
		}
		if len(api.Tools) == 0 {
			t.Errorf("seed %d makes no tools (skipped: %v)", i, api.Skipped)
		}
	}
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
