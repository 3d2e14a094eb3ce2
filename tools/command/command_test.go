package command

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-codemode/codemode/tools"
)

// load reads a testdata manifest and checks that it makes a valid tree.
func load(t *testing.T, name string) map[string]any {
	t.Helper()
	def, err := Load(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tools.New(def); err != nil {
		t.Fatalf("%s does not make a tool tree: %v", name, err)
	}
	return def
}

func tool(t *testing.T, def map[string]any, path string) *tools.Tool {
	t.Helper()
	tl, ok := def[path].(*tools.Tool)
	if !ok {
		t.Fatalf("no tool %s in %v", path, def)
	}
	return tl
}

func TestCalls(t *testing.T) {
	def := load(t, "tools.json")
	bin, err := filepath.Abs("testdata/bin")
	if err != nil {
		t.Fatal(err)
	}
	bin, _ = filepath.EvalSymlinks(bin)
	tests := []struct {
		path  string
		input string
		want  string // the result's JSON
		err   string // or the error's message (a prefix when it ends in "...")
	}{
		{"test.echo", `{"message":"hi","n":[1,2]}`, `{"message":"hi","n":[1,2]}`, ""},
		{"test.echo", `{}`, `{}`, ""},
		{"test.fail", `{"id":99}`, "", "customer 99 not found"},
		{"test.silentFail", `{}`, "", "command ./bin/silent-fail.sh exited with status 4"},
		{"test.invalid", `{}`, "", `command ./bin/invalid.sh printed invalid JSON on standard output (invalid character 'h' looking for beginning of value): "hello, not json"`},
		{"test.empty", `{"x":1}`, `null`, ""},
		{"test.env", `{}`, fmt.Sprintf(`{"dir":"%s","greeting":"hello","args":"one two"}`, bin), ""},
	}
	for _, tt := range tests {
		res, err := tool(t, def, tt.path).Func(context.Background(), json.RawMessage(tt.input))
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s(%s): error %v, want %q (result %v)", tt.path, tt.input, err, tt.err, res)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s(%s): %v", tt.path, tt.input, err)
			continue
		}
		got, err := json.Marshal(res)
		if err != nil || string(got) != tt.want {
			t.Errorf("%s(%s) = %s (%v), want %s", tt.path, tt.input, got, err, tt.want)
		}
	}
}

func TestLoadFields(t *testing.T) {
	def := load(t, "tools.json")
	if len(def) != 7 {
		t.Errorf("%d tools, want 7 (two entries share a path)", len(def))
	}
	echo := tool(t, def, "test.echo")
	if echo.Description != "Return the input (the last entry with a path wins)" {
		t.Errorf("the last test.echo does not win: %q", echo.Description)
	}
	if string(echo.Input) != `{"type":"object","properties":{"message":{"type":"string"}}}` {
		t.Errorf("input schema %s", echo.Input)
	}
	if fail := tool(t, def, "test.fail"); fail.Input != nil || fail.Output != nil {
		t.Errorf("no schemas given, got %s %s", fail.Input, fail.Output)
	}
	if env := tool(t, def, "test.env"); string(env.Input) != `{"type":"object"}` {
		t.Errorf("a schema given as a string: %s", env.Input)
	}
}

