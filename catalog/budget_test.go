package catalog

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestDescriptionLimit(t *testing.T) {
	for _, tc := range []struct {
		desc string
		n    int
		want string
	}{
		{"Short enough", 20, "Short enough"},
		{"Exactly twenty chars", 20, "Exactly twenty chars"},
		{"The quick brown fox jumps over the lazy dog", 20, "The quick brown fox…"},
		{"The quick brown fox, jumps over the lazy dog", 21, "The quick brown fox…"},
		{"Averyveryverylongwordwithoutspaces", 10, "Averyvery…"},
		{"Line one\n\nline two is longer", 15, "Line one line…"},
		{"ééééééééééé", 5, "éééé…"},
		{"abc", 1, "…"},
	} {
		got, cut := shorten(tc.desc, tc.n)
		if got != tc.want || cut != (got != tc.desc) {
			t.Errorf("shorten(%q, %d) = %q, %v; want %q", tc.desc, tc.n, got, cut, tc.want)
		}
		if chars(got) > tc.n {
			t.Errorf("shorten(%q, %d) = %q is too long", tc.desc, tc.n, got)
		}
	}
	// a shortened description gets no "." before its tags, and children's
	// descriptions are shortened too
	s := json.RawMessage(`{"properties":{"v":{"type":"array","minItems":1,"description":"One two three four five six",` +
		`"items":{"type":"string","description":"Seven eight nine ten eleven twelve"}}}}`)
	want := "{\n  /**\n   * One two… @minItems 1\n   * Each item: Seven…\n   */\n  v?: Array<string>,\n}"
	if got := Render(s, Options{MaxDescription: 8}); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDepthCut(t *testing.T) {
	s := json.RawMessage(`{"type":"object","properties":{
		"a":{"type":"object","properties":{"b":{"type":"object","properties":{"c":{"type":"string"}}}}},
		"list":{"type":"array","items":{"type":"object","required":["x"],"properties":{"x":{"type":"string"},"y":{}}}},
		"either":{"anyOf":[{"type":"object","properties":{"p":{}}},{"type":"null"}]},
		"dict":{"type":"object","additionalProperties":{"type":"string"}},
		"mixed":{"type":"object","properties":{"k":{}},"additionalProperties":{"type":"string"}},
		"empty":{"type":"object"},
		"keys":{"type":"object","properties":{"1":{},"2":{},"3":{},"4":{},"5":{},"6":{},"7":{},"8":{},"9":{},"a*/b":{}}}}}`)
	want := `{ a?: { /* … 1 property: b? */ }; list?: Array<{ /* … 2 properties: x, y? */ }>; ` +
		`either?: { /* … 1 property: p? */ } | null; dict?: { /* … [key: string]: … */ }; ` +
		`mixed?: { /* … 1 property: k?; [key: string]: … */ }; empty?: {}; ` +
		`keys?: { /* … 10 properties: "1"?, "2"?, "3"?, "4"?, "5"?, "6"?, "7"?, "8"?, … */ } }`
	if got := Compact(s, Options{MaxDepth: 1}); got != want {
		t.Errorf("depth 1:\n got %s\nwant %s", got, want)
	}
	if got := Compact(s, Options{MaxDepth: 2}); !strings.Contains(got, "a?: { b?: { /* … 1 property: c? */ } }") {
		t.Errorf("depth 2: %s", got)
	}
	if got := Compact(s, Options{MaxDepth: 3}); got != Compact(s, Options{}) {
		t.Errorf("depth 3 cuts nothing: %s", got)
	}
	// names that would end the comment are broken up
	keys := json.RawMessage(`{"properties":{"o":{"properties":{"a*/b":{}}}}}`)
	if got := Compact(keys, Options{MaxDepth: 1}); got != `{ o?: { /* … 1 property: "a* /b"? */ } }` {
		t.Errorf("comment-safe: %s", got)
	}
}

func TestPropertyCut(t *testing.T) {
	s := json.RawMessage(`{"type":"object","required":["d","e"],"properties":{"a":{},"b":{},"c":{},"d":{},"e":{}},
		"additionalProperties":{"type":"number"}}`)
	for _, tc := range []struct {
		n    int
		want string
	}{
		{1, "{ d: unknown; [key: string]: number; /* … 4 more properties: a?, b?, c?, e */ }"},
		{2, "{ d: unknown; e: unknown; [key: string]: number; /* … 3 more properties: a?, b?, c? */ }"},
		{3, "{ a?: unknown; d: unknown; e: unknown; [key: string]: number; /* … 2 more properties: b?, c? */ }"},
		{4, "{ a?: unknown; b?: unknown; d: unknown; e: unknown; [key: string]: number; /* … 1 more property: c? */ }"},
		{5, "{ a?: unknown; b?: unknown; c?: unknown; d: unknown; e: unknown; [key: string]: number }"},
	} {
		if got := Compact(s, Options{MaxProperties: tc.n}); got != tc.want {
			t.Errorf("%d:\n got %s\nwant %s", tc.n, got, tc.want)
		}
	}
	if got := Render(s, Options{MaxProperties: 1}); got != "{\n  d: unknown,\n  [key: string]: number,\n  // … 4 more properties: a?, b?, c?, e\n}" {
		t.Errorf("pretty:\n%s", got)
	}
	// enums and unions keep at least two
	for _, tc := range []struct {
		schema string
		n      int
		want   string
	}{
		{`{"enum":["a","b","c","d"]}`, 1, `"a" | "b" /* … 2 more values */`},
		{`{"enum":["a","b","c","d"]}`, 3, `"a" | "b" | "c" /* … 1 more value */`},
		{`{"enum":["a","b","c"]}`, 3, `"a" | "b" | "c"`},
		{`{"enum":["a","b"]}`, 1, `"a" | "b"`},
		{`{"anyOf":[{"type":"string"},{"type":"boolean"},{"type":"null"}]}`, 2, `string | boolean /* … 1 more alternative */`},
		{`{"type":"object","properties":{"k":{}},"anyOf":[{"type":"string"},{"type":"boolean"},{"type":"null"}]}`, 2,
			`(string | boolean /* … 1 more alternative */) & { k?: unknown }`},
		// an unknown alternative still makes the union unknown, shown or not
		{`{"anyOf":[{"type":"string"},{"type":"boolean"},{}]}`, 2, `unknown`},
	} {
		if got := Compact(json.RawMessage(tc.schema), Options{MaxProperties: tc.n}); got != tc.want {
			t.Errorf("%s %d:\n got %s\nwant %s", tc.schema, tc.n, got, tc.want)
		}
	}
}

// wide is a schema with many described properties at several levels.
func wide(props, depth int) string {
	if depth == 0 {
		return `{"type":"string","description":"A leaf value, described at some length so that descriptions matter to the budget."}`
	}
	var b strings.Builder
	b.WriteString(`{"type":"object","description":"An object holding several properties.","required":["p0"],"properties":{`)
	for i := 0; i < props; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":%s`, i, wide(props, depth-1))
	}
	b.WriteString(`},"additionalProperties":{"enum":["x","y","z","w"]}}`)
	return b.String()
}

