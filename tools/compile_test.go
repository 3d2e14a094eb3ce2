package tools

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// metaCases are schemas metaValid accepts (valid: true) or leaves to the
// validator's meta-schema check.
var metaCases = []struct {
	schema string
	valid  bool
}{
	{`true`, true},
	{`false`, true},
	{`{}`, true},
	{`{"type":"object","properties":{"a":{"type":["string","null"],"minLength":1,"maxLength":10,"pattern":"^a(?=b)"},"b":{"$ref":"#/$defs/b"}},"required":["a"],"additionalProperties":false,"$defs":{"b":{"enum":[1,"x",null],"description":"d"}}}`, true},
	{`{"anyOf":[{"type":"integer","minimum":-1.5,"exclusiveMaximum":1e3,"multipleOf":0.5},{"const":{"x":1}}],"title":"t","default":null,"examples":[1],"deprecated":true,"readOnly":false,"writeOnly":false,"format":"date","x-any":{"type":5}}`, true},
	{`{"items":{"prefixItems":[true],"contains":{},"minContains":0,"maxContains":2,"uniqueItems":true,"unevaluatedItems":false},"minItems":0,"maxItems":3}`, true},
	{`{"patternProperties":{"^x-":{"type":"string"}},"propertyNames":{"maxLength":3},"minProperties":1,"maxProperties":9,"dependentRequired":{"a":["b"]},"dependentSchemas":{"a":{}},"unevaluatedProperties":true}`, true},
	{`{"if":{"required":["a"]},"then":{"not":{}},"else":{"allOf":[{"oneOf":[true,false]}]},"contentEncoding":"base64","contentMediaType":"text/plain","contentSchema":{}}`, true},
	{`{"$anchor":"a_1.b-c","$comment":"c","definitions":{"a":{}},"dependencies":{"a":["b"],"b":{"type":"string"}}}`, true},
	{`{"$ref":"#/$defs/a%20b","$defs":{"a b":{}}}`, true},
	{`{"nullable":true,"discriminator":{"propertyName":5},"example":{"$ref":5}}`, true},

	{`null`, false},
	{`[]`, false},
	{`"string"`, false},
	{`{"type":"text"}`, false},
	{`{"type":[]}`, false},
	{`{"type":["string","string"]}`, false},
	{`{"type":5}`, false},
	{`{"required":["a","a"]}`, false},
	{`{"required":"a"}`, false},
	{`{"minLength":-1}`, false},
	{`{"minLength":1.5}`, false},
	{`{"minLength":1.0}`, false}, // valid, but not certainly
	{`{"multipleOf":0}`, false},
	{`{"multipleOf":1e400}`, false},
	{`{"maximum":"1"}`, false},
	{`{"pattern":"("}`, false},
	{`{"pattern":5}`, false},
	{`{"patternProperties":{"(":{}}}`, false},
	{`{"properties":{"a":5}}`, false},
	{`{"properties":[]}`, false},
	{`{"allOf":[]}`, false},
	{`{"items":[{}]}`, false},
	{`{"uniqueItems":"yes"}`, false},
	{`{"enum":{}}`, false},
	{`{"$ref":"other.json#/a"}`, false},
	{`{"$ref":"#/a\\b"}`, false},
	{`{"$ref":"#%zz"}`, false},
	{`{"$ref":5}`, false},
	{`{"$anchor":"1a"}`, false},
	{`{"$id":"https://example.com/s"}`, false},
	{`{"$schema":"http://json-schema.org/draft-07/schema#"}`, false},
	{`{"$dynamicRef":"#meta"}`, false},
	{`{"$recursiveRef":"#"}`, false},
	{`{"$vocabulary":{}}`, false},
	{`{"dependencies":{"a":["b","b"]}}`, false},
	{`{"dependencies":{"a":5}}`, false},
	{`{"dependentRequired":{"a":[1]}}`, false},
	{`{"title":1}`, false},
	{`{"properties":{"a":{"properties":{"b":{"type":"strin"}}}}}`, false},
}

