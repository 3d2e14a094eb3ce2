package openapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-codemode/codemode/catalog"
	"github.com/go-codemode/codemode/openapi"
	"github.com/go-codemode/codemode/tools"
)

// These tests follow the reference's own (openapi.test.ts at 1066927):
// the same documents, the same expected names, types and messages.

const base = "http://localhost:4096"

func load(t testing.TB, spec string, opts openapi.Options) *openapi.API {
	t.Helper()
	opts.SkipValidation = true
	api, err := openapi.Load([]byte(spec), opts)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return api
}

func find(api *openapi.API, name string) *openapi.Tool {
	for i := range api.Tools {
		if api.Tools[i].Name == name {
			return &api.Tools[i]
		}
	}
	return nil
}

func mustFind(t testing.TB, api *openapi.API, name string) *tools.Tool {
	t.Helper()
	tl := find(api, name)
	if tl == nil {
		t.Fatalf("no tool %q; have %v", name, names(api))
	}
	return tl.Tool
}

func names(api *openapi.API) []string {
	var out []string
	for _, t := range api.Tools {
		out = append(out, t.Name)
	}
	return out
}

func reasons(api *openapi.API) []string {
	var out []string
	for _, s := range api.Skipped {
		out = append(out, s.Reason)
	}
	return out
}

// inputTS and outputTS render schemas as the reference's inputTypeScript
// and outputTypeScript do (catalog.Compact is byte-compatible).
func inputTS(t *tools.Tool) string  { return catalog.Compact(t.Input, catalog.Options{}) }
func outputTS(t *tools.Tool) string { return catalog.Compact(t.Output, catalog.Options{}) }

// single is the reference's singleOperation: GET (or another method)
// /test with operationId "test" and a 200 without content, plus extra
// operation keys as JSON members.
func single(method, extra string, topLevel ...string) string {
	if extra != "" {
		extra = "," + extra
	}
	top := ""
	if len(topLevel) > 0 {
		top = "," + strings.Join(topLevel, ",")
	}
	return fmt.Sprintf(`{"openapi":"3.1.0","paths":{"/test":{%q:{"operationId":"test","responses":{"200":{"description":"Success"}}%s}}}%s}`, method, extra, top)
}

func TestNamingCollisions(t *testing.T) {
	api := load(t, `{"openapi":"3.1.0","paths":{
		"/first":{"get":{"operationId":"group.item","responses":{"200":{"description":"Success"}}}},
		"/second":{"get":{"operationId":"group.item","responses":{"200":{"description":"Success"}}}},
		"/third":{"get":{"operationId":"group..other","responses":{"200":{"description":"Success"}}}}}}`,
		openapi.Options{BaseURL: base})
	if got, want := names(api), []string{"group.item", "group_item_2", "group.operation.other"}; !slices.Equal(got, want) {
		t.Errorf("names = %q, want %q", got, want)
	}
}

func TestSkippedOperationsReserveNoNames(t *testing.T) {
	for _, unsupported := range []bool{false, true} {
		middle := ""
		if unsupported {
			middle = `"/unsupported":{"get":{"operationId":"group.item","x-websocket":true,"responses":{"200":{"description":"Success"}}}},`
		}
		api := load(t, `{"openapi":"3.1.0","paths":{
			"/first":{"get":{"operationId":"group.item","responses":{"200":{"description":"Success"}}}},`+middle+`
			"/last":{"get":{"operationId":"group.item","responses":{"200":{"description":"Success"}}}}}}`,
			openapi.Options{BaseURL: base})
		if got, want := names(api), []string{"group.item", "group_item_2"}; !slices.Equal(got, want) {
			t.Errorf("unsupported=%v: names = %q, want %q", unsupported, got, want)
		}
		if d := mustFind(t, api, "group_item_2").Description; d != "GET /last" {
			t.Errorf("description = %q", d)
		}
		var want []openapi.Skipped
		if unsupported {
			want = []openapi.Skipped{{Method: "GET", Path: "/unsupported", Reason: "WebSocket operations are not supported"}}
		}
		if !reflect.DeepEqual(api.Skipped, want) {
			t.Errorf("skipped = %v, want %v", api.Skipped, want)
		}
	}
}

