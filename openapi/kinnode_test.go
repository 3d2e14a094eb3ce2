package openapi

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// kinFromJSON decodes the document as kinLoad does without kinDecode.
func kinFromJSON(data []byte, root *object) (*openapi3.T, error) {
	if !looksLikeJSON(data) {
		data = appendJSON(nil, root)
	}
	doc := &openapi3.T{}
	return doc, json.Unmarshal(data, doc)
}

// sameAsJSON checks that where kinDecode decodes a document, encoding/json
// decodes it too, to the same value, with the same warnings once
// resolved and validated (validate). It reports whether kinDecode took
// the document.
func sameAsJSON(t testing.TB, data []byte, validate bool) bool {
	t.Helper()
	parsed, err := parseDocument(data)
	if err != nil || asObject(parsed) == nil {
		return false
	}
	root := asObject(parsed)
	fromNodes, ok := kinDecode(root)
	if !ok {
		return false
	}
	fromJSON, err := kinFromJSON(data, root)
	if err != nil {
		t.Fatalf("kinDecode took a document encoding/json refuses (%v):\n%.2000s", err, data)
	}
	if !reflect.DeepEqual(fromJSON, fromNodes) {
		t.Fatalf("kinDecode and encoding/json disagree:\n%.2000s", data)
	}
	a, errA := marshalKin(fromJSON)
	b, errB := marshalKin(fromNodes)
	if !bytes.Equal(a, b) || (errA == nil) != (errB == nil) {
		t.Fatalf("kinDecode and encoding/json marshal differently:\n%.2000s\n%.2000s", a, b)
	}
	if validate {
		wa, wb := resolveAndValidate(fromJSON), resolveAndValidate(fromNodes)
		if !slices.Equal(wa, wb) {
			t.Fatalf("warnings differ:\n%q\n%q", wa, wb)
		}
	}
	return true
}

func resolveAndValidate(doc *openapi3.T) (warnings []string) {
	defer func() {
		if r := recover(); r != nil {
			warnings = []string{"panic"}
		}
	}()
	loader := openapi3.NewLoader()
	if err := loader.ResolveRefsIn(doc, nil); err != nil {
		return []string{"resolve: " + err.Error()}
	}
	return kinValidate(doc, loader)
}

