package ast

// The TypeScript type grammar. Types have no run-time meaning: the parser
// reads them exactly (so that a mistake in one is a ParseError at the right
// place) and builds nothing. What a type ends at must be right, since the
// JavaScript after it is parsed as usual.

import (
	"github.com/tdewolff/parse/v2/js"
)

// parseType parses a type: a function or constructor type, or a union
// with an optional conditional (A extends B ? C : D).
func (p *parser) parseType() { p.parseTypeIn(false) }

// parseTypeIn parses a type; noConditional is set where an extends clause
// belongs to an enclosing conditional type (its check type, an infer
// constraint).
func (p *parser) parseTypeIn(noConditional bool) {
	p.enter()
	defer p.leave()
	if p.startsFunctionType() {
		p.parseFunctionType()
		return
	}
	p.parseUnionType()
	if !noConditional && p.tt == js.ExtendsToken && !p.nl {
		p.next()
		p.parseTypeIn(true)
		p.expect(js.QuestionToken)
		p.parseType()
		p.expect(js.ColonToken)
		p.parseType()
	}
}

// startsFunctionType reports whether a function or constructor type
// starts here: <T>(...) =>, new (...) =>, abstract new, or a parenthesis
// that opens parameters rather than a parenthesized type (TypeScript's
// isStartOfFunctionTypeOrConstructorType).
func (p *parser) startsFunctionType() bool {
	switch {
	case p.tt == js.LtToken || p.tt == js.NewToken:
		return true
	case p.isWord("abstract"):
		w, nl := p.peekWord()
		return w == "new" && !nl
	case p.tt == js.OpenParenToken:
		return p.lookahead(p.parenStartsParams)
	}
	return false
}

// parenStartsParams looks past a '(' in a type: () or (...x, (x:, (x?,
// (x,, (x= and (x) => start parameters; a pattern parameter is skipped.
func (p *parser) parenStartsParams() bool {
	p.next() // (
	switch p.tt {
	case js.CloseParenToken, js.EllipsisToken:
		return true
	case js.OpenBraceToken, js.OpenBracketToken:
		// A pattern parameter is short; a bound keeps nested
		// parenthesized types from being rescanned at every level.
		if !p.skipBalancedWithin(patternTokenBudget) {
			return false
		}
	default:
		if !js.IsIdentifierName(p.tt) {
			return false
		}
		p.next()
	}
	switch p.tt {
	case js.ColonToken, js.CommaToken, js.QuestionToken, js.EqToken:
		return true
	case js.CloseParenToken:
		p.next()
		return p.tt == js.ArrowToken
	}
	return false
}

// parseFunctionType parses [abstract] [new] [<T>] (params) => ReturnType.
func (p *parser) parseFunctionType() {
	if p.isWord("abstract") {
		p.next()
	}
	p.eat(js.NewToken)
	if p.tt == js.LtToken {
		p.parseTypeParams()
	}
	p.parseSignatureParams()
	p.expect(js.ArrowToken)
	p.parseReturnType()
}

// parseSignatureParams parses the parameters of a function type or a
// signature in an object type: names or patterns with optional ? and
// types, no defaults.
func (p *parser) parseSignatureParams() {
	p.expect(js.OpenParenToken)
	for p.tt != js.CloseParenToken {
		p.eat(js.EllipsisToken)
		p.skipParamModifiers()
		switch {
		case p.tt == js.OpenBraceToken || p.tt == js.OpenBracketToken:
			p.skipBalanced()
		case js.IsIdentifierName(p.tt):
			p.next()
		default:
			p.unexpected()
		}
		p.eat(js.QuestionToken)
		if p.eat(js.ColonToken) {
			p.parseType()
		}
		if p.tt != js.CloseParenToken {
			p.expect(js.CommaToken)
		}
	}
	p.next()
}

// skipParamModifiers steps over accessibility modifiers, which a
// declaration's signature (declare class, an overload) may carry.
func (p *parser) skipParamModifiers() {
	for p.isParamModifier() {
		p.next()
	}
}

