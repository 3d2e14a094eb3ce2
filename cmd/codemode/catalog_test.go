package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools/demo"
)

// demoRuntime is a Runtime over the demo tools with run's default limits.
func demoRuntime(t *testing.T) *codemode.Runtime {
	t.Helper()
	rt, err := codemode.New(codemode.Options{Tools: demo.Tools(), Limits: codemode.Limits{Timeout: 30 * time.Second, MaxMemoryBytes: defaultMaxMemory}})
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

func TestCatalog(t *testing.T) {
	rt := demoRuntime(t)
	entries := rt.Catalog()

	// text: every signature, its description as a comment above it.
	status, out, errOut := runCLI(t, []string{"catalog"}, "")
	if status != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	if !strings.HasPrefix(out, "/** Get one customer by id. */\ntools.demo.getCustomer({\n") {
		t.Errorf("text starts %q", out[:min(len(out), 80)])
	}
	for _, e := range entries {
		if !strings.Contains(out+"\n", "/** "+e.Description+" */\n"+e.Signature+"\n") {
			t.Errorf("text lacks %s", e.Path)
		}
	}
	if n := strings.Count(out, "\n\n/** "); n != len(entries)-1 {
		t.Errorf("%d tools separated by blank lines, want %d", n+1, len(entries))
	}

	// json: the catalog.
	status, out, _ = runCLI(t, []string{"catalog", "--format", "json"}, "")
	var got []codemode.CatalogEntry
	if status != 0 || json.Unmarshal([]byte(out), &got) != nil || len(got) != len(entries) {
		t.Fatalf("json: status %d: %s", status, out)
	}
	for i := range got {
		if got[i] != entries[i] {
			t.Errorf("json entry %d: %+v, want %+v", i, got[i], entries[i])
		}
	}
	if strings.Contains(out, `\u003c`) || strings.Count(out, "\n") != 0 {
		t.Errorf("json should be one line without HTML escapes: %.200s", out)
	}

	// instructions: the Runtime's, with run's default limits.
	status, out, _ = runCLI(t, []string{"catalog", "--format", "instructions"}, "")
	if want := rt.Instructions(0); status != 0 || out != want {
		t.Errorf("instructions: status %d\n--- got\n%s\n--- want\n%s", status, out, want)
	}
	if !strings.Contains(out, "Limits: the program may run for 30 seconds and allocate 256 MiB of memory.") {
		t.Errorf("instructions do not state run's default limits:\n%s", out)
	}
	status, out, _ = runCLI(t, []string{"catalog", "--budget", "3000", "--format", "instructions"}, "")
	if status != 0 || out != rt.Instructions(3000) || utf8.RuneCountInString(out) > 3000 || !strings.Contains(out, "- tools.demo (9 tools)") {
		t.Errorf("instructions within 3000 characters: status %d\n%s", status, out)
	}

	// A manifest instead of the demo tools.
	status, out, _ = runCLI(t, []string{"catalog", "--tools", "testdata/tools.json"}, "")
	if status != 0 || !strings.HasPrefix(out, "/** Return the input */\ntools.util.echo(): Promise<{}>\n\n/** Always fails */\ntools.util.fail(): Promise<{}>") {
		t.Errorf("manifest: status %d\n%s", status, out)
	}
}

func TestCatalogUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"catalog", "--format", "xml"}, `invalid value "xml" for flag -format: text, json or instructions`},
		{[]string{"catalog", "--budget", "500"}, "--budget applies to --format instructions only"},
		{[]string{"catalog", "--format", "instructions", "--budget", "-1"}, `invalid value "-1" for flag -budget`},
		{[]string{"catalog", "--format", "instructions", "--budget", "lots"}, `invalid value "lots" for flag -budget`},
		{[]string{"catalog", "demo"}, "unexpected arguments: demo"},
		{[]string{"catalog", "--nope"}, "flag provided but not defined: -nope"},
		{[]string{"catalog", "--tools", "testdata/does-not-exist.json"}, "--tools: "},
		{[]string{"catalog", "--tools", "testdata/bad-tools.json"}, "--tools: manifest"},
	}
	for _, tt := range tests {
		status, out, errOut := runCLI(t, tt.args, "")
		if status != 2 || out != "" || !strings.Contains(errOut, tt.msg) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tt.args, status, out, errOut, tt.msg)
		}
	}
	status, out, _ := runCLI(t, []string{"catalog", "-h"}, "")
	if status != 0 || !strings.HasPrefix(out, "usage: codemode catalog") {
		t.Errorf("-h: status %d: %s", status, out)
	}
}

func TestDocComment(t *testing.T) {
	for desc, want := range map[string]string{
		"":                         "",
		"  One line.  ":            "/** One line. */\n",
		"Ends */ early":            "/** Ends * / early */\n",
		"First.\n\nThird.  \n":     "/**\n * First.\n *\n * Third.\n */\n",
		"List issues.\nPaginated.": "/**\n * List issues.\n * Paginated.\n */\n",
	} {
		if got := docComment(desc); got != want {
			t.Errorf("docComment(%q) = %q, want %q", desc, got, want)
		}
	}
}

func TestCatalogYAMLOrder(t *testing.T) {
	status, out, errOut := runCLI(t, []string{"catalog", "--tools", "testdata/order.yaml"}, "")
	want := "/** Echo the input */\ntools.util.order({\n  z: string,\n  /** @integer */\n  a?: number,\n  m?: boolean,\n}): Promise<{}>"
	if status != 0 || errOut != "" || out != want {
		t.Errorf("status %d, stderr %q, output\n%s\nwant\n%s", status, errOut, out, want)
	}
}
