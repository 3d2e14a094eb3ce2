package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools/command"
	"github.com/go-codemode/codemode/tools/demo"
)

const runUsage = `usage: codemode run [flags] FILE|-

Runs a program (from FILE, or standard input with -) and prints its Result
as one line of JSON (exit 0 when ok, 1 when not). Without --tools the
program gets the demo namespace (tools.demo.*). With --approve PATH and
--state FILE, a call of the tool PATH pauses the run: it is saved to FILE
and the calls waiting for a decision are printed (exit 3); codemode resume
FILE --approve KEY (or --deny KEY=REASON) continues it.

` + runFlags

// runFlags documents run's flags (the general usage shows it too).
const runFlags = `run flags (before FILE):
  --pretty                 indent the Result JSON
  --timeout D              wall-clock limit for the run, e.g. 500ms, 1m (default 30s; 0: none)
  --max-tool-calls N       how many tool calls the program may make (default: unlimited)
  --max-output-bytes N     bound on the Result's value, logs and warnings (default: unlimited)
  --max-memory BYTES       what the program may allocate: 256MiB, 64MB, 1.5GiB, 1000000
                           (default 256MiB; 0: none)
  --bindings JSON|@FILE    an object of named values the program sees as globals,
                           e.g. '{"user":{"id":1}}'; @FILE reads it from a file
  --tools FILE             a manifest of command tools (.json, .yaml or .yml) to use
                           instead of the demo namespace
  --no-typescript          reject TypeScript syntax (ParseError) instead of erasing
                           its types
  --engine ast|vm          the engine that runs the program (default: $CODEMODE_ENGINE,
                           else ast)
  --approve PATH[,PATH]    pause the run at each call of the tool PATH (demo.updateOrderStatus
                           or tools.demo.updateOrderStatus) until it is approved or denied;
                           repeatable; needs --state (the run is then on engine vm)
  --state FILE             when the run pauses, save it to FILE (mode 0600), print
                           {"ok":"suspended","pending":[{"key","path","input"}...]} and
                           exit 3; continue it with codemode resume FILE
` + openapiUsage

// defaultMaxMemory is the CLI's memory limit when --max-memory is not
// given.
const defaultMaxMemory = 256 << 20

// runConfig is what run's (or resume's) arguments ask for.
type runConfig struct {
	pretty  bool
	program string // a file name, or "-" (for resume: the state file)
	opts    codemode.Options
	exec    []codemode.ExecOption
	// warnings are the manifest's, for stderr before the run.
	warnings []string
	// holds are the tool paths whose calls pause the run (--approve PATH
	// for run, --hold PATH for resume), without the "tools." prefix.
	holds toolPaths
	// statePath is where a suspended run's state is written (--state).
	statePath string
}

// usageError is a problem with run's arguments: exit status 2.
type usageError struct {
	msg       string
	showUsage bool // add the one-line usage after the message
}

// Error returns the message, which says what is wrong with the arguments.
func (e *usageError) Error() string { return e.msg }

// execFlags are the flags run and resume share: the output's form, the
// limits, the tools and the engine (and, for run, the bindings).
type execFlags struct {
	pretty       bool
	timeout      time.Duration
	maxToolCalls optionalCount
	maxOutput    optionalCount
	maxMemory    byteSize
	bindings     string
	toolsFile    string
	noTS         bool
	engine       string
	oa           openapiFlags
}

// register adds the shared flags to fs; withBindings adds --bindings,
// which only a new run takes (a resumed run has its globals already).
func (f *execFlags) register(fs *flag.FlagSet, withBindings bool) {
	fs.BoolVar(&f.pretty, "pretty", false, "")
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "")
	fs.Var(&f.maxToolCalls, "max-tool-calls", "")
	fs.Var(&f.maxOutput, "max-output-bytes", "")
	f.maxMemory = byteSize(defaultMaxMemory)
	fs.Var(&f.maxMemory, "max-memory", "")
	if withBindings {
		fs.StringVar(&f.bindings, "bindings", "", "")
	}
	fs.StringVar(&f.toolsFile, "tools", "", "")
	fs.BoolVar(&f.noTS, "no-typescript", false, "")
	fs.StringVar(&f.engine, "engine", "", "")
	f.oa.register(fs)
}

