package ast

// The parser is recursive descent over tdewolff's js.Lexer. It keeps one
// token of lookahead (the current token), because the lexer cannot tell a
// regular expression from a division: where an expression may start, the
// parser asks the lexer to re-read a '/' token as a regex, which works only
// while that '/' is the last token lexed. Where the grammar needs to see
// further (`let [`, `async function`), it peeks at the raw bytes instead.
//
// Destructuring uses the cover grammar, as acorn does: `({a = 1})` and
// `(a, b)` are parsed as expressions, remembering what would be invalid as
// an expression (coverErrors), and converted to patterns when `=` or `=>`
// follows.
//
// Errors abort the parse: the first one panics with a *Error that Parse
// recovers. Any other panic is a bug; Parse turns it into an error too, so
// no input can crash the host.

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// MaxDepth bounds how deeply statements and expressions may nest, so that
// neither the parser nor the engines that walk the tree can exhaust the Go
// stack. Real programs stay far below it.
const MaxDepth = 1000

// eofToken stands for the end of the input (the lexer reports it as an
// ErrorToken with io.EOF). Its value has none of the category bits that
// js.IsIdentifier and friends test.
const eofToken js.TokenType = 0x00FF

type parser struct {
	src  *Source
	base int // offset of the parsed range in src.Text
	buf  []byte
	in   *parse.Input
	lx   *js.Lexer

	tt  js.TokenType // current token
	lit []byte       // its text (aliases buf)
	pos Pos          // its start, as an offset into src.Text
	end int          // its end, as an offset into buf
	nl  bool         // a line terminator came before it

	prevEnd int // end of the previous token, offset into buf

	depth  int
	fn     *funcContext
	parens map[Expr]bool // expressions written in parentheses

	potentialArrowAt Pos // where an arrow function could start
	condThenAt       Pos // where the then branch of the innermost conditional starts

	// awaitPos and yieldPos are the first await and yield expressions in
	// what is being parsed, or -1: parameter lists may not contain them, and
	// arrow parameters are only known to be parameters after the fact.
	awaitPos, yieldPos Pos

	classes []*privateScope

	// ts is set when TypeScript is erased rather than rejected (see
	// typescript.go); ambient while a declare declaration is parsed;
	// bodiless while a function declaration or class method may be an
	// overload signature. failedSpec remembers speculative readings that
	// failed (see try).
	ts, ambient, bodiless bool
	failedSpec            map[specKey]bool

	unit unitKind // the program or a module (see module.go)

	a nodeArena // where nodes are allocated
}

// funcContext is what the parser needs to know about the function it is
// in: which keywords are allowed and which labels are in force.
type funcContext struct {
	parent    *funcContext
	kind      FuncKind
	async     bool
	generator bool
	labels    []label
	loops     int // enclosing iteration statements
	breakable int // enclosing iteration and switch statements
	superCall bool
	superProp bool
	newTarget bool
}

type label struct {
	name      string
	stmtStart Pos
	loop      bool
}

// privateScope collects the private names a class body declares and uses,
// checked when the class ends (a use may come before the declaration).
type privateScope struct {
	declared map[string]bool
	used     []*PrivateName
}

// bailout is what the parser panics with to stop at the first error.
type bailout struct{ err *Error }

// textBuf is a copy of src.Text[start:end] with room for the NUL the
// lexer appends, kept so that two parses of the same range (Normalize's
// look for a wrapper, then the program's) copy the text once.
type textBuf struct {
	b          []byte
	start, end int
}

// parsers keeps parser structs between parses: a parser holds its node
// slabs' headers and scratch stacks inline (about 2 KB), which a short
// program would otherwise allocate on every parse. A released parser is
// zeroed first, so it holds nothing of the tree it made.
var parsers = sync.Pool{New: func() any { return new(parser) }}

// release returns p to the pool; p must not be used afterwards.
func (p *parser) release() {
	*p = parser{}
	parsers.Put(p)
}

// newParser returns a parser for src's range. If reuse is not nil, its
// copy of the text is used when it holds that range, and otherwise
// replaced by the new parser's.
func newParser(src *Source, ts bool, reuse *textBuf) *parser {
	var buf []byte
	if len(src.blanks) > 0 {
		reuse = nil // the copy is not the text
	}
	if reuse != nil && reuse.b != nil && reuse.start == src.Start && reuse.end == src.End {
		buf = reuse.b
	} else {
		text := src.Text[src.Start:src.End]
		buf = make([]byte, len(text), len(text)+1)
		copy(buf, text)
		blank(buf, src.Start, src.blanks)
		if reuse != nil {
			*reuse = textBuf{buf, src.Start, src.End}
		}
	}
	p := parsers.Get().(*parser)
	*p = parser{src: src, base: src.Start, buf: buf, potentialArrowAt: -1, condThenAt: -1, awaitPos: -1, yieldPos: -1, ts: ts}
	p.in = parse.NewInputBytes(buf)
	p.lx = js.NewLexer(p.in)
	return p
}

