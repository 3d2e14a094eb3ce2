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
	ReasonLeftOut        = "by design: the test uses Proxy, Reflect, ArrayBuffer or the Function constructor, which code mode leaves out as the reference does (an intentional boundary of opencode-semantics.md)"
	ReasonArrayCap       = "by design: the test makes an array longer than the reference's cap of 10,000,000 elements (RangeError: Invalid array length)"
	reasonUntriaged      = "not yet triaged: "
)

var (
	bigintLiteral = regexp.MustCompile(`\b\d+n\b`)
	leftOut       = regexp.MustCompile(`(Proxy|Reflect|ArrayBuffer) is not defined|The Function constructor is not supported`)
)

// Classify gives a new failure its reason from its error and the test's
// source: one of the Reason constants when a pattern says why, else "not
// yet triaged: <area>", so that new failures are grouped by area with
// their errors as notes until someone looks at them and gives them a
// reason by hand (the file keeps it).
func Classify(s *Suite) func(Outcome) string {
	return func(o Outcome) string {
		src, _ := s.Source(o.Test)
		src = stripComments(src)
		switch {
		case notCompiled.MatchString(o.Detail):
			return "not compiled yet on engine vm (issue 14): " + notCompiled.FindStringSubmatch(o.Detail)[1]
		case strings.Contains(o.Detail, "Binary operators require data values."):
			return ReasonBinaryOperands
		case strings.Contains(o.Detail, "BigInt") || bigintLiteral.MatchString(src):
			return ReasonBigInt
		case leftOut.MatchString(o.Detail):
			return ReasonLeftOut
		case strings.Contains(o.Detail, "RangeError: Invalid array length"):
			return ReasonArrayCap
		}
		return reasonUntriaged + o.Test.Area
	}
}

// notCompiled is the error of a program engine "vm" cannot compile yet.
var notCompiled = regexp.MustCompile(`vm: (.+?) is not compiled yet`)

var comment = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)

// stripComments drops the comments (test262's front matter and prose)
// so that a pattern does not match an explanation. It can cut a string
// holding "//", which only costs a pattern match.
func stripComments(src string) string { return comment.ReplaceAllString(src, "") }
