package codemode_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// A Go result that holds itself fails at once with its reason, even
// when the cycle branches (walking it would take the whole 10-million
// part budget: seconds on a loaded machine).
func TestCircularToolResult(t *testing.T) {
	self := map[string]any{}
	self["a"], self["b"], self["c"] = self, []any{self, self}, &self
	list := []any{1, nil}
	list[1] = list
	for name, v := range map[string]any{"map": self, "slice": list} {
		tool := &tools.Tool{Output: json.RawMessage(`{}`), Func: func(context.Context, json.RawMessage) (any, error) { return v, nil }}
		rt, err := codemode.New(codemode.Options{Tools: map[string]any{"t": tool}})
		if err != nil {
			t.Fatal(err)
		}
		res := rt.Execute(context.Background(), `return await tools.t({})`)
		const want = `{"ok":false,"error":{"kind":"InvalidToolOutput","message":"Invalid output from tool 't': Error: json: the value holds itself (a cycle)"},"toolCalls":[{"name":"t"}]}`
		if got := res.String(); got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}
