package interp

import (
	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/internal/jsops"
	"github.com/go-codemode/codemode/value"
)

// Destructuring. bindTarget compiles a declaration's pattern (init:
// the bindings are being created), assignTarget an assignment's, whose
// leaves may also be member expressions.

func (c *compiler) bindTarget(p ast.Pattern, init bool) func(f *frame, v value.Value) {
	return c.pattern(p, func(leaf ast.Pattern) func(f *frame, v value.Value) {
		id := leaf.(*ast.Ident)
		return c.store(id.Binding, id.Start, init)
	})
}

func (c *compiler) assignTarget(p ast.Pattern) func(f *frame, v value.Value) {
	return c.pattern(p, func(leaf ast.Pattern) func(f *frame, v value.Value) {
		switch t := leaf.(type) {
		case *ast.Ident:
			return c.store(t.Binding, t.Start, false)
		case *ast.Member, *ast.Index:
			ref := c.reference(t.(ast.Expr))
			return func(f *frame, v value.Value) {
				o, k := ref.base(f)
				ref.set(f, o, k, v)
			}
		}
		panic("interp: invalid assignment target")
	})
}

// pattern compiles a pattern whose leaves are compiled by leaf.
func (c *compiler) pattern(p ast.Pattern, leaf func(ast.Pattern) func(f *frame, v value.Value)) func(f *frame, v value.Value) {
	defer c.nest(patternStackCost(p))()
	switch p := p.(type) {
	case *ast.AssignPattern:
		target := c.pattern(p.Target, leaf)
		dflt := c.namedExpr(p.Default, targetName(p.Target))
		return func(f *frame, v value.Value) {
			if v.IsUndefined() {
				v = dflt(f)
			}
			target(f, v)
		}
	case *ast.ArrayPattern:
		return c.arrayPattern(p, leaf)
	case *ast.ObjectPattern:
		return c.objectPattern(p, leaf)
	}
	return leaf(p)
}

// element is a compiled element of a destructuring pattern. When its
// target is a member expression (an assignment pattern's `[o.x] = ...`),
// ref evaluates that reference before the value is fetched, as the spec
// orders it, and put stores the value (after its default) through it;
// otherwise plain takes the value.
type element struct {
	plain func(f *frame, v value.Value)
	ref   func(f *frame) (obj, key value.Value)
	put   func(f *frame, obj, key, v value.Value)
}

// element compiles one element of a pattern.
func (c *compiler) element(p ast.Pattern, leaf func(ast.Pattern) func(f *frame, v value.Value)) element {
	target, dflt := p, ast.Expr(nil)
	if ap, ok := p.(*ast.AssignPattern); ok {
		target, dflt = ap.Target, ap.Default
	}
	switch target.(type) {
	case *ast.Member, *ast.Index:
		rf := c.reference(target.(ast.Expr))
		var dfltFn exprFn
		if dflt != nil {
			dfltFn = c.namedExpr(dflt, targetName(target))
		}
		return element{ref: rf.base, put: func(f *frame, o, k, v value.Value) {
			if dfltFn != nil && v.IsUndefined() {
				v = dfltFn(f)
			}
			rf.set(f, o, k, v)
		}}
	}
	return element{plain: c.pattern(p, leaf)}
}

// prepare evaluates the element's reference, if it has one.
func (e *element) prepare(f *frame) (obj, key value.Value) {
	if e.ref != nil {
		return e.ref(f)
	}
	return value.Undefined, value.Undefined
}

// store assigns the element's value, after prepare.
func (e *element) store(f *frame, obj, key, v value.Value) {
	if e.plain != nil {
		e.plain(f, v)
		return
	}
	e.put(f, obj, key, v)
}

func (c *compiler) arrayPattern(p *ast.ArrayPattern, leaf func(ast.Pattern) func(f *frame, v value.Value)) func(f *frame, v value.Value) {
	elems := make([]element, len(p.Elems))
	for i, e := range p.Elems {
		if e != nil {
			elems[i] = c.element(e, leaf)
		}
	}
	var rest element
	hasRest := p.Rest != nil
	if hasRest {
		rest = c.element(p.Rest, leaf)
	}
	pos := p.Start
	return func(f *frame, v value.Value) {
		r := f.run.realm
		f.run.pos = int(pos)
		if v.IsNullish() {
			r.ThrowType("%s is not iterable", v.TypeOfNullish())
		}
		it := r.GetIterator(v)
		// Guarded as forOf's loop is, for the same reason. A step that
		// throws leaves the iterator done, so it is not closed then.
		p := value.CatchPanic(func() {
			for i := range elems {
				e := &elems[i]
				o, k := e.prepare(f)
				// A target's reference may have noted its own position.
				f.run.pos = int(pos)
				x, ok := it.Step(r)
				if !ok {
					x = value.Undefined
				}
				if e.plain != nil || e.put != nil {
					e.store(f, o, k, x)
				}
			}
			if hasRest {
				o, k := rest.prepare(f)
				f.run.pos = int(pos)
				var tail []value.Value
				for {
					x, ok := it.Step(r)
					if !ok {
						break
					}
					tail = append(tail, x)
				}
				rest.store(f, o, k, value.Obj(r.NewArrayValue(tail)))
			}
		})
		if p != nil {
			if _, ok := p.(*value.Exception); ok {
				it.CloseQuietly(r)
			}
			panic(p)
		}
		if !it.Done {
			it.Close(r)
		}
	}
}

func (c *compiler) objectPattern(p *ast.ObjectPattern, leaf func(ast.Pattern) func(f *frame, v value.Value)) func(f *frame, v value.Value) {
	type prop struct {
		key      string
		computed exprFn
		target   element
	}
	props := make([]prop, len(p.Props))
	for i, pp := range p.Props {
		pr := prop{target: c.element(pp.Value, leaf)}
		if pp.Computed {
			pr.computed = c.expr(pp.Key)
		} else {
			pr.key = staticKey(pp.Key)
		}
		props[i] = pr
	}
	var rest element
	hasRest := p.Rest != nil
	if hasRest {
		rest = c.element(p.Rest, leaf)
	}
	pos := p.Start
	return func(f *frame, v value.Value) {
		r := f.run.realm
		if v.IsNullish() {
			f.run.pos = int(pos)
			if len(props) > 0 && props[0].computed == nil {
				r.ThrowType("Cannot destructure property '%s' of '%s' as it is %s.", value.KeyString(props[0].key), v.TypeOfNullish(), v.TypeOfNullish())
			}
			r.ThrowType("Cannot destructure '%s' as it is %s.", v.TypeOfNullish(), v.TypeOfNullish())
		}
		var used map[string]bool
		if hasRest {
			used = map[string]bool{}
		}
		for i := range props {
			pr := &props[i]
			key := pr.key
			if pr.computed != nil {
				key = r.ToPropertyKey(pr.computed(f))
			}
			if used != nil {
				used[key] = true
			}
			o, k := pr.target.prepare(f)
			f.run.pos = int(pos)
			pr.target.store(f, o, k, r.Get(v, key))
		}
		if hasRest {
			ro, rk := rest.prepare(f)
			o := r.NewPlainObject()
			jsops.CopyDataProperties(r, o, v, used)
			rest.store(f, ro, rk, value.Obj(o))
		}
	}
}
