package vm

// Generators, async functions and async generators. Their frames can
// suspend (GENSTART, YIELD, YIELDSTAR, AWAIT, ASYNCITERCLOSE): the frame
// leaves the frame stack and is kept, as it is, in its coroutine: its
// pc, its segment of the value stack (locals and operand stack), its
// handler stack and its cells. Nothing of it is a goroutine or a Go
// closure. Resuming pushes the frame back and the loop goes on from the
// saved pc. A coroutine's frame has a segment of its own, so that
// nothing else uses its values while it is suspended, and is always the
// frame its loop was entered for: a suspension returns from that loop.
//
// The semantics are engine "ast"'s (interp/coro.go): the same states,
// errors and order of steps.

import (
	"github.com/go-codemode/codemode/internal/jsops"
	"github.com/go-codemode/codemode/value"
)

type coKind uint8

const (
	coGenerator coKind = iota
	coAsync
	coAsyncGen
	coMain // the program body, which awaits
)

type genState uint8

const (
	genStart genState = iota
	genSuspended
	genRunning
	genDone
)

// stopKind is why a suspended frame stopped: what resuming it delivers.
type stopKind uint8

const (
	stopStart      stopKind = iota // GENSTART: nothing
	stopYield                      // YIELD: the value sent, or a throw or return there
	stopDelegate                   // YIELDSTAR: the value and the mode, whatever the mode
	stopAwait                      // AWAIT: the settled value, or a throw
	stopAwaitClose                 // ASYNCITERCLOSE: as AWAIT, but a rejection is dropped when the loop is left by a throw
)

// coroutine is a call whose frame can suspend, and the frame while it is
// suspended. It is the continuation of the promise it awaits.
type coroutine struct {
	kind  coKind
	state genState
	fr    *frame // the suspended frame, nil while it runs or once it is done
	why   stopKind
	// the realm's counters when the frame suspended: its try regions
	// are rebased on the counters where it resumes
	depth, goDepth, argHeight int
	promise                   *value.Object // an async function's
	gen                       *generator    // an async generator's
}

// generator is the Internal of a generator or async generator object.
type generator struct {
	co    *coroutine
	queue []agRequest // an async generator's requests
}

type agRequest struct {
	mode    value.ResumeMode
	v       value.Value
	promise *value.Object
}

// callSpecial calls a program function that is not plain: a class
// constructor (an error without new), a generator or an async function.
func (run *Run) callSpecial(cl *closure, fobj *value.Object, this value.Value, args []value.Value) value.Value {
	r := run.realm
	if cl.class != nil {
		r.ThrowType("Class constructor %s cannot be invoked without 'new'", r.FunctionName(fobj))
	}
	switch cl.fc.Flags & (FlagAsync | FlagGenerator) {
	case FlagGenerator:
		return run.startGenerator(cl, fobj, this, args, coGenerator)
	case FlagGenerator | FlagAsync:
		return run.startGenerator(cl, fobj, this, args, coAsyncGen)
	}
	// The frame is entered first: the call depth is checked before a
	// promise is made, as on engine "ast".
	co := &coroutine{kind: coAsync, state: genRunning}
	base := run.pushCo(co, cl, fobj, this, args)
	co.promise = r.NewPromise()
	run.asyncStep(co, base, nil)
	return value.Obj(co.promise)
}

// pushCo pushes the first frame of a coroutine, in a segment of its own,
// as the frame a loop is entered for.
func (run *Run) pushCo(co *coroutine, cl *closure, fobj *value.Object, this value.Value, args []value.Value) int {
	need := regionSize(cl.fc, len(args))
	run.realm.Charge(24*need + coroutineCost)
	seg := make([]value.Value, need)
	seg[0], seg[1] = value.Obj(fobj), this
	copy(seg[2:], args)
	base := len(run.frames)
	fr := run.pushFrame(cl, fobj, this, seg, 2, len(args), -1, reentryCost)
	fr.ownSeg, fr.co = true, co
	return base
}

// coroutineCost is what the memory budget is charged for a coroutine
// beyond its segment: the frame, the coroutine and its object.
const coroutineCost = 512

