package ast

import (
	"github.com/tdewolff/parse/v2/js"
)

// coverErrors remembers, while an expression might still turn out to be a
// destructuring pattern, what would make it invalid as an expression
// ({a = 1}, a repeated __proto__) or as a pattern (a comma after a rest
// element). -1 means none.
type coverErrors struct {
	shorthandAssign Pos
	doubleProto     Pos
	trailingComma   Pos
}

func (p *parser) newCoverErrors() *coverErrors {
	return alloc(&p.a.covers, coverErrors{-1, -1, -1})
}

// checkExpressionErrors fails if the expression, now known not to be a
// pattern, used pattern-only syntax.
func (p *parser) checkExpressionErrors(ref *coverErrors) {
	if ref == nil {
		return
	}
	if ref.shorthandAssign >= 0 {
		p.failAt(ref.shorthandAssign, "Invalid shorthand property initializer: '=' in an object literal is only valid in a destructuring pattern")
	}
	if ref.doubleProto >= 0 {
		p.failAt(ref.doubleProto, "Duplicate __proto__ fields are not allowed in object literals")
	}
}

// checkPatternErrors fails if the pattern, now known to be one, had
// expression-only syntax.
func (p *parser) checkPatternErrors(ref *coverErrors) {
	if ref != nil && ref.trailingComma >= 0 {
		p.failAt(ref.trailingComma, "Rest element must be last element")
	}
}

// parseExpression parses a comma-separated expression. noIn excludes the
// `in` operator (in a for head).
func (p *parser) parseExpression(noIn bool) Expr {
	return p.parseExpressionRef(noIn, nil)
}

func (p *parser) parseExpressionRef(noIn bool, ref *coverErrors) Expr {
	start := p.pos
	x := p.parseAssign(noIn, ref)
	if p.tt != js.CommaToken {
		return x
	}
	seq := &Sequence{At: At{start}, List: []Expr{x}}
	for p.eat(js.CommaToken) {
		seq.List = append(seq.List, p.parseAssign(noIn, ref))
	}
	return seq
}

var assignOps = map[js.TokenType]AssignOp{
	js.EqToken: OpAssign, js.AddEqToken: OpAddAssign, js.SubEqToken: OpSubAssign,
	js.MulEqToken: OpMulAssign, js.DivEqToken: OpDivAssign, js.ModEqToken: OpModAssign,
	js.ExpEqToken: OpExpAssign, js.LtLtEqToken: OpShlAssign, js.GtGtEqToken: OpShrAssign,
	js.GtGtGtEqToken: OpUShrAssign, js.BitAndEqToken: OpBitAndAssign, js.BitOrEqToken: OpBitOrAssign,
	js.BitXorEqToken: OpBitXorAssign, js.AndEqToken: OpAndAssign, js.OrEqToken: OpOrAssign,
	js.NullishEqToken: OpNullishAssign,
}

// parseAssign parses an AssignmentExpression: an arrow function, yield,
// a conditional expression, or an assignment to a target or pattern.
func (p *parser) parseAssign(noIn bool, ref *coverErrors) Expr {
	p.enter()
	defer p.leave()
	if p.tt == js.YieldToken && p.inGenerator() {
		return p.parseYield(noIn)
	}
	ownRef := ref == nil
	var own coverErrors
	if ownRef {
		own = coverErrors{-1, -1, -1}
		ref = &own
	}
	start := p.pos
	if p.tt == js.OpenParenToken || js.IsIdentifier(p.tt) {
		p.potentialArrowAt = start
	}
	left := p.parseConditional(noIn, ref)
	rawOp, isAssign := assignTable.lookup(p.tt)
	op := AssignOp(rawOp)
	if !isAssign {
		if ownRef {
			p.checkExpressionErrors(ref)
		}
		return left
	}
	var target Pattern
	if op == OpAssign {
		target = p.toAssignable(left, false, ref)
	} else {
		target = p.checkSimpleTarget(left, "Invalid left-hand side in assignment")
	}
	if ref.shorthandAssign >= start {
		ref.shorthandAssign = -1
	}
	if ref.doubleProto >= start {
		ref.doubleProto = -1
	}
	p.next()
	value := p.parseAssign(noIn, nil)
	return alloc(&p.a.assigns, Assign{At: At{start}, Op: op, Target: target, Value: value})
}

func (p *parser) parseYield(noIn bool) Expr {
	y := &Yield{At: At{p.pos}}
	if p.yieldPos < 0 {
		p.yieldPos = y.Start
	}
	p.next()
	if p.nl {
		return y
	}
	if p.eat(js.MulToken) {
		y.Delegate = true
		y.X = p.parseAssign(noIn, nil)
		return y
	}
	switch p.tt {
	case js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken, js.CommaToken,
		js.SemicolonToken, js.ColonToken, eofToken, js.TemplateMiddleToken, js.TemplateEndToken:
		return y
	}
	if _, ok := assignOps[p.tt]; ok && p.tt != js.DivEqToken {
		return y
	}
	if p.tt == js.QuestionToken || p.tt == js.InToken || p.tt == js.OfToken {
		return y
	}
	y.X = p.parseAssign(noIn, nil)
	return y
}