func TestFallbackNames(t *testing.T) {
	api := load(t, `openapi: 3.1.0
paths:
  /users: {get: {responses: {"200": {description: ok}}}, post: {responses: {"200": {description: ok}}}}
  /users/{id}:
    get: {responses: {"200": {description: ok}}}
    patch: {responses: {"200": {description: ok}}}
    delete: {responses: {"200": {description: ok}}}
  /organizations/{organizationId}/users/{id}: {get: {responses: {"200": {description: ok}}}}
  /responses?beta=true: {post: {responses: {"200": {description: ok}}}}
`, openapi.Options{BaseURL: base})
	want := []string{"getUsers", "postUsers", "getUsersById", "patchUsersById", "deleteUsersById",
		"getOrganizationsByOrganizationidUsersById", "postResponsesBetaTrue"}
	if got := names(api); !slices.Equal(got, want) {
		t.Errorf("names = %q, want %q", got, want)
	}
}

func TestNameSanitizing(t *testing.T) {
	api := load(t, `openapi: 3.1.0
paths:
  /a: {get: {operationId: "list-issues", responses: {"200": {description: ok}}}}
  /b: {get: {operationId: "2fa.enable", responses: {"200": {description: ok}}}}
  /c: {get: {operationId: "__x__.$y", responses: {"200": {description: ok}}}}
  /d: {get: {operationId: "users", responses: {"200": {description: ok}}}}
  /e: {get: {operationId: "users.get", responses: {"200": {description: ok}}}}
  /f: {get: {operationId: "users.get", responses: {"200": {description: ok}}}}
`, openapi.Options{BaseURL: base})
	// users.get clashes with the tool "users": the segments merge
	// (usersGet). The second users.get finds usersGet taken too, and
	// falls back to the joined segments and a counter.
	want := []string{"list_issues", "_2fa.enable", "x.$y", "users", "usersGet", "users_get_2"}
	if got := names(api); !slices.Equal(got, want) {
		t.Errorf("names = %q, want %q", got, want)
	}
}

func TestParameterOverride(t *testing.T) {
	api := load(t, `{"openapi":"3.1.0","paths":{"/test":{
		"parameters":[{"name":"limit","in":"query","schema":{"type":"string"}}],
		"get":{"operationId":"test","parameters":[
			{"name":"limit","in":"query","schema":{"type":"boolean"}},
			{"name":"limit","in":"query","required":true,"schema":{"type":"number"}}],
			"responses":{"200":{"description":"Success"}}}}}}`, openapi.Options{BaseURL: base})
	if got := inputTS(mustFind(t, api, "test")); got != "{ limit: number }" {
		t.Errorf("input = %s", got)
	}
}

func TestOpenAPI30Nullable(t *testing.T) {
	api := load(t, `{"openapi":"3.0.3","paths":{"/search":{"get":{"operationId":"search",
		"parameters":[{"in":"query","name":"value","schema":{"type":"string","nullable":true,"minLength":2}}],
		"responses":{"200":{"description":"Success"}}}}}}`, openapi.Options{BaseURL: base})
	tl := mustFind(t, api, "search")
	if got := inputTS(tl); got != "{ value?: string | null }" {
		t.Errorf("input = %s", got)
	}
	if !strings.Contains(string(tl.Input), `"minLength":2`) || strings.Contains(string(tl.Input), "nullable") {
		t.Errorf("input schema = %s", tl.Input)
	}
}

func TestOpenAPI30Keywords(t *testing.T) {
	api := load(t, `openapi: 3.0.3
paths:
  /t:
    post:
      operationId: t
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Thing"}
      responses: {"200": {description: ok}}
components:
  schemas:
    Thing:
      type: object
      discriminator: {propertyName: kind}
      x-internal: true
      example: {n: 1}
      properties:
        n: {type: integer, minimum: 0, exclusiveMinimum: true, example: 3}
        ref: {allOf: [{$ref: "#/components/schemas/Other"}], nullable: true}
    Other: {type: string, xml: {name: o}}
`, openapi.Options{BaseURL: base})
	got := string(mustFind(t, api, "t").Input)
	want := `{"type":"object","properties":{"body":{"$ref":"#/$defs/Thing"}},"required":["body"],"$defs":{` +
		`"Thing":{"type":"object","examples":[{"n":1}],"properties":{"n":{"type":"integer","exclusiveMinimum":0,"examples":[3]},` +
		`"ref":{"anyOf":[{"allOf":[{"$ref":"#/$defs/Other"}]},{"type":"null"}]}}},"Other":{"type":"string"}}}`
	if got != want {
		t.Errorf("input\n got %s\nwant %s", got, want)
	}
}

