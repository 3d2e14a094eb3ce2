package catalog

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func compact(s string) string { return Compact(json.RawMessage(s), Options{}) }
func pretty(s string) string  { return Render(json.RawMessage(s), Options{}) }

// prop renders a one-property object pretty and returns it.
func prop(schema string) string {
	return pretty(`{"properties":{"value":` + schema + `}}`)
}

func TestTypeMapping(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		// primitives
		{`{"type":"string"}`, "string"},
		{`{"type":"number"}`, "number"},
		{`{"type":"integer"}`, "number"},
		{`{"type":"boolean"}`, "boolean"},
		{`{"type":"null"}`, "null"},
		{`{"type":"date"}`, "unknown"},
		{`{}`, "unknown"},
		{`true`, "unknown"},
		{`false`, "unknown"},
		{`null`, "unknown"},
		{`"string"`, "unknown"},
		{`not json`, "unknown"},
		{``, "unknown"},
		// const and enum
		{`{"const":"a"}`, `"a"`},
		{`{"const":null}`, "null"},
		{`{"const":{"b":1,"a":[1,"x"]}}`, `{"b":1,"a":[1,"x"]}`},
		{`{"const":1e21}`, "1e+21"},
		{`{"const":0.000001}`, "0.000001"},
		{`{"const":1e-7}`, "1e-7"},
		{`{"const":123456789012345678901234}`, "1.2345678901234569e+23"},
		{`{"const":-0}`, "0"},
		{`{"const":"<&>\u2028"}`, "\"<&>\u2028\""},
		{`{"const":"a\u0001\"\\"}`, `"a\u0001\"\\"`},
		{`{"enum":["a","b"]}`, `"a" | "b"`},
		{`{"enum":[1,null,true,"x"]}`, `1 | null | true | "x"`},
		{`{"enum":[]}`, "never"},
		{`{"type":"string","enum":["a"],"const":"c"}`, `"c"`},
		// type arrays
		{`{"type":["string","null"]}`, "string | null"},
		{`{"type":["integer","string"]}`, "number | string"},
		{`{"type":[]}`, "never"},
		{`{"type":["object","null"],"properties":{"name":{"type":"string"}}}`, "{ name?: string } | null"},
		// arrays and tuples
		{`{"type":"array"}`, "Array<unknown>"},
		{`{"type":"array","items":{"type":"string"}}`, "Array<string>"},
		{`{"type":"array","items":{"type":"array","items":{"type":"integer"}}}`, "Array<Array<number>>"},
		{`{"type":"array","items":true}`, "Array<unknown>"},
		{`{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}]}`, "[string, number]"},
		{`{"type":"array","prefixItems":[{"type":"string"}],"items":false}`, "[string]"},
		{`{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"boolean"}}`, "[string, ...Array<boolean>]"},
		{`{"type":"array","prefixItems":[{"type":"string"}],"items":true}`, "[string, ...Array<unknown>]"},
		{`{"type":"array","items":[{"type":"string"},{"type":"null"}]}`, "[string, null]"},
		{`{"type":"array","items":[{"type":"string"}],"additionalItems":{"type":"number"}}`, "[string, ...Array<number>]"},
		{`{"type":"array","prefixItems":[],"items":{"type":"string"}}`, "Array<string>"},
		// objects
		{`{"type":"object"}`, "{}"},
		{`{"type":"object","properties":{}}`, "{}"},
		{`{"properties":{"a":{"type":"string"}},"required":["a"]}`, "{ a: string }"},
		{`{"type":"object","additionalProperties":{"type":"number"}}`, "{ [key: string]: number }"},
		{`{"type":"object","additionalProperties":true}`, "{}"},
		{`{"type":"object","additionalProperties":false,"properties":{"a":{}}}`, "{ a?: unknown }"},
		{`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{}}`, "{ a?: string; [key: string]: unknown }"},
		{`{"properties":{"a":true,"b":false,"c":null}}`, "{ a?: unknown; b?: unknown; c?: unknown }"},
		{`{"properties":{"b":1,"10":1,"2":1,"a":1,"01":1,"4294967295":1,"4294967294":1}}`,
			`{ "2"?: unknown; "10"?: unknown; "4294967294"?: unknown; b?: unknown; a?: unknown; "01"?: unknown; "4294967295"?: unknown }`},
		{`{"properties":{"a":{"type":"string"},"a":{"type":"number"},"b":{}}}`, "{ a?: number; b?: unknown }"},
		{`{"properties":{"$ok":{},"_ok":{},"é":{},"a b":{},"":{},"a\"b":{}}}`,
			`{ $ok?: unknown; _ok?: unknown; "é"?: unknown; "a b"?: unknown; ""?: unknown; "a\"b"?: unknown }`},
		{`{"type":"object","properties":"oops","required":"a"}`, "{}"},
		// Effect's empty struct
		{`{"not":{"type":"null"}}`, "{}"},
		{`{"not":{"type":"null"},"description":"x","title":"t","default":{},"examples":[],"readOnly":true,"writeOnly":false}`, "{}"},
		{`{"type":"string","not":{"type":"null"}}`, "string"},
		{`{"not":{"type":"string"}}`, "unknown"},
		{`{"not":{"type":"null","description":"Not null"}}`, "unknown"},
		{`{"not":{"type":"null"},"format":"x"}`, "unknown"},
		// OpenAPI 3.0 nullable
		{`{"type":"string","nullable":true}`, "string | null"},
		{`{"type":"string","nullable":false}`, "string"},
		{`{"enum":["a","b"],"nullable":true}`, `"a" | "b" | null`},
		{`{"type":["string","null"],"nullable":true}`, "string | null"},
		{`{"type":"null","nullable":true}`, "null"},
		{`{"nullable":true}`, "unknown"},
		{`{"type":"object","nullable":true,"properties":{"a":{"type":"integer","nullable":true}}}`, "{ a?: number | null } | null"},
		{`{"allOf":[{"$ref":"#/$defs/A"}],"nullable":true,"$defs":{"A":{"type":"string"}}}`, "string | null"},
		{`{"type":"object","properties":{"x":{"type":"number"}},"anyOf":[{"required":["x"]}],"nullable":true}`, "unknown"},
	} {
		if got := compact(tc.schema); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.schema, got, tc.want)
		}
	}
}