func parseSchema(t testing.TB, s string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(s)))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// checkVetted checks what compileSchema relies on: a document metaValid
// accepts passes the meta-schema check, and compiles at its vetted URL
// exactly when it compiles at its own. It reports metaValid's answer.
func checkVetted(t testing.TB, doc []byte) bool {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil || !metaValid(v) {
		return false
	}
	const loc = "mem://tools/a.b/input.json"
	_, full := compileAt(loc, parseSchema(t, string(doc)))
	var sve *jsonschema.SchemaValidationError
	if errors.As(full, &sve) {
		t.Fatalf("metaValid accepted a schema the meta-schema rejects: %s\n%v", doc, full)
	}
	if _, fast := compileAt(vettedURL(loc), v); (fast == nil) != (full == nil) {
		t.Fatalf("compiled at the vetted URL: %v, at its own: %v\n%s", fast, full, doc)
	}
	return true
}

func TestMetaValid(t *testing.T) {
	for _, c := range metaCases {
		if got := checkVetted(t, []byte(c.schema)); got != c.valid {
			t.Errorf("metaValid(%s) = %v, want %v", c.schema, got, c.valid)
		}
	}
}

// TestVettedCompilation checks that a schema compiled without the
// meta-schema check validates as the fully checked one does, messages
// included, and that a schema which does not compile fails as before.
func TestVettedCompilation(t *testing.T) {
	doc := []byte(`{"type":"object","properties":{"a":{"$ref":"#/$defs/a"},"b":{"oneOf":[{"type":"integer"},{"type":"string","minLength":2}]}},"required":["a"],"additionalProperties":false,"$defs":{"a":{"type":"string","pattern":"^x"}}}`)
	fast, err := compileSchema("mem://tools/t/input.json", doc)
	if err != nil {
		t.Fatal(err)
	}
	if fast.Location == "" || !bytes.HasPrefix([]byte(fast.Location), []byte(vettedPrefix)) {
		t.Fatalf("not compiled at the vetted URL: %q", fast.Location)
	}
	full, err := compileAt("mem://tools/t/input.json", parseSchema(t, string(doc)))
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{`{}`, `{"a":"x"}`, `{"a":"y","b":1.5,"c":1}`, `{"a":1,"b":"z"}`, `[]`} {
		got, want := validateJSON(fast, []byte(in)), validateJSON(full, []byte(in))
		if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
			t.Errorf("%s: vetted %v, full %v", in, got, want)
		}
	}
	// A reference to a definition that is not there: the compile error
	// is the full compilation's.
	_, err = compileSchema("mem://tools/t/input.json", []byte(`{"$ref":"#/$defs/missing"}`))
	if err == nil || bytes.Contains([]byte(err.Error()), []byte("vetted")) {
		t.Errorf("err = %v", err)
	}
}

func FuzzMetaValid(f *testing.F) {
	for _, c := range metaCases {
		f.Add([]byte(c.schema))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if len(doc) > 1<<12 {
			return
		}
		checkVetted(t, doc)
	})
}

func TestCheckSchemas(t *testing.T) {
	const doc = `{"definitions":{"0":{"$ref":"#/$defs/a"},"1":{"type":"object","properties":{"b":{"$ref":"#/$defs/b"}}}},` +
		`"$defs":{"a":{"type":"string","pattern":"^a"},"b":{"items":{"$ref":"#/$defs/a"}}%s}}`
	pointers := []string{"/$defs/a", "/$defs/b", "/definitions/0", "/definitions/1"}
	cases := []struct {
		extra    string
		pointers []string
		want     string // "" for no error, else its start
	}{
		{``, pointers, ""},
		{`,"c~d/e f":{"type":"integer"}`, append(pointers, "/$defs/c~0d~1e f"), ""},
		// Not compiled, but checked against the meta-schema.
		{`,"c":{"pattern":"("}`, pointers, "not a valid JSON Schema: at '/$defs/c/pattern': '(' is not valid regex"},
		{`,"c":{"type":"strin"}`, pointers, "not a valid JSON Schema: at '/$defs/c/type'"},
		// Compiled: a reference to nothing, a pointer to nothing.
		{`,"c":{"$ref":"#/$defs/missing"}`, append(pointers, "/$defs/c"), "<schema>#/$defs/missing"},
		{``, append(pointers, "/definitions/2"), "<schema>#/definitions/2"},
	}
	for _, c := range cases {
		err := CheckSchemas([]byte(fmt.Sprintf(doc, c.extra)), c.pointers)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.extra, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s %v: err = %v, want %s", c.extra, c.pointers, err, c.want)
		}
	}
	// The root alone compiles nothing under "definitions".
	if err := CheckSchemas([]byte(`{"definitions":{"0":{"$ref":"#/$defs/missing"}}}`), nil); err != nil {
		t.Errorf("the root alone: %v", err)
	}
}