// config checks the parsed flags, loads the tools (the manifest, the
// OpenAPI documents, or the demo namespace) and the bindings, and returns
// the run they describe, without its program. Its errors are
// *usageError.
func (f *execFlags) config() (*runConfig, error) {
	if f.timeout < 0 || f.timeout > 0 && f.timeout < time.Millisecond {
		return nil, &usageError{fmt.Sprintf("invalid value %q for flag -timeout: 0 (none) or at least 1ms", f.timeout.String()), true}
	}
	cfg := &runConfig{pretty: f.pretty, opts: codemode.Options{Limits: codemode.Limits{
		Timeout:        f.timeout,
		MaxToolCalls:   f.maxToolCalls.value,
		MaxOutputBytes: f.maxOutput.value,
		MaxMemoryBytes: int64(f.maxMemory),
	}}}
	if f.noTS {
		cfg.opts.TypeScript = codemode.TypeScriptReject
	}
	switch f.engine {
	case "", codemode.EngineAST, codemode.EngineVM:
		cfg.opts.Engine = f.engine
	default:
		return nil, &usageError{fmt.Sprintf("invalid value %q for flag -engine: %s or %s", f.engine, codemode.EngineAST, codemode.EngineVM), true}
	}
	def := map[string]any{}
	if f.toolsFile != "" {
		m, err := command.LoadManifest(f.toolsFile)
		if err != nil {
			return nil, &usageError{msg: "--tools: " + err.Error()}
		}
		def, cfg.warnings = m.Tools, m.Warnings
	}
	hasAPI, err := f.oa.load(def, os.Stderr)
	if err != nil {
		return nil, &usageError{msg: err.Error()}
	}
	if f.toolsFile == "" && !hasAPI {
		def = demo.Tools()
	}
	cfg.opts.Tools = def
	if f.bindings != "" {
		b, err := parseBindings(f.bindings)
		if err != nil {
			return nil, &usageError{msg: "--bindings: " + err.Error()}
		}
		cfg.exec = append(cfg.exec, codemode.WithBindings(b))
	}
	return cfg, nil
}

// parseRunArgs reads run's flags, loads the tools and the bindings, and
// returns the run to make. Its errors are *usageError, or flag.ErrHelp.
func parseRunArgs(args []string) (*runConfig, error) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f execFlags
	f.register(fs, true)
	var holds toolPaths
	fs.Var(&holds, "approve", "")
	statePath := fs.String("state", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, &usageError{err.Error(), true}
	}
	switch {
	case fs.NArg() == 0:
		return nil, &usageError{"no program given", true}
	case fs.NArg() > 1:
		return nil, &usageError{fmt.Sprintf("one program at a time (got %s); flags go before the program", strings.Join(fs.Args(), " ")), true}
	}
	if len(holds) > 0 && *statePath == "" {
		return nil, &usageError{msg: "--approve needs somewhere to save the paused run: add --state FILE (then continue it with codemode resume FILE --approve KEY)"}
	}
	if (len(holds) > 0 || *statePath != "") && f.engine == codemode.EngineAST {
		return nil, &usageError{msg: "--approve and --state need engine vm, the engine whose runs can be saved: drop --engine ast or give --engine vm"}
	}
	cfg, err := f.config()
	if err != nil {
		return nil, err
	}
	cfg.program, cfg.holds, cfg.statePath = fs.Arg(0), holds, *statePath
	return cfg, nil
}

