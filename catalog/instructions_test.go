package catalog

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// entry renders a catalog entry the way the runtime does.
func entry(path, desc, input, output string) Entry {
	var in, out json.RawMessage
	if input != "" {
		in = json.RawMessage(input)
	}
	if output != "" {
		out = json.RawMessage(output)
	}
	return Entry{Path: path, Description: desc, Signature: Signature(strings.Split(path, "."), in, out)}
}

// smallCatalog is a handful of tools: namespaces with and without
// descriptions, a nested one, a name that needs brackets, a tool at the
// top level without input, a multi-line description.
func smallCatalog() InstructionsInput {
	return InstructionsInput{
		Tools: []Entry{
			entry("weather.current", "Current temperature of a city, in Celsius.",
				`{"type":"object","properties":{"city":{"type":"string","description":"City name"}},"required":["city"]}`,
				`{"type":"object","properties":{"celsius":{"type":"number"}},"required":["celsius"]}`),
			entry("ping", "Check that the service answers.", "", `{"type":"string"}`),
			entry("docs.resolve-library-id", "Find a library's documentation id.",
				`{"type":"object","properties":{"libraryName":{"type":"string"}},"required":["libraryName"]}`,
				`{"type":"string"}`),
			entry("github.issues.list", "List a repository's issues.\nClosed issues are left out unless state is \"closed\".",
				`{"type":"object","properties":{"repo":{"type":"string","description":"owner/name"},"state":{"enum":["open","closed"]}},"required":["repo"]}`,
				`{"type":"array","items":{"type":"object","properties":{"number":{"type":"integer"},"title":{"type":"string"}},"required":["number","title"]}}`),
			entry("github.repos.get", "Get a repository.",
				`{"type":"object","properties":{"repo":{"type":"string"}},"required":["repo"]}`, ""),
		},
		Namespaces: map[string]string{
			"github":        "GitHub: repositories and their issues.",
			"github.issues": "Issues, open and closed.",
			"weather":       "Weather observations.",
		},
		Search: true,
	}
}

// largeCatalog is 300 tools in ten namespaces, two of them with a
// described sub-namespace.
func largeCatalog() InstructionsInput {
	spaces := []struct{ name, desc string }{
		{"calendar", "Calendars, events and invitations."},
		{"crm", "Customers, contacts, deals and the sales pipeline of the CRM."},
		{"drive", "Files and folders in the shared drive, with their permissions."},
		{"github", "GitHub: repositories, issues, pull requests, releases and the people who work on them."},
		{"jira", ""},
		{"mail", "Send, read and organise email."},
		{"slack", "Slack channels, messages and users."},
		{"stripe", "Payments, customers, invoices and subscriptions in Stripe."},
		{"support", "The help desk: tickets, macros and satisfaction ratings."},
		{"warehouse", "Stock levels, shipments and purchase orders."},
	}
	nouns := []string{"Task", "Record", "Comment", "Label", "Note", "Setting"}
	verbs := []struct{ verb, desc, input string }{
		{"list", "List %ss, newest first, a page at a time.", `{"type":"object","properties":{"limit":{"type":"integer","minimum":1,"maximum":100,"description":"Results per page"},"cursor":{"type":"string","description":"From the previous page's next"}}}`},
		{"get", "Get one %s by id.", `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`},
		{"create", "Create a %s and return it.", `{"type":"object","properties":{"name":{"type":"string"},"notes":{"type":"string"}},"required":["name"]}`},
		{"update", "Change a %s's fields and return it.", `{"type":"object","properties":{"id":{"type":"string"},"name":{"type":"string"},"notes":{"type":"string"}},"required":["id"]}`},
		{"delete", "Delete a %s.", `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`},
	}
	in := InstructionsInput{Namespaces: map[string]string{}, Search: true}
	for _, s := range spaces {
		if s.desc != "" {
			in.Namespaces[s.name] = s.desc
		}
		for i, n := range nouns {
			prefix := s.name + "."
			if i == len(nouns)-1 && (s.name == "github" || s.name == "slack") {
				prefix = s.name + ".admin."
				in.Namespaces[s.name+".admin"] = "Administration: settings only organisation owners may change."
			}
			for _, v := range verbs {
				in.Tools = append(in.Tools, entry(prefix+v.verb+n, fmt.Sprintf(v.desc, strings.ToLower(n)), v.input,
					`{"type":"object","properties":{"id":{"type":"string"},"name":{"type":"string"},"updated":{"type":"string","format":"date-time"}},"required":["id","name"]}`))
			}
		}
	}
	return in
}

// allLimits sets every limit.
func allLimits() RunLimits {
	return RunLimits{Timeout: 30 * time.Second, MaxToolCalls: ptr(20), MaxOutputBytes: ptr(100_000), MaxMemoryBytes: 256 << 20}
}

func ptr(n int) *int { return &n }