func TestUnions(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"anyOf":[{"type":"string"},{"type":"number"}]}`, "string | number"},
		{`{"oneOf":[{"type":"number"},{"type":"null"}]}`, "number | null"},
		{`{"anyOf":[{"type":"number"},{"type":"boolean"}]}`, "number | boolean"},
		{`{"anyOf":[{"type":"number"},{"type":"number","minimum":1}]}`, "number"},
		{`{"anyOf":[{"type":"integer"},{"type":"integer"}]}`, "number | number"},
		{`{"anyOf":[{"type":"number"},{"type":"string","enum":["NaN","Infinity","-Infinity"]}]}`, "number"},
		{`{"anyOf":[{"type":"number"},{"type":"string","enum":["NaN"]},{"type":"string","enum":["Infinity"]},{"type":"string","enum":["-Infinity"]}]}`, "number"},
		{`{"anyOf":[{"type":"number"},{"type":"string","enum":["NaN","Infinity","unknown"]}]}`, `number | "NaN" | "Infinity" | "unknown"`},
		{`{"anyOf":[{"type":"string","enum":["NaN"]}]}`, `"NaN"`},
		{`{"anyOf":[{"type":"object"},{"type":"array"}]}`, "{}"},
		{`{"anyOf":[{"type":"object","properties":{}},{"type":"array"}]}`, "{} | Array<unknown>"},
		{`{"anyOf":[{"type":"string"},{}]}`, "unknown"},
		{`{"anyOf":[{"type":"string"},true]}`, "unknown"},
		{`{"anyOf":[]}`, "never"},
		{`{"anyOf":[{"type":"string"}],"oneOf":[{"type":"number"}]}`, "string"},
		{`{"anyOf":"oops","oneOf":[{"type":"number"},{"type":"null"}]}`, "number | null"},
		{`{"type":"object","properties":{"common":{"type":"boolean"}},"required":["common"],"anyOf":[` +
			`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]},` +
			`{"type":"object","properties":{"count":{"type":"number"}},"required":["count"]}]}`,
			"({ name: string } | { count: number }) & { common: boolean }"},
		{`{"anyOf":[{"type":"string"}],"description":"only annotations beside"}`, "string"},
		// allOf
		{`{"allOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"object","properties":{"b":{"type":"number"}}}]}`, "{ a?: string } & { b?: number }"},
		{`{"allOf":[]}`, "unknown"},
		{`{"allOf":[{}, {"type":"string"}]}`, "string"},
		{`{"allOf":[{"type":"string"},{"$ref":"#/$defs/Missing"}]}`, "unknown"},
		{`{"allOf":[{"type":"string"},{"$ref":"#/definitions/Missing"}]}`, "unknown"},
		{`{"allOf":[{"type":"string"},{"$ref":"https://example.com/external.json"}]}`, "unknown"},
		{`{"allOf":[{"type":"string"},{"allOf":[{"$ref":"#/$defs/Missing"}]}]}`, "unknown"},
		{`{"allOf":[{"properties":{"nested":{"$ref":"#/$defs/Missing"}}},{"type":"string"}]}`, "unknown"},
		{`{"allOf":[{"type":"array","items":{"$ref":"#/$defs/Missing"}}]}`, "unknown"},
		{`{"allOf":[{"additionalProperties":{"$ref":"#/$defs/Missing"}}]}`, "unknown"},
		{`{"allOf":[{"type":"array","prefixItems":[{"$ref":"#/$defs/Missing"}]}]}`, "unknown"},
		{`{"type":"string","allOf":[{"$ref":"#/$defs/Constraint"}],"$defs":{"Constraint":{"description":"TypeScript-neutral constraint"}}}`, "string"},
		{`{"allOf":[{"$ref":"#/$defs/A"},{"$ref":"#/$defs/A"}],"$defs":{"A":{"properties":{"b":{"$ref":"#/$defs/B"}}},"B":{"type":"string"}}}`,
			"{ b?: string } & { b?: string }"},
	} {
		if got := compact(tc.schema); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.schema, got, tc.want)
		}
	}
}

