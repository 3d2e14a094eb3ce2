package interp

import (
	"math"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/internal/jsops"
	"github.com/go-codemode/codemode/value"
)

// cond compiles an expression used as a condition.
func (c *compiler) cond(x ast.Expr) func(f *frame) bool {
	if b, ok := x.(*ast.Binary); ok && !b.Op.IsLogical() {
		l, r := c.expr(b.X), c.expr(b.Y)
		switch b.Op {
		case ast.OpLt:
			return func(f *frame) bool {
				a, b := l(f), r(f)
				if a.IsNumber() && b.IsNumber() {
					return a.Num() < b.Num()
				}
				return f.run.realm.Compare(a, b, true) == -1
			}
		case ast.OpLe:
			return func(f *frame) bool {
				a, b := l(f), r(f)
				if a.IsNumber() && b.IsNumber() {
					return a.Num() <= b.Num()
				}
				c := f.run.realm.Compare(b, a, false)
				return c == 0 || c == 1
			}
		case ast.OpStrictEq:
			return func(f *frame) bool { return f.run.realm.StrictEquals(l(f), r(f)) }
		case ast.OpStrictNe:
			return func(f *frame) bool { return !f.run.realm.StrictEquals(l(f), r(f)) }
		}
	}
	e := c.expr(x)
	return func(f *frame) bool { return e(f).ToBoolean() }
}

// namedExpr compiles x, giving an anonymous function or class the name
// it is bound to (NamedEvaluation).
func (c *compiler) namedExpr(x ast.Expr, name string) exprFn {
	if name != "" {
		switch x := x.(type) {
		case *ast.FuncLit:
			if x.Func.Name == nil {
				return c.funcLit(x.Func, name)
			}
		case *ast.ClassLit:
			if x.Class.Name == nil {
				return c.class(x.Class, name)
			}
		}
	}
	return c.expr(x)
}

// expr compiles an expression, counting its Go stack (stack.go).
func (c *compiler) expr(x ast.Expr) exprFn {
	defer c.nest(exprStackCost(x))()
	return c.exprNode(x)
}

// smallInts are the closures for the literals 0 to 15, made once.
var smallInts = func() (fns [16]exprFn) {
	for i := range fns {
		v := value.Number(float64(i))
		fns[i] = func(*frame) value.Value { return v }
	}
	return fns
}()

