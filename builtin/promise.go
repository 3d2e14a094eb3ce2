package builtin

import (
	"github.com/go-codemode/codemode/value"
)

// Promise, following the specification step by step where the order of
// jobs is observable: combinators look up `resolve` and `then` the way
// V8 does, so their settlement lands on the same turn.

func installPromise(l *value.Library) {
	// The functions made per promise, for snapshots to name.
	l.Register(capabilityExecutor, finallyThen, finallyCatch, valueThunk, thrower, promiseAllResolve,
		promiseAllSettledFulfill, promiseAllSettledReject, promiseAnyReject)
	l.Intrinsic(value.PromisePrototype, value.IntrinsicSpec{Name: "Promise.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			o.Define("constructor", value.Obj(r.Intrinsic(value.PromiseCtor)), value.Writable|value.Configurable)
			r.Methods(o, promiseProto)
			o.Define(value.SymToStringTag.Key(), value.StrOf("Promise"), value.Configurable)
		}})
	l.Intrinsic(value.PromiseCtor, value.IntrinsicSpec{Name: "Promise",
		Func: &value.Native{Name: "Promise", Length: 1, Ctor: true, Fn: promiseCtor},
		Init: func(r *value.Realm, o *value.Object) {
			r.Constructor(o, r.Intrinsic(value.PromisePrototype))
			r.Methods(o, promiseStatics)
		}})
	l.GlobalIntrinsic("Promise", value.PromiseCtor)
	l.Register(promiseProto...)
	l.Register(promiseStatics...)
	l.Register(promiseAllResolve, promiseAllSettledFulfill, promiseAllSettledReject, promiseAnyReject, finallyThen, finallyCatch, valueThunk, thrower)
}

func promiseCtor(r *value.Realm, c *value.Call) value.Value {
	if c.NewTarget == nil {
		r.ThrowType("Promise constructor cannot be invoked without 'new'")
	}
	exec := c.Arg(0)
	if f := exec.AsObject(); f == nil || !f.Callable() {
		r.ThrowType("Promise resolver %s is not a function", r.Describe(exec))
	}
	p := r.NewPromiseWithProto(r.ProtoFromCtor(c.NewTarget, value.PromisePrototype))
	resolve, reject := r.ResolvingFunctions(p)
	if _, exc := r.TryCall(exec, value.Undefined, []value.Value{value.Obj(resolve), value.Obj(reject)}); exc != nil {
		r.CallObject(reject, value.Undefined, []value.Value{exc.Value})
	}
	return value.Obj(p)
}

func thisPromise(r *value.Realm, c *value.Call, method string) *value.Object {
	o := c.This.AsObject()
	if o == nil || o.Class != value.ClassPromise {
		r.ThrowType("Method Promise.prototype.%s called on incompatible receiver %s", method, r.Describe(c.This))
	}
	return o
}

// capability is a new promise with its resolve and reject, made through
// the constructor C as NewPromiseCapability does. For the intrinsic
// Promise it is a plain promise settled directly.
type capability struct {
	promise         *value.Object
	resolve, reject value.Value
}

func newCapability(r *value.Realm, ctor value.Value) capability {
	if ctor.AsObject() == r.Intrinsic(value.PromiseCtor) {
		p := r.NewPromise()
		res, rej := r.ResolvingFunctions(p)
		return capability{p, value.Obj(res), value.Obj(rej)}
	}
	if !value.IsConstructor(ctor) {
		r.ThrowType("Promise resolve or reject function is not callable")
	}
	holder := &capHolder{}
	exec := r.NewBound(capabilityExecutor, holder, "", 2)
	pv := r.Construct(ctor, []value.Value{value.Obj(exec)}, nil)
	if !isCallable(holder.resolve) || !isCallable(holder.reject) {
		r.ThrowType("Promise resolve or reject function is not callable")
	}
	return capability{pv.AsObject(), holder.resolve, holder.reject}
}

type capHolder struct{ resolve, reject value.Value }

var capabilityExecutor = &value.Native{Name: "GetCapabilitiesExecutor", Length: 2, Fn: func(r *value.Realm, c *value.Call) value.Value {
	h := c.Callee.Internal.(*value.Bound).Data.(*capHolder)
	if !h.resolve.IsUndefined() || !h.reject.IsUndefined() {
		r.ThrowType("Promise executor has already been invoked with non-undefined arguments")
	}
	h.resolve, h.reject = c.Arg(0), c.Arg(1)
	return value.Undefined
}}

