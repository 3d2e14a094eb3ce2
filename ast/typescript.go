package ast

// TypeScript erasure. Models write TypeScript because the catalog shows
// TypeScript signatures, so the parser accepts the TypeScript that has no
// run-time meaning and drops it, as Node's type stripping does: the tree
// is the one the same program with the types deleted gives, and every
// position still points into the text the model sent. What does have
// run-time meaning (enum, namespace, parameter properties, decorators) is
// a ParseError that says what to write instead.

import (
	"bytes"

	"github.com/tdewolff/parse/v2/js"
)

// Messages for the TypeScript constructs that have run-time meaning.
const (
	tsEnumMessage = "TypeScript enums have run-time meaning and are not supported: use a plain object, " +
		"e.g. const Color = { Red: 0, Green: 1 } as const"
	tsNamespaceMessage = "TypeScript namespaces have run-time meaning and are not supported: use a plain object, " +
		"e.g. const Utils = { helper(x) { return x } }, or plain functions"
	tsParamPropertyMessage = "TypeScript parameter properties (constructor(private x: T)) have run-time meaning and are not supported: " +
		"declare the field in the class body and assign it in the constructor, e.g. x: T; constructor(x: T) { this.x = x }"
	tsDecoratorMessage = "Decorators (@name) are not supported: call the decorator function yourself, " +
		"e.g. const C = withLogging(class { ... }) or wrap the method after the class"
	tsImportEqualsMessage = "TypeScript 'import x = require(...)' is not supported: use import x from \"module\""
)

// tsStatement parses, when the current token starts one, a TypeScript
// declaration: an erased one (interface, type, declare, import type,
// export type) returns (nil, true) in a statement list and an empty
// statement where a statement is required; abstract class returns the
// class; enum and namespace fail. Otherwise it returns (nil, false).
func (p *parser) tsStatement(inList, topLevel bool) (Stmt, bool) {
	start := p.pos
	switch p.tt {
	case js.EnumToken:
		p.failAt(start, tsEnumMessage)
	case js.ConstToken:
		if p.peekIsWord("enum") {
			p.failAt(start, tsEnumMessage)
		}
		return nil, false
	case js.ExportToken, js.ImportToken, js.InterfaceToken:
	default:
		if !js.IsIdentifier(p.tt) {
			return nil, false
		}
	}
	s, ok := p.tsDeclaration(topLevel)
	if ok && s == nil && !inList {
		s = &Empty{At{start}}
	}
	return s, ok
}

// peekIsWord reports whether the next token is the word w on the same
// line (without allocating, unlike peekWord).
func (p *parser) peekIsWord(w string) bool {
	i, nl := p.peekRaw()
	return !nl && i+len(w) <= len(p.buf) && string(p.buf[i:i+len(w)]) == w &&
		(i+len(w) == len(p.buf) || !isIdentByte(p.buf[i+len(w)]) && p.buf[i+len(w)] < 0x80)
}

// tsDeclaration is tsStatement for the tokens that may start a
// declaration; an erased one is (nil, true).
func (p *parser) tsDeclaration(topLevel bool) (Stmt, bool) {
	start := p.pos
	switch p.tt {
	case js.ExportToken:
		return p.tsExport()
	case js.ImportToken:
		return p.tsImport(topLevel)
	case js.InterfaceToken:
		if p.wordDeclares() {
			p.parseInterface()
			return nil, true
		}
		return nil, false
	}
	if !js.IsIdentifier(p.tt) {
		return nil, false
	}
	switch string(p.lit) {
	case "type":
		if p.wordDeclares() {
			p.parseTypeAlias()
			return nil, true
		}
	case "declare":
		if p.wordDeclares() {
			p.next()
			p.parseAmbient()
			return nil, true
		}
	case "abstract":
		if p.peekIsWord("class") {
			p.next()
			return p.parseClassDecl(), true
		}
	case "namespace", "module":
		if p.wordDeclares() {
			p.failAt(start, tsNamespaceMessage)
		}
	}
	return nil, false
}