func TestRefs(t *testing.T) {
	cyclic := `{"$ref":"#/$defs/Node","$defs":{"Node":{"type":"object","properties":{"child":{"$ref":"#/$defs/Node"},"name":{"type":"string"}}}}}`
	for _, tc := range []struct{ schema, want string }{
		{cyclic, "{ child?: unknown; name?: string }"},
		{`{"$ref":"#/$defs/User","properties":{"active":{"type":"boolean"}},"required":["active"],` +
			`"$defs":{"User":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}}}`,
			"{ id: string } & { active: boolean }"},
		{`{"$ref":"https://example.com/schema.json"}`, "unknown"},
		{`{"$ref":"#/$defs/User/properties/id","$defs":{"User":{"type":"object"},"id":{"type":"string"}}}`, "unknown"},
		{`{"$ref":"#/definitions/Value","definitions":{"Value":{"type":"string"}}}`, "string"},
		{`{"$ref":"#/$defs/Value","$defs":{"Value":{"type":"string"}}}`, "string"},
		{`{"$ref":"#/definitions/Value","definitions":{"Value":{"type":"string"}},"$defs":{"Value":{"type":"number"}}}`, "number"},
		{`{"$ref":"#/$defs/Value","$defs":{"Value":{"type":"string"}},"definitions":{"Value":{"type":"boolean"}}}`, "string"},
		{`{"$ref":"#/$defs/A%20B","$defs":{"A B":{"type":"string"}}}`, "string"},
		{`{"$ref":"#/$defs/A~1B~0C","$defs":{"A/B~C":{"type":"string"}}}`, "string"},
		{`{"$ref":"#/$defs/caf%C3%A9","$defs":{"café":{"type":"string"}}}`, "string"},
		{`{"$ref":"#/$defs/%","$defs":{"%":{"type":"string"}}}`, "unknown"},
		{`{"$ref":"#/$defs/%FF","$defs":{}}`, "unknown"},
		{`{"$ref":"#/$defs/A~2B","$defs":{"A~2B":{"type":"string"}}}`, "unknown"},
		{`{"$ref":"#/$defs/Loop","$defs":{"Loop":{"$ref":"#/$defs/Loop"}}}`, "unknown"},
		{`{"$ref":"#/$defs/Missing","$defs":{}}`, "unknown"},
		{`{"$ref":"#/$defs/Null","$defs":{"Null":null}}`, "unknown"},
		{`{"$ref":"#/$defs/F","$defs":{"F":false}}`, "unknown"},
		{`{"$ref":"#/$defs/T","$defs":{"T":true}}`, "unknown"},
		{`{"$ref":"#/x/Value","x":{"Value":{"type":"string"}}}`, "unknown"},
		{`{"$ref":"$defs/Value","$defs":{"Value":{"type":"string"}}}`, "unknown"},
		{`{"$ref":"","type":"string"}`, "string"},
		{`{"$ref":5,"type":"string"}`, "unknown"},
		{`{"$ref":"#/$defs/V","type":"string","$defs":{"V":{"minLength":1}}}`, "string"},
		// a chain through nested scopes, and the def rendered where it is referenced
		{`{"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"type":"boolean"}},"properties":{"x":{"$ref":"#/$defs/A"}}}`, "{ x?: boolean }"},
		{`{"$defs":{"A":{"$ref":"#/$defs/B"}},"properties":{"x":{"$ref":"#/$defs/A","$defs":{"B":{"type":"number"}}}}}`, "{ x?: number }"},
		{`{"type":"object","definitions":{"Inherited":{"type":"string"}},"$defs":{"Value":{"type":"number"}},"properties":{` +
			`"nested":{"$ref":"#/definitions/Value","definitions":{"Value":{"type":"boolean"}}},` +
			`"inherited":{"$ref":"#/definitions/Inherited"},"sibling":{"$ref":"#/$defs/Value"}}}`,
			"{ nested?: boolean; inherited?: string; sibling?: number }"},
		// sibling keywords of a ref keep their own $defs in scope, and an
		// undefined $ref left by the spread keeps the empty-struct marker from applying
		{`{"$ref":"#/$defs/S","not":{"type":"null"},"$defs":{"S":{"type":"string"}}}`, "string"},
	} {
		if got := compact(tc.schema); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.schema, got, tc.want)
		}
	}
	if got := pretty(cyclic); !strings.Contains(got, "child?: unknown") {
		t.Errorf("pretty cyclic: %s", got)
	}
}

