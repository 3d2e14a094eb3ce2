package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// childEnv, set to 1, makes the test binary run the command instead of
// the tests, with the arguments in childArgsEnv (a JSON array): a test
// can so run `codemode ...` in another process without building it.
const (
	childEnv     = "CODEMODE_CLI_CHILD"
	childArgsEnv = "CODEMODE_CLI_ARGS"
)

// TestMain runs the tests, or, in a child process started by
// runChild, the command.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "argv" {
		// A worker that codemode serve --isolate started from this
		// binary: the command is in the arguments.
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	if os.Getenv(childEnv) == "1" {
		var args []string
		if err := json.Unmarshal([]byte(os.Getenv(childArgsEnv)), &args); err != nil {
			os.Stderr.WriteString("codemode test child: " + childArgsEnv + " is not a JSON array of strings: " + err.Error() + "\n")
			os.Exit(2)
		}
		os.Exit(run(args, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// runChild runs the command with args in a new process (this test
// binary, re-executed) and returns its exit status and output.
func runChild(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	enc, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"=1", childArgsEnv+"="+string(enc))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		status = ee.ExitCode()
	case err != nil:
		t.Fatalf("starting the child process: %v", err)
	}
	return status, strings.TrimSpace(out.String()), errOut.String()
}

const approvalJS = "../../examples/approval.js"

// The outputs of examples/approval.js: paused at both cancellations,
// and the Results after the decisions.
const (
	pendingBoth = `{"ok":"suspended","pending":[` +
		`{"key":"call-3","path":"demo.updateOrderStatus","input":{"id":1004,"status":"cancelled"}},` +
		`{"key":"call-4","path":"demo.updateOrderStatus","input":{"id":1006,"status":"cancelled"}}]}`
	pendingSecond = `{"ok":"suspended","pending":[` +
		`{"key":"call-4","path":"demo.updateOrderStatus","input":{"id":1006,"status":"cancelled"}}]}`
	approvalCalls = `"toolCalls":[{"name":"demo.getCustomer"},{"name":"demo.listOrders"},{"name":"demo.updateOrderStatus"},{"name":"demo.updateOrderStatus"}]}`
	bothCancelled = `{"ok":true,"value":{"customer":"Chen Wei","cancelled":[{"id":1004,"status":"cancelled","total":149},{"id":1006,"status":"cancelled","total":109.98}],"kept":[],"refund":"258.98"},` +
		`"logs":["Chen Wei: 2 cancelled, 0 kept"],` + approvalCalls
	oneDenied = `{"ok":true,"value":{"customer":"Chen Wei","cancelled":[{"id":1004,"status":"cancelled","total":149}],"kept":[{"id":1006,"status":"paid","reason":"paid: refund it first"}],"refund":"149.00"},` +
		`"logs":["Chen Wei: 1 cancelled, 1 kept"],` + approvalCalls
	bothDenied = `{"ok":true,"value":{"customer":"Chen Wei","cancelled":[],"kept":[{"id":1004,"status":"pending","reason":"no"},{"id":1006,"status":"paid","reason":"no"}],"refund":"0.00"},` +
		`"logs":["Chen Wei: 0 cancelled, 2 kept"],` + approvalCalls
)

// suspendApproval runs examples/approval.js holding its cancellations
// and returns the state file it wrote.
func suspendApproval(t *testing.T) string {
	t.Helper()
	state := filepath.Join(t.TempDir(), "run.state")
	status, stdout, stderr := runCLI(t, []string{"run", "--engine", "vm", "--approve", "demo.updateOrderStatus", "--state", state, approvalJS}, "")
	if status != exitSuspended || stdout != pendingBoth {
		t.Fatalf("run --approve: status %d, output %s (stderr %q)\nwant status 3, output %s", status, stdout, stderr, pendingBoth)
	}
	return state
}

// TestApprovalRun: run --approve PATH --state FILE pauses at the calls
// of PATH, saves the run (mode 0600) and prints the pending calls; its
// usage errors exit 2.
func TestApprovalRun(t *testing.T) {
	tests := []struct {
		name   string
		flags  []string // before the program; "STATE" is the state file
		status int
		out    string // all of stdout
		stderr string // a part of stderr
	}{
		{"approve", []string{"--engine", "vm", "--approve", "demo.updateOrderStatus", "--state", "STATE"}, 3, pendingBoth, "codemode resume STATE --approve KEY"},
		{"tools. prefix", []string{"--approve", "tools.demo.updateOrderStatus", "--state", "STATE"}, 3, pendingBoth, ""},
		{"comma list", []string{"--approve", "demo.restock,demo.updateOrderStatus", "--state", "STATE"}, 3, pendingBoth, ""},
		{"repeated", []string{"--approve", "demo.restock", "--approve", "demo.updateOrderStatus", "--state", "STATE"}, 3, pendingBoth, ""},
		{"pretty", []string{"--pretty", "--approve", "demo.updateOrderStatus", "--state", "STATE"}, 3, "{\n  \"ok\": \"suspended\",\n  \"pending\": [\n    {\n      \"key\": \"call-3\",", ""},
		{"other tools held", []string{"--approve", "demo.restock", "--state", "STATE"}, 0, bothCancelled, ""},
		{"state alone", []string{"--state", "STATE"}, 0, bothCancelled, ""},

		{"approve without state", []string{"--approve", "demo.updateOrderStatus"}, 2, "", "add --state FILE"},
		{"approve on ast", []string{"--engine", "ast", "--approve", "demo.updateOrderStatus", "--state", "STATE"}, 2, "", "need engine vm"},
		{"unknown tool", []string{"--approve", "demo.updateOrder", "--state", "STATE"}, 2, "", "--approve demo.updateOrder: there is no tool demo.updateOrder"},
		{"empty path", []string{"--approve", "demo.restock,", "--state", "STATE"}, 2, "", "a tool path such as demo.updateOrderStatus"},
		{"no directory", []string{"--approve", "demo.updateOrderStatus", "--state", "/does/not/exist/run.state"}, 1, "", "saving the paused run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state := filepath.Join(t.TempDir(), "run.state")
			args := []string{"run"}
			for _, f := range tt.flags {
				args = append(args, strings.ReplaceAll(f, "STATE", state))
			}
			status, stdout, stderr := runCLI(t, append(args, approvalJS), "")
			wantErr := strings.ReplaceAll(tt.stderr, "STATE", state)
			switch {
			case status != tt.status:
				t.Fatalf("status %d, want %d (stdout %s, stderr %q)", status, tt.status, stdout, stderr)
			case tt.name == "pretty" && !strings.HasPrefix(stdout, tt.out), tt.name != "pretty" && stdout != tt.out:
				t.Fatalf("output\n%s\nwant\n%s", stdout, tt.out)
			case !strings.Contains(stderr, wantErr):
				t.Fatalf("stderr %q, want it to contain %q", stderr, wantErr)
			}
			fi, err := os.Stat(state)
			switch {
			case tt.status != exitSuspended:
				if err == nil {
					t.Errorf("a run that did not pause wrote %s", state)
				}
			case err != nil:
				t.Errorf("no state written: %v", err)
			case fi.Mode().Perm() != 0o600:
				t.Errorf("state mode %v, want 0600", fi.Mode().Perm())
			}
		})
	}
}

