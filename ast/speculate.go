package ast

// Speculative parsing, for the places where TypeScript needs more than one
// token of lookahead: f<T>(x) against a < b, (x): T => x against the
// condition (x) : y, <T>(x) => x against <T>x. The parser saves the lexer
// and its own token state, tries the reading, and on a failure restores
// the state and takes the other reading.

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// templateLevelsOffset is where js.Lexer keeps its stack of open template
// literals: a slice whose backing array the lexer overwrites, so a saved
// lexer needs its own copy. It is found by reflection: with a version of
// the lexer whose layout differs (a module graph can select a newer
// tdewolff/parse than ours), speculation is off (speculationErr says why)
// and the readings that need it are not taken, so TypeScript's f<T>(x)
// and (x): T => x become ParseErrors while JavaScript parses as always.
// TestSpeculationAvailable fails on such a version, so we notice first.
var templateLevelsOffset, speculationErr = func() (uintptr, error) {
	f, ok := reflect.TypeOf(js.Lexer{}).FieldByName("templateLevels")
	if !ok || f.Type != reflect.TypeOf([]int(nil)) {
		return 0, fmt.Errorf("ast: js.Lexer has no templateLevels []int field (%v); update speculate.go for this version of tdewolff/parse", f.Type)
	}
	return f.Offset, nil
}()

// state is everything a speculative parse may change.
type state struct {
	lx     js.Lexer
	levels []int
	in     parse.Input

	tt      js.TokenType
	lit     []byte
	pos     Pos
	end     int
	nl      bool
	prevEnd int

	depth              int
	fn                 *funcContext
	potentialArrowAt   Pos
	condThenAt         Pos
	awaitPos, yieldPos Pos
	classes            int
	lists              [6]int // lengths of the list builders' stacks
}

func (p *parser) templateLevels() *[]int {
	return (*[]int)(unsafe.Add(unsafe.Pointer(p.lx), templateLevelsOffset))
}

func (p *parser) save() *state {
	s := &state{lx: *p.lx, in: *p.in, tt: p.tt, lit: p.lit, pos: p.pos, end: p.end, nl: p.nl, prevEnd: p.prevEnd,
		depth: p.depth, fn: p.fn, potentialArrowAt: p.potentialArrowAt, condThenAt: p.condThenAt, awaitPos: p.awaitPos, yieldPos: p.yieldPos,
		classes: len(p.classes), lists: [6]int{p.a.stmts.mark(), p.a.exprs.mark(), p.a.decls.mark(), p.a.props.mark(), p.a.patterns.mark(), p.a.quasis.mark()}}
	if lv := *p.templateLevels(); len(lv) > 0 {
		s.levels = append([]int(nil), lv...)
	}
	return s
}

func (p *parser) restore(s *state) {
	*p.lx, *p.in = s.lx, s.in
	*p.templateLevels() = s.levels
	p.tt, p.lit, p.pos, p.end, p.nl, p.prevEnd = s.tt, s.lit, s.pos, s.end, s.nl, s.prevEnd
	p.depth, p.fn, p.potentialArrowAt, p.awaitPos, p.yieldPos = s.depth, s.fn, s.potentialArrowAt, s.awaitPos, s.yieldPos
	p.condThenAt = s.condThenAt
	p.classes = p.classes[:s.classes]
	p.a.stmts.truncate(s.lists[0])
	p.a.exprs.truncate(s.lists[1])
	p.a.decls.truncate(s.lists[2])
	p.a.props.truncate(s.lists[3])
	p.a.patterns.truncate(s.lists[4])
	p.a.quasis.truncate(s.lists[5])
}

// specKind names a speculative reading, for the memo of failed attempts.
type specKind uint8

const (
	specTypeArgs specKind = iota
	specReturnType
	specGenericArrow
	specFuncType
	specInferConstraint
	specCondArrow
)

type specKey struct {
	pos  Pos
	kind specKind
}

// try runs f as a speculative parse. If f fails, the parser's state is
// restored and try reports false; a failure is remembered by position, so
// that nested speculation can never take more than linear time.
func (p *parser) try(kind specKind, f func()) (ok bool) {
	key := specKey{p.pos, kind}
	if speculationErr != nil || p.failedSpec[key] {
		return false
	}
	s := p.save()
	defer func() {
		if rec := recover(); rec != nil {
			if _, isBail := rec.(bailout); !isBail {
				panic(rec)
			}
			p.restore(s)
			if p.failedSpec == nil {
				p.failedSpec = make(map[specKey]bool)
			}
			p.failedSpec[key] = true
			ok = false
		}
	}()
	f()
	return true
}

// lookahead runs f on a copy of the state, always restoring it, and
// reports what f returned (false if it failed).
func (p *parser) lookahead(f func() bool) (ok bool) {
	if speculationErr != nil {
		return false
	}
	s := p.save()
	defer func() {
		rec := recover()
		if rec != nil {
			if _, isBail := rec.(bailout); !isBail {
				panic(rec)
			}
			ok = false
		}
		p.restore(s)
	}()
	return f()
}
