package ast

import (
	"strings"

	"github.com/tdewolff/parse/v2/js"
)

// parseProgramBody parses the whole input as the body of the program's
// async function, or of a module's function (see module.go).
func (p *parser) parseProgramBody() *Function {
	fn := alloc(&p.a.functions, Function{At: At{Pos(p.base)}, Kind: FuncProgram, Async: p.unit != unitCJS, Strict: true, SimpleParams: true})
	if p.unit == unitCJS {
		p.pushFunc(FuncNormal, false, false)
	} else {
		p.pushFunc(FuncProgram, true, false)
	}
	p.next()
	body := alloc(&p.a.blocks, Block{At: At{Pos(p.base)}})
	m := p.a.stmts.mark()
	for p.tt != eofToken {
		if s := p.parseStatementListItem(true); s != nil {
			p.a.stmts.push(s)
		}
	}
	body.Body = p.a.stmts.finish(m)
	body.End = p.pos
	fn.Body = body
	return fn
}

// parseStatementListItem parses a statement or a declaration. topLevel is
// true only directly in the program body, where import may appear. It
// returns nil for a TypeScript declaration, which is erased.
func (p *parser) parseStatementListItem(topLevel bool) Stmt {
	if p.ts {
		if s, ok := p.tsStatement(true, topLevel); ok {
			return s
		}
	}
	switch p.tt {
	case js.FunctionToken:
		return p.parseFunctionDecl(false, p.pos)
	case js.ClassToken:
		return p.parseClassDecl()
	case js.ConstToken:
		return p.parseVarStatement(DeclConst)
	case js.LetToken:
		if p.letStartsDecl() {
			return p.parseVarStatement(DeclLet)
		}
	case js.AsyncToken:
		if w, nl := p.peekWord(); w == "function" && !nl {
			start := p.pos
			p.next()
			return p.parseFunctionDecl(true, start)
		}
	case js.ImportToken:
		if b, _ := p.peekByte(); b != '(' && b != '.' {
			p.checkImportAllowed(topLevel)
			return p.parseImport()
		}
	case js.ExportToken:
		if p.unit == unitJS && topLevel {
			return p.parseExport()
		}
		p.exportNotAllowed()
	}
	return p.parseStatement()
}

// letStartsDecl decides whether the current `let` token starts a lexical
// declaration (let x, let [a], let {a}) or is an identifier (an error in
// strict code, reported later with a clear message).
func (p *parser) letStartsDecl() bool {
	i, _ := p.peekRaw()
	if i >= len(p.buf) {
		return false
	}
	c := p.buf[i]
	return c == '[' || c == '{' || isIdentStartByte(c)
}