// TestApprovalResume: resume FILE approves and denies the pending calls
// of a run that examples/approval.js paused, or leaves them waiting.
func TestApprovalResume(t *testing.T) {
	tests := []struct {
		name   string
		flags  []string // after FILE; "STATE" is the state file, "DIR" its directory
		status int
		out    string // all of stdout
		stderr string // a part of stderr
	}{
		{"approve both", []string{"--approve", "call-3", "--approve", "call-4"}, 0, bothCancelled, ""},
		{"approve comma list", []string{"--approve", "call-3,call-4"}, 0, bothCancelled, ""},
		{"deny one", []string{"--approve", "call-3", "--deny", "call-4=paid: refund it first"}, 0, oneDenied, ""},
		{"deny both", []string{"--deny", "call-3=no", "--deny", "call-4=no"}, 0, bothDenied, ""},
		{"flags before the file", []string{"FLAGS-FIRST", "--approve", "call-3,call-4"}, 0, bothCancelled, ""},
		{"one left waiting", []string{"--approve", "call-3"}, 3, pendingSecond, "codemode resume STATE"},
		{"no decision", nil, 3, pendingBoth, ""},
		{"new state file", []string{"--approve", "call-3", "--state", "DIR/next.state"}, 3, pendingSecond, "saved to DIR/next.state"},

		{"unknown key", []string{"--approve", "call-9"}, 2, "", "call-9 is not a pending call of STATE; its pending calls are call-3 (demo.updateOrderStatus), call-4 (demo.updateOrderStatus)"},
		{"approved and denied", []string{"--approve", "call-3", "--deny", "call-3=no"}, 2, "", "call-3 is both approved and denied"},
		{"deny without reason", []string{"--deny", "call-3"}, 2, "", "KEY=REASON"},
		{"deny empty reason", []string{"--deny", "call-3="}, 2, "", "KEY=REASON"},
		{"engine ast", []string{"--engine", "ast", "--approve", "call-3"}, 2, "", "drop --engine ast"},
		{"bindings", []string{"--bindings", "{}"}, 2, "", "flag provided but not defined: -bindings"},
		{"unknown hold", []string{"--hold", "demo.nope"}, 2, "", "--hold demo.nope: there is no tool demo.nope"},
		{"two files", []string{"other.state"}, 2, "", "one state file at a time"},
		{"other tools", []string{"--tools", "testdata/tools.json", "--approve", "call-3"}, 1, "", "cannot use the state in STATE: the tool tree or the extensions differ"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state := suspendApproval(t)
			dir := filepath.Dir(state)
			before, err := os.ReadFile(state)
			if err != nil {
				t.Fatal(err)
			}
			subst := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "STATE", state), "DIR", dir) }
			args := []string{"resume", state}
			for _, f := range tt.flags {
				if f == "FLAGS-FIRST" {
					args = []string{"resume"}
					continue
				}
				args = append(args, subst(f))
			}
			if args[1] != state {
				args = append(args, state)
			}
			status, stdout, stderr := runCLI(t, args, "")
			if status != tt.status || stdout != tt.out || !strings.Contains(stderr, subst(tt.stderr)) {
				t.Fatalf("status %d, output %s\nstderr %q\nwant status %d, output %s, stderr with %q", status, stdout, stderr, tt.status, tt.out, subst(tt.stderr))
			}
			after, err := os.ReadFile(state)
			if err != nil {
				t.Fatal(err)
			}
			next := filepath.Join(dir, "next.state")
			switch tt.name {
			case "one left waiting", "no decision":
				// The new state replaced FILE: resuming it again finishes.
				keys := "call-4"
				if tt.name == "no decision" {
					keys = "call-3,call-4"
				}
				status, stdout, stderr = runCLI(t, []string{"resume", state, "--approve", keys}, "")
				if status != 0 || stdout != bothCancelled {
					t.Errorf("resuming the replaced state: status %d, output %s (stderr %q)", status, stdout, stderr)
				}
			case "new state file":
				if !bytes.Equal(before, after) {
					t.Error("--state FILE2 changed FILE")
				}
				fi, err := os.Stat(next)
				if err != nil || fi.Mode().Perm() != 0o600 {
					t.Fatalf("--state FILE2: %v, %v", fi, err)
				}
				status, stdout, stderr = runCLI(t, []string{"resume", next, "--deny", "call-4=paid: refund it first"}, "")
				if status != 0 || stdout != oneDenied {
					t.Errorf("resuming FILE2: status %d, output %s (stderr %q)", status, stdout, stderr)
				}
			default:
				if tt.status != exitSuspended && !bytes.Equal(before, after) {
					t.Error("a resume that did not pause changed the state file")
				}
			}
			if tt.name != "new state file" {
				if _, err := os.Stat(next); err == nil {
					t.Errorf("%s written without --state", next)
				}
			}
			if names, _ := filepath.Glob(filepath.Join(dir, ".*tmp-*")); len(names) > 0 {
				t.Errorf("temporary files left behind: %v", names)
			}
		})
	}
}