// parseReturnType parses the type after a ':' that gives a function's
// return: also a type predicate (x is T, this is T) or an assertion
// signature (asserts x, asserts x is T).
func (p *parser) parseReturnType() {
	if p.isWord("asserts") {
		if i, nl := p.peekRaw(); !nl && i < len(p.buf) && isIdentStartByte(p.buf[i]) {
			p.next()
			p.next() // the parameter name, or this
			if p.isWord("is") && !p.nl {
				p.next()
				p.parseType()
			}
			return
		}
	}
	if js.IsIdentifier(p.tt) || p.tt == js.ThisToken {
		if w, nl := p.peekWord(); w == "is" && !nl {
			p.next()
			p.next() // is
			p.parseType()
			return
		}
	}
	p.parseType()
}

func (p *parser) parseUnionType() {
	p.eat(js.BitOrToken)
	p.parseIntersectionType()
	for p.eat(js.BitOrToken) {
		p.parseIntersectionType()
	}
}

func (p *parser) parseIntersectionType() {
	p.eat(js.BitAndToken)
	p.parseTypeOperator()
	for p.eat(js.BitAndToken) {
		p.parseTypeOperator()
	}
}

// parseTypeOperator parses keyof T, unique symbol, readonly T[], infer X,
// or a postfix type.
func (p *parser) parseTypeOperator() {
	p.enter()
	defer p.leave()
	if p.tt == js.IdentifierToken {
		switch string(p.lit) {
		case "keyof", "unique", "readonly":
			if p.startsTypeAfterWord() {
				p.next()
				p.parseTypeOperator()
				return
			}
		case "infer":
			if p.startsTypeAfterWord() {
				p.next()
				p.expectIdentName()
				if p.tt == js.ExtendsToken && !p.nl {
					p.try(specInferConstraint, func() {
						p.next()
						p.parseTypeIn(true)
						if p.tt == js.QuestionToken {
							p.unexpected() // the extends of a conditional type
						}
					})
				}
				return
			}
		}
	}
	p.parsePostfixType()
}

// startsTypeAfterWord reports whether the word at the current token is an
// operator (keyof T) rather than a type name (a property named keyof is
// not possible here, but a type named unique is).
func (p *parser) startsTypeAfterWord() bool {
	b, nl := p.peekByte()
	if nl && string(p.lit) != "keyof" {
		return false
	}
	return isIdentStartByte(b) || b == '(' || b == '[' || b == '{' || b == '\'' || b == '"' || b == '`' || b == '-' || b >= '0' && b <= '9'
}

// parsePostfixType parses a primary type followed by [] and [K].
func (p *parser) parsePostfixType() {
	p.parsePrimaryType()
	for p.tt == js.OpenBracketToken && !p.nl {
		p.next()
		if !p.eat(js.CloseBracketToken) {
			p.parseType()
			p.expect(js.CloseBracketToken)
		}
	}
}

func (p *parser) parsePrimaryType() {
	switch p.tt {
	case js.StringToken, js.TrueToken, js.FalseToken, js.NullToken, js.VoidToken, js.ThisToken:
		p.next()
		return
	case js.DecimalToken, js.IntegerToken, js.HexadecimalToken, js.OctalToken, js.BinaryToken:
		p.next()
		return
	case js.SubToken:
		p.next()
		if !js.IsNumeric(p.tt) {
			p.unexpected()
		}
		p.next()
		return
	case js.TemplateToken:
		p.next()
		return
	case js.TemplateStartToken:
		p.parseTemplateType()
		return
	case js.OpenParenToken:
		p.next()
		p.parseType()
		p.expect(js.CloseParenToken)
		return
	case js.OpenBracketToken:
		p.parseTupleType()
		return
	case js.OpenBraceToken:
		if p.lookahead(p.startsMappedType) {
			p.parseMappedType()
		} else {
			p.parseObjectType()
		}
		return
	case js.TypeofToken:
		p.next()
		if p.tt == js.ImportToken {
			p.parseImportType()
			return
		}
		p.parseEntityName()
		p.parseTypeArgsIfAny()
		return
	case js.ImportToken:
		p.parseImportType()
		return
	}
	if js.IsIdentifierName(p.tt) {
		p.parseEntityName()
		p.parseTypeArgsIfAny()
		return
	}
	p.unexpected()
}

