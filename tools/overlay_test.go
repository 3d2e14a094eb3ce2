package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"
)

func paths(ns []*Node) string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Path)
	}
	return strings.Join(out, " ")
}

func baseTree(t *testing.T) *Tree {
	t.Helper()
	tree, err := New(map[string]any{
		"crm": &Namespace{Description: "The CRM", Tools: map[string]any{
			"getCustomer":  &Tool{Description: "Get a customer by id", Func: fn, Input: json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"}}}`)},
			"listInvoices": &Tool{Description: "List a customer's invoices", Func: fn},
		}},
		"mail.send": &Tool{Description: "Send an email", Func: fn},
		"a":         &Tool{Description: "a tool that is also a namespace", Func: fn},
		"a.b":       &Tool{Func: fn},
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func TestOverlayShapes(t *testing.T) {
	base := baseTree(t)
	replaced := &Tool{Description: "Send an email as the user", Func: fn}
	over, err := base.Overlay(map[string]any{
		"crm":       map[string]any{"updateCustomer": &Tool{Description: "Update a customer", Func: fn}},
		"mail.send": replaced,
		"a.c":       &Tool{Func: fn},
		"files":     &Namespace{Description: "The user's files", Tools: map[string]any{"read": &Tool{Func: fn}}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := paths(over.Tools()), "a a.b a.c crm.getCustomer crm.listInvoices crm.updateCustomer files.read mail.send"; got != want {
		t.Errorf("overlay tools:\n got %s\nwant %s", got, want)
	}
	if over.Len() != 8 {
		t.Errorf("Len = %d", over.Len())
	}
	if got, want := paths(base.Tools()), "a a.b crm.getCustomer crm.listInvoices mail.send"; got != want {
		t.Errorf("the base changed: %s", got)
	}
	if base.Lookup([]string{"crm", "updateCustomer"}) != nil {
		t.Error("the base sees the overlay's tool")
	}
	if n := over.Lookup([]string{"mail", "send"}); n == nil || n.Tool != replaced {
		t.Errorf("mail.send is not the overlay's: %+v", n)
	}
	if n := over.Lookup([]string{"crm"}); n == nil || n.Description != "The CRM" {
		t.Errorf("crm lost the base's description: %+v", n)
	}
	if n := over.Lookup([]string{"a"}); n == nil || n.Tool == nil || n.Child("b") == nil || n.Child("c") == nil {
		t.Errorf("a is no longer a tool with two children: %+v", n)
	}
	// The base's nodes, and their compiled schemas, are shared.
	if over.Lookup([]string{"crm", "getCustomer"}) != base.Lookup([]string{"crm", "getCustomer"}) {
		t.Error("crm.getCustomer was copied")
	}
}

func TestOverlayRanksAsOneTree(t *testing.T) {
	baseDef := map[string]any{
		"crm.getCustomer":    &Tool{Description: "Get a customer", Func: fn},
		"crm.listInvoices":   &Tool{Description: "List invoices of a customer", Func: fn},
		"crm.deleteCustomer": &Tool{Description: "Delete a customer", Func: fn},
		"mail.send":          &Tool{Description: "Send an email to a customer", Func: fn},
	}
	overDef := map[string]any{
		"crm.findCustomer":   &Tool{Description: "Find customers by name", Func: fn},
		"crm.deleteCustomer": &Tool{Description: "Archive a customer", Func: fn},
		"customer":           &Tool{Description: "The current customer", Func: fn},
	}
	base, err := New(baseDef)
	if err != nil {
		t.Fatal(err)
	}
	over, err := base.Overlay(overDef, nil)
	if err != nil {
		t.Fatal(err)
	}
	merged := maps.Clone(baseDef)
	maps.Copy(merged, overDef)
	whole, err := New(merged)
	if err != nil {
		t.Fatal(err)
	}
	render := func(ss []Scored) string {
		var out []string
		for _, s := range ss {
			out = append(out, fmt.Sprintf("%s=%d", s.Node.Path, s.Score))
		}
		return strings.Join(out, " ")
	}
	for _, q := range []string{"customer", "delete customer", "invoice", "archive", "", "email", "nothing"} {
		for _, scope := range []string{"", "crm"} {
			if got, want := render(over.Rank(q, scope)), render(whole.Rank(q, scope)); got != want {
				t.Errorf("Rank(%q, %q):\n overlay %s\n   whole %s", q, scope, got, want)
			}
		}
	}
	if n, ok := over.Closest([]string{"crm", "findCustomers"}); !ok || n.Path != "crm.findCustomer" {
		t.Errorf("Closest = %v, %v", n, ok)
	}
}

func TestOverlayCompilesOnFirstUse(t *testing.T) {
	base := baseTree(t)
	bad := &Tool{Func: fn, Input: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string","pattern":"("}}}`)}
	over, err := base.Overlay(map[string]any{"search.bad": bad}, nil)
	if err != nil {
		t.Fatalf("Overlay compiled eagerly: %v", err)
	}
	n := over.Lookup([]string{"search", "bad"})
	err = n.Prepare()
	const want = `tools: tool "search.bad": input schema: not a valid JSON Schema: at '/properties/q/pattern'`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("Prepare = %v, want %s...", err, want)
	}
	var ve *ValidationError
	if err := n.ValidateInput(json.RawMessage(`{"q":"x"}`)); err == nil || errors.As(err, &ve) {
		t.Errorf("ValidateInput of an uncompilable tool = %v (a *ValidationError: %v)", err, ve != nil)
	}
	// A base tool needs no preparing.
	if err := base.Lookup([]string{"crm", "getCustomer"}).Prepare(); err != nil {
		t.Error(err)
	}
}

func TestOverlayValidates(t *testing.T) {
	over, err := baseTree(t).Overlay(map[string]any{
		"crm.tag": &Tool{Func: fn, Input: json.RawMessage(`{"type":"object","properties":{"tag":{"type":"string"}},"required":["tag"]}`)},
	}, NewSchemaCache(8))
	if err != nil {
		t.Fatal(err)
	}
	n := over.Lookup([]string{"crm", "tag"})
	if err := n.ValidateInput(json.RawMessage(`{"tag":"vip"}`)); err != nil {
		t.Errorf("valid input: %v", err)
	}
	var ve *ValidationError
	if err := n.ValidateInput(json.RawMessage(`{}`)); !errors.As(err, &ve) {
		t.Errorf("missing tag: %v", err)
	}
}

func TestSchemaCacheSharesBySchema(t *testing.T) {
	base := baseTree(t)
	cache := NewSchemaCache(2)
	schema := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)
	for user := range 3 {
		// Each user's tools have their own Func and paths, the same schema.
		over, err := base.Overlay(map[string]any{fmt.Sprintf("u%d.read", user): &Tool{Func: fn, Input: schema}}, cache)
		if err != nil {
			t.Fatal(err)
		}
		if err := over.Lookup([]string{fmt.Sprintf("u%d", user), "read"}).Prepare(); err != nil {
			t.Fatal(err)
		}
	}
	if cache.Len() != 1 {
		t.Errorf("cache holds %d schemas, want 1", cache.Len())
	}
	for i := range 3 {
		over, _ := base.Overlay(map[string]any{"x": &Tool{Func: fn, Input: json.RawMessage(fmt.Sprintf(`{"maxLength":%d}`, i))}}, cache)
		if err := over.Lookup([]string{"x"}).Prepare(); err != nil {
			t.Fatal(err)
		}
	}
	if cache.Len() != 2 {
		t.Errorf("cache holds %d schemas, want its bound 2", cache.Len())
	}
}

func TestOverlayErrors(t *testing.T) {
	base := baseTree(t)
	for _, tt := range []struct {
		def  map[string]any
		want string
	}{
		{map[string]any{"a..b": &Tool{Func: fn}}, "Tool name 'a..b' contains an empty segment."},
		{map[string]any{"x": &Tool{}}, `tools: tool "x" has no Func`},
		{map[string]any{"crm": 5}, `tools: "crm" is a int`},
	} {
		if _, err := base.Overlay(tt.def, nil); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%v: err = %v, want %q", tt.def, err, tt.want)
		}
	}
}
