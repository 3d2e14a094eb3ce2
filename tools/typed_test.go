package tools

import (
	"context"
	"encoding/json"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// Address is where an order goes.
type Address struct {
	Street  string `json:"street" jsonschema:"description=Street and number"`
	City    string `json:"city"`
	Country string `json:"country,omitempty" jsonschema:"enum=US,enum=DE,enum=FR,default=US"`
}

// Audit is embedded: its fields are the order's own.
type Audit struct {
	CreatedBy string    `json:"createdBy"`
	CreatedAt time.Time `json:"createdAt"`
}

type LineItem struct {
	SKU      string `json:"sku" jsonschema:"minLength=1"`
	Quantity uint   `json:"quantity"`
}

type Order struct {
	Audit
	ID       string            `json:"id" jsonschema:"pattern=^ord_[a-z0-9]+$"`
	Status   string            `json:"status" jsonschema:"enum=open,enum=paid,enum=shipped"`
	Items    []LineItem        `json:"items" jsonschema:"minItems=1"`
	Notes    []string          `json:"notes,omitempty"`
	Labels   map[string]string `json:"labels"`
	Ship     *Address          `json:"ship"`
	Bill     *Address          `json:"bill,omitempty"`
	Coupon   *string           `json:"coupon"`
	Priority int               `json:"priority,omitempty" jsonschema:"minimum=1,maximum=5"`
	Wait     Duration          `json:"wait,omitempty"`
	Timeout  time.Duration     `json:"timeout,omitempty"`
	Extra    json.RawMessage   `json:"extra,omitempty"`
	Server   netip.Addr        `json:"server,omitzero"`
	//lint:ignore U1000 an unexported field, which reflection skips
	internal string
	Skip     string `json:"-"`
}

// Category is recursive.
type Category struct {
	Name     string     `json:"name"`
	Children []Category `json:"children,omitempty"`
	Parent   *Category  `json:"parent,omitempty"`
}

type tAddr = Address

type Page[T any] struct {
	Items []T  `json:"items"`
	More  bool `json:"more"`
}

type Catalog struct {
	Products Page[LineItem] `json:"products"`
	Root     Category       `json:"root"`
}

func schemaOf[In any]() string {
	t := Func("", func(context.Context, In) (Void, error) { return Void{}, nil })
	if t.Err() != nil {
		return "error: " + t.Err().Error()
	}
	return string(t.InputForModel())
}

// Commented is described by its doc comments only.
type Commented struct {
	// Query is what to look for.
	Query string `json:"query"`
	Limit int    `json:"limit,omitempty"` // Limit caps the results.
	// Tagged keeps its tag's description.
	Tagged string `json:"tagged,omitempty" jsonschema:"description=From the tag"`
}

func TestReflectedSchemas(t *testing.T) {
	type Address struct{ X int }
	comments, err := GoComments("github.com/go-codemode/codemode/tools", ".")
	if err != nil {
		t.Fatal(err)
	}
	commented := Func("", func(context.Context, Commented) (Void, error) { return Void{}, nil }, WithComments(comments))
	for _, tt := range []struct{ name, got, want string }{
		{"nested struct: embedded, enums, pointers, slices, maps, time, durations", schemaOf[Order](),
			`{"$defs":{` +
				`"Address":{"properties":{"street":{"type":"string","description":"Street and number"},"city":{"type":"string"},"country":{"type":"string","enum":["US","DE","FR"],"default":"US"}},"additionalProperties":false,"type":"object","required":["street","city"]},` +
				`"LineItem":{"properties":{"sku":{"type":"string","minLength":1},"quantity":{"type":"integer","minimum":0}},"additionalProperties":false,"type":"object","required":["sku","quantity"]}},` +
				`"properties":{` +
				`"createdBy":{"type":"string"},` +
				`"createdAt":{"type":"string","format":"date-time"},` +
				`"id":{"type":"string","pattern":"^ord_[a-z0-9]+$"},` +
				`"status":{"type":"string","enum":["open","paid","shipped"]},` +
				`"items":{"anyOf":[{"items":{"$ref":"#/$defs/LineItem"},"type":"array","minItems":1},{"type":"null"}]},` +
				`"notes":{"items":{"type":"string"},"type":"array"},` +
				`"labels":{"anyOf":[{"additionalProperties":{"type":"string"},"type":"object"},{"type":"null"}]},` +
				`"ship":{"anyOf":[{"$ref":"#/$defs/Address"},{"type":"null"}]},` +
				`"bill":{"$ref":"#/$defs/Address"},` +
				`"coupon":{"anyOf":[{"type":"string"},{"type":"null"}]},` +
				`"priority":{"type":"integer","maximum":5,"minimum":1},` +
				`"wait":{"type":"string","description":"A duration such as \"1h30m\", \"90s\" or \"250ms\"."},` +
				`"timeout":{"type":"integer","description":"A duration in nanoseconds."},` +
				`"extra":true,` +
				`"server":{"type":"string"}},` +
				`"additionalProperties":false,"type":"object","required":["createdBy","createdAt","id","status","items","labels","ship","coupon"]}`},
		{"recursive root refers to itself as #", schemaOf[Category](),
			`{"properties":{"name":{"type":"string"},"children":{"items":{"$ref":"#"},"type":"array"},"parent":{"$ref":"#"}},"additionalProperties":false,"type":"object","required":["name"]}`},
		{"recursive type below the root, generic type", schemaOf[Catalog](),
			`{"$defs":{` +
				`"Category":{"properties":{"name":{"type":"string"},"children":{"items":{"$ref":"#/$defs/Category"},"type":"array"},"parent":{"$ref":"#/$defs/Category"}},"additionalProperties":false,"type":"object","required":["name"]},` +
				`"LineItem":{"properties":{"sku":{"type":"string","minLength":1},"quantity":{"type":"integer","minimum":0}},"additionalProperties":false,"type":"object","required":["sku","quantity"]},` +
				`"Page_LineItem":{"properties":{"items":{"anyOf":[{"items":{"$ref":"#/$defs/LineItem"},"type":"array"},{"type":"null"}]},"more":{"type":"boolean"}},"additionalProperties":false,"type":"object","required":["items","more"]}},` +
				`"properties":{"products":{"$ref":"#/$defs/Page_LineItem"},"root":{"$ref":"#/$defs/Category"}},"additionalProperties":false,"type":"object","required":["products","root"]}`},
		{"two types with one name", schemaOf[struct {
			A Address `json:"a"`
			B tAddr   `json:"b,omitempty"`
		}](),
			`{"$defs":{` +
				`"Address":{"properties":{"X":{"type":"integer"}},"additionalProperties":false,"type":"object","required":["X"]},` +
				`"Address2":{"properties":{"street":{"type":"string","description":"Street and number"},"city":{"type":"string"},"country":{"type":"string","enum":["US","DE","FR"],"default":"US"}},"additionalProperties":false,"type":"object","required":["street","city"]}},` +
				`"properties":{"a":{"$ref":"#/$defs/Address"},"b":{"$ref":"#/$defs/Address2"}},"additionalProperties":false,"type":"object","required":["a"]}`},
		{"nullable tag, description moved out of a nullable wrapper", schemaOf[struct {
			A *int    `json:"a" jsonschema:"nullable"`
			B *string `json:"b" jsonschema:"description=Maybe a string"`
			C any     `json:"c"`
			D []byte  `json:"d,omitempty"`
		}](),
			`{"properties":{"a":{"oneOf":[{"type":"integer"},{"type":"null"}]},"b":{"anyOf":[{"type":"string"},{"type":"null"}],"description":"Maybe a string"},"c":true,"d":{"type":"string","contentEncoding":"base64"}},"additionalProperties":false,"type":"object","required":["a","b","c"]}`},
		{"doc comments", string(commented.InputForModel()),
			`{"properties":{"query":{"type":"string","description":"Query is what to look for."},"limit":{"type":"integer","description":"Limit caps the results."},"tagged":{"type":"string","description":"From the tag"}},"additionalProperties":false,"type":"object","required":["query"],"description":"Commented is described by its doc comments only."}`},
		{"Void input", schemaOf[Void](), `{"properties":{},"additionalProperties":false,"type":"object"}`},
		{"map input", schemaOf[map[string]int](), `{"additionalProperties":{"type":"integer"},"type":"object"}`},
	} {
		if tt.got != tt.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.name, tt.got, tt.want)
		}
	}
}

