package interp

import (
	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/internal/jsops"
	"github.com/go-codemode/codemode/value"
)

// Member access, calls, assignment and update. Inside an optional chain
// a short-circuit is signalled by value.Hole, which no expression ever
// produces otherwise; the enclosing *ast.Chain turns it into undefined.

// memberObject compiles the object part of a member expression.
func (c *compiler) memberObject(x ast.Expr) exprFn {
	switch x := x.(type) {
	case *ast.Member, *ast.Index:
		// Links of a chain nest closures as deeply as the chain is
		// long, with no expr between them: count them here.
		defer c.nest(exprStackCost(x))()
		return c.member(x)
	case *ast.Call:
		defer c.nest(exprStackCost(x))()
		return c.callInChain(x)
	}
	return c.expr(x)
}

// member compiles X.name, X[key], X.#priv, super.name and super[key],
// with optional-chain short-circuiting.
func (c *compiler) member(x ast.Expr) exprFn {
	switch m := x.(type) {
	case *ast.Member:
		if _, ok := m.X.(*ast.Super); ok {
			return c.superGet(m.X.(*ast.Super), func(*frame) string { return m.Prop.Name })
		}
		obj := c.memberObject(m.X)
		pos := memberPos(m)
		optional := m.Optional
		if m.Private != nil {
			key := c.privateKey(m.Private)
			name := m.Private.Name
			return func(f *frame) value.Value {
				o := obj(f)
				if o.IsHole() || optional && o.IsNullish() {
					return value.Hole
				}
				return privateGet(f, o, key(f), name, pos)
			}
		}
		key := m.Prop.Name
		return func(f *frame) value.Value {
			o := obj(f)
			if oo := o.AsObject(); oo != nil {
				if oo.Class == value.ClassObject {
					if p := oo.GetOwn(key); p != nil && !p.IsAccessor() {
						return p.Value
					}
				}
				f.run.pos = int(pos)
				v := f.run.realm.GetObj(oo, key, o)
				if v.IsUndefined() && oo.Class == value.ClassPromise {
					f.run.promiseMiss(m, oo, key)
				}
				return v
			}
			if o.IsHole() || optional && o.IsNullish() {
				return value.Hole
			}
			f.run.pos = int(pos)
			return f.run.realm.Get(o, key)
		}
	case *ast.Index:
		if s, ok := m.X.(*ast.Super); ok {
			idx := c.expr(m.Index)
			return c.superGet(s, func(f *frame) string { return f.run.realm.ToPropertyKey(idx(f)) })
		}
		obj := c.memberObject(m.X)
		idx := c.expr(m.Index)
		pos := m.Index.Pos()
		optional := m.Optional
		return func(f *frame) value.Value {
			o := obj(f)
			if o.IsHole() || optional && o.IsNullish() {
				return value.Hole
			}
			k := idx(f)
			return getIndex(f, o, k, pos)
		}
	}
	panic("interp: not a member expression")
}

// getIndex is o[k] with a fast path for arrays indexed by numbers.
func getIndex(f *frame, o, k value.Value, pos ast.Pos) value.Value {
	if v, ok := jsops.GetIndexFast(o, k); ok {
		return v
	}
	f.run.pos = int(pos)
	return jsops.GetIndex(f.run.realm, o, k)
}

// setIndex is o[k] = v with the array fast path.
func setIndex(f *frame, o, k, v value.Value, pos ast.Pos) {
	done, err := jsops.SetIndexFast(f.run.realm, o, k, v)
	if err != nil {
		f.run.pos = int(pos)
		f.run.realm.ThrowRange(value.ArrayLengthMessage)
	}
	if !done {
		f.run.pos = int(pos)
		jsops.SetIndex(f.run.realm, o, k, v)
	}
}

func privateGet(f *frame, o value.Value, key, name string, pos ast.Pos) value.Value {
	f.run.pos = int(pos)
	return jsops.PrivateGet(f.run.realm, o, key, name)
}

func privateSet(f *frame, o value.Value, key, name string, v value.Value, pos ast.Pos) {
	f.run.pos = int(pos)
	jsops.PrivateSet(f.run.realm, o, key, name, v)
}

// superGet compiles super[key]: the property of the home object's
// prototype, read with this as the receiver.
func (c *compiler) superGet(s *ast.Super, key func(f *frame) string) exprFn {
	this := c.load(s.This, s.Start)
	pos := s.Start
	return func(f *frame) value.Value {
		t := this(f)
		k := key(f)
		f.run.pos = int(pos)
		return f.run.realm.GetObj(superBase(f, jsops.KeyValue(k), "read", "reading"), k, t)
	}
}