func (c *compiler) exprNode(x ast.Expr) exprFn {
	switch x := x.(type) {
	case *ast.Ident:
		return c.load(x.Binding, x.Start)
	case *ast.This:
		return c.load(x.Binding, x.Start)
	case *ast.NumberLit:
		if n := int(x.Value); float64(n) == x.Value && n >= 0 && n < len(smallInts) && !math.Signbit(x.Value) {
			return smallInts[n]
		}
		v := value.Number(x.Value)
		return func(*frame) value.Value { return v }
	case *ast.StringLit:
		v := value.StrOf(x.Value)
		return func(*frame) value.Value { return v }
	case *ast.BoolLit:
		v := value.Bool(x.Value)
		return func(*frame) value.Value { return v }
	case *ast.NullLit:
		return func(*frame) value.Value { return value.Null }
	case *ast.RegExpLit:
		pattern, flags := value.StrOf(x.Pattern), value.StrOf(x.Flags)
		pos := x.Start
		return func(f *frame) value.Value {
			r := f.run.realm
			f.run.pos = int(pos)
			return r.Construct(value.Obj(r.Intrinsic(value.RegExpCtor)), []value.Value{pattern, flags}, nil)
		}
	case *ast.TemplateLit:
		return c.template(x)
	case *ast.TaggedTemplate:
		return c.taggedTemplate(x)
	case *ast.ArrayLit:
		return c.arrayLit(x)
	case *ast.ObjectLit:
		return c.objectLit(x)
	case *ast.FuncLit:
		name := ""
		if x.Func.Name != nil {
			name = x.Func.Name.Name
		}
		return c.funcLit(x.Func, name)
	case *ast.ClassLit:
		name := ""
		if x.Class.Name != nil {
			name = x.Class.Name.Name
		}
		return c.class(x.Class, name)
	case *ast.Unary:
		return c.unary(x)
	case *ast.Update:
		return c.update(x)
	case *ast.Binary:
		return c.binary(x)
	case *ast.Assign:
		return c.assign(x)
	case *ast.Cond:
		test, then, els := c.cond(x.Test), c.expr(x.Then), c.expr(x.Else)
		return func(f *frame) value.Value {
			if test(f) {
				return then(f)
			}
			return els(f)
		}
	case *ast.Sequence:
		list := make([]exprFn, len(x.List))
		for i, e := range x.List {
			list[i] = c.expr(e)
		}
		return func(f *frame) value.Value {
			var v value.Value
			for _, e := range list {
				v = e(f)
			}
			return v
		}
	case *ast.Call:
		return c.call(x)
	case *ast.New:
		return c.newExpr(x)
	case *ast.Member, *ast.Index:
		get := c.member(x)
		return func(f *frame) value.Value {
			v := get(f)
			if v.IsHole() {
				return value.Undefined
			}
			return v
		}
	case *ast.Chain:
		inner := c.expr(x.X)
		return func(f *frame) value.Value {
			v := inner(f)
			if v.IsHole() {
				return value.Undefined
			}
			return v
		}
	case *ast.Await:
		return c.await(x)
	case *ast.Yield:
		return c.yield(x)
	case *ast.PrivateIn:
		return c.privateIn(x)
	case *ast.Spread:
		panic("interp: spread outside of a list")
	case *ast.BigIntLit:
		pos := x.Start
		return func(f *frame) value.Value {
			f.run.pos = int(pos)
			f.run.realm.ThrowKind("UnsupportedSyntax", value.SyntaxError, "BigInt literals are not supported.")
			return value.Undefined
		}
	case *ast.NewTarget:
		return func(f *frame) value.Value {
			if nt := f.outerFrame().newTarget; nt != nil {
				return value.Obj(nt)
			}
			return value.Undefined
		}
	case *ast.ImportMeta:
		return c.unsupportedExpr("MetaProperty", x.Start)
	case *ast.ImportCall:
		arg := c.expr(x.Arg)
		pos := x.Start
		return func(f *frame) value.Value {
			r := f.run.realm
			spec := arg(f)
			f.run.pos = int(pos)
			return engine.Import(r, f.run.host, spec)
		}
	case *ast.Super:
		return c.unsupportedExpr("Super", x.Start)
	}
	panic("interp: unknown expression " + ast.Dump(x, nil))
}

func (c *compiler) unsupportedExpr(what string, pos ast.Pos) exprFn {
	s := c.unsupported(what, pos)
	return func(f *frame) value.Value { s(f); return value.Undefined }
}

func (c *compiler) template(x *ast.TemplateLit) exprFn {
	quasis := make([]*value.String, len(x.Quasis))
	for i, q := range x.Quasis {
		quasis[i] = value.NewString(*q.Cooked)
	}
	exprs := make([]exprFn, len(x.Exprs))
	for i, e := range x.Exprs {
		exprs[i] = c.expr(e)
	}
	if len(exprs) == 0 {
		v := value.Str(quasis[0])
		return func(*frame) value.Value { return v }
	}
	pos := int(x.Start)
	return func(f *frame) value.Value {
		r := f.run.realm
		var b value.Builder
		b.Grow(quasis[0].Len() + 8*len(exprs))
		b.WriteString(quasis[0])
		for i, e := range exprs {
			v := e(f)
			switch {
			case v.IsNumber():
				b.WriteNumber(v.Num())
			case v.IsString():
				b.WriteString(v.AsString())
			case v.IsObject() || v.IsSymbol():
				f.run.pos = pos
				b.WriteString(r.ToString(v))
			default:
				vs, _ := v.ToString()
				b.WriteString(vs)
			}
			b.WriteString(quasis[i+1])
			if b.Len() > value.MaxStringLength {
				r.ThrowRange("Invalid string length")
			}
		}
		s := b.String()
		r.Charge(s.Bytes())
		return value.Str(s)
	}
}