func TestSchemaKeepsDraftForValidator(t *testing.T) {
	tool := Func("Get a category", func(context.Context, Category) (Category, error) { return Category{}, nil })
	if !strings.HasPrefix(string(tool.Input), `{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":`) {
		t.Errorf("Input: %s", tool.Input)
	}
	if !strings.HasPrefix(string(tool.Output), `{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":`) {
		t.Errorf("Output: %s", tool.Output)
	}
	if got := string(tool.OutputForModel()); got != schemaOf[Category]() {
		t.Errorf("OutputForModel: %s", got)
	}
	for _, tt := range []struct{ in, want string }{
		{`{"type":"object","$schema":"x","properties":{"b":{},"a":{"$schema":"kept"}}}`, `{"type":"object","properties":{"b":{},"a":{"$schema":"kept"}}}`},
		{`{"$schema":"x"}`, `{}`},
		{`{"type":"object"}`, `{"type":"object"}`},
		{`{"<&>":1,"$schema":"x"}`, `{"<&>":1}`},
		{`true`, `true`},
		{``, ``},
	} {
		if got := string((&Tool{Input: json.RawMessage(tt.in)}).InputForModel()); got != tt.want {
			t.Errorf("InputForModel(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// Types invopop/jsonschema would recurse on forever.
type (
	selfEmbedding struct {
		//lint:ignore U1000 the embedding is the point
		*selfEmbedding
		X int
	}
	selfPointer *selfPointer
)

func TestFuncErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		tool *Tool
		want string
	}{
		{"input not an object", Func("", func(context.Context, string) (Void, error) { return Void{}, nil }),
			"input type string is not a struct or a map with string keys (a tool's input is a JSON object)"},
		{"unsupported field type", Func("", func(context.Context, struct{ C chan int }) (Void, error) { return Void{}, nil }),
			"input type struct { C chan int }: no JSON Schema: unsupported type chan int"},
		{"unsupported output type", Func("", func(context.Context, Void) (func(), error) { return nil, nil }),
			"output type func(): no JSON Schema: unsupported type func()"},
		{"tag making an invalid schema", Func("", func(context.Context, struct {
			Q string `json:"q" jsonschema:"pattern=("`
		}) (Void, error) {
			return Void{}, nil
		}),
			"input schema reflected from struct { Q string \"json:\\\"q\\\" jsonschema:\\\"pattern=(\\\"\" }: not a valid JSON Schema: at '/properties/q/pattern': '(' is not valid regex: error parsing regexp: missing closing ) in `(`"},
		{"nil function", Func[Void, Void]("", nil), "the function is nil"},
		{"struct embedding itself", Func("", func(context.Context, selfEmbedding) (Void, error) { return Void{}, nil }),
			"input type tools.selfEmbedding: no JSON Schema: tools.selfEmbedding embeds itself"},
		{"pointer to itself", Func("", func(context.Context, Void) (selfPointer, error) { return nil, nil }),
			"output type tools.selfPointer: no JSON Schema: tools.selfPointer is a pointer to itself"},
	} {
		if err := tt.tool.Err(); err == nil || err.Error() != tt.want {
			t.Errorf("%s: Err() = %v\nwant %s", tt.name, err, tt.want)
			continue
		}
		if _, err := tt.tool.Func(context.Background(), json.RawMessage(`{}`)); err == nil || err.Error() != tt.want {
			t.Errorf("%s: Func returned %v", tt.name, err)
		}
		_, err := New(map[string]any{"shop.bad": tt.tool})
		if want := `tools: tool "shop.bad": ` + tt.want; err == nil || err.Error() != want {
			t.Errorf("%s: New: %v\nwant %s", tt.name, err, want)
		}
	}
}

type searchIn struct {
	Query  string    `json:"query" jsonschema:"minLength=1"`
	Limit  int8      `json:"limit,omitempty"`
	Since  time.Time `json:"since,omitzero"`
	Every  Duration  `json:"every,omitempty"`
	Filter *struct {
		Tags []string `json:"tags"`
	} `json:"filter,omitempty"`
}

func TestTypedRoundTrip(t *testing.T) {
	var got searchIn
	search := Func("Search", func(_ context.Context, in searchIn) (Void, error) {
		got = in
		return Void{}, nil
	})
	tree, err := New(map[string]any{"search": search})
	if err != nil {
		t.Fatal(err)
	}
	n := tree.Lookup([]string{"search"})
	if n.input != search.compiled.input {
		t.Error("New compiled the reflected schema again")
	}
	if !search.ValidateOutputs || search.Output != nil {
		t.Errorf("ValidateOutputs %v, Output %s", search.ValidateOutputs, search.Output)
	}

	in := `{"query":"go","limit":5,"since":"2024-01-02T03:04:05Z","every":"1h30m","filter":{"tags":["a","b"]}}`
	if err := n.ValidateInput(json.RawMessage(in)); err != nil {
		t.Fatal(err)
	}
	res, err := search.Func(context.Background(), json.RawMessage(in))
	if err != nil || res != nil {
		t.Fatalf("Func = %v, %v", res, err)
	}
	if got.Query != "go" || got.Limit != 5 || !got.Since.Equal(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)) ||
		time.Duration(got.Every) != 90*time.Minute || got.Filter == nil || strings.Join(got.Filter.Tags, ",") != "a,b" {
		t.Errorf("decoded %+v", got)
	}

	for _, tt := range []struct {
		name, input string
		validate    string // ValidateInput's text
		decode      string // the typed Func's own text, without validation
	}{
		{"unknown field", `{"query":"go","bogus":1}`,
			"at '': additional properties 'bogus' not allowed", "at '': unknown field 'bogus'"},
		{"unknown nested field", `{"query":"go","filter":{"tags":[],"color":"red"}}`,
			"at '/filter': additional properties 'color' not allowed", "at '/filter': unknown field 'color'"},
		{"wrong type", `{"query":5}`,
			"at '/query': got number, want string", "at '/query': cannot decode number as string"},
		{"wrong element type", `{"query":"go","filter":{"tags":["a",2]}}`,
			"at '/filter/tags/1': got number, want string", "at '/filter/tags/1': cannot decode number as string"},
		{"out of the Go type's range", `{"query":"go","limit":300}`,
			"at '/limit': cannot decode number 300 as int8", "at '/limit': cannot decode number 300 as int8"},
		{"not a date-time", `{"query":"go","since":"yesterday"}`,
			`at '/since': parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`,
			`at '/since': parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`},
		{"not a duration", `{"query":"go","every":"soon"}`,
			`at '/every': invalid duration 'soon': want a string such as "1h30m" or "250ms"`,
			`at '/every': invalid duration 'soon': want a string such as "1h30m" or "250ms"`},
		{"empty input is {}", ``,
			"at '': missing property 'query'", ""},
		{"trailing data", `{"query":"go"} {}`,
			"at '': invalid JSON: invalid character after top-level value", "at '': unexpected data after the top-level value"},
	} {
		err := n.ValidateInput(json.RawMessage(tt.input))
		if err == nil || err.Error() != tt.validate {
			t.Errorf("%s: ValidateInput = %v\nwant %s", tt.name, err, tt.validate)
		}
		_, err = search.Func(context.Background(), json.RawMessage(tt.input))
		if tt.decode == "" {
			if err != nil {
				t.Errorf("%s: Func = %v", tt.name, err)
			}
			continue
		}
		var ve *ValidationError
		if !errors.As(err, &ve) || err.Error() != tt.decode {
			t.Errorf("%s: Func = %v\nwant %s", tt.name, err, tt.decode)
		}
	}
}

type owner struct {
	Name string `json:"name"`
}

type repo struct {
	Name   string   `json:"name"`
	Owner  *owner   `json:"owner"`
	Admin  *owner   `json:"admin,omitempty" jsonschema:"required"`
	Topics []string `json:"topics"`
}

func TestOutputValidation(t *testing.T) {
	var result *repo
	get := Func("Get a repository", func(context.Context, Void) (*repo, error) { return result, nil })
	raw := &Tool{Func: fn, Output: json.RawMessage(`{"type":"object"}`)}
	tree, err := New(map[string]any{"repos.get": get, "raw": raw, "void": Func("", func(context.Context, Void) (Void, error) { return Void{}, nil })})
	if err != nil {
		t.Fatal(err)
	}
	if raw.ValidateOutputs {
		t.Error("a raw tool validates its outputs by default")
	}
	n := tree.Lookup([]string{"repos", "get"})
	check := func(r *repo) string {
		result = r
		res, err := get.Func(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		out, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		if err := n.ValidateOutput(out); err != nil {
			return err.Error()
		}
		return ""
	}
	for _, tt := range []struct {
		name string
		repo *repo
		want string
	}{
		// A nil *repo marshals to null, and the Output schema is an object.
		{"nil pointer where an object is required", nil, "at '': got null, want object"},
		// A nil pointer without omitempty is null, which the schema allows.
		{"nil pointer field, nullable", &repo{Name: "x", Admin: &owner{}}, ""},
		// omitempty drops a nil pointer, which `jsonschema:"required"` forbids.
		{"nil pointer field, omitempty and required", &repo{Name: "x", Owner: &owner{}}, "at '': missing property 'admin'"},
		{"nil slice is null, which the schema allows", &repo{Name: "x", Admin: &owner{}, Topics: nil}, ""},
	} {
		if got := check(tt.repo); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	if v := tree.Lookup([]string{"void"}); v.Tool.Output != nil || v.ValidateOutput(json.RawMessage(`"anything"`)) != nil {
		t.Error("a Void tool has an output schema")
	}
	if res, err := tree.Lookup([]string{"void"}).Tool.Func(context.Background(), nil); res != nil || err != nil {
		t.Errorf("a Void tool returned %v, %v", res, err)
	}
}

type panicky struct{}

func (*panicky) UnmarshalJSON([]byte) error { panic("boom") }

func TestDecodingPanicIsAFailure(t *testing.T) {
	tool := Func("", func(context.Context, struct {
		P panicky `json:"p"`
	}) (Void, error) {
		return Void{}, nil
	})
	tree, err := New(map[string]any{"p": tool})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(tool.InputForModel()); got != `{"properties":{"p":true},"additionalProperties":false,"type":"object","required":["p"]}` {
		t.Errorf("a type with its own UnmarshalJSON: %s", got)
	}
	if err := tree.Lookup([]string{"p"}).ValidateInput(json.RawMessage(`{"p":1}`)); err == nil || err.Error() != "at '': decoding panicked: boom" {
		t.Errorf("ValidateInput = %v", err)
	}
}
