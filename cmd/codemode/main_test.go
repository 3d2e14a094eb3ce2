package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/go-codemode/codemode/tools"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		stdin  string
		out    string
		status int
		flags  []string // before the program
		stderr string   // the whole of standard error
	}{
		{"ok", "const r = await tools.a.b({});\nconsole.log(r);\nreturn r", `{"ok":true,"globals":["console","tools"],"tools":[{"path":"a.b","expression":"tools.a.b","location":{"line":1,"column":17},"known":false}],"search":[],"dynamic":[]}`, 0, nil, ""},
		{"no globals", "return 1 + 2", `{"ok":true,"globals":[],"tools":[],"search":[],"dynamic":[]}`, 0, nil, ""},
		{"parse error", "let x = 1;\nlet x = 2;",
			`{"ok":false,"error":{"kind":"ParseError","message":"Identifier 'x' has already been declared","location":{"line":2,"column":5}}}`, 1, nil, ""},
		{"typescript erased", "const n: number = await tools.a.b({} as Args)\nreturn n!",
			`{"ok":true,"globals":["tools"],"tools":[{"path":"a.b","expression":"tools.a.b","location":{"line":1,"column":25},"known":false}],"search":[],"dynamic":[]}`, 0, nil, ""},
		{"typescript rejected", "const n: number = 1",
			`{"ok":false,"error":{"kind":"ParseError","message":"TypeScript syntax is not accepted (type annotation); write plain JavaScript","location":{"line":1,"column":8}}}`, 1, []string{"--no-typescript"}, ""},
		{"typescript enum", "enum E { A }",
			`{"ok":false,"error":{"kind":"ParseError","message":"TypeScript enums have run-time meaning and are not supported: use a plain object, e.g. const Color = { Red: 0, Green: 1 } as const","location":{"line":1,"column":1}}}`, 1, nil, ""},
		{"empty", "  \n",
			`{"ok":false,"error":{"kind":"ParseError","message":"Code cannot be empty.","location":{"line":1,"column":1}}}`, 1, nil, ""},
		{"fenced wrapper", "```js\nasync () => {\n  return tools.x.y()\n}\n```", `{"ok":true,"globals":["tools"],"tools":[{"path":"x.y","expression":"tools.x.y","location":{"line":3,"column":10},"known":false}],"search":[],"dynamic":[]}`, 0, nil, ""},
		{"html in strings stays", `return "<a&b>"`, `{"ok":true,"globals":[],"tools":[],"search":[],"dynamic":[]}`, 0, nil, ""},
		{"demo tools checked", "const c = await tools.demo.getCustomer({id: 1});\nawait tools.demo.getCustomers({});\nsearch({query: \"orders\"})",
			`{"ok":true,"globals":["search","tools"],"tools":[{"path":"demo.getCustomer","expression":"tools.demo.getCustomer","location":{"line":1,"column":17},"known":true},{"path":"demo.getCustomers","expression":"tools.demo.getCustomers","location":{"line":2,"column":7},"known":false,"suggestion":"tools.demo.getCustomer"}],"search":[{"line":3,"column":1}],"dynamic":[]}`, 0, nil, ""},
		{"strict: unknown tools fail", "const c = await tools.demo.getCustomer({id: 1});\nawait tools.demo.getCustomers({});\nawait tools.nope.x()",
			`{"ok":false,"globals":["tools"],"tools":[{"path":"demo.getCustomer","expression":"tools.demo.getCustomer","location":{"line":1,"column":17},"known":true},{"path":"demo.getCustomers","expression":"tools.demo.getCustomers","location":{"line":2,"column":7},"known":false,"suggestion":"tools.demo.getCustomer"},{"path":"nope.x","expression":"tools.nope.x","location":{"line":3,"column":7},"known":false}],"search":[],"dynamic":[]}`, 1, []string{"--strict"},
			"codemode check: 2:7: unknown tool tools.demo.getCustomers (did you mean tools.demo.getCustomer?)\ncodemode check: 3:7: unknown tool tools.nope.x\n"},
		{"strict: known tools pass", "return await tools.demo.getCustomer({id: 1})",
			`{"ok":true,"globals":["tools"],"tools":[{"path":"demo.getCustomer","expression":"tools.demo.getCustomer","location":{"line":1,"column":14},"known":true}],"search":[],"dynamic":[]}`, 0, []string{"--strict"}, ""},
		{"strict: parse error still 1", "let x = 1;\nlet x = 2;",
			`{"ok":false,"error":{"kind":"ParseError","message":"Identifier 'x' has already been declared","location":{"line":2,"column":5}}}`, 1, []string{"--strict"}, ""},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		args := append(append([]string{"check"}, tt.flags...), "-")
		status := run(args, strings.NewReader(tt.stdin), &stdout, &stderr)
		if status != tt.status || strings.TrimSpace(stdout.String()) != tt.out || stderr.String() != tt.stderr {
			t.Errorf("%s: status %d, output %s (stderr %q)\nwant status %d, output %s (stderr %q)", tt.name, status, stdout.String(), stderr.String(), tt.status, tt.out, tt.stderr)
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
	if got := strings.TrimSpace(stdout.String()); got != `{"ok":true,"globals":["Math"],"tools":[],"search":[],"dynamic":[]}` {
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

// runCLI runs the command with args and a program on standard input.
func runCLI(t *testing.T, args []string, program string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	status = run(args, strings.NewReader(program), &out, &errOut)
	return status, strings.TrimSpace(out.String()), errOut.String()
}

// TestRunFlags runs programs with every flag of run, working and not.
// Usage errors exit 2 with the reason on stderr and nothing on stdout.
func TestRunFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string // before "-"
		program string
		status  int
		out     string // the Result (when status < 2)
		stderr  string // a part of stderr (when status == 2)
	}{
		// The demo tools are there without --tools.
		{"demo tools", nil, `return (await tools.demo.getCustomer({id: 4})).name`, 0,
			`{"ok":true,"value":"Dana Schmidt","toolCalls":[{"name":"demo.getCustomer"}]}`, ""},
		{"demo failure", nil, `return await tools.demo.getCustomer({id: 99})`, 1,
			`{"ok":false,"error":{"kind":"ToolFailure","message":"customer 99 not found"},"toolCalls":[{"name":"demo.getCustomer"}]}`, ""},

		{"typescript erased", nil, `const n: number = 2; return n as number`, 0, `{"ok":true,"value":2,"toolCalls":[]}`, ""},
		{"no-typescript", []string{"--no-typescript"}, `const n: number = 2; return n`, 1,
			`{"ok":false,"error":{"kind":"ParseError","message":"TypeScript syntax is not accepted (type annotation); write plain JavaScript (1:7)","location":{"line":1,"column":8}},"toolCalls":[]}`, ""},

		{"engine vm", []string{"--engine", "vm"}, `return [1, 2].map(x => x * 3)`, 0, `{"ok":true,"value":[3,6],"toolCalls":[]}`, ""},
		{"engine vm tool", []string{"--engine=vm"}, `const c = tools.demo.getCustomer({id: 4}); return (await c).name`, 0,
			`{"ok":true,"value":"Dana Schmidt","toolCalls":[{"name":"demo.getCustomer"}]}`, ""},
		{"engine ast", []string{"--engine", "ast"}, `return 1 + 1`, 0, `{"ok":true,"value":2,"toolCalls":[]}`, ""},
		{"engine unknown", []string{"--engine", "v8"}, `return 1`, 2, "", `invalid value "v8" for flag -engine: ast or vm`},

		{"timeout", []string{"--timeout", "50ms"}, `while (true) {}`, 1,
			`{"ok":false,"error":{"kind":"TimeoutExceeded","message":"Execution timed out after 50ms."},"toolCalls":[]}`, ""},
		{"timeout none", []string{"--timeout", "0"}, `return 1`, 0, `{"ok":true,"value":1,"toolCalls":[]}`, ""},
		{"timeout not a duration", []string{"--timeout", "soon"}, `return 1`, 2, "", `invalid value "soon" for flag -timeout`},
		{"timeout negative", []string{"--timeout", "-1s"}, `return 1`, 2, "", `invalid value "-1s" for flag -timeout: 0 (none) or at least 1ms`},
		{"timeout too small", []string{"--timeout", "10us"}, `return 1`, 2, "", `invalid value "10µs" for flag -timeout: 0 (none) or at least 1ms`},

		{"max-tool-calls", []string{"--max-tool-calls", "1"}, `await tools.demo.getCustomer({id: 1}); await tools.demo.getCustomer({id: 2}); return 1`, 1,
			`{"ok":false,"error":{"kind":"ToolCallLimitExceeded","message":"Execution exceeded its tool-call limit of 1."},"toolCalls":[{"name":"demo.getCustomer"}]}`, ""},
		{"max-tool-calls enough", []string{"--max-tool-calls=2"}, `await tools.demo.getCustomer({id: 1}); await tools.demo.getCustomer({id: 2}); return 1`, 0,
			`{"ok":true,"value":1,"toolCalls":[{"name":"demo.getCustomer"},{"name":"demo.getCustomer"}]}`, ""},
		{"max-tool-calls 0", []string{"--max-tool-calls", "0"}, `try { await tools.demo.listInventory() } catch (e) { return e.message }`, 0,
			`{"ok":true,"value":"Execution exceeded its tool-call limit of 0.","toolCalls":[]}`, ""},
		{"max-tool-calls negative", []string{"--max-tool-calls", "-1"}, `return 1`, 2, "", `invalid value "-1" for flag -max-tool-calls: a whole number, 0 or more`},
		{"max-tool-calls not a number", []string{"--max-tool-calls", "many"}, `return 1`, 2, "", `invalid value "many" for flag -max-tool-calls`},

		{"max-output-bytes", []string{"--max-output-bytes", "10"}, `return "x".repeat(50)`, 0,
			`{"ok":true,"value":"\"xxxxxxxxx [result truncated: 52 bytes exceeds the 10-byte output limit; return a smaller value]","truncated":true,"toolCalls":[]}`, ""},
		{"max-output-bytes enough", []string{"--max-output-bytes", "100"}, `return "x".repeat(50)`, 0,
			`{"ok":true,"value":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx","toolCalls":[]}`, ""},
		{"max-output-bytes bad", []string{"--max-output-bytes", "1.5"}, `return 1`, 2, "", `invalid value "1.5" for flag -max-output-bytes: a whole number, 0 or more`},

		{"max-memory", []string{"--max-memory", "1MiB"}, `const a = []; for (let i = 0; i < 1e6; i++) a.push({i}); return a.length`, 1,
			`{"ok":false,"error":{"kind":"MemoryLimitExceeded","message":"Execution exceeded its memory limit of 1048576 bytes."},"toolCalls":[]}`, ""},
		{"max-memory decimal", []string{"--max-memory", "2MB"}, `const a = []; for (let i = 0; i < 1e6; i++) a.push({i}); return a.length`, 1,
			`{"ok":false,"error":{"kind":"MemoryLimitExceeded","message":"Execution exceeded its memory limit of 2000000 bytes."},"toolCalls":[]}`, ""},
		{"max-memory plain bytes", []string{"--max-memory", "500000"}, `return "ok"`, 0, `{"ok":true,"value":"ok","toolCalls":[]}`, ""},
		{"max-memory bad unit", []string{"--max-memory", "64XB"}, `return 1`, 2, "", `invalid value "64XB" for flag -max-memory: a size in bytes, such as 256MiB, 64MB or 1000000`},
		{"max-memory negative", []string{"--max-memory", "-1"}, `return 1`, 2, "", `invalid value "-1" for flag -max-memory`},
		{"max-memory no number", []string{"--max-memory", "MiB"}, `return 1`, 2, "", `invalid value "MiB" for flag -max-memory`},

		{"bindings", []string{"--bindings", `{"user": {"id": 7, "name": "Ada"}, "n": 2}`}, `return [user.name, user.id * n]`, 0,
			`{"ok":true,"value":["Ada",14],"toolCalls":[]}`, ""},
		{"bindings from a file", []string{"--bindings", "@testdata/bindings.json"}, `return {name: user.name, sum: limits.reduce((a, b) => a + b)}`, 0,
			`{"ok":true,"value":{"name":"Ada","sum":6},"toolCalls":[]}`, ""},
		{"bindings not an object", []string{"--bindings", `[1, 2]`}, `return 1`, 2, "", `--bindings: must be a JSON object of named values, e.g. {"user":{"id":1}}, not an array`},
		{"bindings null", []string{"--bindings", `null`}, `return 1`, 2, "", `--bindings: must be a JSON object of named values, e.g. {"user":{"id":1}}, not null`},
		{"bindings not JSON", []string{"--bindings", `{user: 1}`}, `return 1`, 2, "", `--bindings: not valid JSON (invalid character 'u' looking for beginning of object key string)`},
		{"bindings two values", []string{"--bindings", `{} {}`}, `return 1`, 2, "", `--bindings: more than one JSON value`},
		{"bindings missing file", []string{"--bindings", "@testdata/nope.json"}, `return 1`, 2, "", `--bindings: open testdata/nope.json: no such file or directory`},

		{"tools", []string{"--tools", "testdata/tools.json"}, `return await tools.util.echo({a: [1, "two"]})`, 0,
			`{"ok":true,"value":{"a":[1,"two"]},"toolCalls":[{"name":"util.echo"}]}`, ""},
		{"tools failure", []string{"--tools", "testdata/tools.json"}, `return await tools.util.fail()`, 1,
			`{"ok":false,"error":{"kind":"ToolFailure","message":"the backend is down"},"toolCalls":[{"name":"util.fail"}]}`, ""},
		{"tools replace the demo", []string{"--tools", "testdata/tools.json"}, `return await tools.demo.getCustomer({id: 1})`, 1,
			`{"ok":false,"error":{"kind":"UnknownTool","message":"Unknown tool 'demo.getCustomer'.","suggestions":["Use search to find available tools."]},"toolCalls":[]}`, ""},
		{"tools yaml", []string{"--tools", "testdata/github/tools.yaml"}, `return (await tools.github.getRepo({owner: "a", repo: "b"})).stars`, 0,
			`{"ok":true,"value":128,"toolCalls":[{"name":"github.getRepo"}]}`, ""},
		{"tools missing", []string{"--tools", "testdata/nope.json"}, `return 1`, 2, "", `--tools: open testdata/nope.json: no such file or directory`},
		{"tools invalid", []string{"--tools", "testdata/bad-tools.json"}, `return 1`, 2, "",
			`--tools: manifest testdata/bad-tools.json: tool 1 (util.broken): "argv" is missing`},

		{"help", []string{"-h"}, ``, 0, "usage: codemode run [flags] FILE|-", ""},
		{"two programs", []string{"a.js"}, `return 1`, 2, "", "one program at a time (got a.js -); flags go before the program"},
	}
	for _, tt := range tests {
		status, stdout, stderr := runCLI(t, append(append([]string{"run"}, tt.args...), "-"), tt.program)
		switch {
		case status != tt.status:
			t.Errorf("%s: status %d, want %d (stdout %s, stderr %q)", tt.name, status, tt.status, stdout, stderr)
		case tt.status == 2:
			if stdout != "" || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("%s: stderr %q, want it to contain %q (stdout %q)", tt.name, stderr, tt.stderr, stdout)
			}
		case !strings.HasPrefix(stdout, tt.out) || tt.name != "help" && stdout != tt.out:
			t.Errorf("%s: output\n%s\nwant\n%s", tt.name, stdout, tt.out)
		}
	}
}

