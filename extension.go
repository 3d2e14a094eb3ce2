package codemode

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/value"
)

// Extension adds globals implemented in Go: `fetch`, an `fs` object of
// functions. Extension calls are not tool calls: they are not in the
// catalog and do not count against MaxToolCalls; Hooks.ExtensionBefore
// and ExtensionAfter wrap them.
type Extension struct {
	// Name identifies the extension in errors and hooks.
	Name string
	// Globals maps global names to a HostFunc, an AsyncHostFunc, or a
	// map[string]any of those, nested to any depth (fs.promises.readFile).
	Globals map[string]any
}

// HostFunc is a synchronous extension function: the program's call waits
// for it and gets its result (or its error, thrown) directly. Arguments
// arrive as copies with JSON's shapes (map[string]any, []any, float64,
// string, bool, nil; a Uint8Array as []byte).
type HostFunc func(ctx context.Context, args []any) (any, error)

// AsyncHostFunc is an extension function that runs on a goroutine of its
// own; the program gets a promise of its result.
type AsyncHostFunc func(ctx context.Context, args []any) (any, error)

// HostError is an error an extension returns to give the program's Error
// a name and fields ("ENOENT" in e.code). Errors that are not HostErrors
// arrive as Error with their message; wrapped errors become `cause`.
type HostError struct {
	Name    string
	Message string
	// Fields are copied onto the program's error as own properties.
	Fields map[string]any
	// Cause, when set, becomes the error's cause.
	Cause error
}

func (e *HostError) Error() string { return e.Message }

// Unwrap returns the cause.
func (e *HostError) Unwrap() error { return e.Cause }

// checkExtensions rejects extension globals that shadow the library, the
// tools, or each other, with the reference's messages.
func checkExtensions(exts []Extension, lib *value.Library) error {
	seen := map[string]string{}
	for _, ext := range exts {
		names := make([]string, 0, len(ext.Globals))
		for n := range ext.Globals {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			_, dup := seen[name]
			if dup || lib.HasGlobal(name) || name == "tools" || name == "search" || name == "require" {
				return fmt.Errorf("Extension %q global %q is already defined.", ext.Name, name)
			}
			if !isHostValue(ext.Globals[name]) {
				return fmt.Errorf("Extension %q global %q must be a function.", ext.Name, name)
			}
			seen[name] = ext.Name
		}
	}
	return nil
}

// isHostValue reports a function or an object of functions.
func isHostValue(v any) bool {
	switch x := v.(type) {
	case HostFunc, AsyncHostFunc, func(context.Context, []any) (any, error):
		return x != nil
	case map[string]any:
		for _, e := range x {
			if !isHostValue(e) {
				return false
			}
		}
		return true
	}
	return false
}

// extHost is one run's view of the extensions.
type extHost struct {
	toolHost *toolHost // for the run, the context, the workers and hooks
	globals  map[string]extGlobal
	objects  map[string]value.Value
}

type extGlobal struct {
	ext string
	val any
}

func newExtHost(exts []Extension, th *toolHost) *extHost {
	h := &extHost{toolHost: th, globals: map[string]extGlobal{}}
	for _, ext := range exts {
		for name, v := range ext.Globals {
			h.globals[name] = extGlobal{ext: ext.Name, val: v}
		}
	}
	return h
}

// global returns the program value of an extension global.
func (h *extHost) global(r *value.Realm, name string) (value.Value, bool) {
	if v, ok := h.objects[name]; ok {
		return v, true
	}
	g, ok := h.globals[name]
	if !ok {
		return value.Undefined, false
	}
	v := h.hostValue(r, g.ext, name, g.val)
	if h.objects == nil {
		h.objects = map[string]value.Value{}
	}
	h.objects[name] = v
	return v, true
}