// wordDeclares reports whether the contextual word at the current token
// starts a declaration: an identifier follows on the same line (type X,
// not type = 1 or type in x).
func (p *parser) wordDeclares() bool {
	w, nl := p.peekWord()
	return !nl && w != "" && w != "in" && w != "instanceof" && w != "of" && isIdentStartByte(w[0])
}

// parseInterface parses interface X<T> extends A, B<C> { ... }.
func (p *parser) parseInterface() {
	p.next() // interface
	p.expectIdentName()
	if p.tt == js.LtToken {
		p.parseTypeParams()
	}
	if p.eat(js.ExtendsToken) {
		p.parseHeritageTypes()
	}
	p.parseObjectType()
}

// parseHeritageTypes parses A, ns.B<C> in extends and implements clauses.
func (p *parser) parseHeritageTypes() {
	for {
		p.parseEntityName()
		p.parseTypeArgsIfAny()
		if !p.eat(js.CommaToken) {
			return
		}
	}
}

// parseTypeAlias parses type X<T> = ...;.
func (p *parser) parseTypeAlias() {
	p.next() // type
	p.expectIdentName()
	if p.tt == js.LtToken {
		p.parseTypeParams()
	}
	p.expect(js.EqToken)
	p.parseType()
	p.semicolon()
}

// parseAmbient parses what follows declare: a declaration that only tells
// the type checker about something that exists elsewhere, so nothing of
// it is kept.
func (p *parser) parseAmbient() {
	saved := p.ambient
	p.ambient = true
	defer func() { p.ambient = saved }()
	switch {
	case p.tt == js.ConstToken && p.peekIsWord("enum"):
		p.next()
		p.next() // enum
		p.expectIdentName()
		p.skipBalanced()
	case p.tt == js.ConstToken || p.tt == js.VarToken || p.tt == js.LetToken:
		kind := map[js.TokenType]DeclKind{js.VarToken: DeclVar, js.LetToken: DeclLet, js.ConstToken: DeclConst}[p.tt]
		p.parseVarStatement(kind)
	case p.tt == js.FunctionToken:
		p.parseFunctionDecl(false, p.pos)
	case p.tt == js.AsyncToken:
		p.next()
		p.parseFunctionDecl(true, p.pos)
	case p.tt == js.ClassToken:
		p.parseClassDecl()
	case p.tt == js.EnumToken:
		p.next()
		p.expectIdentName()
		p.skipBalanced()
	case p.tt == js.InterfaceToken:
		p.parseInterface()
	case p.isWord("abstract"):
		p.next()
		p.parseClassDecl()
	case p.isWord("type"):
		p.parseTypeAlias()
	case p.isWord("global"):
		p.next()
		p.skipBalanced()
	case p.isWord("namespace") || p.isWord("module"):
		p.next()
		if p.tt == js.StringToken {
			p.next()
		} else {
			p.parseEntityName()
		}
		if p.tt == js.OpenBraceToken {
			p.skipBalanced()
		} else {
			p.semicolon()
		}
	default:
		p.unexpected()
	}
}

// tsExport erases export type, export interface and export declare; the
// other exports are left to the caller's error.
func (p *parser) tsExport() (Stmt, bool) {
	w, nl := p.peekWord()
	if nl || w != "type" && w != "interface" && w != "declare" {
		return nil, false
	}
	p.next() // export
	if w == "type" {
		if b, _ := p.peekByte(); b == '{' || b == '*' {
			p.next() // type
			p.skipExportClause()
			return nil, true
		}
	}
	if _, ok := p.tsStatement(true, false); !ok {
		p.unexpected()
	}
	return nil, true
}