func TestYAML(t *testing.T) {
	def := load(t, "tools.yaml")
	if len(def) != 2 {
		t.Fatalf("%d tools, want 2", len(def))
	}
	echo := tool(t, def, "test.echo")
	var schema map[string]any
	if err := json.Unmarshal(echo.Input, &schema); err != nil {
		t.Fatal(err)
	}
	want := `{"properties":{"count":{"minimum":1,"type":"integer"},"message":{"type":"string"}},"required":["message"],"type":"object"}`
	if got, _ := json.Marshal(schema); string(got) != want {
		t.Errorf("input schema %s, want %s", got, want)
	}
	if echo.Description != "Return the input" {
		t.Errorf("description %q", echo.Description)
	}
	env := tool(t, def, "test.env")
	if env.Description != "Report the working directory and GREETING\n" {
		t.Errorf("folded description %q", env.Description)
	}
	res, err := env.Func(context.Background(), json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Dir, Greeting, Args string }
	if err := json.Unmarshal(res.(json.RawMessage), &got); err != nil {
		t.Fatal(err)
	}
	if got.Greeting != "from yaml" || got.Args != "yaml" || filepath.Base(got.Dir) != "bin" {
		t.Errorf("env tool said %+v", got)
	}
	res, err = echo.Func(context.Background(), json.RawMessage(`{"message":"yaml"}`))
	if err != nil || string(res.(json.RawMessage)) != `{"message":"yaml"}` {
		t.Errorf("echo: %s %v", res, err)
	}
}

func TestYAMLKeys(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "tool.sh"), "#!/bin/sh\ncat\n", 0o755)
	manifest := filepath.Join(dir, "m.yaml")
	writeFile(t, manifest, "tools:\n- path: a\n  argv: [./tool.sh]\n  output: {type: object, properties: {200: {type: string}, true: {type: number}}}\n", 0o644)
	def, err := Load(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(def["a"].(*tools.Tool).Output); got != `{"type":"object","properties":{"200":{"type":"string"},"true":{"type":"number"}}}` {
		t.Errorf("output schema %s", got)
	}
}

// TestYAMLOrder checks that a YAML manifest's schemas keep their keys in
// the order written (the signature lists properties in that order),
// through anchors, merge keys and repeated keys too.
func TestYAMLOrder(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "tool.sh"), "#!/bin/sh\ncat\n", 0o755)
	manifest := filepath.Join(dir, "m.yaml")
	writeFile(t, manifest, `tools:
- path: a
  argv: [./tool.sh]
  input:
    type: object
    properties:
      z: &str {type: string, description: last letter}
      a: {type: integer}
      m: *str
    required: [z, a]
  output:
    properties:
      <<: {y: {type: string}, b: {type: number}}
      q: {type: boolean}
      b: {type: "null"}
      q: {type: string}
    type: object
`, 0o644)
	def, err := Load(manifest)
	if err != nil {
		t.Fatal(err)
	}
	a := def["a"].(*tools.Tool)
	tests := []struct{ name, got, want string }{
		{"input", string(a.Input), `{"type":"object","properties":{"z":{"type":"string","description":"last letter"},"a":{"type":"integer"},"m":{"type":"string","description":"last letter"}},"required":["z","a"]}`},
		{"output", string(a.Output), `{"properties":{"y":{"type":"string"},"b":{"type":"null"},"q":{"type":"string"}},"type":"object"}`},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s schema\n%s\nwant\n%s", tt.name, tt.got, tt.want)
		}
	}
}

func TestWarnings(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "tool.sh"), "#!/bin/sh\ncat\n", 0o755)
	manifest := filepath.Join(dir, "m.json")
	writeFile(t, manifest, `{"tools": [
		{"path": "x", "argv": ["./tool.sh"]},
		{"path": "a.silent", "argv": ["./tool.sh"]},
		{"path": "a.loud", "output": {}, "argv": ["./tool.sh"]},
		{"path": "x", "output": {"type": "string"}, "argv": ["./tool.sh"]},
		{"path": "b", "output": null, "argv": ["./tool.sh"]}
	]}`, 0o644)
	m, err := LoadManifest(manifest)
	if err != nil {
		t.Fatal(err)
	}
	want := "manifest " + manifest + `: tool 2 (a.silent): no "output" schema, so its results are dropped (the program gets undefined); add one, e.g. "output": {} for any JSON` + "\n" +
		"manifest " + manifest + `: tool 5 (b): no "output" schema, so its results are dropped (the program gets undefined); add one, e.g. "output": {} for any JSON`
	if got := strings.Join(m.Warnings, "\n"); got != want {
		t.Errorf("warnings\n%s\nwant\n%s", got, want)
	}
	if len(m.Tools) != 4 {
		t.Errorf("%d tools, want 4", len(m.Tools))
	}
	if m := loadManifest(t, "tools.yaml"); m.Warnings != nil {
		t.Errorf("tools.yaml: warnings %q", m.Warnings)
	}
}