// startGenerator runs a generator function's prologue (its parameters),
// up to GENSTART, which makes the generator object.
func (run *Run) startGenerator(cl *closure, fobj *value.Object, this value.Value, args []value.Value, kind coKind) value.Value {
	co := &coroutine{kind: kind, state: genRunning}
	base := run.pushCo(co, cl, fobj, this, args)
	return run.exec(base)
}

// genStart is GENSTART: the frame suspends and the call returns the
// generator object.
func (run *Run) genStart(fr *frame) value.Value {
	r := run.realm
	co := fr.co
	co.state = genStart
	g := &generator{co: co}
	if co.kind == coAsyncGen {
		co.gen = g
	}
	proto := r.Intrinsic(value.GeneratorPrototype)
	if co.kind == coAsyncGen {
		proto = r.Intrinsic(value.AsyncGeneratorPrototype)
	}
	if p := r.GetObj(fr.fobj, "prototype", value.Obj(fr.fobj)); p.IsObject() {
		proto = p.AsObject()
	}
	o := value.NewObject(proto)
	o.Class = value.ClassGenerator
	o.Internal = g
	return value.Obj(o)
}

// park takes the running coroutine frame fr off the frame stack; v is
// what its call gives (the generator object, the promise) when this is
// the frame's first run, called from program code in the loop, or what
// the loop's entry gives (a yielded value).
func (run *Run) park(fr *frame, why stopKind, v value.Value) {
	r := run.realm
	co := fr.co
	n := len(run.frames) - 1
	run.frames = run.frames[:n]
	run.leaveFrame(fr)
	co.depth, co.goDepth, co.argHeight = r.Depth, r.GoDepth, len(r.ArgStack)
	co.fr, co.why = fr, why
	if fr.ret >= 0 {
		caller := run.frames[n-1]
		caller.seg[fr.ret] = v
		caller.sp = fr.ret + 1
		// From now on the frame is resumed by a loop of its own.
		fr.ret, fr.cost = -1, reentryCost
		return
	}
	run.result = v
}

// pushCoCall pushes the first frame of a generator or async function
// that program code calls in the loop: the callee, this and nargs
// arguments are at seg[slot:], and the frame gets a segment of its own.
// The call's result (the generator object or the promise) reaches the
// caller when the frame first suspends or ends.
func (run *Run) pushCoCall(cl *closure, fobj *value.Object, this value.Value, seg []value.Value, slot, nargs int) *frame {
	r := run.realm
	kind := coAsync
	switch cl.fc.Flags & (FlagAsync | FlagGenerator) {
	case FlagGenerator:
		kind = coGenerator
	case FlagGenerator | FlagAsync:
		kind = coAsyncGen
	}
	co := &coroutine{kind: kind, state: genRunning}
	need := regionSize(cl.fc, nargs)
	r.Charge(24*need + coroutineCost)
	nseg := make([]value.Value, need)
	copy(nseg, seg[slot:slot+2+nargs])
	fr := run.pushFrame(cl, fobj, this, nseg, 2, nargs, slot, 0)
	fr.ownSeg, fr.co = true, co
	co.depth, co.goDepth, co.argHeight = r.Depth, r.GoDepth, len(r.ArgStack)
	if kind == coAsync {
		co.promise = r.NewPromise()
	}
	return fr
}

// asyncReturned settles the promise of an async function's frame that
// ends in its first run, called from the loop: the call gives the
// promise.
func (run *Run) asyncReturned(fr *frame, v value.Value) value.Value {
	co := fr.co
	co.state = genDone
	run.realm.ResolvePromise(co.promise, v)
	return value.Obj(co.promise)
}

// asyncThrew is unwind's for an async function's frame in its first run,
// called from the loop, which exc leaves: the promise is rejected and
// the caller goes on with it.
func (run *Run) asyncThrew(fr *frame, exc *value.Exception) {
	r := run.realm
	co := fr.co
	co.state = genDone
	r.Depth, r.GoDepth = co.depth, co.goDepth
	clear(r.ArgStack[co.argHeight:])
	r.ArgStack = r.ArgStack[:co.argHeight]
	r.RejectPromise(co.promise, exc.Value)
	n := len(run.frames) - 1
	run.frames = run.frames[:n]
	run.leaveFrame(fr)
	caller := run.frames[n-1]
	caller.seg[fr.ret] = value.Obj(co.promise)
	caller.sp = fr.ret + 1
	run.release(fr)
}