// TestAllOfCycles checks that a cycle under an allOf member no longer
// makes the whole allOf unknown (the reference's rendering): the back
// reference renders unknown as elsewhere and the members stay, while an
// unresolvable $ref anywhere in a cycle still makes it unknown.
func TestAllOfCycles(t *testing.T) {
	const node = `"Node":{"properties":{"next":{"$ref":"#/$defs/Node"},"name":{"type":"string"}}}`
	const ab = `"A":{"properties":{"b":{"$ref":"#/$defs/B"}}},"B":{"properties":{"a":{"$ref":"#/$defs/A"}`
	for _, tc := range []struct{ schema, want string }{
		{`{"allOf":[{"$ref":"#/$defs/Node"}],"$defs":{` + node + `}}`, "{ next?: unknown; name?: string }"},
		{`{"allOf":[{"$ref":"#/$defs/Node"},{"properties":{"id":{"type":"number"}}}],"$defs":{` + node + `}}`,
			"{ next?: unknown; name?: string } & { id?: number }"},
		// a two-definition cycle, then a member reaching into it again
		{`{"allOf":[{"$ref":"#/$defs/A"},{"$ref":"#/$defs/B"}],"$defs":{` + ab + `}}}}`,
			"{ b?: { a?: unknown } } & { a?: { b?: unknown } }"},
		// the cycle reaches a missing definition: still unknown, whichever member is checked first
		{`{"allOf":[{"$ref":"#/$defs/A"}],"$defs":{` + ab + `,"c":{"$ref":"#/$defs/Missing"}}}}}`, "unknown"},
		{`{"allOf":[{"$ref":"#/$defs/B"},{"$ref":"#/$defs/A"}],"$defs":{` + ab + `,"c":{"$ref":"#/$defs/Missing"}}}}}`, "unknown"},
		{`{"allOf":[{"$ref":"#/$defs/A"},{"type":"object"}],"$defs":{"A":{"properties":{"b":{"$ref":"#/$defs/B"},"x":{"$ref":"#/$defs/A"}}},` +
			`"B":{"properties":{"c":{"$ref":"#/$defs/C"}}},"C":{"properties":{"b":{"$ref":"#/$defs/B"},"m":{"$ref":"#/$defs/Missing"}}}}}`, "unknown"},
	} {
		if got := compact(tc.schema); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.schema, got, tc.want)
		}
	}
}

