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
	"os"
	"slices"
	"strings"
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
	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/internal/snapshot"
	"github.com/go-codemode/codemode/protocol"
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
	// TypeScript says what to do with TypeScript syntax: erase what has no
	// run-time meaning (TypeScriptErase, the zero value) or reject it all
	// (TypeScriptReject).
	TypeScript TypeScriptMode
	// Engine is the engine that runs programs: EngineAST ("ast") or
	// EngineVM ("vm"). Empty means the CODEMODE_ENGINE environment
	// variable's value, or EngineAST when that is unset.
	Engine string
	// SnapshotKey, when set, seals every saved state (Program.Suspend)
	// with HMAC-SHA256, and Resume refuses a state whose seal is missing
	// or wrong. Use it whenever states pass through anything you do not
	// trust: an unsealed state is only checked to be well formed.
	SnapshotKey []byte
	// MaxSnapshotBytes, when positive, bounds a saved state: a suspend
	// that would write more fails, and Resume refuses a larger state.
	MaxSnapshotBytes int
	// MaxSuspensions, when positive, bounds how often one run may be
	// suspended.
	MaxSuspensions int
	// HandlesIdleTimeout is how long a retained run (WithRetain) is kept
	// without an invocation; zero is DefaultHandlesIdleTimeout.
	HandlesIdleTimeout time.Duration
	// MaxRetained bounds the runs kept at once for their handles; zero is
	// DefaultMaxRetained. A run past it is not kept, with a warning.
	MaxRetained int
	// Modules are what every program may import by name (see
	// WithModules, which adds a run's own).
	Modules protocol.ModuleMap
	// Fetch, when set, gives programs a `fetch` global whose requests it
	// performs (see WithFetch): outbound.New(cfg).Fetch() reaches the
	// network from this process, guarded.
	Fetch protocol.FetchFunc
}

// Runtime runs programs. It is safe for concurrent use: each Execute is
// independent and gets fresh built-ins.
type Runtime struct {
	opts   Options
	engine string // EngineAST or EngineVM
	lib    *value.Library
	tools  *tools.Tree
	// signatures caches each tool's rendered signature.
	signatures     sync.Map
	fullSignatures sync.Map
	searchSchema   *tools.Schema
	// overlaySchemas are WithTools' compiled schemas, by content.
	overlaySchemas *tools.SchemaCache
	// snapReg is the registry of saved types (snapshot.go), made on the
	// first suspend or resume.
	snapOnce sync.Once
	snapReg  *snapshot.Registry
	snapDone bool // snapReg was given (a round-trip sibling)
	// roundTrip: Execute saves and restores every run (RoundTripEnv).
	roundTrip bool
	// codecs are the states' deflaters and inflaters, for reuse.
	codecs codecPool
	// compiled are the programs last compiled for engine "vm".
	compiled compiledCache
	// retained are the runs kept for their handles (WithRetain).
	retained retainedSet
}

// overlaySchemaCacheSize bounds the compiled schemas WithTools keeps
// between runs: enough for every tool of a large per-user catalog.
const overlaySchemaCacheSize = 4096

// New makes a Runtime. It fails on invalid limits (with the reference's
// messages), on an invalid tool tree and on an unknown engine.
func New(opts Options) (*Runtime, error) {
	if err := opts.Limits.validate(); err != nil {
		return nil, err
	}
	eng, err := chooseEngine(opts.Engine)
	if err != nil {
		return nil, err
	}
	roundTrip := os.Getenv(RoundTripEnv) == "1"
	if roundTrip && opts.Engine == "" {
		eng = EngineVM
	}
	tree, err := tools.New(opts.Tools)
	if err != nil {
		return nil, err
	}
	lib := builtin.New(libraryInstallers...)
	// The host's own functions, for snapshots to name.
	lib.Register(searchNative, requireNative, fetchNative, searchThen, searchCatch, searchFinally)
	if err := checkExtensions(opts.Extensions, lib); err != nil {
		return nil, err
	}
	searchSchema, err := tools.CompileSchema(catalog.SearchInputSchema())
	if err != nil {
		return nil, fmt.Errorf("codemode: the search schema does not compile: %v", err)
	}
	return &Runtime{opts: opts, engine: eng, lib: lib, tools: tree, searchSchema: searchSchema,
		overlaySchemas: tools.NewSchemaCache(overlaySchemaCacheSize), roundTrip: roundTrip}, nil
}