// home is the home object of the running method (arrows see their
// creator's).
func (f *frame) home() *value.Object {
	if f.fn == nil {
		return nil
	}
	return f.fn.home
}

// ---------------------------------------------------------------------------
// Calls

// callee compiles the function and this-value of a call's callee. The
// two are returned as one evaluation: fn runs first and leaves this in
// the frame's scratch.
func (c *compiler) callee(x ast.Expr) (fn exprFn, this exprFn) {
	switch m := x.(type) {
	case *ast.Member:
		if s, ok := m.X.(*ast.Super); ok {
			thisB := c.load(s.This, s.Start)
			get := c.superGet(s, func(*frame) string { return m.Prop.Name })
			return get, thisB
		}
		obj := c.memberObject(m.X)
		pos := memberPos(m)
		optional := m.Optional
		if m.Private != nil {
			key := c.privateKey(m.Private)
			name := m.Private.Name
			return func(f *frame) value.Value {
					o := obj(f)
					f.scratch = o
					if o.IsHole() || optional && o.IsNullish() {
						return value.Hole
					}
					return privateGet(f, o, key(f), name, pos)
				}, func(f *frame) value.Value {
					return f.scratch
				}
		}
		key := m.Prop.Name
		return func(f *frame) value.Value {
				o := obj(f)
				f.scratch = o
				if oo := o.AsObject(); oo != nil {
					f.run.pos = int(pos)
					return f.run.realm.GetObj(oo, key, o)
				}
				if o.IsHole() || optional && o.IsNullish() {
					return value.Hole
				}
				f.run.pos = int(pos)
				return f.run.realm.Get(o, key)
			}, func(f *frame) value.Value {
				return f.scratch
			}
	case *ast.Index:
		if s, ok := m.X.(*ast.Super); ok {
			thisB := c.load(s.This, s.Start)
			idx := c.expr(m.Index)
			get := c.superGet(s, func(f *frame) string { return f.run.realm.ToPropertyKey(idx(f)) })
			return get, thisB
		}
		obj := c.memberObject(m.X)
		idx := c.expr(m.Index)
		pos := m.Index.Pos()
		optional := m.Optional
		return func(f *frame) value.Value {
				o := obj(f)
				f.scratch = o
				if o.IsHole() || optional && o.IsNullish() {
					return value.Hole
				}
				k := idx(f)
				v := getIndex(f, o, k, pos)
				f.scratch = o
				return v
			}, func(f *frame) value.Value {
				return f.scratch
			}
	case *ast.Chain:
		// (a?.b)() keeps the this of a?.b.
		fn, this := c.callee(m.X)
		return func(f *frame) value.Value {
			v := fn(f)
			if v.IsHole() {
				return value.Undefined
			}
			return v
		}, this
	}
	fn = c.memberObject(x)
	return fn, func(*frame) value.Value { return value.Undefined }
}

// args compiles an argument list, with spreads.
// args compiles an argument list; a spread that cannot be iterated is
// reported at pos (the call's, as engine "vm" reports it).
func (c *compiler) args(list []ast.Expr, pos ast.Pos) func(f *frame) []value.Value {
	if len(list) == 0 {
		return func(*frame) []value.Value { return nil }
	}
	type arg struct {
		e      exprFn
		spread bool
	}
	args := make([]arg, len(list))
	spread := false
	for i, a := range list {
		if s, ok := a.(*ast.Spread); ok {
			args[i] = arg{c.expr(s.X), true}
			spread = true
		} else {
			args[i] = arg{e: c.expr(a)}
		}
	}
	if !spread {
		plain := make([]exprFn, len(args))
		for i, a := range args {
			plain[i] = a.e
		}
		return plainArgs(plain)
	}
	return func(f *frame) []value.Value {
		out := make([]value.Value, 0, len(args))
		for _, a := range args {
			if a.spread {
				v := a.e(f)
				f.run.pos = int(pos)
				out = append(out, f.run.realm.IterateToSlice(v)...)
				if len(out) > 65535 {
					f.run.realm.ThrowRange("Maximum call stack size exceeded")
				}
			} else {
				out = append(out, a.e(f))
			}
		}
		return out
	}
}

// plainArgs evaluates an argument list without spreads.
func plainArgs(list []exprFn) func(f *frame) []value.Value {
	return func(f *frame) []value.Value { return evalPlain(f, list) }
}