// kinCases are documents where kin-openapi's YAML decoder is more lenient
// than encoding/json, or matches keys otherwise (taken: false), and
// documents it reads alike (taken: true).
var kinCases = []struct {
	name  string
	doc   string
	taken bool
}{
	{"minimal", `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{}}`, true},
	{"yaml", "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses: {'200': {description: ok}}\n", true},
	{"number as string", `{"openapi":"3.1.0","info":{"title":"t","version":1}}`, false},
	{"boolean as string", `{"openapi":"3.1.0","info":{"title":true,"version":"1"}}`, false},
	{"string as boolean", `{"openapi":"3.1.0","paths":{"/a":{"get":{"deprecated":"true"}}}}`, false},
	{"key in another case", `{"openapi":"3.1.0","info":{"Title":"t","version":"1"}}`, false},
	{"folded key", `{"openapi":"3.1.0","info":{"title":"t","ver\u017fion":"1"}}`, false},
	{"kelvin key", `{"openapi":"3.1.0","components":{"schemas":{"a":{"\u212aeyword":1,"ma\u212a":1}}}}`, true},
	{"ref in another case", `{"openapi":"3.1.0","components":{"parameters":{"p":{"$REF":"#/x"}}}}`, false},
	{"ref summary null", "components: {parameters: {p: {$ref: '#/x', summary: }}}", false},
	{"schema ref description null", `{"openapi":"3.1.0","components":{"schemas":{"a":{},"b":{"$ref":"#/components/schemas/a","description":null}}}}`, false},
	{"ref summary not a string", `{"openapi":"3.1.0","components":{"parameters":{"p":{"$ref":"#/x","summary":5}}}}`, false},
	{"ref siblings", `{"openapi":"3.1.0","components":{"schemas":{"a":{"type":"string"},"b":{"$ref":"#/components/schemas/a","description":"d","x-y":1,"maxLength":3}}}}`, true},
	{"integral float as integer", `{"openapi":"3.1.0","components":{"schemas":{"a":{"minLength":1.0}}}}`, false},
	{"negative integer", `{"openapi":"3.1.0","components":{"schemas":{"a":{"maxItems":-1}}}}`, false},
	{"exponent integer", `{"openapi":"3.1.0","components":{"schemas":{"a":{"maxItems":1e2}}}}`, false},
	{"huge number", `{"openapi":"3.1.0","components":{"schemas":{"a":{"maximum":1e400}}}}`, false},
	{"numbers", `{"openapi":"3.1.0","components":{"schemas":{"a":{"maximum":2.0,"minimum":-0,"multipleOf":0.5,"enum":[1,-0,1.5e300,9223372036854775808,-9.2e18,"x",null,true],"default":-0.0,"maxLength":9223372036854775807}}}}`, true},
	{"any values", `{"openapi":"3.1.0","components":{"schemas":{"a":{"example":{"Title":5,"$REF":[1,null]},"default":null,"const":{"a":true},"examples":[1,"2",{"3":[]}],"x-n":[1.5,{"b":null}]}}}}`, true},
	{"type list", `{"openapi":"3.1.0","components":{"schemas":{"a":{"type":["string","null"]},"b":{"type":"integer"}}}}`, true},
	{"type number", `{"openapi":"3.1.0","components":{"schemas":{"a":{"type":5}}}}`, false},
	{"type list number", `{"openapi":"3.1.0","components":{"schemas":{"a":{"type":["string",5]}}}}`, false},
	{"required numbers", `{"openapi":"3.1.0","components":{"schemas":{"a":{"required":["a",1]}}}}`, false},
	{"required null", `{"openapi":"3.1.0","components":{"schemas":{"a":{"required":["a",null]}}}}`, false},
	{"boolean schemas", `{"openapi":"3.1.0","components":{"schemas":{"a":true,"b":{"items":false,"additionalProperties":false,"unevaluatedProperties":{"type":"string"},"not":true,"properties":{"c":false}}}}}`, true},
	{"exclusive bounds 3.0", `{"openapi":"3.0.3","components":{"schemas":{"a":{"minimum":1,"exclusiveMinimum":true,"maximum":2,"exclusiveMaximum":false}}}}`, true},
	{"exclusive bounds 3.1", `{"openapi":"3.1.0","components":{"schemas":{"a":{"exclusiveMinimum":1,"exclusiveMaximum":2.5}}}}`, true},
	{"exclusive bound string", `{"openapi":"3.1.0","components":{"schemas":{"a":{"exclusiveMinimum":"1"}}}}`, false},
	{"scopes numbers", `{"openapi":"3.1.0","security":[{"a":[1]}]}`, false},
	{"scopes", `{"openapi":"3.1.0","security":[{"a":["read"]},{}],"components":{"securitySchemes":{"a":{"type":"oauth2","flows":{"implicit":{"authorizationUrl":"https://x","scopes":{"read":"r"}}}}}}}`, true},
	{"scope description number", `{"openapi":"3.1.0","components":{"securitySchemes":{"a":{"type":"oauth2","flows":{"implicit":{"authorizationUrl":"https://x","scopes":{"read":1}}}}}}}`, false},
	{"server variable default number", `{"openapi":"3.1.0","servers":[{"url":"https://{v}","variables":{"v":{"default":5}}}]}`, false},
	{"nulls", `{"openapi":"3.1.0","info":{"title":null,"version":"1"},"paths":{"/a":{"get":null,"x-a":null}},"components":{"schemas":{"a":null}}}`, true},
	{"tags null", `{"openapi":"3.1.0","paths":{"/a":{"get":{"tags":["a",null]}}}}`, false},
	{"duplicate key", `{"openapi":"3.1.0","info":{"title":1,"title":"t","version":"1"}}`, false},
	{"paths", `{"openapi":"3.1.0","paths":{"/a/{id}":{"x-p":1,"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"string"}}],"post":{"operationId":"o","requestBody":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/a"},"examples":{"e":{"value":{"a":1},"summary":"s"}}}}},"responses":{"default":{"description":"d","headers":{"h":{"schema":{"type":"integer"}}}},"x-r":true},"callbacks":{"c":{"{$request.body#/u}":{"post":{"responses":{"200":{"description":"ok"}}}}}}}}},"webhooks":{"w":{"post":{}}},"components":{"schemas":{"a":{"type":"object"}}}}`, true},
	{"responses number", `{"openapi":"3.1.0","paths":{"/a":{"get":{"responses":{"200":5}}}}}`, false},
	{"paths array", `{"openapi":"3.1.0","paths":[]}`, false},
	{"info string", `{"openapi":"3.1.0","info":"x"}`, false},
}

