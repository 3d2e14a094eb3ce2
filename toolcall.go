package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/tools"
	"github.com/go-codemode/codemode/value"
)

// Tool calls: `tools` is a host object whose every property is a
// reference to the path below it; calling a reference starts the tool at
// once on its own goroutine and returns a promise that the outcome, posted
// to the run's inbox, settles between jobs.

// The suggestion that goes with every UnknownTool diagnostic.
const searchSuggestion = "Use search to find available tools."

// The suggestion for InvalidToolInput.
const signatureSuggestion = "The signature may have changed. Use search to get the current signature."

// toolHost is one run's view of the tool tree.
type toolHost struct {
	tree   *tools.Tree
	run    engine.Run
	ctx    context.Context // parent of every call's context; cancelled when the run ends
	cancel context.CancelFunc
	limit  int // -1: unlimited
	calls  []ToolCall
	root   *value.Object // the tools reference, made on first use
	hooks  Hooks
	events *callEvents // OnToolCall's, or nil
	seq    int         // host calls made so far (callID)
	// signature and searchSchema are the Runtime's, shared by its runs.
	signature func(*tools.Node) string
	// fullSignature renders without the budget (search by exact path).
	fullSignature func(*tools.Node) string
	searchSchema  *tools.Schema
	// seen is pendingPromises' scratch, kept for the next call.
	seen []*value.Object
	// spareWriter copies arguments out, kept for the next call.
	spareWriter *boundaryWriter
	// pool runs calls on worker goroutines (workers.go), made by the
	// first call of a phase.
	pool *workerPool
	// holdable says a ToolBefore hook may hold a call (ErrSuspend): the
	// run is a Program's, which can be suspended.
	holdable bool
	// providers are WithProviders' (providers.go), and providerObjs
	// their globals, made on first use.
	providers    *providerSet
	providerObjs map[string]*value.Object

	// mu guards live and ended, the lifecycle of calls on workers.
	mu    sync.Mutex
	live  []*hostCall
	ended bool
	// hooksRunning counts hooks running on workers; the run's end waits
	// for them, so that no hook runs after Execute returns.
	hooksRunning sync.WaitGroup
}

// hostCall is a tool or extension call handed to a worker. The run's end
// and the worker race for it: whichever claims it first decides what the
// host sees, so that exactly one after-hook outcome is delivered, none
// after Execute returns, and no call starts once the run is over.
type hostCall struct {
	mu sync.Mutex
	// ended: the run ended first; the worker does nothing more.
	ended bool
	// done: the worker delivered the outcome (or a denial) first.
	done bool
	// interrupted delivers the CallInterrupted outcome, or is nil.
	interrupted func()
	// tool is a tool call (nil for an extension call), which the warning
	// names when the program returned without awaiting it; the label is
	// made only then.
	tool *pendingCall
}

// trackCall registers a call about to go to a worker.
func (h *toolHost) trackCall(c *hostCall) {
	h.mu.Lock()
	h.live = append(h.live, c)
	h.mu.Unlock()
}

// hook runs f, a hook, unless the run has ended; the end waits for it.
func (h *toolHost) hook(c *hostCall, f func()) bool {
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		return false
	}
	h.hooksRunning.Add(1)
	c.mu.Unlock()
	defer h.hooksRunning.Done()
	f()
	return true
}

// begin reports whether the call may start its function.
func (c *hostCall) begin() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.ended
}

// complete claims the call's outcome for the worker and runs after (the
// after-hook, if any) as a hook; false when the run ended first.
func (h *toolHost) complete(c *hostCall, after func()) bool {
	if !h.claim(c) {
		return false
	}
	defer h.hooksRunning.Done()
	if after != nil {
		after()
	}
	return true
}

// claim claims the call's outcome for the worker, counting a hook as
// running (the caller runs the after-hook, then calls
// hooksRunning.Done); false when the run ended first.
func (h *toolHost) claim(c *hostCall) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return false
	}
	c.done = true
	h.hooksRunning.Add(1)
	return true
}

