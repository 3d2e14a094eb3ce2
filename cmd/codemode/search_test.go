package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools/demo"
)

// searchPage is search's result.
type searchPage struct {
	Items []struct {
		Path, Description, Signature string
	}
	Remaining int
	Next      *struct{ Offset int }
}

func (p searchPage) paths() string {
	var out []string
	for _, it := range p.Items {
		out = append(out, it.Path)
	}
	return strings.Join(out, " ")
}

func TestSearch(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		paths     string
		remaining int
		next      int // -1: null
	}{
		{"ranked, one page", []string{"customer", "--limit", "2"}, "tools.demo.getCustomer tools.demo.listCustomers", 7, 2},
		{"flags first", []string{"--limit", "2", "--offset", "2", "customer"}, "tools.demo.listOrders tools.demo.restock", 5, 4}, // equal scores: the shorter path first,
		{"exact path", []string{"demo.getOrder"}, "tools.demo.getOrder", 0, -1},
		{"exact expression", []string{"tools.demo.restock"}, "tools.demo.restock", 0, -1},
		{"no query lists all", nil, "tools.demo.getCustomer tools.demo.getInventory tools.demo.getOrder tools.demo.listCustomers tools.demo.listInventory tools.demo.listOrders tools.demo.restock tools.demo.searchProducts tools.demo.updateOrderStatus", 0, -1},
		{"empty query, paged", []string{"", "--limit", "4", "--offset", "4"}, "tools.demo.listInventory tools.demo.listOrders tools.demo.restock tools.demo.searchProducts", 1, 8},
		{"namespace", []string{"--namespace", "tools.demo", "stock", "--limit", "1"}, "tools.demo.restock", 2, 1},
		{"other namespace", []string{"stock", "--namespace", "crm"}, "", 0, -1},
		{"no match", []string{"zebra"}, "", 0, -1},
		{"after --", []string{"--limit", "1", "--", "--limit"}, "tools.demo.listCustomers", 1, 1},
		{"manifest", []string{"--tools", "testdata/tools.json", "fails"}, "tools.util.fail", 0, -1},
	}
	for _, tt := range tests {
		status, out, errOut := runCLI(t, append([]string{"search"}, tt.args...), "")
		var page searchPage
		if status != 0 || errOut != "" || json.Unmarshal([]byte(out), &page) != nil {
			t.Errorf("%s: status %d, stdout %s, stderr %q", tt.name, status, out, errOut)
			continue
		}
		next := -1
		if page.Next != nil {
			next = page.Next.Offset
		}
		if page.paths() != tt.paths || page.Remaining != tt.remaining || next != tt.next {
			t.Errorf("%s: got %q remaining %d next %d\nwant %q remaining %d next %d", tt.name, page.paths(), page.Remaining, next, tt.paths, tt.remaining, tt.next)
		}
	}
}

// TestSearchIsTheProgramsSearch checks that the command prints exactly
// the value a program gets from search.
func TestSearchIsTheProgramsSearch(t *testing.T) {
	rt, err := codemode.New(codemode.Options{Tools: demo.Tools()})
	if err != nil {
		t.Fatal(err)
	}
	res := rt.Execute(context.Background(), `return search({query: "order status", limit: 3})`)
	status, out, _ := runCLI(t, []string{"search", "order status", "--limit", "3"}, "")
	if status != 0 || out != string(res.Value) {
		t.Errorf("status %d\n--- got\n%s\n--- want\n%s", status, out, res.Value)
	}
	if strings.Contains(out, `\u003c`) || !strings.Contains(out, `"signature":"tools.demo.updateOrderStatus({\n`) {
		t.Errorf("signatures should be in the JSON unescaped: %.300s", out)
	}
	status, out, _ = runCLI(t, []string{"search", "--pretty", "order status", "--limit", "3"}, "")
	var want, got any
	if status != 0 || !strings.HasPrefix(out, "{\n  \"items\": [\n") || json.Unmarshal([]byte(out), &got) != nil || json.Unmarshal(res.Value, &want) != nil {
		t.Fatalf("--pretty: status %d: %s", status, out)
	}
	if g, _ := json.Marshal(got); string(g) != func() string { w, _ := json.Marshal(want); return string(w) }() {
		t.Errorf("--pretty changed the value:\n%s", out)
	}
}

func TestSearchUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"search", "--limit", "0", "x"}, `invalid value "0" for flag -limit: a whole number, 1 or more`},
		{[]string{"search", "--limit", "ten"}, `invalid value "ten" for flag -limit`},
		{[]string{"search", "x", "--offset", "-1"}, `invalid value "-1" for flag -offset: a whole number, 0 or more`},
		{[]string{"search", "list", "orders"}, "one query at a time (got 2 arguments: list orders); quote a query of several words"},
		{[]string{"search", "--nope"}, "flag provided but not defined: -nope"},
		{[]string{"search", "--namespace"}, "flag needs an argument: -namespace"},
		{[]string{"search", "--tools", "testdata/bad-tools.json", "x"}, `--tools: manifest testdata/bad-tools.json: tool 1 (util.broken): "argv" is missing`},
	}
	for _, tt := range tests {
		status, out, errOut := runCLI(t, tt.args, "")
		if status != 2 || out != "" || !strings.Contains(errOut, tt.msg) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tt.args, status, out, errOut, tt.msg)
		}
	}
	status, out, _ := runCLI(t, []string{"search", "-h"}, "")
	if status != 0 || !strings.HasPrefix(out, "usage: codemode search") {
		t.Errorf("-h: status %d: %s", status, out)
	}
}

func TestParseInterspersed(t *testing.T) {
	for _, tt := range []struct {
		args []string
		pos  string
	}{
		{[]string{"a", "--n", "1", "b"}, "a|b"},
		{[]string{"--n", "1"}, ""},
		{[]string{"--", "--n", "x"}, "--n|x"},
		{[]string{"a", "--", "--n"}, "a|--n"},
	} {
		fs := newTestFlags()
		pos, err := parseInterspersed(fs, tt.args)
		if err != nil || strings.Join(pos, "|") != tt.pos {
			t.Errorf("%q: %q, %v; want %q", tt.args, pos, err, tt.pos)
		}
	}
}

func newTestFlags() *flag.FlagSet {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Int("n", 0, "")
	return fs
}