// evalPlain evaluates the arguments of list into a new slice.
func evalPlain(f *frame, list []exprFn) []value.Value {
	out := make([]value.Value, len(list))
	for i, e := range list {
		out[i] = e(f)
	}
	return out
}

func (c *compiler) call(x *ast.Call) exprFn {
	call := c.callInChain(x)
	return func(f *frame) value.Value {
		v := call(f)
		if v.IsHole() {
			return value.Undefined
		}
		return v
	}
}

// callInChain compiles a call that may be a link of an optional chain.
func (c *compiler) callInChain(x *ast.Call) exprFn {
	if s, ok := x.Callee.(*ast.Super); ok {
		return c.superCall(s, x)
	}
	fn, this := c.callee(x.Callee)
	pos := x.Start
	text := x.Callee // named in the error only: jsops.CalleeText allocates
	optional := x.Optional
	// Without spreads, arguments of calls to program functions are
	// evaluated onto the realm's argument stack: the callee copies them
	// into its frame on entry, so no slice is allocated per call. Each
	// argument is compiled once (compiling it twice would make nested
	// calls cost exponential time).
	var plain []exprFn
	var args func(f *frame) []value.Value
	if hasSpread(x.Args) {
		args = c.args(x.Args, callPos(x))
	} else {
		plain = make([]exprFn, len(x.Args))
		for i, a := range x.Args {
			plain[i] = c.expr(a)
		}
	}
	return func(f *frame) value.Value {
		callee := fn(f)
		if callee.IsHole() || optional && callee.IsNullish() {
			return value.Hole
		}
		t := this(f)
		if plain != nil {
			if o := callee.AsObject(); o != nil {
				if cl, ok := o.Internal.(*closure); ok {
					r := f.run.realm
					base := len(r.ArgStack)
					for _, a := range plain {
						v := a(f)
						r.ArgStack = append(r.ArgStack, v)
					}
					f.run.pos = int(pos)
					v := f.run.call(cl, o, t, r.ArgStack[base:len(r.ArgStack):len(r.ArgStack)], nil)
					clear(r.ArgStack[base:])
					r.ArgStack = r.ArgStack[:base]
					return v
				}
			}
		}
		var a []value.Value
		if plain != nil {
			a = evalPlain(f, plain)
		} else {
			a = args(f)
		}
		f.run.pos = int(pos)
		return f.run.callValue(f.run.realm, callee, t, a, text)
	}
}

func hasSpread(list []ast.Expr) bool {
	for _, a := range list {
		if _, ok := a.(*ast.Spread); ok {
			return true
		}
	}
	return false
}

// callValue calls callee, with the V8 message naming the callee as the
// program wrote it (text) when it is not a function.
func (run *Run) callValue(r *value.Realm, callee, this value.Value, args []value.Value, text ast.Expr) value.Value {
	o := callee.AsObject()
	if o == nil || !o.Callable() {
		r.ThrowType("%s is not a function", jsops.CalleeText(text))
	}
	if cl, ok := o.Internal.(*closure); ok {
		return run.call(cl, o, this, args, nil)
	}
	return r.CallObject(o, this, args)
}

func (c *compiler) newExpr(x *ast.New) exprFn {
	callee := c.expr(x.Callee)
	args := c.args(x.Args, x.Start)
	pos := x.Start
	text := x.Callee
	return func(f *frame) value.Value {
		fn := callee(f)
		a := args(f)
		f.run.pos = int(pos)
		r := f.run.realm
		if !value.IsConstructor(fn) {
			r.ThrowType("%s is not a constructor", jsops.CalleeText(text))
		}
		return r.Construct(fn, a, nil)
	}
}

// ---------------------------------------------------------------------------
// Assignment

