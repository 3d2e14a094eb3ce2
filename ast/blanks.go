package ast

import (
	"reflect"
	"unsafe"

	"github.com/tdewolff/parse/v2/js"
)

// Spaces and line breaks are about half of the lexer's tokens, and asking
// js.Lexer for each costs a call and a switch. The parser steps over runs
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
