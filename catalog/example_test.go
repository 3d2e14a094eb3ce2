package catalog_test

import (
	"encoding/json"
	"fmt"

	"github.com/go-codemode/codemode/catalog"
)

func ExampleSignature() {
	input := json.RawMessage(`{
		"type": "object",
		"properties": {
			"owner": {"type": "string", "description": "Repository owner"},
			"perPage": {"type": "integer", "description": "Results per page", "default": 30, "maximum": 100},
			"state": {"enum": ["open", "closed"]}
		},
		"required": ["owner"]
	}`)
	output := json.RawMessage(`{
		"type": "array",
		"items": {
			"type": "object",
			"properties": {"number": {"type": "integer"}, "title": {"type": "string"}},
			"required": ["number", "title"]
		}
	}`)
	fmt.Println(catalog.Signature([]string{"github", "list-issues"}, input, output))
	fmt.Println(catalog.Signature([]string{"ping"}, nil, json.RawMessage(`{"type":"string"}`)))
	// Output:
	// tools.github["list-issues"]({
	//   /** Repository owner */
	//   owner: string,
	//   /** Results per page. @default 30 @integer @maximum 100 */
	//   perPage?: number,
	//   state?: "open" | "closed",
	// }): Promise<Array<{
	//     /** @integer */
	//     number: number,
	//     title: string,
	//   }>>
	// tools.ping(): Promise<string>
}

func ExampleCompact() {
	schema := json.RawMessage(`{
		"type": "object",
		"properties": {"id": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}, "x-trace": {"type": "string", "nullable": true}},
		"required": ["id"]
	}`)
	fmt.Println(catalog.Compact(schema, catalog.Options{}))
	// Output: { id: string; tags?: Array<string>; "x-trace"?: string | null }
}

// A budget cuts a render down and marks every cut.
func ExampleRender_budget() {
	schema := json.RawMessage(`{
		"type": "object",
		"required": ["query"],
		"properties": {
			"query": {"type": "string", "description": "Full-text query; supports quoted phrases and field prefixes such as author:."},
			"filter": {"type": "object", "properties": {"state": {"enum": ["open", "closed", "all"]}, "label": {"type": "string"}}},
			"sort": {"enum": ["created", "updated", "comments", "reactions"]},
			"page": {"type": "integer", "minimum": 1},
			"perPage": {"type": "integer", "maximum": 100}
		}
	}`)
	fmt.Println(catalog.Render(schema, catalog.Options{MaxDepth: 1, MaxProperties: 3, MaxDescription: 30}))
	// Output:
	// {
	//   /** Full-text query; supports… */
	//   query: string,
	//   filter?: { /* … 2 properties: state?, label? */ },
	//   sort?: "created" | "updated" | "comments" /* … 1 more value */,
	//   // … 2 more properties: page?, perPage?
	// }
}