func (p *parser) parseConditional(noIn bool, ref *coverErrors) Expr {
	start := p.pos
	x := p.parseBinaryExpr(noIn, ref)
	if p.tt != js.QuestionToken || p.isBareArrow(x) {
		return x
	}
	p.checkExpressionErrors(ref)
	p.next()
	if p.tt == js.ColonToken && !p.ts {
		p.failTS(p.pos-1, "optional parameter or property")
	}
	savedThen := p.condThenAt
	p.condThenAt = p.pos
	then := p.parseAssign(false, nil)
	p.condThenAt = savedThen
	p.expect(js.ColonToken)
	els := p.parseAssign(noIn, nil)
	return alloc(&p.a.conds, Cond{At: At{start}, Test: x, Then: then, Else: els})
}

var binaryOps = map[js.TokenType]BinaryOp{
	js.NullishToken: OpNullish, js.OrToken: OpOr, js.AndToken: OpAnd,
	js.BitOrToken: OpBitOr, js.BitXorToken: OpBitXor, js.BitAndToken: OpBitAnd,
	js.EqEqToken: OpEq, js.NotEqToken: OpNe, js.EqEqEqToken: OpStrictEq, js.NotEqEqToken: OpStrictNe,
	js.LtToken: OpLt, js.GtToken: OpGt, js.LtEqToken: OpLe, js.GtEqToken: OpGe,
	js.InstanceofToken: OpInstanceof, js.InToken: OpIn,
	js.LtLtToken: OpShl, js.GtGtToken: OpShr, js.GtGtGtToken: OpUShr,
	js.AddToken: OpAdd, js.SubToken: OpSub, js.MulToken: OpMul, js.DivToken: OpDiv, js.ModToken: OpMod,
	js.ExpToken: OpExp,
}

// operatorTable maps operator tokens (js.OperatorToken+i) to a value+1,
// so that the parser's hot loops index an array instead of hashing.
type operatorTable [64]uint8

func makeOperatorTable[T ~uint8](m map[js.TokenType]T) *operatorTable {
	var t operatorTable
	for tt, v := range m {
		if js.IsOperator(tt) {
			t[tt-js.OperatorToken] = uint8(v) + 1
		}
	}
	return &t
}

func (t *operatorTable) lookup(tt js.TokenType) (uint8, bool) {
	if !js.IsOperator(tt) || tt-js.OperatorToken >= 64 {
		return 0, false
	}
	v := t[tt-js.OperatorToken]
	return v - 1, v != 0
}

var (
	binaryTable = makeOperatorTable(binaryOps)
	assignTable = makeOperatorTable(assignOps)
)

func (p *parser) binaryOp(noIn bool) (BinaryOp, bool) {
	switch p.tt {
	case js.InToken:
		return OpIn, !noIn
	case js.InstanceofToken:
		return OpInstanceof, true
	}
	op, ok := binaryTable.lookup(p.tt)
	return BinaryOp(op), ok
}

func (p *parser) parseBinaryExpr(noIn bool, ref *coverErrors) Expr {
	x := p.parseUnary(ref)
	if p.isBareArrow(x) {
		return x // an arrow function is an AssignmentExpression, never an operand
	}
	if _, ok := p.binaryOp(noIn); !ok && !(p.ts && p.isTSAssertion()) {
		if _, isPriv := x.(*PrivateName); isPriv {
			p.failAt(x.Pos(), "Unexpected private name")
		}
		return x
	}
	p.checkExpressionErrors(ref)
	return p.parseBinaryRHS(x, 0, noIn)
}

// parseBinaryRHS is precedence climbing: it extends left with operators
// that bind tighter than minPrec. ** is right-associative.
func (p *parser) parseBinaryRHS(left Expr, minPrec int, noIn bool) Expr {
	nested := 0
	defer func() { p.depth -= nested }()
	for {
		op, ok := p.binaryOp(noIn)
		if !ok && p.ts && p.isTSAssertion() && OpLt.Precedence() > minPrec {
			// x as T binds like a relational operator: a + b as T is
			// (a + b) as T, a === b as T is a === (b as T).
			left = p.parseTSAssertion(left)
			continue
		}
		if !ok {
			if _, isPriv := left.(*PrivateName); isPriv {
				p.failAt(left.Pos(), "Unexpected private name")
			}
			return left
		}
		prec := op.Precedence()
		if prec <= minPrec {
			return left
		}
		opPos := p.pos
		if op == OpExp && !p.isParen(left) {
			switch left.(type) {
			case *Unary, *Await:
				p.failAt(left.Pos(), "Unary operator used immediately before exponentiation expression. Parentheses must be used to disambiguate operator precedence")
			}
		}
		p.next()
		p.enter()
		nested++
		rightMin := prec
		if op == OpExp {
			rightMin = prec - 1
		}
		right := p.parseBinaryRHS(p.parseUnary(nil), rightMin, noIn)
		left = p.makeBinary(op, left, right, opPos)
	}
}

