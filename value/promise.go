package value

// Promises and the job queue, as the specification defines them (the
// ordering of reactions and of thenable assimilation is what V8 does, and
// programs observe it). Everything here is data: reactions name their
// handler as a program value or a Continuation, and the queue holds
// jobs, never Go closures over program state.

import "runtime"

// MaxPendingPromises is how many promises may be pending at once; making
// one more is a RangeError.
const MaxPendingPromises = 10_000

// PromiseState is pending, fulfilled or rejected.
type PromiseState uint8

// Promise states.
const (
	Pending PromiseState = iota
	Fulfilled
	Rejected
)

// PromiseData is the Internal of a promise object.
type PromiseData struct {
	State  PromiseState
	Result Value
	// Handled is set once anything observes the promise (then, await, a
	// combinator): a rejection nobody handled becomes a warning.
	Handled bool
	// ID orders promises by creation, for the order of warnings.
	ID        int64
	reactions []Reaction
}

// Continuation is an engine's own reaction to a promise: an awaiting
// function resuming. Resume runs as a job.
type Continuation interface {
	Resume(r *Realm, v Value, threw bool)
}

// ReactionKind says which outcome a reaction handles.
type ReactionKind uint8

// Reaction kinds.
const (
	OnFulfilled ReactionKind = iota
	OnRejected
)

// Reaction is one registered then-handler pair member.
type Reaction struct {
	// Derived is the promise the handler's outcome settles (nil for
	// await and internal reactions).
	Derived *Object
	Kind    ReactionKind
	Handler Value // a function, or undefined to pass the outcome through
	Cont    Continuation
}

// job is one entry of the queue.
type job struct {
	reaction Reaction
	arg      Value
	// For a thenable job: resolve promise by calling then on thenable.
	promise  *Object
	thenable Value
	then     *Object
}

// jobQueue is a FIFO of jobs.
type jobQueue struct {
	items []job
	head  int
}

func (q *jobQueue) push(j job) { q.items = append(q.items, j) }

func (q *jobQueue) pop() (job, bool) {
	if q.head == len(q.items) {
		return job{}, false
	}
	j := q.items[q.head]
	q.items[q.head] = job{}
	q.head++
	if q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	}
	return j, true
}

// HasJobs reports whether microtasks are waiting.
func (r *Realm) HasJobs() bool { return r.jobs.head < len(r.jobs.items) }

// TakeLoneJob takes the only microtask waiting when it is cont's
// resumption with a fulfilled value, and gives that value: the job loop
// would run it next, so the caller may go on in place. It polls as the
// job loop does between jobs. It reports false, taking nothing, for any
// other queue.
func (r *Realm) TakeLoneJob(cont Continuation) (Value, bool) {
	q := &r.jobs
	if len(q.items)-q.head != 1 {
		return Undefined, false
	}
	j := q.items[q.head]
	if j.then != nil || j.reaction.Cont != cont || j.reaction.Kind != OnFulfilled {
		return Undefined, false
	}
	q.pop()
	if r.Agent != nil {
		r.Poll()
	}
	return j.arg, true
}

// RunJobs runs microtasks until none are left.
func (r *Realm) RunJobs() {
	for {
		j, ok := r.jobs.pop()
		if !ok {
			return
		}
		r.runJob(j)
		if r.Agent != nil {
			r.Poll()
		}
	}
}

// RunOneJob runs the next microtask, reporting false when there is none.
func (r *Realm) RunOneJob() bool {
	j, ok := r.jobs.pop()
	if ok {
		r.runJob(j)
	}
	return ok
}

func (r *Realm) runJob(j job) {
	if j.then != nil {
		r.thenableJob(j)
		return
	}
	rc := j.reaction
	if rc.Cont != nil {
		rc.Cont.Resume(r, j.arg, rc.Kind == OnRejected)
		return
	}
	if rc.Handler.IsUndefined() {
		if rc.Derived != nil {
			if rc.Kind == OnFulfilled {
				r.ResolvePromise(rc.Derived, j.arg)
			} else {
				r.RejectPromise(rc.Derived, j.arg)
			}
		}
		return
	}
	res, exc := r.TryCall(rc.Handler, Undefined, []Value{j.arg})
	if rc.Derived == nil {
		return
	}
	if exc != nil {
		r.RejectPromise(rc.Derived, exc.Value)
	} else {
		r.ResolvePromise(rc.Derived, res)
	}
}

