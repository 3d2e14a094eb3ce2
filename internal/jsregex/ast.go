package jsregex

// The parser turns a pattern into a tree of nodes; emit.go turns the tree
// into regexp2 syntax. Characters in the tree are UTF-16 code units for
// patterns without /u and /v and code points with them.

// op is the kind of a node.
type op uint8

const (
	opEmpty   op = iota // matches the empty string
	opChar              // one character: c
	opClass             // one character from a set (and, with /v, strings)
	opSeq               // subs in order
	opAlt               // one of subs, tried in order
	opCapture           // capturing group number group around subs[0]
	opGroup             // non-capturing group around subs[0] (modifiers live in fl)
	opLook              // lookahead or lookbehind (behind, negate) around subs[0]
	opBackref           // backreference to any of refs (several for duplicate names)
	opAssert            // ^ $ \b \B: assert
	opQuant             // subs[0] repeated min..max times (max < 0: unbounded)
)

// assertKind tells opAssert nodes apart.
type assertKind uint8

const (
	assertStart assertKind = iota
	assertEnd
	assertBoundary
	assertNotBoundary
)

// modFlags are the flags a part of the pattern is compiled with; modifiers
// (?ims-ims:...) change them for a group.
type modFlags struct {
	ignoreCase, multiline, dotAll bool
}

// node is one node of the pattern tree.
type node struct {
	op   op
	fl   modFlags // flags in effect where the node was parsed
	subs []*node

	c rune // opChar

	// opClass: without /v, set is the class as written and invert tells a
	// negated class; case-insensitivity is applied when emitting. With /v,
	// set is final (complement and case closure already applied) and strs
	// holds the strings of \q{...}.
	set      charSet
	invert   bool
	strs     [][]rune
	caseless bool // the set does not depend on case (.)
	// cats are regexp2 property escapes (\p{L}, \P{Greek}) that, with
	// catRest, make up set; regexp2 tests those by binary search.
	cats    []string
	catRest charSet

	group int // opCapture

	refs []int  // opBackref
	name string // opBackref by name, until the names are resolved

	min, max int  // opQuant
	greedy   bool // opQuant

	behind, negate bool // opLook

	assert assertKind // opAssert

	// Memoized properties (0: not computed, 1: false, 2: true), so that
	// nested quantifiers do not make the analyses quadratic.
	zeroWidth, canBeEmpty, emptyMatters int8
}

func memo(m *int8, f func() bool) bool {
	if *m == 0 {
		*m = 1
		if f() {
			*m = 2
		}
	}
	return *m == 2
}

// maxMatchZero reports whether n can only match the empty string (V8's
// max_match() == 0).
func (n *node) maxMatchZero() bool {
	return memo(&n.zeroWidth, n.computeMaxMatchZero)
}

func (n *node) computeMaxMatchZero() bool {
	switch n.op {
	case opEmpty, opAssert, opLook:
		return true
	case opChar, opBackref:
		return false
	case opClass:
		return false
	case opSeq, opAlt:
		for _, s := range n.subs {
			if !s.maxMatchZero() {
				return false
			}
		}
		return true
	case opCapture, opGroup:
		return n.subs[0].maxMatchZero()
	case opQuant:
		return n.max == 0 || n.subs[0].maxMatchZero()
	}
	return false
}
