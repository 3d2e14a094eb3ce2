package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/go-codemode/codemode/openapi"
)

// The OpenAPI descriptions in ../../shared/data/openapi (the shared data
// folder beside the checkout) give real, large schemas. A test that needs
// one skips where the folder is absent.

var openAPICache sync.Map // file name → *yaml.Node; read-only after loading

// loadOpenAPI parses one of the shared OpenAPI files, once per test binary.
func loadOpenAPI(t testing.TB, name string) *yaml.Node {
	t.Helper()
	if n, ok := openAPICache.Load(name); ok {
		return n.(*yaml.Node)
	}
	path := filepath.Join("..", "..", "shared", "data", "openapi", name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("shared OpenAPI data not available (%v); it lives beside the checkout in CI", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	root := doc.Content[0]
	openAPICache.Store(name, root)
	return root
}

// child returns a mapping's value for key, or nil.
func child(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

const componentRef = "#/components/schemas/"

// componentSchema extracts components.schemas[name] as a standalone JSON
// Schema, the way an OpenAPI adapter would hand it to the renderer: every
// component it reaches goes into $defs, and "#/components/schemas/X"
// becomes "#/$defs/X". Key order is kept.
func componentSchema(t testing.TB, spec *yaml.Node, name string) json.RawMessage {
	t.Helper()
	schemas := child(child(spec, "components"), "schemas")
	if child(schemas, name) == nil {
		t.Fatalf("no component %s", name)
	}
	seen := map[string]bool{}
	var order []string
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil {
			return
		}
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == "$ref" && strings.HasPrefix(n.Content[i+1].Value, componentRef) {
					ref := strings.TrimPrefix(n.Content[i+1].Value, componentRef)
					if !seen[ref] {
						seen[ref] = true
						order = append(order, ref)
						walk(child(schemas, ref))
					}
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(child(schemas, name))
	var b strings.Builder
	root := child(schemas, name)
	writeYAMLJSON(t, &b, root, func(*strings.Builder) {
		sort.Strings(order)
		b.WriteString(`,"$defs":{`)
		for i, ref := range order {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(ref)
			b.Write(k)
			b.WriteByte(':')
			writeYAMLJSON(t, &b, child(schemas, ref), nil)
		}
		b.WriteByte('}')
	})
	out := json.RawMessage(b.String())
	if !json.Valid(out) {
		t.Fatalf("component %s did not convert to valid JSON", name)
	}
	return out
}

// writeYAMLJSON writes a YAML node as JSON, keeping mapping order and
// rewriting component refs; extra, if set, writes more members into the
// top mapping.
func writeYAMLJSON(t testing.TB, b *strings.Builder, n *yaml.Node, extra func(*strings.Builder)) {
	switch n.Kind {
	case yaml.AliasNode:
		writeYAMLJSON(t, b, n.Alias, extra)
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(n.Content[i].Value)
			b.Write(k)
			b.WriteByte(':')
			v := n.Content[i+1]
			if n.Content[i].Value == "$ref" && strings.HasPrefix(v.Value, componentRef) {
				r, _ := json.Marshal("#/$defs/" + strings.TrimPrefix(v.Value, componentRef))
				b.Write(r)
				continue
			}
			writeYAMLJSON(t, b, v, nil)
		}
		if extra != nil {
			extra(b)
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			writeYAMLJSON(t, b, c, nil)
		}
		b.WriteByte(']')
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			t.Fatal(err)
		}
		j, err := json.Marshal(v)
		if err != nil {
			j, _ = json.Marshal(n.Value)
		}
		b.Write(j)
	}
}

// TestOpenAPIPetstore renders the Petstore's components (OpenAPI 3.0, with
// component refs) and checks the Pet model as a model would read it.
func TestOpenAPIPetstore(t *testing.T) {
	spec := loadOpenAPI(t, "petstore3.yaml")
	want := `{
  /** @format int64 @integer */
  id?: number,
  name: string,
  category?: {
    /** @format int64 @integer */
    id?: number,
    name?: string,
  },
  photoUrls: Array<string>,
  tags?: Array<{
      /** @format int64 @integer */
      id?: number,
      name?: string,
    }>,
  /** pet status in the store */
  status?: "available" | "pending" | "sold",
}`
	if got := Render(componentSchema(t, spec, "Pet"), Options{}); got != want {
		t.Errorf("Pet:\n%s", got)
	}
}

// TestOpenAPICreateResponse renders OpenAI's createResponse as the OpenAPI
// adapter builds it: its body is an allOf whose members reach cycles (the
// input items), which used to make the whole body unknown.
func TestOpenAPICreateResponse(t *testing.T) {
	path := filepath.Join("..", "..", "shared", "data", "openapi", "openai.yaml")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("shared OpenAPI data not available (%v)", err)
	}
	api, err := openapi.LoadFile(path, openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range api.Tools {
		if tool.Name != "createResponse" {
			continue
		}
		got := SignatureWithOptions([]string{tool.Name}, tool.Tool.Input, tool.Tool.Output, Options{})
		for _, want := range []string{"\n      model?: string", "\n      input?: string | Array<", "\n      stream?: boolean"} {
			if !strings.Contains(got, want) {
				t.Errorf("createResponse lacks %q; it begins:\n%.600s", want, got)
			}
		}
		if strings.Contains(got, "body: unknown") {
			t.Errorf("createResponse's body renders unknown")
		}
		return
	}
	t.Fatal("no createResponse tool in openai.yaml")
}

// TestOpenAPISummaryRepresentatives checks the summary of OpenAI's 277
// tools: the tools it names are listings and reads, not the first ones by
// name (Cancel*, Compact*, Create*...).
func TestOpenAPISummaryRepresentatives(t *testing.T) {
	path := filepath.Join("..", "..", "shared", "data", "openapi", "openai.yaml")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("shared OpenAPI data not available (%v)", err)
	}
	api, err := openapi.LoadFile(path, openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var entries []Entry
	for _, tool := range api.Tools {
		entries = append(entries, Entry{Path: "openai." + tool.Name, Description: tool.Tool.Description})
	}
	text := Instructions(InstructionsInput{Tools: entries, Search: true, MaxChars: 8000})
	i := strings.Index(text, "\n- tools.openai (")
	if i < 0 {
		t.Fatalf("no summary line for tools.openai:\n%s", text)
	}
	line, _, _ := strings.Cut(text[i+1:], "\n")
	_, names, _ := strings.Cut(line, "): ")
	shown := strings.Split(strings.TrimSuffix(names, ", …"), ", ")
	if len(shown) < 3 {
		t.Fatalf("summary names %d tools: %s", len(shown), line)
	}
	for _, name := range shown[:3] {
		verb, _ := splitVerb(strings.TrimPrefix(name, "tools.openai."))
		if verbClass(verb) > 1 {
			t.Errorf("summary names %s among its first tools, not a listing or read: %s", name, line)
		}
	}
}
