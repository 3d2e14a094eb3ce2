package jsops

import "github.com/go-codemode/codemode/value"

// SettleDone settles the promise of a request (next, return, throw) made
// of an async generator that has completed: next gives the last result,
// return its argument, throw rejects with its argument.
func SettleDone(r *value.Realm, mode value.ResumeMode, v value.Value, promise *value.Object) {
	switch mode {
	case value.ResumeNext:
		r.ResolvePromise(promise, value.Obj(r.IterResult(value.Undefined, true)))
	case value.ResumeReturn:
		r.ResolvePromise(promise, value.Obj(r.IterResult(v, true)))
	case value.ResumeThrow:
		r.RejectPromise(promise, v)
	}
}