// blank turns the bytes of buf (a copy of the text from offset base) in
// the ranges into spaces, keeping line breaks, so that the parser reads
// what is left around them at the same offsets.
func blank(buf []byte, base int, ranges [][2]int) {
	for _, r := range ranges {
		for i := max(r[0]-base, 0); i < r[1]-base && i < len(buf); i++ {
			if buf[i] != '\n' && buf[i] != '\r' {
				buf[i] = ' '
			}
		}
	}
}

// ---------------------------------------------------------------------------
// Errors

func (p *parser) failAt(pos Pos, format string, args ...any) {
	// The location is filled in by ParseSource: a speculative parse
	// (Normalize's) must not pay for a line table.
	panic(bailout{&Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}})
}

// unexpected reports the current token as out of place.
func (p *parser) unexpected() {
	// A word where an operator or the end of a statement should be is, in
	// practice, a TypeScript assertion: x as T, x satisfies T.
	if !p.ts && !p.nl && (p.tt == js.AsToken || p.tt == js.IdentifierToken && string(p.lit) == "satisfies") {
		p.failTS(p.pos, "'"+string(p.lit)+"' type assertion")
	}
	p.failAt(p.pos, "%s", p.describeUnexpected())
}

func (p *parser) describeUnexpected() string {
	switch {
	case p.tt == eofToken:
		return "Unexpected end of input"
	case p.tt == js.StringToken:
		return "Unexpected string"
	case js.IsNumeric(p.tt):
		return "Unexpected number"
	case p.tt == js.TemplateToken || p.tt == js.TemplateStartToken:
		return "Unexpected template string"
	case p.tt == js.IdentifierToken:
		return fmt.Sprintf("Unexpected identifier '%s'", p.lit)
	case js.IsReservedWord(p.tt) || js.IsIdentifier(p.tt):
		if p.tt == js.AwaitToken || p.tt == js.YieldToken {
			return fmt.Sprintf("Unexpected reserved word '%s'", p.lit)
		}
		return fmt.Sprintf("Unexpected token '%s'", p.lit)
	}
	return fmt.Sprintf("Unexpected token '%s'", p.lit)
}

// failTS reports TypeScript syntax at the current token.
func (p *parser) failTS(pos Pos, what string) {
	p.failAt(pos, "TypeScript syntax is not accepted (%s); write plain JavaScript", what)
}

// ---------------------------------------------------------------------------
// Tokens

// next advances to the next significant token, skipping whitespace and
// comments and noting line terminators for ASI.
func (p *parser) next() {
	p.prevEnd = p.end
	p.nl = false
	for {
		p.skipBlanks()
		if p.scanWord() {
			return
		}
		start := p.in.Offset()
		tt, data := p.lx.Next()
		switch tt {
		case js.WhitespaceToken, js.CommentToken:
			continue
		case js.LineTerminatorToken, js.CommentLineTerminatorToken:
			p.nl = true
			continue
		case js.ErrorToken:
			p.pos = Pos(p.base + start)
			p.end = start
			if p.lx.Err() == io.EOF {
				p.tt, p.lit = eofToken, nil
				return
			}
			p.lexError(start)
		}
		p.tt, p.lit = tt, data
		p.pos = Pos(p.base + start)
		p.end = p.in.Offset()
		return
	}
}