// libraryInstallers are the areas of the standard library beyond the
// core, each from its own package.
var libraryInstallers = []builtin.Installer{array.Install, text.Install, json.Install, numeric.Install, collections.Install, web.Install}

// ExecOption adjusts one execution.
type ExecOption func(*execConfig)

type execConfig struct {
	bindings   map[string]any
	limits     *Limits
	hooks      *Hooks
	onLog      func(string)
	onToolCall func(ToolCallEvent)
	extensions []Extension
	overlays   []map[string]any
	// program: the run is a Program's (engine "vm", calls may be held);
	// decisions are Resume's answers for held calls, by key.
	program   bool
	holdable  bool
	decisions map[string]decision
	// providers and dispatch are WithProviders'.
	providers []protocol.ProviderDescriptor
	dispatch  protocol.DispatchFunc
	// retain is WithRetain's.
	retain bool
	// modules are WithModules'.
	modules protocol.ModuleMap
	// fetch is WithFetch's performer, when fetchSet.
	fetch    protocol.FetchFunc
	fetchSet bool
}

// WithExtensions adds extensions for this execution, beside the
// Runtime's (a per-user filesystem, say). Their globals follow the rules
// New applies: a name that collides with a built-in, a host global or
// another extension's fails the execution with ExecutionFailure, naming
// it, and runs nothing.
func WithExtensions(exts ...Extension) ExecOption {
	return func(c *execConfig) { c.extensions = append(c.extensions, exts...) }
}

// WithTools lays tools and namespaces over the Runtime's tree for this
// execution only (the tools of one user, one conversation): def is read
// as Options.Tools is, a tool at a path the Runtime has replaces it for
// this run, and a namespace adds to the Runtime's. Programs see the
// overlay in `tools` and in search; Catalog and Instructions stay the
// Runtime's. Several WithTools apply in order.
//
// It is cheap: the Runtime's tree and its compiled schemas are shared,
// not copied, and each overlay tool's schemas are compiled on its first
// call, through a cache the Runtime keeps by schema content, so a schema
// sent again in a later run is compiled once. An invalid definition
// fails the execution with ExecutionFailure and runs nothing; a schema
// that does not compile fails the calls of that tool.
func WithTools(def map[string]any) ExecOption {
	return func(c *execConfig) { c.overlays = append(c.overlays, def) }
}

// WithLimits bounds this execution more tightly than the Runtime's
// limits (per user, per plan): each limit set here replaces the
// Runtime's, and a zero one keeps it. A limit looser than the Runtime's
// fails the execution with ExecutionFailure, saying which, and runs
// nothing: the Runtime's limits are the host's ceiling.
func WithLimits(l Limits) ExecOption {
	return func(c *execConfig) { c.limits = &l }
}

// WithHooks adds hooks for this execution, run after the Runtime's own:
// a call either before-hook denies is denied, and both after-hooks see
// the outcome.
func WithHooks(h Hooks) ExecOption {
	return func(c *execConfig) { c.hooks = &h }
}