// hostValue makes the program side of a function or an object of them.
func (h *extHost) hostValue(r *value.Realm, ext, label string, v any) value.Value {
	if m, ok := v.(map[string]any); ok {
		o := value.NewObject(nil)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			o.Define(k, h.hostValue(r, ext, label+"."+k, m[k]), value.Enumerable)
		}
		return value.Obj(o)
	}
	fn := &extFunc{host: h, ext: ext, label: label}
	switch f := v.(type) {
	case HostFunc:
		fn.call = f
	case AsyncHostFunc:
		fn.call, fn.async = f, true
	case func(context.Context, []any) (any, error):
		fn.call = f
	}
	name := label
	if i := strings.LastIndexByte(label, '.'); i >= 0 {
		name = label[i+1:]
	}
	o := value.NewFunctionObject(r.Intrinsic(value.FunctionPrototype), fn)
	o.Define("length", value.Number(0), value.Configurable)
	o.Define("name", value.StrOf(name), value.Configurable)
	return value.Obj(o)
}

// extFunc is the Internal of an extension function.
type extFunc struct {
	host  *extHost
	ext   string
	label string
	call  func(context.Context, []any) (any, error)
	async bool
	// hooked is false for functions found inside results, which the
	// reference does not hook.
	unhooked bool
}

// IsConstructor implements value.Constructible: new reaches HostCall,
// which refuses it with the reference's message.
func (f *extFunc) IsConstructor() bool { return true }

// HostCall implements value.HostCallable.
func (f *extFunc) HostCall(r *value.Realm, o *value.Object, c *value.Call) value.Value {
	if c.NewTarget != nil {
		r.ThrowType("new %s(...) is not supported", f.label)
	}
	args := make([]any, len(c.Args))
	cp := &goCopy{r: r}
	for i, a := range c.Args {
		arg, err := cp.value(a, fmt.Sprintf("Argument %d to %s", i+1, f.label), 0)
		if err != nil {
			r.ThrowType("%s", err.Error())
		}
		args[i] = arg
	}
	th := f.host.toolHost
	hooks := th.hooks
	id, seq := th.callID()
	info := ExtensionCallInfo{Extension: f.ext, Name: f.label, Args: args, ID: id, Seq: seq}
	ended := th.started("extension", f.label, id, seq, nil)
	ctx := th.ctx
	if !f.async {
		if hooks.ExtensionBefore != nil && !f.unhooked {
			if err := runBefore(func() error { return hooks.ExtensionBefore(ctx, info) }); err != nil {
				ended(CallOutcome{Status: CallFailure, Err: err})
				r.Throw(f.host.errorValue(r, err))
			}
		}
		res, err := safeCall(ctx, f.call, args)
		outcome := outcomeOf(ctx, res, err)
		if hooks.ExtensionAfter != nil && !f.unhooked {
			runAfter(func() { hooks.ExtensionAfter(ctx, info, outcome) })
		}
		ended(outcome)
		// A function that returned because the deadline passed (its
		// context ended) leaves the run to end with TimeoutExceeded.
		th.run.CheckInterrupts()
		if err != nil {
			r.Throw(f.host.errorValue(r, err))
		}
		return f.host.resultValue(r, res, f.ext, f.label)
	}
	ec := &extCall{ctx: ctx, fn: f, info: info, ended: ended, hooked: !f.unhooked}
	ec.call = engine.HostCall{Seq: seq, Kind: engine.CallExtension, Path: f.label, Args: args,
		Promise: r.NewPromise(), Pos: r.Agent.Pos(), Settler: ec}
	th.run.Begin(&ec.call)
	ec.hc.interrupted = func() { ec.finished(CallOutcome{Status: CallInterrupted}, false) }
	th.trackCall(&ec.hc)
	th.spawn(ec)
	return value.Obj(ec.call.Promise)
}

// extCall is an async extension call on its way: a worker's task, and
// the run's settler of its outcome.
type extCall struct {
	ctx    context.Context // the context of the run's phase it began in
	fn     *extFunc
	info   ExtensionCallInfo
	ended  func(CallOutcome)
	hooked bool
	hc     hostCall
	call   engine.HostCall
}

// finished delivers an outcome to the after-hook (not for a denied call)
// and to the event stream.
func (ec *extCall) finished(out CallOutcome, denied bool) {
	th := ec.fn.host.toolHost
	if after := th.hooks.ExtensionAfter; after != nil && ec.hooked && !denied {
		runAfter(func() { after(context.WithoutCancel(ec.ctx), ec.info, out) })
	}
	ec.ended(out)
}