func instructionCases() map[string]InstructionsInput {
	cases := map[string]InstructionsInput{}
	cases["small"] = smallCatalog()
	limited := smallCatalog()
	limited.Limits = allLimits()
	limited.Globals = []string{"fetch"}
	cases["small_limits"] = limited
	noSearch := smallCatalog()
	noSearch.Search = false
	noSearch.Limits = RunLimits{MaxToolCalls: ptr(0), MaxOutputBytes: ptr(2048)}
	cases["small_no_search"] = noSearch
	cases["empty"] = InstructionsInput{Search: true}
	cases["empty_limits"] = InstructionsInput{Search: true, Limits: RunLimits{Timeout: 1500 * time.Millisecond, MaxMemoryBytes: 64_000_000}}
	for name, budget := range map[string]int{"large_index": 26000, "large_summary": 4800, "large_tight": 3500} {
		in := largeCatalog()
		in.Limits = allLimits()
		in.MaxChars = budget
		cases[name] = in
	}
	tight := largeCatalog()
	tight.Search = false
	tight.MaxChars = 3000
	cases["large_no_search"] = tight
	return cases
}

// TestInstructionsGolden compares Instructions with
// testdata/instructions/NAME.txt; -update rewrites them.
func TestInstructionsGolden(t *testing.T) {
	for name, in := range instructionCases() {
		t.Run(name, func(t *testing.T) {
			got := Instructions(in) + "\n"
			file := filepath.Join("testdata", "instructions", name+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("--- got\n%s--- want\n%s", got, want)
			}
			if in.MaxChars > 0 && chars(got)-1 > in.MaxChars {
				t.Errorf("%d characters, over the budget of %d", chars(got)-1, in.MaxChars)
			}
		})
	}
}

// TestInstructionsForms checks which form each budget gives.
func TestInstructionsForms(t *testing.T) {
	in := largeCatalog()
	full := Instructions(in)
	if !strings.Contains(full, "tools.github.admin.createSetting({") || strings.Contains(full, "too many") {
		t.Fatalf("without a budget every signature is listed:\n%s", full)
	}
	in.MaxChars = chars(full)
	if got := Instructions(in); got != full {
		t.Errorf("a budget the full text meets exactly changes it")
	}
	in.MaxChars = chars(full) - 1
	index := Instructions(in)
	if !strings.Contains(index, "too many to show their signatures") || strings.Count(index, "\ntools.") != 300 {
		t.Errorf("one character short: want the index of 300 tools:\n%s", index)
	}
	in.MaxChars = chars(index) - 1
	summary := Instructions(in)
	if !strings.Contains(summary, "too many to list here") || !strings.Contains(summary, "- tools.github (30 tools)") {
		t.Errorf("below the index: want the summary:\n%s", summary)
	}
	// Every budget from the head upwards is met.
	in.MaxChars = 1
	shortest := chars(Instructions(in))
	step := max((chars(full)-shortest)/80, 1)
	for budget := shortest; budget < chars(full)+10; budget += step {
		in.MaxChars = budget
		if got := chars(Instructions(in)); got > budget {
			t.Fatalf("budget %d: %d characters", budget, got)
		}
	}
	// A budget below the head gets the head and the shortest summary.
	sorted := slices.Clone(in.Tools)
	slices.SortFunc(sorted, treeOrder)
	head := instructionsHead(in, sorted)
	in.MaxChars = 10
	got := Instructions(in)
	if !strings.HasPrefix(got, head) || !strings.HasSuffix(got, "- … 10 more namespaces with 300 tools") {
		t.Errorf("tiny budget:\n%s", got)
	}
}

func TestInstructionsText(t *testing.T) {
	in := smallCatalog()
	got := Instructions(in)
	for _, want := range []string{
		"body of an async function",
		"the value of the last expression statement is the result",
		"setTimeout, setInterval and the like do not exist",
		"`console.log`",
		"exactly one input object",
		"`tools.docs[\"resolve-library-id\"]({ ... })`",
		"search is synchronous: call it without `await`.\n" + SearchSignature(),
		"// tools.github: GitHub: repositories and their issues.\n\n// tools.github.issues: Issues, open and closed.\n\n/**\n * List a repository's issues.\n",
		"/** Check that the service answers. */\ntools.ping(): Promise<string>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "Limits") {
		t.Errorf("no limits set, yet they are stated:\n%s", got)
	}
	if !strings.Contains(got, "fetch, process or packages") {
		t.Errorf("fetch should be denied without a host global")
	}
	in.Globals = []string{"fs", "fetch"}
	got = Instructions(in)
	if strings.Contains(got, "fetch, process") || !strings.Contains(got, "The host adds these globals: fetch, fs.") {
		t.Errorf("host globals:\n%s", got)
	}
	in.Search = false
	if got := Instructions(in); strings.Contains(got, "search") {
		t.Errorf("search mentioned without search:\n%s", got)
	}
	// Without a bracketed name there is no bracket example.
	in = smallCatalog()
	in.Tools = in.Tools[:2]
	if got := Instructions(in); strings.Contains(got, "bracket") {
		t.Errorf("bracket notation explained without a name that needs it")
	}
}