func loadManifest(t *testing.T, name string) *Manifest {
	t.Helper()
	m, err := LoadManifest(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestEnvValues(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "vars.sh")
	writeFile(t, script, "#!/bin/sh\nprintf '[\"%s\",\"%s\",\"%s\"]' \"$PORT\" \"$DEBUG\" \"$NAME\"\n", 0o755)
	manifest := filepath.Join(dir, "m.yml")
	writeFile(t, manifest, "tools:\n- path: v\n  argv: [./vars.sh]\n  env: {PORT: 8080, DEBUG: true, NAME: \"x y\"}\n", 0o644)
	def, err := Load(manifest)
	if err != nil {
		t.Fatal(err)
	}
	res, err := def["v"].(*tools.Tool).Func(context.Background(), nil)
	if err != nil || string(res.(json.RawMessage)) != `["8080","true","x y"]` {
		t.Errorf("env: %s %v", res, err)
	}
}

func writeFile(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "tool.sh"), "#!/bin/sh\ncat\n", 0o755)
	writeFile(t, filepath.Join(dir, "data.txt"), "not a program\n", 0o644)
	tests := []struct {
		name, ext, text, want string
	}{
		{"not json", ".json", `{"tools": [`, "not valid JSON: unexpected end of JSON input"},
		{"not an object", ".json", `[]`, `the manifest must be an object {"tools": [...]}`},
		{"no tools", ".json", `{}`, `no "tools" field; the manifest is {"tools": [...]}`},
		{"unknown top", ".json", `{"tools": [], "tool": []}`, `unknown top-level field "tool"; the manifest is {"tools": [...]}`},
		{"tools not a list", ".json", `{"tools": {}}`, `"tools" must be a list of tool entries`},
		{"entry not an object", ".json", `{"tools": [1]}`, "tool 1: an entry must be an object with the fields path, description, input, output, argv, env, dir"},
		{"missing path", ".json", `{"tools": [{"path": "a", "argv": ["./tool.sh"]}, {"argv": ["./tool.sh"]}]}`, `tool 2: "path" is missing; give the dotted tool path, e.g. "crm.findCustomer"`},
		{"path not a string", ".json", `{"tools": [{"path": 1, "argv": ["./tool.sh"]}]}`, `tool 1: "path" must be a string`},
		{"empty path", ".json", `{"tools": [{"path": "", "argv": ["./tool.sh"]}]}`, `tool 1: "path" is empty`},
		{"empty segment", ".json", `{"tools": [{"path": "a..b", "argv": ["./tool.sh"]}]}`, `tool 1 (a..b): "path" "a..b" contains an empty segment`},
		{"unknown field", ".json", `{"tools": [{"path": "a", "args": ["x"], "argv": ["./tool.sh"]}]}`, `tool 1 (a): unknown field "args"; the fields are path, description, input, output, argv, env, dir`},
		{"missing argv", ".json", `{"tools": [{"path": "crm.find"}]}`, `tool 1 (crm.find): "argv" is missing; give the command and its arguments, e.g. ["./tool.sh", "--flag"]`},
		{"argv a string", ".json", `{"tools": [{"path": "a", "argv": "./tool.sh"}]}`, `tool 1 (a): "argv" must be a list of strings, e.g. ["./tool.sh", "--flag"]`},
		{"argv empty", ".json", `{"tools": [{"path": "a", "argv": []}]}`, `tool 1 (a): "argv" must start with the command to run`},
		{"no such command", ".json", `{"tools": [{"path": "a", "argv": ["./nope.sh"]}]}`, `tool 1 (a): "argv": command ` + filepath.Join(dir, "nope.sh") + ` does not exist`},
		{"not executable", ".json", `{"tools": [{"path": "a", "argv": ["./data.txt"]}]}`, `tool 1 (a): "argv": command ` + filepath.Join(dir, "data.txt") + ` is not an executable file`},
		{"not in PATH", ".json", `{"tools": [{"path": "a", "argv": ["no-such-command-xyz"]}]}`, `tool 1 (a): "argv": command "no-such-command-xyz" is not in PATH`},
		{"description", ".json", `{"tools": [{"path": "a", "description": 1, "argv": ["./tool.sh"]}]}`, `tool 1 (a): "description" must be a string`},
		{"bad schema JSON", ".json", `{"tools": [{"path": "a", "input": "{\"type\": ", "argv": ["./tool.sh"]}]}`, `tool 1 (a): "input" is not valid schema JSON: unexpected end of JSON input`},
		{"schema not an object", ".json", `{"tools": [{"path": "a", "output": [1], "argv": ["./tool.sh"]}]}`, `tool 1 (a): "output" must be a JSON Schema object, e.g. {"type": "object", "properties": {...}}`},
		{"input not an object schema", ".json", `{"tools": [{"path": "a", "input": {"type": "string"}, "argv": ["./tool.sh"]}]}`, `tool 1 (a): "input": a tool's input is an object, so its schema's type must be "object", not "string"`},
		{"schema type", ".json", `{"tools": [{"path": "a", "output": {"type": 1}, "argv": ["./tool.sh"]}]}`, `tool 1 (a): "output": "type" must be a string or a list of strings`},
		{"schema properties", ".json", `{"tools": [{"path": "a", "input": {"properties": []}, "argv": ["./tool.sh"]}]}`, `tool 1 (a): "input": "properties" must be an object of property schemas`},
		{"schema required", ".json", `{"tools": [{"path": "a", "input": {"required": "x"}, "argv": ["./tool.sh"]}]}`, `tool 1 (a): "input": "required" must be a list of property names`},
		{"env not an object", ".json", `{"tools": [{"path": "a", "env": ["A=1"], "argv": ["./tool.sh"]}]}`, `tool 1 (a): "env" must be an object of variable names and values`},
		{"env value", ".json", `{"tools": [{"path": "a", "env": {"A": {"b": 1}}, "argv": ["./tool.sh"]}]}`, `tool 1 (a): "env": A must be a string, a number or a boolean`},
		{"env name", ".json", `{"tools": [{"path": "a", "env": {"A=B": "1"}, "argv": ["./tool.sh"]}]}`, `tool 1 (a): "env": "A=B" is not a variable name`},
		{"dir missing", ".json", `{"tools": [{"path": "a", "dir": "nowhere", "argv": ["./tool.sh"]}]}`, `tool 1 (a): "dir": ` + filepath.Join(dir, "nowhere") + ` is not a directory`},
		{"dir not a string", ".json", `{"tools": [{"path": "a", "dir": 1, "argv": ["./tool.sh"]}]}`, `tool 1 (a): "dir" must be a directory name`},
		{"yaml syntax", ".yaml", "tools:\n\t- path: a\n", "yaml: line 2: found character that cannot start any token"},
		{"yaml missing argv", ".yml", "tools:\n  - path: a.b\n    description: x\n", `tool 1 (a.b): "argv" is missing; give the command and its arguments, e.g. ["./tool.sh", "--flag"]`},
		{"yaml top list", ".yaml", "- path: a\n", `the manifest must be an object {"tools": [...]}`},
	}
	for i, tt := range tests {
		path := filepath.Join(dir, "m"+strconv.Itoa(i)+tt.ext)
		writeFile(t, path, tt.text, 0o644)
		_, err := Load(path)
		want := "manifest " + path + ": " + tt.want
		if err == nil || err.Error() != want {
			t.Errorf("%s: error\n%v\nwant\n%s", tt.name, err, want)
		}
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing manifest: %v", err)
	}
}

