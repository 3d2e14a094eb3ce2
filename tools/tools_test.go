package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func fn(context.Context, json.RawMessage) (any, error) { return nil, nil }

func TestTreeShapes(t *testing.T) {
	tree, err := New(map[string]any{
		"github.listIssues": &Tool{Description: "List issues", Func: fn},
		"github": &Namespace{Description: "GitHub", Tools: map[string]any{
			"getRepo": &Tool{Func: fn},
		}},
		"context7": map[string]any{"resolve-library-id": Tool{Func: fn}},
		"a":        &Tool{Func: fn},
		"a.b":      &Tool{Func: fn},
	})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, n := range tree.Tools() {
		paths = append(paths, n.Path)
	}
	if got := strings.Join(paths, " "); got != "a a.b context7.resolve-library-id github.getRepo github.listIssues" {
		t.Errorf("tools: %s", got)
	}
	if n := tree.Lookup([]string{"github"}); n == nil || n.Tool != nil || n.Description != "GitHub" {
		t.Errorf("github namespace: %+v", n)
	}
	if n := tree.Lookup([]string{"a"}); n == nil || n.Tool == nil || n.Child("b") == nil {
		t.Errorf("a is both callable and a namespace: %+v", n)
	}
	if got := Expression([]string{"context7", "resolve-library-id"}); got != `tools.context7["resolve-library-id"]` {
		t.Errorf("expression: %s", got)
	}
}

func TestTreeErrors(t *testing.T) {
	for _, tt := range []struct {
		def  map[string]any
		want string
	}{
		{map[string]any{"": &Tool{Func: fn}}, "Tool name '' contains an empty segment."},
		{map[string]any{"a..b": &Tool{Func: fn}}, "Tool name 'a..b' contains an empty segment."},
		{map[string]any{"trail.": &Tool{Func: fn}}, "Tool name 'trail.' contains an empty segment."},
		{map[string]any{".lead": &Tool{Func: fn}}, "Tool name '.lead' contains an empty segment."},
		{map[string]any{"x": &Tool{}}, `tools: tool "x" has no Func`},
		{map[string]any{"x": 5}, `tools: "x" is a int`},
	} {
		_, err := New(tt.def)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%v: err = %v, want %q", tt.def, err, tt.want)
		}
	}
}

func TestLastDefinitionWins(t *testing.T) {
	first := &Tool{Description: "first", Func: fn}
	second := &Tool{Description: "second", Func: fn}
	tree, err := New(map[string]any{"a": map[string]any{"b": first}, "a.b": second})
	if err != nil {
		t.Fatal(err)
	}
	if got := tree.Lookup([]string{"a", "b"}).Tool.Description; got != "second" {
		t.Errorf("a.b is %q", got)
	}
}

func TestClosest(t *testing.T) {
	tree, _ := New(map[string]any{
		"github.listIssues":  &Tool{Description: "List the issues of a repository", Func: fn},
		"github.listCommits": &Tool{Description: "List commits", Func: fn},
		"gitlab.listIssues":  &Tool{Description: "List GitLab issues", Func: fn},
		"weather.forecast":   &Tool{Description: "Forecast", Input: json.RawMessage(`{"properties":{"city":{"description":"City name"}}}`), Func: fn},
	})
	for _, tt := range []struct{ path, want string }{
		{"github.listIssue", "github.listIssues"},
		{"github.issues", "github.listIssues"},
		{"gitlab.issue", "gitlab.listIssues"},
		{"forecast", "weather.forecast"},
		{"zzz.qqq", ""},
	} {
		n, ok := tree.Closest(strings.Split(tt.path, "."))
		got := ""
		if ok {
			got = n.Path
		}
		if got != tt.want {
			t.Errorf("Closest(%s) = %q, want %q", tt.path, got, tt.want)
		}
	}
	if got := Tokenize("listIssues_v2 *"); strings.Join(got, ",") != "list,issues,v2" {
		t.Errorf("Tokenize: %v", got)
	}
}

func TestTokenizeUnicode(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"listIssues_v2 *", "list,issues,v2"},
		{"getHTTPResponse", "get,httpresponse"},
		{"Straße verkaufen", "strasse,verkaufen"},
		{"Пользователи.получитьСписок", "пользователи,получить,список"},
		{"注文一覧", "注文一覧"},
		{"ÉCOLE école", "école,école"},
	} {
		if got := strings.Join(Tokenize(tt.in), ","); got != tt.want {
			t.Errorf("Tokenize(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// BenchmarkRank: a query over 10,000 tools.
func BenchmarkRank(b *testing.B) {
	def := map[string]any{}
	words := []string{"list", "get", "create", "update", "delete", "search", "issues", "users", "orders", "repos", "files", "messages"}
	for i := 0; i < 10000; i++ {
		ns := fmt.Sprintf("service%d", i%50)
		second := words[(i/len(words))%len(words)]
		name := words[i%len(words)] + strings.ToUpper(second[:1]) + second[1:] + fmt.Sprint(i)
		def[ns+"."+name] = &Tool{Description: "Does " + name + " for the " + ns + " service", Func: fn,
			Input: json.RawMessage(`{"properties":{"id":{"description":"The id"},"limit":{}}}`)}
	}
	tree, err := New(def)
	if err != nil {
		b.Fatal(err)
	}
	tree.Rank("warm up", "")
	b.ResetTimer()
	for b.Loop() {
		if r := tree.Rank("list open issues", ""); len(r) == 0 {
			b.Fatal("nothing found")
		}
	}
}

func TestExpressionQuoting(t *testing.T) {
	for _, tt := range []struct {
		segs []string
		want string
	}{
		{[]string{"a", "b"}, "tools.a.b"},
		{[]string{"context7", "resolve-library-id"}, `tools.context7["resolve-library-id"]`},
		{[]string{"a<b&c>"}, `tools["a<b&c>"]`},
		{[]string{"q\"uo\\te\n"}, `tools["q\"uo\\te\n"]`},
		{[]string{"line\u2028sep", "$ok", "_x1", "1st"}, "tools[\"line\u2028sep\"].$ok._x1[\"1st\"]"},
	} {
		if got := Expression(tt.segs); got != tt.want {
			t.Errorf("Expression(%q) = %s, want %s", tt.segs, got, tt.want)
		}
	}
}
