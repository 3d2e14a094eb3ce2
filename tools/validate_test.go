package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// node builds a one-tool tree from raw schemas and returns the tool's
// node.
func node(t testing.TB, input, output string) *Node {
	t.Helper()
	tool := &Tool{Func: fn}
	if input != "" {
		tool.Input = json.RawMessage(input)
	}
	if output != "" {
		tool.Output = json.RawMessage(output)
	}
	tree, err := New(map[string]any{"t": tool})
	if err != nil {
		t.Fatal(err)
	}
	return tree.Lookup([]string{"t"})
}

const petSchema = `{
	"type": "object",
	"properties": {"pet": {"oneOf": [
		{"type": "object", "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}}, "required": ["kind", "lives"]},
		{"type": "object", "properties": {"kind": {"const": "dog"}, "barks": {"type": "boolean"}}, "required": ["kind", "barks"]},
		{"type": "string"}
	]}}
}`

func TestValidationMessages(t *testing.T) {
	for _, tt := range []struct {
		name, schema, instance, want string
	}{
		{"type", `{"properties":{"n":{"type":"integer"}}}`, `{"n":"x"}`,
			"at '/n': got string, want integer"},
		{"type of the root", `{"type":"object"}`, `[1]`,
			"at '': got array, want object"},
		{"integer accepts 1.0", `{"properties":{"n":{"type":"integer"}}}`, `{"n":1.0}`, ""},
		{"required one", `{"required":["id"]}`, `{}`,
			"at '': missing property 'id'"},
		{"required several", `{"required":["id","name"]}`, `{}`,
			"at '': missing properties 'id', 'name'"},
		{"enum", `{"properties":{"sort":{"enum":["name","created"]}}}`, `{"sort":"size"}`,
			"at '/sort': value must be one of 'name', 'created'"},
		{"const", `{"properties":{"v":{"const":2}}}`, `{"v":3}`,
			"at '/v': value must be 2"},
		{"minimum", `{"properties":{"limit":{"minimum":1}}}`, `{"limit":0}`,
			"at '/limit': minimum: got 0, want 1"},
		{"maximum", `{"properties":{"limit":{"maximum":100}}}`, `{"limit":500}`,
			"at '/limit': maximum: got 500, want 100"},
		{"exclusiveMinimum", `{"properties":{"x":{"exclusiveMinimum":0}}}`, `{"x":0}`,
			"at '/x': exclusiveMinimum: got 0, want 0"},
		{"minLength", `{"properties":{"query":{"minLength":1}}}`, `{"query":""}`,
			"at '/query': minLength: got 0, want 1"},
		{"maxLength counts code points", `{"properties":{"s":{"maxLength":2}}}`, `{"s":"héé"}`,
			"at '/s': maxLength: got 3, want 2"},
		{"pattern with lookahead", `{"properties":{"password":{"pattern":"^(?=.*[0-9]).{8,}$"}}}`, `{"password":"password"}`,
			"at '/password': 'password' does not match pattern '^(?=.*[0-9]).{8,}$'"},
		{"pattern with lookahead passes", `{"properties":{"password":{"pattern":"^(?=.*[0-9]).{8,}$"}}}`, `{"password":"passw0rd"}`, ""},
		{"pattern with \\u escape", `{"properties":{"s":{"pattern":"^[\\u0080-\\uffff]+$"}}}`, `{"s":"é"}`, ""},
		{"additionalProperties", `{"properties":{"a":{}},"additionalProperties":false}`, `{"a":1,"e":2,"c":3,"b":4,"d":5}`,
			"at '': additional properties 'b', 'c', 'd', 'e' not allowed"},
		{"items", `{"properties":{"ids":{"type":"array","items":{"type":"integer"}}}}`, `{"ids":[1,"two",3,"four"]}`,
			"at '/ids/1': got string, want integer; at '/ids/3': got string, want integer"},
		{"indexes in numeric order", `{"items":{"type":"integer"}}`, `[0,1,"2",3,4,5,6,7,8,9,"10"]`,
			"at '/2': got string, want integer; at '/10': got string, want integer"},
		{"prefixItems and items false", `{"prefixItems":[{"type":"string"}],"items":false}`, `["a","b"]`,
			"at '/1': value not allowed"},
		{"minItems", `{"minItems":2}`, `[1]`, "at '': minItems: got 1, want 2"},
		{"uniqueItems", `{"uniqueItems":true}`, `[1,2,1]`, "at '': items at 0 and 2 are equal"},
		{"oneOf: one branch comes close", petSchema, `{"pet":{"kind":"cat","lives":"nine"}}`,
			"at '/pet': 'oneOf' failed, none matched: [at '/pet/lives': got string, want integer] or [at '/pet': missing property 'barks'; at '/pet/kind': value must be 'dog']"},
		{"oneOf: only the type differs", `{"properties":{"id":{"oneOf":[{"type":"integer"},{"type":"boolean"}]}}}`, `{"id":"x"}`,
			"at '/id': got string, want integer or boolean"},
		{"oneOf: the branch of the right type", petSchema, `{"pet":7}`,
			"at '/pet': got number, want object or string"},
		{"oneOf: two match", `{"oneOf":[{"type":"integer"},{"minimum":0}]}`, `5`,
			"at '': 'oneOf' failed, subschemas 0, 1 matched"},
		{"anyOf: nullable", `{"properties":{"owner":{"anyOf":[{"type":"object","required":["name"]},{"type":"null"}]}}}`, `{"owner":{}}`,
			"at '/owner': missing property 'name'"},
		{"anyOf: nullable, wrong type", `{"properties":{"owner":{"anyOf":[{"$ref":"#/$defs/O"},{"type":"null"}]}},"$defs":{"O":{"type":"object"}}}`, `{"owner":5}`,
			"at '/owner': got number, want object or null"},
		{"propertyNames, dependentSchemas, if/then", `{"propertyNames":{"maxLength":5},"dependentSchemas":{"a":{"required":["q"]}},"if":{"required":["x"]},"then":{"required":["y"]}}`, `{"abcdefg":1,"a":2,"x":1}`,
			"at '': invalid propertyName 'abcdefg' (maxLength: got 7, want 5); at '': missing property 'q'; at '': missing property 'y'"},
		{"minContains", `{"contains":{"type":"string"},"minContains":2}`, `[1,"a"]`,
			"at '': min 2 items required to match contains schema, but matched 1 items at 1"},
		{"allOf", `{"allOf":[{"required":["a"]},{"required":["b"]}]}`, `{}`,
			"at '': missing property 'a'; at '': missing property 'b'"},
		{"not", `{"not":{"type":"string"}}`, `"x"`, "at '': 'not' failed"},
		{"$ref keeps the instance path", `{"$defs":{"A":{"properties":{"zip":{"type":"string"}}}},"properties":{"home":{"$ref":"#/$defs/A"}}}`, `{"home":{"zip":1}}`,
			"at '/home/zip': got number, want string"},
		{"escaped path", `{"additionalProperties":{"type":"string"}}`, `{"a/b~c":1,"it's":2}`,
			"at '/a~1b~0c': got number, want string; at '/it\\'s': got number, want string"},
		{"format is an annotation", `{"properties":{"e":{"format":"email"},"d":{"format":"date-time"}}}`, `{"e":"nope","d":"yesterday"}`, ""},
		{"format is an annotation in draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"e":{"format":"email"}}}`, `{"e":"nope"}`, ""},
		{"draft-07 keywords", `{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"additionalItems":false}`, `["a",1]`,
			"at '': last 1 additionalItem(s) not allowed"},
		{"invalid JSON", `{}`, `{"a":`, "at '': invalid JSON: unexpected EOF"},
		{"number beyond float64", `{"properties":{"n":{"maximum":5}}}`, `{"n":1e999999,"m":[-2e400]}`,
			"at '/m/0': number out of range: -2e400; at '/n': number out of range: 1e999999"},
		{"long number literal", `{"properties":{"n":{"maximum":5}}}`, `{"n":1000000000000000000000000000000000000001}`,
			"at '/n': maximum: got 1e+39, want 5"},
		{"numbers written as JavaScript does", `{"properties":{"n":{"maximum":5.5},"s":{"minLength":1500},"u":{"multipleOf":0.01}}}`, `{"n":1234567,"s":"abc","u":0.001}`,
			"at '/n': maximum: got 1234567, want 5.5; at '/s': minLength: got 3, want 1500; at '/u': multipleOf: got 0.001, want 0.01"},
		{"tiny number", `{"properties":{"n":{"exclusiveMinimum":0}}}`, `{"n":1e-999999}`,
			"at '/n': exclusiveMinimum: got 0, want 0"},
		{"sorted by path, then keyword", `{"required":["z"],"properties":{"b":{"type":"string"},"a":{"type":"string"}},"additionalProperties":false}`, `{"b":1,"a":2,"c":3}`,
			"at '': additional properties 'c' not allowed; at '': missing property 'z'; at '/a': got number, want string; at '/b': got number, want string"},
		{"at most ten", `{"items":{"type":"string"}}`, `[0,1,2,3,4,5,6,7,8,9,10,11]`,
			"at '/0': got number, want string; at '/1': got number, want string; at '/2': got number, want string; at '/3': got number, want string; at '/4': got number, want string; at '/5': got number, want string; at '/6': got number, want string; at '/7': got number, want string; at '/8': got number, want string; at '/9': got number, want string; and 2 more"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			n := node(t, tt.schema, "")
			for range 3 { // the same text every time (the validator walks maps)
				err := n.ValidateInput(json.RawMessage(tt.instance))
				got := ""
				if err != nil {
					got = err.Error()
					var ve *ValidationError
					if !errors.As(err, &ve) {
						t.Fatalf("%T is not a *ValidationError", err)
					}
				}
				if got != tt.want {
					t.Fatalf("got  %s\nwant %s", got, tt.want)
				}
			}
		})
	}
}

