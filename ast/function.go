package ast

import (
	"github.com/tdewolff/parse/v2/js"
)

// parseFunctionDecl parses `function name(...) {...}` (the async keyword,
// if any, is already consumed; start is where the declaration began).
func (p *parser) parseFunctionDecl(async bool, start Pos) Stmt {
	p.next() // function
	gen := p.eat(js.MulToken)
	if !p.isIdentToken() && p.tt != js.AwaitToken && p.tt != js.YieldToken {
		if p.tt == js.OpenParenToken {
			p.failAt(p.pos, "Function statements require a function name")
		}
		p.checkIdentToken()
	}
	name := p.parseBindingIdent()
	p.bodiless = p.ts
	fn := p.parseFunctionRest(start, FuncNormal, name, async, gen, false)
	if fn.Body == nil {
		// An overload signature (or a declare function): erased. An
		// overload must come right before its implementation, as
		// TypeScript requires; alone, erasing it would leave a call to
		// a function that does not exist.
		p.semicolon()
		if !p.ambient && !p.implementationFollows(name.Name) {
			p.failAt(start, "Function implementation is missing or not immediately following the declaration: an overload signature of %s needs `function %s(...) { ... }` right after it.", name.Name, name.Name)
		}
		return nil
	}
	return alloc(&p.a.funcDecls, FuncDecl{At: At{start}, Func: fn})
}

// implementationFollows reports whether the next statement declares the
// function name (an overload's implementation, or another overload).
func (p *parser) implementationFollows(name string) bool {
	return p.lookahead(func() bool {
		if p.tt == js.ExportToken && p.unit == unitJS {
			p.next() // export function f(a: T): U; export function f(a) {}
		}
		if p.tt == js.AsyncToken {
			p.next()
		}
		if p.tt != js.FunctionToken {
			return false
		}
		p.next()
		p.eat(js.MulToken)
		return p.isIdentToken() && string(p.lit) == name
	})
}

func (p *parser) parseFunctionExpr(async bool, start Pos) Expr {
	p.next() // function
	gen := p.eat(js.MulToken)
	var name *Ident
	if p.tt != js.OpenParenToken && !(p.ts && p.tt == js.LtToken) {
		// The name of a function expression is bound inside it, so await
		// and yield follow the function's own kind.
		if p.tt == js.AwaitToken && async || p.tt == js.YieldToken && gen {
			p.checkIdentToken()
		}
		if p.tt == js.AwaitToken && !async || p.tt == js.YieldToken && !gen {
			p.failAt(p.pos, "Unexpected reserved word '%s'", p.lit)
		}
		name = p.parseBindingIdent()
	}
	fn := p.parseFunctionRest(start, FuncNormal, name, async, gen, false)
	return alloc(&p.a.funcLits, FuncLit{At: At{start}, Func: fn})
}

// parseMethod parses the parameters and body of an object or class method.
func (p *parser) parseMethod(start Pos, kind FuncKind, async, gen, superCall bool) *Function {
	fn := p.parseFunctionRest(start, kind, nil, async, gen, superCall)
	switch kind {
	case FuncGetter:
		if len(fn.Params) != 0 || fn.Rest != nil {
			p.failAt(fn.Start, "Getter must not have any formal parameters.")
		}
	case FuncSetter:
		if len(fn.Params) != 1 || fn.Rest != nil {
			p.failAt(fn.Start, "Setter must have exactly one formal parameter.")
		}
	}
	return fn
}

// parseFunctionRest parses (params) { body } in a new function context.
func (p *parser) parseFunctionRest(start Pos, kind FuncKind, name *Ident, async, gen, superCall bool) *Function {
	p.enter()
	defer p.leave()
	saved := p.fn
	fc := p.pushFunc(kind, async, gen)
	fc.superCall = superCall
	defer p.popFunc(saved)
	fn := alloc(&p.a.functions, Function{At: At{start}, Kind: kind, Name: name, Async: async, Generator: gen, Strict: true})
	bodiless := p.bodiless || p.ambient
	p.bodiless = false
	if p.tt == js.LtToken {
		if !p.ts {
			p.failTS(p.pos, "generic type parameters")
		}
		p.parseTypeParams()
	}
	outerAwait, outerYield := p.awaitPos, p.yieldPos
	defer func() { p.awaitPos, p.yieldPos = outerAwait, outerYield }()
	p.awaitPos, p.yieldPos = -1, -1
	fn.Params, fn.Rest = p.parseParams()
	p.checkParamExpressions()
	fn.SimpleParams = simpleParams(fn.Params, fn.Rest)
	if p.tt == js.ColonToken {
		if !p.ts {
			p.failTS(p.pos, "return type annotation")
		}
		p.next()
		p.parseReturnType()
	}
	if bodiless && p.tt != js.OpenBraceToken {
		return fn
	}
	fn.Body = p.parseBlock()
	p.checkUseStrict(fn)
	return fn
}