// skipExportClause steps over the { A, B } or * of export type ... and
// its from clause.
func (p *parser) skipExportClause() {
	if p.tt == js.OpenBraceToken {
		p.skipBalanced()
	} else {
		p.expect(js.MulToken)
		if p.eat(js.AsToken) {
			p.expectIdentName()
		}
	}
	if p.eat(js.FromToken) {
		if p.tt != js.StringToken {
			p.unexpected()
		}
		p.next()
	}
	p.semicolon()
}

// tsImport erases import type ... and rejects import x = require(...).
// Other imports are left to parseImport, which drops { type A } specifiers.
func (p *parser) tsImport(topLevel bool) (Stmt, bool) {
	w, _ := p.peekWord()
	if w == "" || !isIdentStartByte(w[0]) {
		return nil, false
	}
	if w != "type" {
		if p.importEqualsAhead() {
			p.failAt(p.pos, tsImportEqualsMessage)
		}
		return nil, false
	}
	if !p.lookahead(func() bool {
		p.next() // import
		p.next() // type
		switch p.tt {
		case js.OpenBraceToken, js.MulToken:
			return true
		case js.FromToken: // import type from "m" imports a binding named type
			p.next()
			return p.tt != js.StringToken
		}
		return js.IsIdentifierName(p.tt)
	}) {
		return nil, false
	}
	start := p.pos
	if !topLevel {
		p.failAt(start, "Cannot use import statement outside the top level of the program")
	}
	p.next() // import
	p.next() // type
	if js.IsIdentifierName(p.tt) && p.tt != js.FromToken {
		p.next()
		if p.tt == js.EqToken {
			p.failAt(start, tsImportEqualsMessage)
		}
		if p.eat(js.CommaToken) {
			p.skipImportBindings()
		}
	} else {
		p.skipImportBindings()
	}
	if p.tt != js.FromToken {
		p.unexpected()
	}
	p.next()
	if p.tt != js.StringToken {
		p.unexpected()
	}
	p.next()
	p.semicolon()
	return nil, true
}

func (p *parser) skipImportBindings() {
	if p.tt == js.OpenBraceToken {
		p.skipBalanced()
		return
	}
	p.expect(js.MulToken)
	p.expect(js.AsToken)
	p.expectIdentName()
}

// importEqualsAhead reports import x = ... (TypeScript's import alias).
func (p *parser) importEqualsAhead() bool {
	return p.lookahead(func() bool {
		p.next() // import
		if !js.IsIdentifierName(p.tt) {
			return false
		}
		p.next()
		return p.tt == js.EqToken
	})
}

// isParamModifier reports an accessibility or readonly modifier in front
// of a parameter (which makes it a parameter property).
func (p *parser) isParamModifier() bool {
	switch {
	case p.tt == js.PublicToken || p.tt == js.PrivateToken || p.tt == js.ProtectedToken:
	case p.isWord("readonly") || p.isWord("override"):
	default:
		return false
	}
	i, nl := p.peekRaw()
	return !nl && i < len(p.buf) && (isIdentStartByte(p.buf[i]) || p.buf[i] == '{' || p.buf[i] == '[')
}

// isTSAssertion reports x as T or x satisfies T at the current token.
func (p *parser) isTSAssertion() bool {
	return !p.nl && (p.tt == js.AsToken || p.tt == js.IdentifierToken && string(p.lit) == "satisfies")
}

// parseTSAssertion consumes as T / satisfies T (as const included) after
// an expression; the expression is kept as if it had been parenthesized.
func (p *parser) parseTSAssertion(x Expr) Expr {
	p.next()
	p.parseType()
	p.markParen(x)
	return x
}

func (p *parser) markParen(x Expr) {
	if p.parens == nil {
		p.parens = make(map[Expr]bool)
	}
	p.parens[x] = true
}