// parseStatement parses a statement (no declarations but var).
func (p *parser) parseStatement() Stmt {
	p.enter()
	defer p.leave()
	start := p.pos
	switch p.tt {
	case js.OpenBraceToken:
		return p.parseBlock()
	case js.SemicolonToken:
		p.next()
		return &Empty{At{start}}
	case js.VarToken:
		return p.parseVarStatement(DeclVar)
	case js.IfToken:
		return p.parseIf()
	case js.ForToken:
		return p.parseFor()
	case js.WhileToken:
		p.next()
		test := p.parseParenExpr()
		body := p.parseLoopBody(start)
		return &While{At: At{start}, Test: test, Body: body}
	case js.DoToken:
		p.next()
		body := p.parseLoopBody(start)
		p.expect(js.WhileToken)
		test := p.parseParenExpr()
		p.eat(js.SemicolonToken) // ASI always applies after do-while
		return &DoWhile{At: At{start}, Body: body, Test: test}
	case js.ReturnToken:
		return p.parseReturn()
	case js.BreakToken, js.ContinueToken:
		return p.parseBreakContinue()
	case js.ThrowToken:
		p.next()
		if p.nl {
			p.failAt(p.pos, "Illegal newline after throw")
		}
		x := p.parseExpression(false)
		p.semicolon()
		return &Throw{At: At{start}, X: x}
	case js.TryToken:
		return p.parseTry()
	case js.SwitchToken:
		return p.parseSwitch()
	case js.WithToken:
		p.next()
		obj := p.parseParenExpr()
		body := p.parseStatement()
		return &With{At: At{start}, Obj: obj, Body: body}
	case js.DebuggerToken:
		p.next()
		p.semicolon()
		return &Debugger{At{start}}
	case js.FunctionToken:
		p.failAt(p.pos, "In strict mode code, functions can only be declared at top level or inside a block.")
	case js.AsyncToken:
		if w, nl := p.peekWord(); w == "function" && !nl {
			p.failAt(p.pos, "Async functions can only be declared at the top level or inside a block.")
		}
	case js.ClassToken, js.ConstToken:
		p.unexpected()
	case js.LetToken:
		if p.letStartsDecl() {
			p.failAt(p.pos, "Lexical declaration cannot appear in a single-statement context")
		}
	case js.EnumToken:
		if p.ts {
			p.failAt(p.pos, tsEnumMessage)
		}
		p.failTS(p.pos, "enum declaration")
	case js.ImportToken:
		if b, _ := p.peekByte(); b != '(' && b != '.' {
			p.checkImportAllowed(false)
		}
	case js.ExportToken:
		p.exportNotAllowed()
	}
	if p.ts {
		if s, ok := p.tsStatement(false, false); ok {
			return s
		}
	} else {
		p.checkTSDeclaration()
	}

	// An expression statement, or a labeled statement.
	x := p.parseExpression(false)
	if id, ok := x.(*Ident); ok && p.tt == js.ColonToken && !p.parens[x] {
		return p.parseLabeled(id)
	}
	p.semicolon()
	return alloc(&p.a.exprStmts, ExprStmt{At: At{start}, X: x})
}

// checkTSDeclaration rejects TypeScript declarations that start with a
// contextual word: interface X, type X =, declare ..., namespace X,
// abstract class.
func (p *parser) checkTSDeclaration() {
	var what string
	switch string(p.lit) {
	case "interface":
		what = "interface declaration"
	case "type":
		what = "type alias"
	case "declare":
		what = "declare statement"
	case "namespace", "module":
		what = "namespace declaration"
	case "abstract":
		what = "abstract class"
	default:
		return
	}
	if !js.IsIdentifierName(p.tt) {
		return
	}
	if w, nl := p.peekWord(); !nl && w != "" && w != "in" && w != "instanceof" && isIdentStartByte(w[0]) {
		p.failTS(p.pos, what)
	}
}

func (p *parser) parseLabeled(id *Ident) Stmt {
	for _, l := range p.fn.labels {
		if l.name == id.Name {
			p.failAt(id.Start, "Label '%s' has already been declared", id.Name)
		}
	}
	p.next() // ':'
	bodyStart := p.pos
	// Labels stacked on one statement (a: b: while ...) all label it.
	for i := len(p.fn.labels) - 1; i >= 0 && p.fn.labels[i].stmtStart == id.Start; i-- {
		p.fn.labels[i].stmtStart = bodyStart
	}
	p.fn.labels = append(p.fn.labels, label{name: id.Name, stmtStart: bodyStart})
	var body Stmt
	if p.tt == js.FunctionToken {
		p.failAt(p.pos, "In strict mode code, functions can only be declared at top level or inside a block.")
	}
	body = p.parseStatement()
	p.fn.labels = p.fn.labels[:len(p.fn.labels)-1]
	return &Labeled{At: At{id.Start}, Label: alloc(&p.a.names, Name{At: At{id.Start}, Name: id.Name}), Body: body}
}

// parseLoopBody parses the body of the loop statement that starts at
// start, with break and continue allowed in it.
func (p *parser) parseLoopBody(start Pos) Stmt {
	for i := len(p.fn.labels) - 1; i >= 0 && p.fn.labels[i].stmtStart == start; i-- {
		p.fn.labels[i].loop = true
	}
	p.fn.loops++
	p.fn.breakable++
	body := p.parseStatement()
	p.fn.loops--
	p.fn.breakable--
	return body
}