func TestRunDefaults(t *testing.T) {
	cfg, err := parseRunArgs([]string{"x.js"})
	if err != nil {
		t.Fatal(err)
	}
	l := cfg.opts.Limits
	if l.Timeout != 30*time.Second || l.MaxMemoryBytes != 256<<20 || l.MaxToolCalls != nil || l.MaxOutputBytes != nil {
		t.Errorf("default limits %+v", l)
	}
	if _, ok := cfg.opts.Tools["demo"]; !ok || len(cfg.opts.Tools) != 1 {
		t.Errorf("default tools %v", cfg.opts.Tools)
	}
	cfg, err = parseRunArgs([]string{"--max-memory", "0", "--max-tool-calls", "3", "--max-output-bytes", "0", "x.js"})
	if err != nil {
		t.Fatal(err)
	}
	l = cfg.opts.Limits
	if l.MaxMemoryBytes != 0 || l.MaxToolCalls == nil || *l.MaxToolCalls != 3 || l.MaxOutputBytes == nil || *l.MaxOutputBytes != 0 {
		t.Errorf("limits %+v", l)
	}
}

func TestByteSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"0", 0}, {"1000", 1000}, {"1000B", 1000}, {"1000 b", 1000},
		{"64KB", 64_000}, {"64kb", 64_000}, {"64MB", 64_000_000}, {"2GB", 2_000_000_000}, {"1TB", 1_000_000_000_000},
		{"64KiB", 64 << 10}, {"256MiB", 256 << 20}, {"256mib", 256 << 20}, {"1.5GiB", 3 << 29}, {"1TiB", 1 << 40},
		{"", -1}, {"MiB", -1}, {"-1", -1}, {"-1MiB", -1}, {"1.5", -1}, {"1.5B", -1}, {"12XB", -1}, {"1e3", -1},
		{"99999999999TiB", -1}, {"1..2MB", -1}, {"64M", -1}, {"64k", -1},
	}
	for _, tt := range tests {
		got, err := parseByteSize(tt.in)
		if tt.want < 0 {
			if err == nil {
				t.Errorf("%q: %d, want an error", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%q: %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

// TestRunKillsCommands checks that a command tool still running when the
// run times out is killed, with its children, before run returns.
func TestRunKillsCommands(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	t.Setenv("PIDFILE", pidfile)
	start := time.Now()
	status, stdout, stderr := runCLI(t, []string{"run", "--timeout", "300ms", "--tools", "testdata/tools.json", "-"}, `return await tools.util.sleep()`)
	want := `{"ok":false,"error":{"kind":"TimeoutExceeded","message":"Execution timed out after 300ms."},"toolCalls":[{"name":"util.sleep"}]}`
	if status != 1 || stdout != want {
		t.Errorf("status %d, output %s (stderr %q)", status, stdout, stderr)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("run took %v", d)
	}
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatalf("the tool never started: %v", err)
	}
	pid := strings.TrimSpace(string(b))
	if pid == "" {
		t.Fatal("no pid recorded")
	}
	// The child was sent SIGKILL before run returned; give it a moment
	// to finish dying (a killed process may still show as running).
	for deadline := time.Now().Add(3 * time.Second); running(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the tool's child %s is still running 3s after run returned", pid)
		}
	}
	// An un-awaited call is stopped when the program returns, too.
	status, stdout, _ = runCLI(t, []string{"run", "--tools", "testdata/tools.json", "-"}, `tools.util.sleep(); return "done"`)
	if status != 0 || !strings.HasPrefix(stdout, `{"ok":true,"value":"done"`) {
		t.Errorf("un-awaited: status %d, output %s", status, stdout)
	}
}

// TestExamples runs every program in examples/ with `codemode run` on
// both engines and checks that each returns an ok Result, the same on
// both, byte for byte. They use the demo tools, except
// orchestrate.js, which calls tools.github.*: it runs with a manifest of
// command tools that stand in for GitHub.
func TestExamples(t *testing.T) {
	manifests := map[string]string{"orchestrate.js": "testdata/github/tools.yaml"}
	files, err := filepath.Glob("../../examples/*.js")
	if err != nil || len(files) < 6 {
		t.Fatalf("examples: %v %v", files, err)
	}
	for _, f := range files {
		results := map[string]string{}
		for _, engine := range []string{"ast", "vm"} {
			args := []string{"run", "--engine", engine}
			if m, ok := manifests[filepath.Base(f)]; ok {
				args = append(args, "--tools", m)
			}
			status, stdout, stderr := runCLI(t, append(args, f), "")
			if status != 0 || !strings.HasPrefix(stdout, `{"ok":true,`) {
				t.Errorf("%s on engine %s: status %d, output %s (stderr %q)", f, engine, status, stdout, stderr)
			}
			results[engine] = stdout
		}
		if results["ast"] != results["vm"] {
			t.Errorf("%s: the engines differ:\n ast %s\n vm  %s", f, results["ast"], results["vm"])
		}
	}
}

// running reports whether a process exists and is not a zombie left for
// init to reap.
func running(pid string) bool {
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return false
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func TestInflight(t *testing.T) {
	var f inflight
	release := make(chan struct{})
	started := make(chan struct{})
	def := f.wrap(map[string]any{"a": map[string]any{"slow": &tools.Tool{Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
		close(started)
		<-release
		return 1, nil
	}}}})
	slow := def["a"].(map[string]any)["slow"].(*tools.Tool)
	go slow.Func(context.Background(), nil)
	<-started
	if f.wait(10 * time.Millisecond) {
		t.Error("wait returned true with a call running")
	}
	close(release)
	if !f.wait(5 * time.Second) {
		t.Error("wait returned false after the call returned")
	}
	if _, err := slow.Func(context.Background(), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("a call after wait ran: %v", err)
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		status, out, errOut := runCLI(t, args, "")
		// Test binaries carry build info with the main module's version
		// "(devel)" or empty (both print "(devel)"), and the Go version.
		want := "codemode (devel) " + runtime.Version()
		if status != 0 || out != want || errOut != "" {
			t.Errorf("%q: status %d, output %q, stderr %q; want 0, %q", args, status, out, errOut, want)
		}
	}
	tests := []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/go-codemode/codemode", Version: "v0.3.1"}}, true, "codemode v0.3.1 go1.26.8"},
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, true, "codemode (devel) go1.26.8"},
		{&debug.BuildInfo{GoVersion: "go1.26.8"}, true, "codemode (devel) go1.26.8"},
		{nil, false, "codemode (unknown) " + runtime.Version()},
	}
	for _, tt := range tests {
		if got := versionLine(tt.info, tt.ok); got != tt.want {
			t.Errorf("versionLine(%+v, %v) = %q, want %q", tt.info, tt.ok, got, tt.want)
		}
	}
}