// TestBudgetBounds renders schemas under many budgets: the text is within
// the budget whenever the smallest form is, the cuts are marked, and more
// budget never gives less text.
func TestBudgetBounds(t *testing.T) {
	schemas := []json.RawMessage{
		json.RawMessage(wide(4, 3)), json.RawMessage(wide(12, 2)), json.RawMessage(wide(2, 6)),
		json.RawMessage(`{"enum":[` + strings.Repeat(`"value",`, 200) + `"last"]}`),
		json.RawMessage(`{"type":"array","items":` + wide(6, 2) + `}`),
	}
	for i, s := range schemas {
		for _, pretty := range []bool{true, false} {
			render := Render
			if !pretty {
				render = Compact
			}
			full := render(s, Options{})
			smallest := render(s, Options{MaxChars: 1})
			prev := 0
			for budget := 20; budget < chars(full)+50; budget += 1 + budget/8 {
				got := render(s, Options{MaxChars: budget})
				n := chars(got)
				if n > budget && got != smallest {
					t.Errorf("schema %d pretty=%v budget %d: %d characters\n%s", i, pretty, budget, n, got)
				}
				if n < prev && n > budget/2 {
					// a larger budget may pick another combination of cuts, but
					// not one that throws most of the room away
					t.Errorf("schema %d pretty=%v budget %d: %d characters, less than %d before", i, pretty, budget, n, prev)
				}
				prev = max(prev, n)
				if got != full && !strings.Contains(got, "…") {
					t.Errorf("schema %d budget %d: cut without a marker\n%s", i, budget, got)
				}
			}
			if got := render(s, Options{MaxChars: chars(full)}); got != full {
				t.Errorf("schema %d: a budget the full text fits changes it", i)
			}
		}
	}
}

