package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzRender feeds arbitrary bytes as a schema to every entry point: none
// may panic or run away, budgets hold whenever the smallest form fits,
// compact text stays on one line, and rendering is deterministic.
func FuzzRender(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.json"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var c goldenCase
		if json.Unmarshal(data, &c) == nil {
			for _, s := range []json.RawMessage{c.Schema, c.Input, c.Output} {
				if len(s) > 0 {
					f.Add([]byte(s))
				}
			}
		}
	}
	for _, s := range []string{
		``, `null`, `true`, `[]`, `{}`, `"x"`, `1e999`, `{"a":`, `{"type":"object"}{}`,
		`{"$ref":"#/$defs/A","$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}`,
		`{"$defs":{"A":{"properties":{"x":{"$ref":"#/$defs/B"},"y":{"$ref":"#/$defs/B"}}},"B":{"properties":{"x":{"$ref":"#/$defs/C"},"y":{"$ref":"#/$defs/C"}}},"C":{"type":"string"}},"$ref":"#/$defs/A"}`,
		`{"allOf":[{"$ref":"#/$defs/A"}],"$defs":{"A":{"allOf":[{"$ref":"#/$defs/A"}]}}}`,
		`{"type":["object","array",["x"],1,null],"items":{"nullable":true},"properties":{"a":{"nullable":true,"type":"null"}}}`,
		`{"type":"array","prefixItems":[{"type":"array","items":[{"const":{"a":[1,{"b":null}]}}]}],"additionalItems":true}`,
		`{"properties":{"a":{"description":"*/\n*/","default":"\u2028","pattern":"*/","enum":[]}},"required":"a"}`,
		`{"not":{"type":"null"},"description":"x","$ref":""}`,
		`{"anyOf":[{"type":"number"},{"type":"string","enum":["NaN"]}],"oneOf":null,"allOf":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		schema := json.RawMessage(data)
		pretty := Render(schema, Options{})
		if again := Render(schema, Options{}); again != pretty {
			t.Fatalf("not deterministic:\n%s\n%s", pretty, again)
		}
		flat := Compact(schema, Options{})
		if strings.Contains(flat, "\n") {
			t.Fatalf("compact text has a line break: %q", flat)
		}
		if (flat == "unknown") != (pretty == "unknown") {
			t.Fatalf("compact %q, pretty %q", flat, pretty)
		}
		IsEmptyInput(schema)
		Signature([]string{"a", "b-c"}, schema, schema)

		// derive limits from the input so the corpus explores them
		n := len(data)
		opts := Options{MaxChars: 40 + n%400, MaxDepth: n % 4, MaxProperties: n % 5, MaxDescription: n % 50}
		smallest := Render(schema, Options{MaxChars: 1, MaxDepth: opts.MaxDepth, MaxProperties: opts.MaxProperties, MaxDescription: opts.MaxDescription})
		if got := Render(schema, opts); chars(got) > opts.MaxChars && got != smallest {
			t.Fatalf("%+v: %d characters\n%s", opts, chars(got), got)
		}
		if got := Compact(schema, opts); strings.Contains(got, "\n") {
			t.Fatalf("budgeted compact text has a line break: %q", got)
		}
		SignatureWithOptions([]string{"x"}, schema, schema, opts)
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("took %v", d)
		}
	})
}
