package interp

import "github.com/go-codemode/codemode/ast"

// Go stack accounting. Every node compiles to a closure that calls its
// children's closures, so while a function calls out (a call, a getter,
// valueOf through +, an iterator step), the Go stack holds one closure
// frame for each node between the function's entry and that node. The
// compiler adds up the frame cost of each node on the way down and keeps
// the deepest sum a function reaches; a call to it charges that sum plus
// the call machinery to the realm's GoDepth (value.Realm.EnterFrame), so
// the budget bounds the real Go stack whatever the program's shape. The
// sums are computed from the program alone: the same program reaches the
// limit at the same point on every machine.
//
// The costs are upper bounds of the frames measured on amd64 (go build
// -gcflags=-S lists each closure's frame; TestStackMeasure measures
// whole programs), rounded up.

const (
	// callStackCost is the machinery of one program call: the call
	// site's closure, run.call, runBody, the statement list and the
	// value package's frames on the way in (GetObj to a getter, Add to
	// valueOf, Call and CallObject).
	callStackCost = 1024
	// coroutineStackCost is the bottom of a coroutine's goroutine:
	// co.main, the body closure and the message plumbing.
	coroutineStackCost = 1024
)

// exprStackCost is what evaluating x holds on the Go stack while a child
// of x runs: its closure's frame and the helpers between it and the
// child's closure.
func exprStackCost(x ast.Expr) int {
	switch x.(type) {
	case *ast.Call, *ast.New, *ast.TaggedTemplate:
		return 320
	case *ast.ObjectLit:
		return 448
	case *ast.ArrayLit, *ast.TemplateLit:
		return 224
	case *ast.ClassLit:
		return 1280
	case *ast.Binary, *ast.Assign, *ast.Update:
		return 192
	case *ast.Unary:
		return 96
	case *ast.Member, *ast.Index:
		return 224
	case *ast.Yield, *ast.Await:
		return 448
	}
	return 128
}

// stmtStackCost is stmt's counterpart for statements.
func stmtStackCost(s ast.Stmt) int {
	switch s.(type) {
	case *ast.Try:
		return 448
	case *ast.ForOf, *ast.ForIn:
		return 640
	case *ast.For, *ast.While, *ast.DoWhile, *ast.Switch, *ast.Labeled:
		return 256
	case *ast.ClassDecl:
		return 1280
	case *ast.Block:
		return 64
	}
	return 96
}

// patternStackCost is stmt's counterpart for destructuring patterns: an
// array pattern steps its iterator in a guarded closure, an object
// pattern reads each property with getters.
func patternStackCost(p ast.Pattern) int {
	switch p.(type) {
	case *ast.ArrayPattern, *ast.ObjectPattern:
		return 1024
	}
	return 128
}

// nest counts cost bytes of Go stack for the node being compiled and its
// children; call the returned function when they are compiled.
func (c *compiler) nest(cost int) func() {
	c.depth += cost
	if c.fn != nil && c.depth > c.fn.stack {
		c.fn.stack = c.depth
	}
	return func() { c.depth -= cost }
}

// frameCost is what a call of code charges to GoDepth.
func (code *funcCode) frameCost() int { return callStackCost + code.stack }
