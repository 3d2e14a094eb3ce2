package value

import "fmt"

// A Realm is the state of one run that the built-in library works on: the
// run's own intrinsics (made lazily, so a run that never touches arrays
// never builds Array.prototype), its job queue, its allocation count, and
// the engine that runs program functions (the Agent).
//
// A Realm is used by one goroutine at a time: the engine hands it from
// coroutine to coroutine, never to two at once.
type Realm struct {
	// Agent is the engine; set before anything runs.
	Agent Agent
	// Depth is the current call depth of program functions, kept by the
	// engine (MaxCallDepth).
	Depth int
	// GoDepth is the Go stack that the calls under way hold, estimated in
	// bytes: each program call adds what its function's frames cost
	// (EnterFrame), each built-in call and each level of a built-in's
	// recursion a fixed cost (EnterNative, Enter). MaxNativeDepth bounds
	// it, so that no program can exhaust the Go stack. The estimate is
	// computed from the program, never read from the machine, so a program
	// reaches the limit at the same point on every machine.
	GoDepth int
	// GoPeak is the highest GoDepth reached since the engine last set it:
	// how deep a coroutine's own goroutine stack has grown.
	GoPeak int

	lib        *Library
	intrinsics [NumIntrinsics]*Object
	globals    map[string]Value
	jobs       jobQueue
	allocated  int64
	nextID     int64 // promise creation ids, for the order of warnings
	symbols    int64 // symbols made by Symbol(): the last one's number
	// Logs are the console lines written so far (AppendLog).
	Logs []string
	// logChars counts the characters of Logs, up to
	// ConsoleCaptureLimit; logFull: the final line was written.
	logChars int
	logFull  bool
	// OnLog, when set, gets each console line as the program writes it,
	// on the run's goroutine.
	OnLog func(line string)
	// Rejections are the promises that were rejected with nobody
	// observing them; the run reports those still unobserved at the end.
	Rejections []*Object
	// Host holds what the embedding runtime attaches (tools, limits).
	Host    any
	scratch map[any]any
	// Budget, when positive, is how many bytes the program may allocate;
	// passing it ends the run with MemoryLimitExceeded.
	Budget int64
	// pending counts promises not yet settled (MaxPendingPromises).
	pending int
	// work counts units of work since the last interrupt check (Tick).
	work int
	// ArgStack is scratch space the engine evaluates call arguments into
	// (a stack: each call truncates it back); Try restores its height.
	ArgStack []Value
}

// Agent is the engine as the built-in library sees it: it runs the
// functions the program defined and knows where the program is.
type Agent interface {
	// CallFunction runs a program function. A throw panics with
	// *Exception, as everywhere in the library.
	CallFunction(f *Object, this Value, args []Value) Value
	// ConstructFunction runs a program constructor (a class or function)
	// under new.
	ConstructFunction(f *Object, args []Value, newTarget *Object) Value
	// Pos is the source offset of the call or operation being evaluated,
	// where an error raised by a built-in is reported; -1 when unknown.
	Pos() int
	// CheckInterrupts checks the run's deadline, its context and any
	// other interrupt now, panicking with *Interrupt when the run must
	// end. The realm calls it every TickInterval units of work (Tick).
	CheckInterrupts()
}

// MaxCallDepth is the deepest the call stack may get before a RangeError
// "Maximum call stack size exceeded".
const MaxCallDepth = 10_000

// MaxNativeDepth bounds GoDepth, the estimated bytes of Go stack that the
// calls under way hold, built-ins included. The estimates are upper
// bounds calibrated on the real frames, so a run stays well inside 64 MiB
// of Go stack (Go's default limit is 1 GB), while 10,000 levels of
// ordinary recursion (MaxCallDepth) fit.
const MaxNativeDepth = 40 << 20

// The stack costs, in bytes, of the calls the realm counts itself.
const (
	// RecursionStackCost is one level of a built-in's own recursion
	// (Enter): join over nested arrays, structuredClone, iterator
	// helpers.
	RecursionStackCost = 1536
	// NativeStackCost is one built-in call (EnterNative): the built-in's
	// frames and the realm's call machinery.
	NativeStackCost = 1024
)

// NewRealm makes the state of a run over a library.
func NewRealm(lib *Library, agent Agent) *Realm {
	return &Realm{lib: lib, Agent: agent}
}

// TickInterval is how many units of work (Tick) pass between two checks
// of the clock and the context. A unit is about one element or character
// processed, or one loop iteration: a few nanoseconds to a microsecond, so
// a run notices its deadline within milliseconds whatever its loops do.
const TickInterval = 1024