// tryTypeArgsInExpression reads f<T> in an expression as type arguments
// when TypeScript would: the type list must parse, and what follows the
// '>' must be something that cannot continue a comparison: '(', a
// template, a line break, a binary operator, or a token that cannot start
// an expression. Unlike TypeScript, the '<' must follow the expression
// directly, and a list of lowercase names (a<b, c>(d), i<n>(0)) stays a
// comparison, as it means in JavaScript: both keep JavaScript that parsed
// before reading as it did.
func (p *parser) tryTypeArgsInExpression() bool {
	if int(p.pos)-p.base != p.prevEnd || !p.typeArgsCloseAhead() {
		return false
	}
	open := int(p.pos) - p.base
	return p.try(specTypeArgs, func() {
		p.parseTypeArgs()
		closeEnd := p.prevEnd
		if !p.canFollowTypeArgs() || jsPlausibleTypeArgs(p.buf[open+1:closeEnd-1]) {
			p.unexpected()
		}
	})
}

// literalCallee reports a literal, which no type arguments can follow:
// 0<0&0>(0) is two comparisons, as in JavaScript, not a call of 0.
func literalCallee(x Expr) bool {
	switch x.(type) {
	case *NumberLit, *BigIntLit, *StringLit, *RegExpLit, *BoolLit, *NullLit, *TemplateLit, *ArrayLit, *ObjectLit:
		return true
	}
	return false
}

// typeArgsCloseAhead scans the raw text after a '<' for the '>' that
// would close it as type arguments, within typeArgsWindow bytes. Without
// this check, a flat chain of comparisons (a<b, a<b, a<b, ...) whose type
// reading nests would be re-read as types at every '<': quadratic.
func (p *parser) typeArgsCloseAhead() bool {
	start := int(p.pos) - p.base
	end := min(len(p.buf), start+typeArgsWindow)
	angles, brackets := 0, 0
	for i := start; i < end; i++ {
		switch c := p.buf[i]; c {
		case '<':
			angles++
		case '>':
			if p.buf[i-1] == '=' {
				continue // the => of a function type
			}
			if angles--; angles == 0 {
				return true
			}
		case '(', '[', '{':
			brackets++
		case ')', ']', '}':
			if brackets--; brackets < 0 {
				return false
			}
		case '\'', '"', '`':
			j := bytes.IndexByte(p.buf[i+1:end], c)
			if j < 0 {
				return false
			}
			i += j + 1
		}
	}
	return false
}

// typeArgsWindow bounds how far type arguments in an expression may reach;
// real ones are far shorter.
const typeArgsWindow = 2048

// canFollowTypeArgs is TypeScript's canFollowTypeArgumentsInExpression.
func (p *parser) canFollowTypeArgs() bool {
	switch p.tt {
	case js.OpenParenToken, js.TemplateToken, js.TemplateStartToken:
		return true
	case js.LtToken, js.GtToken, js.AddToken, js.SubToken:
		return false
	}
	if p.nl {
		return true
	}
	if _, ok := p.binaryOp(false); ok {
		return true
	}
	return !p.startsExpression()
}

// startsExpression reports whether the current token can begin an
// expression.
func (p *parser) startsExpression() bool {
	switch p.tt {
	case js.OpenParenToken, js.OpenBracketToken, js.OpenBraceToken, js.DivToken, js.DivEqToken,
		js.NotToken, js.BitNotToken, js.IncrToken, js.DecrToken, js.LtToken, js.StringToken,
		js.TemplateToken, js.TemplateStartToken, js.PrivateIdentifierToken, js.AddToken, js.SubToken:
		return true
	}
	return js.IsNumeric(p.tt) || js.IsIdentifierName(p.tt)
}