func TestLocalDefinitions(t *testing.T) {
	api := load(t, `{"openapi":"3.1.0","paths":{"/test":{"get":{"operationId":"test","responses":{"200":{"description":"Success",
		"content":{"application/json":{"schema":{"$ref":"#/$defs/Local","$defs":{"Local":{"type":"string"}}}}}}}}}},
		"components":{"schemas":{"Global":{"type":"number"},"Unused":{"type":"boolean"}}}}`, openapi.Options{BaseURL: base})
	got := string(mustFind(t, api, "test").Output)
	// The reference adds every component; we add those the schema reaches.
	if want := `{"$ref":"#/$defs/Local","$defs":{"Local":{"type":"string"}}}`; got != want {
		t.Errorf("output = %s, want %s", got, want)
	}
}

func directionalSpec(version string) string {
	return `{"openapi":"` + version + `","paths":{"/users":{"post":{"operationId":"users.create",
		"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/User"}}}},
		"responses":{"200":{"description":"Created","content":{"application/json":{"schema":{"$ref":"#/components/schemas/User"}}}}}}}},
	"components":{"schemas":{
		"ReadOnlyID":{"type":"string","readOnly":true},
		"User":{"type":"object","additionalProperties":false,"required":["id","name","password","profile","generated"],
			"properties":{"id":{"type":"string","readOnly":true},"name":{"type":"string"},"password":{"type":"string","writeOnly":true},
				"profile":{"type":"object","additionalProperties":false,"required":["createdAt","secret","label"],
					"properties":{"createdAt":{"type":"string","readOnly":true},"secret":{"type":"string","writeOnly":true},"label":{"type":"string"}}},
				"generated":{"$ref":"#/components/schemas/ReadOnlyID"}}}}}}`
}

func TestDirectionalProjection(t *testing.T) {
	for _, version := range []string{"3.0.3", "3.1.0"} {
		tl := mustFind(t, load(t, directionalSpec(version), openapi.Options{BaseURL: base}), "users.create")
		if got, want := inputTS(tl), "{ name: string; password: string; profile: { secret: string; label: string } }"; got != want {
			t.Errorf("%s input = %s, want %s", version, got, want)
		}
		if got, want := outputTS(tl), "{ id: string; name: string; profile: { createdAt: string; label: string }; generated: string }"; got != want {
			t.Errorf("%s output = %s, want %s", version, got, want)
		}
		var in struct{ Required []string }
		var out struct {
			Defs map[string]struct {
				Required []string
			} `json:"$defs"`
		}
		json.Unmarshal(tl.Input, &in)
		json.Unmarshal(tl.Output, &out)
		if got := in.Required; !slices.Equal(got, []string{"name", "password", "profile"}) {
			t.Errorf("%s input required = %q", version, got)
		}
		if got := out.Defs["User"].Required; !slices.Equal(got, []string{"id", "name", "profile", "generated"}) {
			t.Errorf("%s response User.required = %q", version, got)
		}
	}
}

