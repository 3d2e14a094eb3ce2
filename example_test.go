package codemode_test

import (
	"encoding/json"
	"fmt"

	"github.com/go-codemode/codemode"
)

// A Result prints in the reference's shape, ready to hand back to a model.
func ExampleResult() {
	r := codemode.Result{
		OK:        true,
		Value:     json.RawMessage(`{"open":3,"closed":9}`),
		Logs:      []string{"checked 12 issues"},
		ToolCalls: []codemode.ToolCall{{Name: "github.listIssues"}},
	}
	fmt.Println(r)
	// Output: {"ok":true,"value":{"open":3,"closed":9},"logs":["checked 12 issues"],"toolCalls":[{"name":"github.listIssues"}]}
}
