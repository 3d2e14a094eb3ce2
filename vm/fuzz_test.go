package vm_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-codemode/codemode/internal/scripttest"
	"github.com/go-codemode/codemode/interp"
	"github.com/go-codemode/codemode/value"
	"github.com/go-codemode/codemode/vm"
)

// FuzzEngines feeds programs to both engines: the VM must never panic
// or fail to compile with anything but a NotCompiledError, and what it
// runs must end as on engine "ast". Seeded with the script suite.
func FuzzEngines(f *testing.F) {
	cases, err := scripttest.Load(filepath.Join("..", "testdata", "scripts"))
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		if c.Tools == nil && c.Limits == nil {
			f.Add(c.Program)
		}
	}
	f.Fuzz(func(t *testing.T, code string) {
		p, err := parseOrNil(code)
		if err != nil {
			return
		}
		prog, err := vm.Compile(p)
		if err != nil {
			if !vm.IsNotCompiled(err) {
				t.Fatalf("compile: %v", err)
			}
			return
		}
		_ = prog.Encode()
		_ = prog.Disassemble()
		got, ok := runBounded(t, code, true)
		if nondeterministic(code) {
			return // the clock and random numbers differ between two runs
		}
		want, ok2 := runBounded(t, code, false)
		if ok && ok2 && got != want {
			t.Fatalf("engines differ:\n vm  %s\n ast %s", got, want)
		}
	})
}

func nondeterministic(code string) bool {
	for _, s := range []string{"Date", "random", "performance", "crypto"} {
		if strings.Contains(code, s) {
			return true
		}
	}
	return false
}

// runBounded runs code on one engine with a short deadline and a memory
// budget; ok is false when the run hit a limit (where the engines may
// legitimately stop at different points).
func runBounded(t *testing.T, code string, onVM bool) (string, bool) {
	p, _ := parseOrNil(code)
	deadline := time.Now().Add(200 * time.Millisecond)
	var (
		r    *value.Realm
		v    value.Value
		exc  *value.Exception
		intr *value.Interrupt
	)
	if onVM {
		prog, _ := vm.Compile(p)
		run := vm.NewRun(context.Background(), prog, vm.Options{Library: lib, Deadline: deadline})
		r = run.Realm()
		r.Budget = 64 << 20
		var fail *vm.Failure
		var pr *value.Object
		v, pr, fail = run.Start()
		if fail == nil && pr != nil {
			fail = run.Settle(pr)
			v = pr.Internal.(*value.PromiseData).Result
		}
		if fail != nil {
			if fail.Panic != nil {
				t.Fatalf("vm panicked: %v\n%s", fail.Panic, fail.Stack)
			}
			exc, intr = fail.Exception, fail.Interrupt
		}
	} else {
		prog, err := interp.Compile(p)
		if err != nil {
			return "", false
		}
		run := interp.NewRun(context.Background(), prog, interp.Options{Library: lib, Deadline: deadline})
		defer run.Close()
		r = run.Realm()
		r.Budget = 64 << 20
		var fail *interp.Failure
		var pr *value.Object
		v, pr, fail = run.Start()
		if fail == nil && pr != nil {
			fail = run.Settle(pr)
			v = pr.Internal.(*value.PromiseData).Result
		}
		if fail != nil {
			if fail.Panic != nil {
				return "", false // the other engine's bug, not ours
			}
			exc, intr = fail.Exception, fail.Interrupt
		}
	}
	if intr != nil {
		return "", false
	}
	if exc != nil && isRangeError(r, exc.Value) {
		return "", false // stack limits are estimated differently
	}
	return render(r, p.Source, v, exc, nil, r.Logs), true
}

func isRangeError(r *value.Realm, v value.Value) bool {
	o := v.AsObject()
	return o != nil && o.Class == value.ClassError && r.InstanceOf(v, value.Obj(r.Intrinsic(value.RangeErrorCtor)))
}
