package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		stdin  string
		out    string
		status int
	}{
		{"ok", "const r = await tools.a.b({});\nconsole.log(r);\nreturn r", `{"ok":true,"globals":["console","tools"]}`, 0},
		{"no globals", "return 1 + 2", `{"ok":true,"globals":[]}`, 0},
		{"parse error", "let x = 1;\nlet x = 2;",
			`{"ok":false,"error":{"kind":"ParseError","message":"Identifier 'x' has already been declared","location":{"line":2,"column":5}}}`, 1},
		{"typescript", "const n: number = 1",
			`{"ok":false,"error":{"kind":"ParseError","message":"TypeScript syntax is not accepted (type annotation); write plain JavaScript","location":{"line":1,"column":8}}}`, 1},
		{"empty", "  \n",
			`{"ok":false,"error":{"kind":"ParseError","message":"Code cannot be empty.","location":{"line":1,"column":1}}}`, 1},
		{"fenced wrapper", "```js\nasync () => {\n  return tools.x.y()\n}\n```", `{"ok":true,"globals":["tools"]}`, 0},
		{"html in strings stays", `return "<a&b>"`, `{"ok":true,"globals":[]}`, 0},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		status := run([]string{"check", "-"}, strings.NewReader(tt.stdin), &stdout, &stderr)
		if status != tt.status || strings.TrimSpace(stdout.String()) != tt.out {
			t.Errorf("%s: status %d, output %s (stderr %q)\nwant status %d, output %s", tt.name, status, stdout.String(), stderr.String(), tt.status, tt.out)
		}
	}
}

func TestCheckFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.js")
	if err := os.WriteFile(path, []byte("return Math.max(1, 2)"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if status := run([]string{"check", path}, nil, &stdout, &stderr); status != 0 {
		t.Fatalf("status %d: %s %s", status, stdout.String(), stderr.String())
	}
	if got := strings.TrimSpace(stdout.String()); got != `{"ok":true,"globals":["Math"]}` {
		t.Errorf("output %s", got)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{nil, {"nope"}, {"check"}, {"check", "a", "b"}, {"check", "/does/not/exist.js"}} {
		var stdout, stderr bytes.Buffer
		if status := run(args, strings.NewReader(""), &stdout, &stderr); status != 2 {
			t.Errorf("%q: status %d, want 2", args, status)
		}
		if stderr.Len() == 0 {
			t.Errorf("%q: nothing on stderr to explain the usage error", args)
		}
		if stdout.Len() != 0 {
			t.Errorf("%q: wrote %q to stdout", args, stdout.String())
		}
	}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stdin  string
		out    string
		status int
	}{
		{"value", []string{"run", "-"}, "const o = {b: 1, a: [1, 2]}; o", `{"ok":true,"value":{"b":1,"a":[1,2]},"toolCalls":[]}`, 0},
		{"failure", []string{"run", "-"}, "throw new RangeError('too big')", `{"ok":false,"error":{"kind":"ExecutionFailure","message":"RangeError: too big"},"toolCalls":[]}`, 1},
		{"parse error", []string{"run", "-"}, "let = ;", `{"ok":false,"error":{"kind":"ParseError","message":"Unexpected strict mode reserved word 'let' (1:0)","location":{"line":1,"column":1}},"toolCalls":[]}`, 1},
		{"pretty", []string{"run", "--pretty", "-"}, "return 1", "{\n  \"ok\": true,\n  \"value\": 1,\n  \"toolCalls\": []\n}", 0},
		{"no file", []string{"run"}, "", "", 2},
		{"bad flag", []string{"run", "--nope", "-"}, "", "", 2},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		status := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
		if status != tt.status || strings.TrimSpace(stdout.String()) != tt.out {
			t.Errorf("%s: status %d, output %s (stderr %q)\nwant status %d, output %s", tt.name, status, stdout.String(), stderr.String(), tt.status, tt.out)
		}
	}
}
