// Command agent is a complete code-mode agent loop that runs offline: the
// model is a scripted stand-in that replies with the programs in
// conversation.txt, one per turn, so the loop, the execute_code tool and
// the way each Result goes back to the model can be read and run without
// an API key.
//
//	go run ./examples/agent
//
// A real agent replaces scriptedModel with a call to its model's API,
// sending the tool definition below and the history.
package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
	"github.com/go-codemode/codemode/tools/demo"
)

//go:embed conversation.txt
var conversation string

// ToolDefinition is the execute_code tool as a model API describes a
// tool: a name, a description, and a JSON Schema for the input.
type ToolDefinition struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Message is one entry of the conversation.
type Message struct {
	Role string // "user", "assistant" (with Code: a call of execute_code) or "tool" (its result)
	Text string
	Code string
}

// Model is what the loop needs from a model: the next message, given the
// tool and the history.
type Model interface {
	Reply(ctx context.Context, tool ToolDefinition, history []Message) (Message, error)
}

// scriptedModel replies with the sections of its script in turn: "## code"
// sections call execute_code, a "## answer" section ends the task.
type scriptedModel struct{ turns []Message }

func newScriptedModel(script string) *scriptedModel {
	m := &scriptedModel{}
	for _, part := range strings.Split(script, "\n## ")[1:] {
		kind, body, _ := strings.Cut(part, "\n")
		msg := Message{Role: "assistant"}
		if strings.TrimSpace(kind) == "code" {
			msg.Code = strings.TrimSpace(body)
		} else {
			msg.Text = strings.TrimSpace(body)
		}
		m.turns = append(m.turns, msg)
	}
	return m
}

func (m *scriptedModel) Reply(_ context.Context, _ ToolDefinition, history []Message) (Message, error) {
	n := 0
	for _, h := range history {
		if h.Role == "assistant" {
			n++
		}
	}
	if n >= len(m.turns) {
		return Message{}, fmt.Errorf("the script has no turn %d", n+1)
	}
	return m.turns[n], nil
}

// runAgent is the loop: ask the model, run each program it writes, hand
// the Result back as the tool's result, until it answers.
func runAgent(ctx context.Context, rt *codemode.Runtime, model Model, task string, maxTurns int) (string, error) {
	tool := ToolDefinition{
		Name:        "execute_code",
		Description: rt.Instructions(6000),
		InputSchema: json.RawMessage(`{"type":"object","properties":{"code":{"type":"string","description":"the JavaScript program"}},"required":["code"]}`),
	}
	history := []Message{{Role: "user", Text: task}}
	for turn := 1; turn <= maxTurns; turn++ {
		reply, err := model.Reply(ctx, tool, history)
		if err != nil {
			return "", err
		}
		history = append(history, reply)
		if reply.Code == "" {
			return reply.Text, nil
		}
		fmt.Printf("--- turn %d: the model runs\n%s\n", turn, reply.Code)
		res := rt.Execute(ctx, reply.Code, codemode.OnLog(func(line string) { fmt.Println("    log:", line) }))
		// The Result's JSON is what the model reads: a value, or a
		// diagnostic with its kind, message, location and suggestions.
		fmt.Printf("--- result\n%s\n", res)
		history = append(history, Message{Role: "tool", Text: res.String()})
	}
	return "", fmt.Errorf("no answer after %d turns", maxTurns)
}

// reorderNote is a typed tool of the host's own, beside the demo shop.
type reorderNote struct {
	SKU  string `json:"sku" jsonschema:"description=the product"`
	Note string `json:"note" jsonschema:"description=what to tell the buyer"`
}

// notebook is the host's side of buyer.leaveNote. Tool calls run in
// parallel, each on its own goroutine, hence the lock.
type notebook struct {
	mu    sync.Mutex
	notes []string
}

func (b *notebook) tool() *tools.Tool {
	return tools.Func("Leave a note for the buyer about a product to reorder.",
		func(ctx context.Context, in reorderNote) (map[string]any, error) {
			b.mu.Lock()
			defer b.mu.Unlock()
			b.notes = append(b.notes, in.SKU+": "+in.Note)
			return map[string]any{"saved": len(b.notes)}, nil
		})
}

// newRuntime is the demo shop plus the host's own tool, with safe limits.
func newRuntime(b *notebook) (*codemode.Runtime, error) {
	toolTree := demo.Tools()
	toolTree["buyer.leaveNote"] = b.tool()
	return codemode.New(codemode.Options{Tools: toolTree, Limits: codemode.DefaultLimits()})
}

const task = "Which products are low on stock? Leave the buyer a note for each, and tell me what you did."

func main() {
	book := &notebook{}
	rt, err := newRuntime(book)
	if err != nil {
		log.Fatal(err)
	}
	answer, err := runAgent(context.Background(), rt, newScriptedModel(conversation), task, 6)
	if err != nil {
		fmt.Fprintln(os.Stderr, "agent:", err)
		os.Exit(1)
	}
	sort.Strings(book.notes)
	fmt.Printf("--- answer\n%s\n--- notes the host's tool received\n%s\n", answer, strings.Join(book.notes, "\n"))
}
