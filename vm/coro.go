package vm

import "github.com/go-codemode/codemode/value"

// coroutine is the state of a generator or async function call whose
// frame can suspend.
type coroutine struct{}

// callSpecial calls a program function that is not plain: a class
// constructor (an error without new), a generator or an async function.
func (run *Run) callSpecial(cl *closure, fobj *value.Object, this value.Value, args []value.Value) value.Value {
	r := run.realm
	if cl.class != nil {
		r.ThrowType("Class constructor %s cannot be invoked without 'new'", r.FunctionName(fobj))
	}
	panic("vm: not a plain function")
}