// parseEntityName parses a dotted name: T, ns.T, this.x.
func (p *parser) parseEntityName() {
	p.expectIdentName()
	for p.tt == js.DotToken {
		p.next()
		if p.tt == js.PrivateIdentifierToken {
			p.next()
			continue
		}
		p.expectIdentName()
	}
}

func (p *parser) expectIdentName() {
	if !js.IsIdentifierName(p.tt) {
		p.unexpected()
	}
	p.next()
}

// parseTypeArgsIfAny parses the type arguments of a type reference,
// which must start on the same line.
func (p *parser) parseTypeArgsIfAny() {
	if (p.tt == js.LtToken || p.tt == js.LtLtToken) && !p.nl {
		p.parseTypeArgs()
	}
}

// parseImportType parses import("module").Name<T>.
func (p *parser) parseImportType() {
	p.next() // import
	p.expect(js.OpenParenToken)
	if p.tt != js.StringToken {
		p.unexpected()
	}
	p.next()
	p.expect(js.CloseParenToken)
	for p.eat(js.DotToken) {
		p.expectIdentName()
	}
	p.parseTypeArgsIfAny()
}

// parseTemplateType parses a template literal type: `a-${string}`.
func (p *parser) parseTemplateType() {
	p.next() // `...${
	for {
		p.parseType()
		switch p.tt {
		case js.TemplateMiddleToken:
			p.next()
		case js.TemplateEndToken:
			p.next()
			return
		default:
			p.unexpected()
		}
	}
}

// parseTupleType parses [A, B?, ...C[], name: D, rest?: E].
func (p *parser) parseTupleType() {
	p.next() // [
	for p.tt != js.CloseBracketToken {
		p.eat(js.EllipsisToken)
		if js.IsIdentifierName(p.tt) && p.namedTupleMember() {
			p.next()
			p.eat(js.QuestionToken)
			p.expect(js.ColonToken)
		}
		p.parseType()
		p.eat(js.QuestionToken)
		if p.tt != js.CloseBracketToken {
			p.expect(js.CommaToken)
		}
	}
	p.next()
}

// namedTupleMember reports whether the current word labels a tuple
// member (name: T or name?: T).
func (p *parser) namedTupleMember() bool {
	i, _ := p.peekRaw()
	if i >= len(p.buf) {
		return false
	}
	if p.buf[i] == ':' {
		return true
	}
	return p.buf[i] == '?' && i+1 < len(p.buf) && p.buf[i+1] == ':'
}

// startsMappedType looks past a '{': { [K in ...], { readonly [K in ...],
// { +readonly [...], { -readonly [...].
func (p *parser) startsMappedType() bool {
	p.next() // {
	if p.tt == js.AddToken || p.tt == js.SubToken {
		p.next()
		return p.isWord("readonly")
	}
	if p.isWord("readonly") {
		p.next()
	}
	if p.tt != js.OpenBracketToken {
		return false
	}
	p.next()
	if !js.IsIdentifierName(p.tt) {
		return false
	}
	p.next()
	return p.tt == js.InToken
}

