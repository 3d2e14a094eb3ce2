package codemode_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/catalog"
	"github.com/go-codemode/codemode/tools"
)

func searchTools() map[string]any {
	noop := func(context.Context, json.RawMessage) (any, error) { return nil, nil }
	return map[string]any{
		"github": &tools.Namespace{Description: "GitHub repositories", Tools: map[string]any{
			"listIssues":  &tools.Tool{Description: "List the issues of a repository", Input: json.RawMessage(`{"type":"object","properties":{"repo":{"type":"string","description":"owner/name"}},"required":["repo"]}`), Func: noop},
			"getRepo":     &tools.Tool{Description: "Get a repository", Func: noop},
			"listCommits": &tools.Tool{Description: "List commits", Func: noop},
		}},
		"slack.admin.listUsers":       &tools.Tool{Description: "List workspace users", Func: noop},
		"slack.administrator.log":     &tools.Tool{Description: "Audit log", Func: noop},
		"slack.postMessage":           &tools.Tool{Description: "Post a message to a channel", Func: noop},
		"context7.resolve-library-id": &tools.Tool{Description: "Resolve a library name to an id", Output: json.RawMessage(`{"type":"string"}`), Func: noop},
	}
}

func TestSearch(t *testing.T) {
	rt, err := codemode.New(codemode.Options{Tools: searchTools()})
	if err != nil {
		t.Fatal(err)
	}
	paths := func(src string) string {
		res := rt.Execute(context.Background(), src)
		if !res.OK {
			t.Fatalf("%s: %s", src, res)
		}
		return string(res.Value)
	}
	tests := []struct{ name, src, want string }{
		{"ranked", `return search({query: "issues"}).items.map((i) => i.path)`, `["tools.github.listIssues"]`},
		{"plural and camel case", `return search({query: "list commit"}).items.map((i) => i.path)`, `["tools.github.listCommits","tools.github.listIssues","tools.slack.admin.listUsers"]`},
		{"exact path", `return search({query: "github.getRepo"}).items.map((i) => i.path)`, `["tools.github.getRepo"]`},
		{"exact expression", `return search({query: 'tools.context7["resolve-library-id"]'}).items.map((i) => [i.path, i.signature])`,
			`[["tools.context7[\"resolve-library-id\"]","tools.context7[\"resolve-library-id\"](): Promise<string>"]]`},
		{"namespace scope is by segment", `return search({namespace: "slack.admin"}).items.map((i) => i.path)`, `["tools.slack.admin.listUsers"]`},
		{"tools prefix in namespace", `return search({namespace: "tools.github", query: "repo"}).items.map((i) => i.path)`, `["tools.github.getRepo","tools.github.listIssues","tools.github.listCommits"]`},
		{"input properties are searched", `return search({query: "owner"}).items.map((i) => i.path)`, `["tools.github.listIssues"]`},
		{"browse all with paging", `const p1 = search({limit: 3}); const p2 = search({limit: 3, offset: p1.next.offset}); return [p1.items.length, p1.remaining, p1.next, p2.items.map((i) => i.path), p2.remaining, p2.next]`,
			`[3,4,{"offset":3},["tools.github.listIssues","tools.slack.admin.listUsers","tools.slack.administrator.log"],1,{"offset":6}]`},
		{"signature and description", `return search({query: "listIssues"}).items[0]`,
			`{"path":"tools.github.listIssues","description":"List the issues of a repository","signature":"tools.github.listIssues({\n  /** owner/name */\n  repo: string,\n}): Promise<void>"}`},
		{"await works", `const r = await search({query: "commits"}); return r.items.length`, `1`},
		{"then works", `return await search({query: "commits"}).then((r) => r.items[0].path)`, `"tools.github.listCommits"`},
		{"then keeps no then", `const r = await search({}); return [typeof r.then, Object.keys(r)]`, `["undefined",["items","remaining","next"]]`},
		{"vanishes at the boundary but its result crosses", `return {s: search, n: search({query: "zzz"})}`, `{"n":{"items":[],"remaining":0,"next":null}}`},
		{"tools.search reaches it", `return tools.search({query: "commits"}).items.length`, `1`},
		{"tools.$codemode.search reaches it", `return tools.$codemode.search({query: "commits"}).items.length`, `1`},
		{"shadowed by a declaration", `const search = () => "mine"; return search()`, `"mine"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := paths(tt.src); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	res := rt.Execute(context.Background(), `search({query: "a"}); search({}); return 1`)
	if got := res.String(); got != `{"ok":true,"value":1,"toolCalls":[{"name":"search"},{"name":"search"}]}` {
		t.Errorf("search is a counted tool call: %s", got)
	}
	res = rt.Execute(context.Background(), `search({limit: 0})`)
	if res.OK || res.Error.Kind != codemode.InvalidToolInput || !strings.HasPrefix(res.Error.Message, "Invalid input for tool 'search': at '/limit'") || res.Error.Suggestions != nil || len(res.ToolCalls) != 0 {
		t.Errorf("invalid input: %s", res)
	}
	limited, _ := codemode.New(codemode.Options{Tools: searchTools(), Limits: codemode.Limits{MaxToolCalls: codemode.Max(1)}})
	res = limited.Execute(context.Background(), `search({}); search({})`)
	if res.OK || res.Error.Kind != codemode.ToolCallLimitExceeded {
		t.Errorf("limit: %s", res)
	}
}

func TestCatalog(t *testing.T) {
	rt, _ := codemode.New(codemode.Options{Tools: searchTools()})
	cat := rt.Catalog()
	if len(cat) != 7 || cat[0].Path != "context7.resolve-library-id" || cat[0].Signature != `tools.context7["resolve-library-id"](): Promise<string>` {
		t.Errorf("catalog: %+v", cat)
	}
}

func TestCatalogBudget(t *testing.T) {
	props := map[string]any{}
	for i := 0; i < 200; i++ {
		props[fmt.Sprintf("field%03d", i)] = map[string]any{"type": "string", "description": strings.Repeat("A long description. ", 5)}
	}
	schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
	def := map[string]any{"big.op": &tools.Tool{Description: "A big operation", Input: schema,
		Func: func(context.Context, json.RawMessage) (any, error) { return nil, nil }}}
	full, _ := codemode.New(codemode.Options{Tools: def})
	small, _ := codemode.New(codemode.Options{Tools: def, Signatures: catalog.Options{MaxChars: 2000}})
	f, s := full.Catalog()[0].Signature, small.Catalog()[0].Signature
	if n, m := utf8.RuneCountInString(f), utf8.RuneCountInString(s); n < 20000 || m > 2000 || !strings.Contains(s, "…") {
		t.Errorf("full %d chars, budgeted %d chars:\n%s", n, m, s)
	}
}

func TestSearchIsHooked(t *testing.T) {
	var seen []string
	rt, _ := codemode.New(codemode.Options{Tools: searchTools(), Hooks: codemode.Hooks{
		ToolBefore: func(_ context.Context, c codemode.ToolCallInfo) error {
			seen = append(seen, "before "+c.Name+" "+string(c.Input))
			return nil
		},
		ToolAfter: func(_ context.Context, c codemode.ToolCallInfo, o codemode.CallOutcome) {
			seen = append(seen, "after "+c.Name+" "+string(o.Status))
		},
	}})
	if res := rt.Execute(context.Background(), `return search({query: "repo"}).items.length`); !res.OK {
		t.Fatal(res)
	}
	if got := strings.Join(seen, "; "); got != `before search {"query":"repo"}; after search success` {
		t.Errorf("hooks saw: %s", got)
	}
}