func TestDirectionalProjectionThroughRefsAndCycles(t *testing.T) {
	body := func(schema string) string {
		return `"requestBody":{"required":true,"content":{"application/json":{"schema":` + schema + `}}}`
	}
	cases := []struct{ name, spec, want string }{
		{"local refs and allOf", single("post", body(`{"type":"object","additionalProperties":false,"required":["local","composed","name"],
			"properties":{"local":{"$ref":"#/$defs/ReadOnlyValue"},"composed":{"allOf":[{"$ref":"#/$defs/ReadOnlyValue"}]},"name":{"type":"string"}},
			"$defs":{"ReadOnlyValue":{"type":"string","readOnly":true}}}`)), "{ name: string }"},
		{"intermediate hop", single("post", body(`{"type":"object","additionalProperties":false,"required":["secret","name"],
			"properties":{"secret":{"$ref":"#/components/schemas/Middle"},"name":{"type":"string"}}}`),
			`"components":{"schemas":{"Middle":{"$ref":"#/components/schemas/Plain","readOnly":true},"Plain":{"type":"string"}}}`), "{ name: string }"},
		{"cycle, Loop first", single("post", body(`{"type":"object","additionalProperties":false,"required":["a","b","name"],
			"properties":{"a":{"$ref":"#/components/schemas/Loop"},"b":{"$ref":"#/components/schemas/Wrap"},"name":{"type":"string"}}}`),
			`"components":{"schemas":{"Wrap":{"allOf":[{"$ref":"#/components/schemas/Loop"}]},"Loop":{"allOf":[{"$ref":"#/components/schemas/Wrap"},{"readOnly":true}]}}}`), "{ name: string }"},
		{"cycle, Wrap first", single("post", body(`{"type":"object","additionalProperties":false,"required":["a","b","name"],
			"properties":{"a":{"$ref":"#/components/schemas/Wrap"},"b":{"$ref":"#/components/schemas/Loop"},"name":{"type":"string"}}}`),
			`"components":{"schemas":{"Wrap":{"allOf":[{"$ref":"#/components/schemas/Loop"}]},"Loop":{"allOf":[{"$ref":"#/components/schemas/Wrap"},{"readOnly":true}]}}}`), "{ name: string }"},
		{"parameter schema", single("get", `"parameters":[{"name":"filter","in":"query","required":true,"schema":{"type":"object",
			"required":["state","id"],"properties":{"state":{"type":"string"},"id":{"type":"string","readOnly":true}}}}]`), "{ filter: { state: string } }"},
	}
	for _, c := range cases {
		if got := inputTS(mustFind(t, load(t, c.spec, openapi.Options{BaseURL: base}), "test")); got != c.want {
			t.Errorf("%s: input = %s, want %s", c.name, got, c.want)
		}
	}
}

func TestDirectionalProjectionDetails(t *testing.T) {
	body := func(schema string) string {
		return `"requestBody":{"required":true,"content":{"application/json":{"schema":` + schema + `}}}`
	}
	// $ref siblings, a cyclic component, not/if untouched, anyOf/oneOf not
	// hiding, allOf required cleaned.
	api := load(t, single("post", body(`{"type":"object","additionalProperties":false,"required":["record","node","n","choice"],
		"properties":{
			"record":{"$ref":"#/components/schemas/Base","properties":{"extra":{"type":"string","readOnly":true},"note":{"type":"string"}},"required":["extra","note","id"]},
			"node":{"$ref":"#/components/schemas/Node"},
			"n":{"type":"object","not":{"required":["secret"],"properties":{"secret":{"type":"string","readOnly":true}}}},
			"choice":{"anyOf":[{"type":"string","readOnly":true},{"type":"number"}]},
			"merged":{"type":"object","required":["id","name"],"allOf":[{"type":"object","required":["id","name"],"properties":{"id":{"type":"string","readOnly":true},"name":{"type":"string"}}}]}}}`),
		`"components":{"schemas":{
			"Base":{"type":"object","required":["id","name"],"properties":{"id":{"type":"string","readOnly":true},"name":{"type":"string"}}},
			"Node":{"type":"object","required":["id","name","child"],"properties":{"id":{"type":"string","readOnly":true},"name":{"type":"string"},"child":{"$ref":"#/components/schemas/Node"}}}}}`),
		openapi.Options{BaseURL: base})
	var in struct {
		Properties map[string]json.RawMessage
		Defs       map[string]json.RawMessage `json:"$defs"`
	}
	json.Unmarshal(mustFind(t, api, "test").Input, &in)
	checks := [][2]string{
		{string(in.Properties["record"]), `{"$ref":"#/$defs/Base","properties":{"note":{"type":"string"}},"required":["note"]}`},
		{string(in.Defs["Base"]), `{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}}`},
		{string(in.Defs["Node"]), `{"type":"object","required":["name","child"],"properties":{"name":{"type":"string"},"child":{"$ref":"#/$defs/Node"}}}`},
		{string(in.Properties["n"]), `{"type":"object","not":{"required":["secret"],"properties":{"secret":{"type":"string","readOnly":true}}}}`},
		{string(in.Properties["choice"]), `{"anyOf":[{"type":"string","readOnly":true},{"type":"number"}]}`},
		{string(in.Properties["merged"]), `{"type":"object","required":["name"],"allOf":[{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}}]}`},
	}
	for _, c := range checks {
		if c[0] != c[1] {
			t.Errorf("got  %s\nwant %s", c[0], c[1])
		}
	}
}

