package text

import (
	"strings"
	"testing"
	"time"

	"github.com/go-codemode/codemode/value"
)

// deadlineAgent is an engine stand-in whose run ends at a deadline.
type deadlineAgent struct{ deadline time.Time }

func (a *deadlineAgent) CallFunction(*value.Object, value.Value, []value.Value) value.Value {
	return value.Undefined
}
func (a *deadlineAgent) ConstructFunction(*value.Object, []value.Value, *value.Object) value.Value {
	return value.Undefined
}
func (a *deadlineAgent) Pos() int                { return -1 }
func (a *deadlineAgent) CheckInterrupts()        {}
func (a *deadlineAgent) Deadline() time.Time     { return a.deadline }
func (a *deadlineAgent) setDeadline(t time.Time) { a.deadline = t }

// TestCatastrophicBacktracking checks that a match that backtracks
// exponentially ends in the uncatchable TimeoutExceeded interrupt, at the
// engine's deadline when it offers one.
func TestCatastrophicBacktracking(t *testing.T) {
	l := value.NewLibrary()
	Install(l)
	agent := &deadlineAgent{}
	r := value.NewRealm(l, agent)
	rx := regexpCreate(r, value.StrOf(`^(a+)+$`), value.Undefined)
	input := value.StrOf(strings.Repeat("a", 40) + "b")

	agent.setDeadline(time.Now().Add(50 * time.Millisecond))
	var got any
	func() {
		defer func() { got = recover() }()
		r.CallObject(r.NewNative(regexpExec), value.Obj(rx), []value.Value{input})
	}()
	in, ok := got.(*value.Interrupt)
	if !ok {
		t.Fatalf("got %v, want an interrupt", got)
	}
	if in.Kind != "TimeoutExceeded" || in.Message != timeoutMessage {
		t.Errorf("got %+v", in)
	}

	// The same expression on a short input is fine.
	agent.setDeadline(time.Time{})
	res := r.CallObject(r.NewNative(regexpExec), value.Obj(rx), []value.Value{value.StrOf("aaa")})
	if !res.IsObject() {
		t.Errorf("exec on a short input: got %v", res)
	}
}