func (p *parser) makeBinary(op BinaryOp, x, y Expr, opPos Pos) Expr {
	if _, ok := y.(*PrivateName); ok {
		p.failAt(y.Pos(), "Unexpected private name")
	}
	if priv, ok := x.(*PrivateName); ok {
		if op != OpIn {
			p.failAt(priv.Start, "Unexpected private name")
		}
		return &PrivateIn{At: At{priv.Start}, Name: priv, X: y}
	}
	mixes := func(child Expr) bool {
		b, ok := child.(*Binary)
		if !ok || p.isParen(child) {
			return false
		}
		if op == OpNullish {
			return b.Op == OpOr || b.Op == OpAnd
		}
		return (op == OpOr || op == OpAnd) && b.Op == OpNullish
	}
	if mixes(x) || mixes(y) {
		p.failAt(opPos, "Cannot mix '??' with '||' or '&&' without parentheses")
	}
	return alloc(&p.a.binaries, Binary{At: At{x.Pos()}, Op: op, X: x, Y: y})
}

func (p *parser) unaryOp() (UnaryOp, bool) {
	switch p.tt {
	case js.NotToken:
		return OpNot, true
	case js.BitNotToken:
		return OpBitNot, true
	case js.AddToken:
		return OpPos, true
	case js.SubToken:
		return OpNeg, true
	case js.TypeofToken:
		return OpTypeof, true
	case js.VoidToken:
		return OpVoid, true
	case js.DeleteToken:
		return OpDelete, true
	}
	return 0, false
}

func (p *parser) parseUnary(ref *coverErrors) Expr {
	start := p.pos
	if op, ok := p.unaryOp(); ok {
		p.next()
		p.enter()
		x := p.parseUnary(nil)
		p.leave()
		if _, isPriv := x.(*PrivateName); isPriv {
			p.failAt(x.Pos(), "Unexpected private name")
		}
		if op == OpDelete {
			if ch, ok := x.(*Chain); ok {
				x := ch.X
				if m, ok := x.(*Member); ok && m.Private != nil {
					p.failAt(start, "Private fields can not be deleted")
				}
			}
			switch t := x.(type) {
			case *Ident: // parenthesized or not
				p.failAt(start, "Delete of an unqualified identifier in strict mode.")
			case *Member:
				if t.Private != nil {
					p.failAt(start, "Private fields can not be deleted")
				}
			}
		}
		return alloc(&p.a.unaries, Unary{At: At{start}, Op: op, X: x})
	}
	switch p.tt {
	case js.IncrToken, js.DecrToken:
		op := OpInc
		if p.tt == js.DecrToken {
			op = OpDec
		}
		p.next()
		p.enter()
		x := p.parseUnary(nil)
		p.leave()
		p.checkSimpleTarget(x, "Invalid left-hand side expression in prefix operation")
		return alloc(&p.a.updates, Update{At: At{start}, Op: op, Prefix: true, X: x})
	case js.AwaitToken:
		if !p.inAsync() {
			p.failAt(start, "'await' is only valid in async functions and at the top level of the program.")
		}
		if p.awaitPos < 0 {
			p.awaitPos = start
		}
		p.next()
		p.enter()
		defer p.leave()
		return &Await{At: At{start}, X: p.parseUnary(nil)}
	case js.LtToken:
		if p.ts {
			return p.parseAngleBracket(start)
		}
		p.failTS(start, "type assertion or generic arrow function")
	}
	x := p.parseLHS(ref)
	if (p.tt == js.IncrToken || p.tt == js.DecrToken) && !p.nl && !p.isBareArrow(x) {
		p.checkExpressionErrors(ref)
		op := OpInc
		if p.tt == js.DecrToken {
			op = OpDec
		}
		p.checkSimpleTarget(x, "Invalid left-hand side expression in postfix operation")
		p.next()
		return alloc(&p.a.updates, Update{At: At{start}, Op: op, X: x})
	}
	return x
}

// checkSimpleTarget accepts what a compound assignment or ++/-- may
// change: a variable, or a property that is not part of an optional chain.
func (p *parser) checkSimpleTarget(x Expr, msg string) Pattern {
	switch t := x.(type) {
	case *Ident:
		if t.Name == "eval" || t.Name == "arguments" {
			p.failAt(t.Start, "Unexpected eval or arguments in strict mode")
		}
		return t
	case *Member:
		return t
	case *Index:
		return t
	}
	p.failAt(x.Pos(), "%s", msg)
	return nil
}

// parseLHS parses a LeftHandSideExpression: a primary expression with
// its member accesses, calls, tagged templates and new.
func (p *parser) parseLHS(ref *coverErrors) Expr {
	start := p.pos
	var x Expr
	if p.tt == js.NewToken {
		x = p.parseNew()
	} else {
		x = p.parsePrimary(ref)
	}
	if p.isBareArrow(x) {
		return x
	}
	return p.parseSubscripts(x, start, false, ref)
}

