package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools/command"
)

// exitSuspended is the exit status of a run that paused for a decision
// and was saved (run --approve ... --state FILE, and resume).
const exitSuspended = 3

const resumeUsage = `usage: codemode resume FILE [--approve KEY]... [--deny KEY=REASON]... [--hold PATH]... [--state FILE2] [flags]

Continues a run that codemode run --approve PATH --state FILE saved when it
paused. Each pending call (its KEY is in the "pending" list run printed, or
in codemode snapshot inspect FILE) is approved (it runs now), denied (the
program's await of it rejects with REASON as the error's message), or left
waiting. When the run ends, its Result is printed as run prints it (exit 0
when ok, 1 when not); when it pauses again, the new state is written to
--state (default: over FILE) and the pending calls are printed (exit 3).
A state that cannot be resumed (damaged, written by another build, or for
other tools) is reported on standard error (exit 1).

Give resume the same tool flags (--tools, --openapi, ...) the run had: a
state resumes only where the same tools exist. The demo tools start from
their initial data in every process. Flags may come before or after FILE.

  --approve KEY[,KEY]      run the pending call KEY (e.g. call-3); repeatable
  --deny KEY=REASON        reject the pending call KEY with the message REASON; repeatable
  --hold PATH[,PATH]       pause again at each new call of the tool PATH, as run's
                           --approve PATH does (a resumed run holds nothing unless told);
                           repeatable
  --state FILE2            where to save the run if it pauses again (mode 0600;
                           default: FILE, replaced)

run's flags that apply (--engine takes vm only; --bindings does not apply):
  --pretty, --timeout, --max-tool-calls, --max-output-bytes, --max-memory,
  --tools, --no-typescript, --engine, --openapi, --base-url, --header, --bearer-env
`

const snapshotUsage = `usage: codemode snapshot inspect FILE

Prints what a saved run (codemode run --approve PATH --state FILE) says about
itself, as indented JSON, without resuming it or loading any tools: its
header (format version, build, engine, program and tools hashes, whether it
is sealed), the sizes of its parts in bytes, the active time it used
("usedMs"), how often it was suspended, how many tool calls it made, and
the calls waiting for a decision ("pending", each with its key, path and
input). A file that is not a readable state is reported on standard error
(exit 1).
`

// toolPaths is a repeatable flag of tool paths, each value also a comma
// list; a "tools." prefix is dropped, so tools.demo.x and demo.x are the
// same path.
type toolPaths []string

// String returns the paths as a comma list.
func (p *toolPaths) String() string { return strings.Join(*p, ",") }

// Set adds the paths of one flag value.
func (p *toolPaths) Set(s string) error {
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimPrefix(strings.TrimSpace(part), "tools.")
		if part == "" {
			return errors.New("a tool path such as demo.updateOrderStatus, or a comma list of them")
		}
		*p = append(*p, part)
	}
	return nil
}

// callKeys is a repeatable flag of pending-call keys, each value also a
// comma list.
type callKeys []string

// String returns the keys as a comma list.
func (k *callKeys) String() string { return strings.Join(*k, ",") }

// Set adds the keys of one flag value.
func (k *callKeys) Set(s string) error {
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return errors.New("a pending call's key such as call-3, or a comma list of them")
		}
		*k = append(*k, part)
	}
	return nil
}

// denial is one --deny KEY=REASON.
type denial struct{ key, reason string }

// denials is the repeatable --deny flag.
type denials []denial

// String returns the denials as KEY=REASON, space-separated.
func (d *denials) String() string {
	parts := make([]string, len(*d))
	for i, x := range *d {
		parts[i] = x.key + "=" + x.reason
	}
	return strings.Join(parts, " ")
}

// Set adds one KEY=REASON.
func (d *denials) Set(s string) error {
	key, reason, ok := strings.Cut(s, "=")
	key, reason = strings.TrimSpace(key), strings.TrimSpace(reason)
	if !ok || key == "" || reason == "" {
		return errors.New("KEY=REASON, e.g. call-3='the customer asked to keep the order': the reason is the error message the program gets")
	}
	*d = append(*d, denial{key, reason})
	return nil
}

// suspendedLine is what a paused run prints: "ok" is "suspended" (not a
// boolean, so that a reader checking ok === true does not mistake it for
// a finished run), and the calls waiting for a decision.
type suspendedLine struct {
	OK      string                 `json:"ok"`
	Pending []codemode.PendingCall `json:"pending"`
}

// holdHook returns a ToolBefore hook that holds (codemode.ErrSuspend)
// every call of one of paths, or nil when paths is empty.
func holdHook(paths []string) func(context.Context, codemode.ToolCallInfo) error {
	if len(paths) == 0 {
		return nil
	}
	return func(_ context.Context, call codemode.ToolCallInfo) error {
		if slices.Contains(paths, call.Name) {
			return codemode.ErrSuspend
		}
		return nil
	}
}

