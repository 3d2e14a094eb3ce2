package interp

import (
	"github.com/go-codemode/codemode/ast"
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

func (c *compiler) arrayPattern(p *ast.ArrayPattern, leaf func(ast.Pattern) func(f *frame, v value.Value)) func(f *frame, v value.Value) {
	elems := make([]func(f *frame, v value.Value), len(p.Elems))
	for i, e := range p.Elems {
		if e != nil {
			elems[i] = c.pattern(e, leaf)
		}
	}
	var rest func(f *frame, v value.Value)
	if p.Rest != nil {
		rest = c.pattern(p.Rest, leaf)
	}
	pos := p.Start
	return func(f *frame, v value.Value) {
		r := f.run.realm
		f.run.pos = int(pos)
		if v.IsNullish() {
			r.ThrowType("%s is not iterable", v.TypeOfNullish())
		}
		it := r.GetIterator(v)
		// Guarded as forOf's loop is, for the same reason.
		p := value.CatchPanic(func() {
			for _, e := range elems {
				x, ok := it.Step(r)
				if !ok {
					x = value.Undefined
				}
				if e != nil {
					e(f, x)
				}
			}
			if rest != nil {
				var tail []value.Value
				for {
					x, ok := it.Step(r)
					if !ok {
						break
					}
					tail = append(tail, x)
				}
				rest(f, value.Obj(r.NewArrayValue(tail)))
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
		target   func(f *frame, v value.Value)
	}
	props := make([]prop, len(p.Props))
	for i, pp := range p.Props {
		pr := prop{target: c.pattern(pp.Value, leaf)}
		if pp.Computed {
			pr.computed = c.expr(pp.Key)
		} else {
			pr.key = staticKey(pp.Key)
		}
		props[i] = pr
	}
	var rest func(f *frame, v value.Value)
	if p.Rest != nil {
		rest = c.pattern(p.Rest, leaf)
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
		if rest != nil {
			used = map[string]bool{}
		}
		for _, pr := range props {
			key := pr.key
			if pr.computed != nil {
				key = r.ToPropertyKey(pr.computed(f))
			}
			if used != nil {
				used[key] = true
			}
			f.run.pos = int(pos)
			pr.target(f, r.Get(v, key))
		}
		if rest != nil {
			o := r.NewPlainObject()
			copyDataProperties(r, o, v, used)
			rest(f, value.Obj(o))
		}
	}
}