func (p *parser) parseNew() Expr {
	start := p.pos
	p.next()
	if p.tt == js.DotToken {
		p.next()
		if p.tt != js.TargetToken {
			p.unexpected()
		}
		if !p.fn.newTarget {
			p.failAt(start, "new.target expression is not allowed here")
		}
		p.next()
		return &NewTarget{At{start}}
	}
	p.enter()
	defer p.leave()
	calleeStart := p.pos
	var callee Expr
	if p.tt == js.NewToken {
		callee = p.parseNew()
	} else {
		if p.tt == js.ImportToken {
			p.failAt(p.pos, "Cannot use new with import")
		}
		p.potentialArrowAt = -1
		callee = p.parsePrimary(nil)
	}
	callee = p.parseSubscripts(callee, calleeStart, true, nil)
	if _, isSuper := callee.(*Super); isSuper {
		p.failAt(calleeStart, "'super' keyword unexpected here") // new super(), not new super.x()
	}
	n := alloc(&p.a.news, New{At: At{start}, Callee: callee})
	if p.tt == js.OpenParenToken {
		n.Args = p.parseArgs()
	}
	return n
}

// parseSubscripts applies member accesses, calls, optional chaining and
// tagged templates to x. noCalls stops at the first call (for new X()).
func (p *parser) parseSubscripts(x Expr, start Pos, noCalls bool, ref *coverErrors) Expr {
	chained, applied := false, 0
	defer func() { p.depth -= applied }()
loop:
	for {
		switch p.tt {
		case js.DotToken:
			p.next()
			x = p.parseMemberProp(x, start, false)
		case js.OptChainToken:
			if noCalls {
				p.failAt(p.pos, "Invalid optional chain from new expression")
			}
			chained = true
			p.next()
			if p.ts && p.tt == js.LtToken {
				p.parseTypeArgs() // f?.<T>(x)
				if p.tt != js.OpenParenToken {
					p.unexpected()
				}
			}
			switch p.tt {
			case js.OpenParenToken:
				x = alloc(&p.a.calls, Call{At: At{start}, Callee: x, Args: p.parseArgs(), Optional: true})
			case js.OpenBracketToken:
				p.next()
				idx := p.parseExpression(false)
				p.expect(js.CloseBracketToken)
				x = alloc(&p.a.indexes, Index{At: At{start}, X: x, Index: idx, Optional: true})
			case js.TemplateToken, js.TemplateStartToken:
				p.failAt(p.pos, "Invalid tagged template on optional chain")
			default:
				x = p.parseMemberProp(x, start, true)
			}
		case js.OpenBracketToken:
			p.next()
			idx := p.parseExpression(false)
			p.expect(js.CloseBracketToken)
			x = alloc(&p.a.indexes, Index{At: At{start}, X: x, Index: idx})
		case js.OpenParenToken:
			if noCalls {
				break loop
			}
			x = alloc(&p.a.calls, Call{At: At{start}, Callee: x, Args: p.parseArgs()})
		case js.TemplateToken, js.TemplateStartToken:
			if chained {
				p.failAt(p.pos, "Invalid tagged template on optional chain")
			}
			x = &TaggedTemplate{At: At{start}, Tag: x, Quasi: p.parseTemplate(true)}
		case js.NotToken:
			if p.nl {
				break loop
			}
			if !p.ts {
				p.failTS(p.pos, "non-null assertion")
			}
			p.next() // x!: a non-null assertion
		case js.LtToken:
			if p.ts {
				if literalCallee(x) || !p.tryTypeArgsInExpression() {
					break loop
				}
				break // f<T>(x), new Map<K, V>(), f<T>`...`
			}
			if p.looksLikeTypeArguments() {
				p.failTS(p.pos, "generic type arguments")
			}
			break loop
		default:
			break loop
		}
		p.enter()
		applied++
	}
	if applied > 0 && ref != nil {
		if ref.shorthandAssign >= start || ref.doubleProto >= start {
			p.checkExpressionErrors(ref)
		}
		if ref.trailingComma >= start {
			ref.trailingComma = -1
		}
	}
	if chained {
		x = &Chain{At: At{start}, X: x}
	}
	return x
}