// unpark pushes a suspended coroutine's frame back, as the frame a loop
// is entered for, and returns its index.
func (run *Run) unpark(co *coroutine) (*frame, int) {
	r := run.realm
	fr := co.fr
	dd, dg, da := r.Depth-co.depth, r.GoDepth-co.goDepth, len(r.ArgStack)-co.argHeight
	run.enterFrame(fr.fc, fr.cost)
	for i := range fr.handlers {
		h := &fr.handlers[i]
		h.depth += dd
		h.goDepth += dg
		h.argHeight += da
	}
	co.fr = nil
	base := len(run.frames)
	run.frames = append(run.frames, fr)
	return fr, base
}

// deliver resumes a suspended coroutine's frame with what it waited for,
// and runs it until it suspends again or ends: then res is its result,
// or exc what it threw.
func (run *Run) deliver(co *coroutine, mode value.ResumeMode, v value.Value) (res value.Value, exc *value.Exception) {
	why := co.why
	fr, base := run.unpark(co)
	var throw *value.Exception
	switch {
	case why == stopStart:
	case why == stopDelegate:
		fr.push(v, value.Number(float64(mode)))
	case mode == value.ResumeNext:
		fr.push(v)
	case mode == value.ResumeThrow:
		if why == stopAwaitClose && int(fr.seg[fr.sp-3].Num()) == complThrow {
			fr.push(value.Undefined) // the loop is left by a throw: that one goes on
			break
		}
		throw = &value.Exception{Value: v}
	case mode == value.ResumeReturn:
		fr.push(v)
		fr.pc = fr.fc.returnPC
	}
	return run.runCo(base, throw)
}

// runCo runs the loop for the coroutine frame at base, first throwing
// exc into it when set.
func (run *Run) runCo(base int, exc *value.Exception) (res value.Value, thrown *value.Exception) {
	defer func() {
		if p := recover(); p != nil {
			e, ok := p.(*value.Exception)
			if !ok {
				panic(p)
			}
			thrown = e
		}
	}()
	if exc != nil && !run.unwind(base, exc) {
		return value.Undefined, exc
	}
	return run.exec(base), nil
}

// ---------------------------------------------------------------------------
// Generators

// Resume implements value.Generator.
func (g *generator) Resume(r *value.Realm, mode value.ResumeMode, v value.Value) value.Value {
	co := g.co
	switch co.state {
	case genRunning:
		r.ThrowType("Generator is already running")
	case genDone:
		return finished(r, mode, v)
	case genStart:
		if mode != value.ResumeNext {
			co.state = genDone
			co.fr = nil
			return finished(r, mode, v)
		}
	}
	run := r.Agent.(*Run)
	co.state = genRunning
	res, exc := run.deliver(co, mode, v)
	if exc != nil {
		co.state = genDone
		panic(exc)
	}
	if co.fr == nil {
		co.state = genDone
		return value.Obj(r.IterResult(res, true))
	}
	co.state = genSuspended
	if co.why == stopDelegate {
		return res // the inner iterator's result, as it is
	}
	return value.Obj(r.IterResult(res, false))
}

func finished(r *value.Realm, mode value.ResumeMode, v value.Value) value.Value {
	switch mode {
	case value.ResumeReturn:
		return value.Obj(r.IterResult(v, true))
	case value.ResumeThrow:
		panic(&value.Exception{Value: v})
	}
	return value.Obj(r.IterResult(value.Undefined, true))
}

// yieldStar is the state of a yield*: the inner iterator, and how the
// generator was last resumed.
type yieldStar struct {
	it, next value.Value
	mode     value.ResumeMode
}

func (run *Run) yieldStarInit(iterable value.Value, async bool) *value.Object {
	r := run.realm
	var it, next value.Value
	if async {
		rec, _ := r.GetAsyncIterator(iterable)
		it, next = rec.Iterator, rec.Next
		if it.IsUndefined() {
			// A sync fast-path record: make a real iterator.
			it = r.Call(r.Get(iterable, value.SymIterator.Key()), iterable, nil)
			next = r.Get(it, "next")
		}
	} else {
		it = r.Call(r.Get(iterable, value.SymIterator.Key()), iterable, nil)
		if !it.IsObject() {
			r.ThrowType("Result of the Symbol.iterator method is not an object")
		}
		next = r.Get(it, "next")
	}
	holder := value.NewObject(nil) // never reaches the program
	holder.Internal = &yieldStar{it: it, next: next}
	return holder
}

