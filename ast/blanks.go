package ast

import (
	"reflect"
	"unsafe"

	"github.com/tdewolff/parse/v2/js"
)

// Spaces and line breaks are about half of the lexer's tokens, and asking
// js.Lexer for each costs a call and a switch; plain ASCII words are most
// of the rest, and the lexer looks each up in a map of keywords. The parser steps over runs
// of ASCII blanks itself (skipBlanks), then leaves the lexer's two flags
// as its own whitespace tokens would have: a line break sets
// prevLineTerminator (which decides whether --> starts a comment), and any
// blank clears prevNumericLiteral (which rejects an identifier right after
// a number). The flags are unexported, so they are found by reflection as
// templateLevels is (speculate.go); with a lexer whose layout differs, the
// lexer reads the blanks itself, as before.
var lineTermOffset, numericOffset, blanksOK = func() (uintptr, uintptr, bool) {
	t := reflect.TypeOf(js.Lexer{})
	lt, ok1 := t.FieldByName("prevLineTerminator")
	num, ok2 := t.FieldByName("prevNumericLiteral")
	boolType := reflect.TypeOf(false)
	if !ok1 || !ok2 || lt.Type != boolType || num.Type != boolType {
		return 0, 0, false
	}
	return lt.Offset, num.Offset, true
}()

// skipBlanks steps over spaces, tabs and line breaks before the next
// token, noting a line break for ASI.
func (p *parser) skipBlanks() {
	if !blanksOK {
		return
	}
	b := p.buf
	i := p.in.Offset()
	j, nl := i, false
loop:
	for j < len(b) {
		switch b[j] {
		case ' ', '\t':
		case '\n', '\r':
			nl = true
		default:
			break loop
		}
		j++
	}
	if j == i {
		return
	}
	p.in.Move(j - i)
	p.in.Skip()
	*(*bool)(unsafe.Add(unsafe.Pointer(p.lx), numericOffset)) = false
	if nl {
		*(*bool)(unsafe.Add(unsafe.Pointer(p.lx), lineTermOffset)) = true
		p.nl = true
	}
}

// scanWord lexes a word of ASCII letters, digits, _ and $ at the current
// offset as js.Lexer would, with a faster keyword lookup, and reports
// whether there was one. Anything else (a word with escapes or non-ASCII
// letters, a word right after a number, which is an error) is left to the
// lexer.
func (p *parser) scanWord() bool {
	if !blanksOK {
		return false
	}
	b := p.buf
	i := p.in.Offset()
	if i >= len(b) || !isWordStartByte(b[i]) {
		return false
	}
	numeric := (*bool)(unsafe.Add(unsafe.Pointer(p.lx), numericOffset))
	if *numeric {
		return false
	}
	j := i + 1
	for j < len(b) && isIdentByte(b[j]) {
		j++
	}
	if j < len(b) && (b[j] == '\\' || b[j] >= 0x80) {
		return false
	}
	*(*bool)(unsafe.Add(unsafe.Pointer(p.lx), lineTermOffset)) = false
	p.in.Move(j - i)
	lit := p.in.Shift()
	p.tt, p.lit = keywordToken(lit), lit
	p.pos = Pos(p.base + i)
	p.end = j
	return true
}

func isWordStartByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// keywords holds js.Keywords by length and first letter (every keyword
// is lowercase ASCII).
var keywords = func() (t [12][26][]keyword) {
	for s, tt := range js.Keywords {
		if len(s) >= len(t) || s[0] < 'a' || s[0] > 'z' {
			panic("ast: unexpected keyword " + s)
		}
		t[len(s)][s[0]-'a'] = append(t[len(s)][s[0]-'a'], keyword{s, tt})
	}
	return t
}()

type keyword struct {
	s  string
	tt js.TokenType
}

// keywordToken is the token type of an ASCII word: its keyword's, or
// js.IdentifierToken.
func keywordToken(w []byte) js.TokenType {
	if len(w) < len(keywords) && w[0] >= 'a' && w[0] <= 'z' {
		for _, k := range keywords[len(w)][w[0]-'a'] {
			if string(w) == k.s {
				return k.tt
			}
		}
	}
	return js.IdentifierToken
}