// checkParamExpressions fails if parameters just parsed held await or
// yield expressions, which parameter lists may not.
func (p *parser) checkParamExpressions() {
	if p.awaitPos >= 0 {
		p.failAt(p.awaitPos, "Illegal await-expression in formal parameters of async function")
	}
	if p.yieldPos >= 0 {
		p.failAt(p.yieldPos, "Yield expression not allowed in formal parameter")
	}
}

// checkUseStrict rejects a "use strict" directive in a function whose
// parameters are not simple.
func (p *parser) checkUseStrict(fn *Function) {
	if fn.SimpleParams || fn.Body == nil {
		return
	}
	for _, s := range fn.Body.Body {
		es, ok := s.(*ExprStmt)
		if !ok {
			return
		}
		lit, ok := es.X.(*StringLit)
		if !ok || p.isParen(es.X) {
			return
		}
		if lit.Raw[1:len(lit.Raw)-1] == "use strict" {
			p.failAt(lit.Start, "Illegal 'use strict' directive in function with non-simple parameter list")
		}
	}
}

func simpleParams(params []Pattern, rest Pattern) bool {
	if rest != nil {
		return false
	}
	for _, prm := range params {
		if _, ok := prm.(*Ident); !ok {
			return false
		}
	}
	return true
}

func (p *parser) parseParams() ([]Pattern, Pattern) {
	p.expect(js.OpenParenToken)
	m := p.a.patterns.mark()
	var rest Pattern
	for p.tt != js.CloseParenToken {
		if p.tt == js.EllipsisToken {
			start := p.pos
			p.next()
			rest = p.parseBindingTarget()
			if p.tt == js.ColonToken {
				if !p.ts {
					p.failTS(p.pos, "type annotation")
				}
				p.next()
				p.parseType()
			}
			if p.tt == js.EqToken {
				p.failAt(start, "Rest parameter may not have a default initializer")
			}
			if p.tt != js.CloseParenToken {
				p.failAt(start, "Rest parameter must be last formal parameter")
			}
			break
		}
		if p.tt == js.ThisToken {
			if !p.ts {
				p.failTS(p.pos, "this parameter")
			}
			if p.a.patterns.mark() == m && p.thisParam() {
				continue
			}
		}
		if p.ts {
			if p.isParamModifier() {
				if !p.ambient {
					p.failAt(p.pos, tsParamPropertyMessage)
				}
				p.skipParamModifiers()
			}
		} else if p.tt == js.PublicToken || p.tt == js.PrivateToken || p.tt == js.ProtectedToken || string(p.lit) == "readonly" {
			if i, nl := p.peekRaw(); !nl && i < len(p.buf) && isIdentStartByte(p.buf[i]) {
				p.failTS(p.pos, "parameter property")
			}
		}
		p.a.patterns.push(p.parseBindingElement())
		if p.tt != js.CloseParenToken {
			p.expect(js.CommaToken)
		}
	}
	p.next()
	return p.a.patterns.finish(m), rest
}

// parseArrowBody parses what follows => once the parameters are known.
func (p *parser) parseArrowBody(start Pos, params []Pattern, rest Pattern, async bool) Expr {
	saved := p.fn
	p.pushFunc(FuncArrow, async, false)
	defer p.popFunc(saved)
	p.next() // =>
	fn := alloc(&p.a.functions, Function{At: At{start}, Kind: FuncArrow, Async: async, Params: params, Rest: rest, Strict: true})
	fn.SimpleParams = simpleParams(params, rest)
	outerAwait, outerYield := p.awaitPos, p.yieldPos
	if p.tt == js.OpenBraceToken {
		fn.Body = p.parseBlock()
		p.checkUseStrict(fn)
	} else {
		fn.ExprBody = p.parseAssign(false, nil)
	}
	p.awaitPos, p.yieldPos = outerAwait, outerYield
	return alloc(&p.a.funcLits, FuncLit{At: At{start}, Func: fn})
}

// ---------------------------------------------------------------------------
// Classes

func (p *parser) parseClassDecl() Stmt {
	start := p.pos
	c := p.parseClass(true)
	return &ClassDecl{At: At{start}, Class: c}
}