// yieldStarStep passes what the generator was resumed with to the inner
// iterator. ret says the generator returns v instead (no return method).
func (run *Run) yieldStarStep(ys *yieldStar, v value.Value, mode value.ResumeMode) (res value.Value, ret bool) {
	r := run.realm
	ys.mode = mode
	switch mode {
	case value.ResumeThrow:
		m := r.Get(ys.it, "throw")
		if m.IsNullish() {
			if rm := r.Get(ys.it, "return"); !rm.IsNullish() {
				r.Call(rm, ys.it, nil)
			}
			r.ThrowType("The iterator does not provide a 'throw' method")
		}
		return r.Call(m, ys.it, []value.Value{v}), false
	case value.ResumeReturn:
		m := r.Get(ys.it, "return")
		if m.IsNullish() {
			return v, true
		}
		return r.Call(m, ys.it, []value.Value{v}), false
	}
	return r.Call(ys.next, ys.it, []value.Value{v}), false
}

// ---------------------------------------------------------------------------
// Async functions

// Resume implements value.Continuation: the awaited promise settled.
func (co *coroutine) Resume(r *value.Realm, v value.Value, threw bool) {
	run := r.Agent.(*Run)
	mode := value.ResumeNext
	if threw {
		mode = value.ResumeThrow
	}
	outer := run.jobCo
	run.jobCo = co
	if co.kind == coAsyncGen {
		co.gen.agHandle(run, run.deliverResult(co, mode, v))
	} else {
		res, exc := run.deliver(co, mode, v)
		run.asyncDone(co, res, exc)
	}
	run.jobCo = outer
}

// asyncStep runs an async function's frame, pushed at base, until it
// awaits or ends.
func (run *Run) asyncStep(co *coroutine, base int, exc *value.Exception) {
	res, thrown := run.runCo(base, exc)
	run.asyncDone(co, res, thrown)
}

// asyncDone settles an async function's promise once its frame ended.
func (run *Run) asyncDone(co *coroutine, res value.Value, exc *value.Exception) {
	if co.fr != nil {
		return // awaiting
	}
	co.state = genDone
	r := run.realm
	if co.kind == coMain {
		run.mainDone(res, exc)
		return
	}
	if exc != nil {
		r.RejectPromise(co.promise, exc.Value)
		return
	}
	r.ResolvePromise(co.promise, res)
}

// ---------------------------------------------------------------------------
// Async generators

// stepResult is how a resumed async generator's frame stopped.
type stepResult struct {
	res value.Value
	exc *value.Exception
}

func (run *Run) deliverResult(co *coroutine, mode value.ResumeMode, v value.Value) stepResult {
	res, exc := run.deliver(co, mode, v)
	return stepResult{res, exc}
}

// Enqueue implements value.AsyncGenerator.
func (g *generator) Enqueue(r *value.Realm, mode value.ResumeMode, v value.Value) *value.Object {
	p := r.NewPromise()
	g.queue = append(g.queue, agRequest{mode: mode, v: v, promise: p})
	if g.co.state != genRunning {
		g.agResumeNext(r.Agent.(*Run))
	}
	return p
}

func (g *generator) agResumeNext(run *Run) {
	r := run.realm
	co := g.co
	for len(g.queue) > 0 && co.state != genRunning {
		req := g.queue[0]
		if co.state == genStart && req.mode != value.ResumeNext {
			co.state = genDone
			co.fr = nil
		}
		if co.state == genDone {
			g.queue = g.queue[1:]
			jsops.SettleDone(r, req.mode, req.v, req.promise)
			continue
		}
		co.state = genRunning
		g.agHandle(run, run.deliverResult(co, req.mode, req.v))
	}
}

// agHandle settles the request at the head of the queue with how the
// frame stopped, unless it is awaiting.
func (g *generator) agHandle(run *Run, sr stepResult) {
	r := run.realm
	co := g.co
	if sr.exc == nil && co.fr != nil && (co.why == stopAwait || co.why == stopAwaitClose) {
		return
	}
	req := g.queue[0]
	g.queue = g.queue[1:]
	switch {
	case sr.exc != nil:
		co.state = genDone
		r.RejectPromise(req.promise, sr.exc.Value)
	case co.fr != nil:
		co.state = genSuspended
		r.ResolvePromise(req.promise, value.Obj(r.IterResult(sr.res, false)))
	default:
		co.state = genDone
		r.ResolvePromise(req.promise, value.Obj(r.IterResult(sr.res, true)))
	}
	g.agResumeNext(run)
}