// TestEmptyIntersectionMembers checks that an empty object schema adds
// nothing to an intersection ({} & X is X), through $ref hops too, and
// that an object carrying any constraint still counts.
func TestEmptyIntersectionMembers(t *testing.T) {
	const x = `{"type":"object","properties":{"a":{"type":"string"}}}`
	for _, tc := range []struct{ schema, want string }{
		{`{"allOf":[{"type":"object"},` + x + `]}`, "{ a?: string }"},
		{`{"allOf":[{"type":"object","properties":{},"required":[],"description":"d"},` + x + `]}`, "{ a?: string }"},
		{`{"allOf":[{"type":"object","additionalProperties":true},` + x + `]}`, "{ a?: string }"},
		// required names without properties (Box's allOf members): {} shows none
		{`{"allOf":[{"type":"object","required":["a"],"title":"File"},` + x + `]}`, "{ a?: string }"},
		// {} & ({} & {...}) through definitions, as real specs compose them
		{`{"allOf":[{"$ref":"#/$defs/E"},{"$ref":"#/$defs/M"}],"$defs":{"E":{"type":"object","title":"Empty"},` +
			`"M":{"allOf":[{"$ref":"#/$defs/E"},` + x + `]}}}`, "{ a?: string }"},
		// the allOf's own keywords and a $ref's siblings
		{`{"type":"object","allOf":[` + x + `]}`, "{ a?: string }"},
		{`{"$ref":"#/$defs/X","type":"object","$defs":{"X":` + x + `}}`, "{ a?: string }"},
		{`{"anyOf":[{"type":"string"},{"type":"number"}],"type":"object"}`, "string | number"},
		// OpenAPI's annotations constrain nothing either
		{`{"oneOf":[{"type":"string"},{"type":"number"}],"type":"object","discriminator":{"propertyName":"type"},"x-oaiMeta":{},"nullable":false}`,
			"string | number"},
		// only empty members: still {}
		{`{"allOf":[{"type":"object"},{"type":"object"}]}`, "{}"},
		{`{"allOf":[{"$ref":"#/$defs/E"}],"$defs":{"E":{"type":"object"}}}`, "{}"},
		// not empty: additionalProperties, other constraints, non-objects
		{`{"allOf":[{"type":"object","additionalProperties":false},` + x + `]}`, "{} & { a?: string }"},
		{`{"allOf":[{"type":"object","minProperties":1},` + x + `]}`, "{} & { a?: string }"},
		{`{"allOf":[{"type":"object","additionalProperties":{"type":"number"}},` + x + `]}`,
			"{ [key: string]: number } & { a?: string }"},
		{`{"allOf":[{"not":{"type":"null"}},` + x + `]}`, "{} & { a?: string }"},
	} {
		if got := compact(tc.schema); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.schema, got, tc.want)
		}
	}
}

func TestDepthLimit(t *testing.T) {
	deep := `{"type":"string"}`
	for i := 0; i < 12; i++ {
		deep = `{"type":"object","properties":{"next":` + deep + `}}`
	}
	for _, got := range []string{compact(deep), pretty(deep)} {
		if !strings.Contains(got, "unknown") || !strings.Contains(got, "next?:") {
			t.Errorf("deep: %s", got)
		}
	}
	// eight levels below the root render; the ninth is unknown
	if got := compact(deep); strings.Count(got, "next?:") != 9 || !strings.HasSuffix(got, "next?: unknown"+strings.Repeat(" }", 9)) {
		t.Errorf("depth cut: %s", got)
	}
	// $ref does not count as a level; array items and union members do
	arr := `{"type":"string"}`
	for i := 0; i < 12; i++ {
		arr = `{"type":"array","items":` + arr + `}`
	}
	if got := compact(arr); got != strings.Repeat("Array<", 9)+"unknown"+strings.Repeat(">", 9) {
		t.Errorf("array depth: %s", got)
	}
}

