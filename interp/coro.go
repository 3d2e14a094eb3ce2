package interp

import (
	"runtime/debug"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/internal/jsops"
	"github.com/go-codemode/codemode/value"
)

// Coroutines: generators, async functions and async generators whose
// bodies can suspend run on goroutines of their own. Control passes over
// channels, so exactly one goroutine runs program code at a time: the
// resumer blocks until the coroutine suspends (yield, await) or ends.

type msgKind uint8

const (
	// resumer → coroutine
	msgNext msgKind = iota
	msgThrow
	msgReturn
	msgKill
	// coroutine → resumer
	msgYielded
	// msgDelegated is a sync yield* passing on its inner iterator's result
	// object, which next() returns as it is (GeneratorYield(innerResult)).
	msgDelegated
	msgAwaiting
	msgReturned
	msgThrew
	msgPanicked
)

type coMsg struct {
	kind msgKind
	v    value.Value
	p    any
}

// coOwner handles what a coroutine hands back after a resumption.
type coOwner interface {
	handle(reply coMsg)
}

type coroutine struct {
	run     *Run
	in, out chan coMsg
	// args is the coroutine's own argument stack: it may suspend halfway
	// through evaluating a call's arguments.
	args     []value.Value
	started  bool
	finished bool
	body     func(co *coroutine) value.Value
	owner    coOwner
	// cost is the Go stack the bottom of the goroutine holds: the
	// plumbing and the function's own frames.
	cost int
	// grown is the most Go stack the goroutine has used (estimated, as
	// GoDepth is), and charged what of it the memory budget was charged.
	grown, charged int
}

// killSignal unwinds a coroutine that the run abandons.
type killSignal struct{}

// genReturn unwinds a generator resumed with return(v), running its
// finally blocks.
type genReturn struct{ v value.Value }

func modeMsg(m value.ResumeMode) msgKind {
	switch m {
	case value.ResumeThrow:
		return msgThrow
	case value.ResumeReturn:
		return msgReturn
	}
	return msgNext
}

func isGenReturn(p any) bool { _, ok := p.(*genReturn); return ok }

func (run *Run) newCoroutine(code *funcCode, body func(co *coroutine) value.Value, owner coOwner) *coroutine {
	return &coroutine{run: run, body: body, owner: owner, cost: coroutineStackCost + code.frameCost(), charged: minGoroutineStack}
}

// transfer runs the coroutine until it suspends or ends, and returns what
// it handed back.
//
// The coroutine's calls count on from the resumer's depth, as they would
// on one stack; that also bounds its own goroutine's stack, which holds
// less. A coroutine that suspends keeps its goroutine's stack at the size
// it grew to: that stack is charged to the memory budget.
func (co *coroutine) transfer(msg coMsg) coMsg {
	run := co.run
	r := run.realm
	depth, goDepth, peak := r.Depth, r.GoDepth, r.GoPeak
	r.GoDepth += co.cost
	r.GoPeak = r.GoDepth
	prev := run.current
	run.current = co
	// The coroutine notes positions as it runs; when it yields or awaits,
	// the code that resumed it (a built-in iterating a generator) is where
	// the run is again, as on engine "vm".
	pos := run.pos
	savedArgs := r.ArgStack
	r.ArgStack = co.args
	if !co.started {
		co.started = true
		co.in = make(chan coMsg)
		co.out = make(chan coMsg)
		if run.coroutines == nil {
			run.coroutines = map[*coroutine]struct{}{}
		}
		run.coroutines[co] = struct{}{}
		go co.main()
	} else {
		co.in <- msg
	}
	reply := <-co.out
	co.args = r.ArgStack
	r.ArgStack = savedArgs
	run.current = prev
	grown := r.GoPeak - goDepth
	r.Depth, r.GoDepth, r.GoPeak = depth, goDepth, peak
	if reply.kind == msgPanicked {
		panic(reply.p)
	}
	run.pos = pos
	if !co.finished {
		co.chargeStack(grown)
	}
	return reply
}

// chargeStack charges the memory budget for the goroutine stack of a
// suspended coroutine that grew to about grown bytes: Go stacks double as
// they grow and are kept at their size while the goroutine sleeps.
func (co *coroutine) chargeStack(grown int) {
	if grown <= co.grown {
		return
	}
	co.grown = grown
	size := minGoroutineStack
	for size < grown {
		size *= 2
	}
	if size > co.charged {
		extra := size - co.charged
		co.charged = size
		co.run.realm.Charge(extra)
	}
}

// minGoroutineStack is the stack a goroutine starts with, counted with
// the generator or promise that made it: only growth past it is charged.
const minGoroutineStack = 8 << 10