func (c *compiler) taggedTemplate(x *ast.TaggedTemplate) exprFn {
	fn, this := c.callee(x.Tag)
	exprs := make([]exprFn, len(x.Quasi.Exprs))
	for i, e := range x.Quasi.Exprs {
		exprs[i] = c.expr(e)
	}
	site := x
	pos := x.Start
	text := x.Tag // named in the error only: jsops.CalleeText allocates
	return func(f *frame) value.Value {
		r := f.run.realm
		callee, thisv := fn(f), this(f)
		strs := f.run.templateObject(site)
		args := make([]value.Value, 1+len(exprs))
		args[0] = value.Obj(strs)
		for i, e := range exprs {
			args[i+1] = e(f)
		}
		f.run.pos = int(pos)
		return f.run.callValue(r, callee, thisv, args, text)
	}
}

// templateObject returns the strings array of a tagged template site,
// made once per run.
func (run *Run) templateObject(site *ast.TaggedTemplate) *value.Object {
	if o, ok := run.templates[site]; ok {
		return o
	}
	r := run.realm
	cooked := make([]value.Value, len(site.Quasi.Quasis))
	raw := make([]value.Value, len(site.Quasi.Quasis))
	for i, q := range site.Quasi.Quasis {
		if q.Cooked != nil {
			cooked[i] = value.StrOf(*q.Cooked)
		}
		raw[i] = value.StrOf(q.Raw)
	}
	rawArr := r.NewArrayValue(raw)
	freezeArray(rawArr)
	o := r.NewArrayValue(cooked)
	o.Define("raw", value.Obj(rawArr), 0)
	freezeArray(o)
	if run.templates == nil {
		run.templates = map[*ast.TaggedTemplate]*value.Object{}
	}
	run.templates[site] = o
	return o
}

// freezeArray is Object.freeze of an array (template objects are frozen).
func freezeArray(o *value.Object) {
	o.Freeze()
	a := o.Array()
	a.Frozen, a.Sealed, a.LengthReadOnly = true, true, true
}

func (c *compiler) arrayLit(x *ast.ArrayLit) exprFn {
	type elem struct {
		e      exprFn
		spread bool
		hole   bool
	}
	elems := make([]elem, len(x.Elems))
	for i, e := range x.Elems {
		switch e := e.(type) {
		case nil:
			elems[i].hole = true
		case *ast.Spread:
			elems[i] = elem{e: c.expr(e.X), spread: true}
		default:
			elems[i].e = c.expr(e)
		}
	}
	pos := x.Start
	return func(f *frame) value.Value {
		r := f.run.realm
		vals := make([]value.Value, 0, len(elems))
		for _, el := range elems {
			switch {
			case el.hole:
				vals = append(vals, value.Hole)
			case el.spread:
				v := el.e(f)
				f.run.pos = int(pos)
				vals = append(vals, r.IterateToSlice(v)...)
				if len(vals) > value.MaxArrayLength {
					r.ThrowRange(value.ArrayLengthMessage)
				}
			default:
				vals = append(vals, el.e(f))
			}
		}
		return value.Obj(r.NewArrayValue(vals))
	}
}

func (c *compiler) objectLit(x *ast.ObjectLit) exprFn {
	type prop struct {
		kind     ast.PropKind
		key      string
		computed exprFn
		val      exprFn
		proto    bool // __proto__: v
		mk       func(f *frame, home *value.Object, name string) value.Value
	}
	props := make([]prop, len(x.Props))
	for i, p := range x.Props {
		pr := prop{kind: p.Kind}
		if p.Kind != ast.PropSpread {
			if p.Computed {
				pr.computed = c.expr(p.Key)
			} else {
				pr.key = staticKey(p.Key)
			}
		}
		switch p.Kind {
		case ast.PropInit:
			if !p.Computed && !p.Shorthand && pr.key == "__proto__" {
				pr.proto = true
				pr.val = c.expr(p.Value)
			} else if p.Computed {
				pr.val = c.expr(p.Value)
				if fl, ok := p.Value.(*ast.FuncLit); ok && fl.Func.Name == nil {
					pr.mk = c.methodMaker(fl.Func)
				}
			} else {
				pr.val = c.namedExpr(p.Value, pr.key)
			}
		case ast.PropSpread:
			pr.val = c.expr(p.Value)
		default:
			pr.mk = c.methodMaker(p.Value.(*ast.FuncLit).Func)
		}
		props[i] = pr
	}
	return func(f *frame) value.Value {
		r := f.run.realm
		o := r.NewPlainObject()
		for _, p := range props {
			if p.kind == ast.PropSpread {
				jsops.CopyDataProperties(r, o, p.val(f), nil)
				continue
			}
			key := p.key
			if p.computed != nil {
				key = r.ToPropertyKey(p.computed(f))
			}
			switch p.kind {
			case ast.PropInit:
				if p.proto {
					v := p.val(f)
					if v.IsObject() {
						o.Proto = v.AsObject()
					} else if v.IsNull() {
						o.Proto = nil
					}
					continue
				}
				var v value.Value
				if p.mk != nil {
					v = p.mk(f, nil, keyName(key))
				} else {
					v = p.val(f)
				}
				r.DefineProperty(o, value.Property{Key: key, Value: v, Flags: value.DefaultFlags})
			case ast.PropMethod:
				r.DefineProperty(o, value.Property{Key: key, Value: p.mk(f, o, keyName(key)), Flags: value.DefaultFlags})
			case ast.PropGet, ast.PropSet:
				prefix := "get "
				if p.kind == ast.PropSet {
					prefix = "set "
				}
				fn := p.mk(f, o, prefix+keyName(key)).AsObject()
				cur, _ := r.GetOwnProperty(o, key)
				get, set := cur.Get, cur.Set
				if !cur.IsAccessor() {
					get, set = nil, nil
				}
				if p.kind == ast.PropGet {
					get = fn
				} else {
					set = fn
				}
				o.DefineAccessor(key, get, set, value.Enumerable|value.Configurable)
			}
		}
		return value.Obj(o)
	}
}