func TestTags(t *testing.T) {
	for _, tc := range []struct{ schema, summary, typ string }{
		{`{"type":"number","minimum":0}`, "@minimum 0", "number"},
		{`{"type":"number","maximum":0}`, "@maximum 0", "number"},
		{`{"type":"number","exclusiveMinimum":0}`, "@exclusiveMinimum 0", "number"},
		{`{"type":"number","exclusiveMaximum":0}`, "@exclusiveMaximum 0", "number"},
		{`{"type":"number","multipleOf":0.25}`, "@multipleOf 0.25", "number"},
		{`{"type":"string","minLength":0}`, "@minLength 0", "string"},
		{`{"type":"string","maxLength":0}`, "@maxLength 0", "string"},
		{`{"type":"string","pattern":"^[a-z]+$"}`, "@pattern ^[a-z]+$", "string"},
		{`{"type":"array","minItems":0}`, "@minItems 0", "Array<unknown>"},
		{`{"type":"array","maxItems":0}`, "@maxItems 0", "Array<unknown>"},
		{`{"type":"array","uniqueItems":true}`, "@uniqueItems true", "Array<unknown>"},
		{`{"type":"string","minLength":0,"maxLength":0}`, "@minLength 0 @maxLength 0", "string"},
		{`{"type":"array","minItems":1,"maxItems":10,"uniqueItems":true}`, "@minItems 1 @maxItems 10 @uniqueItems true", "Array<unknown>"},
		{`{"type":"string","deprecated":true}`, "@deprecated", "string"},
		{`{"type":"string","format":"uri"}`, "@format uri", "string"},
		{`{"type":"array","items":{"type":"string"},"minItems":2,"maxItems":5,"default":["a","b"]}`, `@default ["a","b"] @minItems 2 @maxItems 5`, "Array<string>"},
		{`{"default":false,"minLength":0}`, "@default false @minLength 0", "unknown"},
		{`{"default":null,"minLength":0}`, "@default null @minLength 0", "unknown"},
		{`{"default":"","minLength":0}`, `@default "" @minLength 0`, "unknown"},
		{`{"default":{"b":1,"a":2}}`, `@default {"b":1,"a":2}`, "unknown"},
		{`{"type":"number","minimum":1e400}`, "@minimum Infinity", "number"},
		{`{"default":1e400}`, "@default null", "unknown"},
		{`{"type":"integer","minimum":1.0,"maximum":2.50}`, "@integer @minimum 1 @maximum 2.5", "number"},
		// every tag, in the fixed order, whatever the key order
		{`{"exclusiveMaximum":4,"exclusiveMinimum":3,"maximum":2,"minimum":1,` +
			`"type":"integer","format":"f","default":0,"deprecated":true}`,
			"@deprecated @default 0 @format f @integer @minimum 1 @maximum 2 @exclusiveMinimum 3 @exclusiveMaximum 4", "number"},
	} {
		want := "{\n  /** " + tc.summary + " */\n  value?: " + tc.typ + ",\n}"
		if got := prop(tc.schema); got != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.schema, got, want)
		}
		if got := compact(`{"properties":{"value":` + tc.schema + `}}`); got != "{ value?: "+tc.typ+" }" {
			t.Errorf("%s compact: %s", tc.schema, got)
		}
	}
	// All fifteen tags, in the fixed order whatever the key order, are too
	// wide for one line and become a block.
	all := prop(`{"uniqueItems":true,"maxItems":9,"minItems":8,"pattern":"p","maxLength":7,"minLength":6,"multipleOf":5,` +
		`"exclusiveMaximum":4,"exclusiveMinimum":3,"maximum":2,"minimum":1,"type":"integer","format":"f","default":0,"deprecated":true}`)
	if want := "{\n  /**\n   * @deprecated @default 0 @format f @integer @minimum 1 @maximum 2 @exclusiveMinimum 3 @exclusiveMaximum 4 " +
		"@multipleOf 5 @minLength 6 @maxLength 7 @pattern p @minItems 8 @maxItems 9 @uniqueItems true\n   */\n  value?: number,\n}"; all != want {
		t.Errorf("all tags:\n%s", all)
	}
	// Tags that are not of their JSON type, false flags and tags of
	// non-integer type arrays are not documented.
	for _, schema := range []string{
		`{"type":"string","deprecated":false,"uniqueItems":false,"minimum":"1","format":1,"pattern":null}`,
		`{"type":["integer","null"]}`,
	} {
		if got := prop(schema); strings.Contains(got, "/**") {
			t.Errorf("%s: %s", schema, got)
		}
	}
}

func TestDescriptions(t *testing.T) {
	for _, tc := range []struct{ description, want string }{
		{"Maximum attempts", "Maximum attempts."},
		{"Maximum attempts.", "Maximum attempts."},
		{"Maximum attempts!", "Maximum attempts!."},
		{"Maximum…", "Maximum…."},
	} {
		schema := fmt.Sprintf(`{"description":%q,"type":"integer","minimum":1,"default":3}`, tc.description)
		want := "  /** " + tc.want + " @default 3 @integer @minimum 1 */\n"
		if got := prop(schema); !strings.Contains(got, want) {
			t.Errorf("%q: %s", tc.description, got)
		}
	}
	if got := prop(`{"type":"string","description":"Ends */ early"}`); !strings.Contains(got, "  /** Ends * / early */") || strings.Contains(got, "Ends */") {
		t.Errorf("escape: %s", got)
	}
	// description without tags stays as written, even long
	long := strings.Repeat("word ", 40)
	if got := prop(`{"type":"string","description":"` + long + `"}`); !strings.Contains(got, "  /**\n   * "+strings.TrimSpace(long)+"\n   */\n") {
		t.Errorf("long: %s", got)
	}
	// trailing white space of lines, \r\n line ends and blank edge lines go
	if got := prop(`{"type":"string","description":" \r\n  First \r\n\r\nSecond\t\r\n \n"}`); got != "{\n  /**\n   *   First\n   *\n   * Second\n   */\n  value?: string,\n}" {
		t.Errorf("trim: %q", got)
	}
	// a description of blank lines only is no description
	if got := prop(`{"type":"string","description":"\n \n"}`); strings.Contains(got, "/**") {
		t.Errorf("blank: %s", got)
	}
	// non-string descriptions are ignored
	if got := prop(`{"type":"string","description":5}`); got != "{\n  value?: string,\n}" {
		t.Errorf("number description: %s", got)
	}
}

