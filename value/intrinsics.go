package value

import (
	"sort"
	"sync"
)

// Intrinsic names one of the objects every run has: prototypes and
// constructors. Each run makes its own, on first use.
type Intrinsic uint8

// The intrinsics. Constructors come after the prototypes they make.
const (
	ObjectPrototype Intrinsic = iota
	FunctionPrototype
	ArrayPrototype
	StringPrototype
	NumberPrototype
	BooleanPrototype
	SymbolPrototype
	ErrorPrototype
	TypeErrorPrototype
	RangeErrorPrototype
	SyntaxErrorPrototype
	ReferenceErrorPrototype
	EvalErrorPrototype
	URIErrorPrototype
	AggregateErrorPrototype
	PromisePrototype
	IteratorPrototype
	AsyncIteratorPrototype
	ArrayIteratorPrototype
	StringIteratorPrototype
	MapIteratorPrototype
	SetIteratorPrototype
	RegExpStringIteratorPrototype
	IteratorHelperPrototype
	WrapForValidIteratorPrototype
	GeneratorPrototype
	AsyncGeneratorPrototype
	AsyncFromSyncIteratorPrototype
	MapPrototype
	SetPrototype
	WeakMapPrototype
	WeakSetPrototype
	DatePrototype
	RegExpPrototype
	URLPrototype
	URLSearchParamsPrototype
	HeadersPrototype
	Uint8ArrayPrototype
	TextEncoderPrototype
	TextDecoderPrototype
	// The prototypes of generator, async and async generator functions
	// (%GeneratorFunction.prototype%, ...), which inherit from
	// Function.prototype.
	GeneratorFunctionPrototype
	AsyncFunctionPrototype
	AsyncGeneratorFunctionPrototype

	ObjectCtor
	FunctionCtor
	ArrayCtor
	StringCtor
	NumberCtor
	BooleanCtor
	SymbolCtor
	ErrorCtor
	TypeErrorCtor
	RangeErrorCtor
	SyntaxErrorCtor
	ReferenceErrorCtor
	EvalErrorCtor
	URIErrorCtor
	AggregateErrorCtor
	PromiseCtor
	IteratorCtor
	MapCtor
	SetCtor
	WeakMapCtor
	WeakSetCtor
	DateCtor
	RegExpCtor
	URLCtor
	URLSearchParamsCtor
	HeadersCtor
	Uint8ArrayCtor
	TextEncoderCtor
	TextDecoderCtor
	GeneratorFunctionCtor
	AsyncFunctionCtor
	AsyncGeneratorFunctionCtor
	MathObject
	JSONObject
	ConsoleObject
	CryptoObject
	ThrowTypeError // %ThrowTypeError%, for poisoned accessors

	NumIntrinsics
)

// IntrinsicSpec says how to make one intrinsic. The object is created
// with Proto as its prototype (NoIntrinsic for none), as a function when
// Func is set, stored in the realm, and only then filled by Init, so that
// Init may refer back to it (Array.prototype.constructor is Array).
type IntrinsicSpec struct {
	Name  string // stable name: "Array.prototype", "Array"
	Proto Intrinsic
	Class Class
	Func  *Native
	Init  func(r *Realm, o *Object)
}

// NoIntrinsic is the Proto of an intrinsic with a null prototype.
const NoIntrinsic Intrinsic = 255

// GlobalSpec makes the value of one global name in a run.
type GlobalSpec func(r *Realm) Value

// Library is the built-in library: how to make each intrinsic and each
// global. It is immutable once built and shared by every run.
type Library struct {
	specs   [NumIntrinsics]IntrinsicSpec
	globals map[string]GlobalSpec
	natives map[string]*Native

	cacheMu sync.Mutex
	cache   map[any]any

	snap libSnapshot // made on the first snapshot (snapshot.go)
}

// CacheLoad returns what CacheStore stored under key, for immutable
// derived data every run may share (compiled regular expressions). Safe
// for concurrent use.
func (l *Library) CacheLoad(key any) (any, bool) {
	l.cacheMu.Lock()
	defer l.cacheMu.Unlock()
	v, ok := l.cache[key]
	return v, ok
}

