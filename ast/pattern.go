package ast

// Patterns: destructuring targets. Declarations and parameters parse them
// directly (parseBindingTarget); assignments and arrow parameters first
// parse an expression and convert it (toAssignable), the cover grammar.

import (
	"github.com/tdewolff/parse/v2/js"
)

// ---------------------------------------------------------------------------
// Cover grammar: expressions that turn out to be patterns

// toAssignable converts an expression that turned out to be the target of
// = (or, with binding set, a parameter) into a pattern, or fails with the
// reason it cannot be one.
func (p *parser) toAssignable(x Expr, binding bool, ref *coverErrors) Pattern {
	return p.toAssignableIn(x, binding, ref, false)
}

// toAssignableIn is toAssignable; nested is true inside a pattern, where
// the error names destructuring.
func (p *parser) toAssignableIn(x Expr, binding bool, ref *coverErrors, nested bool) Pattern {
	if binding && p.isParen(x) {
		p.failAt(x.Pos(), "Invalid destructuring assignment target")
	}
	switch t := x.(type) {
	case *Ident:
		p.checkBindableName(t)
		return t
	case *Member, *Index:
		if binding {
			p.failAt(x.Pos(), "Invalid destructuring assignment target")
		}
		return t.(Pattern)
	case *ObjectLit:
		if p.isParen(x) {
			p.failAt(x.Pos(), "Invalid destructuring assignment target")
		}
		pat := &ObjectPattern{At: At{t.Start}}
		for i, prop := range t.Props {
			switch prop.Kind {
			case PropSpread:
				if i != len(t.Props)-1 {
					p.failAt(prop.Start, "Rest element must be last element")
				}
				rest := p.toAssignableIn(prop.Value, binding, ref, true)
				switch rest.(type) {
				case *ObjectPattern, *ArrayPattern, *AssignPattern:
					p.failAt(prop.Value.Pos(), "`...` must be followed by an assignable reference in assignment contexts")
				}
				pat.Rest = rest
			case PropInit:
				pat.Props = append(pat.Props, alloc(&p.a.patProps, PatternProp{At: At{prop.Start}, Key: prop.Key, Computed: prop.Computed,
					Shorthand: prop.Shorthand, Value: p.toAssignableIn(prop.Value, binding, ref, true)}))
			default:
				p.failAt(prop.Start, "Invalid destructuring assignment target")
			}
		}
		p.checkPatternErrors(ref)
		return pat
	case *ArrayLit:
		if p.isParen(x) {
			p.failAt(x.Pos(), "Invalid destructuring assignment target")
		}
		pat := &ArrayPattern{At: At{t.Start}}
		for i, el := range t.Elems {
			if sp, ok := el.(*Spread); ok {
				if i != len(t.Elems)-1 {
					p.failAt(sp.Start, "Rest element must be last element")
				}
				rest := p.toAssignableIn(sp.X, binding, ref, true)
				if _, ok := rest.(*AssignPattern); ok {
					p.failAt(sp.X.Pos(), "Invalid destructuring assignment target")
				}
				pat.Rest = rest
				continue
			}
			if el == nil {
				pat.Elems = append(pat.Elems, nil)
				continue
			}
			pat.Elems = append(pat.Elems, p.toAssignableIn(el, binding, ref, true))
		}
		p.checkPatternErrors(ref)
		return pat
	case *Assign:
		if t.Op != OpAssign || p.isParen(x) {
			p.failAt(x.Pos(), "Invalid destructuring assignment target")
		}
		if id, ok := t.Target.(*Ident); ok {
			p.checkBindableName(id)
		}
		if binding {
			p.checkBindingPattern(t.Target)
		}
		return alloc(&p.a.assignPats, AssignPattern{At: At{t.Start}, Target: t.Target, Default: t.Value})
	}
	if nested {
		p.failAt(x.Pos(), "Invalid destructuring assignment target")
	}
	p.failAt(x.Pos(), "Invalid left-hand side in assignment")
	return nil
}

// checkBindingPattern fails if an assignment pattern holds something a
// declaration cannot bind (a property access).
func (p *parser) checkBindingPattern(pat Pattern) {
	if x, ok := pat.(Expr); ok && p.isParen(x) {
		p.failAt(pat.Pos(), "Invalid destructuring assignment target")
	}
	switch t := pat.(type) {
	case *Ident:
		p.checkBindableName(t)
	case *Member, *Index:
		p.failAt(pat.Pos(), "Invalid destructuring assignment target")
	case *ArrayPattern:
		for _, el := range t.Elems {
			if el != nil {
				p.checkBindingPattern(el)
			}
		}
		if t.Rest != nil {
			p.checkBindingPattern(t.Rest)
		}
	case *ObjectPattern:
		for _, prop := range t.Props {
			p.checkBindingPattern(prop.Value)
		}
		if t.Rest != nil {
			p.checkBindingPattern(t.Rest)
		}
	case *AssignPattern:
		p.checkBindingPattern(t.Target)
	}
}