// TestColumns checks the 120-column rule at its edge, for the inline
// "Desc. @tags" form and for the one-line comment, counting UTF-16 units.
func TestColumns(t *testing.T) {
	// pad 2 + "/** " + text + " */" = 9 + text ≤ 120 → text ≤ 111
	for _, tc := range []struct {
		text   string
		inline bool
	}{
		{strings.Repeat("a", 111), true},
		{strings.Repeat("a", 112), false},
		{strings.Repeat("é", 111), true},      // one unit each
		{strings.Repeat("😀", 55) + "a", true}, // two units each: 111
		{strings.Repeat("😀", 56), false},      // 112
	} {
		got := prop(`{"type":"string","description":"` + tc.text + `"}`)
		if one := strings.Contains(got, "/** "+tc.text+" */"); one != tc.inline {
			t.Errorf("%d units: one line %v, want %v:\n%s", jsLen(tc.text), one, tc.inline, got)
		}
	}
	// "Desc. @tags": 2 + len(inline) + 7 ≤ 120
	tags := " @minLength 1"
	for _, n := range []int{111 - len(tags) - 1, 111 - len(tags)} {
		desc := strings.Repeat("a", n)
		got := prop(`{"type":"string","minLength":1,"description":"` + desc + `"}`)
		joined := strings.Contains(got, "/** "+desc+"."+tags+" */")
		if joined != (n+1+len(tags) <= 111) {
			t.Errorf("desc %d: %s", n, got)
		}
		if !joined && !strings.Contains(got, "   * "+desc+"\n   * @minLength 1\n") {
			t.Errorf("desc %d block: %s", n, got)
		}
	}
	// the width grows with the depth: at depth 2 the pad is 4
	desc := strings.Repeat("b", 110) // 4 + 110 + 7 > 120
	got := pretty(`{"properties":{"o":{"type":"object","properties":{"v":{"type":"string","description":"` + desc + `"}}}}}`)
	if !strings.Contains(got, "    /**\n     * "+desc+"\n     */\n") {
		t.Errorf("nested width: %s", got)
	}
	// "Each item: " counts toward the child's inline width
	item := strings.Repeat("c", 95)
	got = prop(`{"type":"array","items":{"type":"string","minLength":1,"description":"` + item + `"}}`)
	if !strings.Contains(got, "Each item: "+item+"\n   *   @minLength 1") {
		t.Errorf("each item width: %s", got)
	}
}

func TestChildLabels(t *testing.T) {
	for _, tc := range []struct{ schema, doc string }{
		// items documented only for array types, values only for objects
		{`{"items":{"description":"x"}}`, ""},
		{`{"type":"array","items":{"description":"Tag"}}`, "/** Each item: Tag */"},
		{`{"type":"array","items":{}}`, ""},
		{`{"type":"array","items":[{"description":"tuple member"}]}`, ""},
		{`{"type":"array","prefixItems":[{"type":"string"}],"items":{"description":"Rest"}}`, "/** Each additional item: Rest */"},
		{`{"additionalProperties":{"description":"V"}}`, ""},
		{`{"type":"object","additionalProperties":{"description":"V"}}`, "/** Each value: V */"},
		{`{"properties":{},"additionalProperties":{"description":"V"}}`, "/** Each value: V */"},
		{`{"properties":{"a":{}},"additionalProperties":{"description":"V"}}`, "/** Each additional value: V */"},
		{`{"type":"object","additionalProperties":true}`, ""},
		{`{"type":"object","description":"Map","additionalProperties":{"description":"V"}}`, "/**\n   * Map\n   * Each value: V\n   */"},
	} {
		got := prop(tc.schema)
		if tc.doc == "" && strings.Contains(got, "/**") || tc.doc != "" && !strings.Contains(got, "  "+tc.doc+"\n") {
			t.Errorf("%s:\n%s", tc.schema, got)
		}
	}
}

