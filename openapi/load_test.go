package openapi_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/catalog"
	"github.com/go-codemode/codemode/openapi"
	"github.com/go-codemode/codemode/tools"
)

// sharedSpec is the path of a document in the shared data folder beside
// the checkout; the test skips where the folder is absent.
func sharedSpec(t testing.TB, name string) string {
	t.Helper()
	path := filepath.Join("..", "..", "shared", "data", "openapi", name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("shared OpenAPI data not available (%v); it lives beside the checkout in CI", err)
	}
	return path
}

// checkTree builds the namespace into a tool tree (compiling every
// schema, as a runtime does) and renders every tool's signature.
func checkTree(t *testing.T, api *openapi.API, ns string) {
	t.Helper()
	tree, err := tools.New(map[string]any{ns: api.Namespace()})
	if err != nil {
		t.Fatalf("tools.New: %v", err)
	}
	if tree.Len() != len(api.Tools) {
		t.Errorf("tree has %d tools, API %d", tree.Len(), len(api.Tools))
	}
	for _, n := range tree.Tools() {
		sig := catalog.Signature(n.Segments, n.Tool.Input, n.Tool.Output)
		if !strings.HasPrefix(sig, tools.Expression(n.Segments)+"(") || strings.Contains(sig, "(unknown)") {
			t.Errorf("%s: signature %.200s", n.Path, sig)
		}
	}
}