// looksLikeTypeArguments reports whether a '<' written right after an
// expression (f<T>(x), new Map<string, number>()) starts TypeScript type
// arguments: a balanced <...> of type-like text followed by '('. JavaScript
// reads the same characters as comparisons (i<n>(0)), so the text must
// also look like types: a primitive type name, an array type, or names
// that are all capitalized. A '<' with a space before it stays a
// comparison.
func (p *parser) looksLikeTypeArguments() bool {
	if int(p.pos)-p.base != p.prevEnd {
		return false
	}
	// Type arguments are short; looking no further than this keeps a
	// program full of '<' linear.
	const maxScan = 256
	start := int(p.pos) - p.base
	depth, typeLike, allCaps := 0, false, true
	for i := start; i < len(p.buf) && i < start+maxScan; i++ {
		c := p.buf[i]
		switch {
		case c == '<':
			depth++
		case c == '>':
			depth--
			if depth == 0 {
				for i++; i < len(p.buf) && (p.buf[i] == ' ' || p.buf[i] == '\t'); i++ {
				}
				return (typeLike || allCaps) && i < len(p.buf) && p.buf[i] == '('
			}
		case isIdentStartByte(c):
			j := i + 1
			for j < len(p.buf) && isIdentByte(p.buf[j]) {
				j++
			}
			if tsTypeNames[string(p.buf[i:j])] {
				typeLike = true
			} else if !(c >= 'A' && c <= 'Z') {
				allCaps = false
			}
			i = j - 1
		case c == '[' && i+1 < len(p.buf) && p.buf[i+1] == ']':
			typeLike = true
			i++
		case c == '&' || c == '|':
			if i+1 < len(p.buf) && (p.buf[i+1] == '&' || p.buf[i+1] == '|') {
				return false // && and || are JavaScript
			}
		case c == ' ' || c == ',' || c == '.':
		default:
			return false
		}
	}
	return false
}

var tsTypeNames = map[string]bool{"string": true, "number": true, "boolean": true, "any": true,
	"unknown": true, "void": true, "never": true, "object": true, "bigint": true, "symbol": true,
	"undefined": true, "null": true}

func (p *parser) parseMemberProp(x Expr, start Pos, optional bool) Expr {
	if p.tt == js.PrivateIdentifierToken {
		if _, isSuper := x.(*Super); isSuper {
			p.failAt(p.pos, "Unexpected private field")
		}
		name := p.privateName()
		p.usePrivate(name)
		p.next()
		return &Member{At: At{start}, X: x, Private: name, Optional: optional}
	}
	if !js.IsIdentifierName(p.tt) {
		p.unexpected()
	}
	// One allocation for the member and its name: member accesses are
	// the most common node in code-mode programs.
	both := alloc(&p.a.members, memberName{Member{At: At{start}, X: x, Optional: optional}, Name{At: At{p.pos}, Name: p.identName()}})
	both.m.Prop = &both.n
	p.next()
	return &both.m
}

func (p *parser) parseArgs() []Expr {
	p.expect(js.OpenParenToken)
	m := p.a.exprs.mark()
	for p.tt != js.CloseParenToken {
		if p.tt == js.EllipsisToken {
			start := p.pos
			p.next()
			p.a.exprs.push(&Spread{At: At{start}, X: p.parseAssign(false, nil)})
		} else {
			p.a.exprs.push(p.parseAssign(false, nil))
		}
		if p.tt != js.CloseParenToken {
			p.expect(js.CommaToken)
		}
	}
	p.next()
	return p.a.exprs.finish(m)
}

// parsePrimary parses a PrimaryExpression, including the arrow functions
// that start like one.
func (p *parser) parsePrimary(ref *coverErrors) Expr {
	start := p.pos
	canBeArrow := p.potentialArrowAt == start
	switch p.tt {
	case js.ThisToken:
		p.next()
		return &This{At: At{start}}
	case js.NullToken:
		p.next()
		return &NullLit{At{start}}
	case js.TrueToken, js.FalseToken:
		v := p.tt == js.TrueToken
		p.next()
		return &BoolLit{At: At{start}, Value: v}
	case js.StringToken:
		return p.parseStringLit()
	case js.DecimalToken, js.IntegerToken, js.HexadecimalToken, js.OctalToken, js.BinaryToken:
		return p.parseNumber()
	case js.TemplateToken, js.TemplateStartToken:
		return p.parseTemplate(false)
	case js.DivToken, js.DivEqToken:
		p.reReadRegExp()
		return p.parseRegExp()
	case js.OpenParenToken:
		return p.parseParenOrArrow(canBeArrow)
	case js.OpenBracketToken:
		return p.parseArrayLit(ref)
	case js.OpenBraceToken:
		return p.parseObjectLit(ref)
	case js.FunctionToken:
		return p.parseFunctionExpr(false, start)
	case js.ClassToken:
		c := p.parseClass(false)
		return &ClassLit{At: At{start}, Class: c}
	case js.SuperToken:
		p.next()
		switch p.tt {
		case js.OpenParenToken:
			if !p.fn.superCall {
				p.failAt(start, "'super' keyword unexpected here")
			}
		case js.DotToken, js.OpenBracketToken:
			if !p.fn.superProp {
				p.failAt(start, "'super' keyword unexpected here")
			}
		default:
			p.failAt(start, "'super' keyword unexpected here")
		}
		return &Super{At: At{start}}
	case js.ImportToken:
		p.next()
		if p.eat(js.DotToken) {
			if p.tt != js.MetaToken {
				p.unexpected()
			}
			p.next()
			return &ImportMeta{At{start}}
		}
		p.expect(js.OpenParenToken)
		arg := p.parseAssign(false, nil)
		p.expect(js.CloseParenToken)
		return &ImportCall{At: At{start}, Arg: arg}
	case js.PrivateIdentifierToken:
		name := p.privateName()
		p.next()
		if p.tt != js.InToken {
			p.failAt(start, "Unexpected private name")
		}
		p.usePrivate(name)
		return name
	case js.AsyncToken:
		return p.parseAsyncPrimary(canBeArrow)
	}
	if js.IsIdentifier(p.tt) || p.tt == js.AwaitToken || p.tt == js.YieldToken {
		id := p.parseIdentRef()
		if canBeArrow && p.tt == js.ArrowToken && !p.nl {
			p.checkBindableName(id)
			return p.parseArrowBody(start, []Pattern{id}, nil, false)
		}
		return id
	}
	if p.tt == js.LtToken && !p.ts {
		p.failTS(start, "type assertion or generic arrow function")
	}
	p.unexpected()
	return nil
}