// ---------------------------------------------------------------------------
// for await

// asyncIter is the state of a for await loop.
type asyncIter struct {
	rec   *value.IteratorRecord
	async bool // an async iterator (else a sync one, its values awaited)
	fast  bool // a fast-path record over an array or string: never closed
	// inBody says the loop's body is running: only then does leaving
	// the loop close the iterator.
	inBody bool
}

func (run *Run) asyncIterStart(iterable value.Value) *value.Object {
	rec, isAsync := run.realm.GetAsyncIterator(iterable)
	ai := &asyncIter{rec: rec, async: isAsync, fast: !isAsync && rec.Iterator.IsUndefined()}
	holder := value.NewObject(nil)
	holder.Internal = ai
	return holder
}

// asyncIterStep is ASYNCITERSTEP: what to await for the next value, or
// false when the loop is done.
func (run *Run) asyncIterStep(ai *asyncIter) (value.Value, bool) {
	r := run.realm
	ai.inBody = false
	if ai.fast {
		return ai.rec.Step(r)
	}
	res := ai.rec.NextResult(r, nil)
	if ai.async {
		return res, true
	}
	return iterValue(r, res)
}

// iterValue checks an iterator result: its value, or false when done.
func iterValue(r *value.Realm, res value.Value) (value.Value, bool) {
	if !res.IsObject() {
		r.ThrowType("Iterator result %s is not an object", r.Describe(res))
	}
	if r.Get(res, "done").ToBoolean() {
		return value.Undefined, false
	}
	return r.Get(res, "value"), true
}

// asyncIterClose is ASYNCITERCLOSE: it calls the iterator's return when
// the body is left early, and says whether its result is to be awaited.
// A throw leaving the loop goes on whatever return does.
func (run *Run) asyncIterClose(ai *asyncIter, kind int) (value.Value, bool) {
	r := run.realm
	if !ai.inBody || ai.fast {
		return value.Hole, false
	}
	ai.inBody = false
	var res value.Value
	var awaited bool
	closeIt := func() {
		ret := r.Get(ai.rec.Iterator, "return")
		if ret.IsNullish() {
			res = value.Hole
			return
		}
		res = r.Call(ret, ai.rec.Iterator, nil)
		awaited = ai.async
	}
	if kind == complThrow {
		if exc := r.Try(closeIt); exc != nil {
			return value.Hole, false
		}
		return res, awaited
	}
	closeIt()
	return res, awaited
}

// asyncIterClosed is ASYNCITERCLOSED: return's result must be an object
// unless the loop is left by a throw.
func asyncIterClosed(r *value.Realm, res value.Value, kind int) {
	if res.IsHole() || kind == complThrow {
		return
	}
	if !res.IsObject() {
		r.ThrowType("iterator.return() did not return an object")
	}
}

// ---------------------------------------------------------------------------
// The program body

// startMain runs a program body that awaits as an async function: Start
// returns its promise, which Settle drives.
func (run *Run) startMain(main *closure) *value.Object {
	r := run.realm
	p := r.NewPromise()
	co := &coroutine{kind: coMain, state: genRunning, promise: p}
	run.mainCo = co
	base := run.pushCo(co, main, nil, value.Undefined, nil)
	run.asyncStep(co, base, nil)
	return p
}

// mainDone ends the program body: its value settles the promise Start
// returned (adopting a thenable); an exception ends the run, as it does
// on engine "ast", where the body awaits in place.
func (run *Run) mainDone(res value.Value, exc *value.Exception) {
	r := run.realm
	if exc != nil {
		run.mainExc = exc
		run.stopJobs = true
		return
	}
	p := run.mainCo.promise
	r.ResolvePromise(p, res)
	// A thenable is adopted by jobs still to run; otherwise the run ends
	// here, as Start does on engine "ast".
	if p.Internal.(*value.PromiseData).State != value.Pending {
		run.stopJobs = true
	}
}