// end ends the run for the host: calls in flight have their context
// cancelled and never start or report anything again; hooks already
// running are waited for; every call whose outcome was not delivered gets
// its after-hook called with CallInterrupted, here, before Execute
// returns. It returns the labels of the tool calls it cut off, in the
// order they were made, and is idempotent (a second call returns none).
func (h *toolHost) end() (cut []string) {
	h.mu.Lock()
	if h.ended {
		h.mu.Unlock()
		return nil
	}
	h.ended = true
	live := h.live
	h.live = nil
	h.mu.Unlock()
	// Claim every unfinished call before cancelling the context: a tool
	// that returns because of the cancel must not pass for one that
	// finished by itself.
	var pending []func()
	for _, c := range live {
		c.mu.Lock()
		if !c.done && !c.ended {
			c.ended = true
			if c.interrupted != nil {
				pending = append(pending, c.interrupted)
			} else if c.tool != nil {
				pending = append(pending, c.tool.interrupted)
			}
			if c.tool != nil {
				cut = append(cut, c.tool.label())
			}
		}
		c.mu.Unlock()
	}
	if h.cancel != nil {
		h.cancel()
	}
	h.hooksRunning.Wait()
	for _, f := range pending {
		runAfter(f)
	}
	return cut
}

// reopen readies the host for another phase of its run (a retained
// run's handle invocation): calls start again under ctx, on new
// workers, and ToolCalls counts from zero.
func (h *toolHost) reopen(ctx context.Context, cancel context.CancelFunc) {
	h.mu.Lock()
	h.ended, h.live = false, nil
	h.mu.Unlock()
	h.ctx, h.cancel = ctx, cancel
	h.pool = nil
	h.calls = nil
}

// toolRef is the Internal of a tool reference: a path in the tree, kept
// as its parent and last segment, so that a reference costs the same at
// any depth (`t = t.a` in a loop makes each one in constant time).
type toolRef struct {
	host     *toolHost
	parent   *toolRef // nil for the root
	seg      string
	children map[string]*value.Object // references one segment down, made on first use
}

// segs is the reference's path.
func (t *toolRef) segs() []string {
	n := 0
	for p := t; p.parent != nil; p = p.parent {
		n++
	}
	out := make([]string, n)
	for p := t; p.parent != nil; p = p.parent {
		n--
		out[n] = p.seg
	}
	return out
}

// ref returns the root reference, the same object each time (references
// compare by identity).
func (h *toolHost) ref(r *value.Realm, _ []string) *value.Object {
	if h.root == nil {
		h.root = h.newRef(r, &toolRef{host: h})
	}
	return h.root
}

func (h *toolHost) newRef(r *value.Realm, t *toolRef) *value.Object {
	o := value.NewFunctionObject(r.Intrinsic(value.FunctionPrototype), t)
	o.Class = value.ClassHost
	r.Charge(128 + len(t.seg))
	return o
}

// HostGet implements value.HostObject: every string key is the path one
// segment down, except `then` (so that awaiting a reference by mistake
// yields the reference, not a call), `toJSON` (so that JSON.stringify
// leaves references out, as it does functions) and symbols. A key with
// dots is the dotted path: tools.api["issues.list"] is
// tools.api.issues.list, the same object.
func (t *toolRef) HostGet(r *value.Realm, o *value.Object, key string) (value.Value, bool) {
	if key == "then" || key == "toJSON" || value.IsSymbolKey(key) || value.IsPrivateKey(key) {
		return value.Undefined, false
	}
	if strings.Contains(key, ".") {
		if parts := strings.Split(key, "."); !slices.Contains(parts, "") {
			c := t
			var co *value.Object
			for _, p := range parts {
				co = c.child(r, p)
				c = co.Internal.(*toolRef)
			}
			return value.Obj(co), true
		}
	}
	return value.Obj(t.child(r, key)), true
}

// child is the reference one segment down, the same object each time.
func (t *toolRef) child(r *value.Realm, seg string) *value.Object {
	if c, ok := t.children[seg]; ok {
		return c
	}
	c := t.host.newRef(r, &toolRef{host: t.host, parent: t, seg: seg})
	if t.children == nil {
		t.children = map[string]*value.Object{}
	}
	t.children[seg] = c
	return c
}