// run is the call's task on a worker: the before-hook, the function, the
// after-hook.
func (ec *extCall) run() *engine.HostCall {
	th, hc, ctx := ec.fn.host.toolHost, &ec.hc, ec.ctx
	if before := th.hooks.ExtensionBefore; before != nil && ec.hooked {
		var err error
		if !th.hook(hc, func() { err = runBefore(func() error { return before(ctx, ec.info) }) }) {
			return nil
		}
		if err != nil {
			if th.complete(hc, func() { ec.finished(CallOutcome{Status: CallFailure, Err: err}, true) }) {
				ec.call.Err = err
				return &ec.call
			}
			return nil
		}
	}
	if !hc.begin() {
		return nil
	}
	res, err := safeCall(ctx, ec.fn.call, ec.call.Args)
	outcome := outcomeOf(ctx, res, err)
	if !th.complete(hc, func() { ec.finished(outcome, false) }) {
		return nil
	}
	ec.call.Result, ec.call.Err = res, err
	return &ec.call
}

// Settle implements engine.Settler.
func (ec *extCall) Settle(r *value.Realm, c *engine.HostCall) {
	f := ec.fn
	// The run's end decides once a limit or the caller's context has
	// ended it.
	f.host.toolHost.run.CheckInterrupts()
	if c.Err != nil {
		r.RejectPromise(c.Promise, f.host.errorValue(r, c.Err))
		return
	}
	var v value.Value
	if exc := r.Try(func() { v = f.host.resultValue(r, c.Result, f.ext, f.label) }); exc != nil {
		r.RejectPromise(c.Promise, exc.Value)
		return
	}
	r.ResolvePromise(c.Promise, v)
}

func outcomeOf(ctx context.Context, res any, err error) CallOutcome {
	switch {
	case ctx.Err() != nil:
		return CallOutcome{Status: CallInterrupted}
	case err != nil:
		return CallOutcome{Status: CallFailure, Err: err}
	}
	return CallOutcome{Status: CallSuccess, Value: res}
}

// safeCall runs a host function, turning a panic into an error.
func safeCall(ctx context.Context, f func(context.Context, []any) (any, error), args []any) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the extension function panicked: %v", p)
		}
	}()
	return f(ctx, args)
}

// errorValue turns a Go error into the program's error: HostErrors keep
// their name and fields, wrapped errors become cause.
func (h *extHost) errorValue(r *value.Realm, err error) value.Value {
	return hostErrorValue(r, err, 0)
}

func hostErrorValue(r *value.Realm, err error, depth int) value.Value {
	name, msg := "Error", err.Error()
	var fields map[string]any
	var he *HostError
	if errors.As(err, &he) && he == err {
		if he.Name != "" {
			name = he.Name
		}
		msg, fields = he.Message, he.Fields
	}
	t := value.Error
	for i, n := range value.ErrorTypeNames {
		if n == name {
			t = value.ErrorType(i)
		}
	}
	e := r.NewError(t, msg)
	if name != value.ErrorTypeNames[t] {
		e.Define("name", value.StrOf(name), value.Writable|value.Configurable)
	}
	defineErrorFields(r, e, fields)
	if cause := errors.Unwrap(err); cause != nil && depth < 8 {
		e.Define("cause", hostErrorValue(r, cause, depth+1), value.Writable|value.Configurable)
	}
	return value.Obj(e)
}

// defineErrorFields gives a program error the host's fields (e.code,
// e.status), in key order, except names that would shadow what every
// error has.
func defineErrorFields(r *value.Realm, e *value.Object, fields map[string]any) {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "stack" || k == "constructor" || k == "toString" || k == "__proto__" || k == "name" || k == "message" {
			continue
		}
		if v, err := goToValue(r, fields[k], 0); err == nil {
			e.Define(k, v, value.DefaultFlags)
		}
	}
}

// FieldsError is an error that gives the program's Error properties
// besides its name and message: a tool that fails with one (openapi's
// HTTP errors: e.status, e.body) lets the program test them in a catch.
type FieldsError interface {
	error
	ErrorFields() map[string]any
}

// errorFields returns the fields a tool's error carries: a FieldsError's,
// or a HostError's.
func errorFields(err error) map[string]any {
	var fe FieldsError
	if errors.As(err, &fe) {
		return fe.ErrorFields()
	}
	var he *HostError
	if errors.As(err, &he) {
		return he.Fields
	}
	return nil
}