func TestDiamondProjectionIsLinear(t *testing.T) {
	const depth = 30
	var b strings.Builder
	for i := range depth {
		if i > 0 {
			b.WriteString(",")
		}
		if i == depth-1 {
			fmt.Fprintf(&b, `"C%d":{"type":"object","properties":{"id":{"type":"string","readOnly":true},"name":{"type":"string"}}}`, i)
		} else {
			fmt.Fprintf(&b, `"C%d":{"allOf":[{"$ref":"#/components/schemas/C%d"},{"$ref":"#/components/schemas/C%d"}]}`, i, i+1, i+1)
		}
	}
	api := load(t, single("post", `"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/C0"}}}}`,
		`"components":{"schemas":{`+b.String()+`}}`), openapi.Options{BaseURL: base})
	var in struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	json.Unmarshal(mustFind(t, api, "test").Input, &in)
	if got, want := string(in.Defs["C29"]), `{"type":"object","properties":{"name":{"type":"string"}}}`; got != want {
		t.Errorf("C29 = %s", got)
	}
}

func TestBodyShapes(t *testing.T) {
	api := load(t, `{"openapi":"3.1.0","paths":{
	"/echo":{"post":{"operationId":"echo","requestBody":{"required":true,"content":{"application/json":{"schema":{"type":"string"}}}},"responses":{"204":{"description":"Echoed"}}}},
	"/things/{id}":{"post":{"operationId":"things.update","parameters":[
		{"name":"id","in":"path","required":true,"schema":{"type":"string"}},
		{"name":"id","in":"query","required":true,"schema":{"type":"string"}},
		{"name":"path_id","in":"query","schema":{"type":"string"}},
		{"name":"id","in":"header","required":true,"schema":{"type":"string"}}],
		"requestBody":{"required":true,"content":{"application/json":{"schema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}}}},
		"responses":{"204":{"description":"Updated"}}}},
	"/body/optional":{"post":{"operationId":"body.optional","requestBody":{"content":{"application/json":{"schema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}}}},"responses":{"204":{"description":"ok"}}}},
	"/body/dictionary":{"post":{"operationId":"body.dictionary","requestBody":{"required":true,"content":{"application/json":{"schema":{"type":"object","additionalProperties":{"type":"string"}}}}},"responses":{"204":{"description":"ok"}}}},
	"/body/composed":{"post":{"operationId":"body.composed","requestBody":{"required":true,"content":{"application/json":{"schema":{"type":"object","allOf":[{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}],"additionalProperties":false}}}},"responses":{"204":{"description":"ok"}}}},
	"/body/nullable":{"post":{"operationId":"body.nullable","requestBody":{"required":true,"content":{"application/json":{"schema":{"type":["object","null"],"properties":{"name":{"type":"string"}},"additionalProperties":false}}}},"responses":{"204":{"description":"ok"}}}}}}`,
		openapi.Options{BaseURL: base})
	want := map[string]string{
		"things.update":   "{ path_id: string; query_id: string; path_id_2?: string; header_id: string; body_id: string }",
		"echo":            "{ body: string }",
		"body.optional":   "{ body?: { name: string } }",
		"body.dictionary": "{ body: { [key: string]: string } }",
	}
	for name, ts := range want {
		if got := inputTS(mustFind(t, api, name)); got != ts {
			t.Errorf("%s input = %s, want %s", name, got, ts)
		}
	}
	for _, name := range []string{"body.composed", "body.nullable"} {
		var in struct{ Properties map[string]any }
		json.Unmarshal(mustFind(t, api, name).Input, &in)
		if len(in.Properties) != 1 || in.Properties["body"] == nil {
			t.Errorf("%s input = %s", name, mustFind(t, api, name).Input)
		}
	}
	if got := outputTS(mustFind(t, api, "echo")); got != "null" {
		t.Errorf("echo output = %s", got)
	}
}

