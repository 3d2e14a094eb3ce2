package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/go-codemode/codemode/tools"
	"github.com/go-codemode/codemode/tools/demo"
)

// ranked renders a ranking as "path score" lines.
func ranked(t *testing.T, def map[string]any, query string) string {
	t.Helper()
	tree, err := tools.New(def)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, s := range tree.Rank(query, "") {
		lines = append(lines, fmt.Sprintf("%s %d", s.Node.Path, s.Score))
	}
	return strings.Join(lines, "\n")
}

func TestRankTies(t *testing.T) {
	noop := func(context.Context, json.RawMessage) (any, error) { return nil, nil }
	// Every tool's description is "zap" and no path holds it: each scores
	// 4 + 2, so only the tie-breaks order them.
	zap := func(paths ...string) map[string]any {
		def := map[string]any{}
		for _, p := range paths {
			def[p] = &tools.Tool{Description: "zap", Func: noop}
		}
		return def
	}
	tests := []struct {
		name  string
		def   map[string]any
		query string
		want  string
	}{
		{"shorter path first", zap("a.b.deleteAll", "z.delete"), "zap", "z.delete 6\na.b.deleteAll 6"},
		{"read before write", zap("a.setItem", "b.getItem"), "zap", "b.getItem 6\na.setItem 6"},
		{"every read verb", zap("d.putX1", "c.findX", "b.listX", "a.getX", "e.searchX"), "zap",
			"a.getX 6\nb.listX 6\nc.findX 6\nd.putX1 6\ne.searchX 6"},
		{"reads tie by path", zap("b.findX", "a.listX"), "zap", "a.listX 6\nb.findX 6"},
		{"read verb is a word", zap("a.listen", "b.search"), "zap", "b.search 6\na.listen 6"},
		{"findings is no read", zap("b.setValue", "a.findings"), "zap", "a.findings 6\nb.setValue 6"},
		{"snake case read", zap("a.drop_all", "a.list_all"), "zap", "a.list_all 6\na.drop_all 6"},
		{"length before read", zap("a.getItems", "b.setIt"), "zap", "b.setIt 6\na.getItems 6"},
		{"score before ties", map[string]any{
			"a.set":              &tools.Tool{Description: "zap", Func: noop},
			"zz.long.path.zapIt": &tools.Tool{Func: noop},
		}, "zap", "zz.long.path.zapIt 22\na.set 6"},
	}
	for _, tt := range tests {
		if got := ranked(t, tt.def, tt.query); got != tt.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

// TestRankDemo pins the demo namespace's rankings. "low stock": by the
// reference's weights restock (its path holds "stock": +8 +4 +2) would
// beat listInventory (+4 +2 per term); the two words spell out
// listInventory's lowStock input, which adds +8 (ours), so the tool that
// takes it comes first.
func TestRankDemo(t *testing.T) {
	tests := []struct{ query, want string }{
		{"low stock", "demo.listInventory 20\ndemo.restock 14\ndemo.getInventory 6"},
		// One word never spells a property out: the reference's scores.
		{"stock", "demo.restock 14\ndemo.getInventory 6\ndemo.listInventory 6"},
		// Ties broken by length, then reads first.
		{"inventory", "demo.getInventory 22\ndemo.listInventory 22\ndemo.restock 2\ndemo.getOrder 2\ndemo.listOrders 2\n" +
			"demo.getCustomer 2\ndemo.listCustomers 2\ndemo.searchProducts 2\ndemo.updateOrderStatus 2"},
	}
	for _, tt := range tests {
		if got := ranked(t, demo.Tools(), tt.query); got != tt.want {
			t.Errorf("Rank(%q): got\n%s\nwant\n%s", tt.query, got, tt.want)
		}
	}
}