// resultValue copies a host result into the program: data as copies,
// functions as callable program functions (not hooked), errors as Error
// values. The copy has the guards of a tool result: a value holding
// itself is refused, as is one deeper than MaxValueDepth, and the copy
// is charged to the budget and polls the deadline as it goes.
func (h *extHost) resultValue(r *value.Realm, res any, ext, label string) value.Value {
	in := &goIn{h: h, r: r, ext: ext}
	return in.value(res, label, 0)
}

// goIn is one copy of a host result into the program.
type goIn struct {
	h    *extHost
	r    *value.Realm
	ext  string
	path []container // the maps and slices being copied, for cycles
}

func (in *goIn) value(res any, label string, depth int) value.Value {
	r := in.r
	if depth > MaxValueDepth {
		r.ThrowType("%s exceeds the maximum value depth of %d.", label, MaxValueDepth)
	}
	r.Tick(1)
	r.Charge(16)
	switch x := res.(type) {
	case HostFunc, AsyncHostFunc, func(context.Context, []any) (any, error):
		v := in.h.hostValue(r, in.ext, label, x)
		v.AsObject().Internal.(*extFunc).unhooked = true
		return v
	case error:
		return in.h.errorValue(r, x)
	case []byte:
		r.Charge(len(x) * 16)
		return bytesValue(r, x)
	case map[string]any:
		if x == nil {
			return value.Null
		}
		defer in.enter(container{reflect.ValueOf(x).Pointer(), -1}, label)()
		o := r.NewPlainObject()
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k == "__proto__" {
				continue
			}
			o.Define(value.NewString(k).Key(), in.value(x[k], label+"."+k, depth+1), value.DefaultFlags)
		}
		return value.Obj(o)
	case []any:
		if x == nil {
			return value.Null
		}
		if len(x) > 0 {
			defer in.enter(container{reflect.ValueOf(x).Pointer(), len(x)}, label)()
		}
		r.Charge(len(x) * 16)
		elems := make([]value.Value, len(x))
		for i, e := range x {
			elems[i] = in.value(e, label+"["+strconv.Itoa(i)+"]", depth+1)
		}
		return value.Obj(r.NewArrayValue(elems))
	}
	v, err := goToValue(r, res, 0)
	if err == errNeedsJSON {
		v, err = jsonRoundTrip(r, res)
	}
	if err != nil {
		r.ThrowType("%s produced a value the program cannot hold: %v", label, err)
	}
	return v
}

// container identifies a map, or a slice by its backing array and
// length (a shorter slice of the same array is another value).
type container struct {
	p uintptr
	n int
}

// enter records a map or slice on the path being copied, refusing one
// already on it; the returned func leaves it.
func (in *goIn) enter(p container, label string) func() {
	for _, q := range in.path {
		if q == p {
			in.r.ThrowType("%s produced a circular value.", label)
		}
	}
	in.path = append(in.path, p)
	return func() { in.path = in.path[:len(in.path)-1] }
}

// bytesValue makes a Uint8Array holding a copy of b.
// uint8Bytes is the content of a Uint8Array, copied out.
func uint8Bytes(o *value.Object) []byte {
	in := o.Internal.(value.Indexed)
	b := make([]byte, in.IndexLen())
	for i := range b {
		b[i] = byte(in.IndexGet(i).Num())
	}
	return b
}

func bytesValue(r *value.Realm, b []byte) value.Value {
	elems := make([]value.Value, len(b))
	for i, c := range b {
		elems[i] = value.Number(float64(c))
	}
	return r.Construct(value.Obj(r.Intrinsic(value.Uint8ArrayCtor)), []value.Value{value.Obj(r.NewArrayValue(elems))}, nil)
}

// goCopy is one copy of a program value out to an extension: JSON's
// shapes, a Uint8Array as []byte; functions, promises, iterators and
// symbols are refused with the reference's messages. It has the guards of
// a tool argument: depth, cycles, the budget (every Go value made is
// charged), the deadline, and MaxResultBytes for the whole copy.
type goCopy struct {
	r     *value.Realm
	stack []*value.Object
	size  int // JSON-equivalent bytes copied so far
}