func TestSkipReasons(t *testing.T) {
	cases := []struct{ spec, want string }{
		{single("get", `"parameters":[{"name":"q","in":"query","allowReserved":true,"schema":{"type":"string"}}]`), "parameter 'q' uses unsupported allowReserved encoding"},
		{single("get", `"parameters":[{"name":"q","in":"query","style":42,"schema":{"type":"string"}}]`), "parameter 'q' has an invalid style"},
		{single("get", `"parameters":[{"name":"q","in":"query","explode":"yes","schema":{"type":"string"}}]`), "parameter 'q' has an invalid explode value"},
		{single("get", `"parameters":[{"name":"q","in":"query","allowReserved":1,"schema":{"type":"string"}}]`), "parameter 'q' has an invalid allowReserved value"},
		{single("get", `"parameters":[{"name":"q","in":"query","style":"matrix","schema":{"type":"string"}}]`), "query parameter 'q' uses unsupported style 'matrix'"},
		{single("get", `"parameters":[{"name":"h","in":"header","style":"form","schema":{"type":"string"}}]`), "header parameter 'h' uses unsupported style 'form'"},
		{single("get", `"parameters":[{"name":"q","in":"query","style":"deepObject","explode":false,"schema":{"type":"object"}}]`), "query parameter 'q' uses deepObject with explode=false"},
		{single("get", `"parameters":[{"name":"q","in":"query","content":{"application/json":{}}}]`), "parameter 'q' uses unsupported content encoding"},
		{single("get", `"parameters":[{"name":"q","in":"query"}]`), "parameter 'q' declares neither schema nor content"},
		{single("get", `"parameters":[{"name":"q","in":"body","schema":{}}]`), "parameter 'q' uses unsupported location 'body'"},
		{single("get", `"parameters":[{"in":"query","schema":{}}]`), "parameter declaration is missing name or location"},
		{single("get", `"parameters":[{"$ref":"#/components/parameters/Nope"}]`), "parameter declaration is missing name or location"},
		{single("get", `"parameters":[7]`), "parameter declaration is invalid or unresolved"},
		{single("get", `"security":null`), "security declaration is not an array"},
		{single("get", `"security":[7]`), "security requirement is not an object"},
		{single("get", `"security":[{"a":"x"}]`), "security requirement scopes are not string arrays"},
		{single("get", `"security":[{"__proto__":[]}]`), "security requirement references missing or malformed scheme: __proto__"},
		{single("get", `"security":[{"key":[]}]`, `"components":{"securitySchemes":{"key":{"type":"apiKey","in":"cookie","name":"session"}}}`), "cookie authentication 'key' is not supported"},
		{single("get", `"x-websocket":true`), "WebSocket operations are not supported"},
		{single("get", `"responses":{"200":{"$ref":"#/components/responses/First"}}`,
			`"components":{"responses":{"First":{"$ref":"#/components/responses/Stream"},"Stream":{"content":{"text/event-stream":{"schema":{"type":"string"}}}}}}`), "SSE operations are not supported"},
		{single("get", `"responses":{"200":{"content":{"text/plain":{"schema":{"$ref":"#/components/schemas/File"}}}}}`,
			`"components":{"schemas":{"File":{"type":"string","format":"binary"}}}`), "binary responses are not supported"},
		{single("get", `"responses":{"200":{"content":{"application/octet-stream":{}}}}`), "binary responses are not supported"},
		{single("get", `"responses":{"200":{"$ref":"#/components/responses/Missing"}}`), "successful response declaration is invalid or unresolved"},
		{single("put", `"requestBody":{"content":{"application/octet-stream":{}}}`), "request body has no JSON content (declared: application/octet-stream)"},
		{single("put", `"requestBody":{"content":{}}`), "request body has no JSON content (declared: none)"},
		{single("put", `"requestBody":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Missing"}}}}`), "input schema references the missing schema '#/components/schemas/Missing'"},
		{single("get", `"parameters":[{"name":"q","in":"query","schema":{"type":"string","pattern":"(?<=a"}}]`), "input schema: not a valid JSON Schema: at '/properties/q/pattern'"},
	}
	for _, c := range cases {
		api := load(t, c.spec, openapi.Options{BaseURL: base})
		if len(api.Tools) != 0 || len(api.Skipped) != 1 || !strings.HasPrefix(api.Skipped[0].Reason, c.want) {
			t.Errorf("%s\n  tools %q, skipped %v; want reason %q", c.spec, names(api), api.Skipped, c.want)
		}
	}
}