// lexError turns a lexer failure into a positioned error with a message in
// the style of the rest of the parser.
func (p *parser) lexError(start int) {
	msg := "Invalid or unexpected token"
	if p.ts && start < len(p.buf) && p.buf[start] == '@' {
		p.failAt(Pos(p.base+start), tsDecoratorMessage)
	}
	if perr, ok := p.lx.Err().(*parse.Error); ok {
		switch {
		case strings.HasPrefix(perr.Message, "unterminated string"):
			msg = "Invalid or unexpected token: unterminated string literal"
		case strings.HasPrefix(perr.Message, "unterminated template"):
			msg = "Unterminated template literal"
		case strings.HasPrefix(perr.Message, "unexpected EOF in comment"):
			msg = "Unterminated comment"
		case strings.HasPrefix(perr.Message, "legacy octal"):
			msg = "Octal literals are not allowed in strict mode."
		case strings.HasPrefix(perr.Message, "unexpected identifier after number"):
			msg = "Invalid or unexpected token: an identifier starts immediately after a numeric literal"
		case strings.HasPrefix(perr.Message, "invalid number"):
			msg = "Invalid or unexpected token: invalid number"
		case strings.HasPrefix(perr.Message, "unexpected EOF or newline"):
			msg = "Invalid regular expression: missing /"
		}
	}
	p.failAt(Pos(p.base+start), "%s", msg)
}

// reReadRegExp re-reads the current '/' or '/=' token as a regular
// expression literal.
func (p *parser) reReadRegExp() {
	start := p.in.Offset() - len(p.lit)
	tt, data := p.lx.RegExp()
	if tt == js.ErrorToken {
		p.failAt(Pos(p.base+start), "Invalid regular expression: missing /")
	}
	p.tt, p.lit = tt, data
	p.end = p.in.Offset()
}

func (p *parser) eat(tt js.TokenType) bool {
	if p.tt == tt {
		p.next()
		return true
	}
	return false
}

func (p *parser) expect(tt js.TokenType) Pos {
	if p.tt != tt {
		p.unexpected()
	}
	pos := p.pos
	p.next()
	return pos
}

// semicolon consumes a statement's terminating semicolon, or inserts one
// where automatic semicolon insertion allows: before '}', at the end of
// input, or after a line terminator.
func (p *parser) semicolon() {
	if p.eat(js.SemicolonToken) {
		return
	}
	if p.tt == js.CloseBraceToken || p.tt == eofToken || p.nl {
		return
	}
	p.unexpected()
}

func (p *parser) canInsertSemicolon() bool {
	return p.tt == eofToken || p.tt == js.CloseBraceToken || p.nl
}

// peekRaw looks past the current token at the raw input: it skips spaces
// and comments and returns the offset (into buf) of the next token and
// whether a line terminator came before it.
func (p *parser) peekRaw() (int, bool) {
	i, nl := p.end, false
	b := p.buf
	for i < len(b) {
		switch c := b[i]; c {
		case ' ', '\t', '\v', '\f':
			i++
		case '\n', '\r':
			nl = true
			i++
		case '/':
			if i+1 < len(b) && b[i+1] == '/' {
				for i < len(b) && b[i] != '\n' && b[i] != '\r' {
					i++
				}
			} else if i+1 < len(b) && b[i+1] == '*' {
				j := bytes.Index(b[i+2:], []byte("*/"))
				if j < 0 {
					return len(b), nl
				}
				if bytes.ContainsAny(b[i+2:i+2+j], "\n\r") {
					nl = true
				}
				i += j + 4
			} else {
				return i, nl
			}
		default:
			if c == 0xE2 && i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0xA8 || b[i+2] == 0xA9) {
				nl = true
				i += 3
				continue
			}
			if c == 0xC2 && i+1 < len(b) && b[i+1] == 0xA0 {
				i += 2
				continue
			}
			return i, nl
		}
	}
	return i, nl
}

// peekByte returns the first byte of the next token after the current one.
func (p *parser) peekByte() (byte, bool) {
	i, nl := p.peekRaw()
	if i >= len(p.buf) {
		return 0, nl
	}
	return p.buf[i], nl
}

