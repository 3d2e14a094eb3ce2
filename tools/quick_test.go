package tools

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

var quickSchemas = []string{
	`{"type":"object","properties":{"id":{"type":"integer"},"tag":{"type":"string"}},"required":["id"]}`,
	`{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"id":{"type":"integer"},"tag":{"type":"string"}},"additionalProperties":false,"type":"object","required":["id"]}`,
	`{"type":"object","properties":{"x":{"type":"number"},"ok":{"type":"boolean"},"n":{"type":["string","null"]},"o":{"type":"object"},"a":{"type":"array"},"any":true,"free":{}}}`,
	`{"type":"object","properties":{"p":{"type":"string","enum":["low","high"],"description":"priority"},"d":{"type":"string","format":"date-time"}},"required":["p","d"],"additionalProperties":false}`,
	`{"type":"object","properties":{},"additionalProperties":true,"title":"anything"}`,
}

// TestQuickSchemaCompiles: the flat schemas tools use have a quick form,
// and schemas with other keywords do not.
func TestQuickSchemaCompiles(t *testing.T) {
	for _, doc := range quickSchemas {
		if compileQuick([]byte(doc)) == nil {
			t.Errorf("no quick form for %s", doc)
		}
	}
	for _, doc := range []string{
		`{"type":"object","properties":{"id":{"type":"integer","minimum":1}}}`,
		`{"type":"object","properties":{"id":{"$ref":"#/$defs/x"}},"$defs":{"x":{}}}`,
		`{"properties":{"id":{"type":"integer"}}}`,
		`{"type":"array"}`,
		`{"type":"object","additionalProperties":{"type":"string"}}`,
		`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object"}`,
		`{"type":"object","properties":{"d":{"type":"string","format":"mine"}}}`,
		`{"type":"object","properties":{"e":{"enum":[1,2]}}}`,
		`{"type":"object","properties":{"e":{"enum":["a\u0062"]}}}`,
		`{"type":"object","patternProperties":{"^x":{}}}`,
	} {
		if compileQuick([]byte(doc)) != nil {
			t.Errorf("quick form for %s, which it cannot check", doc)
		}
	}
}

var quickInputs = []string{
	`{}`, `{"id":1}`, `{"id":1,"tag":"a"}`, `{"id":-12,"tag":"item","extra":[1,{"a":"}"}]}`,
	`{"id":1.0}`, `{"id":1.5}`, `{"id":1e3}`, `{"id":"1"}`, `{"id":null}`, `{"tag":"x"}`,
	`{"id":123456789012345678901234567890}`, `{"id":1,"id":"x"}`, `{"id":"x","id":1}`,
	`{"x":1.25,"ok":true,"n":null,"o":{"k":[1,2]},"a":[],"any":"s","free":false}`,
	`{"x":"1","ok":1}`, `{"n":"s"}`, `{"n":3}`, `{"o":[]}`, `{"a":{}}`,
	`{"p":"low","d":"2024-01-01T00:00:00Z"}`, `{"p":"mid","d":"x"}`, `{"p":"l\u006fw","d":"x"}`, `{"p":"low"}`,
	`{"p":"low","d":"x","q":1}`, ` { "id" : 7 , "tag" : "t\"q" } `, `{"i\u0064":1}`,
	`[]`, `"s"`, `1`, `null`, `{"id":1`, `{"id":01}`, `{"id":1,}`, "{\"tag\":\"\xff\"}", "{\"\xff\":1}",
	`{"id":-0}`, `{"id":1E2}`, `{"x":1.000}`, `{"x":-1.50}`,
}

// TestQuickSchemaAgrees: whenever the quick check says valid, the
// validator agrees, over hand-picked inputs and random ones; and the
// quick check accepts the plain inputs it is there for.
func TestQuickSchemaAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := append([]string(nil), quickInputs...)
	for range 3000 {
		inputs = append(inputs, randomInput(rng))
	}
	accepted := 0
	for _, doc := range quickSchemas {
		q := compileQuick([]byte(doc))
		sch, err := compileSchema(schemaURL("t", "input"), []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range inputs {
			if !q.valid([]byte(in)) {
				continue
			}
			accepted++
			if err := safeValidate(sch, []byte(in)); err != nil {
				t.Errorf("schema %s: quick accepts %s, the validator says %v", doc, in, err)
			}
		}
	}
	if q := compileQuick([]byte(quickSchemas[0])); !q.valid([]byte(`{"id":1,"tag":"a"}`)) || !q.valid([]byte(` { "id" : 7 , "tag" : "t\"q" } `)) {
		t.Error("the quick check refuses plain valid inputs")
	}
	if accepted < 100 {
		t.Errorf("the quick check accepted only %d inputs", accepted)
	}
}

// randomInput is a flat-ish object with keys and values drawn from the
// shapes the schemas above care about.
func randomInput(rng *rand.Rand) string {
	keys := []string{"id", "tag", "x", "ok", "n", "o", "a", "any", "free", "p", "d", "q"}
	vals := []string{`1`, `-3`, `0`, `2.5`, `1.0`, `1e2`, `"s"`, `"low"`, `"high"`, `"2024-01-01"`, `true`, `false`, `null`, `{}`, `[]`, `{"k":"v"}`, `[1,"}"]`, `"\u00e9"`, `99999999999999999999`}
	var parts []string
	for range rng.IntN(5) {
		parts = append(parts, fmt.Sprintf("%q:%s", keys[rng.IntN(len(keys))], vals[rng.IntN(len(vals))]))
	}
	s := "{" + strings.Join(parts, ",") + "}"
	if !json.Valid([]byte(s)) {
		panic(s)
	}
	return s
}