// keyName is the function name a property key gives: symbols in
// brackets.
func keyName(key string) string { return value.FunctionNameOfKey(key) }

// staticKey is the property key of a non-computed key node.
func staticKey(k ast.Expr) string {
	if key, ok := jsops.StaticKey(k); ok {
		return key
	}
	panic("interp: unexpected property key " + ast.Dump(k, nil))
}

func (c *compiler) unary(x *ast.Unary) exprFn {
	switch x.Op {
	case ast.OpTypeof:
		var arg exprFn
		if id, ok := x.X.(*ast.Ident); ok {
			arg = c.loadTypeof(id.Binding, id.Start)
		} else {
			arg = c.expr(x.X)
		}
		return func(f *frame) value.Value { return jsops.TypeOf(arg(f)) }
	case ast.OpDelete:
		return c.deleteExpr(x)
	}
	arg := c.expr(x.X)
	pos := x.Start
	switch x.Op {
	case ast.OpNot:
		return func(f *frame) value.Value { return value.Bool(!arg(f).ToBoolean()) }
	case ast.OpNeg:
		return func(f *frame) value.Value {
			v := arg(f)
			if v.IsNumber() {
				return value.Number(-v.Num())
			}
			f.run.pos = int(pos)
			return jsops.Negate(f.run.realm, v)
		}
	case ast.OpPos:
		return func(f *frame) value.Value {
			v := arg(f)
			if v.IsNumber() {
				return v
			}
			f.run.pos = int(pos)
			return value.Number(f.run.realm.ToNumber(v))
		}
	case ast.OpBitNot:
		return func(f *frame) value.Value { f.run.pos = int(pos); return jsops.BitNot(f.run.realm, arg(f)) }
	case ast.OpVoid:
		return func(f *frame) value.Value { arg(f); return value.Undefined }
	}
	panic("interp: unknown unary operator")
}

func (c *compiler) deleteExpr(x *ast.Unary) exprFn {
	pos := x.Start
	inner := x.X
	if ch, ok := inner.(*ast.Chain); ok {
		inner = ch.X
	}
	switch t := inner.(type) {
	case *ast.Member:
		if t.Private != nil {
			break
		}
		if s, ok := t.X.(*ast.Super); ok {
			return c.deleteSuper(s, nil, pos)
		}
		obj := c.memberObject(t.X)
		key := t.Prop.Name
		optional := t.Optional
		return func(f *frame) value.Value {
			o := obj(f)
			if o.IsHole() || optional && o.IsNullish() {
				return value.True
			}
			return deleteProp(f, o, key, pos)
		}
	case *ast.Index:
		if s, ok := t.X.(*ast.Super); ok {
			return c.deleteSuper(s, c.expr(t.Index), pos)
		}
		obj := c.memberObject(t.X)
		idx := c.expr(t.Index)
		optional := t.Optional
		return func(f *frame) value.Value {
			o := obj(f)
			if o.IsHole() || optional && o.IsNullish() {
				return value.True
			}
			k := f.run.realm.ToPropertyKey(idx(f))
			return deleteProp(f, o, k, pos)
		}
	}
	arg := c.expr(x.X)
	return func(f *frame) value.Value { arg(f); return value.True }
}