// checkHolds makes sure every held path names a tool of rt (or is
// "search"): a misspelt path would never pause the run, and the call it
// was meant to hold would run unapproved.
func checkHolds(rt *codemode.Runtime, paths []string, flagName string) error {
	known := map[string]bool{"search": true}
	for _, e := range rt.Catalog() {
		known[e.Path] = true
	}
	for _, p := range paths {
		if !known[p] {
			return fmt.Errorf("%s %s: there is no tool %s, so no call would pause; codemode catalog lists the tools (give the same --tools and --openapi flags)", flagName, p, p)
		}
	}
	return nil
}

// runProgram runs the Program that start makes on a Runtime built from
// cfg (with cfg.holds held), then prints its Result as run does, or,
// when it paused, saves its state to cfg.statePath and prints the
// pending calls (exit 3). name is the subcommand, for messages.
func runProgram(name string, cfg *runConfig, start func(*codemode.Runtime) *codemode.Program, stdout, stderr io.Writer) int {
	var calls inflight
	opts := cfg.opts
	opts.Tools = calls.wrap(opts.Tools)
	opts.Hooks.ToolBefore = holdHook(cfg.holds)
	rt, err := codemode.New(opts)
	if err != nil {
		fmt.Fprintf(stderr, "codemode %s: %v\n", name, err)
		return 2
	}
	flagName := "--approve"
	if name == "resume" {
		flagName = "--hold"
	}
	if err := checkHolds(rt, cfg.holds, flagName); err != nil {
		fmt.Fprintf(stderr, "codemode %s: %v\n", name, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	out, err := start(rt).Run(ctx)
	// As in run: let cancelled tool calls stop before the command exits.
	calls.wait(command.WaitDelay + time.Second)
	if err != nil {
		fmt.Fprintf(stderr, "codemode %s: %s\n", name, explainStateError(cfg.program, err))
		return 1
	}
	if !out.IsSuspended() {
		return printResult(name, out.Result, cfg.pretty, stdout, stderr)
	}
	if cfg.statePath == "" {
		// Only held calls pause a run, and holds need --state; this is
		// a safeguard, not an expected path.
		fmt.Fprintf(stderr, "codemode %s: the run paused but there is no --state FILE to save it to; add --state FILE\n", name)
		return 1
	}
	if err := writeState(cfg.statePath, out.Suspended.State); err != nil {
		fmt.Fprintf(stderr, "codemode %s: saving the paused run: %v; check that the directory of %s exists and is writable\n", name, err, cfg.statePath)
		return 1
	}
	pending := out.Suspended.Pending
	if pending == nil {
		pending = []codemode.PendingCall{}
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	if cfg.pretty {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(suspendedLine{OK: "suspended", Pending: pending}); err != nil {
		fmt.Fprintf(stderr, "codemode %s: %v\n", name, err)
		return 1
	}
	fmt.Fprintf(stderr, "codemode %s: paused; saved to %s: continue with codemode resume %s --approve KEY or --deny KEY=REASON\n", name, cfg.statePath, cfg.statePath)
	return exitSuspended
}

// writeState saves a state to path with mode 0600: it is written to a
// new file next to path and renamed over it, so that an existing state
// (resume's own FILE, by default) is replaced whole or not at all.
func writeState(path string, state []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(state)
	if err == nil {
		err = f.Chmod(0o600) // CreateTemp makes it 0600; this says so
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// explainStateError says why the state in file cannot be used, with
// what to do about it.
func explainStateError(file string, err error) string {
	var se *codemode.SnapshotError
	if !errors.As(err, &se) {
		return err.Error()
	}
	msg := fmt.Sprintf("cannot use the state in %s: %s", file, se.Msg)
	switch se.Reason {
	case "malformed", "program":
		msg += " (is it a file that codemode run --state wrote, whole and unchanged?)"
	case "build", "version":
		msg += " (resume it with the codemode binary that saved it; if that is this one, the file was changed or damaged)"
	case "tools":
		msg += " (give resume the same --tools and --openapi flags the run had)"
	}
	return msg
}

// parseResumeArgs reads resume's arguments (flags may come before and
// after the state file) and returns the run to make, the keys to approve
// and the calls to deny. Its errors are *usageError, or flag.ErrHelp.
func parseResumeArgs(args []string) (*runConfig, callKeys, denials, error) {
	fs := flag.NewFlagSet("resume", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f execFlags
	f.register(fs, false)
	var approve callKeys
	var deny denials
	var holds toolPaths
	fs.Var(&approve, "approve", "")
	fs.Var(&deny, "deny", "")
	fs.Var(&holds, "hold", "")
	statePath := fs.String("state", "", "")
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, nil, nil, err
			}
			return nil, nil, nil, &usageError{err.Error(), true}
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch {
	case len(files) == 0:
		return nil, nil, nil, &usageError{"no state file given: give the FILE that codemode run --state FILE wrote", true}
	case len(files) > 1:
		return nil, nil, nil, &usageError{fmt.Sprintf("one state file at a time (got %s)", strings.Join(files, " ")), true}
	}
	if f.engine == codemode.EngineAST {
		return nil, nil, nil, &usageError{msg: "a saved run continues on engine vm: drop --engine ast"}
	}
	for _, d := range deny {
		if slices.Contains(approve, d.key) {
			return nil, nil, nil, &usageError{msg: fmt.Sprintf("%s is both approved and denied: give it --approve or --deny, not both", d.key)}
		}
	}
	cfg, err := f.config()
	if err != nil {
		return nil, nil, nil, err
	}
	cfg.program, cfg.holds, cfg.statePath = files[0], holds, *statePath
	if cfg.statePath == "" {
		cfg.statePath = files[0]
	}
	return cfg, approve, deny, nil
}

// runResume continues a saved run with the decisions given for its
// pending calls.
func runResume(args []string, stdout, stderr io.Writer) int {
	cfg, approve, deny, err := parseResumeArgs(args)
	if err != nil {
		return argsFailure("resume", err, resumeUsage,
			"codemode resume FILE [--approve KEY]... [--deny KEY=REASON]... [--hold PATH]... [--state FILE2]   (codemode resume -h says more)", stdout, stderr)
	}
	printWarnings(stderr, "resume", cfg.warnings)
	state, err := os.ReadFile(cfg.program)
	if err != nil {
		fmt.Fprintf(stderr, "codemode resume: %v\n", err)
		return 2
	}
	info, err := codemode.InspectState(state)
	if err != nil {
		fmt.Fprintf(stderr, "codemode resume: %s\n", explainStateError(cfg.program, err))
		return 1
	}
	keys := make([]string, 0, len(info.Pending))
	for _, p := range info.Pending {
		keys = append(keys, p.Key)
	}
	decided := slices.Clone([]string(approve))
	for _, d := range deny {
		decided = append(decided, d.key)
	}
	for _, k := range decided {
		if !slices.Contains(keys, k) {
			fmt.Fprintf(stderr, "codemode resume: %s is not a pending call of %s; %s\n", k, cfg.program, pendingList(info.Pending))
			return 2
		}
	}
	exec := slices.Clone(cfg.exec)
	for _, k := range approve {
		exec = append(exec, codemode.Approve(k))
	}
	for _, d := range deny {
		exec = append(exec, codemode.Deny(d.key, d.reason))
	}
	return runProgram("resume", cfg, func(rt *codemode.Runtime) *codemode.Program {
		return rt.Resume(state, exec...)
	}, stdout, stderr)
}

// pendingList describes a state's pending calls, for an error message.
func pendingList(pending []codemode.PendingCall) string {
	if len(pending) == 0 {
		return "it has no pending calls (resume it without --approve or --deny)"
	}
	parts := make([]string, len(pending))
	for i, p := range pending {
		parts[i] = p.Key + " (" + p.Path + ")"
	}
	return "its pending calls are " + strings.Join(parts, ", ")
}

// runSnapshot runs `codemode snapshot inspect FILE`.
func runSnapshot(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help" || args[0] == "help") ||
		len(args) == 2 && args[0] == "inspect" && (args[1] == "-h" || args[1] == "--help" || args[1] == "-help") {
		fmt.Fprint(stdout, snapshotUsage)
		return 0
	}
	if len(args) == 0 || args[0] != "inspect" {
		fmt.Fprint(stderr, "codemode snapshot: the subcommand is inspect\n"+snapshotUsage)
		return 2
	}
	if len(args) != 2 {
		fmt.Fprint(stderr, "codemode snapshot inspect: one state file, the FILE that codemode run --state FILE wrote\n"+snapshotUsage)
		return 2
	}
	file := args[1]
	state, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintf(stderr, "codemode snapshot inspect: %v\n", err)
		return 2
	}
	info, err := codemode.InspectState(state)
	if err != nil {
		fmt.Fprintf(stderr, "codemode snapshot inspect: %s\n", explainStateError(file, err))
		return 1
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(info); err != nil {
		fmt.Fprintf(stderr, "codemode snapshot inspect: %v\n", err)
		return 1
	}
	return 0
}