// parseBlock parses { statements }. Its caller counted the nesting level.
func (p *parser) parseBlock() *Block {
	b := alloc(&p.a.blocks, Block{At: At{p.expect(js.OpenBraceToken)}})
	m := p.a.stmts.mark()
	for p.tt != js.CloseBraceToken {
		if p.tt == eofToken {
			p.unexpected()
		}
		if s := p.parseStatementListItem(false); s != nil {
			p.a.stmts.push(s)
		}
	}
	b.Body = p.a.stmts.finish(m)
	b.End = p.pos
	p.next()
	return b
}

func (p *parser) parseParenExpr() Expr {
	p.expect(js.OpenParenToken)
	x := p.parseExpression(false)
	p.expect(js.CloseParenToken)
	return x
}

func (p *parser) parseIf() Stmt {
	start := p.pos
	p.next()
	test := p.parseParenExpr()
	then := p.parseStatement()
	var els Stmt
	if p.eat(js.ElseToken) {
		els = p.parseStatement()
	}
	return alloc(&p.a.ifs, If{At: At{start}, Test: test, Then: then, Else: els})
}

func (p *parser) parseReturn() Stmt {
	start := p.pos
	if p.fn.kind == FuncClassInit || p.fn.kind == FuncProgram && p.unit == unitJS {
		p.failAt(start, "Illegal return statement")
	}
	p.next()
	var x Expr
	if p.tt != js.SemicolonToken && !p.canInsertSemicolon() {
		x = p.parseExpression(false)
	}
	p.semicolon()
	return alloc(&p.a.returns, Return{At: At{start}, X: x})
}

func (p *parser) parseBreakContinue() Stmt {
	start, isBreak := p.pos, p.tt == js.BreakToken
	keyword := "continue"
	if isBreak {
		keyword = "break"
	}
	p.next()
	var lbl *Name
	if !p.nl && js.IsIdentifier(p.tt) {
		lbl = alloc(&p.a.names, Name{At: At{p.pos}, Name: p.varName()})
		p.next()
	}
	p.semicolon()
	if lbl == nil {
		if isBreak && p.fn.breakable == 0 || !isBreak && p.fn.loops == 0 {
			p.failAt(start, "Unexpected '%s' outside of a loop.", keyword)
		}
	} else {
		found := false
		for _, l := range p.fn.labels {
			if l.name == lbl.Name {
				found = true
				if !isBreak && !l.loop {
					p.failAt(lbl.Start, "Illegal continue statement: '%s' does not denote an iteration statement", lbl.Name)
				}
			}
		}
		if !found {
			p.failAt(lbl.Start, "Undefined label '%s'", lbl.Name)
		}
	}
	if isBreak {
		return &Break{At: At{start}, Label: lbl}
	}
	return &Continue{At: At{start}, Label: lbl}
}

func (p *parser) parseTry() Stmt {
	t := &Try{At: At{p.pos}}
	p.next()
	t.Block = p.parseBlock()
	if p.tt == js.CatchToken {
		p.next()
		if p.eat(js.OpenParenToken) {
			t.Param = p.parseBindingTarget()
			if p.tt == js.ColonToken {
				if !p.ts {
					p.failTS(p.pos, "type annotation")
				}
				p.next()
				p.parseType()
			}
			p.expect(js.CloseParenToken)
		}
		t.Handler = p.parseBlock()
	}
	if p.tt == js.FinallyToken {
		p.next()
		t.Finalizer = p.parseBlock()
	}
	if t.Handler == nil && t.Finalizer == nil {
		p.failAt(p.pos, "Missing catch or finally after try")
	}
	return t
}

func (p *parser) parseSwitch() Stmt {
	s := &Switch{At: At{p.pos}}
	p.next()
	s.Disc = p.parseParenExpr()
	p.expect(js.OpenBraceToken)
	p.fn.breakable++
	sawDefault := false
	for p.tt != js.CloseBraceToken {
		c := &Case{At: At{p.pos}}
		switch p.tt {
		case js.CaseToken:
			p.next()
			c.Test = p.parseExpression(false)
		case js.DefaultToken:
			if sawDefault {
				p.failAt(p.pos, "More than one default clause in switch statement")
			}
			sawDefault = true
			p.next()
		default:
			p.unexpected()
		}
		p.expect(js.ColonToken)
		m := p.a.stmts.mark()
		for p.tt != js.CaseToken && p.tt != js.DefaultToken && p.tt != js.CloseBraceToken {
			if p.tt == eofToken {
				p.unexpected()
			}
			if s := p.parseStatementListItem(false); s != nil {
				p.a.stmts.push(s)
			}
		}
		c.Body = p.a.stmts.finish(m)
		s.Cases = append(s.Cases, c)
	}
	p.fn.breakable--
	p.next()
	return s
}

