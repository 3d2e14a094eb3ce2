package ast

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2/js"
)

// EmptyProgramMessage is the ParseError message for a program with no code.
const EmptyProgramMessage = "Code cannot be empty."

// Options select what the front end accepts. The zero value is the
// default: JavaScript, with TypeScript's types erased.
type Options struct {
	// NoTypeScript rejects TypeScript syntax with a ParseError ("TypeScript
	// syntax is not accepted (...); write plain JavaScript") instead of
	// erasing it.
	NoTypeScript bool
}

// Parse cleans up what a model sent (see Normalize), parses it as the
// body of an async function, checks the early errors JavaScript requires
// and resolves every identifier. TypeScript without run-time meaning is
// erased (see ParseWith to reject it). The error, if any, is an *Error
// whose position points into text as it was given.
func Parse(text string) (*Program, error) {
	return ParseWith(text, Options{})
}

// ParseWith is Parse with options.
func ParseWith(text string, opts Options) (*Program, error) {
	var buf textBuf
	return parseSourceWith(normalizeBuf(text, !opts.NoTypeScript, &buf), opts, &buf)
}

// ParseSource parses src.Text[src.Start:src.End] exactly, without cleanup.
func ParseSource(src *Source) (prog *Program, err error) {
	return ParseSourceWith(src, Options{})
}

// ParseSourceWith is ParseSource with options.
func ParseSourceWith(src *Source, opts Options) (prog *Program, err error) {
	return parseSourceWith(src, opts, nil)
}

// parseSourceWith is ParseSourceWith, reusing buf's copy of the text when
// it holds the range to parse.
func parseSourceWith(src *Source, opts Options, buf *textBuf) (prog *Program, err error) {
	if e := checkText(src); e != nil {
		return nil, e
	}
	fn, perr := parseBody(src, unitEntry, !opts.NoTypeScript, buf)
	if perr != nil {
		perr.Location = src.Location(perr.Pos)
		return nil, perr
	}
	prog, rerr := resolveProgram(src, fn)
	if rerr != nil {
		return nil, rerr
	}
	return prog, nil
}

// checkText rejects an empty program and text that is not UTF-8.
func checkText(src *Source) *Error {
	body := src.Text[src.Start:src.End]
	if !utf8.ValidString(body) {
		off := src.Start
		for i, r := range body {
			if r == utf8.RuneError {
				if _, size := utf8.DecodeRuneInString(body[i:]); size == 1 {
					off += i
					break
				}
			}
		}
		pos := Pos(off)
		return &Error{Pos: pos, Location: src.Location(pos), Msg: "Invalid or unexpected token: the program is not valid UTF-8"}
	}
	if strings.TrimSpace(body) == "" {
		pos := Pos(src.Start)
		return &Error{Pos: pos, Location: src.Location(pos), Msg: EmptyProgramMessage}
	}
	return nil
}

// parseBody runs the parser over the program or a module (unit), turning
// its bailout (and, defensively, any other panic) into an *Error.
func parseBody(src *Source, unit unitKind, ts bool, buf *textBuf) (fn *Function, err *Error) {
	p := newParser(src, ts, buf)
	p.unit = unit
	defer p.release()
	defer func() {
		if rec := recover(); rec != nil {
			fn, err = nil, recoverError(p, rec)
		}
	}()
	return p.parseProgramBody(), nil
}

func recoverError(p *parser, rec any) *Error {
	if b, ok := rec.(bailout); ok {
		return b.err
	}
	// A bug: report it as an error at the current token rather than
	// crashing the host.
	return &Error{Pos: p.pos, Msg: fmt.Sprintf("internal error: parser failed: %v", rec)}
}

// ParseExpression parses text as a single expression (used by hosts and
// tests that evaluate one expression).
func ParseExpression(text string) (Expr, error) {
	src := NewSource(text)
	if e := checkText(src); e != nil {
		return nil, e
	}
	x, err := parseWholeExpression(src, true, nil)
	if err != nil {
		err.Location = src.Location(err.Pos)
		return nil, err
	}
	wrapper := &Function{At: At{0}, Kind: FuncProgram, Async: true, Strict: true, SimpleParams: true,
		Body: &Block{Body: []Stmt{&ExprStmt{At: At{x.Pos()}, X: x}}}}
	if _, rerr := resolveProgram(src, wrapper); rerr != nil {
		return nil, rerr
	}
	return x, nil
}