func (p *parser) parseClass(isDecl bool) *Class {
	p.enter()
	defer p.leave()
	c := &Class{At: At{p.pos}}
	p.next() // class
	if p.tt != js.OpenBraceToken && p.tt != js.ExtendsToken && !(p.ts && (p.tt == js.LtToken || p.tt == js.ImplementsToken)) {
		c.Name = p.parseBindingIdent()
	} else if isDecl {
		p.failAt(p.pos, "A class declaration requires a name")
	}
	if p.tt == js.LtToken {
		if !p.ts {
			p.failTS(p.pos, "generic type parameters")
		}
		p.parseTypeParams()
	}
	if p.eat(js.ExtendsToken) {
		c.Extends = p.parseLHS(nil)
		if p.ts && p.tt == js.LtToken {
			p.parseTypeArgs() // class A extends B<T> {}
		}
	}
	if p.tt == js.ImplementsToken {
		if !p.ts {
			p.failTS(p.pos, "implements clause")
		}
		p.next()
		p.parseHeritageTypes()
	}
	p.expect(js.OpenBraceToken)
	p.classes = append(p.classes, &privateScope{declared: map[string]bool{}})
	privKinds := map[string]string{}
	sawCtor := false
	for p.tt != js.CloseBraceToken {
		if p.eat(js.SemicolonToken) {
			continue
		}
		if p.tt == eofToken {
			p.unexpected()
		}
		m := p.parseClassMember(c.Extends != nil)
		if m == nil {
			continue // erased: an overload, an index signature, a declare field
		}
		if m.Kind == MemberConstructor {
			if sawCtor {
				p.failAt(m.Start, "A class may only have one constructor")
			}
			sawCtor = true
		}
		if priv, ok := m.Key.(*PrivateName); ok {
			p.declarePrivate(priv, m, privKinds)
		}
		c.Members = append(c.Members, m)
	}
	p.next()
	p.popPrivateScope()
	return c
}

// classModifier reports whether the current static, async, get or set word
// modifies the class element that follows instead of naming it.
func (p *parser) classModifier() bool {
	b, nl := p.peekByte()
	switch b {
	case '(', '=', ';', '}', 0:
		return false
	}
	// A line break after async ends a field named async; after get, set
	// and static the element continues, unless a generator method follows
	// (get<newline>*m() {} is a field named get, then the method).
	return !(nl && (p.tt == js.AsyncToken || b == '*' && (p.tt == js.GetToken || p.tt == js.SetToken)))
}