// peekWord returns the identifier-like word that starts the next token.
func (p *parser) peekWord() (string, bool) {
	i, nl := p.peekRaw()
	j := i
	for j < len(p.buf) && (isIdentByte(p.buf[j]) || p.buf[j] >= 0x80) {
		j++
	}
	return string(p.buf[i:j]), nl
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isIdentStartByte(c byte) bool {
	return c == '_' || c == '$' || c == '\\' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// enter counts one level of nesting and fails past MaxDepth.
func (p *parser) enter() {
	p.depth++
	if p.depth > MaxDepth {
		p.failAt(p.pos, "The program is nested too deeply (more than %d levels); split it into smaller functions", MaxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

// ---------------------------------------------------------------------------
// Identifiers

// identName returns the current token's text as a name, decoding \u
// escapes in identifiers.
func (p *parser) identName() string {
	if containsByte(p.lit, '\\') {
		name, ok := decodeIdentEscapes(string(p.lit))
		if !ok {
			p.failAt(p.pos, "Invalid Unicode escape sequence")
		}
		return name
	}
	return p.text()
}

// varName is identName for a name that becomes a variable: there, a
// reserved word spelled with escapes is still reserved.
func (p *parser) varName() string {
	name := p.identName()
	if containsByte(p.lit, '\\') {
		p.checkEscapedKeyword(p.pos, name)
	}
	return name
}

func (p *parser) checkEscapedKeyword(pos Pos, name string) {
	if kw, ok := js.Keywords[name]; ok && (js.IsReservedWord(kw) || isStrictReserved(kw)) {
		p.failAt(pos, "Keyword must not contain escaped characters")
	}
}

// privateName decodes the current private identifier token (#name).
func (p *parser) privateName() *PrivateName {
	text := p.text()[1:]
	if strings.IndexByte(text, '\\') >= 0 {
		name, ok := decodeIdentEscapes(text)
		if !ok {
			p.failAt(p.pos, "Invalid Unicode escape sequence")
		}
		text = name
	}
	return &PrivateName{At: At{p.pos}, Name: text}
}

// text returns the current token's text as a substring of the source,
// which costs no allocation.
func (p *parser) text() string {
	start := int(p.pos)
	return p.src.Text[start : start+len(p.lit)]
}

func containsByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

// isStrictReserved reports the words that strict code may not use as
// identifiers, beyond the reserved words the lexer already knows.
func isStrictReserved(tt js.TokenType) bool {
	switch tt {
	case js.LetToken, js.StaticToken, js.ImplementsToken, js.InterfaceToken,
		js.PackageToken, js.PrivateToken, js.ProtectedToken, js.PublicToken:
		return true
	}
	return false
}

// isIdentToken reports whether the current token can be an identifier
// reference or binding (checkIdentToken says why not).
func (p *parser) isIdentToken() bool {
	return js.IsIdentifier(p.tt) && !isStrictReserved(p.tt)
}

// checkIdentToken fails unless the current token can name a variable.
func (p *parser) checkIdentToken() {
	switch {
	case p.tt == js.AwaitToken:
		p.failAt(p.pos, "'await' is only valid in async functions and at the top level of the program.")
	case p.tt == js.YieldToken:
		p.failAt(p.pos, "'yield' is only valid in generator functions.")
	case isStrictReserved(p.tt):
		p.failAt(p.pos, "Unexpected strict mode reserved word '%s'", p.lit)
	case !js.IsIdentifier(p.tt):
		p.unexpected()
	}
}

// parseIdentRef parses an identifier used as a value.
func (p *parser) parseIdentRef() *Ident {
	p.checkIdentToken()
	id := alloc(&p.a.idents, Ident{At: At{p.pos}, Name: p.varName()})
	p.next()
	return id
}

// parseBindingIdent parses an identifier that a declaration binds.
func (p *parser) parseBindingIdent() *Ident {
	if p.tt == js.LetToken {
		p.failAt(p.pos, "let is disallowed as a lexically bound name")
	}
	p.checkIdentToken()
	id := alloc(&p.a.idents, Ident{At: At{p.pos}, Name: p.varName()})
	p.checkBindableName(id)
	p.next()
	return id
}

// checkBindableName rejects eval and arguments as binding names, as strict
// mode requires.
func (p *parser) checkBindableName(id *Ident) {
	if id.Name == "eval" || id.Name == "arguments" {
		p.failAt(id.Start, "Unexpected eval or arguments in strict mode")
	}
}

// ---------------------------------------------------------------------------
// Functions context

func (p *parser) pushFunc(kind FuncKind, async, generator bool) *funcContext {
	fc := alloc(&p.a.funcs, funcContext{parent: p.fn, kind: kind, async: async, generator: generator})
	switch kind {
	case FuncArrow:
		if p.fn != nil {
			fc.superCall, fc.superProp, fc.newTarget = p.fn.superCall, p.fn.superProp, p.fn.newTarget
		}
	case FuncNormal:
		fc.newTarget = true
	case FuncMethod, FuncGetter, FuncSetter, FuncClassInit:
		fc.superProp, fc.newTarget = true, true
	case FuncConstructor:
		fc.superProp, fc.newTarget = true, true
	}
	p.fn = fc
	return fc
}

func (p *parser) popFunc(saved *funcContext) { p.fn = saved }

func (p *parser) inAsync() bool     { return p.fn.async }
func (p *parser) inGenerator() bool { return p.fn.generator }