// TestApprovalHold: a resumed run holds the new calls of --hold PATH,
// and only those: without --hold, later calls run undecided.
func TestApprovalHold(t *testing.T) {
	const program = `await tools.demo.updateOrderStatus({id: 1004, status: "cancelled"});
return (await tools.demo.updateOrderStatus({id: 1007, status: "paid"})).status`
	const first = `{"ok":"suspended","pending":[{"key":"call-1","path":"demo.updateOrderStatus","input":{"id":1004,"status":"cancelled"}}]}`
	const second = `{"ok":"suspended","pending":[{"key":"call-2","path":"demo.updateOrderStatus","input":{"id":1007,"status":"paid"}}]}`
	const done = `{"ok":true,"value":"paid","toolCalls":[{"name":"demo.updateOrderStatus"},{"name":"demo.updateOrderStatus"}]}`
	state := filepath.Join(t.TempDir(), "run.state")
	steps := []struct {
		args   []string
		status int
		out    string
	}{
		{[]string{"run", "--approve", "demo.updateOrderStatus", "--state", state, "-"}, 3, first},
		{[]string{"resume", state, "--approve", "call-1", "--hold", "tools.demo.updateOrderStatus", "--state", state + "2"}, 3, second},
		{[]string{"resume", state + "2", "--approve", "call-2"}, 0, done},
		// Without --hold, the second call runs as soon as it is made.
		{[]string{"resume", state, "--approve", "call-1"}, 0, done},
	}
	for i, s := range steps {
		status, stdout, stderr := runCLI(t, s.args, program)
		if status != s.status || stdout != s.out {
			t.Fatalf("step %d %q: status %d, output %s (stderr %q)\nwant status %d, output %s", i, s.args, status, stdout, stderr, s.status, s.out)
		}
	}
}