// jsPlausibleTypeArgs reports whether the text between < and > should
// keep its JavaScript reading (comparisons, bitwise operators): unless it
// starts the way only a type would (an upper-case name, a primitive type
// name such as string, or one of < ( [ { ' " ` -), it does. Deciding by
// the first token keeps every JavaScript program meaning what it meant
// (a<b, c>(d), i<n>(0), a<0[0]>(0), a<b & C>(d)); TypeScript written with
// a lower-case type first (f<user>(x)) is rare, and reads as JavaScript.
func jsPlausibleTypeArgs(b []byte) bool {
	t := bytes.TrimLeft(b, " \t\n\r")
	if len(t) == 0 {
		return true
	}
	switch c := t[0]; {
	case c >= 'A' && c <= 'Z', bytes.IndexByte([]byte("<([{'\"`-"), c) >= 0:
		return false
	case isIdentStartByte(c):
		j := 1
		for j < len(t) && (isIdentByte(t[j]) || t[j] >= 0x80) {
			j++
		}
		return !tsTypeNames[string(t[:j])]
	}
	return true
}

// tryGenericArrow parses <T>(params): R => body, or reports false having
// consumed nothing. start is where the arrow begins (before async).
func (p *parser) tryGenericArrow(start Pos, async bool) (Expr, bool) {
	var params []Pattern
	var rest Pattern
	ok := p.try(specGenericArrow, func() {
		p.parseTypeParams()
		if p.tt != js.OpenParenToken {
			p.unexpected()
		}
		items, trailing, ref, _ := p.parseParenItems()
		if p.tt == js.ColonToken {
			p.next()
			p.parseReturnType()
		}
		if p.tt != js.ArrowToken || p.nl {
			p.unexpected()
		}
		params, rest = p.toParams(items, trailing, ref)
	})
	if !ok {
		return nil, false
	}
	return p.parseArrowBody(start, params, rest, async), true
}

// tryArrowReturnType parses the `: R` of (params): R => body when a '=>'
// follows the type; otherwise it consumes nothing (the ':' belongs to a
// conditional expression, a case, ...).
func (p *parser) tryArrowReturnType() bool {
	return p.try(specReturnType, func() {
		p.next() // :
		p.parseReturnType()
		if p.tt != js.ArrowToken || p.nl {
			p.unexpected()
		}
	})
}

// optionalParamAhead reports an identifier followed by a ? that marks an
// optional arrow parameter ((a?: T) or (a?, b)) rather than a condition.
func (p *parser) optionalParamAhead() bool {
	if !js.IsIdentifier(p.tt) {
		return false
	}
	i, _ := p.peekRaw()
	if i+1 >= len(p.buf) || p.buf[i] != '?' || p.buf[i+1] == '?' || p.buf[i+1] == '.' {
		return false
	}
	for j := i + 1; j < len(p.buf); j++ {
		switch p.buf[j] {
		case ' ', '\t', '\n', '\r':
			continue
		case ':', ',', ')':
			return true
		}
		return false
	}
	return false
}

// parseDeclaratorType parses the `!` and `: T` a declarator may carry
// after its target (let x!: number, const xs: string[] = []).
func (p *parser) parseDeclaratorType() {
	if p.tt == js.NotToken && !p.nl {
		p.next()
		if p.tt != js.ColonToken {
			p.unexpected()
		}
	}
	if p.eat(js.ColonToken) {
		p.parseType()
	}
}

// typeOnlySpecifier consumes `type A` or `type A as B` in an import list
// and reports whether it did (`type` alone, or `type as B`, imports a
// binding named type).
func (p *parser) typeOnlySpecifier() bool {
	if !p.isWord("type") {
		return false
	}
	w, _ := p.peekWord()
	if w == "" || !isIdentStartByte(w[0]) {
		return false
	}
	// type as x imports the binding type as x; type as as x and type as
	// alone are type-only.
	if w == "as" && !p.lookahead(func() bool {
		p.next() // type
		p.next() // as
		return p.tt == js.AsToken || p.tt == js.CommaToken || p.tt == js.CloseBraceToken
	}) {
		return false
	}
	p.next() // type
	p.next() // the name
	if p.eat(js.AsToken) {
		p.expectIdentName()
	}
	return true
}