// parseVarStatement parses var, let or const declarations as a statement.
func (p *parser) parseVarStatement(kind DeclKind) Stmt {
	d := p.parseVarDecl(kind, false)
	p.semicolon()
	return d
}

// parseVarDecl parses declarators; inFor is true in a for head, where
// `in` is not an operator and const needs no initializer before in/of.
func (p *parser) parseVarDecl(kind DeclKind, inFor bool) *VarDecl {
	d := alloc(&p.a.varDecls, VarDecl{At: At{p.pos}, Kind: kind})
	p.next()
	m := p.a.decls.mark()
	for {
		decl := alloc(&p.a.declarators, Declarator{At: At{p.pos}})
		if kind != DeclVar && p.tt == js.LetToken {
			p.failAt(p.pos, "let is disallowed as a lexically bound name")
		}
		decl.Target = p.parseBindingTarget()
		if p.ts {
			p.parseDeclaratorType()
		} else if p.tt == js.ColonToken {
			p.failTS(p.pos, "type annotation")
		} else if p.tt == js.NotToken && !p.nl {
			p.failTS(p.pos, "definite assignment assertion")
		}
		if p.eat(js.EqToken) {
			decl.Init = p.parseAssign(inFor, nil)
		} else if !(inFor && (p.tt == js.InToken || p.tt == js.OfToken)) && !p.ambient {
			if kind == DeclConst {
				p.failAt(p.pos, "Missing initializer in const declaration")
			}
			if _, ok := decl.Target.(*Ident); !ok {
				p.failAt(p.pos, "Missing initializer in destructuring declaration")
			}
		}
		p.a.decls.push(decl)
		if !p.eat(js.CommaToken) {
			break
		}
	}
	d.Decls = p.a.decls.finish(m)
	return d
}

func (p *parser) parseFor() Stmt {
	start := p.pos
	p.next()
	await := false
	if p.tt == js.AwaitToken {
		if !p.inAsync() {
			p.failAt(p.pos, "'for await' is only valid in async functions and at the top level of the program.")
		}
		await = true
		p.next()
	}
	p.expect(js.OpenParenToken)

	var init Node
	switch {
	case p.tt == js.SemicolonToken:
		if await {
			p.unexpected()
		}
	case p.tt == js.VarToken || p.tt == js.ConstToken || p.tt == js.LetToken && p.letStartsDecl():
		kind := map[js.TokenType]DeclKind{js.VarToken: DeclVar, js.LetToken: DeclLet, js.ConstToken: DeclConst}[p.tt]
		decl := p.parseVarDecl(kind, true)
		if p.tt == js.OfToken || p.tt == js.InToken {
			if len(decl.Decls) != 1 {
				p.failAt(decl.Start, "Invalid left-hand side in for-%s loop: Must have a single binding.", p.lit)
			}
			if decl.Decls[0].Init != nil {
				p.failAt(decl.Decls[0].Start, "for-%s loop variable declaration may not have an initializer.", p.lit)
			}
			return p.parseForInOf(start, await, decl)
		}
		init = decl
	default:
		exprStart := p.pos
		ref := p.newCoverErrors()
		startsWithLet := p.tt == js.LetToken
		x := p.parseExpressionRef(true, ref)
		if p.tt == js.OfToken || p.tt == js.InToken {
			if startsWithLet && p.tt == js.OfToken {
				p.failAt(exprStart, "The left-hand side of a for-of loop may not be 'let'.")
			}
			if id, ok := x.(*Ident); ok && id.Name == "async" && strings.HasPrefix(p.src.Text[id.Start:], "async") && p.tt == js.OfToken && !await && !p.isParen(x) {
				p.failAt(exprStart, "The left-hand side of a for-of loop may not be 'async'.")
			}
			if _, isAssign := x.(*Assign); isAssign || p.isParen(x) && !isSimpleTarget(x) {
				p.failAt(exprStart, "Invalid left-hand side in for-%s loop", p.lit)
			}
			target := p.toAssignable(x, false, ref)
			return p.parseForInOf(start, await, target)
		}
		p.checkExpressionErrors(ref)
		init = alloc(&p.a.exprStmts, ExprStmt{At: At{exprStart}, X: x})
	}
	if await {
		p.unexpected()
	}
	f := alloc(&p.a.fors, For{At: At{start}})
	if init != nil {
		f.Init = init.(Stmt)
	}
	p.expect(js.SemicolonToken)
	if p.tt != js.SemicolonToken {
		f.Test = p.parseExpression(false)
	}
	p.expect(js.SemicolonToken)
	if p.tt != js.CloseParenToken {
		f.Update = p.parseExpression(false)
	}
	p.expect(js.CloseParenToken)
	f.Body = p.parseLoopBody(start)
	return f
}