// Tick charges n units of work, about one per element, character or loop
// iteration processed; every TickInterval units it checks the memory
// budget, the deadline and the context (Agent.CheckInterrupts). A
// built-in that loops over a large input calls Tick as it goes, in steps
// of its choosing (per element, or per chunk of n), so that one call on a
// 16 M-character string cannot run past the deadline.
func (r *Realm) Tick(n int) {
	r.work += n
	if r.work < TickInterval {
		return
	}
	r.work = 0
	r.CheckBudget()
	r.Agent.CheckInterrupts()
}

// Poll is Tick(1): one unit of work, as a loop back-edge or one element.
func (r *Realm) Poll() {
	r.work++
	if r.work < TickInterval {
		return
	}
	r.work = 0
	r.CheckBudget()
	r.Agent.CheckInterrupts()
}

// Library returns the library the realm was made with.
func (r *Realm) Library() *Library { return r.lib }

// Enter counts one level of call depth for a built-in that recurses,
// throwing the RangeError past MaxCallDepth or MaxNativeDepth. Pair it
// with Leave.
func (r *Realm) Enter() { r.EnterFrame(RecursionStackCost) }

// Leave undoes Enter.
func (r *Realm) Leave() { r.LeaveFrame(RecursionStackCost) }

// EnterFrame counts one level of call depth whose Go frames cost about
// cost bytes of stack (the engine knows it for each program function),
// throwing the RangeError "Maximum call stack size exceeded" past
// MaxCallDepth levels or MaxNativeDepth bytes. Pair it with LeaveFrame
// and the same cost.
func (r *Realm) EnterFrame(cost int) {
	if r.Depth >= MaxCallDepth || r.GoDepth+cost > MaxNativeDepth {
		r.ThrowRange("Maximum call stack size exceeded")
	}
	r.Depth++
	r.GoDepth += cost
	if r.GoDepth > r.GoPeak {
		r.GoPeak = r.GoDepth
	}
}

// LeaveFrame undoes EnterFrame(cost).
func (r *Realm) LeaveFrame(cost int) { r.Depth--; r.GoDepth -= cost }

// EnterNative counts a built-in's call against MaxNativeDepth only.
func (r *Realm) EnterNative() {
	if r.GoDepth+NativeStackCost > MaxNativeDepth {
		r.ThrowRange("Maximum call stack size exceeded")
	}
	r.GoDepth += NativeStackCost
	if r.GoDepth > r.GoPeak {
		r.GoPeak = r.GoDepth
	}
}

// LeaveNative undoes EnterNative.
func (r *Realm) LeaveNative() { r.GoDepth -= NativeStackCost }

// ---------------------------------------------------------------------------
// Functions

// Call is one invocation of a built-in function.
type Call struct {
	This Value
	Args []Value
	// Callee is the function object being called (for built-ins that keep
	// per-instance data in Native.Data).
	Callee *Object
	// NewTarget is set when the function is called with new.
	NewTarget *Object
}

// Arg returns argument i, or undefined.
func (c *Call) Arg(i int) Value {
	if i < len(c.Args) {
		return c.Args[i]
	}
	return Undefined
}

// NativeFunc is the code of a built-in function.
type NativeFunc func(r *Realm, c *Call) Value

// Native is a built-in function: the Internal of its function objects.
// Name is stable ("Array.prototype.map") so that a snapshot can refer to
// it; the objects themselves are made per run.
type Native struct {
	Name   string // the stable name; the function's `name` is the part after the last dot
	Length int
	Fn     NativeFunc
	// Ctor marks functions that may be called with new.
	Ctor bool
}

// Bound is the Internal of a function object with per-instance data: a
// bound function, a promise's resolve function. Fn reads Data through
// c.Callee.
type Bound struct {
	Native *Native
	Data   any
}

// FuncName returns the short name of a native ("map" for
// "Array.prototype.map", "get size" for accessors named so).
func (n *Native) FuncName() string {
	name := n.Name
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '.' {
			return name[i+1:]
		}
		if name[i] == ']' { // "Array.prototype[Symbol.iterator]"
			for j := i; j >= 0; j-- {
				if name[j] == '[' {
					return "[" + name[j+1:i] + "]"
				}
			}
		}
	}
	return name
}

// NewNative makes a function object for a built-in, with its name and
// length properties.
func (r *Realm) NewNative(n *Native) *Object {
	f := NewFunctionObject(r.Intrinsic(FunctionPrototype), n)
	f.props = make([]Property, 0, 2)
	f.add(Property{Key: "length", Value: Number(float64(n.Length)), Flags: Configurable})
	f.add(Property{Key: "name", Value: StrOf(n.FuncName()), Flags: Configurable})
	return f
}

