package protocol

import (
	"strings"
	"unicode/utf8"
)

// SeparateImports splits the leading block of static import statements
// off an entry program and returns it and the rest. The block is every
// statement of the forms
//
//	import "m"
//	import x from "m"
//	import * as ns from "m"
//	import {a, b as c} from "m"
//	import x, {a} from "m"
//	import x, * as ns from "m"
//
// at the start of code, each optionally followed by import attributes
// (with {type: "json"}) and a semicolon, and spanning lines as it likes,
// with blank lines, comments and stray semicolons between them. The block
// ends at the first text that is not such a statement: a dynamic
// import(...), import.meta, a statement this grammar does not finish, or
// the program proper. imports is the block with surrounding white space
// trimmed, "" when there is none; body is the rest of code from its first
// character that is not white space.
func SeparateImports(code string) (imports, body string) {
	s := &importScanner{src: code}
	end := 0
	for {
		s.skipTrivia()
		if end > 0 && s.pos < len(s.src) && s.src[s.pos] == ';' {
			s.pos++
			end = s.pos
			continue
		}
		if !s.importStatement() {
			break
		}
		end = s.pos
	}
	return strings.TrimSpace(code[:end]), strings.TrimLeft(code[end:], " \t\r\n\v\f\u00a0\ufeff")
}

// importScanner reads import statements from src at pos.
type importScanner struct {
	src string
	pos int
}

// skipTrivia skips white space and comments. An unterminated block
// comment is left in place, where it ends the block.
func (s *importScanner) skipTrivia() {
	for s.pos < len(s.src) {
		switch c := s.src[s.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			s.pos++
		case strings.HasPrefix(s.src[s.pos:], "\u00a0"), strings.HasPrefix(s.src[s.pos:], "\ufeff"),
			strings.HasPrefix(s.src[s.pos:], "\u2028"), strings.HasPrefix(s.src[s.pos:], "\u2029"):
			_, size := utf8.DecodeRuneInString(s.src[s.pos:])
			s.pos += size
		case strings.HasPrefix(s.src[s.pos:], "//"):
			if i := strings.IndexAny(s.src[s.pos:], "\n\r"); i >= 0 {
				s.pos += i
			} else {
				s.pos = len(s.src)
			}
		case strings.HasPrefix(s.src[s.pos:], "/*"):
			i := strings.Index(s.src[s.pos+2:], "*/")
			if i < 0 {
				return
			}
			s.pos += 2 + i + 2
		default:
			return
		}
	}
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

// ident reads an identifier after trivia, or returns "" and moves nothing.
func (s *importScanner) ident() string {
	s.skipTrivia()
	start := s.pos
	if start >= len(s.src) || !isIdentStart(s.src[start]) {
		return ""
	}
	end := start + 1
	for end < len(s.src) && isIdentPart(s.src[end]) {
		end++
	}
	s.pos = end
	return s.src[start:end]
}

// punct reads the byte c after trivia.
func (s *importScanner) punct(c byte) bool {
	s.skipTrivia()
	if s.pos < len(s.src) && s.src[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

// str reads a string literal after trivia.
func (s *importScanner) str() bool {
	s.skipTrivia()
	if s.pos >= len(s.src) {
		return false
	}
	q := s.src[s.pos]
	if q != '"' && q != '\'' {
		return false
	}
	for i := s.pos + 1; i < len(s.src); i++ {
		switch s.src[i] {
		case '\\':
			i++
		case '\n', '\r':
			return false
		case q:
			s.pos = i + 1
			return true
		}
	}
	return false
}

// braces reads a brace-delimited list of identifiers, strings, commas,
// colons and "as": named imports, or the attributes of an import.
func (s *importScanner) braces() bool {
	if !s.punct('{') {
		return false
	}
	for {
		switch {
		case s.punct('}'):
			return true
		case s.punct(','), s.punct(':'), s.ident() != "", s.str():
		default:
			return false
		}
	}
}

// importStatement reads one static import statement, or moves nothing
// and returns false.
func (s *importScanner) importStatement() bool {
	start := s.pos
	ok := s.importClause()
	if !ok {
		s.pos = start
	}
	return ok
}

func (s *importScanner) importClause() bool {
	if s.ident() != "import" {
		return false
	}
	if s.str() { // import "m"
		s.attributes()
		s.semicolon()
		return true
	}
	save := s.pos
	switch {
	case s.punct('*'):
		if !s.namespace() {
			return false
		}
	case s.peek('{'):
		if !s.braces() {
			return false
		}
	default:
		s.pos = save
		if s.ident() == "" { // the default binding; import( and import. end here
			return false
		}
		if s.punct(',') {
			switch {
			case s.punct('*'):
				if !s.namespace() {
					return false
				}
			case s.peek('{'):
				if !s.braces() {
					return false
				}
			default:
				return false
			}
		}
	}
	if s.ident() != "from" || !s.str() {
		return false
	}
	s.attributes()
	s.semicolon()
	return true
}

// semicolon reads an optional semicolon, leaving the trivia before it in
// place when there is none.
func (s *importScanner) semicolon() {
	save := s.pos
	if !s.punct(';') {
		s.pos = save
	}
}

// namespace reads "as name" after a *.
func (s *importScanner) namespace() bool {
	return s.ident() == "as" && s.ident() != ""
}

// attributes reads an optional with {...} or assert {...}.
func (s *importScanner) attributes() {
	save := s.pos
	if kw := s.ident(); (kw == "with" || kw == "assert") && s.braces() {
		return
	}
	s.pos = save
}

// peek reports whether c is next after trivia, consuming the trivia
// only.
func (s *importScanner) peek(c byte) bool {
	s.skipTrivia()
	return s.pos < len(s.src) && s.src[s.pos] == c
}