func TestPrettyIndentation(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"type":"object","properties":{}}`, "{}"},
		{`{"type":"object","additionalProperties":{"type":"string"}}`, "{\n  [key: string]: string,\n}"},
		{`{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}}}}`, "Array<{\n    a?: string,\n  }>"},
		{`{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"null"}]}`, "{\n    a?: string,\n  } | null"},
		{`{"properties":{"o":{"type":"object","nullable":true,"properties":{"a":{"type":"string"}}}}}`, "{\n  o?: {\n    a?: string,\n  } | null,\n}"},
		{`{"properties":{"t":{"type":"array","prefixItems":[{"type":"object","properties":{"a":{"type":"string"}}}]}}}`, "{\n  t?: [{\n      a?: string,\n    }],\n}"},
		{`{"$ref":"#/$defs/A","$defs":{"A":{"properties":{"a":{"type":"string"}}}}}`, "{\n  a?: string,\n}"},
	} {
		if got := pretty(tc.schema); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.schema, got, tc.want)
		}
	}
}

func TestSignature(t *testing.T) {
	obj := json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)
	for _, tc := range []struct {
		path          []string
		input, output string
		want          string
	}{
		{[]string{"a", "b"}, ``, ``, "tools.a.b(): Promise<void>"},
		{[]string{"a"}, `null`, `null`, "tools.a(): Promise<void>"},
		{[]string{"a"}, ` {"type":"object"} `, `{}`, "tools.a(): Promise<unknown>"},
		{[]string{"a"}, `{"type":"object","additionalProperties":false}`, `{"type":"null"}`, "tools.a(): Promise<null>"},
		{[]string{"a"}, `{"anyOf":[{"type":"object"},{"type":"array"}]}`, `true`, "tools.a(): Promise<unknown>"},
		{[]string{"a"}, `{"$ref":"#/$defs/E","$defs":{"E":{"type":"object"}}}`, ``, "tools.a(): Promise<void>"},
		{[]string{"a"}, `{}`, ``, "tools.a(unknown): Promise<void>"},
		{[]string{"a"}, `{"type":"string"}`, ``, "tools.a(string): Promise<void>"},
		{[]string{"a"}, `{bad json`, ``, "tools.a(unknown): Promise<void>"},
		{[]string{"a"}, `{"type":"object","additionalProperties":{"type":"string"}}`, ``, "tools.a({\n  [key: string]: string,\n}): Promise<void>"},
		{[]string{"a"}, `{"type":"object","additionalProperties":true}`, ``, "tools.a({}): Promise<void>"},
		{[]string{"a"}, `{"type":"object","patternProperties":{"^x-":{"type":"string"}}}`, ``, "tools.a({}): Promise<void>"},
		{[]string{"a"}, `{"type":"object","minProperties":1}`, ``, "tools.a({}): Promise<void>"},
		{[]string{"a"}, `{"$ref":"#/$defs/E","$defs":{"E":{"type":"object","minProperties":1}}}`, ``, "tools.a({}): Promise<void>"},
		{[]string{"a-b", "c d", "$e", "0"}, ``, ``, `tools["a-b"]["c d"].$e["0"](): Promise<void>`},
		{[]string{"x"}, string(obj), string(obj), "tools.x({\n  q: string,\n}): Promise<{\n  q: string,\n}>"},
	} {
		if got := Signature(tc.path, json.RawMessage(tc.input), json.RawMessage(tc.output)); got != tc.want {
			t.Errorf("%v %s %s:\n got %s\nwant %s", tc.path, tc.input, tc.output, got, tc.want)
		}
	}
	if !IsEmptyInput(nil) || IsEmptyInput(obj) || !IsEmptyInput(json.RawMessage(`{"type":"object","properties":{}}`)) {
		t.Error("IsEmptyInput")
	}
}

func TestSearchSchemas(t *testing.T) {
	// the schemas are fresh copies: changing one does not change the next
	s := SearchInputSchema()
	s[0] = 'x'
	if SearchInputSchema()[0] != '{' {
		t.Error("SearchInputSchema shares its bytes")
	}
	for _, raw := range []json.RawMessage{SearchInputSchema(), SearchOutputSchema()} {
		if !json.Valid(raw) {
			t.Errorf("invalid schema %s", raw)
		}
	}
	if got := Compact(SearchOutputSchema(), Options{}); got != "{ items: Array<{ path: string; description: string; signature: string }>; remaining: number; next: { offset: number } | null }" {
		t.Errorf("compact search output: %s", got)
	}
}

func TestJSNumber(t *testing.T) {
	for f, want := range map[float64]string{
		0: "0", 1: "1", -1: "-1", 0.5: "0.5", 0.30000000000000004: "0.30000000000000004", 100: "100", 1e20: "100000000000000000000",
		1e21: "1e+21", 1.5e21: "1.5e+21", 1e-6: "0.000001", 1.5e-7: "1.5e-7", 1e-7: "1e-7", 123.456: "123.456",
		-2.5e-10: "-2.5e-10", 5e-324: "5e-324", 1.7976931348623157e308: "1.7976931348623157e+308", 2e-6: "0.000002",
	} {
		if got := jsNumber(f); got != want {
			t.Errorf("jsNumber(%v) = %s, want %s", f, got, want)
		}
	}
}
