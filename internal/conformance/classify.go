package conformance

import (
	"regexp"
	"strings"
)

// The reasons Classify gives. A regenerated file puts a new failure under
// the group with the same reason text, so keep these equal to the file's.
const (
	ReasonBinaryOperands = "deliberate (issue 12): the reference makes a function, promise, generator or tool reference as an operand of a coercing binary operator InvalidDataValue 'Binary operators require data values.'; these tests expect JavaScript's coercion"
	ReasonBigInt         = "BigInt is not supported (by design): the test uses a BigInt literal"
	ReasonBoxed          = "needs boxed primitives: new String/Number/Boolean(...), Object(primitive) (classified by the test's source)"
	ReasonSymbol         = "needs Symbol(): symbols with descriptions, Symbol.for/keyFor, symbols as keys (classified by the test's source)"
	ReasonRegExpEarly    = "regular-expression pattern errors must be early errors (a ParseError at the literal)"
	reasonUntriaged      = "not yet triaged: "
)

var (
	bigintLiteral = regexp.MustCompile(`\b\d+n\b`)
	boxing        = regexp.MustCompile(`\bnew (String|Number|Boolean)\s*\(|(^|[^.\w$])Object\s*\(`)
	symbolCall    = regexp.MustCompile(`\bSymbol\s*\(`)
)

// Classify gives a new failure its reason from its error and the test's
// source: one of the Reason constants when a pattern says why, else "not
// yet triaged: <area>", so that new failures are grouped by area with
// their errors as notes until someone looks at them.
func Classify(s *Suite) func(Outcome) string {
	return func(o Outcome) string {
		src, _ := s.Source(o.Test)
		src = stripComments(src)
		switch {
		case strings.Contains(o.Detail, "Binary operators require data values."):
			return ReasonBinaryOperands
		case strings.Contains(o.Detail, "BigInt") || bigintLiteral.MatchString(src):
			return ReasonBigInt
		case o.Test.Category == "negative-parse" && strings.Contains(o.Test.Area, "regexp"):
			return ReasonRegExpEarly
		case strings.Contains(o.Detail, "Symbol is not callable"):
			return ReasonSymbol
		case boxing.MatchString(o.Detail) || boxing.MatchString(src):
			return ReasonBoxed
		case symbolCall.MatchString(src):
			return ReasonSymbol
		}
		return reasonUntriaged + o.Test.Area
	}
}

var comment = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)

// stripComments drops the comments (test262's front matter and prose)
// so that a pattern does not match an explanation. It can cut a string
// holding "//", which only costs a pattern match.
func stripComments(src string) string { return comment.ReplaceAllString(src, "") }