// parseAsyncPrimary handles what can follow the word async: an async
// function expression, an async arrow, or the identifier async itself
// (which may be called: async(x)).
func (p *parser) parseAsyncPrimary(canBeArrow bool) Expr {
	start := p.pos
	if w, nl := p.peekWord(); w == "function" && !nl {
		p.next()
		return p.parseFunctionExpr(true, start)
	}
	id := p.parseIdentRef()
	if !canBeArrow || p.nl {
		return id
	}
	switch {
	case p.tt == js.ArrowToken:
		return p.parseArrowBody(start, []Pattern{id}, nil, false)
	case p.tt == js.OfToken && !p.arrowFollowsNext():
		return id // for (async of xs) in for await
	case js.IsIdentifier(p.tt) || p.tt == js.AwaitToken || p.tt == js.YieldToken:
		param := p.parseBindingIdent()
		if p.tt != js.ArrowToken || p.nl {
			p.unexpected()
		}
		return p.parseArrowBody(start, []Pattern{param}, nil, true)
	case p.ts && p.tt == js.LtToken:
		if x, ok := p.tryGenericArrow(start, true); ok {
			return x // async <T>(x: T) => x
		}
	case p.tt == js.OpenParenToken:
		items, trailing, ref, typed := p.parseParenItems()
		if p.ts && p.tt == js.ColonToken && start == p.condThenAt {
			if x, ok := p.tryArrowInCondThen(start, items, trailing, ref, true); ok {
				return x
			}
		} else if p.ts && p.tt == js.ColonToken && p.tryArrowReturnType() {
			params, rest := p.toParams(items, trailing, ref)
			return p.parseArrowBody(start, params, rest, true)
		}
		if typed >= 0 && (p.tt != js.ArrowToken || p.nl) {
			p.failAt(typed, "Unexpected token '%c'", p.src.Text[typed])
		}
		if p.tt == js.ArrowToken && !p.nl {
			params, rest := p.toParams(items, trailing, ref)
			return p.parseArrowBody(start, params, rest, true)
		}
		p.checkExpressionErrors(ref)
		return alloc(&p.a.calls, Call{At: At{start}, Callee: id, Args: items})
	}
	return id
}

// parseParenItems parses a parenthesized, comma-separated list that may
// turn out to be arrow parameters: it allows a spread element and a
// trailing comma. trailing is the position of a trailing comma, or -1.
//
// TypeScript's parameter annotations and optional marks are read too:
// typed is the position of the first one, or -1, and the list must then
// be arrow parameters.
func (p *parser) parseParenItems() (items []Expr, trailing Pos, ref *coverErrors, typed Pos) {
	outerAwait, outerYield := p.awaitPos, p.yieldPos
	p.awaitPos, p.yieldPos = -1, -1
	p.expect(js.OpenParenToken)
	ref = p.newCoverErrors()
	trailing, typed = -1, -1
	m := p.a.exprs.mark()
	for p.tt != js.CloseParenToken {
		if p.a.exprs.mark() > m {
			comma := p.expect(js.CommaToken)
			if p.tt == js.CloseParenToken {
				trailing = comma
				break
			}
		}
		if p.tt == js.EllipsisToken {
			start := p.pos
			p.next()
			p.a.exprs.push(&Spread{At: At{start}, X: p.parseAssign(false, ref)})
		} else if p.ts && p.optionalParamAhead() {
			p.a.exprs.push(p.parseIdentRef())
			if typed < 0 {
				typed = p.pos
			}
			p.next() // ? of an optional parameter
		} else {
			p.a.exprs.push(p.parseAssign(false, ref))
		}
		if p.tt == js.ColonToken {
			if !p.ts {
				p.failTS(p.pos, "type annotation")
			}
			if typed < 0 {
				typed = p.pos
			}
			// The annotation's parse may grow the stack: index it anew.
			last := p.a.exprs.mark() - 1
			x := p.parseParamAnnotation(p.a.exprs.stack[last], ref)
			p.a.exprs.stack[last] = x
		}
	}
	items = p.a.exprs.finish(m)
	p.next()
	// Arrow parameters may not hold await or yield; anything else merges
	// into the enclosing expression's record.
	if p.tt == js.ArrowToken && !p.nl {
		p.checkParamExpressions()
	}
	if outerAwait >= 0 {
		p.awaitPos = outerAwait
	}
	if outerYield >= 0 {
		p.yieldPos = outerYield
	}
	return items, trailing, ref, typed
}