func (r *Realm) thenableJob(j job) {
	resolve, reject := r.ResolvingFunctions(j.promise)
	_, exc := r.TryCall(Obj(j.then), j.thenable, []Value{Obj(resolve), Obj(reject)})
	if exc != nil {
		r.CallObject(reject, Undefined, []Value{exc.Value})
	}
}

// Try runs f and returns the exception it threw, if any. Other panics
// (interrupts, bugs) pass through.
func (r *Realm) Try(f func()) (exc *Exception) {
	depth, goDepth, height := r.Depth, r.GoDepth, len(r.ArgStack)
	p := CatchPanic(f)
	if p == nil {
		return nil
	}
	e, ok := p.(*Exception)
	if !ok {
		// Re-panicked here, once f's frames are off the stack: inside
		// the deferred function they would stay on it while the panic
		// goes on, at every Try it passes through.
		panic(p)
	}
	r.Depth, r.GoDepth = depth, goDepth
	clear(r.ArgStack[height:])
	r.ArgStack = r.ArgStack[:height]
	return e
}

// CatchPanic runs f and returns what it panicked with, if anything, once
// f's frames are off the stack, so that a caller re-panicking after
// cleanup does not keep a deep stack alive while it unwinds. A bug (a Go
// runtime error, a panic with a message) goes on panicking from where it
// was, so that the report shows its stack.
func CatchPanic(f func()) (p any) {
	defer func() {
		p = recover()
		switch p.(type) {
		case runtime.Error, string:
			panic(p)
		}
	}()
	f()
	return nil
}

// TryCall calls fn and returns its result or the exception it threw.
func (r *Realm) TryCall(fn Value, this Value, args []Value) (res Value, exc *Exception) {
	exc = r.Try(func() { res = r.Call(fn, this, args) })
	return res, exc
}

// NewPromise makes a pending promise.
func (r *Realm) NewPromise() *Object {
	return r.NewPromiseWithProto(r.Intrinsic(PromisePrototype))
}

// NewPromiseWithProto makes a pending promise with a given prototype.
func (r *Realm) NewPromiseWithProto(proto *Object) *Object {
	if r.pending >= MaxPendingPromises {
		r.ThrowRange("Too many pending promises (limit %d); await promises before creating more.", MaxPendingPromises)
	}
	r.pending++
	r.nextID++
	r.Charge(objectBytes + 64)
	o := NewObject(proto)
	o.Class = ClassPromise
	o.Internal = &PromiseData{ID: r.nextID}
	return o
}

// PromiseOf returns the data of a promise object, or nil.
func PromiseOf(v Value) *PromiseData {
	o := v.AsObject()
	if o == nil {
		return nil
	}
	p, _ := o.Internal.(*PromiseData)
	return p
}

// ResolvePromise resolves p with x: a thenable x is adopted (one job
// later), anything else fulfills p.
func (r *Realm) ResolvePromise(p *Object, x Value) {
	pd := p.Internal.(*PromiseData)
	if pd.State != Pending {
		return
	}
	xo := x.AsObject()
	if xo == p {
		r.RejectPromise(p, Obj(r.RaisedError(TypeError, "Chaining cycle detected for promise #<Promise>")))
		return
	}
	if xo == nil {
		r.FulfillPromise(p, x)
		return
	}
	var then Value
	if exc := r.Try(func() { then = r.GetObj(xo, "then", x) }); exc != nil {
		r.RejectPromise(p, exc.Value)
		return
	}
	tf := then.AsObject()
	if tf == nil || !tf.callable {
		r.FulfillPromise(p, x)
		return
	}
	r.jobs.push(job{promise: p, thenable: x, then: tf})
}

// FulfillPromise fulfills a pending promise with v.
func (r *Realm) FulfillPromise(p *Object, v Value) {
	pd := p.Internal.(*PromiseData)
	if pd.State != Pending {
		return
	}
	pd.State, pd.Result = Fulfilled, v
	r.pending--
	r.trigger(pd, OnFulfilled, v)
}