func TestNewRejectsInvalidSchemas(t *testing.T) {
	for _, tt := range []struct {
		name, input, output, want string
	}{
		{"bad pattern", `{"properties":{"q":{"pattern":"("}}}`, "",
			`tools: tool "github.listIssues": input schema: not a valid JSON Schema: at '/properties/q/pattern': '(' is not valid regex: error parsing regexp: missing closing ) in ` + "`(`"},
		{"wrong keyword type", `{"properties":{"q":{"minLength":"x"}}}`, "",
			`tools: tool "github.listIssues": input schema: not a valid JSON Schema: at '/properties/q/minLength': got string, want integer`},
		{"unknown type", "", `{"type":"strin"}`,
			`tools: tool "github.listIssues": output schema: not a valid JSON Schema: at '/type': value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'`},
		{"not a schema", `5`, "",
			`tools: tool "github.listIssues": input schema: not a valid JSON Schema: at '': got number, want boolean or object`},
		{"not JSON", `{"type":`, "",
			`tools: tool "github.listIssues": input schema: not JSON: unexpected EOF`},
		{"dangling $ref", `{"$ref":"#/$defs/missing"}`, "",
			`tools: tool "github.listIssues": input schema: json-pointer in "<schema>#/$defs/missing" not found`},
		{"no file is read", `{"$ref":"file:///etc/passwd"}`, "",
			`tools: tool "github.listIssues": input schema: failing loading "file:///etc/passwd": schemas are not loaded from outside the tool's own document`},
		{"no URL is fetched", "", `{"$ref":"https://example.com/schema.json"}`,
			`tools: tool "github.listIssues": output schema: failing loading "https://example.com/schema.json": schemas are not loaded from outside the tool's own document`},
	} {
		tool := &Tool{Func: fn}
		if tt.input != "" {
			tool.Input = json.RawMessage(tt.input)
		}
		if tt.output != "" {
			tool.Output = json.RawMessage(tt.output)
		}
		_, err := New(map[string]any{
			"github": map[string]any{"listIssues": tool, "ok": &Tool{Func: fn, Input: json.RawMessage(`{}`)}},
			"zzz":    &Tool{Func: fn, Input: json.RawMessage(`{"type":1}`)}, // also bad, but later in path order
		})
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s:\ngot  %v\nwant %s", tt.name, err, tt.want)
		}
	}
}