func TestLimitsParagraph(t *testing.T) {
	tests := []struct {
		l      RunLimits
		search bool
		want   string
	}{
		{RunLimits{}, true, ""},
		{allLimits(), true, "Limits: the program may run for 30 seconds, make at most 20 tool calls (search included) and allocate 256 MiB of memory. The result value and the logs together are cut at 100 kB: return what matters, not raw data."},
		{RunLimits{MaxToolCalls: ptr(0)}, false, "Limits: the program may make no tool calls."},
		{RunLimits{MaxToolCalls: ptr(1), Timeout: 2 * time.Minute}, true, "Limits: the program may run for 2 minutes and make at most 1 tool call (search included)."},
		{RunLimits{MaxOutputBytes: ptr(0)}, false, "Limits: the result value and the logs together are cut at 0 bytes: return what matters, not raw data."},
	}
	for _, tt := range tests {
		if got := limitsParagraph(tt.l, tt.search); got != tt.want {
			t.Errorf("%+v:\n got %q\nwant %q", tt.l, got, tt.want)
		}
	}
}

func TestUnits(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Second: "1 second", 90 * time.Second: "90 seconds", time.Hour: "60 minutes",
		1500 * time.Millisecond: "1.5 seconds", 250 * time.Millisecond: "250 ms", 1500 * time.Microsecond: "1.5ms",
	} {
		if got := duration(d); got != want {
			t.Errorf("duration(%v) = %q, want %q", d, got, want)
		}
	}
	for n, want := range map[int64]string{
		1: "1 byte", 1000: "1 kB", 1024: "1 KiB", 1500: "1500 bytes", 64_000_000: "64 MB",
		256 << 20: "256 MiB", 3 << 30: "3 GiB", 2e9: "2 GB", 100_000: "100 kB",
	} {
		if got := byteCount(n); got != want {
			t.Errorf("byteCount(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestTreeOrder(t *testing.T) {
	paths := []string{"github.admin.reset", "zeta", "github.listIssues", "a.b.c", "github", "a.b", "github.admin.audit.list", "github.admin.get", "a.c", "ping"}
	var entries []Entry
	for _, p := range paths {
		entries = append(entries, Entry{Path: p})
	}
	slices.SortFunc(entries, treeOrder)
	var got []string
	for _, e := range entries {
		got = append(got, e.Path)
	}
	want := "github ping zeta a.b a.c a.b.c github.listIssues github.admin.get github.admin.reset github.admin.audit.list"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

// TestRepresentatives checks which tools a summary names for a namespace:
// listings, then reads, then other calls, creations, updates and
// deletions, each pick adding a new verb, resource and sub-namespace while
// it can.
func TestRepresentatives(t *testing.T) {
	paths := func(list ...string) []Entry {
		var out []Entry
		for _, p := range list {
			out = append(out, Entry{Path: p})
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		tools []Entry
		n     int
		want  []string
	}{
		{"reads before writes", paths("api.deleteFile", "api.cancelRun", "api.createFile", "api.getRun", "api.listFiles"), 3,
			[]string{"api.listFiles", "api.getRun", "api.createFile"}},
		{"a new verb and resource first", paths("api.getA", "api.getB", "api.getC", "api.listA", "api.updateD"), 3,
			[]string{"api.listA", "api.getB", "api.updateD"}},
		{"shallow and short first", paths("api.x.y.listThings", "api.listThingsOfTheDay", "api.listItems"), 2,
			[]string{"api.listItems", "api.listThingsOfTheDay"}},
		{"one per sub-namespace", paths("api.a.listX", "api.a.listY", "api.b.getZ"), 2,
			[]string{"api.a.listX", "api.b.getZ"}},
		{"snake, kebab and capitalised names", paths("api.delete_file", "api.DeleteRun", "api.Get-Run", "api.list_files"), 2,
			[]string{"api.list_files", "api.Get-Run"}},
		{"fewer tools than asked", paths("api.deleteFile"), 3, []string{"api.deleteFile"}},
		{"none asked", paths("api.getA"), 0, nil},
	} {
		var got []string
		for _, e := range representatives(tc.tools, tc.n) {
			got = append(got, e.Path)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestInstructionsTypeScript checks that the language paragraph follows
// what the runtime does with TypeScript.
func TestInstructionsTypeScript(t *testing.T) {
	erased := Instructions(InstructionsInput{})
	if !strings.Contains(erased, "TypeScript types (annotations, `as`, `satisfies`, generics, interfaces, type aliases) are accepted and erased") ||
		strings.Contains(erased, "not TypeScript") {
		t.Errorf("default instructions do not say TypeScript types are erased:\n%s", erased)
	}
	rejected := Instructions(InstructionsInput{NoTypeScript: true})
	if !strings.Contains(rejected, "Write plain JavaScript, not TypeScript.") || strings.Contains(rejected, "erased") {
		t.Errorf("NoTypeScript instructions do not ask for plain JavaScript:\n%s", rejected)
	}
}
