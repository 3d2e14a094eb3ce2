// Package codemode runs the short JavaScript programs an AI model writes
// for "code mode" inside the host's Go process, with no V8, subprocess or
// cgo, and returns one JSON-safe Result.
//
//	rt, err := codemode.New(codemode.Options{})
//	res := rt.Execute(ctx, `const xs = [3, 1, 2]; return xs.sort();`)
//	fmt.Println(res) // {"ok":true,"value":[1,2,3],"toolCalls":[]}
package codemode

import (
	"context"
	stdjson "encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/builtin"
	"github.com/go-codemode/codemode/builtin/array"
	"github.com/go-codemode/codemode/builtin/collections"
	"github.com/go-codemode/codemode/builtin/json"
	"github.com/go-codemode/codemode/builtin/numeric"
	"github.com/go-codemode/codemode/builtin/text"
	"github.com/go-codemode/codemode/builtin/web"
	"github.com/go-codemode/codemode/catalog"
	"github.com/go-codemode/codemode/interp"
	"github.com/go-codemode/codemode/tools"
	"github.com/go-codemode/codemode/value"
)

// Options configure a Runtime.
type Options struct {
	// Tools is the tool tree programs reach as `tools`: keys are names or
	// dotted paths, values *tools.Tool, *tools.Namespace or nested maps
	// (see tools.New).
	Tools map[string]any
	// Limits bound every execution.
	Limits Limits
	// Hooks wrap every tool and extension call.
	Hooks Hooks
	// Extensions add globals implemented in Go.
	Extensions []Extension
	// Signatures bounds the TypeScript signatures the catalog and search
	// show (zero: the reference's full rendering). Real OpenAPI operations
	// render to over 100,000 characters; a budget keeps each signature
	// under MaxChars and marks where it cut.
	Signatures catalog.Options
}

// Runtime runs programs. It is safe for concurrent use: each Execute is
// independent and gets fresh built-ins.
type Runtime struct {
	opts  Options
	lib   *value.Library
	tools *tools.Tree
	// signatures caches each tool's rendered signature.
	signatures   sync.Map
	searchSchema *tools.Schema
}

// New makes a Runtime. It fails on invalid limits (with the reference's
// messages) and on an invalid tool tree.
func New(opts Options) (*Runtime, error) {
	if err := opts.Limits.validate(); err != nil {
		return nil, err
	}
	tree, err := tools.New(opts.Tools)
	if err != nil {
		return nil, err
	}
	lib := builtin.New(libraryInstallers...)
	if err := checkExtensions(opts.Extensions, lib); err != nil {
		return nil, err
	}
	searchSchema, err := tools.CompileSchema(catalog.SearchInputSchema())
	if err != nil {
		return nil, fmt.Errorf("codemode: the search schema does not compile: %v", err)
	}
	return &Runtime{opts: opts, lib: lib, tools: tree, searchSchema: searchSchema}, nil
}

// libraryInstallers are the areas of the standard library beyond the
// core, each from its own package.
var libraryInstallers = []builtin.Installer{array.Install, text.Install, json.Install, numeric.Install, collections.Install, web.Install}

// ExecOption adjusts one execution.
type ExecOption func(*execConfig)

type execConfig struct {
	bindings map[string]any
}

// WithBindings makes named data values visible to the program as
// globals, for this execution only. Each value is copied in as JSON
// (json.Marshal), so the program never shares memory with the caller; a
// value that does not marshal fails the execution with InvalidDataValue.
func WithBindings(bindings map[string]any) ExecOption {
	return func(c *execConfig) { c.bindings = bindings }
}

// Execute runs one program and returns its Result. It never panics and
// never returns a Go error: every failure is a Diagnostic in the Result.
// Cancelling ctx ends the run.
func (rt *Runtime) Execute(ctx context.Context, code string, opts ...ExecOption) (res Result) {
	start := time.Now()
	var cfg execConfig
	for _, o := range opts {
		o(&cfg)
	}
	defer func() {
		if p := recover(); p != nil {
			res = Result{Error: &Diagnostic{Kind: ExecutionFailure, Message: fmt.Sprintf("Internal error: %v. This is a bug in codemode; please report it with the program.", p)}}
		}
	}()
	prog, err := ast.Parse(code)
	if err != nil {
		return parseFailure(err)
	}
	compiled, err := interp.Compile(prog)
	if err != nil {
		return Result{Error: &Diagnostic{Kind: ExecutionFailure, Message: err.Error()}}
	}
	h := &host{}
	if err := h.setBindings(cfg.bindings); err != nil {
		return Result{Error: &Diagnostic{Kind: InvalidDataValue, Message: err.Error()}}
	}
	limits := rt.opts.Limits
	iopts := interp.Options{Library: rt.lib, Host: h}
	if t := limits.Timeout; t > 0 {
		iopts.Deadline = start.Add(t)
		iopts.TimeoutMessage = fmt.Sprintf("Execution timed out after %dms.", t.Milliseconds())
	}
	toolCtx, cancel := context.WithCancel(ctx)
	defer cancel() // every tool call still in flight ends with the run
	run := interp.NewRun(ctx, compiled, iopts)
	defer run.Close()
	run.Realm().Budget = limits.MaxMemoryBytes
	h.tools = &toolHost{tree: rt.tools, run: run, ctx: toolCtx, limit: -1, hooks: rt.opts.Hooks,
		signature: rt.signature, searchSchema: rt.searchSchema}
	if len(rt.opts.Extensions) > 0 {
		h.exts = newExtHost(rt.opts.Extensions, h.tools)
	}
	if limits.MaxToolCalls != nil {
		h.tools.limit = *limits.MaxToolCalls
	}
	res = finish(run)
	res.ToolCalls = h.tools.calls
	if res.OK && !iopts.Deadline.IsZero() && time.Now().After(iopts.Deadline) {
		// The value exists, but finishing ran past the deadline.
		w := Diagnostic{Kind: TimeoutExceeded, Message: fmt.Sprintf("The program returned, but background work was still running at the %dms timeout and was interrupted. Await all started promises.", limits.Timeout.Milliseconds())}
		res.Warnings = append([]Diagnostic{w}, res.Warnings...)
	}
	if limits.MaxOutputBytes != nil {
		boundOutput(&res, *limits.MaxOutputBytes)
	}
	return res
}