func TestKinDecodeMatchesJSON(t *testing.T) {
	for _, c := range kinCases {
		t.Run(c.name, func(t *testing.T) {
			if taken := sameAsJSON(t, []byte(c.doc), true); taken != c.taken {
				t.Errorf("kinDecode took the document: %v, want %v", taken, c.taken)
			}
		})
	}
}

// TestKinDecodeRealDocuments decodes real documents both ways.
func TestKinDecodeRealDocuments(t *testing.T) {
	paths := []string{filepath.Join("testdata", "box.json")}
	for _, name := range []string{"openai.yaml", "petstore3.yaml"} {
		p := filepath.Join("..", "..", "shared", "data", "openapi", name)
		if _, err := os.Stat(p); err == nil {
			paths = append(paths, p)
		}
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !sameAsJSON(t, data, !testing.Short()) {
			t.Errorf("%s: kinDecode did not take it", p)
		}
	}
}

// FuzzKinDecode checks that kinDecode never decodes a document otherwise
// than encoding/json.
func FuzzKinDecode(f *testing.F) {
	for _, c := range kinCases {
		f.Add([]byte(c.doc))
	}
	if data, err := os.ReadFile(filepath.Join("..", "..", "shared", "data", "openapi", "petstore3.yaml")); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 32<<10 {
			return
		}
		sameAsJSON(t, data, true)
	})
}

// TestKinDecodeMutations puts values of every kind, and keys in another
// case, at random places of real documents, and checks that kinDecode
// decodes each result as encoding/json does (or leaves it to it).
func TestKinDecodeMutations(t *testing.T) {
	var bases [][]byte
	for _, c := range kinCases {
		if c.taken {
			bases = append(bases, []byte(c.doc))
		}
	}
	if data, err := os.ReadFile(filepath.Join("..", "..", "shared", "data", "openapi", "petstore3.yaml")); err == nil {
		bases = append(bases, data)
	}
	values := []string{`"x"`, `"5"`, `"true"`, `5`, `-1`, `1.5`, `1.0`, `1e2`, `-0`, `true`, `null`, `[]`, `["a",1]`, `[null]`, `{}`,
		`{"a":1}`, `{"$ref":"#/components/schemas/Pet"}`, `{"$ref":"#/x","summary":null}`, `{"type":"string"}`}
	rounds := 3000
	if testing.Short() {
		rounds = 300
	}
	rng := rand.New(rand.NewPCG(1, 2))
	taken := 0
	for i := range rounds {
		base := bases[i%len(bases)]
		parsed, err := parseDocument(base)
		if err != nil {
			t.Fatal(err)
		}
		var members []*object
		var walk func(v any)
		walk = func(v any) {
			switch x := v.(type) {
			case *object:
				members = append(members, x)
				for _, e := range x.vals {
					walk(e)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			}
		}
		for range 1 + rng.IntN(3) {
			members = members[:0]
			walk(parsed)
			o := members[rng.IntN(len(members))]
			if len(o.keys) == 0 {
				continue
			}
			k := rng.IntN(len(o.keys))
			switch rng.IntN(4) {
			case 0:
				o.keys[k] = strings.ToUpper(o.keys[k][:1]) + o.keys[k][1:]
			default:
				v, err := parseJSON([]byte(values[rng.IntN(len(values))]))
				if err != nil {
					t.Fatal(err)
				}
				o.vals[k] = v
			}
			o.index = nil
		}
		if sameAsJSON(t, appendJSON(nil, parsed), false) {
			taken++
		}
	}
	t.Logf("kinDecode took %d of %d mutated documents", taken, rounds)
}