func (p *parser) parseClassMember(derived bool) *ClassMember {
	start := p.pos
	m := &ClassMember{At: At{start}}
	if p.tt == js.StaticToken && p.classModifier() {
		p.next()
		m.Static = true
		if p.tt == js.OpenBraceToken {
			saved := p.fn
			p.pushFunc(FuncClassInit, false, false)
			body := p.parseBlock()
			p.popFunc(saved)
			m.Kind = MemberStaticBlock
			m.Value = alloc(&p.a.functions, Function{At: At{start}, Kind: FuncClassInit, Body: body, Strict: true, SimpleParams: true})
			return m
		}
	}
	var erase bool // declare and abstract members have no run-time meaning
	if p.ts {
		var static bool
		erase, static = p.parseClassModifiers(m.Static)
		if static && !m.Static {
			m.Static = true
			if p.tt == js.OpenBraceToken {
				p.unexpected()
			}
		}
		if p.tt == js.OpenBracketToken && p.lookahead(p.startsIndexSignature) {
			p.parseIndexSignature()
			p.semicolon()
			return nil
		}
	} else {
		switch string(p.lit) {
		case "public", "private", "protected", "readonly", "abstract", "declare", "override":
			if i, nl := p.peekRaw(); !nl && i < len(p.buf) && (isIdentStartByte(p.buf[i]) || p.buf[i] == '#' || p.buf[i] == '[') {
				p.failTS(p.pos, "access modifier")
			}
		}
	}
	fkind, async, gen := p.parseMethodHead((p.tt == js.AsyncToken || p.tt == js.GetToken || p.tt == js.SetToken) && p.classModifier())
	kind := MemberMethod
	switch fkind {
	case FuncGetter:
		kind = MemberGetter
	case FuncSetter:
		kind = MemberSetter
	}
	keyStart := p.pos
	m.Key, m.Computed = p.parsePropertyKey()
	name := ""
	if !m.Computed {
		name = propKeyName(m.Key)
	}
	if priv, ok := m.Key.(*PrivateName); ok && priv.Name == "constructor" {
		p.failAt(keyStart, "Classes may not have a private field named '#constructor'")
	}
	optional := false
	if p.ts && p.tt == js.QuestionToken {
		p.next() // an optional method or field: m?() {}, x?: T
		optional = true
	}
	if p.tt == js.OpenParenToken || p.tt == js.LtToken && p.ts || async || gen || kind != MemberMethod {
		isCtor := !m.Static && name == "constructor"
		if isCtor {
			switch {
			case kind != MemberMethod:
				p.failAt(keyStart, "Class constructor may not be an accessor")
			case async:
				p.failAt(keyStart, "Class constructor may not be an async method")
			case gen:
				p.failAt(keyStart, "Class constructor may not be a generator")
			}
			kind, fkind = MemberConstructor, FuncConstructor
		}
		if m.Static && name == "prototype" {
			p.failAt(keyStart, "Classes may not have a static property named 'prototype'")
		}
		m.Kind = kind
		// An overload signature or an abstract method has no body.
		p.bodiless = p.ts
		m.Value = p.parseMethod(start, fkind, async, gen, isCtor && derived)
		if m.Value.Body == nil {
			p.semicolon()
			return nil // an overload signature or an abstract method
		}
		if erase {
			p.failAt(start, "A method with a body cannot be abstract or declare; remove the modifier")
		}
		if isCtor {
			m.Value.Derived = derived
		}
		return m
	}
	// A field.
	m.Kind = MemberField
	if p.ts {
		if !optional && p.tt == js.NotToken && !p.nl {
			p.next() // definite assignment: x!: T
			if p.tt != js.ColonToken {
				p.unexpected()
			}
		}
		if p.eat(js.ColonToken) {
			p.parseType()
		}
	} else if p.tt == js.ColonToken || p.tt == js.QuestionToken || p.tt == js.NotToken && !p.nl {
		p.failTS(p.pos, "type annotation")
	}
	if name == "constructor" {
		p.failAt(keyStart, "Classes may not have a field named 'constructor'")
	}
	if m.Static && name == "prototype" {
		p.failAt(keyStart, "Classes may not have a static property named 'prototype'")
	}
	if p.tt == js.EqToken {
		initStart := p.pos
		p.next()
		saved := p.fn
		p.pushFunc(FuncClassInit, false, false)
		x := p.parseAssign(false, nil)
		p.popFunc(saved)
		m.Value = alloc(&p.a.functions, Function{At: At{initStart}, Kind: FuncClassInit, ExprBody: x, Strict: true, SimpleParams: true})
	}
	p.semicolon()
	if erase {
		return nil // declare x: T, abstract x: T
	}
	return m
}

// declarePrivate records a private name a class declares. A getter and a
// setter may share a name; nothing else may.
func (p *parser) declarePrivate(name *PrivateName, m *ClassMember, kinds map[string]string) {
	kind := "other"
	switch m.Kind {
	case MemberGetter:
		kind = "get"
	case MemberSetter:
		kind = "set"
	}
	if m.Static {
		kind = "static " + kind
	}
	if prev, ok := kinds[name.Name]; ok {
		pair := prev == "get" && kind == "set" || prev == "set" && kind == "get" ||
			prev == "static get" && kind == "static set" || prev == "static set" && kind == "static get"
		if !pair {
			p.failAt(name.Start, "Identifier '#%s' has already been declared", name.Name)
		}
		kinds[name.Name] = "done"
		return
	}
	kinds[name.Name] = kind
	p.classes[len(p.classes)-1].declared[name.Name] = true
}

// usePrivate records a use of a private name, checked when its class ends.
func (p *parser) usePrivate(name *PrivateName) {
	if len(p.classes) == 0 {
		p.failAt(name.Start, "Private field '#%s' must be declared in an enclosing class", name.Name)
	}
	cls := p.classes[len(p.classes)-1]
	cls.used = append(cls.used, name)
}

// popPrivateScope ends a class body: uses it does not declare belong to
// the enclosing class, or are errors at the outermost one.
func (p *parser) popPrivateScope() {
	cls := p.classes[len(p.classes)-1]
	p.classes = p.classes[:len(p.classes)-1]
	for _, u := range cls.used {
		if cls.declared[u.Name] {
			continue
		}
		if len(p.classes) == 0 {
			p.failAt(u.Start, "Private field '#%s' must be declared in an enclosing class", u.Name)
		}
		outer := p.classes[len(p.classes)-1]
		outer.used = append(outer.used, u)
	}
}