func (co *coroutine) main() {
	var reply coMsg
	defer func() {
		if p := recover(); p != nil {
			switch x := p.(type) {
			case killSignal:
				reply = coMsg{kind: msgReturned}
			case *value.Exception:
				reply = coMsg{kind: msgThrew, v: x.Value}
			case *genReturn:
				reply = coMsg{kind: msgReturned, v: x.v}
			case *value.Interrupt, *Failure:
				reply = coMsg{kind: msgPanicked, p: p}
			default:
				reply = coMsg{kind: msgPanicked, p: &Failure{Panic: p, Stack: string(debug.Stack())}}
			}
		}
		co.finished = true
		delete(co.run.coroutines, co)
		co.out <- reply
	}()
	v := co.body(co)
	reply = coMsg{kind: msgReturned, v: v}
}

// suspend hands control back to the resumer and waits to be resumed.
func (co *coroutine) suspend(out coMsg) coMsg {
	co.out <- out
	msg := <-co.in
	if msg.kind == msgKill {
		panic(killSignal{})
	}
	return msg
}

// kill unwinds a suspended coroutine without running program code.
func (co *coroutine) kill() {
	if !co.started || co.finished {
		return
	}
	co.in <- coMsg{kind: msgKill}
	<-co.out
}

// Resume implements value.Continuation: an awaited promise settled.
func (co *coroutine) Resume(r *value.Realm, v value.Value, threw bool) {
	kind := msgNext
	if threw {
		kind = msgThrow
	}
	reply := co.transfer(coMsg{kind: kind, v: v})
	co.owner.handle(reply)
}

// await suspends the running function until v settles: a coroutine hands
// control back; the program's own body, which runs on the driver's
// goroutine, runs the job loop itself until its continuation comes up.
func (f *frame) await(v value.Value) value.Value {
	if f.co != nil {
		return f.co.await(v)
	}
	return f.run.awaitInline(v)
}

// inlineAwait is the continuation of the program body's await.
type inlineAwait struct {
	done, threw bool
	v           value.Value
}

// Resume implements value.Continuation.
func (k *inlineAwait) Resume(r *value.Realm, v value.Value, threw bool) {
	k.done, k.threw, k.v = true, threw, v
}

// awaitInline is await in the program body: jobs run in order, and host
// outcomes are waited for, on this goroutine, until the awaited value's
// turn comes. The body is the bottom of the driver's stack, so nothing
// else ever needs to run underneath it: no coroutine switch per await.
func (run *Run) awaitInline(v value.Value) value.Value {
	r := run.realm
	// The run's spare continuation, unless an await is already using it.
	k := run.spareAwait
	if k == nil {
		k = &inlineAwait{}
	}
	run.spareAwait = nil
	*k = inlineAwait{}
	r.Await(v, k)
	for !k.done {
		if r.RunOneJob() {
			run.Poll()
			continue
		}
		if fail := run.Loop.Wait(run.guard); fail != nil {
			panic(fail)
		}
	}
	v, threw := k.v, k.threw
	*k = inlineAwait{}
	run.spareAwait = k
	if threw {
		panic(&value.Exception{Value: v})
	}
	return v
}

// await suspends the coroutine until v settles.
func (co *coroutine) await(v value.Value) value.Value {
	co.run.realm.Await(v, co)
	msg := co.suspend(coMsg{kind: msgAwaiting})
	if msg.kind == msgThrow {
		panic(&value.Exception{Value: msg.v})
	}
	return msg.v
}

// ---------------------------------------------------------------------------
// Async functions

type asyncFn struct {
	run     *Run
	promise *value.Object
}

func (a *asyncFn) handle(reply coMsg) {
	switch reply.kind {
	case msgReturned:
		a.run.realm.ResolvePromise(a.promise, reply.v)
	case msgThrew:
		a.run.realm.RejectPromise(a.promise, reply.v)
	}
}

// startAsync calls an async function: its promise, with the body run to
// its first await.
func (run *Run) startAsync(f *frame) *value.Object {
	r := run.realm
	p := r.NewPromise()
	if !f.code.suspends {
		var v value.Value
		exc := r.Try(func() {
			f.code.setup(f)
			v = run.runBody(f)
		})
		if exc != nil {
			r.RejectPromise(p, exc.Value)
		} else {
			r.ResolvePromise(p, v)
		}
		return p
	}
	a := &asyncFn{run: run, promise: p}
	co := run.newCoroutine(f.code, func(co *coroutine) value.Value {
		f.co = co
		f.code.setup(f)
		return run.runBody(f)
	}, a)
	a.handle(co.transfer(coMsg{kind: msgNext}))
	return p
}

func (c *compiler) await(x *ast.Await) exprFn {
	c.fn.suspends = true
	arg := c.expr(x.X)
	pos := x.Start
	return func(f *frame) value.Value {
		v := arg(f)
		f.run.pos = int(pos)
		return f.await(v)
	}
}