func TestNoSchemaNoValidation(t *testing.T) {
	n := node(t, "", "")
	for _, in := range []string{`{}`, `5`, `"x"`, `not json`, ``} {
		if err := n.ValidateInput(json.RawMessage(in)); err != nil {
			t.Errorf("ValidateInput(%s) = %v", in, err)
		}
		if err := n.ValidateOutput(json.RawMessage(in)); err != nil {
			t.Errorf("ValidateOutput(%s) = %v", in, err)
		}
	}
	var nilNode *Node
	if nilNode.ValidateInput(nil) != nil || nilNode.ValidateOutput(nil) != nil {
		t.Error("a nil node validates")
	}
	tree, _ := New(map[string]any{"ns.tool": &Tool{Func: fn, Input: json.RawMessage(`{"type":"object"}`)}})
	if err := tree.Lookup([]string{"ns"}).ValidateInput(json.RawMessage(`5`)); err != nil {
		t.Errorf("a namespace validates: %v", err)
	}
	out := node(t, "", `{"type":"object"}`)
	if err := out.ValidateOutput(nil); err == nil || err.Error() != "at '': got null, want object" {
		t.Errorf("an empty output is not null: %v", err)
	}
}

func TestPatternTimeout(t *testing.T) {
	n := node(t, `{"properties":{"s":{"pattern":"^(a+)+$"}}}`, "")
	start := time.Now()
	err := n.ValidateInput(json.RawMessage(`{"s":"` + strings.Repeat("a", 40) + `!"}`))
	if err == nil || !strings.HasPrefix(err.Error(), "at '/s': 'aaaa") {
		t.Errorf("ValidateInput = %v", err)
	}
	if d := time.Since(start); d > 50*PatternTimeout {
		t.Errorf("a backtracking pattern took %v", d)
	}
}