// TestManifestWarnings checks that every subcommand loading a manifest
// prints its warnings on stderr and still works.
func TestManifestWarnings(t *testing.T) {
	const warning = `: warning: manifest testdata/no-output.yaml: tool 1 (util.fire): no "output" schema, so its results are dropped (the program gets undefined); add one, e.g. "output": {} for any JSON` + "\n"
	tests := []struct {
		name    string
		args    []string
		program string
		out     string // a prefix of stdout
	}{
		{"run", []string{"run", "--tools", "testdata/no-output.yaml", "-"}, "return [await tools.util.fire({a: 1}), await tools.util.echo({a: 2})]",
			`{"ok":true,"value":[null,{"a":2}],"toolCalls":[`},
		{"check", []string{"check", "--tools", "testdata/no-output.yaml", "-"}, "tools.util.fire({})", `{"ok":true,`},
		{"catalog", []string{"catalog", "--tools", "testdata/no-output.yaml"}, "", "/** Echo the input */\ntools.util.echo(): Promise<unknown>"},
		{"search", []string{"search", "--tools", "testdata/no-output.yaml", "fire"}, "", `{"items":[{"path":"tools.util.fire",`},
	}
	for _, tt := range tests {
		status, out, errOut := runCLI(t, tt.args, tt.program)
		if status != 0 || !strings.HasPrefix(out, tt.out) || errOut != "codemode "+tt.name+warning {
			t.Errorf("%s: status %d, stdout %s, stderr %q\nwant 0, stdout %s..., stderr %q", tt.name, status, out, errOut, tt.out, "codemode "+tt.name+warning)
		}
	}
}

// TestDisasm: disasm prints the VM's bytecode with source positions, and
// a program that does not parse is its error.
func TestDisasm(t *testing.T) {
	tests := []struct {
		name, program string
		status        int
		stdout        string // a part of stdout
		stderr        string // a part of stderr
	}{
		{"program", "const x = 1;\nreturn x + 2", 0, "func 0 <program> (1:1)", ""},
		{"positions", "const x = 1;\nreturn x + 2", 0, "2:8   add", ""},
		{"parse error", "return (", 1, "", "codemode disasm:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			status := run([]string{"disasm", "-"}, strings.NewReader(tt.program), &out, &errb)
			if status != tt.status || !strings.Contains(out.String(), tt.stdout) || !strings.Contains(errb.String(), tt.stderr) {
				t.Errorf("status %d\nstdout: %s\nstderr: %s\nwant status %d, stdout with %q, stderr with %q", status, out.String(), errb.String(), tt.status, tt.stdout, tt.stderr)
			}
		})
	}
	var out, errb bytes.Buffer
	if status := run([]string{"disasm"}, strings.NewReader(""), &out, &errb); status != 2 {
		t.Errorf("disasm without a program: status %d, want 2", status)
	}
}
