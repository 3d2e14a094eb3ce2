package catalog

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// Options bound the size of rendered text. With the zero Options nothing
// is cut and the text is the reference's. Values of zero or less mean no
// limit.
//
// MaxDepth, MaxProperties and MaxDescription are hard cuts, applied
// whatever the size. MaxChars is a budget: when the text is longer, the
// render is repeated with tighter cuts, in this order, until it fits:
//
//  1. descriptions are shortened (to 240, 120, then 60 characters);
//  2. deep object levels are collapsed to summaries (the most levels that
//     fit are kept);
//  3. long enums and unions are cut (the most values that fit are kept,
//     at least two), then properties are left out (the most that fit are
//     kept, required ones first);
//  4. descriptions are dropped (JSDoc tags stay);
//  5. the root object itself is collapsed to a summary.
//
// A step only tightens what the hard cuts already set. After steps 2 and 3
// the descriptions are lengthened again as far as the budget allows.
// Because one more level can multiply the text (a union of many objects),
// step 2 also tries one level more with long enums and unions cut, and
// keeps whichever fitting text is longer. The last step's text is returned
// even if it is still too long, so a budget below the shortest form is
// exceeded.
//
// Every cut leaves a marker in the text; see the package documentation.
type Options struct {
	// MaxChars bounds the text, in characters (Unicode code points): the
	// type for Render and Compact, the whole signature for
	// SignatureWithOptions.
	MaxChars int
	// MaxDepth is how many levels of nested object types are shown in
	// full; the root object is level 1. Deeper objects become a summary
	// such as { /* … 3 properties: id, name?, tags? */ }.
	MaxDepth int
	// MaxProperties is how many properties an object shows, required ones
	// first; a comment line says how many more there are and names them.
	// It also caps enum values and anyOf/oneOf alternatives (at least two
	// are kept), with a /* … N more values */ marker.
	MaxProperties int
	// MaxDescription is the longest description shown, in characters;
	// a longer one is cut at a word and ends in "…".
	MaxDescription int
}

func (o Options) limits() limits {
	b := max(o.MaxProperties, 0)
	return limits{desc: max(o.MaxDescription, 0), depth: max(o.MaxDepth, 0), breadth: b, alts: b}
}

// schemaDoc is a parsed schema.
type schemaDoc struct {
	present bool // there is a schema (not empty, not JSON null)
	ok      bool // it parsed
	root    any
}

func parseSchema(raw json.RawMessage) schemaDoc {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		return schemaDoc{}
	}
	v, err := parseJSON(t)
	if err != nil {
		return schemaDoc{present: true}
	}
	return schemaDoc{present: true, ok: true, root: v}
}

// render renders the document once with the given cuts.
func (d schemaDoc) render(pretty bool, lim limits) (string, stats) {
	if !d.ok {
		return "unknown", stats{}
	}
	r := &renderer{pretty: pretty, lim: lim}
	return r.render(d.root, nil, 0, 1, nil), r.st
}

// descLadder returns the description lengths a budget tries, longest
// first.
func descLadder() []int { return []int{240, 120, 60} }

// descLen is a description limit with 0 (no limit) as the largest.
func descLen(n int) int {
	if n <= 0 {
		return int(^uint(0) >> 1)
	}
	return n
}