func (p *parser) parseForInOf(start Pos, await bool, left Node) Stmt {
	isOf := p.tt == js.OfToken
	if await && !isOf {
		p.unexpected()
	}
	p.next()
	var right Expr
	if isOf {
		right = p.parseAssign(false, nil)
	} else {
		right = p.parseExpression(false)
	}
	p.expect(js.CloseParenToken)
	body := p.parseLoopBody(start)
	if isOf {
		return &ForOf{At: At{start}, Await: await, Left: left, Right: right, Body: body}
	}
	return &ForIn{At: At{start}, Left: left, Right: right, Body: body}
}

func (p *parser) parseImport() Stmt {
	im := &Import{At: At{p.pos}}
	p.next()
	if p.tt == js.StringToken { // import "module" (side effects only)
		im.Module = p.parseStringLit()
		p.semicolon()
		return im
	}
	if p.isIdentToken() {
		im.Default = p.parseBindingIdent()
		if !p.eat(js.CommaToken) {
			goto from
		}
	}
	switch p.tt {
	case js.MulToken:
		p.next()
		if p.tt != js.AsToken {
			p.unexpected()
		}
		p.next()
		im.Namespace = p.parseBindingIdent()
	case js.OpenBraceToken:
		p.next()
		for p.tt != js.CloseBraceToken {
			spec := &ImportSpec{At: At{p.pos}}
			if p.ts && p.typeOnlySpecifier() {
				if !p.eat(js.CommaToken) {
					break
				}
				continue
			}
			if p.tt == js.StringToken {
				s := p.parseStringLit()
				spec.Imported = alloc(&p.a.names, Name{At: At{s.Start}, Name: s.Value})
			} else {
				if !js.IsIdentifierName(p.tt) {
					p.unexpected()
				}
				spec.Imported = alloc(&p.a.names, Name{At: At{p.pos}, Name: p.identName()})
				isIdent := p.isIdentToken()
				p.next()
				if p.tt != js.AsToken {
					if !isIdent {
						p.failAt(spec.Imported.Start, "Unexpected reserved word '%s' in import", spec.Imported.Name)
					}
					spec.Local = alloc(&p.a.idents, Ident{At: At{spec.Imported.Start}, Name: spec.Imported.Name})
				}
			}
			if spec.Local == nil {
				if p.tt != js.AsToken {
					p.unexpected()
				}
				p.next()
				spec.Local = p.parseBindingIdent()
			}
			im.Specs = append(im.Specs, spec)
			if !p.eat(js.CommaToken) {
				break
			}
		}
		p.expect(js.CloseBraceToken)
	default:
		p.unexpected()
	}
from:
	if p.tt != js.FromToken {
		p.unexpected()
	}
	p.next()
	if p.tt != js.StringToken {
		p.unexpected()
	}
	im.Module = p.parseStringLit()
	im.Type = p.parseImportAttributes()
	p.semicolon()
	return im
}