// NewBound makes a function object for a built-in with instance data.
func (r *Realm) NewBound(n *Native, data any, name string, length int) *Object {
	f := NewFunctionObject(r.Intrinsic(FunctionPrototype), &Bound{Native: n, Data: data})
	f.props = make([]Property, 0, 2)
	f.add(Property{Key: "length", Value: Number(float64(length)), Flags: Configurable})
	f.add(Property{Key: "name", Value: StrOf(name), Flags: Configurable})
	return f
}

// Method defines a built-in method on o under key (non-enumerable, as
// every built-in method is).
func (r *Realm) Method(o *Object, key string, n *Native) *Object {
	f := r.NewNative(n)
	o.Define(key, Obj(f), Writable|Configurable)
	return f
}

// Getter defines a built-in accessor property with a getter only; the
// function is named "get <name>" as V8 names it.
func (r *Realm) Getter(o *Object, key string, n *Native) {
	o.DefineAccessor(key, r.accessorFunc(n, "get "), nil, Configurable)
}

// Accessor defines a built-in accessor property with getter and setter.
func (r *Realm) Accessor(o *Object, key string, get, set *Native) {
	o.DefineAccessor(key, r.accessorFunc(get, "get "), r.accessorFunc(set, "set "), Configurable)
}

func (r *Realm) accessorFunc(n *Native, prefix string) *Object {
	f := r.NewNative(n)
	f.Define("name", StrOf(prefix+n.FuncName()), Configurable)
	return f
}

// IsConstructor reports whether v can be used with new.
func IsConstructor(v Value) bool {
	o := v.AsObject()
	if o == nil || !o.callable {
		return false
	}
	switch in := o.Internal.(type) {
	case *Native:
		return in.Ctor
	case *Bound:
		if bf, ok := in.Data.(*BoundFunc); ok {
			// A bound function is a constructor when its target is.
			return bf.Target != nil && IsConstructor(Obj(bf.Target))
		}
		return in.Native.Ctor
	case Constructible:
		return in.IsConstructor()
	}
	return false
}

// Constructible is implemented by the Internal of engine functions, which
// know whether they are constructors (classes and plain functions) or not
// (arrows, methods, async functions, generators).
type Constructible interface {
	IsConstructor() bool
}

// Call calls fn with this and args. A value that is not a function throws
// the TypeError "<what> is not a function"; what names the callee as the
// program wrote it when the engine knows it.
func (r *Realm) Call(fn Value, this Value, args []Value) Value {
	o := fn.AsObject()
	if o == nil || !o.callable {
		r.ThrowType("%s is not a function", r.Describe(fn))
	}
	return r.CallObject(o, this, args)
}

// CallObject calls a function object.
func (r *Realm) CallObject(o *Object, this Value, args []Value) Value {
	switch in := o.Internal.(type) {
	case *Native:
		if in.Fn == nil {
			r.ThrowType("%s is not a function", in.Name)
		}
		// Built-ins count towards the call depth too: toString and join
		// can recurse through each other with no program frame between.
		r.EnterNative()
		v := in.Fn(r, &Call{This: this, Args: args, Callee: o})
		r.LeaveNative()
		return v
	case *Bound:
		r.EnterNative()
		v := in.Native.Fn(r, &Call{This: this, Args: args, Callee: o})
		r.LeaveNative()
		return v
	case HostCallable:
		return in.HostCall(r, o, &Call{This: this, Args: args, Callee: o})
	}
	return r.Agent.CallFunction(o, this, args)
}

// Construct is new fn(...args).
func (r *Realm) Construct(fn Value, args []Value, newTarget *Object) Value {
	o := fn.AsObject()
	if !IsConstructor(fn) {
		r.ThrowType("%s is not a constructor", r.Describe(fn))
	}
	if newTarget == nil {
		newTarget = o
	}
	switch in := o.Internal.(type) {
	case *Native:
		r.EnterNative()
		v := in.Fn(r, &Call{This: Undefined, Args: args, Callee: o, NewTarget: newTarget})
		r.LeaveNative()
		return v
	case *Bound:
		r.EnterNative()
		v := in.Native.Fn(r, &Call{This: Undefined, Args: args, Callee: o, NewTarget: newTarget})
		r.LeaveNative()
		return v
	case HostCallable:
		// A host function that says it is constructible (Constructible)
		// sees the new through NewTarget.
		return in.HostCall(r, o, &Call{This: Undefined, Args: args, Callee: o, NewTarget: newTarget})
	}
	return r.Agent.ConstructFunction(o, args, newTarget)
}