// ---------------------------------------------------------------------------
// Generators

type genState uint8

const (
	genStart genState = iota
	genSuspended
	genRunning
	genDone
)

type generator struct {
	run   *Run
	co    *coroutine
	state genState
	// for async generators
	queue []agRequest
	async bool
}

type agRequest struct {
	mode    value.ResumeMode
	v       value.Value
	promise *value.Object
}

func (run *Run) newGenerator(f *frame) *value.Object {
	return run.newGeneratorObject(f, false)
}

// newGeneratorObject makes the generator object of a call whose frame f
// is set up: its prototype is the function's prototype property (or the
// intrinsic one), its coroutine starts on the first next().
func (run *Run) newGeneratorObject(f *frame, async bool) *value.Object {
	g := &generator{run: run, async: async}
	g.co = run.newCoroutine(f.code, func(co *coroutine) value.Value {
		f.co = co
		return run.runBody(f)
	}, g)
	proto := run.realm.Intrinsic(value.GeneratorPrototype)
	if async {
		proto = run.realm.Intrinsic(value.AsyncGeneratorPrototype)
	}
	if p := run.realm.GetObj(f.fobj, "prototype", value.Obj(f.fobj)); p.IsObject() {
		proto = p.AsObject()
	}
	o := value.NewObject(proto)
	o.Class = value.ClassGenerator
	o.Internal = g
	run.realm.Charge(4096) // a goroutine's stack, once started
	return o
}

// Resume implements value.Generator.
func (g *generator) Resume(r *value.Realm, mode value.ResumeMode, v value.Value) value.Value {
	switch g.state {
	case genRunning:
		r.ThrowType("Generator is already running")
	case genDone:
		return g.finished(r, mode, v)
	case genStart:
		if mode != value.ResumeNext {
			g.state = genDone
			return g.finished(r, mode, v)
		}
	}
	g.state = genRunning
	reply := g.co.transfer(coMsg{kind: modeMsg(mode), v: v})
	switch reply.kind {
	case msgYielded:
		g.state = genSuspended
		return value.Obj(r.IterResult(reply.v, false))
	case msgDelegated:
		g.state = genSuspended
		return reply.v
	case msgThrew:
		g.state = genDone
		panic(&value.Exception{Value: reply.v})
	}
	g.state = genDone
	return value.Obj(r.IterResult(reply.v, true))
}

func (g *generator) finished(r *value.Realm, mode value.ResumeMode, v value.Value) value.Value {
	switch mode {
	case value.ResumeReturn:
		return value.Obj(r.IterResult(v, true))
	case value.ResumeThrow:
		panic(&value.Exception{Value: v})
	}
	return value.Obj(r.IterResult(value.Undefined, true))
}

// handle is only used by async generators (sync generators are resumed
// directly, never through a continuation).
func (g *generator) handle(reply coMsg) {
	if g.async {
		g.agHandle(reply)
	}
}

func (c *compiler) yield(x *ast.Yield) exprFn {
	c.fn.suspends = true
	var arg exprFn
	if x.X != nil {
		arg = c.expr(x.X)
	}
	async := c.fn.async
	if x.Delegate {
		return c.yieldStar(arg, async, x.Start)
	}
	return func(f *frame) value.Value {
		v := value.Undefined
		if arg != nil {
			v = arg(f)
		}
		if async {
			v = f.await(v)
		}
		return resumeValue(f, f.co.suspend(coMsg{kind: msgYielded, v: v}))
	}
}

// resumeValue is what a yield evaluates to when the generator resumes.
func resumeValue(f *frame, msg coMsg) value.Value {
	switch msg.kind {
	case msgThrow:
		panic(&value.Exception{Value: msg.v})
	case msgReturn:
		v := msg.v
		if f.code.async {
			v = f.await(v)
		}
		panic(&genReturn{v: v})
	}
	return msg.v
}

func (c *compiler) yieldStar(arg exprFn, async bool, pos ast.Pos) exprFn {
	return func(f *frame) value.Value {
		r := f.run.realm
		iterable := arg(f)
		f.run.pos = int(pos)
		var it value.Value
		var next value.Value
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
		received := coMsg{kind: msgNext}
		for {
			var res value.Value
			switch received.kind {
			case msgNext:
				res = r.Call(next, it, []value.Value{received.v})
			case msgThrow:
				m := r.Get(it, "throw")
				if m.IsNullish() {
					if ret := r.Get(it, "return"); !ret.IsNullish() {
						r.Call(ret, it, nil)
					}
					r.ThrowType("The iterator does not provide a 'throw' method")
				}
				res = r.Call(m, it, []value.Value{received.v})
			case msgReturn:
				m := r.Get(it, "return")
				if m.IsNullish() {
					panic(&genReturn{v: received.v})
				}
				res = r.Call(m, it, []value.Value{received.v})
			}
			if async {
				res = f.await(res)
			}
			if !res.IsObject() {
				r.ThrowType("Iterator result %s is not an object", r.Describe(res))
			}
			if r.Get(res, "done").ToBoolean() {
				v := r.Get(res, "value")
				if received.kind == msgReturn {
					panic(&genReturn{v: v})
				}
				return v
			}
			if async {
				received = f.co.suspend(coMsg{kind: msgYielded, v: r.Get(res, "value")})
			} else {
				received = f.co.suspend(coMsg{kind: msgDelegated, v: res})
			}
		}
	}
}

