package jsregex

// This file parses /v character classes: nested classes, union,
// intersection (&&), subtraction (--), \q{...} strings and properties, as
// V8's ParseCharacterClass does in UnicodeSets mode. Under /i every operand
// is closed under case folding before the set operations (the spec's
// MaybeSimpleCaseFolding; V8 closes over the case variants, which gives the
// same result when the class is matched case-insensitively).

import "sort"

// vset is a character set with the strings of a /v class.
type vset struct {
	cs   charSet
	strs map[string]bool // keys from strKey; only strings of length != 1
	cat  string          // without /v: regexp2's escape for cs (\p{L}), if there is one
}

// strKey encodes runes (which may be lone surrogates) as a map key.
func strKey(rs []rune) string {
	b := make([]byte, 0, 3*len(rs))
	for _, r := range rs {
		b = append(b, byte(r>>16), byte(r>>8), byte(r))
	}
	return string(b)
}

func keyRunes(k string) []rune {
	rs := make([]rune, 0, len(k)/3)
	for i := 0; i+2 < len(k); i += 3 {
		rs = append(rs, rune(k[i])<<16|rune(k[i+1])<<8|rune(k[i+2]))
	}
	return rs
}

// strings returns the strings longest first (the order a class tries them).
func (v vset) strings() [][]rune {
	if len(v.strs) == 0 {
		return nil
	}
	out := make([][]rune, 0, len(v.strs))
	for k := range v.strs {
		out = append(out, keyRunes(k))
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) > len(out[j])
		}
		return strKey(out[i]) < strKey(out[j])
	})
	return out
}

func (v *vset) addString(rs []rune) {
	if len(rs) == 1 {
		v.cs = union(v.cs, single(rs[0]))
		return
	}
	if v.strs == nil {
		v.strs = map[string]bool{}
	}
	v.strs[strKey(rs)] = true
}

func (v *vset) addAll(o vset) {
	v.cs = union(v.cs, o.cs)
	for k := range o.strs {
		if v.strs == nil {
			v.strs = map[string]bool{}
		}
		v.strs[k] = true
	}
}

func (v vset) empty() bool { return len(v.cs) == 0 && len(v.strs) == 0 }

// operandType is V8's ClassSetOperandType.
type operandType uint8

const (
	operandChar operandType = iota
	operandStrings
	operandNested
	operandEscape
	operandRange
)

// operand is one parsed ClassSetOperand.
type operand struct {
	set        vset
	mayStrings bool // V8's MayContainStrings
}

func mayContainStrings(t operandType, o operand) bool {
	switch t {
	case operandChar, operandRange:
		return false
	case operandEscape, operandStrings:
		return len(o.set.strs) > 0
	}
	return o.mayStrings
}

// addFolded adds lo..hi, closed under case folding under /i.
func (p *parser) addFolded(v *vset, lo, hi rune) {
	s := span(lo, hi)
	if p.fl.ignoreCase {
		s = foldFor(true).closure(s)
	}
	v.cs = union(v.cs, s)
}

// parseClassSet parses a /v class starting at '['.
func (p *parser) parseClassSet() (vset, bool) {
	if p.depth >= maxNesting {
		p.fail(errStackOverflow)
		return vset{}, false
	}
	p.depth++
	defer func() { p.depth-- }()
	p.advance()
	negated := false
	if p.cur == '^' {
		negated = true
		p.advance()
	}
	if p.cur == ']' {
		p.advance()
		if negated {
			return vset{cs: span(0, maxCodePoint)}, false
		}
		return vset{}, false
	}
	var acc vset
	t, nested, ch := p.parseClassSetOperand(&acc)
	if p.failed {
		return vset{}, false
	}
	switch p.cur {
	case '-':
		if p.peek() == '-' {
			first := operand{set: acc}
			if nested != nil {
				first = *nested
			} else if t == operandChar {
				p.addFolded(&first.set, ch, ch)
			}
			return p.parseClassSubtraction(negated, first, t)
		}
	case '&':
		if p.peek() == '&' {
			first := operand{set: acc}
			if nested != nil {
				first = *nested
			} else if t == operandChar {
				p.addFolded(&first.set, ch, ch)
			}
			return p.parseClassIntersection(negated, first, t)
		}
	}
	return p.parseClassUnion(negated, nested, t, acc, ch)
}

// parseClassSetOperand parses one operand. Escapes and strings are added to
// acc; a nested class is returned; a single character is returned in ch
// (and not added).
func (p *parser) parseClassSetOperand(acc *vset) (operandType, *operand, rune) {
	c := p.cur
	if c == '\\' {
		next := p.peek()
		if next == 'q' {
			p.parseClassStringDisjunction(acc)
			return operandStrings, nil, 0
		}
		if vs, ok := p.tryParseCharacterClassEscape(next, true); ok {
			acc.addAll(vs)
			return operandEscape, nil, 0
		}
	}
	if c == '[' {
		vs, may := p.parseClassSet()
		return operandNested, &operand{set: vs, mayStrings: may}, 0
	}
	ch := p.parseClassSetCharacter()
	return operandChar, nil, ch
}

// parseClassSetOperandAlone parses an operand of && or --.
func (p *parser) parseClassSetOperandAlone() (operandType, operand) {
	var acc vset
	t, nested, ch := p.parseClassSetOperand(&acc)
	if nested != nil {
		return t, *nested
	}
	if t == operandChar && !p.failed {
		p.addFolded(&acc, ch, ch)
	}
	return t, operand{set: acc}
}