// RejectPromise rejects a pending promise with reason.
func (r *Realm) RejectPromise(p *Object, reason Value) {
	pd := p.Internal.(*PromiseData)
	if pd.State != Pending {
		return
	}
	pd.State, pd.Result = Rejected, reason
	r.pending--
	if !pd.Handled {
		r.Rejections = append(r.Rejections, p)
	}
	r.trigger(pd, OnRejected, reason)
}

func (r *Realm) trigger(pd *PromiseData, kind ReactionKind, v Value) {
	rs := pd.reactions
	pd.reactions = nil
	for _, rc := range rs {
		if rc.Kind == kind {
			r.jobs.push(job{reaction: rc, arg: v})
		}
	}
}

// PerformThen registers handlers on promise p (the specification's
// PerformPromiseThen): onFulfilled/onRejected are functions or undefined,
// cont an engine continuation (then both handlers are ignored), derived
// the promise their outcome settles (or nil).
func (r *Realm) PerformThen(p *Object, onFulfilled, onRejected Value, cont Continuation, derived *Object) {
	pd := p.Internal.(*PromiseData)
	if f := onFulfilled.AsObject(); f == nil || !f.callable {
		onFulfilled = Undefined
	}
	if f := onRejected.AsObject(); f == nil || !f.callable {
		onRejected = Undefined
	}
	fr := Reaction{Derived: derived, Kind: OnFulfilled, Handler: onFulfilled, Cont: cont}
	rr := Reaction{Derived: derived, Kind: OnRejected, Handler: onRejected, Cont: cont}
	switch pd.State {
	case Pending:
		pd.reactions = append(pd.reactions, fr, rr)
	case Fulfilled:
		r.jobs.push(job{reaction: fr, arg: pd.Result})
	case Rejected:
		r.jobs.push(job{reaction: rr, arg: pd.Result})
	}
	pd.Handled = true
}

// PromiseResolve is the specification's PromiseResolve(%Promise%, x): a
// native promise is returned as is, anything else wrapped.
func (r *Realm) PromiseResolve(x Value) *Object {
	if o := x.AsObject(); o != nil && o.Class == ClassPromise {
		if ctor := r.GetObj(o, "constructor", x); ctor.AsObject() == r.Intrinsic(PromiseCtor) {
			return o
		}
	}
	p := r.NewPromise()
	r.ResolvePromise(p, x)
	return p
}

// Await registers cont to resume when x settles, as `await x` does: a
// native promise directly, anything else through PromiseResolve.
func (r *Realm) Await(x Value, cont Continuation) {
	r.PerformThen(r.PromiseResolve(x), Undefined, Undefined, cont, nil)
}

// resolvingState is the Data of a promise's resolve and reject functions.
type resolvingState struct {
	promise *Object
	done    *bool
}

var (
	promiseResolveFunction = &Native{Name: "Promise resolve function", Length: 1, Fn: func(r *Realm, c *Call) Value {
		st := c.Callee.Internal.(*Bound).Data.(*resolvingState)
		if !*st.done {
			*st.done = true
			r.ResolvePromise(st.promise, c.Arg(0))
		}
		return Undefined
	}}
	promiseRejectFunction = &Native{Name: "Promise reject function", Length: 1, Fn: func(r *Realm, c *Call) Value {
		st := c.Callee.Internal.(*Bound).Data.(*resolvingState)
		if !*st.done {
			*st.done = true
			r.RejectPromise(st.promise, c.Arg(0))
		}
		return Undefined
	}}
)

// ResolvingFunctions makes the resolve and reject functions of p, which
// together settle it at most once.
func (r *Realm) ResolvingFunctions(p *Object) (resolve, reject *Object) {
	done := new(bool)
	st := &resolvingState{promise: p, done: done}
	resolve = r.NewBound(promiseResolveFunction, st, "", 1)
	reject = r.NewBound(promiseRejectFunction, st, "", 1)
	return resolve, reject
}

// UnhandledRejections returns the rejected promises nobody observed, in
// creation order.
func (r *Realm) UnhandledRejections() []*Object {
	var out []*Object
	for _, p := range r.Rejections {
		if !p.Internal.(*PromiseData).Handled {
			out = append(out, p)
		}
	}
	// Insertion order is rejection order; sort by creation id.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Internal.(*PromiseData).ID < out[j-1].Internal.(*PromiseData).ID; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