// ---------------------------------------------------------------------------
// Async generators

func (run *Run) newAsyncGenerator(f *frame) *value.Object {
	return run.newGeneratorObject(f, true)
}

// Enqueue implements value.AsyncGenerator.
func (g *generator) Enqueue(r *value.Realm, mode value.ResumeMode, v value.Value) *value.Object {
	p := r.NewPromise()
	g.queue = append(g.queue, agRequest{mode: mode, v: v, promise: p})
	if g.state != genRunning {
		g.agResumeNext()
	}
	return p
}

func (g *generator) agResumeNext() {
	r := g.run.realm
	for len(g.queue) > 0 && g.state != genRunning {
		req := g.queue[0]
		if g.state == genStart && req.mode != value.ResumeNext {
			g.state = genDone
		}
		if g.state == genDone {
			g.queue = g.queue[1:]
			jsops.SettleDone(r, req.mode, req.v, req.promise)
			continue
		}
		g.state = genRunning
		g.agHandle(g.co.transfer(coMsg{kind: modeMsg(req.mode), v: req.v}))
	}
}

func (g *generator) agHandle(reply coMsg) {
	r := g.run.realm
	if reply.kind == msgAwaiting {
		return
	}
	req := g.queue[0]
	g.queue = g.queue[1:]
	switch reply.kind {
	case msgYielded:
		g.state = genSuspended
		r.ResolvePromise(req.promise, value.Obj(r.IterResult(reply.v, false)))
	case msgReturned:
		g.state = genDone
		r.ResolvePromise(req.promise, value.Obj(r.IterResult(reply.v, true)))
	case msgThrew:
		g.state = genDone
		r.RejectPromise(req.promise, reply.v)
	}
	g.agResumeNext()
}

// ---------------------------------------------------------------------------
// for await

func (c *compiler) forAwait(s *ast.ForOf, labels []string) stmtFn {
	c.fn.suspends = true
	enter, bind := c.forHead(s.Left, s.Scope)
	right := c.expr(s.Right)
	body := c.stmtOrNop(s.Body)
	pos := s.Right.Pos()
	return func(f *frame) ctl {
		if enter != nil {
			enter(f)
		}
		r := f.run.realm
		iterable := right(f)
		f.run.pos = int(pos)
		rec, isAsync := r.GetAsyncIterator(iterable)
		if !isAsync && rec.Iterator.IsUndefined() {
			// Fast-path record over an array or string: values are
			// awaited one by one.
			for {
				v, ok := rec.Step(r)
				if !ok {
					return ctlNormal
				}
				v = f.await(v)
				if enter != nil {
					enter(f)
				}
				bind(f, v)
				rc := body(f)
				if rc != ctlNormal {
					if stop, out := loopCtl(f, rc, labels); stop {
						return out
					}
				}
			}
		}
		closeIter := func() {
			ret := r.Get(rec.Iterator, "return")
			if ret.IsNullish() {
				return
			}
			res := r.Call(ret, rec.Iterator, nil)
			if isAsync {
				res = f.await(res)
			}
			if !res.IsObject() {
				r.ThrowType("iterator.return() did not return an object")
			}
		}
		for {
			res := rec.NextResult(r, nil)
			if isAsync {
				res = f.await(res)
			}
			if !res.IsObject() {
				r.ThrowType("Iterator result %s is not an object", r.Describe(res))
			}
			if r.Get(res, "done").ToBoolean() {
				return ctlNormal
			}
			v := r.Get(res, "value")
			if !isAsync {
				v = f.await(v)
			}
			if enter != nil {
				enter(f)
			}
			var rc ctl
			rc, p := runGuarded(f, func(f *frame) ctl {
				bind(f, v)
				return body(f)
			})
			if p != nil {
				if _, ok := p.(*value.Exception); ok {
					_ = r.Try(closeIter)
				}
				panic(p)
			}
			if rc != ctlNormal {
				if stop, out := loopCtl(f, rc, labels); stop {
					closeIter()
					return out
				}
			}
		}
	}
}