// TestCancel checks that ending the call's context kills the command and
// the children it started, and that the call returns soon after.
func TestCancel(t *testing.T) {
	dir := t.TempDir()
	pidfile := filepath.Join(dir, "pid")
	script, err := filepath.Abs("testdata/bin/sleep.sh")
	if err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dir, "m.json")
	writeFile(t, manifest, fmt.Sprintf(`{"tools": [{"path": "sleepy", "argv": [%q], "env": {"PIDFILE": %q}}]}`, script, pidfile), 0o644)
	def, err := Load(manifest)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := def["sleepy"].(*tools.Tool).Func(ctx, json.RawMessage(`{}`))
		done <- err
	}()
	// Wait for the script to have started its child.
	var child int
	for child == 0 {
		if b, err := os.ReadFile(pidfile); err == nil && strings.HasSuffix(string(b), "\n") {
			child, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		if time.Since(start) > 5*time.Second {
			t.Fatal("the script did not start its child")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	cancelled := time.Now()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "command "+script+" was stopped: context canceled") {
			t.Errorf("error %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the call did not return within 5s of cancellation")
	}
	if d := time.Since(cancelled); d > 4*time.Second {
		t.Errorf("the call took %v to return after cancellation", d)
	}
	// The sleeping child is gone (or a zombie waiting for init to reap it).
	for deadline := time.Now().Add(3 * time.Second); alive(child); {
		if time.Now().After(deadline) {
			t.Fatalf("the script's child %d outlived the cancelled call", child)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// alive reports whether a process exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// pid (comm) state ...
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func TestCancelledBeforeStart(t *testing.T) {
	def := load(t, "tools.json")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tool(t, def, "test.echo").Func(ctx, json.RawMessage(`{}`)); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v", err)
	}
}

// TestParallel checks that calls do not wait for each other: four calls
// of a command that sleeps 1s take well under 4s together.
func TestParallel(t *testing.T) {
	nap := tool(t, load(t, "tools.json"), "test.nap")
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			res, err := nap.Func(context.Background(), json.RawMessage(fmt.Sprintf(`{"i":%d}`, i)))
			if err == nil && string(res.(json.RawMessage)) != fmt.Sprintf(`{"i":%d}`, i) {
				err = fmt.Errorf("result %s", res)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("call %d: %v", i, err)
		}
	}
	if d := time.Since(start); d > 3500*time.Millisecond {
		t.Errorf("4 parallel 1s calls took %v", d)
	}
}

func TestLargeOutput(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "big.sh"), fmt.Sprintf("#!/bin/sh\nhead -c %d /dev/zero | tr '\\0' ' '\necho 1\n", MaxStdout+10), 0o755)
	writeFile(t, filepath.Join(dir, "noisy.sh"), "#!/bin/sh\nhead -c 100000 /dev/zero | tr '\\0' x >&2\nexit 1\n", 0o755)
	writeFile(t, filepath.Join(dir, "m.json"), `{"tools": [{"path": "big", "argv": ["./big.sh"]}, {"path": "noisy", "argv": ["./noisy.sh"]}]}`, 0o644)
	def, err := Load(filepath.Join(dir, "m.json"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = def["big"].(*tools.Tool).Func(context.Background(), nil)
	if want := fmt.Sprintf("command ./big.sh wrote more than %d bytes on standard output", MaxStdout); err == nil || err.Error() != want {
		t.Errorf("big: %v", err)
	}
	_, err = def["noisy"].(*tools.Tool).Func(context.Background(), nil)
	if err == nil || len(err.Error()) != maxStderr+len(" [...]") || !strings.HasSuffix(err.Error(), "xx [...]") {
		t.Errorf("noisy: %d bytes", len(err.Error()))
	}
}