func isCallable(v value.Value) bool {
	o := v.AsObject()
	return o != nil && o.Callable()
}

// promiseResolveWith is Promise.resolve with a constructor.
func promiseResolveWith(r *value.Realm, ctor value.Value, x value.Value) value.Value {
	if xo := x.AsObject(); xo != nil && xo.Class == value.ClassPromise {
		if value.SameValue(r.Get(x, "constructor"), ctor) {
			return x
		}
	}
	if ctor.AsObject() == r.Intrinsic(value.PromiseCtor) {
		// What the capability's resolve function would do, without
		// making the two resolving functions: await Promise.resolve(x)
		// in a loop costs one promise per turn.
		p := r.NewPromise()
		r.ResolvePromise(p, x)
		return value.Obj(p)
	}
	cap := newCapability(r, ctor)
	r.Call(cap.resolve, value.Undefined, []value.Value{x})
	return value.Obj(cap.promise)
}

var promiseProto = []*value.Native{
	Native("Promise.prototype.then", 2, func(r *value.Realm, c *value.Call) value.Value {
		p := thisPromise(r, c, "then")
		promiseSpecies(r, p)
		derived := r.NewPromise()
		r.PerformThen(p, c.Arg(0), c.Arg(1), nil, derived)
		return value.Obj(derived)
	}),
	Native("Promise.prototype.catch", 1, func(r *value.Realm, c *value.Call) value.Value {
		return r.Call(r.Get(c.This, "then"), c.This, []value.Value{value.Undefined, c.Arg(0)})
	}),
	Native("Promise.prototype.finally", 1, func(r *value.Realm, c *value.Call) value.Value {
		if !c.This.IsObject() {
			r.ThrowType("Method Promise.prototype.finally called on incompatible receiver %s", r.Describe(c.This))
		}
		onFinally := c.Arg(0)
		thenF, catchF := onFinally, onFinally
		if isCallable(onFinally) {
			thenF = value.Obj(r.NewBound(finallyThen, onFinally, "", 1))
			catchF = value.Obj(r.NewBound(finallyCatch, onFinally, "", 1))
		}
		return r.Call(r.Get(c.This, "then"), c.This, []value.Value{thenF, catchF})
	}),
}

// promiseSpecies is the part of SpeciesConstructor(p, %Promise%) the
// library has: the constructor property is read once, and must be an
// object or undefined. (There is no Symbol.species, so the constructor is
// always %Promise%, as when C[@@species] is undefined.)
func promiseSpecies(r *value.Realm, p *value.Object) {
	ctor := r.Get(value.Obj(p), "constructor")
	if !ctor.IsUndefined() && !ctor.IsObject() {
		r.ThrowType("The .constructor property is not an object")
	}
}

var (
	finallyThen = &value.Native{Name: "%ThenFinally%", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
		onFinally := c.Callee.Internal.(*value.Bound).Data.(value.Value)
		res := r.Call(onFinally, value.Undefined, nil)
		p := promiseResolveWith(r, value.Obj(r.Intrinsic(value.PromiseCtor)), res)
		thunk := r.NewBound(valueThunk, c.Arg(0), "", 0)
		return r.Call(r.Get(p, "then"), p, []value.Value{value.Obj(thunk)})
	}}
	finallyCatch = &value.Native{Name: "%CatchFinally%", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
		onFinally := c.Callee.Internal.(*value.Bound).Data.(value.Value)
		res := r.Call(onFinally, value.Undefined, nil)
		p := promiseResolveWith(r, value.Obj(r.Intrinsic(value.PromiseCtor)), res)
		th := r.NewBound(thrower, c.Arg(0), "", 0)
		return r.Call(r.Get(p, "then"), p, []value.Value{value.Obj(th)})
	}}
	valueThunk = &value.Native{Name: "%ValueThunk%", Fn: func(r *value.Realm, c *value.Call) value.Value {
		return c.Callee.Internal.(*value.Bound).Data.(value.Value)
	}}
	thrower = &value.Native{Name: "%Thrower%", Fn: func(r *value.Realm, c *value.Call) value.Value {
		r.Throw(c.Callee.Internal.(*value.Bound).Data.(value.Value))
		return value.Undefined
	}}
)

// combinator state shared by the element functions of all, allSettled
// and any.
type combinator struct {
	values    []value.Value
	remaining int
	cap       capability
}

type elementData struct {
	st     *combinator
	index  int
	called bool
}