// count charges n bytes of copy.
func (cp *goCopy) count(n int, label string) {
	cp.size += n
	cp.r.Charge(n)
	cp.r.Tick(1 + n>>6)
	if cp.size > MaxResultBytes {
		cp.r.ThrowRange("%s is larger than %d bytes, the most that can cross to the host; pass a smaller value.", label, MaxResultBytes)
	}
}

func (cp *goCopy) value(v value.Value, label string, depth int) (any, error) {
	r := cp.r
	if depth > MaxValueDepth {
		return nil, fmt.Errorf("%s exceeds the maximum value depth of %d.", label, MaxValueDepth)
	}
	cp.count(16, label)
	if o := v.AsObject(); o != nil && o.Class == value.ClassSymbol {
		return nil, fmt.Errorf("%s contains a symbol, which cannot be passed to an extension.", label)
	}
	v = r.UnwrapForJSON(v) // a wrapper crosses as its primitive, as in JSON
	switch v.Kind() {
	case value.KindUndefined, value.KindNull:
		return nil, nil
	case value.KindBoolean:
		return v.BoolValue(), nil
	case value.KindNumber:
		return v.Num(), nil
	case value.KindString:
		s := v.AsString().String()
		cp.count(len(s), label)
		return s, nil
	case value.KindSymbol:
		return nil, fmt.Errorf("%s contains a symbol, which cannot be passed to an extension.", label)
	}
	o := v.AsObject()
	for _, s := range cp.stack {
		if s == o {
			return nil, fmt.Errorf("%s contains a circular value, which cannot be passed to an extension.", label)
		}
	}
	cp.stack = append(cp.stack, o)
	defer func() { cp.stack = cp.stack[:len(cp.stack)-1] }()
	switch {
	case o.Callable():
		return nil, fmt.Errorf("%s contains a function, which cannot be passed to an extension.", label)
	case o.Class == value.ClassPromise:
		return nil, fmt.Errorf("%s contains an un-awaited Promise, which cannot be passed to an extension; await it first.", label)
	case o.Class == value.ClassGenerator:
		return nil, fmt.Errorf("%s contains a generator, which cannot be passed to an extension.", label)
	case o.Class == value.ClassIterator:
		return nil, fmt.Errorf("%s contains an iterator, which cannot be passed to an extension; spread it into an array first.", label)
	case o.Class == value.ClassUint8Array:
		cp.count(o.Internal.(value.Indexed).IndexLen(), label)
		return uint8Bytes(o), nil
	case o.Class == value.ClassArray:
		n := r.LengthOf(v)
		cp.count(16*n, label) // before the slice exists: a sparse length costs what it makes
		out := make([]any, n)
		for i := range out {
			e, err := cp.value(r.GetIndex(v, i), label, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	case o.Class == value.ClassSet:
		keys, _ := o.Internal.(*value.OrderedMap).Entries()
		cp.stack = cp.stack[:len(cp.stack)-1]
		defer func() { cp.stack = append(cp.stack, o) }()
		return cp.value(value.Obj(r.NewArrayValue(keys)), label, depth)
	}
	if bv, ok := o.Internal.(value.BoundaryValue); ok {
		cp.stack = cp.stack[:len(cp.stack)-1]
		defer func() { cp.stack = append(cp.stack, o) }()
		return cp.value(bv.BoundaryValue(r), label, depth)
	}
	if toJSON := r.Get(v, "toJSON"); toJSON.AsObject() != nil && toJSON.AsObject().Callable() && o.Class != value.ClassError {
		res := r.Call(toJSON, v, nil)
		cp.stack = cp.stack[:len(cp.stack)-1]
		defer func() { cp.stack = append(cp.stack, o) }()
		return cp.value(res, label, depth)
	}
	out := map[string]any{}
	if o.Class == value.ClassError {
		out["name"] = r.ToString(r.Get(v, "name")).String()
		out["message"] = r.ToString(r.Get(v, "message")).String()
	}
	for _, k := range r.OwnKeys(o, true, false) {
		if k == "__proto__" {
			continue
		}
		pv := r.Get(v, k)
		if pv.IsUndefined() {
			continue // as JSON leaves it out
		}
		cp.count(len(k), label)
		e, err := cp.value(pv, label, depth+1)
		if err != nil {
			return nil, err
		}
		out[k] = e
	}
	return out, nil
}