func TestServers(t *testing.T) {
	spec := `{"openapi":"3.1.0","servers":[{"url":"https://document.example"}],"paths":{
		"/op":{"get":{"operationId":"op","servers":[{"url":"https://operation.example/v1/"}],"responses":{"200":{"description":"ok"}}}},
		"/item":{"servers":[{"url":"https://item.example"}],"get":{"operationId":"item","responses":{"200":{"description":"ok"}}}},
		"/doc":{"get":{"operationId":"doc","responses":{"200":{"description":"ok"}}}}}}`
	got := map[string]string{}
	var current string
	client := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		got[current] = r.URL.String()
		return &http.Response{StatusCode: 204, Body: http.NoBody, Header: http.Header{}}, nil
	})}
	api := load(t, spec, openapi.Options{Client: client})
	for _, tl := range api.Tools {
		current = tl.Name
		if _, err := tl.Tool.Func(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{"op": "https://operation.example/v1/op", "item": "https://item.example/item", "doc": "https://document.example/doc"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("URLs = %v, want %v", got, want)
	}
	for _, c := range []struct{ servers, reason string }{
		{`[]`, "spec declares no servers; pass baseUrl"},
		{`[{"url":"/api/v3"}]`, "server URL '/api/v3' is not an absolute HTTP(S) URL"},
		{`[{"url":"https:/example.com"}]`, "server URL 'https:/example.com' is not an absolute HTTP(S) URL"},
		{`[{"url":"https://example.com/api?tenant=one"}]`, "server URL 'https://example.com/api?tenant=one' contains an unsupported query string or fragment"},
		{`[{"url":"https://{region}.example.com"}]`, "server URL 'https://{region}.example.com' is not an absolute URL; pass baseUrl"},
	} {
		api := load(t, `{"openapi":"3.1.0","servers":`+c.servers+`,"paths":{"/t":{"get":{"responses":{"200":{"description":"ok"}}}}}}`, openapi.Options{})
		if !slices.Equal(reasons(api), []string{c.reason}) {
			t.Errorf("servers %s: skipped %q, want %q", c.servers, reasons(api), c.reason)
		}
	}
	for _, bad := range []string{"https://example.com/api?tenant=one", "https:/example.com", "ftp://example.com"} {
		if _, err := openapi.Load([]byte(spec), openapi.Options{BaseURL: bad}); err == nil {
			t.Errorf("BaseURL %q: no error", bad)
		}
	}
}

func TestServerVariables(t *testing.T) {
	spec := `{"openapi":"3.1.0","servers":[{"url":"https://{region}.example.com/{version}","variables":{
		"region":{"default":"eu","enum":["eu","us"]},"version":{"default":"v2"}}}],
		"paths":{"/t":{"get":{"operationId":"t","responses":{"200":{"description":"ok"}}}}}}`
	for _, c := range []struct {
		vars map[string]string
		want string
	}{
		{nil, "https://eu.example.com/v2/t"},
		{map[string]string{"region": "us"}, "https://us.example.com/v2/t"},
	} {
		var got string
		client := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
			got = r.URL.String()
			return &http.Response{StatusCode: 204, Body: http.NoBody, Header: http.Header{}}, nil
		})}
		api := load(t, spec, openapi.Options{ServerVariables: c.vars, Client: client})
		if _, err := mustFind(t, api, "t").Func(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("vars %v: URL %s, want %s", c.vars, got, c.want)
		}
	}
}

func TestOutputs(t *testing.T) {
	api := load(t, `{"openapi":"3.1.0","paths":{
		"/text":{"get":{"operationId":"text","responses":{"200":{"description":"t","content":{"text/plain":{"schema":{"type":"string"}}}},"204":{"description":"e"}}}},
		"/none":{"get":{"operationId":"none","responses":{"default":{"description":"d"}}}},
		"/noschema":{"get":{"operationId":"noschema","responses":{"200":{"description":"d","content":{"application/json":{}}}}}},
		"/ranged":{"get":{"operationId":"ranged","responses":{"2XX":{"description":"d","content":{"application/json":{"schema":{"type":"integer"}}}},"201":{"description":"d","content":{"application/problem+json":{"schema":{"type":"boolean"}}}}}}},
		"/negotiated":{"get":{"operationId":"negotiated","responses":{"200":{"description":"d","content":{"application/xml":{},"application/json":{"schema":{"type":"integer"}},"text/event-stream":{}}}}}}}}`,
		openapi.Options{BaseURL: base})
	want := map[string]string{"text": "string | null", "ranged": "boolean | number", "negotiated": "number"}
	for name, ts := range want {
		if got := outputTS(mustFind(t, api, name)); got != ts {
			t.Errorf("%s output = %s, want %s", name, got, ts)
		}
	}
	for _, name := range []string{"none", "noschema"} {
		if out := mustFind(t, api, name).Output; out != nil {
			t.Errorf("%s output = %s, want none", name, out)
		}
	}
}