func (e *elementData) settle(r *value.Realm, v value.Value) {
	if e.called {
		return
	}
	e.called = true
	e.st.values[e.index] = v
	e.st.remaining--
}

var (
	promiseAllResolve = &value.Native{Name: "Promise.all Resolve Element", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
		e := c.Callee.Internal.(*value.Bound).Data.(*elementData)
		if e.called {
			return value.Undefined
		}
		e.settle(r, c.Arg(0))
		if e.st.remaining == 0 {
			r.Call(e.st.cap.resolve, value.Undefined, []value.Value{value.Obj(r.NewArrayValue(e.st.values))})
		}
		return value.Undefined
	}}
	promiseAllSettledFulfill = &value.Native{Name: "Promise.allSettled Resolve Element", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
		return allSettledElement(r, c, "fulfilled", "value")
	}}
	promiseAllSettledReject = &value.Native{Name: "Promise.allSettled Reject Element", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
		return allSettledElement(r, c, "rejected", "reason")
	}}
	promiseAnyReject = &value.Native{Name: "Promise.any Reject Element", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
		e := c.Callee.Internal.(*value.Bound).Data.(*elementData)
		if e.called {
			return value.Undefined
		}
		e.settle(r, c.Arg(0))
		if e.st.remaining == 0 {
			r.Call(e.st.cap.reject, value.Undefined, []value.Value{value.Obj(aggregate(r, e.st.values))})
		}
		return value.Undefined
	}}
)

func aggregate(r *value.Realm, errs []value.Value) *value.Object {
	o := r.RaisedError(value.AggregateError, "All promises were rejected")
	o.Define("errors", value.Obj(r.NewArrayValue(errs)), value.Writable|value.Configurable)
	return o
}

func allSettledElement(r *value.Realm, c *value.Call, status, key string) value.Value {
	e := c.Callee.Internal.(*value.Bound).Data.(*elementData)
	if e.called {
		return value.Undefined
	}
	o := r.NewPlainObject()
	o.Define("status", value.StrOf(status), value.DefaultFlags)
	o.Define(key, c.Arg(0), value.DefaultFlags)
	e.settle(r, value.Obj(o))
	if e.st.remaining == 0 {
		r.Call(e.st.cap.resolve, value.Undefined, []value.Value{value.Obj(r.NewArrayValue(e.st.values))})
	}
	return value.Undefined
}

// combine runs the loop shared by the combinators: for each member,
// C.resolve(member).then(onFulfilled(i), onRejected(i)).
func combine(r *value.Realm, c *value.Call, name string, each func(st *combinator, i int) (onF, onR value.Value)) value.Value {
	ctor := c.This
	cap := newCapability(r, ctor)
	st := &combinator{remaining: 1, cap: cap}
	var it *value.IteratorRecord
	exc := r.Try(func() {
		resolveFn := getPromiseResolve(r, ctor)
		it = getCombinatorIterator(r, c.Arg(0))
		i := 0
		for {
			v, ok := it.Step(r)
			if !ok {
				break
			}
			st.values = append(st.values, value.Undefined)
			next := r.Call(resolveFn, ctor, []value.Value{v})
			onF, onR := each(st, i)
			st.remaining++
			r.Call(r.Get(next, "then"), next, []value.Value{onF, onR})
			i++
		}
		st.remaining--
		if st.remaining == 0 {
			switch name {
			case "all", "allSettled":
				r.Call(cap.resolve, value.Undefined, []value.Value{value.Obj(r.NewArrayValue(st.values))})
			case "any":
				r.Call(cap.reject, value.Undefined, []value.Value{value.Obj(aggregate(r, st.values))})
			}
		}
	})
	if exc != nil {
		closeAfterThrow(r, it)
		r.Call(cap.reject, value.Undefined, []value.Value{exc.Value})
	}
	return value.Obj(cap.promise)
}

// getPromiseResolve is GetPromiseResolve: C.resolve, which must be
// callable; it is read before the iterable is touched.
func getPromiseResolve(r *value.Realm, ctor value.Value) value.Value {
	resolveFn := r.Get(ctor, "resolve")
	if !isCallable(resolveFn) {
		r.ThrowType("Promise resolve or reject function is not callable")
	}
	return resolveFn
}

// getCombinatorIterator starts iterating a combinator's argument.
func getCombinatorIterator(r *value.Realm, iterable value.Value) *value.IteratorRecord {
	if !iterable.IsObject() && !iterable.IsString() {
		r.ThrowType("%s is not iterable (cannot read property Symbol(Symbol.iterator))", describePrimitive(r, iterable))
	}
	return r.GetIterator(iterable)
}