// TestSnapshotInspect: snapshot inspect prints a state's description as
// indented JSON; a file that is not a state is an error (exit 1).
func TestSnapshotInspect(t *testing.T) {
	state := suspendApproval(t)
	status, stdout, stderr := runCLI(t, []string{"snapshot", "inspect", state}, "")
	if status != 0 || stderr != "" {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
	var info struct {
		Header struct {
			Engine string `json:"engine"`
			Sealed bool   `json:"sealed"`
		} `json:"header"`
		Sizes       map[string]int `json:"sizes"`
		Suspensions int            `json:"suspensions"`
		ToolCalls   int            `json:"toolCalls"`
		Pending     []struct {
			Key   string          `json:"key"`
			Path  string          `json:"path"`
			Input json.RawMessage `json:"input"`
		} `json:"pending"`
	}
	if err := json.Unmarshal([]byte(stdout), &info); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	fi, _ := os.Stat(state)
	if info.Header.Engine != "vm" || info.Header.Sealed || info.Suspensions != 1 || info.ToolCalls != 4 || int64(info.Sizes["total"]) != fi.Size() ||
		len(info.Pending) != 2 || info.Pending[0].Key != "call-3" || info.Pending[0].Path != "demo.updateOrderStatus" ||
		string(info.Pending[1].Input) != "{\n        \"id\": 1006,\n        \"status\": \"cancelled\"\n      }" {
		t.Errorf("inspect:\n%s", stdout)
	}
	if !strings.HasPrefix(stdout, "{\n  \"header\": {") || !strings.Contains(stdout, "\n  \"pending\": [") {
		t.Errorf("not indented:\n%s", stdout)
	}
	tests := []struct {
		name   string
		args   []string
		status int
		stderr string
	}{
		{"no file", []string{"snapshot", "inspect"}, 2, "one state file"},
		{"no subcommand", []string{"snapshot"}, 2, "the subcommand is inspect"},
		{"unknown subcommand", []string{"snapshot", "show", state}, 2, "the subcommand is inspect"},
		{"missing file", []string{"snapshot", "inspect", "/does/not/exist.state"}, 2, "no such file or directory"},
		{"not a state", []string{"snapshot", "inspect", approvalJS}, 1, "cannot use the state in " + approvalJS},
		{"help", []string{"snapshot", "inspect", "-h"}, 0, ""},
	}
	for _, tt := range tests {
		status, stdout, stderr := runCLI(t, tt.args, "")
		if status != tt.status || !strings.Contains(stderr, tt.stderr) || tt.status != 0 && stdout != "" {
			t.Errorf("%s: status %d, stdout %q, stderr %q; want status %d, stderr with %q", tt.name, status, stdout, stderr, tt.status, tt.stderr)
		}
	}
}

// TestApprovalCorrupt: a state cut short is refused with a message that says what is wrong (exit 1), by resume
// and by snapshot inspect, and is left as it was.
func TestApprovalCorrupt(t *testing.T) {
	state := suspendApproval(t)
	good, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string][]byte{
		"truncated": good[:len(good)/2],
		"cut short": good[:len(good)-1],
		"empty":     {},
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(state, data, 0o600); err != nil {
				t.Fatal(err)
			}
			status, stdout, stderr := runCLI(t, []string{"resume", state, "--approve", "call-3,call-4"}, "")
			if status != 1 || stdout != "" || !strings.HasPrefix(stderr, "codemode resume: cannot use the state in "+state+": ") {
				t.Errorf("resume: status %d, stdout %q, stderr %q; want 1 and the reason on stderr", status, stdout, stderr)
			}
			status, stdout, stderr = runCLI(t, []string{"snapshot", "inspect", state}, "")
			if status != 1 || stdout != "" || !strings.HasPrefix(stderr, "codemode snapshot inspect: cannot use the state in "+state+": ") {
				t.Errorf("inspect: status %d, stdout %q, stderr %q; want 1 and the reason on stderr", status, stdout, stderr)
			}
			if after, _ := os.ReadFile(state); !bytes.Equal(after, data) {
				t.Error("the state file was changed")
			}
		})
	}
	status, _, stderr := runCLI(t, []string{"resume", filepath.Join(t.TempDir(), "none.state")}, "")
	if status != 2 || !strings.Contains(stderr, "no such file or directory") {
		t.Errorf("missing state: status %d, stderr %q; want 2", status, stderr)
	}
}

// TestResumeInAnotherProcess suspends a run in this process and resumes
// it in another: nothing passes between them but the state file.
func TestResumeInAnotherProcess(t *testing.T) {
	state := suspendApproval(t)
	status, stdout, stderr := runChild(t, "resume", state, "--approve", "call-3", "--deny", "call-4=paid: refund it first")
	if status != 0 || stdout != oneDenied {
		t.Fatalf("child resume: status %d, output %s (stderr %q)\nwant status 0, output %s", status, stdout, stderr, oneDenied)
	}
	// And back: a child pauses again, this process finishes the run.
	status, stdout, stderr = runChild(t, "resume", state, "--deny", "call-3=no")
	if status != exitSuspended || stdout != pendingSecond {
		t.Fatalf("child resume that pauses: status %d, output %s (stderr %q)", status, stdout, stderr)
	}
	status, stdout, stderr = runCLI(t, []string{"resume", state, "--deny", "call-4=no"}, "")
	if status != 0 || stdout != bothDenied {
		t.Fatalf("resuming the child's state: status %d, output %s (stderr %q)", status, stdout, stderr)
	}
}