// parseWholeExpression parses the source range as one expression followed
// only by an optional semicolon.
func parseWholeExpression(src *Source, ts bool, buf *textBuf) (x Expr, err *Error) {
	p := newParser(src, ts, buf)
	defer p.release()
	defer func() {
		if rec := recover(); rec != nil {
			x, err = nil, recoverError(p, rec)
		}
	}()
	p.pushFunc(FuncProgram, true, false)
	p.next()
	x = p.parseExpression(false)
	p.eat(js.SemicolonToken)
	if p.tt != eofToken {
		p.unexpected()
	}
	return x, nil
}

// Normalize finds the program in what a model sent. It strips one
// surrounding markdown code fence (```js, ```javascript, ```ts,
// ```typescript, or none), an `export default` in front, and a wrapper
// that is one parameterless function or arrow (`async () => { ... }`, the
// Cloudflare dialect), whose body then becomes the program. A wrapper may
// come after import declarations (`import { f } from "m"` then `async () =>
// { ... }`, or `export default async () => { ... }`): the program is then
// the imports and the wrapper's body, as if the wrapper's head and closing
// brace were spaces. The returned Source keeps the whole text, so positions
// still point into it.
func Normalize(text string) *Source { return normalizeBuf(text, true, nil) }

// normalize is Normalize; ts says whether a wrapper may be written in
// TypeScript (async (): Promise<void> => { ... }).
//
// The wrapper is looked for by parsing; buf, if not nil, keeps that
// parse's copy of the text for the parse of the program that follows.
func normalizeBuf(text string, ts bool, buf *textBuf) *Source {
	src := NewSource(text)
	start, end := stripFence(text)
	start = skipExportDefault(text, start, end)
	src.Start, src.End = start, end
	if body, ok := wrapperBody(src, ts, buf); ok {
		src.Start, src.End = body[0], body[1]
	} else if blanks, ok := importsWrapper(src, ts); ok {
		src.blanks = blanks
	}
	return src
}

var fenceLanguages = map[string]bool{
	"": true, "js": true, "javascript": true, "ts": true, "typescript": true,
	"jsx": true, "tsx": true, "mjs": true, "node": true,
}

// stripFence returns the range inside one surrounding markdown code fence,
// or the whole text when there is none.
func stripFence(text string) (int, int) {
	lead := len(text) - len(strings.TrimLeft(text, " \t\r\n"))
	trimmedEnd := len(strings.TrimRight(text, " \t\r\n"))
	if !strings.HasPrefix(text[lead:], "```") {
		return 0, len(text)
	}
	nl := strings.IndexByte(text[lead:], '\n')
	if nl < 0 {
		return 0, len(text)
	}
	lang := strings.ToLower(strings.TrimSpace(text[lead+3 : lead+nl]))
	if !fenceLanguages[lang] {
		return 0, len(text)
	}
	bodyStart := lead + nl + 1
	if trimmedEnd < bodyStart+3 || !strings.HasSuffix(text[:trimmedEnd], "```") {
		return 0, len(text)
	}
	closing := trimmedEnd - 3
	lineStart := strings.LastIndexByte(text[:closing], '\n') + 1
	if strings.TrimSpace(text[lineStart:closing]) != "" || lineStart < bodyStart {
		return 0, len(text)
	}
	return bodyStart, lineStart
}

// skipExportDefault steps over a leading `export default`.
func skipExportDefault(text string, start, end int) int {
	i := start
	for i < end && strings.IndexByte(" \t\r\n", text[i]) >= 0 {
		i++
	}
	const kw = "export default"
	if strings.HasPrefix(text[i:end], kw) && i+len(kw) < end && strings.IndexByte(" \t\r\n", text[i+len(kw)]) >= 0 {
		return i + len(kw)
	}
	return start
}

