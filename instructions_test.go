package codemode_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/catalog"
	"github.com/go-codemode/codemode/tools"
	"github.com/go-codemode/codemode/tools/demo"
)

// instructionTools is the demo shop plus a nested namespace with a
// description and a tool at the top level.
func instructionTools() map[string]any {
	def := demo.Tools()
	noop := func(context.Context, json.RawMessage) (any, error) { return "pong", nil }
	def["ops"] = &tools.Namespace{Description: "Operations.", Tools: map[string]any{
		"admin": &tools.Namespace{Description: "Only for owners.", Tools: map[string]any{
			"reset": &tools.Tool{Description: "Reset the shop.", Func: noop},
		}},
	}}
	def["ping"] = &tools.Tool{Description: "Check the service.", Output: json.RawMessage(`{"type":"string"}`), Func: noop}
	return def
}

func TestRuntimeInstructions(t *testing.T) {
	fetch := codemode.AsyncHostFunc(func(context.Context, []any) (any, error) { return nil, nil })
	rt, err := codemode.New(codemode.Options{
		Tools:      instructionTools(),
		Limits:     codemode.Limits{Timeout: 10 * time.Second, MaxToolCalls: codemode.Max(5), MaxOutputBytes: codemode.Max(4096), MaxMemoryBytes: 64 << 20},
		Extensions: []codemode.Extension{{Name: "web", Globals: map[string]any{"fetch": fetch}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := rt.Instructions(0)

	// It is catalog.Instructions of the Runtime's catalog, namespaces,
	// limits and globals.
	in := catalog.InstructionsInput{
		Namespaces: map[string]string{
			"demo":      "A demo shop: customers, their orders, and the product inventory.",
			"ops":       "Operations.",
			"ops.admin": "Only for owners.",
		},
		Limits:  catalog.RunLimits{Timeout: 10 * time.Second, MaxToolCalls: codemode.Max(5), MaxOutputBytes: codemode.Max(4096), MaxMemoryBytes: 64 << 20},
		Search:  true,
		Globals: []string{"fetch"},
	}
	for _, e := range rt.Catalog() {
		in.Tools = append(in.Tools, catalog.Entry(e))
		if !strings.Contains(got, e.Signature) {
			t.Errorf("signature of %s missing", e.Path)
		}
	}
	if want := catalog.Instructions(in); got != want {
		t.Errorf("--- got\n%s\n--- want\n%s", got, want)
	}
	for _, want := range []string{
		"// tools.demo: A demo shop",
		"// tools.ops: Operations.\n\n// tools.ops.admin: Only for owners.\n\n/** Reset the shop. */\ntools.ops.admin.reset(): Promise<void>",
		"Limits: the program may run for 10 seconds, make at most 5 tool calls (search included) and allocate 64 MiB of memory. The result value and the logs together are cut at 4 KiB",
		"The host adds these globals: fetch.",
		catalog.SearchSignature(),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}

	// Budgets: the index, then the summary.
	index := rt.Instructions(utf8.RuneCountInString(got) - 1)
	if !strings.Contains(index, "Tools: 11, too many to show their signatures here.") || !strings.Contains(index, "\ntools.demo.getCustomer: Get one customer by id.") {
		t.Errorf("index:\n%s", index)
	}
	summary := rt.Instructions(utf8.RuneCountInString(index) - 1)
	if !strings.Contains(summary, "- tools.demo (9 tools): A demo shop") || !strings.Contains(summary, "  - tools.ops.admin (1 tool): Only for owners.") {
		t.Errorf("summary:\n%s", summary)
	}
}

// TestInstructionsAdvice runs what the instructions tell a model to
// write: the exact-path search for a signature, and a call.
func TestInstructionsAdvice(t *testing.T) {
	rt, err := codemode.New(codemode.Options{Tools: demo.Tools()})
	if err != nil {
		t.Fatal(err)
	}
	index := rt.Instructions(utf8.RuneCountInString(rt.Instructions(0)) - 1)
	const lookup = "search({ query: \"demo.getCustomer\" }).items[0].signature"
	if !strings.Contains(index, lookup) {
		t.Fatalf("the index does not say %s:\n%s", lookup, index)
	}
	res := rt.Execute(context.Background(), "return "+lookup)
	var sig string
	if !res.OK || json.Unmarshal(res.Value, &sig) != nil || sig != rt.Catalog()[0].Signature {
		t.Errorf("got %s, want the signature %s", res, rt.Catalog()[0].Signature)
	}
	res = rt.Execute(context.Background(), "const r = await tools.demo.getCustomer({ id: 1 })\nconsole.log(r.name)\nr.tier")
	if got := fmt.Sprint(res); got != `{"ok":true,"value":"gold","logs":["Ada Lovelace"],"toolCalls":[{"name":"demo.getCustomer"}]}` {
		t.Errorf("got %s", got)
	}
}

func TestInstructionsNoTools(t *testing.T) {
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := rt.Instructions(0)
	if !strings.Contains(got, "There are no tools") || strings.Contains(got, "search") || strings.Contains(got, "Limits") {
		t.Errorf("no tools, no limits:\n%s", got)
	}
}