// HostKeys implements value.HostObject: the names below the path. An
// unknown namespace is an UnknownTool error, as in the reference.
func (t *toolRef) HostKeys(r *value.Realm, o *value.Object) []string {
	segs := t.segs()
	n := t.host.tree.Lookup(segs)
	if n == nil {
		throwToolError(r, UnknownTool, fmt.Sprintf("Unknown tool namespace '%s'.", strings.Join(segs, ".")), searchSuggestion)
	}
	return n.Children()
}

// throwToolError throws a catchable error whose uncaught diagnostic has
// the given kind and the message as is.
func throwToolError(r *value.Realm, kind Kind, msg string, suggestions ...string) {
	panic(&value.Exception{Value: value.Obj(toolError(r, kind, msg, suggestions...))})
}

func toolError(r *value.Realm, kind Kind, msg string, suggestions ...string) *value.Object {
	t := value.TypeError
	if kind == ToolFailure {
		t = value.Error
	}
	e := r.RaisedError(t, msg)
	d := value.ErrorInfo(value.Obj(e))
	d.Kind = string(kind)
	d.Suggestions = suggestions
	return e
}

// HostCall implements value.HostCallable: a tool call.
func (t *toolRef) HostCall(r *value.Realm, o *value.Object, c *value.Call) value.Value {
	h := t.host
	segs := t.segs()
	path := strings.Join(segs, ".")
	if len(segs) == 0 {
		r.ThrowType("The tools root is not callable.")
	}
	n := h.tree.Lookup(segs)
	if (n == nil || n.Tool == nil) && (path == "search" || path == "$codemode.search") {
		// The built-in, unless the host has a tool of that name.
		if len(c.Args) > 1 {
			throwToolError(r, InvalidToolInput, "Tool 'search' expects at most one input object.")
		}
		return h.search(r, c.Arg(0))
	}
	if n == nil {
		msg := fmt.Sprintf("Unknown tool '%s'.", path)
		if best, ok := h.tree.Closest(segs); ok {
			msg = fmt.Sprintf("Unknown tool '%s'. Did you mean %s?", path, tools.Expression(best.Segments))
		}
		throwToolError(r, UnknownTool, msg, searchSuggestion)
	}
	if n.Tool == nil {
		throwToolError(r, UnknownTool, fmt.Sprintf("Tool '%s' is not callable.", path), searchSuggestion)
	}
	if len(c.Args) > 1 {
		throwToolError(r, InvalidToolInput, fmt.Sprintf("Tool '%s' expects at most one input object.", path))
	}
	arg := value.Undefined
	if len(c.Args) == 1 {
		arg = c.Args[0]
	}
	p := r.NewPromise()
	call := &pendingCall{host: h, node: n, arg: arg, promise: p, pos: r.Agent.Pos()}
	call.start(r)
	return value.Obj(p)
}

// pendingCall is a tool call on its way: its argument may hold promises
// that must settle before it can be copied out.
type pendingCall struct {
	host    *toolHost
	node    *tools.Node
	arg     value.Value
	promise *value.Object
	waiting int
	pos     int // where the program made the call

	// Once admitted: what hooks see, the event stream's end, the call's
	// lifecycle, and the outcome the worker leaves for the run.
	info  ToolCallInfo
	ended func(CallOutcome)
	hc    hostCall
	// call is the call as data, which the worker posts with its outcome.
	call engine.HostCall
	// approved: a held call that Resume approved starts without its
	// before-hook.
	approved bool
	// dispatched: a provider global's call, whose input is the
	// dispatch's argument text (empty for none; binary tagged).
	dispatched bool
	// ctx is the context of the run's phase the call began in, which
	// its worker uses.
	ctx context.Context
	// retry: a call a suspend cut off (SuspendInterrupting), made again
	// when the run resumes.
	retry bool
}

// errHeld is the outcome a worker posts for a call its before-hook held
// (ErrSuspend): the run keeps it for a decision.
var errHeld = errors.New("codemode: held for a decision")