// deleteSuper compiles delete super.x and delete super[k]: the reference
// is evaluated (this, then the key, not converted), and deleting it is a
// ReferenceError.
func (c *compiler) deleteSuper(s *ast.Super, key exprFn, pos ast.Pos) exprFn {
	this := c.load(s.This, s.Start)
	return func(f *frame) value.Value {
		this(f)
		if key != nil {
			key(f)
		}
		f.run.pos = int(pos)
		f.run.realm.ThrowError(value.ReferenceError, "Unsupported reference to 'super'")
		return value.Undefined
	}
}

func deleteProp(f *frame, o value.Value, key string, pos ast.Pos) value.Value {
	f.run.pos = int(pos)
	return jsops.DeleteProperty(f.run.realm, o, key)
}

func (c *compiler) binary(x *ast.Binary) exprFn {
	l, rt := c.expr(x.X), c.expr(x.Y)
	pos := x.Start
	switch x.Op {
	case ast.OpAnd:
		return func(f *frame) value.Value {
			if v := l(f); !v.ToBoolean() {
				return v
			}
			return rt(f)
		}
	case ast.OpOr:
		return func(f *frame) value.Value {
			if v := l(f); v.ToBoolean() {
				return v
			}
			return rt(f)
		}
	case ast.OpNullish:
		return func(f *frame) value.Value {
			if v := l(f); !v.IsNullish() {
				return v
			}
			return rt(f)
		}
	case ast.OpAdd:
		return func(f *frame) value.Value {
			a, b := l(f), rt(f)
			if a.IsNumber() && b.IsNumber() {
				return value.Number(a.Num() + b.Num())
			}
			f.run.pos = int(pos)
			if a.IsObject() || b.IsObject() {
				f.run.realm.RequireData(a, b)
			}
			return f.run.realm.Add(a, b)
		}
	case ast.OpSub:
		return func(f *frame) value.Value {
			a, b := l(f), rt(f)
			if a.IsNumber() && b.IsNumber() {
				return value.Number(a.Num() - b.Num())
			}
			f.run.pos = int(pos)
			return jsops.Binary(f.run.realm, ast.OpSub, a, b)
		}
	case ast.OpMul:
		return func(f *frame) value.Value {
			a, b := l(f), rt(f)
			if a.IsNumber() && b.IsNumber() {
				return value.Number(a.Num() * b.Num())
			}
			f.run.pos = int(pos)
			return jsops.Binary(f.run.realm, ast.OpMul, a, b)
		}
	case ast.OpStrictEq:
		return func(f *frame) value.Value { return value.Bool(f.run.realm.StrictEquals(l(f), rt(f))) }
	case ast.OpStrictNe:
		return func(f *frame) value.Value { return value.Bool(!f.run.realm.StrictEquals(l(f), rt(f))) }
	case ast.OpLt:
		return func(f *frame) value.Value {
			a, b := l(f), rt(f)
			if a.IsNumber() && b.IsNumber() {
				return value.Bool(a.Num() < b.Num())
			}
			f.run.pos = int(pos)
			return jsops.Binary(f.run.realm, ast.OpLt, a, b)
		}
	}
	op := x.Op
	return func(f *frame) value.Value {
		a, b := l(f), rt(f)
		f.run.pos = int(pos)
		return jsops.Binary(f.run.realm, op, a, b)
	}
}

func (c *compiler) privateIn(x *ast.PrivateIn) exprFn {
	key := c.privateKey(x.Name)
	obj := c.expr(x.X)
	pos := x.Start
	return func(f *frame) value.Value {
		o := obj(f)
		oo := o.AsObject()
		if oo == nil {
			f.run.pos = int(pos)
			f.run.realm.ThrowType("Cannot use 'in' operator to search for '#%s' in %s", x.Name.Name, jsops.DescribeIn(f.run.realm, o))
		}
		return value.Bool(oo.GetOwn(key(f)) != nil)
	}
}