// recorder is a server that records each request and answers body as
// JSON.
func recorder(t testing.TB, record func(*http.Request), body string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		record(r)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestAuthResolverContext(t *testing.T) {
	var mu sync.Mutex
	var seen []openapi.AuthRequest
	var header string
	srv := recorder(t, func(r *http.Request) { header = r.Header.Get("Authorization") }, `{"ok":true}`)
	api := load(t, `{"openapi":"3.1.0","security":[{"bearer":[]}],"components":{"securitySchemes":{"bearer":{"type":"http","scheme":"bearer"}}},
		"paths":{"/test":{"get":{"responses":{"200":{"description":"Success"}}}}}}`,
		openapi.Options{BaseURL: srv.URL, Auth: func(_ context.Context, req openapi.AuthRequest) (*openapi.Credential, error) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, req)
			return openapi.Bearer("secret"), nil
		}})
	tl := mustFind(t, api, "getTest")
	if got := inputTS(tl); got != "{}" {
		t.Errorf("input = %s", got)
	}
	if _, err := tl.Func(context.Background(), json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	if header != "Bearer secret" {
		t.Errorf("Authorization = %q", header)
	}
	want := []openapi.AuthRequest{{Name: "bearer", Scheme: openapi.SecurityScheme{Type: "http", Scheme: "bearer"}, Scopes: []string{},
		Operation: openapi.Operation{Method: "GET", Path: "/test"}}}
	if !reflect.DeepEqual(seen, want) {
		t.Errorf("resolver saw %+v, want %+v", seen, want)
	}
}

func TestErrorsNameNoURL(t *testing.T) {
	api := load(t, single("get", "", `"security":[{"k":[]}]`, `"components":{"securitySchemes":{"k":{"type":"apiKey","in":"query","name":"api_key"}}}`),
		openapi.Options{BaseURL: "http://127.0.0.1:1", Auth: openapi.Credentials(map[string]*openapi.Credential{"k": openapi.APIKey("sekrit")})})
	_, err := mustFind(t, api, "test").Func(context.Background(), nil)
	var e *openapi.Error
	if !errors.As(err, &e) || err.Error() != "GET /test failed: transport error" || errors.Unwrap(err) == nil {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(fmt.Sprint(err), "sekrit") || strings.Contains(fmt.Sprintf("%v", openapi.APIKey("sekrit")), "sekrit") ||
		strings.Contains(fmt.Sprintf("%#v", *openapi.Bearer("sekrit")), "sekrit") {
		t.Error("a credential leaked into an error or a print")
	}
}

// TestSchemaCheckPaths: with validation (inputs and outputs compiled as
// one schema) and without (two), an operation whose schema does not
// compile is skipped and the others stay.
func TestSchemaCheckPaths(t *testing.T) {
	spec := `{"openapi":"3.1.0","servers":[{"url":"https://example.com"}],
	"components":{"schemas":{"Pet":{"type":"object","properties":{"name":{"type":"string"}}},
		"Bad":{"type":"string","pattern":"(?<=a"}}},
	"paths":{
	"/good":{"post":{"operationId":"good","requestBody":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}},
		"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}}}}},
	"/badOut":{"get":{"operationId":"badOut","responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Bad"}}}}}}},
	"/badIn":{"get":{"operationId":"badIn","parameters":[{"name":"q","in":"query","schema":{"$ref":"#/components/schemas/Bad"}}],
		"responses":{"200":{"description":"ok"}}}}}}`
	for _, skip := range []bool{false, true} {
		api, err := openapi.Load([]byte(spec), openapi.Options{SkipValidation: skip})
		if err != nil {
			t.Fatal(err)
		}
		ok := len(api.Tools) == 1 && api.Tools[0].Name == "good" && len(api.Skipped) == 2 &&
			api.Skipped[0].Path == "/badOut" && strings.HasPrefix(api.Skipped[0].Reason, "output schema: not a valid JSON Schema") &&
			api.Skipped[1].Path == "/badIn" && strings.HasPrefix(api.Skipped[1].Reason, "input schema: not a valid JSON Schema")
		if !ok {
			t.Errorf("SkipValidation %v: tools %v, skipped %v; want good, and badOut and badIn skipped for their schemas", skip, names(api), api.Skipped)
		}
	}
}