// Describe renders a value briefly for an error message, the way V8 does
// in "x is not a function": strings quoted, objects by kind.
func (r *Realm) Describe(v Value) string {
	switch v.Kind() {
	case KindString:
		return fmt.Sprintf("%q", v.AsString().String())
	case KindObject:
		o := v.AsObject()
		if o.callable {
			return "function " + r.FunctionName(o)
		}
		if o.Class == ClassArray {
			return "object"
		}
		return "#<Object>"
	case KindSymbol:
		return v.AsSymbol().String()
	}
	s, _ := v.ToString()
	return s.String()
}

// FunctionName returns the `name` of a function object, if it is a plain
// string data property.
func (r *Realm) FunctionName(f *Object) string {
	if p := f.GetOwn("name"); p != nil && !p.IsAccessor() && p.Value.IsString() {
		return p.Value.AsString().String()
	}
	return ""
}

// ProtoFromCtor returns the prototype a constructor's instances get: the
// newTarget's prototype property when it is an object, else the
// intrinsic fallback (so subclasses of built-ins get their own).
func (r *Realm) ProtoFromCtor(newTarget *Object, fallback Intrinsic) *Object {
	if newTarget != nil {
		if p := r.GetObj(newTarget, "prototype", Obj(newTarget)); p.IsObject() {
			return p.AsObject()
		}
	}
	return r.Intrinsic(fallback)
}

// Methods defines built-in methods on o, each under the key its stable
// name ends with ("Array.prototype.map" → "map"; a name ending in
// "[Symbol.iterator]" → the symbol), and registers them in the library.
func (r *Realm) Methods(o *Object, ns []*Native) {
	for _, n := range ns {
		r.Method(o, MethodKey(n), n)
	}
}

// MethodKey is the property key a native is installed under.
func MethodKey(n *Native) string {
	name := n.FuncName()
	if len(name) > 2 && name[0] == '[' {
		if s := WellKnownByDescription(name[1 : len(name)-1]); s != nil {
			return s.key
		}
	}
	return name
}

// Scratch returns the run's library state stored under key (nil if
// none): built-ins that need per-run bookkeeping (the arrays a join is
// walking) keep it here, never in package variables. Use an unexported
// key type, as with context values.
func (r *Realm) Scratch(key any) any { return r.scratch[key] }

// SetScratch stores per-run library state under key; nil deletes it.
func (r *Realm) SetScratch(key, v any) {
	if v == nil {
		delete(r.scratch, key)
		return
	}
	if r.scratch == nil {
		r.scratch = map[any]any{}
	}
	r.scratch[key] = v
}

// ConsoleCaptureLimit is the most console text one run keeps, in
// characters (UTF-16 code units) over all its lines: the executor seed's
// CONSOLE_CAPTURE_LIMIT, 2 × 1024 × 1024.
const ConsoleCaptureLimit = 2097152

// ConsoleCaptureLine is the last line of a run whose console output
// filled ConsoleCaptureLimit: the seed's final warn line.
const ConsoleCaptureLine = "[warn] Console output exceeded 2097152 characters; further output was dropped."

// AppendLog adds a console line to Logs and passes it to OnLog. Once the
// lines reach ConsoleCaptureLimit characters, the line that would pass it
// is replaced by ConsoleCaptureLine and every later one is dropped.
func (r *Realm) AppendLog(line string) {
	if r.logFull {
		return
	}
	n := utf16Len(line)
	if r.logChars+n > ConsoleCaptureLimit {
		r.logFull = true
		line = ConsoleCaptureLine
	} else {
		r.logChars += n
	}
	r.Logs = append(r.Logs, line)
	if r.OnLog != nil {
		r.OnLog(line)
	}
}

// recountLogs restores AppendLog's count from restored Logs.
func (r *Realm) recountLogs() {
	r.logChars, r.logFull = 0, false
	for _, l := range r.Logs {
		r.logChars += utf16Len(l)
	}
	if n := len(r.Logs); n > 0 && r.Logs[n-1] == ConsoleCaptureLine {
		r.logFull = true
	}
}

// utf16Len is the length of s, UTF-8, in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x80 || c >= 0xC0 && c < 0xF0:
			n++ // one unit: ASCII, or the lead byte of a 2- or 3-byte sequence
		case c >= 0xF0:
			n += 2 // a 4-byte sequence is a surrogate pair
		}
	}
	return n
}