func (p *parser) parseParenOrArrow(canBeArrow bool) Expr {
	start := p.pos
	items, trailing, ref, typed := p.parseParenItems()
	if canBeArrow && p.ts && p.tt == js.ColonToken && start == p.condThenAt {
		if x, ok := p.tryArrowInCondThen(start, items, trailing, ref, false); ok {
			return x
		}
	} else if canBeArrow && p.ts && p.tt == js.ColonToken && p.tryArrowReturnType() {
		params, rest := p.toParams(items, trailing, ref)
		return p.parseArrowBody(start, params, rest, false)
	}
	if canBeArrow && p.tt == js.ArrowToken && !p.nl {
		params, rest := p.toParams(items, trailing, ref)
		return p.parseArrowBody(start, params, rest, false)
	}
	if typed >= 0 {
		p.failAt(typed, "Unexpected token '%c'", p.src.Text[typed])
	}
	if len(items) == 0 {
		if p.tt == js.ColonToken {
			p.failTS(p.pos, "return type annotation")
		}
		p.failAt(start+1, "Unexpected token ')'")
	}
	for _, it := range items {
		if sp, ok := it.(*Spread); ok {
			p.failAt(sp.Start, "Unexpected token '...'")
		}
	}
	if trailing >= 0 {
		p.failAt(trailing+1, "Unexpected token ')'")
	}
	p.checkExpressionErrors(ref)
	var x Expr
	if len(items) == 1 {
		x = items[0]
	} else {
		x = &Sequence{At: At{items[0].Pos()}, List: items}
	}
	if p.parens == nil {
		p.parens = make(map[Expr]bool)
	}
	p.parens[x] = true
	return x
}

// toParams converts a parenthesized list to arrow function parameters.
func (p *parser) toParams(items []Expr, trailing Pos, ref *coverErrors) ([]Pattern, Pattern) {
	m := p.a.patterns.mark()
	var rest Pattern
	for i, it := range items {
		if sp, ok := it.(*Spread); ok {
			if i != len(items)-1 {
				p.failAt(sp.Start, "Rest parameter must be last formal parameter")
			}
			if trailing >= 0 {
				p.failAt(trailing, "A rest parameter may not have a trailing comma")
			}
			rest = p.toAssignable(sp.X, true, ref)
			if _, ok := rest.(*AssignPattern); ok {
				p.failAt(sp.Start, "Rest parameter may not have a default initializer")
			}
			continue
		}
		p.a.patterns.push(p.toAssignable(it, true, ref))
	}
	params := p.a.patterns.finish(m)
	p.checkPatternErrors(ref)
	return params, rest
}

func (p *parser) parseArrayLit(ref *coverErrors) Expr {
	a := alloc(&p.a.arrays, ArrayLit{At: At{p.pos}})
	p.next()
	m := p.a.exprs.mark()
	for p.tt != js.CloseBracketToken {
		switch p.tt {
		case js.CommaToken:
			p.a.exprs.push(nil)
			p.next()
			continue
		case js.EllipsisToken:
			start := p.pos
			p.next()
			p.a.exprs.push(&Spread{At: At{start}, X: p.parseAssign(false, ref)})
			if p.tt == js.CommaToken && ref != nil && ref.trailingComma < 0 {
				ref.trailingComma = p.pos
			}
		case eofToken:
			p.unexpected()
		default:
			p.a.exprs.push(p.parseAssign(false, ref))
		}
		if p.tt != js.CloseBracketToken {
			p.expect(js.CommaToken)
		}
	}
	p.next()
	a.Elems = p.a.exprs.finish(m)
	return a
}

func (p *parser) parseObjectLit(ref *coverErrors) Expr {
	o := alloc(&p.a.objects, ObjectLit{At: At{p.pos}})
	p.next()
	sawProto := false
	m := p.a.props.mark()
	for p.tt != js.CloseBraceToken {
		if p.tt == js.EllipsisToken {
			start := p.pos
			p.next()
			p.a.props.push(alloc(&p.a.properties, Property{At: At{start}, Kind: PropSpread, Value: p.parseAssign(false, ref)}))
			if p.tt == js.CommaToken && ref != nil && ref.trailingComma < 0 {
				ref.trailingComma = p.pos
			}
		} else {
			p.a.props.push(p.parseObjectProperty(ref, &sawProto))
		}
		if p.tt != js.CloseBraceToken {
			p.expect(js.CommaToken)
		}
	}
	p.next()
	o.Props = p.a.props.finish(m)
	return o
}

// methodModifier reports whether the current async, get or set token is a
// modifier of the key that follows rather than the key itself.
func (p *parser) methodModifier() bool {
	switch p.tt {
	case js.AsyncToken, js.GetToken, js.SetToken:
	default:
		return false
	}
	b, nl := p.peekByte()
	switch b {
	case ',', ':', '(', '}', '=', ';', 0:
		return false
	}
	return !(p.tt == js.AsyncToken && nl)
}

