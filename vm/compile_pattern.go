package vm

import "github.com/go-codemode/codemode/ast"

// Destructuring. A pattern consumes the value on top of the operand
// stack. Leaves are names (stored as declarations when init is set) or,
// in assignments, member targets, whose base is evaluated before the
// value is read, as engine "ast" does (interp/pattern.go).

// patternMode says what a pattern's leaves are.
type patternMode uint8

const (
	bindDecl   patternMode = iota // a let, const, parameter or catch binding: ends the TDZ
	bindVar                       // a var binding
	bindAssign                    // an assignment target: names and members
)

// pattern binds the value on the stack to p.
func (c *compiler) pattern(p ast.Pattern, mode patternMode) {
	switch p := p.(type) {
	case *ast.AssignPattern:
		c.orDefault(p.Default, p.Target)
		c.pattern(p.Target, mode)
	case *ast.ArrayPattern:
		c.arrayPattern(p, mode)
	case *ast.ObjectPattern:
		c.objectPattern(p, mode)
	case *ast.Ident:
		c.at(p.Start)
		c.store(p.Binding, mode == bindDecl)
	case *ast.Member, *ast.Index:
		if mode != bindAssign {
			c.fail("this binding", p.Pos())
		}
		t := c.temp()
		c.emit1(SETLOCAL, t)
		k := c.reference(p)
		c.emit1(LOCAL, t)
		c.void = true
		c.refSet(p, k)
		c.freeTemp()
	default:
		c.fail("this pattern", p.Pos())
	}
}

// orDefault replaces an undefined value on the stack by dflt.
func (c *compiler) orDefault(dflt ast.Expr, target ast.Pattern) {
	c.emit(DUP)
	c.emit(UNDEFINED)
	c.emit(SEQ)
	skip := c.jump(JMPFALSE)
	c.emit(POP)
	name := ""
	if id, ok := target.(*ast.Ident); ok {
		name = id.Name
	}
	c.namedExpr(dflt, name)
	c.patchHere(skip)
}

// element binds one element of an array or object pattern, whose value
// get pushes. A member target's base comes first.
func (c *compiler) element(e ast.Pattern, mode patternMode, get func()) {
	target, dflt := e, ast.Expr(nil)
	if ap, ok := e.(*ast.AssignPattern); ok {
		target, dflt = ap.Target, ap.Default
	}
	switch target.(type) {
	case *ast.Member, *ast.Index:
		if mode != bindAssign {
			c.fail("this binding", target.Pos())
		}
		k := c.reference(target)
		get()
		if dflt != nil {
			c.orDefault(dflt, target)
		}
		c.void = true
		c.refSet(target, k)
		return
	}
	get()
	c.pattern(e, mode)
}

func (c *compiler) arrayPattern(p *ast.ArrayPattern, mode patternMode) {
	c.at(p.Start)
	c.emit(ARRAYITER)
	it := c.temp()
	c.emit1(SETLOCAL, it)
	fin := c.jump(TRYFINALLY)
	c.fn.hdepth++
	next := func() {
		c.at(p.Start)
		c.emit1(ITERVALUE, it)
	}
	for _, e := range p.Elems {
		if e == nil {
			next()
			c.emit(POP)
			continue
		}
		c.element(e, mode, next)
	}
	if p.Rest != nil {
		c.element(p.Rest, mode, func() {
			c.at(p.Start)
			c.emit1(ITERREST, it)
		})
	}
	c.emit(POPHANDLER)
	c.fn.hdepth--
	c.emit(NORMAL)
	c.patchHere(fin)
	c.emit1(ITERCLOSE, it)
	c.emit(ENDFINALLY)
	c.freeTemp()
}

func (c *compiler) objectPattern(p *ast.ObjectPattern, mode patternMode) {
	first := 0 // the first key, when static, names the property in the nullish error
	if len(p.Props) > 0 && !p.Props[0].Computed {
		first = c.str(staticKey(p.Props[0].Key)) + 1
	}
	c.at(p.Start)
	c.emit1(OBJCHECK, first)
	v := c.temp()
	c.emit1(SETLOCAL, v)
	used := -1
	if p.Rest != nil {
		c.emit1(MAKEARRAY, 0)
		used = c.temp()
		c.emit1(SETLOCAL, used)
	}
	for _, pp := range p.Props {
		if !pp.Computed {
			key := c.str(staticKey(pp.Key))
			if used >= 0 {
				c.emit1(LOCAL, used)
				c.emit1(CONSTANT, key)
				c.emit(APPEND)
				c.emit(POP)
			}
			c.element(pp.Value, mode, func() {
				c.emit1(LOCAL, v)
				c.at(p.Start)
				c.emit1(GETPROP, key)
			})
			continue
		}
		c.emit1(LOCAL, v)
		c.expr(pp.Key)
		c.at(p.Start)
		c.emit(TOPROPKEY)
		c.emit(SWAP)
		c.emit(POP)
		k := c.temp()
		c.emit1(SETLOCAL, k)
		if used >= 0 {
			c.emit1(LOCAL, used)
			c.emit1(LOCAL, k)
			c.emit(APPEND)
			c.emit(POP)
		}
		c.element(pp.Value, mode, func() {
			c.emit1(LOCAL, v)
			c.emit1(LOCAL, k)
			c.at(p.Start)
			c.emit(GETINDEX)
		})
		c.freeTemp()
	}
	if p.Rest != nil {
		c.element(p.Rest, mode, func() {
			c.emit1(LOCAL, v)
			c.emit1(LOCAL, used)
			c.emit(OBJREST)
		})
		c.freeTemp()
	}
	c.freeTemp()
}
