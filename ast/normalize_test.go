package ast

import (
	"errors"
	"testing"
)

// TestNormalize shows what model-output cleanup keeps as the program.
func TestNormalize(t *testing.T) {
	tests := []struct {
		name, text, body string
	}{
		{"plain", "return 1", "return 1"},
		{"fence", "```\nreturn 1\n```", "return 1\n"},
		{"fence js", "```js\nreturn 1\n```\n", "return 1\n"},
		{"fence javascript", "  ```javascript\r\nreturn 1\r\n```  \n", "return 1\r\n"},
		{"fence ts", "```ts\nreturn 1\n```", "return 1\n"},
		{"fence typescript", "```typescript\nreturn 1\n```", "return 1\n"},
		{"fence other language", "```python\nreturn 1\n```", "```python\nreturn 1\n```"},
		{"fence unclosed", "```js\nreturn 1", "```js\nreturn 1"},
		{"prose around fence", "Here:\n```js\nreturn 1\n```", "Here:\n```js\nreturn 1\n```"},
		{"async arrow", "async () => {\n  return 1\n}", "\n  return 1\n"},
		{"arrow", "() => { return 2 }", " return 2 "},
		{"async function", "async function () { return 3 }", " return 3 "},
		{"named function", "async function main() { return 4 }", " return 4 "},
		{"parenthesized arrow", "(async () => { return 5 })", " return 5 "},
		{"export default arrow", "export default async () => { return 6 }", " return 6 "},
		{"export default value", "export default 7", " 7"},
		{"fenced wrapper", "```js\nasync () => {\n  return 8\n}\n```", "\n  return 8\n"},
		{"arrow with params stays", "async (x) => { return x }", "async (x) => { return x }"},
		{"called arrow stays", "(async () => { return 1 })()", "(async () => { return 1 })()"},
		{"concise arrow", "async () => 1", " 1"},
		{"concise arrow returning an object", "async () => ({a: 1})", " ({a: 1})"},
		{"parenthesized concise arrow", "(async () => 6 * 7);", " 6 * 7"},
		{"concise arrow with params stays", "async (x) => x", "async (x) => x"},
		{"two statements stay", "async () => {}; 1", "async () => {}; 1"},
	}
	for _, tt := range tests {
		src := Normalize(tt.text)
		if got := src.Text[src.Start:src.End]; got != tt.body {
			t.Errorf("%s: body %q, want %q", tt.name, got, tt.body)
		}
		if src.Text != tt.text {
			t.Errorf("%s: Normalize changed the text", tt.name)
		}
	}
}

// TestNormalizePositions shows that errors in cleaned-up programs point at
// the text the model sent.
func TestNormalizePositions(t *testing.T) {
	tests := []struct {
		text      string
		line, col int
	}{
		{"```js\nconst a = 1;\nconst a = 2;\n```", 3, 7},
		{"async () => {\n  let x = ;\n}", 2, 11},
		{"export default async () => {\n\n  f(,)\n}", 3, 5},
	}
	for _, tt := range tests {
		_, err := Parse(tt.text)
		var perr *Error
		if !errors.As(err, &perr) {
			t.Errorf("%q: got %v, want a parse error", tt.text, err)
			continue
		}
		if perr.Location.Line != tt.line || perr.Location.Column != tt.col {
			t.Errorf("%q: error at %d:%d, want %d:%d (%s)", tt.text, perr.Location.Line, perr.Location.Column, tt.line, tt.col, perr.Msg)
		}
	}
}

func TestNormalizeEmpty(t *testing.T) {
	for _, text := range []string{"```js\n```", "```\n  \n```", "async () => {}", "export default "} {
		_, err := Parse(text)
		var perr *Error
		if !errors.As(err, &perr) || perr.Msg != EmptyProgramMessage {
			t.Errorf("%q: got %v, want %q", text, err, EmptyProgramMessage)
		}
	}
}