// OnLog streams the program's console output: f gets each line as the
// program writes it (the Result still has them all). It runs on the
// run's goroutine, so a slow f slows the program; it is never called
// after Execute returns, and a panic in it is dropped.
func OnLog(f func(line string)) ExecOption {
	return func(c *execConfig) { c.onLog = f }
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
// Cancelling ctx ends the run (Cancelled); a deadline on ctx ends it as
// Limits.Timeout does (TimeoutExceeded). A ctx already done runs nothing.
//
// When Execute returns the run is over for the host: every tool and
// extension call still in flight has had its context cancelled and its
// after-hook called with CallInterrupted, no call admitted but not yet
// started will start, and a call that completes later reaches no hook.
// Execute waits for hooks already running, so hooks should be quick.
func (rt *Runtime) Execute(ctx context.Context, code string, opts ...ExecOption) (res Result) {
	var s *session
	defer func() {
		if p := recover(); p != nil {
			res = internalErrorResult(p, s)
		}
	}()
	if rt.roundTrip && rt.engine == EngineVM && !retainAsked(opts) {
		return rt.executeRoundTrip(ctx, code, opts)
	}
	s, early := rt.newSession(ctx, code, time.Now(), 0, opts)
	if early != nil {
		return *early
	}
	if s.cfg.retain {
		return rt.executeRetained(s)
	}
	defer s.close()
	return s.result(finish(s.run, s.keep))
}

// executeRetained is Execute with WithRetain: the run is kept when its
// value holds functions.
func (rt *Runtime) executeRetained(s *session) Result {
	v, p, fail := s.run.Start()
	res, final := finishValue(s.run, v, p, fail, s.keep)
	kept := res.OK && rt.retain(s, final, &res)
	if !kept {
		defer s.close()
		return s.result(res)
	}
	// The program's phase ends as any run does: its calls in flight are
	// cut off. The run itself stays for InvokeHandle.
	id, handles := res.ExecutionID, res.Handles
	res = s.result(res)
	res.ExecutionID, res.Handles = id, handles
	s.cancel()
	return res
}

// retainAsked reports whether opts hold WithRetain.
func retainAsked(opts []ExecOption) bool {
	var c execConfig
	for _, o := range opts {
		o(&c)
	}
	return c.retain
}

// internalErrorResult is the Result of a run that panicked in codemode
// itself: a bug, reported as such, with the calls made so far.
func internalErrorResult(p any, s *session) Result {
	res := Result{Error: &Diagnostic{Kind: ExecutionFailure, Message: fmt.Sprintf("Internal error: %v. This is a bug in codemode; please report it with the program.", p)}}
	if s != nil && s.th != nil {
		s.th.end()
		res.ToolCalls = s.th.calls
	}
	return res
}

// session is one run being executed, fresh or resumed: the engine's run
// and the host side around it.
type session struct {
	rt       *Runtime
	cfg      execConfig
	limits   Limits
	code     string
	start    time.Time
	deadline time.Time
	// used is the active time of the run before this session (a resumed
	// run's earlier sessions), which its Timeout counts too.
	used       time.Duration
	timeoutMsg string
	run        engine.Run
	th         *toolHost
	h          *host
	runCtx     context.Context
	cancel     context.CancelFunc
	keep       int
	// warnFrom is how many of the run's warnings an earlier phase
	// reported (a retained run's invocation reports only its own).
	warnFrom int
	// srcStored is the source as states store it (deflated when srcZ),
	// made at the first save and kept for the next ones.
	srcStored []byte
	srcZ      bool
}

// newSession checks the options, parses and compiles code, and makes the
// run and its host side; early is the Result when that already fails.
// used is the active time the run had before (0 for a fresh run).
func (rt *Runtime) newSession(ctx context.Context, code string, start time.Time, used time.Duration, opts []ExecOption) (s *session, early *Result) {
	fail := func(kind Kind, msg string) (*session, *Result) {
		return nil, &Result{Error: &Diagnostic{Kind: kind, Message: msg}}
	}
	s = &session{rt: rt, code: code, start: start, used: used}
	for _, o := range opts {
		o(&s.cfg)
	}
	cfg := &s.cfg
	s.limits = rt.opts.Limits
	if cfg.limits != nil {
		var err error
		if s.limits, err = tighten(s.limits, *cfg.limits); err != nil {
			return fail(ExecutionFailure, err.Error())
		}
	}
	limits := s.limits
	if len(cfg.extensions) > 0 {
		if err := checkExtensions(append(slices.Clone(rt.opts.Extensions), cfg.extensions...), rt.lib); err != nil {
			return fail(ExecutionFailure, "codemode: WithExtensions: "+err.Error())
		}
	}
	var providers *providerSet
	overlays := cfg.overlays
	if len(cfg.providers) > 0 {
		overlay, set, err := providerOverlay(cfg.providers, cfg.dispatch, func(name string) bool {
			return rt.globalTaken(name, cfg)
		})
		if err != nil {
			return fail(ExecutionFailure, "codemode: WithProviders: "+err.Error())
		}
		providers = set
		overlays = append(slices.Clone(overlays), overlay)
	}
	tree, err := rt.runTree(overlays)
	if err != nil {
		return fail(ExecutionFailure, "codemode: WithTools: "+err.Error())
	}
	hooks := rt.opts.Hooks
	if cfg.hooks != nil {
		hooks = combineHooks(hooks, *cfg.hooks)
	}
	timeout := limits.Timeout
	if timeout > 0 {
		if timeout -= used; timeout <= 0 {
			timeout = time.Nanosecond
		}
	}
	deadline, timeoutMsg := runDeadline(ctx, start, timeout)
	if limits.pausesHostWaits() {
		// The run's own deadline moves with its waits on the host; the
		// caller's context keeps its own, enforced through the context.
		deadline, timeoutMsg = runDeadline(context.Background(), start, timeout)
	}
	if limits.Timeout > 0 && used > 0 {
		timeoutMsg = fmt.Sprintf("Execution timed out after %dms.", limits.Timeout.Milliseconds())
	}
	s.deadline, s.timeoutMsg = deadline, timeoutMsg
	interrupted := func() *Result {
		if !deadline.IsZero() && !time.Now().Before(deadline) {
			return &Result{Error: &Diagnostic{Kind: TimeoutExceeded, Message: timeoutMsg}}
		}
		if ctx.Err() != nil {
			return &Result{Error: contextDiagnostic(ctx, timeoutMsg)}
		}
		return nil
	}
	if r := interrupted(); r != nil {
		return nil, r
	}
	if mods := rt.runModules(cfg); len(mods) > 0 && !strings.HasPrefix(code, bundleMarker) {
		bundled, err := encodeBundle(code, mods)
		if err != nil {
			return fail(ParseError, "codemode: WithModules: "+err.Error())
		}
		code, s.code = bundled, bundled
	}
	if max := limits.sourceLimit(); len(code) > max {
		if strings.HasPrefix(code, bundleMarker) {
			return fail(ParseError, fmt.Sprintf(
				"The program and its modules are %d bytes, over the %d-byte source limit; send smaller modules (move data into tool calls), or raise Limits.MaxSourceBytes.", len(code), max))
		}
		return fail(ParseError, fmt.Sprintf(
			"The program is %d bytes, over the %d-byte source limit; send a shorter program (move data into tool calls or bindings), or raise Limits.MaxSourceBytes.", len(code), max))
	}
	eng := rt.engine
	if cfg.program {
		eng = EngineVM
	}
	newRun := rt.compiled.get(code)
	if eng != EngineVM || newRun == nil {
		prog, err := rt.parseProgram(code, cfg)
		if err != nil {
			r := parseFailure(err)
			return nil, &r
		}
		if r := interrupted(); r != nil {
			return nil, r
		}
		if newRun, err = compileFor(eng, prog); err != nil {
			return fail(ExecutionFailure, err.Error())
		}
		if eng == EngineVM {
			rt.compiled.put(code, newRun)
		}
	}
	if r := interrupted(); r != nil {
		return nil, r
	}
	h := &host{}
	if err := h.setBindings(cfg.bindings); err != nil {
		return fail(InvalidDataValue, err.Error())
	}
	h.hasFetch, h.fetcher = rt.opts.Fetch != nil, rt.opts.Fetch
	if cfg.fetchSet {
		h.hasFetch, h.fetcher = true, cfg.fetch
	}
	if h.hasFetch && rt.globalTaken("fetch", cfg) {
		return fail(ExecutionFailure, "codemode: fetch is given twice: by Options.Fetch or WithFetch, and by an extension or a binding; keep one")
	}
	s.h = h
	eopts := engine.Options{Library: rt.lib, Host: h, Deadline: deadline, TimeoutMessage: timeoutMsg,
		PauseHostWaits: limits.pausesHostWaits()}
	// The run's context carries the deadline, so that tools and
	// extensions see it (unless it moves with the host waits); it ends
	// when the run does.
	if !deadline.IsZero() && !eopts.PauseHostWaits {
		s.runCtx, s.cancel = context.WithDeadline(ctx, deadline)
	} else {
		s.runCtx, s.cancel = context.WithCancel(ctx)
	}
	run := newRun(s.runCtx, eopts)
	s.run = run
	if cfg.program {
		run.EnableSuspend()
	}
	run.Realm().Budget = limits.MaxMemoryBytes
	if f := cfg.onLog; f != nil {
		run.Realm().OnLog = func(line string) {
			defer func() { _ = recover() }()
			f(line)
		}
	}
	th := &toolHost{tree: tree, run: run, ctx: s.runCtx, cancel: s.cancel, limit: -1, hooks: hooks,
		signature: rt.signature, fullSignature: rt.fullSignature, searchSchema: rt.searchSchema,
		holdable: cfg.holdable, providers: providers}
	s.th = th
	if tree != rt.tools {
		th.signature, th.fullSignature = rt.runSignatures()
	}
	if cfg.onToolCall != nil {
		th.events = &callEvents{f: cfg.onToolCall}
	}
	h.tools = th
	if exts := rt.opts.Extensions; len(exts)+len(cfg.extensions) > 0 {
		if len(cfg.extensions) > 0 {
			exts = append(slices.Clone(exts), cfg.extensions...)
		}
		h.exts = newExtHost(exts, th)
	}
	if limits.MaxToolCalls != nil {
		th.limit = *limits.MaxToolCalls
	}
	s.keep = -1
	if limits.MaxOutputBytes != nil {
		s.keep = *limits.MaxOutputBytes
	}
	return s, nil
}

// close ends the session's run and cancels its context.
func (s *session) close() {
	s.run.Close()
	s.cancel()
}

// result completes the Result of a run that ended: the host's end (calls
// in flight cut off), the calls made, warnings, and the output bound.
func (s *session) result(res Result) Result {
	cut := s.th.end()
	res.ToolCalls = s.th.calls
	if deadline := s.run.Deadline(); res.OK && !deadline.IsZero() && !time.Now().Before(deadline) {
		// The value exists, but finishing ran past the deadline.
		w := Diagnostic{Kind: TimeoutExceeded, Message: fmt.Sprintf("The program returned, but background work was still running at the %dms timeout and was interrupted. Await all started promises.", (deadline.Sub(s.start) - s.run.Paused() + s.used).Milliseconds())}
		res.Warnings = append([]Diagnostic{w}, res.Warnings...)
	}
	if res.OK {
		for _, w := range s.run.Warnings()[min(s.warnFrom, len(s.run.Warnings())):] {
			res.Warnings = append(res.Warnings, Diagnostic{Kind: InvalidDataValue, Message: w.Message})
		}
		// The classic mistake: a call started and never awaited (a
		// forEach with an async callback) is cut off by the return.
		for _, label := range cut {
			res.Warnings = append(res.Warnings, Diagnostic{Kind: ToolFailure,
				Message: label + " was still running when the program ended and was cancelled: await every tool call you start."})
		}
	}
	if s.limits.MaxOutputBytes != nil {
		boundOutput(&res, *s.limits.MaxOutputBytes)
	}
	return res
}

// runDeadline is when the run times out, the earlier of its Timeout and
// ctx's deadline, with the message that says after how long.
func runDeadline(ctx context.Context, start time.Time, timeout time.Duration) (time.Time, string) {
	var d time.Time
	if timeout > 0 {
		d = start.Add(timeout)
	}
	if cd, ok := ctx.Deadline(); ok && (d.IsZero() || cd.Before(d)) {
		d = cd
	}
	if d.IsZero() {
		return d, ""
	}
	return d, fmt.Sprintf("Execution timed out after %dms.", max(d.Sub(start).Milliseconds(), 0))
}

// contextDiagnostic reports a run whose context ended.
func contextDiagnostic(ctx context.Context, timeoutMsg string) *Diagnostic {
	if ctx.Err() == context.DeadlineExceeded && timeoutMsg != "" {
		return &Diagnostic{Kind: TimeoutExceeded, Message: timeoutMsg}
	}
	return &Diagnostic{Kind: Cancelled, Message: "Execution was cancelled: " + ctx.Err().Error()}
}

func parseFailure(err error) Result {
	if pe, ok := err.(*ast.Error); ok {
		loc := pe.Location
		msg := pe.Msg
		if msg != ast.EmptyProgramMessage {
			msg = fmt.Sprintf("%s (%d:%d)", pe.Msg, loc.Line, loc.Column-1)
		}
		var where *Location
		if loc.Line > 0 || loc.Module != "" {
			where = &Location{Line: loc.Line, Column: loc.Column, Module: loc.Module}
		}
		if loc.Line == 0 {
			msg = pe.Msg
		}
		return Result{Error: &Diagnostic{Kind: ParseError, Message: msg, Location: where}}
	}
	return Result{Error: &Diagnostic{Kind: ParseError, Message: err.Error()}}
}

// finish runs the program to its end and builds the Result. keep is the
// output limit (-1: none) the value's copy is bounded by.
func finish(run engine.Run, keep int) Result {
	v, p, fail := run.Start()
	return finishFrom(run, v, p, fail, keep)
}

// finishFrom goes on with a run whose body gave v, or the promise p to
// settle (a resumed run starts here), to its Result.
func finishFrom(run engine.Run, v value.Value, p *value.Object, fail *engine.Failure, keep int) Result {
	res, _ := finishValue(run, v, p, fail, keep)
	return res
}

// finishValue is finishFrom, also returning the settled value.
func finishValue(run engine.Run, v value.Value, p *value.Object, fail *engine.Failure, keep int) (Result, value.Value) {
	r := run.Realm()
	if fail == nil && p != nil {
		fail = run.Settle(p)
	}
	if fail != nil {
		return Result{Error: failureDiagnostic(run, fail), Logs: r.Logs}, value.Undefined
	}
	if p != nil {
		pd := p.Internal.(*value.PromiseData)
		if pd.State == value.Rejected {
			return Result{Error: exceptionDiagnostic(run, pd.Result), Logs: r.Logs}, value.Undefined
		}
		v = pd.Result
	}
	out, fail := toBoundary(run, v, keep)
	if fail != nil {
		return Result{Error: failureDiagnostic(run, fail), Logs: r.Logs}, value.Undefined
	}
	res := Result{OK: true, Value: stdjson.RawMessage(out.text), Logs: r.Logs, valueSize: out.size, sizeAtLeast: out.atLeast}
	// A drain cut short by the deadline still reports the rejections
	// seen so far, after the timeout warning.
	_ = run.Drain()
	for _, rp := range r.UnhandledRejections() {
		d := exceptionDiagnostic(run, rp.Internal.(*value.PromiseData).Result)
		res.Warnings = append(res.Warnings, Diagnostic{Kind: d.Kind,
			Message: "Unhandled rejection from an un-awaited promise: " + d.Message})
	}
	return res, v
}

// failureDiagnostic reports a run that ended abnormally.
func failureDiagnostic(run engine.Run, f *engine.Failure) *Diagnostic {
	switch {
	case f.Exception != nil:
		return exceptionDiagnostic(run, f.Exception.Value)
	case f.Interrupt != nil:
		return interruptDiagnostic(f.Interrupt)
	}
	return &Diagnostic{Kind: ExecutionFailure, Message: fmt.Sprintf("Internal error: %v. This is a bug in codemode; please report it with the program.", f.Panic)}
}

// interruptDiagnostic reports a limit or a cancellation.
func interruptDiagnostic(i *value.Interrupt) *Diagnostic {
	kind := Kind(i.Kind)
	if kind == ExecutionFailure && strings.HasPrefix(i.Message, "Execution was cancelled") {
		kind = Cancelled
	}
	return &Diagnostic{Kind: kind, Message: i.Message}
}

// exceptionDiagnostic reports an uncaught throw of v. Formatting it may
// run program code (a getter on name, a toString); a limit it hits
// becomes the diagnostic instead.
func exceptionDiagnostic(run engine.Run, v value.Value) (d *Diagnostic) {
	defer func() {
		if p := recover(); p != nil {
			f := interruptFailure(p)
			if e, ok := p.(*value.Exception); ok {
				f = &engine.Failure{Exception: e} // formatting threw
			}
			switch {
			case f == nil:
				panic(p)
			case f.Interrupt != nil:
				d = interruptDiagnostic(f.Interrupt)
			default:
				d = &Diagnostic{Kind: ExecutionFailure, Message: "Uncaught: a value that could not be formatted"}
			}
		}
	}()
	return formatException(run, v)
}

// formatException is "Name: message" for errors (with the location when
// the runtime raised it), "Uncaught: ..." for anything else.
func formatException(run engine.Run, v value.Value) *Diagnostic {
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
			diag.Message += " (" + loc.String() + ")"
			diag.Location = &Location{Line: loc.Line, Column: loc.Column, Module: loc.Module}
		}
		if kind == UnsupportedSyntax && diag.Suggestions == nil {
			diag.Suggestions = []string{engine.UnsupportedSuggestion}
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
// else as the console renders it, cut at thrownFormatLimit bytes (a
// value sharing its parts at every level would render exponentially).
func formatThrown(r *value.Realm, v value.Value) string {
	if s := v.AsString(); s != nil {
		return s.String()
	}
	return builtin.FormatLimit(r, v, thrownFormatLimit)
}

// thrownFormatLimit bounds the rendering of a thrown value in a
// diagnostic message.
const thrownFormatLimit = 64 << 10