func (p *parser) parseClassSetCharacter() rune {
	c := p.cur
	if c == '\\' {
		switch p.peek() {
		case 'b':
			p.advanceBy(2)
			return '\b'
		case endMarker:
			p.fail(errEscapeAtEnd)
			return 0
		}
		r, _ := p.parseCharacterEscape(true)
		return r
	}
	if isClassSetSyntaxCharacter(c) {
		p.fail(errInvalidCharInClass)
		return 0
	}
	if p.isClassSetReservedDoublePunctuator(c) {
		p.fail(errInvalidSetOperation)
		return 0
	}
	p.advance()
	return c
}

func (p *parser) parseClassStringDisjunction(acc *vset) {
	p.advanceBy(2)
	if p.cur != '{' {
		p.fail(errInvalidEscape)
		return
	}
	p.advance()
	var cur []rune
	fold := foldFor(true)
	for p.hasMore && p.cur != '}' {
		if p.cur == '|' {
			acc.addString(cur)
			cur = nil
			p.advance()
			continue
		}
		c := p.parseClassSetCharacter()
		if p.failed {
			return
		}
		if p.fl.ignoreCase {
			c = fold.canon(c)
		}
		cur = append(cur, c)
	}
	acc.addString(cur)
	p.advance()
}

func (p *parser) parseClassUnion(negated bool, first *operand, firstType operandType, acc vset, ch rune) (vset, bool) {
	var result vset
	may := false
	if first != nil {
		may = mayContainStrings(firstType, *first)
		result.addAll(first.set)
	}
	last := firstType
	for p.hasMore && p.cur != ']' {
		if p.cur == '-' {
			if p.peek() == '-' {
				p.fail(errInvalidSetOperation)
				return vset{}, false
			}
			p.advance()
			if !p.hasMore {
				break
			}
			if last != operandChar {
				p.fail(errInvalidCharacterClass)
				return vset{}, false
			}
			from := ch
			var nested *operand
			last, nested, ch = p.parseClassSetOperand(&acc)
			if p.failed {
				return vset{}, false
			}
			_ = nested
			if last != operandChar {
				p.fail(errInvalidCharacterClass)
				return vset{}, false
			}
			if from > ch {
				p.fail(errClassOutOfOrder)
				return vset{}, false
			}
			p.addFolded(&acc, from, ch)
			last = operandRange
			continue
		}
		if last == operandChar {
			p.addFolded(&acc, ch, ch)
		}
		var nested *operand
		last, nested, ch = p.parseClassSetOperand(&acc)
		if p.failed {
			return vset{}, false
		}
		if nested != nil {
			may = may || mayContainStrings(last, *nested)
			if !acc.empty() {
				may = may || len(acc.strs) > 0
				result.addAll(acc)
				acc = vset{}
			}
			result.addAll(nested.set)
		}
	}
	if !p.hasMore {
		p.fail(errUnterminatedClass)
		return vset{}, false
	}
	if last == operandChar {
		p.addFolded(&acc, ch, ch)
	}
	if !acc.empty() {
		may = may || len(acc.strs) > 0
		result.addAll(acc)
	}
	p.advance()
	if negated && may {
		p.fail(errNegatedWithStrings)
		return vset{}, false
	}
	if negated {
		return vset{cs: complement(result.cs, maxCodePoint)}, false
	}
	return result, may
}

func (p *parser) parseClassIntersection(negated bool, first operand, firstType operandType) (vset, bool) {
	may := mayContainStrings(firstType, first)
	result := first.set
	for p.hasMore && p.cur != ']' {
		if p.cur != '&' || p.peek() != '&' {
			p.fail(errInvalidSetOperation)
			return vset{}, false
		}
		p.advanceBy(2)
		if p.cur == '&' {
			p.fail(errInvalidCharInClass)
			return vset{}, false
		}
		t, o := p.parseClassSetOperandAlone()
		if p.failed {
			return vset{}, false
		}
		may = may && mayContainStrings(t, o)
		next := vset{cs: intersect(result.cs, o.set.cs)}
		for k := range result.strs {
			if o.set.strs[k] {
				if next.strs == nil {
					next.strs = map[string]bool{}
				}
				next.strs[k] = true
			}
		}
		result = next
	}
	if !p.hasMore {
		p.fail(errUnterminatedClass)
		return vset{}, false
	}
	if negated && may {
		p.fail(errNegatedWithStrings)
		return vset{}, false
	}
	p.advance()
	if negated {
		return vset{cs: complement(result.cs, maxCodePoint)}, false
	}
	return result, may
}

func (p *parser) parseClassSubtraction(negated bool, first operand, firstType operandType) (vset, bool) {
	may := mayContainStrings(firstType, first)
	if negated && may {
		p.fail(errNegatedWithStrings)
		return vset{}, false
	}
	result := first.set
	for p.hasMore && p.cur != ']' {
		if p.cur != '-' || p.peek() != '-' {
			p.fail(errInvalidSetOperation)
			return vset{}, false
		}
		p.advanceBy(2)
		_, o := p.parseClassSetOperandAlone()
		if p.failed {
			return vset{}, false
		}
		next := vset{cs: subtract(result.cs, o.set.cs)}
		for k := range result.strs {
			if !o.set.strs[k] {
				if next.strs == nil {
					next.strs = map[string]bool{}
				}
				next.strs[k] = true
			}
		}
		result = next
	}
	if !p.hasMore {
		p.fail(errUnterminatedClass)
		return vset{}, false
	}
	p.advance()
	if negated {
		return vset{cs: complement(result.cs, maxCodePoint)}, false
	}
	return result, may
}