func TestPetstoreSpec(t *testing.T) {
	start := time.Now()
	api, err := openapi.LoadFile(sharedSpec(t, "petstore3.yaml"), openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("petstore3.yaml: %d tools, %d skipped, %d warnings, loaded in %v", len(api.Tools), len(api.Skipped), len(api.Warnings), time.Since(start))
	want := []string{"updatePet", "addPet", "findPetsByStatus", "findPetsByTags", "getPetById", "updatePetWithForm", "deletePet",
		"getInventory", "placeOrder", "getOrderById", "deleteOrder", "createUser", "createUsersWithListInput", "loginUser",
		"logoutUser", "getUserByName", "updateUser", "deleteUser"}
	if got := names(api); !slices.Equal(got, want) {
		t.Errorf("tools = %q", got)
	}
	wantSkipped := []openapi.Skipped{{Method: "POST", Path: "/pet/{petId}/uploadImage", Reason: "request body has no JSON content (declared: application/octet-stream)"}}
	if !reflect.DeepEqual(api.Skipped, wantSkipped) {
		t.Errorf("skipped = %v", api.Skipped)
	}
	if len(api.Warnings) != 0 || api.Document == nil || api.Title != "Swagger Petstore - OpenAPI 3.0" || api.OpenAPI != "3.0.4" {
		t.Errorf("warnings %q, document %v, title %q, version %q", api.Warnings, api.Document != nil, api.Title, api.OpenAPI)
	}
	if d := api.Namespace().Description; !strings.HasPrefix(d, "This is a sample Pet Store Server") {
		t.Errorf("namespace description = %q", d)
	}
	pet := `{ id?: number; name: string; category?: { id?: number; name?: string }; photoUrls: Array<string>; tags?: Array<{ id?: number; name?: string }>; status?: "available" | "pending" | "sold" }`
	types := map[string][2]string{
		"addPet":            {"{ body: " + pet + " }", pet},
		"findPetsByStatus":  {`{ status?: "available" | "pending" | "sold" }`, "Array<" + pet + ">"},
		"getPetById":        {"{ petId: number }", pet},
		"updatePetWithForm": {"{ petId: number; name?: string; status?: string }", pet},
		"deletePet":         {"{ petId: number; api_key?: string }", "null"},
		"getInventory":      {"{}", "{ [key: string]: number }"},
		"loginUser":         {"{ username?: string; password?: string }", "string"},
	}
	for name, tt := range types {
		tl := mustFind(t, api, name)
		if got := inputTS(tl); got != tt[0] {
			t.Errorf("%s input = %s\n want %s", name, got, tt[0])
		}
		if got := outputTS(tl); got != tt[1] {
			t.Errorf("%s output = %s\n want %s", name, got, tt[1])
		}
	}
	if got := string(mustFind(t, api, "getPetById").Input); got != `{"type":"object","properties":{"petId":{"type":"integer","format":"int64","description":"ID of pet to return"}},"required":["petId"]}` {
		t.Errorf("getPetById input = %s", got)
	}
	if d := mustFind(t, api, "getPetById").Description; d != "Returns a single pet." {
		t.Errorf("description = %q", d)
	}
	checkTree(t, api, "petstore")
}

func TestOpenAISpec(t *testing.T) {
	path := sharedSpec(t, "openai.yaml")
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	api, err := openapi.LoadFile(path, openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	t.Logf("openai.yaml: %d tools, %d skipped, %d warnings, loaded in %v, %d MB allocated",
		len(api.Tools), len(api.Skipped), len(api.Warnings), elapsed, (after.TotalAlloc-before.TotalAlloc)>>20)
	if len(api.Tools) != 277 {
		t.Errorf("%d tools, want 277", len(api.Tools))
	}
	multipart := "request body has no JSON content (declared: multipart/form-data)"
	want := []openapi.Skipped{
		{Method: "POST", Path: "/audio/speech", Reason: "SSE operations are not supported"},
		{Method: "POST", Path: "/audio/transcriptions", Reason: multipart},
		{Method: "POST", Path: "/audio/translations", Reason: multipart},
		{Method: "POST", Path: "/audio/voice_consents", Reason: multipart},
		{Method: "POST", Path: "/audio/voices", Reason: multipart},
		{Method: "POST", Path: "/files", Reason: multipart},
		{Method: "POST", Path: "/images/variations", Reason: multipart},
		{Method: "POST", Path: "/realtime/calls", Reason: "binary responses are not supported"},
		{Method: "POST", Path: "/uploads/{upload_id}/parts", Reason: multipart},
		{Method: "POST", Path: "/content_provenance_checks", Reason: multipart},
		{Method: "POST", Path: "/videos/characters", Reason: multipart},
	}
	if !reflect.DeepEqual(api.Skipped, want) {
		t.Errorf("skipped:\n%v", api.Skipped)
	}
	// kin-openapi's validator finds many problems in this real document
	// ($recursiveRef siblings, boolean exclusiveMinimum, bad examples); it
	// converts all the same.
	if len(api.Warnings) < 100 || api.Document == nil {
		t.Errorf("%d warnings, document %v", len(api.Warnings), api.Document != nil)
	}
	for name, op := range map[string]string{
		"createChatCompletion": "POST /chat/completions",
		"listModels":           "GET /models",
		"retrieveModel":        "GET /models/{model}",
		"beta_createResponse":  "POST /responses?beta=true",
	} {
		tl := find(api, name)
		if tl == nil || tl.Operation.Method+" "+tl.Operation.Path != op {
			t.Errorf("%s: %+v", name, tl)
		}
	}
	if got := inputTS(mustFind(t, api, "retrieveModel")); got != "{ model: string }" {
		t.Errorf("retrieveModel input = %s", got)
	}
	// The 2019-09 $recursiveRef of CompoundFilter becomes a $ref to itself.
	in := string(mustFind(t, api, "createResponse").Input)
	if !strings.Contains(in, `{"$ref":"#/$defs/CompoundFilter"}`) || strings.Contains(in, "$recursive") {
		t.Error("CompoundFilter's $recursiveRef was not rewritten")
	}
	checkTree(t, api, "openai")
}

func TestLoadErrors(t *testing.T) {
	cases := []struct{ doc, want string }{
		{``, "openapi: the document is empty"},
		{"  \n", "openapi: the document is empty"},
		{`{"openapi": "3.1.0",}`, "openapi: ok"},
		{`{"openapi": `, "openapi: not valid JSON: unexpected end of input"},
		{`{"openapi": "3.1.0" "x"}`, "openapi: not valid JSON: invalid character '\"' after object key:value pair (offset 20)"},
		{"openapi: 3.1.0\npaths: [\n", "openapi: not valid YAML: line 2: did not find expected node content"},
		{`[1, 2]`, "openapi: the document is not an object"},
		{`"openapi"`, "openapi: the document is not an object"},
		{`{"swagger": "2.0"}`, "openapi: Swagger 2.0 documents are not supported; convert the document to OpenAPI 3 first"},
		{`{"info": {}}`, `openapi: the document has no "openapi" version field; is it an OpenAPI 3 description?`},
		{`openapi: 3.1`, `openapi: the "openapi" field is 3.1, not a version string such as "3.1.0"`},
		{`{"openapi": "2.0"}`, `openapi: OpenAPI "2.0" is not supported; want 3.0 or 3.1`},
		{"a: &a [*a]", "openapi: not valid YAML: line 1: a YAML alias refers to itself"},
		{strings.Repeat("[", 2000) + strings.Repeat("]", 2000), "openapi: not valid JSON: nested deeper than 1000 levels (offset 1001)"},
	}
	for _, c := range cases {
		_, err := openapi.Load([]byte(c.doc), openapi.Options{})
		if c.want == "openapi: ok" { // YAML accepts a trailing comma
			if err != nil {
				t.Errorf("%q: %v", c.doc, err)
			}
			continue
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("%.40q: err = %v\n want %s", c.doc, err, c.want)
		}
	}
	if _, err := openapi.LoadFile("no/such/file.yaml", openapi.Options{}); err == nil || !strings.HasPrefix(err.Error(), "openapi: open no/such/file.yaml") {
		t.Errorf("LoadFile: %v", err)
	}
	if _, err := openapi.Load([]byte(`{"openapi":"3.1.0"}`), openapi.Options{Headers: map[string]string{"X-A": "a\nb"}}); err == nil {
		t.Error("a header value with a newline was accepted")
	}
	if _, err := openapi.FromDocument(nil, openapi.Options{}); err == nil {
		t.Error("FromDocument(nil) succeeded")
	}
}

func TestAliasBomb(t *testing.T) {
	doc := "openapi: 3.1.0\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for i := range 8 {
		name := string(rune('b' + i))
		doc += name + ": &" + name + " [" + strings.Repeat("*"+prev+", ", 9) + "*" + prev + "]\n"
		prev = name
	}
	_, err := openapi.Load([]byte(doc), openapi.Options{})
	if err == nil || !strings.Contains(err.Error(), "YAML aliases expand to more than") {
		t.Errorf("err = %v", err)
	}
}

func TestYAMLAndJSONAgree(t *testing.T) {
	yamlDoc := `openapi: 3.1.0
info: {title: t, version: "1"}
x-common: &common
  responses:
    200:
      description: ok
      content: {application/json: {schema: {type: integer, maximum: 0x10, default: 1_000}}}
paths:
  /a:
    get:
      <<: *common
      operationId: a
      parameters: [{name: when, in: query, schema: {type: string, default: 2024-01-02}}]
`
	jsonDoc := `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{
		"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"integer","maximum":16,"default":1000}}}}},
		"operationId":"a","parameters":[{"name":"when","in":"query","schema":{"type":"string","default":"2024-01-02"}}]}}}}`
	a, b := load(t, yamlDoc, openapi.Options{BaseURL: base}), load(t, jsonDoc, openapi.Options{BaseURL: base})
	ta, tb := mustFind(t, a, "a"), mustFind(t, b, "a")
	if string(ta.Input) != string(tb.Input) || string(ta.Output) != string(tb.Output) {
		t.Errorf("YAML gives %s => %s\nJSON gives %s => %s", ta.Input, ta.Output, tb.Input, tb.Output)
	}
}

func TestFromDocument(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData([]byte(directionalSpec("3.1.0")))
	if err != nil {
		t.Fatal(err)
	}
	api, err := openapi.FromDocument(doc, openapi.Options{BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	if api.Document != doc || len(api.Tools) != 1 {
		t.Fatalf("document %p, tools %q", api.Document, names(api))
	}
	// kin-openapi keeps properties in maps: they come back sorted.
	if got, want := inputTS(api.Tools[0].Tool), "{ name: string; password: string; profile: { label: string; secret: string } }"; got != want {
		t.Errorf("input = %s, want %s", got, want)
	}
}

func TestWarnings(t *testing.T) {
	api, err := openapi.Load([]byte(`{"openapi":"3.1.0","info":{"title":"t"},"paths":{"/a":{"get":{"operationId":"a",
		"parameters":[{"name":"n","in":"query","schema":{"$ref":"#/components/schemas/Missing"}}],"responses":{"200":{"description":"ok"}}}}}}`),
		openapi.Options{BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	if len(api.Warnings) == 0 || api.Document != nil {
		t.Errorf("warnings %q, document %v", api.Warnings, api.Document)
	}
	if !slices.Equal(reasons(api), []string{"input schema references the missing schema '#/components/schemas/Missing'"}) {
		t.Errorf("skipped %v", api.Skipped)
	}
}

func TestNamespace(t *testing.T) {
	api := load(t, `{"openapi":"3.1.0","info":{"title":"Users API"},"paths":{
		"/u":{"get":{"operationId":"users.list","summary":"List users","responses":{"200":{"description":"ok"}}}},
		"/u/{id}":{"get":{"operationId":"users.get","summary":"Get a user","description":"Get a user by id","responses":{"200":{"description":"ok"}}}},
		"/v":{"get":{"operationId":"version","responses":{"200":{"description":"ok"}}}}}}`, openapi.Options{BaseURL: base})
	ns := api.Namespace()
	if ns.Description != "Users API" {
		t.Errorf("description = %q", ns.Description)
	}
	users, _ := ns.Tools["users"].(map[string]any)
	list, _ := users["list"].(*tools.Tool)
	get, _ := users["get"].(*tools.Tool)
	version, _ := ns.Tools["version"].(*tools.Tool)
	if list == nil || get == nil || version == nil {
		t.Fatalf("tools = %v", ns.Tools)
	}
	if list.Description != "List users" || get.Description != "Get a user by id" || version.Description != "GET /v" {
		t.Errorf("descriptions %q %q %q", list.Description, get.Description, version.Description)
	}
	if d := load(t, `{"openapi":"3.1.0","paths":{}}`, openapi.Options{Description: "mine"}).Namespace().Description; d != "mine" {
		t.Errorf("Options.Description: %q", d)
	}
	raw, _ := json.Marshal(api.Skipped)
	if string(raw) != "null" {
		t.Errorf("skipped = %s", raw)
	}
}

// peakRSS is the process's peak resident set in MB, where Linux says.
func peakRSS() float64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(rest), "%f", &kb)
			return kb / 1024
		}
	}
	return 0
}

// cpuTime is the process's user and system CPU time so far (0 where
// getrusage is not available).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLoadOpenAI measures loading the 3 MB OpenAI description (see
// benchLoad); the target is 1 s of CPU with validation.
func BenchmarkLoadOpenAI(b *testing.B) {
	benchLoad(b, sharedSpec(b, "openai.yaml"))
}

// BenchmarkNewOpenAI measures codemode.New over the OpenAI tools: the
// compilation of every tool's input and output schema.
func BenchmarkNewOpenAI(b *testing.B) {
	benchNew(b, sharedSpec(b, "openai.yaml"))
}

// BenchmarkLoadBox measures loading Box's description (testdata/box.json,
// 260 operations; see testdata/README.md).
func BenchmarkLoadBox(b *testing.B) {
	benchLoad(b, filepath.Join("testdata", "box.json"))
}

// BenchmarkNewBox measures codemode.New over the Box tools; the target
// is 1 s of CPU.
func BenchmarkNewBox(b *testing.B) {
	benchNew(b, filepath.Join("testdata", "box.json"))
}

// benchLoad measures Load with and without validation: CPU time per load
// (user and system, all cores: the process's, so run the benchmark
// alone) and peak RSS.
func benchLoad(b *testing.B, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	for _, skip := range []bool{false, true} {
		name := "validated"
		if skip {
			name = "unvalidated"
		}
		b.Run(name, func(b *testing.B) {
			measure(b, func() {
				if _, err := openapi.Load(data, openapi.Options{SkipValidation: skip}); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// benchNew measures codemode.New over a loaded document's namespace, as
// benchLoad measures Load.
func benchNew(b *testing.B, path string) {
	api, err := openapi.LoadFile(path, openapi.Options{SkipValidation: true})
	if err != nil {
		b.Fatal(err)
	}
	tools := map[string]any{"api": api.Namespace()}
	measure(b, func() {
		if _, err := codemode.New(codemode.Options{Tools: tools}); err != nil {
			b.Fatal(err)
		}
	})
}

// measure runs f in a benchmark loop and reports its CPU time per run
// and the process's peak RSS.
func measure(b *testing.B, f func()) {
	b.ReportAllocs()
	start, n := cpuTime(), 0
	for b.Loop() {
		f()
		n++
	}
	if cpu := cpuTime() - start; cpu > 0 {
		b.ReportMetric(float64(cpu.Milliseconds())/float64(n), "cpu-ms/op")
	}
	if mb := peakRSS(); mb > 0 {
		b.ReportMetric(mb, "peak-RSS-MB")
	}
}

func TestSchemaBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.1.0","components":{"parameters":{"big":{"name":"big","in":"query","schema":{"enum":[`)
	for i := range 4000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"value-number-%d"`, i)
	}
	b.WriteString(`]}}}},"paths":{`)
	for i := range 2000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/p%d":{"get":{"parameters":[{"$ref":"#/components/parameters/big"}],"responses":{"204":{"description":"ok"}}}}`, i)
	}
	b.WriteString("}}")
	start := time.Now()
	_, err := openapi.Load([]byte(b.String()), openapi.Options{BaseURL: base, SkipValidation: true})
	if err == nil || !strings.Contains(err.Error(), "the tools' schemas would take more than") {
		t.Errorf("err = %v", err)
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
}