// restart starts a held call that was approved, on a resumed run.
func (pc *pendingCall) restart(r *value.Realm) {
	h := pc.host
	pc.call.Result, pc.call.Err = nil, nil
	h.run.Begin(&pc.call)
	pc.ended = h.started("tool", pc.node.Path, pc.info.ID, pc.info.Seq, pc.info.Input)
	pc.hc = hostCall{tool: pc}
	pc.ctx = h.ctx
	h.trackCall(&pc.hc)
	h.spawn(pc)
}

// deny settles a held call that Resume denied, through the inbox.
func (pc *pendingCall) deny(reason string) {
	h := pc.host
	pc.ended = func(CallOutcome) {}
	pc.call.Result, pc.call.Err = nil, errors.New(reason)
	h.run.Begin(&pc.call)
	h.run.Post(&pc.call)
}

// start copies the argument out and starts the tool, or first waits for
// the promises inside the argument.
func (pc *pendingCall) start(r *value.Realm) {
	if pending := pc.host.pendingPromises(pc.arg); len(pending) > 0 {
		pc.waiting = len(pending)
		for _, p := range pending {
			r.PerformThen(p, value.Undefined, value.Undefined, pc, nil)
		}
		return
	}
	var input []byte
	exc := r.Try(func() { input = pc.input(r) })
	if exc != nil {
		r.RejectPromise(pc.promise, exc.Value)
		return
	}
	// A WithTools tool's schemas compile on its first call; one that
	// does not compile is the host's error, which the program cannot fix.
	if err := pc.node.Prepare(); err != nil {
		r.RejectPromise(pc.promise, value.Obj(toolError(r, ToolFailure,
			fmt.Sprintf("Tool '%s' cannot be called: %v. This is an error in the host's tool definition, not in the program.", pc.node.Path, err))))
		return
	}
	// A call whose input does not validate is not admitted: not counted,
	// not listed, and no hook sees it.
	if err := pc.node.ValidateInput(input); err != nil {
		r.RejectPromise(pc.promise, value.Obj(toolError(r, InvalidToolInput,
			fmt.Sprintf("Invalid input for tool '%s': %s", pc.node.Path, err), signatureSuggestion)))
		return
	}
	pc.admit(r, input)
}

// Resume implements value.Continuation: a promise inside the argument
// settled.
func (pc *pendingCall) Resume(r *value.Realm, v value.Value, threw bool) {
	pc.waiting--
	if pc.waiting == 0 {
		pc.start(r)
	}
}

// input is the argument as JSON: `{}` for none, JSON semantics plus the
// boundary table otherwise.
func (pc *pendingCall) input(r *value.Realm) []byte {
	if pc.arg.IsUndefined() {
		if pc.dispatched {
			return []byte{}
		}
		return []byte("{}")
	}
	// The host's spare writer, unless a getter in an argument being
	// copied makes this call: then the spare is in use, and a new one is
	// made.
	h := pc.host
	w := h.spareWriter
	if w == nil {
		w = newBoundaryWriter(r, nil, -1)
	}
	h.spareWriter = nil
	w.binary = pc.dispatched
	out := argumentJSONWith(w, pc.arg)
	w.reset()
	h.spareWriter = w
	return out
}

// admit counts the call against the limit, records it, and starts the
// tool on its own goroutine.
func (pc *pendingCall) admit(r *value.Realm, input []byte) {
	h := pc.host
	path := pc.node.Path
	if h.limit >= 0 && len(h.calls) >= h.limit {
		r.RejectPromise(pc.promise, value.Obj(toolError(r, ToolCallLimitExceeded,
			fmt.Sprintf("Execution exceeded its tool-call limit of %d.", h.limit))))
		return
	}
	h.calls = append(h.calls, ToolCall{Name: path})
	var id string
	var seq int
	if h.hooks.ToolBefore != nil || h.hooks.ToolAfter != nil || h.events != nil {
		id, seq = h.callID()
	} else {
		h.seq++ // no hook or event sees the ID: not worth writing
		seq = h.seq
	}
	pc.info = ToolCallInfo{Name: path, Input: input, ID: id, Seq: seq}
	pc.call = engine.HostCall{Seq: seq, Kind: engine.CallTool, Path: path, Input: input,
		Promise: pc.promise, Pos: pc.pos, Settler: pc}
	h.run.Begin(&pc.call)
	pc.ended = h.started("tool", path, id, seq, input)
	pc.hc.tool = pc
	pc.ctx = h.ctx
	h.trackCall(&pc.hc)
	h.spawn(pc)
}