func (c *compiler) assign(x *ast.Assign) exprFn {
	if x.Op == ast.OpAssign {
		switch t := x.Target.(type) {
		case *ast.Ident:
			val := c.namedExpr(x.Value, t.Name)
			st := c.store(t.Binding, t.Start, false)
			return func(f *frame) value.Value {
				v := val(f)
				st(f, v)
				return v
			}
		case *ast.Member, *ast.Index:
			ref := c.reference(t.(ast.Expr))
			val := c.expr(x.Value)
			return func(f *frame) value.Value {
				o, k := ref.base(f)
				v := val(f)
				ref.set(f, o, k, v)
				return v
			}
		}
		assign := c.assignTarget(x.Target)
		val := c.expr(x.Value)
		return func(f *frame) value.Value {
			v := val(f)
			assign(f, v)
			return v
		}
	}
	switch x.Op {
	case ast.OpAndAssign, ast.OpOrAssign, ast.OpNullishAssign:
		return c.logicalAssign(x)
	}
	op, _ := x.Op.Binary()
	pos := x.Start
	val := c.expr(x.Value)
	if id, ok := x.Target.(*ast.Ident); ok {
		ld := c.load(id.Binding, id.Start)
		st := c.store(id.Binding, id.Start, false)
		if op == ast.OpAdd {
			return func(f *frame) value.Value {
				a := ld(f)
				b := val(f)
				var v value.Value
				if a.IsNumber() && b.IsNumber() {
					v = value.Number(a.Num() + b.Num())
				} else {
					f.run.pos = int(pos)
					if a.IsObject() || b.IsObject() {
						f.run.realm.RequireData(a, b)
					}
					v = f.run.realm.Add(a, b)
				}
				st(f, v)
				return v
			}
		}
		return func(f *frame) value.Value {
			a := ld(f)
			b := val(f)
			f.run.pos = int(pos)
			v := jsops.Binary(f.run.realm, op, a, b)
			st(f, v)
			return v
		}
	}
	ref := c.reference(x.Target.(ast.Expr))
	return func(f *frame) value.Value {
		o, k := ref.resolved(f)
		a := ref.get(f, o, k)
		b := val(f)
		f.run.pos = int(pos)
		v := jsops.Binary(f.run.realm, op, a, b)
		ref.set(f, o, k, v)
		return v
	}
}

func (c *compiler) logicalAssign(x *ast.Assign) exprFn {
	op := x.Op
	decide := func(v value.Value) bool { // true: assign
		switch op {
		case ast.OpAndAssign:
			return v.ToBoolean()
		case ast.OpOrAssign:
			return !v.ToBoolean()
		}
		return v.IsNullish()
	}
	if id, ok := x.Target.(*ast.Ident); ok {
		ld := c.load(id.Binding, id.Start)
		st := c.store(id.Binding, id.Start, false)
		val := c.namedExpr(x.Value, id.Name)
		return func(f *frame) value.Value {
			cur := ld(f)
			if !decide(cur) {
				return cur
			}
			v := val(f)
			st(f, v)
			return v
		}
	}
	ref := c.reference(x.Target.(ast.Expr))
	val := c.expr(x.Value)
	return func(f *frame) value.Value {
		o, k := ref.resolved(f)
		cur := ref.get(f, o, k)
		if !decide(cur) {
			return cur
		}
		v := val(f)
		ref.set(f, o, k, v)
		return v
	}
}

// ref is a compiled member reference: evaluate base and key once, then
// get and set through them. base only evaluates the two expressions (the
// spec's Reference Record): a null base and the key's ToPropertyKey are
// dealt with when the reference is read or written, so that
// `base[key] = rhs` evaluates rhs first. A read-modify-write (compound
// assignment, ++) calls resolve between base and get, which checks the
// base and converts the key once for both get and set.
type ref struct {
	base    func(f *frame) (obj value.Value, key value.Value)
	get     func(f *frame, obj, key value.Value) value.Value
	set     func(f *frame, obj, key, v value.Value)
	resolve func(f *frame, obj, key value.Value) value.Value // nil: the key needs no conversion
}

// resolved is base followed by resolve.
func (rf *ref) resolved(f *frame) (value.Value, value.Value) {
	o, k := rf.base(f)
	if rf.resolve != nil {
		k = rf.resolve(f, o, k)
	}
	return o, k
}