// CacheStore stores immutable shared data under key, keeping at most max
// entries (it stops adding when full). Safe for concurrent use.
func (l *Library) CacheStore(key, v any, max int) {
	l.cacheMu.Lock()
	defer l.cacheMu.Unlock()
	if l.cache == nil {
		l.cache = map[any]any{}
	}
	if len(l.cache) < max {
		l.cache[key] = v
	}
}

// NewLibrary makes an empty library; the builtin packages fill it.
func NewLibrary() *Library {
	l := &Library{globals: map[string]GlobalSpec{}, natives: map[string]*Native{}}
	for i := range l.specs {
		l.specs[i].Proto = ObjectPrototype
	}
	return l
}

// Intrinsic sets how intrinsic id is made.
func (l *Library) Intrinsic(id Intrinsic, spec IntrinsicSpec) {
	l.specs[id] = spec
	if spec.Func != nil {
		l.natives[spec.Func.Name] = spec.Func
	}
}

// Extend adds to the Init of an intrinsic already set (packages that add
// methods to another package's prototype).
func (l *Library) Extend(id Intrinsic, init func(r *Realm, o *Object)) {
	prev := l.specs[id].Init
	l.specs[id].Init = func(r *Realm, o *Object) {
		if prev != nil {
			prev(r, o)
		}
		init(r, o)
	}
}

// Global sets how the global name is made.
func (l *Library) Global(name string, spec GlobalSpec) { l.globals[name] = spec }

// GlobalIntrinsic makes the global name be intrinsic id.
func (l *Library) GlobalIntrinsic(name string, id Intrinsic) {
	l.globals[name] = func(r *Realm) Value { return Obj(r.Intrinsic(id)) }
}

// Register records natives by their stable names (for snapshots and for
// looking them up in tests).
func (l *Library) Register(ns ...*Native) {
	for _, n := range ns {
		l.natives[n.Name] = n
	}
}

// Native returns the built-in function with a stable name, or nil.
func (l *Library) Native(name string) *Native { return l.natives[name] }

// HasGlobal reports whether name is a built-in global.
func (l *Library) HasGlobal(name string) bool { _, ok := l.globals[name]; return ok }

// GlobalNames returns the built-in global names, sorted.
func (l *Library) GlobalNames() []string {
	names := make([]string, 0, len(l.globals))
	for n := range l.globals {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Intrinsic returns the run's intrinsic id, making it on first use.
func (r *Realm) Intrinsic(id Intrinsic) *Object {
	if o := r.intrinsics[id]; o != nil {
		return o
	}
	spec := &r.lib.specs[id]
	// The object is stored before its prototype is made: making
	// Object.prototype makes its methods, which need Function.prototype,
	// which needs Object.prototype; each must exist once.
	var o *Object
	if spec.Func != nil {
		o = NewFunctionObject(nil, spec.Func)
	} else {
		o = NewObject(nil)
	}
	o.Class = spec.Class
	r.intrinsics[id] = o
	switch {
	case spec.Func != nil && id != FunctionPrototype:
		o.Proto = r.Intrinsic(FunctionPrototype)
		o.Define("length", Number(float64(spec.Func.Length)), Configurable)
		o.Define("name", StrOf(spec.Func.FuncName()), Configurable)
	case spec.Proto != NoIntrinsic && id != ObjectPrototype:
		o.Proto = r.Intrinsic(spec.Proto)
	}
	if spec.Init != nil {
		spec.Init(r, o)
	}
	return o
}

// Global returns the value of a built-in global, making it on first use,
// and whether the library has it.
func (r *Realm) Global(name string) (Value, bool) {
	if v, ok := r.globals[name]; ok {
		return v, true
	}
	spec, ok := r.lib.globals[name]
	if !ok {
		return Undefined, false
	}
	v := spec(r)
	if r.globals == nil {
		r.globals = make(map[string]Value, 8)
	}
	r.globals[name] = v
	return v, true
}

// SetGlobal replaces a built-in global's value for this run (an
// assignment to it).
func (r *Realm) SetGlobal(name string, v Value) {
	if r.globals == nil {
		r.globals = make(map[string]Value, 8)
	}
	r.globals[name] = v
}

// Constructor wires a constructor and its prototype together: ctor.prototype
// (read-only) and proto.constructor.
func (r *Realm) Constructor(ctor, proto *Object) {
	ctor.Define("prototype", Obj(proto), 0)
	proto.Define("constructor", Obj(ctor), Writable|Configurable)
}