// finished delivers an outcome to the after-hook (unless the call was
// denied, which gets none) and to the event stream.
func (pc *pendingCall) finished(out CallOutcome, denied bool) {
	if after := pc.host.hooks.ToolAfter; after != nil && !denied {
		runAfter(func() { after(context.WithoutCancel(pc.ctx), pc.info, out) })
	}
	pc.ended(out)
}

// interrupted is the outcome of a call the run's end cut off.
func (pc *pendingCall) interrupted() { pc.finished(CallOutcome{Status: CallInterrupted}, false) }

// run is the call's task on a worker: the before-hook, the tool, the
// after-hook; it returns the call with its outcome for the run.
func (pc *pendingCall) run() *engine.HostCall {
	h, c, ctx := pc.host, &pc.hc, pc.ctx
	if before := h.hooks.ToolBefore; before != nil && !pc.approved {
		var err error
		if !h.hook(c, func() { err = runBefore(func() error { return before(ctx, pc.info) }) }) {
			return nil
		}
		if err != nil && errors.Is(err, ErrSuspend) {
			if !h.holdable {
				err = fmt.Errorf("%w; but only a run started with Runtime.Program can wait for a decision, so the call is denied", err)
			} else {
				if !h.claim(c) {
					return nil
				}
				h.hooksRunning.Done()
				pc.call.Err = errHeld
				return &pc.call
			}
		}
		if err != nil {
			if h.complete(c, func() { pc.finished(CallOutcome{Status: CallFailure, Err: err}, true) }) {
				pc.call.Err = err
				return &pc.call
			}
			return nil
		}
	}
	if !c.begin() {
		return nil
	}
	res, err := callTool(ctx, pc.node, pc.info.Input)
	outcome := CallOutcome{Status: CallSuccess, Value: res}
	switch {
	case ctx.Err() != nil:
		outcome = CallOutcome{Status: CallInterrupted}
	case err != nil:
		outcome = CallOutcome{Status: CallFailure, Err: err}
	}
	if !h.claim(c) {
		return nil
	}
	pc.finished(outcome, false)
	h.hooksRunning.Done()
	pc.call.Result, pc.call.Err = res, err
	return &pc.call
}

// Settle implements engine.Settler: it settles the call's promise with
// the outcome the worker left.
func (pc *pendingCall) Settle(r *value.Realm, c *engine.HostCall) {
	if c.Err == errHeld {
		pc.host.run.Hold(c)
		return
	}
	pc.settle(r, c.Result, c.Err)
}

// label is the call as a warning names it: its expression and where the
// program made it.
func (pc *pendingCall) label() string {
	expr := tools.Expression(pc.node.Segments)
	if pc.pos < 0 {
		return expr
	}
	loc := pc.host.run.Location(pc.pos)
	return fmt.Sprintf("%s (line %d, col %d)", expr, loc.Line, loc.Column)
}

// callTool runs the tool function on a worker goroutine, turning a panic
// into an error. Results the run copies directly (maps, slices, scalars)
// come back as they are; others are marshalled here, off the run's
// goroutine. A tool that asks for it has its output validated against its
// output schema.
func callTool(ctx context.Context, node *tools.Node, input []byte) (res any, err error) {
	tool := node.Tool
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the tool panicked: %v", p)
		}
	}()
	res, err = tool.Func(ctx, input)
	if err != nil || len(tool.Output) == 0 {
		return nil, err
	}
	if tool.ValidateOutputs {
		raw, ok := res.(json.RawMessage)
		if !ok {
			out, merr := marshalBounded(res)
			if merr != nil {
				return nil, &outputError{err: merr}
			}
			raw = out
		}
		if verr := node.ValidateOutput(raw); verr != nil {
			return nil, &outputError{err: verr, plain: true}
		}
		return raw, nil
	}
	if !directlyCopyable(res) {
		out, merr := marshalBounded(res)
		if merr != nil {
			return nil, &outputError{err: merr}
		}
		return json.RawMessage(out), nil
	}
	return res, nil
}