func TestValidateConcurrently(t *testing.T) {
	n := node(t, petSchema, "")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				err := n.ValidateInput(json.RawMessage(`{"pet":{"kind":"cat","lives":"nine"}}`))
				if err == nil || !strings.HasPrefix(err.Error(), "at '/pet': 'oneOf' failed") {
					t.Errorf("ValidateInput = %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// FuzzValidate checks that validation, strict decoding and the rendering
// of failures never panic, and that every failure renders as text.
func FuzzValidate(f *testing.F) {
	schemas := []string{
		petSchema,
		string(Func("", func(context.Context, Order) (Void, error) { return Void{}, nil }).Input),
		string(Func("", func(context.Context, Category) (Void, error) { return Void{}, nil }).Input),
		`{"properties":{"p":{"pattern":"^(?=.*\\d)[a-z\\d]{2,8}$"},"n":{"type":"integer","multipleOf":0.5,"maximum":1e308}},"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":{"anyOf":[{"type":"array","uniqueItems":true,"items":{"$ref":"#"}},{"type":"null"}]},"dependentRequired":{"a":["b"]},"propertyNames":{"maxLength":5}}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"additionalItems":{"enum":[1,"a",null,[1],{"a":1}]},"contains":{"const":{"a":[1]}}}`,
	}
	var compiled []*Node
	for _, s := range schemas {
		compiled = append(compiled, node(f, s, ""))
	}
	for _, seed := range []string{
		`{}`, `{"pet":{"kind":"cat","lives":"nine"}}`, `{"pet":7}`, `[1,2,1]`, `{"a":1}`, `"x"`, `null`,
		`{"id":"ord_1","status":"open","items":[{"sku":"","quantity":-1}],"labels":null,"ship":{"street":1},"coupon":null,"createdBy":"","createdAt":"x"}`,
		`{"name":"a","children":[{"name":1,"parent":{"children":[{}]}}]}`,
		`{"p":"ab1","n":1.5,"x-a":1,"zzzzzz":[[1],[1]],"a":1}`,
		`["a",[1],{"a":[1]},{"a":1.0}]`, `{"a":`, `1e999`, `-0`, `{"\u0000/~":"\ud800"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, n := range compiled {
			if ve := validateJSON(n.input, data); ve != nil {
				if len(ve.Failures) == 0 || ve.Error() == "" {
					t.Fatalf("empty failure for %q", data)
				}
			}
		}
		for _, err := range []error{decodeCheck[Order](data), decodeCheck[Category](data), decodeCheck[map[string][]*searchIn](data)} {
			if err != nil && err.Error() == "" {
				t.Fatalf("empty decoding failure for %q", data)
			}
		}
		forModel(data)
	})
}

func decodeCheck[T any](data []byte) error {
	_, err := decodeInput[T](data)
	return err
}

func TestCompileSchema(t *testing.T) {
	s, err := CompileSchema(json.RawMessage(`{"properties":{"limit":{"type":"integer","exclusiveMinimum":0}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(json.RawMessage(`{"limit":0}`)); err == nil || err.Error() != "at '/limit': exclusiveMinimum: got 0, want 0" {
		t.Errorf("Validate = %v", err)
	}
	if err := s.Validate(json.RawMessage(`{"limit":1}`)); err != nil {
		t.Errorf("Validate = %v", err)
	}
	if _, err := CompileSchema(json.RawMessage(`{"type":5}`)); err == nil || err.Error() != "not a valid JSON Schema: at '/type': value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'" {
		t.Errorf("CompileSchema = %v", err)
	}
}

// BenchmarkValidateInput is the cost of checking a small input, the
// common case for a tool call: a flat object against a flat schema.
func BenchmarkValidateInput(b *testing.B) {
	n := node(b, `{"type":"object","properties":{"id":{"type":"integer"},"tag":{"type":"string"}},"required":["id"]}`, "")
	in := json.RawMessage(`{"id":12,"tag":"item"}`)
	b.ReportAllocs()
	for b.Loop() {
		if err := n.ValidateInput(in); err != nil {
			b.Fatal(err)
		}
	}
}