// wrapperBody reports whether the range holds exactly one parameterless
// function or arrow with a block body, and returns the body's range.
func wrapperBody(src *Source, ts bool, buf *textBuf) ([2]int, bool) {
	body := src.Text[src.Start:src.End]
	if !utf8.ValidString(body) || strings.TrimSpace(body) == "" {
		return [2]int{}, false
	}
	// Only text that starts like a function can be a wrapper; this keeps
	// the extra parse away from ordinary programs.
	t := strings.TrimLeft(body, " \t\r\n")
	if !(strings.HasPrefix(t, "async") || strings.HasPrefix(t, "function") || strings.HasPrefix(t, "(")) {
		return [2]int{}, false
	}
	x, err := parseWholeExpression(src, ts, buf)
	if err != nil {
		return [2]int{}, false
	}
	lit, ok := x.(*FuncLit)
	if !ok || len(lit.Func.Params) > 0 || lit.Func.Rest != nil || lit.Func.Generator {
		return [2]int{}, false
	}
	if lit.Func.Body == nil {
		// A concise arrow (async () => 6 * 7): its expression is the
		// program, whose value it is.
		if from, to, ok := conciseRange(src.Text, src.Start, src.End, lit); ok {
			return [2]int{from, to}, true
		}
		return [2]int{}, false
	}
	return [2]int{int(lit.Func.Body.Start) + 1, int(lit.Func.Body.End)}, true
}

// conciseRange finds the program in a concise arrow wrapper (async ()
// => 6 * 7) that runs from from to to in text: from just after its `=>`
// (the expression body, with the parentheses around it) to to, less the
// closing parentheses of those opened before the arrow ((async () => 1)).
func conciseRange(text string, from, to int, lit *FuncLit) (int, int, bool) {
	body := lit.Func.ExprBody
	if body == nil {
		return 0, 0, false
	}
	i := int(body.Pos())
	for i > 0 && strings.IndexByte(" \t\r\n(", text[i-1]) >= 0 {
		i--
	}
	if i < 2 || text[i-2:i] != "=>" {
		return 0, 0, false
	}
	open := strings.Count(text[from:int(lit.Pos())], "(")
	end := len(strings.TrimRight(text[:to], " \t\r\n;"))
	for ; open > 0; open-- {
		end = len(strings.TrimRight(text[:end], " \t\r\n"))
		if end <= i || text[end-1] != ')' {
			return 0, 0, false
		}
		end--
	}
	return i, end, true
}

// importsWrapper reports whether the range holds import declarations and
// then one wrapper as wrapperBody accepts it (an expression statement, or
// the value of `export default`), and returns the ranges to read as spaces
// so that the wrapper's body follows the imports: from the wrapper's start
// through its body's opening brace, and from its closing brace on.
func importsWrapper(src *Source, ts bool) ([][2]int, bool) {
	body := src.Text[src.Start:src.End]
	t := skipComments(body)
	if !strings.HasPrefix(t, "import") || len(t) == len("import") || isIdentByte(t[len("import")]) || !utf8.ValidString(body) {
		return nil, false
	}
	// The imports are read as a module's, so that `export default` can
	// introduce the wrapper.
	fn, err := parseBody(src, unitJS, ts, nil)
	if err != nil || len(fn.Body.Body) < 2 {
		return nil, false
	}
	stmts := fn.Body.Body
	for _, s := range stmts[:len(stmts)-1] {
		if _, ok := s.(*Import); !ok {
			return nil, false
		}
	}
	var x Expr
	switch last := stmts[len(stmts)-1].(type) {
	case *ExprStmt:
		x = last.X
	case *exportDecl:
		x = last.Value
	}
	lit, ok := x.(*FuncLit)
	if !ok || len(lit.Func.Params) > 0 || lit.Func.Rest != nil || lit.Func.Generator {
		return nil, false
	}
	last := stmts[len(stmts)-1].Pos()
	if lit.Func.Body == nil {
		from, to, ok := conciseRange(src.Text, int(last), src.End, lit)
		if !ok {
			return nil, false
		}
		return [][2]int{{int(last), from}, {to, src.End}}, true
	}
	return [][2]int{{int(last), int(lit.Func.Body.Start) + 1}, {int(lit.Func.Body.End), src.End}}, true
}

// skipComments returns s after its leading blanks and comments.
func skipComments(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		switch {
		case strings.HasPrefix(s, "//"):
			i := strings.IndexAny(s, "\r\n")
			if i < 0 {
				return ""
			}
			s = s[i:]
		case strings.HasPrefix(s, "/*"):
			i := strings.Index(s[2:], "*/")
			if i < 0 {
				return s
			}
			s = s[i+4:]
		default:
			return s
		}
	}
}