// runRun executes a program and prints its Result as one line of JSON
// (indented with --pretty). With --approve or --state the program runs
// as a Program that can pause (see runProgram).
func runRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, err := parseRunArgs(args)
	if err != nil {
		return argsFailure("run", err, runUsage, "codemode run [flags] FILE|-   (codemode run -h lists the flags)", stdout, stderr)
	}
	printWarnings(stderr, "run", cfg.warnings)
	text, err := readProgram(cfg.program, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "codemode run: %v\n", err)
		return 2
	}
	if len(cfg.holds) > 0 || cfg.statePath != "" {
		return runProgram("run", cfg, func(rt *codemode.Runtime) *codemode.Program {
			return rt.Program(text, cfg.exec...)
		}, stdout, stderr)
	}
	var calls inflight
	opts := cfg.opts
	opts.Tools = calls.wrap(opts.Tools)
	rt, err := codemode.New(opts)
	if err != nil {
		fmt.Fprintf(stderr, "codemode run: %v\n", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res := rt.Execute(ctx, text, cfg.exec...)
	// Tool calls still running were cancelled when the run ended; let
	// them stop (and their processes die) before the command exits.
	calls.wait(command.WaitDelay + time.Second)
	return printResult("run", res, cfg.pretty, stdout, stderr)
}

// printResult writes a Result as one line of JSON (indented when pretty)
// and returns the exit status for it: 0 when ok, 1 when not, 2 when it
// cannot be written as JSON.
func printResult(name string, res codemode.Result, pretty bool, stdout, stderr io.Writer) int {
	out, err := res.MarshalJSON()
	if err != nil {
		fmt.Fprintf(stderr, "codemode %s: %v\n", name, err)
		return 2
	}
	if pretty {
		var b bytes.Buffer
		if err := json.Indent(&b, out, "", "  "); err == nil {
			out = b.Bytes()
		}
	}
	stdout.Write(append(out, '\n'))
	if !res.OK {
		return 1
	}
	return 0
}

// parseBindings reads --bindings: a JSON object, or @FILE holding one.
// Numbers keep their exact text.
func parseBindings(arg string) (map[string]any, error) {
	data := []byte(arg)
	if name, ok := strings.CutPrefix(arg, "@"); ok {
		var err error
		if data, err = os.ReadFile(name); err != nil {
			return nil, err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not valid JSON (%v); give an object of named values, e.g. {\"user\":{\"id\":1}}", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value; give one object of named values, e.g. {\"user\":{\"id\":1}}")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("must be a JSON object of named values, e.g. {\"user\":{\"id\":1}}, not %s", jsonKind(v))
	}
	return obj, nil
}

// jsonKind names the kind of a decoded JSON value.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	}
	return "a number"
}

// optionalCount is a count flag that is unlimited (nil) unless given.
type optionalCount struct{ value *int }

func (c *optionalCount) String() string {
	if c == nil || c.value == nil {
		return "unlimited"
	}
	return strconv.Itoa(*c.value)
}

func (c *optionalCount) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > 1<<53-1 {
		return errors.New("a whole number, 0 or more")
	}
	c.value = codemode.Max(int(n))
	return nil
}

// byteSize is a size flag: plain bytes, or a number with a unit: B, KB,
// MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024); the
// unit's case does not matter.
type byteSize int64

func (b *byteSize) String() string { return strconv.FormatInt(int64(*b), 10) }

func (b *byteSize) Set(s string) error {
	n, err := parseByteSize(s)
	if err != nil {
		return err
	}
	*b = byteSize(n)
	return nil
}

// parseByteSize reads a size like "256MiB", "64MB", "1.5GiB" or "1000".
func parseByteSize(s string) (int64, error) {
	bad := errors.New("a size in bytes, such as 256MiB, 64MB or 1000000")
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = t[:i], strings.TrimSpace(t[i:])
	}
	if num == "" {
		return 0, bad
	}
	mult := map[string]float64{
		"": 1, "b": 1,
		"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
	}[strings.ToLower(unit)]
	if mult == 0 {
		return 0, bad
	}
	if unit == "" || mult == 1 {
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || n < 0 {
			return 0, bad
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 || f*mult > math.MaxInt64/2 {
		return 0, bad
	}
	return int64(math.Round(f * mult)), nil
}

// argsFailure reports flags that did not parse: -h prints the command's
// usage (exit 0); anything else the error, with the usage line when it
// helps (exit 2).
func argsFailure(cmd string, err error, usage, usageLine string, stdout, stderr io.Writer) int {
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "codemode %s: %v\n", cmd, err)
	if ue, ok := err.(*usageError); ok && ue.showUsage {
		fmt.Fprintln(stderr, "usage: "+usageLine)
	}
	return 2
}