// TestOpenAIRequestBody fits the OpenAI API's largest request body
// (CreateResponse, about 60,000 characters rendered) into budgets from
// 2,000 characters up.
func TestOpenAIRequestBody(t *testing.T) {
	spec := loadOpenAPI(t, "openai.yaml")
	schema := componentSchema(t, spec, "CreateResponse")
	full := Render(schema, Options{})
	if chars(full) < 50000 || strings.Contains(full, "…") {
		t.Fatalf("full render: %d characters", chars(full))
	}
	// the names a model needs to see survive every budget
	for _, budget := range []int{2000, 4000, 8000, 16000, 32000} {
		got := Render(schema, Options{MaxChars: budget})
		if n := chars(got); n > budget || n < budget/2 {
			t.Errorf("budget %d: %d characters", budget, n)
		}
		for _, name := range []string{"model?:", "input?:", "tools?:", "instructions?", "temperature?:"} {
			if budget >= 4000 && !strings.Contains(got, name) {
				t.Errorf("budget %d lost %s", budget, name)
			}
		}
		if !strings.Contains(got, "/* … ") {
			t.Errorf("budget %d: no marker", budget)
		}
		t.Logf("budget %d: %d characters, %d summaries, %d cut lists", budget, chars(got),
			strings.Count(got, "{ /* … "), strings.Count(got, "more"))
	}
	// the hard cuts alone
	got := Render(schema, Options{MaxDepth: 2, MaxProperties: 10, MaxDescription: 80})
	if chars(got) >= chars(full)/3 {
		t.Errorf("hard cuts: %d characters of %d", chars(got), chars(full))
	}
}

// TestOpenAISignature budgets a whole signature: the chat completions
// request as input and its response as output.
func TestOpenAISignature(t *testing.T) {
	spec := loadOpenAPI(t, "openai.yaml")
	in := componentSchema(t, spec, "CreateChatCompletionRequest")
	out := componentSchema(t, spec, "CreateChatCompletionResponse")
	path := []string{"openai", "chat", "completions", "create"}
	full := Signature(path, in, out)
	for _, budget := range []int{3000, 6000, 12000} {
		got := SignatureWithOptions(path, in, out, Options{MaxChars: budget})
		if n := chars(got); n > budget || n < budget*2/3 {
			t.Errorf("budget %d: %d characters", budget, n)
		}
		if !strings.HasPrefix(got, "tools.openai.chat.completions.create(") || !strings.Contains(got, "): Promise<{") {
			t.Errorf("budget %d: shape\n%.300s", budget, got)
		}
		// the input keeps the larger share
		i := strings.Index(got, "): Promise<")
		if i < chars(got)/2 {
			t.Errorf("budget %d: input %d of %d characters", budget, i, chars(got))
		}
	}
	if chars(full) < 30000 {
		t.Errorf("full signature: %d characters", chars(full))
	}
	// a small output keeps its full text while the input gives way
	small := json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}}}`)
	got := SignatureWithOptions(path, in, small, Options{MaxChars: 3000})
	if !strings.HasSuffix(got, "): Promise<{\n  id?: string,\n}>") || chars(got) > 3000 {
		t.Errorf("small output:\n%s", got)
	}
	// no output schema: Promise<void> whatever the budget
	if got := SignatureWithOptions(path, in, nil, Options{MaxChars: 500}); !strings.HasSuffix(got, "Promise<void>") || chars(got) > 500 {
		t.Errorf("void output:\n%s", got)
	}
}

// BenchmarkRender measures a full render and a budgeted one of the OpenAI
// API's largest request body.
func BenchmarkRender(b *testing.B) {
	spec := loadOpenAPI(b, "openai.yaml")
	schema := componentSchema(b, spec, "CreateResponse")
	for _, opts := range []Options{{}, {MaxChars: 4000}} {
		b.Run(fmt.Sprintf("MaxChars=%d", opts.MaxChars), func(b *testing.B) {
			for b.Loop() {
				Render(schema, opts)
			}
		})
	}
}

// expansion is a small schema whose definitions expand exponentially:
// each of levels definitions has k properties referring to the next.
func expansion(k, levels int) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"$ref":"#/$defs/D0","$defs":{`)
	for l := 0; l < levels; l++ {
		fmt.Fprintf(&b, `"D%d":{"type":"object","properties":{`, l)
		for i := 0; i < k; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"p%d":{"$ref":"#/$defs/D%d","description":"Some text."}`, i, l+1)
		}
		b.WriteString(`}},`)
	}
	fmt.Fprintf(&b, `"D%d":{"type":"string"}}}`, levels)
	return json.RawMessage(b.String())
}

// TestExpansionBound: a 5 KB schema that expands to 10⁸ properties stops
// at the work bound, and a budget still gives a short signature.
func TestExpansionBound(t *testing.T) {
	s := expansion(10, 8)
	out, st := parseSchema(s).render(true, limits{})
	if !st.capped || chars(out) > 4<<20 {
		t.Errorf("capped %v, %d characters", st.capped, chars(out))
	}
	small, st := parseSchema(expansion(3, 4)).render(true, limits{})
	if st.capped || strings.Count(small, "p0?: string") != 27 {
		t.Errorf("a small expansion renders in full:\n%s", small)
	}
	sig := SignatureWithOptions([]string{"x"}, s, s, Options{MaxChars: 3000})
	if n := chars(sig); n > 3000 || n < 1000 || !strings.Contains(sig, "{ /* … 10 properties: p0?") {
		t.Errorf("%d characters:\n%s", n, sig)
	}
}