// parseMappedType parses { readonly [K in T as N]?: V }.
func (p *parser) parseMappedType() {
	p.next() // {
	if p.tt == js.AddToken || p.tt == js.SubToken {
		p.next()
	}
	if p.isWord("readonly") {
		p.next()
	}
	p.expect(js.OpenBracketToken)
	p.expectIdentName()
	p.expect(js.InToken)
	p.parseType()
	if p.tt == js.AsToken {
		p.next()
		p.parseType()
	}
	p.expect(js.CloseBracketToken)
	if p.tt == js.AddToken || p.tt == js.SubToken {
		p.next()
		p.expect(js.QuestionToken)
	} else {
		p.eat(js.QuestionToken)
	}
	if p.eat(js.ColonToken) {
		p.parseType()
	}
	p.eat(js.SemicolonToken)
	p.eat(js.CommaToken)
	p.expect(js.CloseBraceToken)
}

// parseObjectType parses an object type literal or an interface body:
// { a: T; b?: U, m(): V; (x): W; new (x): X; [k: string]: Y; get g(): Z }.
func (p *parser) parseObjectType() {
	p.enter()
	defer p.leave()
	p.expect(js.OpenBraceToken)
	for p.tt != js.CloseBraceToken {
		p.parseTypeMember()
		if !p.eat(js.SemicolonToken) && !p.eat(js.CommaToken) && p.tt != js.CloseBraceToken && !p.nl {
			p.unexpected()
		}
	}
	p.next()
}

func (p *parser) parseTypeMember() {
	switch {
	case p.tt == js.OpenParenToken || p.tt == js.LtToken:
		p.parseSignatureRest()
		return
	case p.tt == js.NewToken:
		if b, _ := p.peekByte(); b == '(' || b == '<' {
			p.next()
			p.parseSignatureRest()
			return
		}
	}
	for (p.isWord("readonly") || p.tt == js.GetToken || p.tt == js.SetToken) && p.typeMemberModifier() {
		p.next()
	}
	if p.tt == js.OpenBracketToken {
		if p.lookahead(p.startsIndexSignature) {
			p.parseIndexSignature()
			return
		}
		p.skipBalanced() // a computed key: [Symbol.iterator]
	} else {
		p.parseTypeMemberKey()
	}
	p.eat(js.QuestionToken)
	if p.tt == js.OpenParenToken || p.tt == js.LtToken {
		p.parseSignatureRest()
		return
	}
	if p.eat(js.ColonToken) {
		p.parseType()
	}
}

// typeMemberModifier reports whether readonly, get or set modifies the
// member that follows rather than naming it.
func (p *parser) typeMemberModifier() bool {
	b, nl := p.peekByte()
	return !nl && (isIdentStartByte(b) || b == '[' || b == '\'' || b == '"' || b >= '0' && b <= '9' || b == '#')
}

func (p *parser) parseTypeMemberKey() {
	switch {
	case p.tt == js.StringToken || js.IsNumeric(p.tt) || js.IsIdentifierName(p.tt) || p.tt == js.PrivateIdentifierToken:
		p.next()
	default:
		p.unexpected()
	}
}

// startsIndexSignature looks past '[': [key: and [readonly key: start an
// index signature, anything else a computed key.
func (p *parser) startsIndexSignature() bool {
	p.next() // [
	if !js.IsIdentifierName(p.tt) {
		return false
	}
	p.next()
	return p.tt == js.ColonToken
}

// parseIndexSignature parses [key: K]: V (the modifiers are consumed).
func (p *parser) parseIndexSignature() {
	p.next() // [
	p.next() // key
	p.next() // :
	p.parseType()
	p.expect(js.CloseBracketToken)
	if p.eat(js.ColonToken) {
		p.parseType()
	}
}

// parseSignatureRest parses [<T>] (params) [: R] of a call, construct or
// method signature.
func (p *parser) parseSignatureRest() {
	if p.tt == js.LtToken {
		p.parseTypeParams()
	}
	p.parseSignatureParams()
	if p.eat(js.ColonToken) {
		p.parseReturnType()
	}
}

// parseTypeArgs parses <A, B>, splitting a >> the lexer read as one
// token. A << opening the list (f<<T>(x: T) => T>()) is split as well.
func (p *parser) parseTypeArgs() {
	p.enter()
	defer p.leave()
	p.expectTypeLt()
	for {
		p.parseType()
		if !p.eat(js.CommaToken) || p.isTypeGt() {
			break
		}
	}
	p.expectTypeGt()
}