func parseFailure(err error) Result {
	if pe, ok := err.(*ast.Error); ok {
		loc := pe.Location
		msg := pe.Msg
		if msg != ast.EmptyProgramMessage {
			msg = fmt.Sprintf("%s (%d:%d)", pe.Msg, loc.Line, loc.Column-1)
		}
		return Result{Error: &Diagnostic{Kind: ParseError, Message: msg, Location: &Location{Line: loc.Line, Column: loc.Column}}}
	}
	return Result{Error: &Diagnostic{Kind: ParseError, Message: err.Error()}}
}

// finish runs the program to its end and builds the Result.
func finish(run *interp.Run) Result {
	r := run.Realm()
	v, p, fail := run.Start()
	if fail == nil && p != nil {
		fail = run.Settle(p)
	}
	if fail != nil {
		return Result{Error: failureDiagnostic(run, fail), Logs: r.Logs}
	}
	if p != nil {
		pd := p.Internal.(*value.PromiseData)
		if pd.State == value.Rejected {
			return Result{Error: exceptionDiagnostic(run, pd.Result), Logs: r.Logs}
		}
		v = pd.Result
	}
	text, fail := toBoundary(run, v)
	if fail != nil {
		return Result{Error: failureDiagnostic(run, fail), Logs: r.Logs}
	}
	res := Result{OK: true, Value: stdjson.RawMessage(text), Logs: r.Logs}
	if fail := run.Drain(); fail == nil {
		for _, rp := range r.UnhandledRejections() {
			d := exceptionDiagnostic(run, rp.Internal.(*value.PromiseData).Result)
			d.Message = "Unhandled rejection from an un-awaited promise: " + d.Message
			d.Suggestions = nil
			res.Warnings = append(res.Warnings, *d)
		}
	}
	return res
}

// failureDiagnostic reports a run that ended abnormally.
func failureDiagnostic(run *interp.Run, f *interp.Failure) *Diagnostic {
	switch {
	case f.Exception != nil:
		return exceptionDiagnostic(run, f.Exception.Value)
	case f.Interrupt != nil:
		return &Diagnostic{Kind: Kind(f.Interrupt.Kind), Message: f.Interrupt.Message}
	}
	return &Diagnostic{Kind: ExecutionFailure, Message: fmt.Sprintf("Internal error: %v. This is a bug in codemode; please report it with the program.", f.Panic)}
}

// exceptionDiagnostic reports an uncaught throw of v: "Name: message" for
// errors (with the location when the runtime raised it), "Uncaught: ..."
// for anything else.
func exceptionDiagnostic(run *interp.Run, v value.Value) *Diagnostic {
	r := run.Realm()
	if d := value.ErrorInfo(v); d != nil {
		var msg string
		if exc := r.Try(func() { msg = builtin.ErrorString(r, v).String() }); exc != nil {
			msg = "Error"
		}
		kind := ExecutionFailure
		if d.Kind != "" {
			kind = Kind(d.Kind)
		}
		if toolKinds[kind] {
			// Tool diagnostics carry the message as the reference words
			// it, with no error name and no location.
			var text string
			if exc := r.Try(func() { text = r.ToString(r.Get(v, "message")).String() }); exc == nil {
				return &Diagnostic{Kind: kind, Message: text, Suggestions: d.Suggestions}
			}
		}
		diag := &Diagnostic{Kind: kind, Message: msg, Suggestions: d.Suggestions}
		if d.Raised && d.Pos >= 0 {
			loc := run.Location(d.Pos)
			diag.Message += fmt.Sprintf(" (line %d, col %d)", loc.Line, loc.Column)
			diag.Location = &Location{Line: loc.Line, Column: loc.Column}
		}
		if kind == UnsupportedSyntax && diag.Suggestions == nil {
			diag.Suggestions = []string{interp.UnsupportedSuggestion}
		}
		return diag
	}
	return &Diagnostic{Kind: ExecutionFailure, Message: "Uncaught: " + formatThrown(r, v)}
}

// toolKinds are the diagnostic kinds whose message is the error's message
// alone.
var toolKinds = map[Kind]bool{UnknownTool: true, InvalidToolInput: true, InvalidToolOutput: true,
	ToolCallLimitExceeded: true, ToolFailure: true}

// formatThrown renders a thrown non-error value: strings raw, anything
// else as the console renders it.
func formatThrown(r *value.Realm, v value.Value) string {
	if s := v.AsString(); s != nil {
		return s.String()
	}
	return builtin.Format(r, v)
}
