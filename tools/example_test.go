package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/go-codemode/codemode/tools"
)

// ListIssuesInput is the argument of the listIssues tool.
type ListIssuesInput struct {
	Repo  string `json:"repo" jsonschema:"description=owner/name,pattern=^[^/]+/[^/]+$"`
	State string `json:"state,omitempty" jsonschema:"enum=open,enum=closed"`
	Limit int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100"`
}

// Issue is one issue in the result.
type Issue struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
}

// A typed tool: schemas reflected from Go types, the input validated
// and decoded before the function runs, the output validated after.
func ExampleFunc() {
	listIssues := tools.Func("List the issues of a repository",
		func(ctx context.Context, in ListIssuesInput) ([]Issue, error) {
			return []Issue{{Number: 1, Title: "Support " + in.State + " issues of " + in.Repo}}, nil
		})
	tree, err := tools.New(map[string]any{"github.listIssues": listIssues})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(listIssues.InputForModel()))

	// What the runtime does with a call: validate, then run, then
	// validate the output.
	n := tree.Lookup(strings.Split("github.listIssues", "."))
	for _, input := range []string{
		`{"repo":"golang/go","state":"merged","limit":0}`,
		`{"repo":"golang/go","state":"open"}`,
	} {
		if err := n.ValidateInput(json.RawMessage(input)); err != nil {
			fmt.Printf("Invalid input for tool '%s': %v\n", n.Path, err)
			continue
		}
		res, err := n.Tool.Func(context.Background(), json.RawMessage(input))
		if err != nil {
			fmt.Println(err)
			continue
		}
		out, _ := json.Marshal(res)
		if n.Tool.ValidateOutputs {
			if err := n.ValidateOutput(out); err != nil {
				fmt.Printf("Invalid output from tool '%s': %v\n", n.Path, err)
				continue
			}
		}
		fmt.Println(string(out))
	}
	// Output:
	// {"properties":{"repo":{"type":"string","pattern":"^[^/]+/[^/]+$","description":"owner/name"},"state":{"type":"string","enum":["open","closed"]},"limit":{"type":"integer","maximum":100,"minimum":1}},"additionalProperties":false,"type":"object","required":["repo"]}
	// Invalid input for tool 'github.listIssues': at '/limit': minimum: got 0, want 1; at '/state': value must be one of 'open', 'closed'
	// [{"number":1,"title":"Support open issues of golang/go"}]
}