// parseTypeParams parses <const in out T extends C = D, ...>.
func (p *parser) parseTypeParams() {
	p.enter()
	defer p.leave()
	p.expectTypeLt()
	for !p.isTypeGt() {
		for (p.tt == js.ConstToken || p.tt == js.InToken || p.isWord("out")) && p.typeParamModifier() {
			p.next()
		}
		if !js.IsIdentifier(p.tt) {
			p.unexpected()
		}
		p.next()
		if p.eat(js.ExtendsToken) {
			p.parseType()
		}
		if p.eat(js.EqToken) {
			p.parseType()
		}
		if !p.isTypeGt() {
			p.expect(js.CommaToken)
		}
	}
	p.expectTypeGt()
}

// typeParamModifier reports whether const, in or out modifies the type
// parameter after it (<in T>) rather than being its name (<out>).
func (p *parser) typeParamModifier() bool {
	b, _ := p.peekByte()
	return isIdentStartByte(b)
}

func (p *parser) expectTypeLt() {
	switch p.tt {
	case js.LtToken:
		p.next()
	case js.LtLtToken:
		p.splitToken(js.LtToken)
	default:
		p.unexpected()
	}
}

// isTypeGt reports a token that starts with the '>' closing a type list.
func (p *parser) isTypeGt() bool {
	switch p.tt {
	case js.GtToken, js.GtGtToken, js.GtGtGtToken, js.GtEqToken, js.GtGtEqToken, js.GtGtGtEqToken:
		return true
	}
	return false
}

// expectTypeGt consumes the '>' that closes a type list. The lexer reads
// >> (Array<Array<T>>), >>> and >= (x: Array<T>= y) as one token; only
// its first character is consumed then.
func (p *parser) expectTypeGt() {
	switch p.tt {
	case js.GtToken:
		p.next()
	case js.GtGtToken:
		p.splitToken(js.GtToken)
	case js.GtGtGtToken:
		p.splitToken(js.GtGtToken)
	case js.GtEqToken:
		p.splitToken(js.EqToken)
	case js.GtGtEqToken:
		p.splitToken(js.GtEqToken)
	case js.GtGtGtEqToken:
		p.splitToken(js.GtGtEqToken)
	default:
		p.unexpected()
	}
}

// splitToken consumes the first character of the current token, leaving
// the rest as a token of type rest.
func (p *parser) splitToken(rest js.TokenType) {
	p.tt, p.lit = rest, p.lit[1:]
	p.pos++
	p.prevEnd = int(p.pos) - p.base
	p.nl = false
}

// skipBalanced steps over a bracketed group of tokens ([...], {...} or
// (...)), for what a type may hold that has no grammar of its own here
// (a pattern parameter of a function type, a computed key).
func (p *parser) skipBalanced() { p.skipBalancedWithin(-1) }

// patternTokenBudget bounds the tokens a lookahead skips over a pattern.
const patternTokenBudget = 256

// skipBalancedWithin is skipBalanced that gives up (reporting false)
// after budget tokens, unless budget is negative.
func (p *parser) skipBalancedWithin(budget int) bool {
	depth := 0
	for ; budget != 0; budget-- {
		switch p.tt {
		case js.OpenBraceToken, js.OpenBracketToken, js.OpenParenToken, js.TemplateStartToken:
			depth++
		case js.CloseBraceToken, js.CloseBracketToken, js.CloseParenToken, js.TemplateEndToken:
			depth--
		case eofToken:
			p.unexpected()
		}
		p.next()
		if depth == 0 {
			return true
		}
	}
	return false
}

// isWord reports whether the current token is the identifier word w.
func (p *parser) isWord(w string) bool {
	return js.IsIdentifier(p.tt) && string(p.lit) == w
}