func (p *parser) parseObjectProperty(ref *coverErrors, sawProto *bool) *Property {
	start := p.pos
	fkind, async, gen := p.parseMethodHead(p.methodModifier())
	kind := PropInit
	switch fkind {
	case FuncGetter:
		kind = PropGet
	case FuncSetter:
		kind = PropSet
	}
	keyTT, keyStart := p.tt, p.pos
	key, computed := p.parsePropertyKey()
	if priv, ok := key.(*PrivateName); ok {
		p.failAt(priv.Start, "Unexpected private name")
	}
	if p.tt == js.OpenParenToken || p.ts && p.tt == js.LtToken || async || gen || kind != PropInit {
		if kind == PropInit {
			kind = PropMethod
		}
		fn := p.parseMethod(start, fkind, async, gen, false)
		return alloc(&p.a.properties, Property{At: At{start}, Kind: kind, Key: key, Computed: computed, Value: alloc(&p.a.funcLits, FuncLit{At: At{fn.Start}, Func: fn})})
	}
	if p.eat(js.ColonToken) {
		value := p.parseAssign(false, ref)
		if !computed && propKeyName(key) == "__proto__" {
			if *sawProto && ref != nil && ref.doubleProto < 0 {
				ref.doubleProto = keyStart
			}
			*sawProto = true
		}
		return alloc(&p.a.properties, Property{At: At{start}, Kind: PropInit, Key: key, Computed: computed, Value: value})
	}
	// Shorthand: {a} or, in a pattern, {a = 1}.
	if computed || !js.IsIdentifier(keyTT) || isStrictReserved(keyTT) {
		switch keyTT {
		case js.AwaitToken:
			p.failAt(keyStart, "'await' is only valid in async functions and at the top level of the program.")
		case js.YieldToken:
			p.failAt(keyStart, "'yield' is only valid in generator functions.")
		}
		p.unexpected()
	}
	name := key.(*Name)
	p.checkEscapedKeyword(keyStart, name.Name)
	id := alloc(&p.a.idents, Ident{At: At{keyStart}, Name: name.Name})
	var value Expr = id
	if p.tt == js.EqToken {
		if ref != nil && ref.shorthandAssign < 0 {
			ref.shorthandAssign = p.pos
		} else if ref == nil {
			p.failAt(p.pos, "Invalid shorthand property initializer: '=' in an object literal is only valid in a destructuring pattern")
		}
		p.next()
		value = alloc(&p.a.assigns, Assign{At: At{keyStart}, Op: OpAssign, Target: id, Value: p.parseAssign(false, nil)})
	}
	return alloc(&p.a.properties, Property{At: At{start}, Kind: PropInit, Key: name, Shorthand: true, Value: value})
}

// parseMethodHead consumes what may precede a method's key in an object
// literal or class: async, get or set (when modifier says the current word
// is one) and *. It returns the kind of function that follows.
func (p *parser) parseMethodHead(modifier bool) (fkind FuncKind, async, gen bool) {
	fkind = FuncMethod
	if modifier {
		switch p.tt {
		case js.AsyncToken:
			async = true
		case js.GetToken:
			fkind = FuncGetter
		case js.SetToken:
			fkind = FuncSetter
		}
		p.next()
	}
	if p.tt == js.MulToken {
		if fkind != FuncMethod {
			p.unexpected() // no generator accessors
		}
		gen = true
		p.next()
	}
	return fkind, async, gen
}

// propKeyName returns the name of a non-computed key, or "".
func propKeyName(key Expr) string {
	switch k := key.(type) {
	case *Name:
		return k.Name
	case *StringLit:
		return k.Value
	}
	return ""
}

// parsePropertyKey parses an object or class key: a name, a string, a
// number, a private name, or a computed [expression].
func (p *parser) parsePropertyKey() (Expr, bool) {
	start := p.pos
	switch {
	case p.tt == js.OpenBracketToken:
		p.next()
		x := p.parseAssign(false, nil)
		p.expect(js.CloseBracketToken)
		return x, true
	case p.tt == js.StringToken:
		return p.parseStringLit(), false
	case js.IsNumeric(p.tt):
		return p.parseNumber(), false
	case p.tt == js.PrivateIdentifierToken:
		name := p.privateName()
		p.next()
		return name, false
	case js.IsIdentifierName(p.tt):
		name := alloc(&p.a.names, Name{At: At{start}, Name: p.identName()})
		p.next()
		return name, false
	}
	p.unexpected()
	return nil, false
}

// isBareArrow reports an arrow function written without parentheses
// around it, which no operator may follow.
func (p *parser) isBareArrow(x Expr) bool {
	f, ok := x.(*FuncLit)
	return ok && f.Func.Kind == FuncArrow && !p.isParen(x)
}

// arrowFollowsNext reports whether => comes right after the current token.
func (p *parser) arrowFollowsNext() bool {
	i, nl := p.peekRaw()
	return !nl && i+1 < len(p.buf) && p.buf[i] == '=' && p.buf[i+1] == '>'
}