// closeAfterThrow closes a combinator's iterator when something other than
// the iterator itself threw (resolve, then, or reading then): a step that
// throws leaves the iterator done, and Close skips it.
func closeAfterThrow(r *value.Realm, it *value.IteratorRecord) {
	if it != nil {
		it.CloseQuietly(r)
	}
}

func describePrimitive(r *value.Realm, v value.Value) string {
	switch v.Kind() {
	case value.KindUndefined, value.KindNull:
		s, _ := v.ToString()
		return s.String()
	}
	s, _ := v.ToString()
	if s == nil {
		return v.TypeOf()
	}
	return v.TypeOf() + " " + s.String()
}

var promiseStatics = []*value.Native{
	Native("Promise.resolve", 1, func(r *value.Realm, c *value.Call) value.Value {
		if !c.This.IsObject() {
			r.ThrowType("PromiseResolve called on non-object")
		}
		return promiseResolveWith(r, c.This, c.Arg(0))
	}),
	Native("Promise.reject", 1, func(r *value.Realm, c *value.Call) value.Value {
		cap := newCapability(r, c.This)
		r.Call(cap.reject, value.Undefined, []value.Value{c.Arg(0)})
		return value.Obj(cap.promise)
	}),
	Native("Promise.withResolvers", 0, func(r *value.Realm, c *value.Call) value.Value {
		cap := newCapability(r, c.This)
		o := r.NewPlainObject()
		o.Define("promise", value.Obj(cap.promise), value.DefaultFlags)
		o.Define("resolve", cap.resolve, value.DefaultFlags)
		o.Define("reject", cap.reject, value.DefaultFlags)
		return value.Obj(o)
	}),
	Native("Promise.try", 1, func(r *value.Realm, c *value.Call) value.Value {
		cap := newCapability(r, c.This)
		var args []value.Value
		if len(c.Args) > 1 {
			args = c.Args[1:]
		}
		res, exc := r.TryCall(c.Arg(0), value.Undefined, args)
		if exc != nil {
			r.Call(cap.reject, value.Undefined, []value.Value{exc.Value})
		} else {
			r.Call(cap.resolve, value.Undefined, []value.Value{res})
		}
		return value.Obj(cap.promise)
	}),
	Native("Promise.all", 1, func(r *value.Realm, c *value.Call) value.Value {
		var reject value.Value
		return combine(r, c, "all", func(st *combinator, i int) (value.Value, value.Value) {
			if reject.IsUndefined() {
				reject = st.cap.reject
			}
			return value.Obj(r.NewBound(promiseAllResolve, &elementData{st: st, index: i}, "", 1)), reject
		})
	}),
	Native("Promise.allSettled", 1, func(r *value.Realm, c *value.Call) value.Value {
		return combine(r, c, "allSettled", func(st *combinator, i int) (value.Value, value.Value) {
			e := &elementData{st: st, index: i}
			return value.Obj(r.NewBound(promiseAllSettledFulfill, e, "", 1)), value.Obj(r.NewBound(promiseAllSettledReject, e, "", 1))
		})
	}),
	Native("Promise.any", 1, func(r *value.Realm, c *value.Call) value.Value {
		return combine(r, c, "any", func(st *combinator, i int) (value.Value, value.Value) {
			return st.cap.resolve, value.Obj(r.NewBound(promiseAnyReject, &elementData{st: st, index: i}, "", 1))
		})
	}),
	Native("Promise.race", 1, func(r *value.Realm, c *value.Call) value.Value {
		ctor := c.This
		cap := newCapability(r, ctor)
		var it *value.IteratorRecord
		exc := r.Try(func() {
			resolveFn := getPromiseResolve(r, ctor)
			it = getCombinatorIterator(r, c.Arg(0))
			n := 0
			for {
				v, ok := it.Step(r)
				if !ok {
					break
				}
				n++
				next := r.Call(resolveFn, ctor, []value.Value{v})
				r.Call(r.Get(next, "then"), next, []value.Value{cap.resolve, cap.reject})
			}
			if n == 0 {
				r.ThrowType("Promise.race([]) would never settle; provide at least one promise or value.")
			}
		})
		if exc != nil {
			closeAfterThrow(r, it)
			r.Call(cap.reject, value.Undefined, []value.Value{exc.Value})
		}
		return value.Obj(cap.promise)
	}),
}