func (c *compiler) reference(x ast.Expr) ref {
	switch m := x.(type) {
	case *ast.Member:
		pos := memberPos(m)
		if s, ok := m.X.(*ast.Super); ok {
			this := c.load(s.This, s.Start)
			key := value.StrOf(m.Prop.Name)
			return c.superRef(this, func(*frame) value.Value { return key }, pos)
		}
		obj := c.expr(m.X)
		if m.Private != nil {
			key := c.privateKey(m.Private)
			name := m.Private.Name
			return ref{
				base: func(f *frame) (value.Value, value.Value) { return obj(f), value.Undefined },
				get: func(f *frame, o, _ value.Value) value.Value {
					return privateGet(f, o, key(f), name, pos)
				},
				set: func(f *frame, o, _, v value.Value) { privateSet(f, o, key(f), name, v, pos) },
			}
		}
		name := m.Prop.Name
		return ref{
			base: func(f *frame) (value.Value, value.Value) { return obj(f), value.Undefined },
			get: func(f *frame, o, _ value.Value) value.Value {
				f.run.pos = int(pos)
				return f.run.realm.Get(o, name)
			},
			set: func(f *frame, o, _, v value.Value) {
				f.run.pos = int(pos)
				if oo := o.AsObject(); oo != nil && oo.Class == value.ClassObject {
					if p := oo.GetOwn(name); p != nil && p.Flags&(value.Accessor|value.Writable) == value.Writable {
						p.Value = v
						return
					}
				}
				f.run.realm.Set(o, name, v)
			},
		}
	case *ast.Index:
		pos := m.Index.Pos()
		if s, ok := m.X.(*ast.Super); ok {
			this := c.load(s.This, s.Start)
			return c.superRef(this, c.expr(m.Index), pos)
		}
		obj := c.expr(m.X)
		idx := c.expr(m.Index)
		return ref{
			base: func(f *frame) (value.Value, value.Value) {
				o := obj(f)
				return o, idx(f)
			},
			get: func(f *frame, o, k value.Value) value.Value { return getIndex(f, o, k, pos) },
			set: func(f *frame, o, k, v value.Value) { setIndex(f, o, k, v, pos) },
			resolve: func(f *frame, o, k value.Value) value.Value {
				if o.IsNullish() {
					f.run.pos = int(pos)
					jsops.ThrowNullishBase(f.run.realm, o, k, "read", "reading")
				}
				return jsops.ToKeyValue(f.run.realm, k)
			},
		}
	}
	panic("interp: not an assignable reference")
}

func (c *compiler) superRef(this exprFn, key exprFn, pos ast.Pos) ref {
	return ref{
		base: func(f *frame) (value.Value, value.Value) { return this(f), key(f) },
		get: func(f *frame, t, k value.Value) value.Value {
			f.run.pos = int(pos)
			return f.run.realm.GetObj(superBase(f, k, "read", "reading"), f.run.realm.ToPropertyKey(k), t)
		},
		set: func(f *frame, t, k, v value.Value) {
			f.run.pos = int(pos)
			base := superBase(f, k, "set", "setting")
			key := f.run.realm.ToPropertyKey(k)
			if !f.run.realm.SetObj(base, key, v, t) {
				f.run.realm.ThrowType("Cannot assign to read only property '%s' of object", value.KeyString(key))
			}
		},
		resolve: func(f *frame, _, k value.Value) value.Value { return jsops.ToKeyValue(f.run.realm, k) },
	}
}

// superBase is the object a super property reference reads or writes: the
// home object's prototype, which must not be null (the spec's ToObject of
// the reference's base).
func superBase(f *frame, k value.Value, verb, doing string) *value.Object {
	home := f.home()
	if home == nil || home.Proto == nil {
		jsops.ThrowNullishBase(f.run.realm, value.Null, k, verb, doing)
	}
	return home.Proto
}

func (c *compiler) update(x *ast.Update) exprFn {
	delta := 1.0
	if x.Op == ast.OpDec {
		delta = -1
	}
	prefix := x.Prefix
	pos := x.Start
	if id, ok := x.X.(*ast.Ident); ok {
		ld := c.load(id.Binding, id.Start)
		st := c.store(id.Binding, id.Start, false)
		return func(f *frame) value.Value {
			old := ld(f)
			var n float64
			if old.IsNumber() {
				n = old.Num()
			} else {
				f.run.pos = int(pos)
				n = f.run.realm.ToNumber(old)
			}
			nv := value.Number(n + delta)
			st(f, nv)
			if prefix {
				return nv
			}
			return value.Number(n)
		}
	}
	ref := c.reference(x.X)
	return func(f *frame) value.Value {
		o, k := ref.resolved(f)
		old := ref.get(f, o, k)
		f.run.pos = int(pos)
		n := f.run.realm.ToNumber(old)
		nv := value.Number(n + delta)
		ref.set(f, o, k, nv)
		if prefix {
			return nv
		}
		return value.Number(n)
	}
}

// memberPos is where a member access is reported: at the property name.
// callPos is where a call is reported: its property for a method call,
// its start otherwise.
func callPos(x *ast.Call) ast.Pos {
	switch m := x.Callee.(type) {
	case *ast.Member:
		return memberPos(m)
	case *ast.Index:
		return m.Index.Pos()
	}
	return x.Start
}

func memberPos(m *ast.Member) ast.Pos {
	if m.Private != nil {
		return m.Private.Start
	}
	return m.Prop.Start
}