// directlyCopyable reports results goToValue handles without marshalling.
func directlyCopyable(v any) bool {
	switch v.(type) {
	case nil, string, bool, float64, float32, int, int64, int32, uint64, json.Number, json.RawMessage, map[string]any, []any, dispatchBytes:
		return true
	}
	return typedCopyable(v)
}

// outputError is a result that does not marshal to JSON (reported as
// the reference does, "Error: ..."), or that fails the output schema
// (plain: the validation text).
type outputError struct {
	err   error
	plain bool
}

func (e *outputError) Error() string {
	if e.plain {
		return e.err.Error()
	}
	return "Error: " + e.err.Error()
}

// settle applies a call's outcome on the run's side.
func (pc *pendingCall) settle(r *value.Realm, res any, err error) {
	// Once the deadline has passed or the caller's context has ended, the
	// run's end decides the outcome, not the tool's error for it.
	pc.host.run.CheckInterrupts()
	path := pc.node.Path
	if err != nil {
		if oe, ok := err.(*outputError); ok {
			r.RejectPromise(pc.promise, value.Obj(toolError(r, InvalidToolOutput, fmt.Sprintf("Invalid output from tool '%s': %s", path, oe.Error()))))
			return
		}
		e := toolError(r, ToolFailure, err.Error())
		if fields := errorFields(err); fields != nil {
			defineErrorFields(r, e, fields)
		}
		r.RejectPromise(pc.promise, value.Obj(e))
		return
	}
	if len(pc.node.Tool.Output) == 0 {
		r.ResolvePromise(pc.promise, value.Undefined)
		return
	}
	var v value.Value
	exc := r.Try(func() {
		v, err = goToValue(r, res, 0)
		if err == errNeedsJSON {
			var out []byte
			if out, err = marshalBounded(res); err == nil {
				v, err = parseJSONValue(r, out)
			}
		}
	})
	if exc != nil {
		r.RejectPromise(pc.promise, exc.Value)
		return
	}
	if err != nil {
		r.RejectPromise(pc.promise, value.Obj(toolError(r, InvalidToolOutput, fmt.Sprintf("Invalid output from tool '%s': Error: %v", path, err))))
		return
	}
	r.ResolvePromise(pc.promise, v)
}

// pendingPromises finds the pending promises inside a value (within the
// boundary's depth), which a tool call waits for before copying it out.
// Plain data (no promise anywhere) costs a walk and, once the scratch
// has grown, no allocation.
func (h *toolHost) pendingPromises(v value.Value) []*value.Object {
	var out []*value.Object
	seen := h.seen[:0]
	collectPending(v, 0, &seen, &out)
	clear(seen)
	h.seen = seen[:0]
	return out
}

func collectPending(v value.Value, depth int, seen *[]*value.Object, out *[]*value.Object) {
	o := v.AsObject()
	if o == nil || depth > MaxValueDepth {
		return
	}
	if pd := value.PromiseOf(v); pd != nil {
		if pd.State == value.Pending {
			*out = append(*out, o)
			return
		}
		pd.Handled = true
		collectPending(pd.Result, depth, seen, out)
		return
	}
	if o.Class != value.ClassObject && o.Class != value.ClassArray {
		return
	}
	for _, s := range *seen {
		if s == o {
			return
		}
	}
	*seen = append(*seen, o)
	if a := o.Array(); a != nil && o.Class == value.ClassArray {
		if d, ok := a.Dense(); ok {
			for _, e := range d {
				collectPending(e, depth+1, seen, out)
			}
		}
		return
	}
	o.EachOwn(func(p *value.Property) {
		if !p.IsAccessor() && p.Flags&value.Enumerable != 0 {
			collectPending(p.Value, depth+1, seen, out)
		}
	})
}