// fit renders the document within maxChars characters (no bound when
// maxChars ≤ 0), tightening the cuts in the order Options documents.
func (d schemaDoc) fit(pretty bool, base limits, maxChars int) string {
	out, st := d.render(pretty, base)
	if maxChars <= 0 || chars(out) <= maxChars {
		return out
	}
	try := func(l limits) (string, bool) {
		s, _ := d.render(pretty, l)
		return s, chars(s) <= maxChars
	}
	// relax lengthens the descriptions of a fitting render as far as the
	// budget allows.
	relax := func(l limits, s string) string {
		if !st.descs || l.desc == base.desc {
			return s
		}
		for _, n := range append([]int{base.desc}, descLadder()...) {
			if descLen(n) <= descLen(l.desc) || descLen(n) > descLen(base.desc) {
				continue
			}
			m := l
			m.desc = n
			if t, ok := try(m); ok {
				return t
			}
		}
		return s
	}
	cur := base

	// 1. Shorten descriptions (pointless for an expansion that stopped at
	// the work bound).
	if st.descs && !st.capped {
		for _, n := range descLadder() {
			if base.desc != 0 && n >= base.desc {
				continue
			}
			cur.desc = n
			if s, ok := try(cur); ok {
				return s
			}
		}
	}

	// narrow is step 3 at l's depth: cut long enums and unions, then
	// (with props) leave out properties, each time keeping the most that
	// fits.
	narrow := func(l limits, props bool) (string, limits, bool) {
		largest := func(top int, set func(*limits, int)) (string, bool) {
			best, bestN := "", 0
			for lo, hi := 1, top; lo <= hi; {
				mid := (lo + hi) / 2
				m := l
				set(&m, mid)
				if s, ok := try(m); ok {
					best, bestN = s, mid
					lo = mid + 1
				} else {
					hi = mid - 1
				}
			}
			if best == "" {
				set(&l, 1)
				return "", false
			}
			set(&l, bestN)
			return relax(l, best), true
		}
		if top := capBelow(st.maxAlts, base.alts); top >= 2 {
			if s, ok := largest(top, func(m *limits, n int) { m.alts = max(n, 2) }); ok {
				return s, l, true
			}
		}
		if top := capBelow(st.maxProps, base.breadth); props && top >= 1 {
			if s, ok := largest(top, func(m *limits, n int) { m.breadth = n }); ok {
				return s, l, true
			}
		}
		return "", l, false
	}

	// 2. Collapse deep levels: the most levels that fit (the text grows
	// with the levels shown, so a binary search finds them). Levels grow
	// fast (a union of many objects), so one level more is also tried with
	// long enums and unions cut, and whichever text uses more of the
	// budget wins.
	best, bestDepth := "", 0
	for lo, hi := 1, st.maxLevel-1; lo <= hi; {
		mid := (lo + hi) / 2
		l := cur
		l.depth = mid
		if s, ok := try(l); ok {
			best, bestDepth = s, mid
			lo = mid + 1
		} else {
			hi = mid - 1
		}
	}
	if bestDepth > 0 {
		cur.depth = bestDepth
		s := relax(cur, best)
		deeper := cur
		deeper.depth++
		if t, _, ok := narrow(deeper, false); ok && chars(t) > chars(s) {
			return t
		}
		return s
	}
	if cur.depth == 0 {
		cur.depth = 1
	}
	// 3. Cut enums, unions and properties at the shallowest level.
	s, cur, ok := narrow(cur, true)
	if ok {
		return s
	}
	// 4. Drop descriptions.
	if st.descs {
		cur.noDesc = true
		if s, ok := try(cur); ok {
			return s
		}
	}
	// 5. Collapse the root.
	cur.root = true
	s, _ = try(cur)
	return s
}

// capBelow is the largest cut below seen items (and below the cut
// already in force) that still removes something.
func capBelow(seen, current int) int {
	top := seen - 1
	if current > 0 {
		top = min(top, current-1)
	}
	return top
}

func chars(s string) int { return utf8.RuneCountInString(s) }

// Render renders a JSON Schema as a pretty TypeScript type, the form
// signatures use: one property a line with its JSDoc, two spaces of
// indentation a level. A missing schema, or one that is not valid JSON,
// renders as unknown. opts bounds the size; the zero Options render as the
// reference does.
func Render(schema json.RawMessage, opts Options) string {
	return parseSchema(schema).fit(true, opts.limits(), opts.MaxChars)
}

// Compact renders a JSON Schema as a one-line TypeScript type without
// JSDoc, such as { a: string; b?: number }, the form of hints in error
// messages. opts bounds the size as for Render.
func Compact(schema json.RawMessage, opts Options) string {
	return parseSchema(schema).fit(false, opts.limits(), opts.MaxChars)
}
