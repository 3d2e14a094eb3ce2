package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/go-codemode/codemode/interp"
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
	run    *interp.Run
	ctx    context.Context // parent of every call's context; cancelled when the run ends
	limit  int             // -1: unlimited
	calls  []ToolCall
	refs   map[string]*value.Object
	proto  *value.Object
	closed bool
}

// toolRef is the Internal of a tool reference: a path in the tree.
type toolRef struct {
	host *toolHost
	segs []string
}

// ref returns the reference object for a path, the same object each time
// (references compare by identity).
func (h *toolHost) ref(r *value.Realm, segs []string) *value.Object {
	key := strings.Join(segs, "\x00")
	if len(segs) == 0 {
		key = "\x01root"
	}
	if o, ok := h.refs[key]; ok {
		return o
	}
	if h.refs == nil {
		h.refs = map[string]*value.Object{}
	}
	o := value.NewFunctionObject(r.Intrinsic(value.FunctionPrototype), &toolRef{host: h, segs: segs})
	o.Class = value.ClassHost
	r.Charge(128)
	h.refs[key] = o
	return o
}

// HostGet implements value.HostObject: every string key is the path one
// segment down, except `then` (so that awaiting a reference by mistake
// yields the reference, not a call), `toJSON` (so that JSON.stringify
// leaves references out, as it does functions) and symbols.
func (t *toolRef) HostGet(r *value.Realm, o *value.Object, key string) (value.Value, bool) {
	if key == "then" || key == "toJSON" || value.IsSymbolKey(key) || value.IsPrivateKey(key) {
		return value.Undefined, false
	}
	segs := append(append(make([]string, 0, len(t.segs)+1), t.segs...), key)
	return value.Obj(t.host.ref(r, segs)), true
}

// HostKeys implements value.HostObject: the names below the path. An
// unknown namespace is an UnknownTool error, as in the reference.
func (t *toolRef) HostKeys(r *value.Realm, o *value.Object) []string {
	n := t.host.tree.Lookup(t.segs)
	if n == nil {
		throwToolError(r, UnknownTool, fmt.Sprintf("Unknown tool namespace '%s'.", strings.Join(t.segs, ".")), searchSuggestion)
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
	path := strings.Join(t.segs, ".")
	if len(t.segs) == 0 {
		r.ThrowType("The tools root is not callable.")
	}
	n := h.tree.Lookup(t.segs)
	if n == nil {
		msg := fmt.Sprintf("Unknown tool '%s'.", path)
		if best, ok := h.tree.Closest(t.segs); ok {
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
	call := &pendingCall{host: h, node: n, arg: arg, promise: p}
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
}

// start copies the argument out and starts the tool, or first waits for
// the promises inside the argument.
func (pc *pendingCall) start(r *value.Realm) {
	if pending := pendingPromises(pc.arg, 0, nil); len(pending) > 0 {
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
		return []byte("{}")
	}
	w := &boundaryWriter{r: r, inArgument: true}
	if !w.value(pc.arg, "", 0) {
		return []byte("null")
	}
	return []byte(w.b.String())
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
	tool := pc.node.Tool
	h.run.Begin()
	ctx := h.ctx
	go func() {
		out, err := callTool(ctx, tool, input)
		h.run.Post(func(r *value.Realm) { pc.settle(r, out, err) })
	}()
}

// callTool runs the tool function, turning a panic into an error, and
// marshals its result when the tool declares an output.
func callTool(ctx context.Context, tool *tools.Tool, input []byte) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the tool panicked: %v", p)
		}
	}()
	res, err := tool.Func(ctx, input)
	if err != nil {
		return nil, err
	}
	if len(tool.Output) == 0 {
		return nil, nil
	}
	out, merr := json.Marshal(res)
	if merr != nil {
		return nil, &outputError{merr}
	}
	return out, nil
}

// outputError is a result that does not marshal to JSON.
type outputError struct{ err error }

func (e *outputError) Error() string { return "Error: " + e.err.Error() }

// settle applies a call's outcome on the run's side.
func (pc *pendingCall) settle(r *value.Realm, out []byte, err error) {
	path := pc.node.Path
	if err != nil {
		if oe, ok := err.(*outputError); ok {
			r.RejectPromise(pc.promise, value.Obj(toolError(r, InvalidToolOutput, fmt.Sprintf("Invalid output from tool '%s': %s", path, oe.Error()))))
			return
		}
		r.RejectPromise(pc.promise, value.Obj(toolError(r, ToolFailure, err.Error())))
		return
	}
	if out == nil {
		r.ResolvePromise(pc.promise, value.Undefined)
		return
	}
	v, perr := value.ParseJSON(value.NewString(string(out)), value.JSONProtos{
		Object: r.Intrinsic(value.ObjectPrototype), Array: r.Intrinsic(value.ArrayPrototype)},
		func(n int) error { r.Charge(n); return nil })
	if perr != nil {
		r.RejectPromise(pc.promise, value.Obj(toolError(r, InvalidToolOutput, fmt.Sprintf("Invalid output from tool '%s': %v", path, perr))))
		return
	}
	r.ResolvePromise(pc.promise, v)
}

// pendingPromises finds the pending promises inside a value (within the
// boundary's depth), which a tool call waits for before copying it out.
func pendingPromises(v value.Value, depth int, seen map[*value.Object]bool) []*value.Object {
	o := v.AsObject()
	if o == nil || depth > MaxValueDepth || seen[o] {
		return nil
	}
	if pd := value.PromiseOf(v); pd != nil {
		if pd.State == value.Pending {
			return []*value.Object{o}
		}
		pd.Handled = true
		return pendingPromises(pd.Result, depth, seen)
	}
	if o.Class != value.ClassObject && o.Class != value.ClassArray {
		return nil
	}
	if seen == nil {
		seen = map[*value.Object]bool{}
	}
	seen[o] = true
	var out []*value.Object
	if a := o.Array(); a != nil && o.Class == value.ClassArray {
		if d, ok := a.Dense(); ok {
			for _, e := range d {
				out = append(out, pendingPromises(e, depth+1, seen)...)
			}
		}
		return out
	}
	for _, k := range o.OwnKeys(true) {
		if p := o.GetOwn(k); p != nil && !p.IsAccessor() {
			out = append(out, pendingPromises(p.Value, depth+1, seen)...)
		}
	}
	return out
}