// ---------------------------------------------------------------------------
// Binding patterns, parsed directly in declarations and parameters

func (p *parser) parseBindingTarget() Pattern {
	p.enter()
	defer p.leave()
	switch p.tt {
	case js.OpenBracketToken:
		return p.parseArrayBinding()
	case js.OpenBraceToken:
		return p.parseObjectBinding()
	}
	return p.parseBindingIdent()
}

// parseBindingElement parses a binding target with an optional default.
func (p *parser) parseBindingElement() Pattern {
	start := p.pos
	target := p.parseBindingTarget()
	if p.tt == js.QuestionToken {
		if b, _ := p.peekByte(); b == ':' || b == ',' || b == ')' {
			if !p.ts {
				p.failTS(p.pos, "optional parameter")
			}
			p.next()
		}
	}
	if p.tt == js.ColonToken {
		if !p.ts {
			p.failTS(p.pos, "type annotation")
		}
		p.next()
		p.parseType()
	}
	if p.eat(js.EqToken) {
		return alloc(&p.a.assignPats, AssignPattern{At: At{start}, Target: target, Default: p.parseAssign(false, nil)})
	}
	return target
}

func (p *parser) parseArrayBinding() Pattern {
	pat := &ArrayPattern{At: At{p.pos}}
	p.next()
	for p.tt != js.CloseBracketToken {
		switch p.tt {
		case js.CommaToken:
			pat.Elems = append(pat.Elems, nil)
			p.next()
			continue
		case js.EllipsisToken:
			p.next()
			pat.Rest = p.parseBindingTarget()
			if p.tt == js.CommaToken {
				p.failAt(p.pos, "Rest element must be last element")
			}
			if p.tt == js.EqToken {
				p.failAt(p.pos, "Invalid destructuring assignment target")
			}
			p.expect(js.CloseBracketToken)
			return pat
		}
		pat.Elems = append(pat.Elems, p.parseBindingElement())
		if p.tt != js.CloseBracketToken {
			p.expect(js.CommaToken)
		}
	}
	p.next()
	return pat
}

func (p *parser) parseObjectBinding() Pattern {
	pat := &ObjectPattern{At: At{p.pos}}
	p.next()
	for p.tt != js.CloseBraceToken {
		if p.tt == js.EllipsisToken {
			p.next()
			pat.Rest = p.parseBindingIdent()
			if p.tt == js.CommaToken {
				p.failAt(p.pos, "Rest element must be last element")
			}
			p.expect(js.CloseBraceToken)
			return pat
		}
		start := p.pos
		keyTT := p.tt
		key, computed := p.parsePropertyKey()
		if _, ok := key.(*PrivateName); ok {
			p.failAt(start, "Unexpected private name")
		}
		prop := alloc(&p.a.patProps, PatternProp{At: At{start}, Key: key, Computed: computed})
		if p.eat(js.ColonToken) {
			prop.Value = p.parseBindingElement()
		} else {
			if computed || !js.IsIdentifier(keyTT) {
				switch keyTT {
				case js.AwaitToken:
					p.failAt(start, "'await' is only valid in async functions and at the top level of the program.")
				case js.YieldToken:
					p.failAt(start, "'yield' is only valid in generator functions.")
				}
				p.failAt(start, "Unexpected token '%s'", p.src.Text[int(start):int(start)+1])
			}
			if keyTT == js.LetToken {
				p.failAt(start, "let is disallowed as a lexically bound name")
			}
			if isStrictReserved(keyTT) {
				p.failAt(start, "Unexpected strict mode reserved word '%s'", key.(*Name).Name)
			}
			id := alloc(&p.a.idents, Ident{At: At{start}, Name: key.(*Name).Name})
			p.checkEscapedKeyword(start, id.Name)
			p.checkBindableName(id)
			prop.Shorthand = true
			prop.Value = id
			if p.eat(js.EqToken) {
				prop.Value = alloc(&p.a.assignPats, AssignPattern{At: At{start}, Target: id, Default: p.parseAssign(false, nil)})
			}
		}
		pat.Props = append(pat.Props, prop)
		if p.tt != js.CloseBraceToken {
			p.expect(js.CommaToken)
		}
	}
	p.next()
	return pat
}

// isParen reports whether x was written in parentheses.
func (p *parser) isParen(x Expr) bool { return len(p.parens) > 0 && p.parens[x] }

// isSimpleTarget reports a variable or property reference.
func isSimpleTarget(x Expr) bool {
	switch x.(type) {
	case *Ident, *Member, *Index:
		return true
	}
	return false
}
