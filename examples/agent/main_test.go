package main

import (
	"context"
	"strings"
	"testing"
)

// TestAgentLoop runs the scripted conversation: the first program's
// unknown tool comes back as a diagnostic with a suggestion, the second
// program follows it, and the host's tool gets one note per product.
func TestAgentLoop(t *testing.T) {
	book := &notebook{}
	rt, err := newRuntime(book)
	if err != nil {
		t.Fatal(err)
	}
	model := newScriptedModel(conversation)
	answer, err := runAgent(context.Background(), rt, model, task, 6)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(answer, "Four products") || len(book.notes) != 4 {
		t.Fatalf("answer %q, notes %q", answer, book.notes)
	}
	if _, err := runAgent(context.Background(), rt, newScriptedModel(conversation), task, 1); err == nil || err.Error() != "no answer after 1 turns" {
		t.Fatalf("a loop out of turns: %v", err)
	}
}