// thisParam consumes a `this: T` first parameter, which only types this
// (function f(this: Window, x) {}), and reports whether it did.
func (p *parser) thisParam() bool {
	if b, _ := p.peekByte(); b != ':' {
		return false
	}
	p.next() // this
	p.next() // :
	p.parseType()
	if p.tt != js.CloseParenToken {
		p.expect(js.CommaToken)
	}
	return true
}

// parseClassModifiers consumes TypeScript's modifiers on a class member
// (public, private, protected, readonly, override, abstract, declare, in
// any order, with static among them: private static readonly x). A word
// is a modifier only when a member name follows it on the same line
// (private() {} is a method named private). It reports whether the member
// is abstract or declare, which erases it, and whether static came after
// another modifier.
func (p *parser) parseClassModifiers(static bool) (erase, sawStatic bool) {
	for {
		switch {
		case p.tt == js.PublicToken || p.tt == js.PrivateToken || p.tt == js.ProtectedToken:
		case p.tt == js.StaticToken && !static && !sawStatic:
		case js.IsIdentifier(p.tt):
			switch string(p.lit) {
			case "readonly", "override", "abstract", "declare":
			default:
				return erase, sawStatic
			}
		default:
			return erase, sawStatic
		}
		i, nl := p.peekRaw()
		if nl || i >= len(p.buf) {
			return erase, sawStatic
		}
		switch c := p.buf[i]; {
		case isIdentStartByte(c) || c == '#' || c == '[' || c == '*' || c == '"' || c == '\'' || c >= '0' && c <= '9':
		default:
			return erase, sawStatic
		}
		switch string(p.lit) {
		case "abstract", "declare":
			erase = true
		case "static":
			sawStatic = true
		}
		p.next()
	}
}

// parseParamAnnotation parses the `: T` (and a default after it) of an
// arrow parameter read as an expression: (a: number, {b}: Opts = {}).
func (p *parser) parseParamAnnotation(item Expr, ref *coverErrors) Expr {
	p.next() // :
	p.parseType()
	if p.tt != js.EqToken {
		return item
	}
	if _, isSpread := item.(*Spread); isSpread {
		p.failAt(item.Pos(), "Rest parameter may not have a default initializer")
	}
	start := item.Pos()
	target := p.toAssignable(item, false, ref)
	if ref.shorthandAssign >= start {
		ref.shorthandAssign = -1
	}
	if ref.doubleProto >= start {
		ref.doubleProto = -1
	}
	p.next() // =
	return alloc(&p.a.assigns, Assign{At: At{start}, Op: OpAssign, Target: target, Value: p.parseAssign(false, nil)})
}

// parseAngleBracket parses what starts with '<' where an expression may:
// a generic arrow function (<T>(x: T) => x, <T,>(x) => x) or an old-style
// type assertion (<T>x), erased to its operand.
func (p *parser) parseAngleBracket(start Pos) Expr {
	if x, ok := p.tryGenericArrow(start, false); ok {
		return x
	}
	p.next() // <
	p.parseType()
	p.expectTypeGt()
	p.enter()
	x := p.parseUnary(nil)
	p.leave()
	p.markParen(x)
	return x
}

// tryArrowInCondThen reads (params): R => body at the start of a
// conditional's then branch, where JavaScript reads a ? (b) : c => d as
// a ? b : (c => d). As in TypeScript, the arrow reading wins only when a
// ':' follows the whole arrow (a ? (b): T => b : d).
func (p *parser) tryArrowInCondThen(start Pos, items []Expr, trailing Pos, ref *coverErrors, async bool) (Expr, bool) {
	var x Expr
	ok := p.try(specCondArrow, func() {
		p.next() // :
		p.parseReturnType()
		if p.tt != js.ArrowToken || p.nl {
			p.unexpected()
		}
		params, rest := p.toParams(items, trailing, ref)
		x = p.parseArrowBody(start, params, rest, async)
		if p.tt != js.ColonToken {
			p.unexpected()
		}
	})
	return x, ok
}
