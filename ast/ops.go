package ast

// UnaryOp is a prefix operator.
type UnaryOp uint8

// Unary operators.
const (
	OpNot    UnaryOp = iota // !
	OpBitNot                // ~
	OpPos                   // +
	OpNeg                   // -
	OpTypeof                // typeof
	OpVoid                  // void
	OpDelete                // delete
)

var unaryNames = [...]string{"!", "~", "+", "-", "typeof", "void", "delete"}

func (op UnaryOp) String() string { return unaryNames[op] }

// UpdateOp is ++ or --.
type UpdateOp uint8

// Update operators.
const (
	OpInc UpdateOp = iota // ++
	OpDec                 // --
)

func (op UpdateOp) String() string { return [...]string{"++", "--"}[op] }

// BinaryOp is an infix operator.
type BinaryOp uint8

// Binary operators, grouped by precedence (lowest first).
const (
	OpNullish    BinaryOp = iota // ??
	OpOr                         // ||
	OpAnd                        // &&
	OpBitOr                      // |
	OpBitXor                     // ^
	OpBitAnd                     // &
	OpEq                         // ==
	OpNe                         // !=
	OpStrictEq                   // ===
	OpStrictNe                   // !==
	OpLt                         // <
	OpGt                         // >
	OpLe                         // <=
	OpGe                         // >=
	OpInstanceof                 // instanceof
	OpIn                         // in
	OpShl                        // <<
	OpShr                        // >>
	OpUShr                       // >>>
	OpAdd                        // +
	OpSub                        // -
	OpMul                        // *
	OpDiv                        // /
	OpMod                        // %
	OpExp                        // **
)

var binaryNames = [...]string{"??", "||", "&&", "|", "^", "&", "==", "!=", "===", "!==",
	"<", ">", "<=", ">=", "instanceof", "in", "<<", ">>", ">>>", "+", "-", "*", "/", "%", "**"}

func (op BinaryOp) String() string { return binaryNames[op] }

// IsLogical reports whether the operator short-circuits (&&, ||, ??).
func (op BinaryOp) IsLogical() bool { return op <= OpAnd }

// Precedence is the binding power of the operator: higher binds tighter.
func (op BinaryOp) Precedence() int {
	switch op {
	case OpNullish:
		return 1
	case OpOr:
		return 2
	case OpAnd:
		return 3
	case OpBitOr:
		return 4
	case OpBitXor:
		return 5
	case OpBitAnd:
		return 6
	case OpEq, OpNe, OpStrictEq, OpStrictNe:
		return 7
	case OpLt, OpGt, OpLe, OpGe, OpInstanceof, OpIn:
		return 8
	case OpShl, OpShr, OpUShr:
		return 9
	case OpAdd, OpSub:
		return 10
	case OpMul, OpDiv, OpMod:
		return 11
	default: // OpExp
		return 12
	}
}

// AssignOp is = or a compound assignment.
type AssignOp uint8

// Assignment operators. Every compound form but the logical ones is
// "Target = Target Op Value" with Target evaluated once; the logical ones
// (&&=, ||=, ??=) assign only when they short-circuit to the right.
const (
	OpAssign        AssignOp = iota // =
	OpAddAssign                     // +=
	OpSubAssign                     // -=
	OpMulAssign                     // *=
	OpDivAssign                     // /=
	OpModAssign                     // %=
	OpExpAssign                     // **=
	OpShlAssign                     // <<=
	OpShrAssign                     // >>=
	OpUShrAssign                    // >>>=
	OpBitAndAssign                  // &=
	OpBitOrAssign                   // |=
	OpBitXorAssign                  // ^=
	OpAndAssign                     // &&=
	OpOrAssign                      // ||=
	OpNullishAssign                 // ??=
)

var assignNames = [...]string{"=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=",
	"&=", "|=", "^=", "&&=", "||=", "??="}

func (op AssignOp) String() string { return assignNames[op] }

// Binary returns the operator a compound assignment applies, and false for
// plain =.
func (op AssignOp) Binary() (BinaryOp, bool) {
	switch op {
	case OpAddAssign:
		return OpAdd, true
	case OpSubAssign:
		return OpSub, true
	case OpMulAssign:
		return OpMul, true
	case OpDivAssign:
		return OpDiv, true
	case OpModAssign:
		return OpMod, true
	case OpExpAssign:
		return OpExp, true
	case OpShlAssign:
		return OpShl, true
	case OpShrAssign:
		return OpShr, true
	case OpUShrAssign:
		return OpUShr, true
	case OpBitAndAssign:
		return OpBitAnd, true
	case OpBitOrAssign:
		return OpBitOr, true
	case OpBitXorAssign:
		return OpBitXor, true
	case OpAndAssign:
		return OpAnd, true
	case OpOrAssign:
		return OpOr, true
	case OpNullishAssign:
		return OpNullish, true
	}
	return 0, false
}
