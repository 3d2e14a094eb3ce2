package vm

import (
	"context"
	"reflect"
	"testing"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/builtin"
	"github.com/go-codemode/codemode/builtin/array"
	"github.com/go-codemode/codemode/builtin/collections"
	"github.com/go-codemode/codemode/value"
)

var testLib = builtin.New(array.Install, collections.Install)

// startProgram compiles and starts code, returning its value.
func startProgram(t *testing.T, code string) (*Run, value.Value, *value.Object) {
	t.Helper()
	p, err := ast.ParseWith(code, ast.Options{})
	if err != nil {
		t.Fatal(err)
	}
	prog, err := Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	run := NewRun(context.Background(), prog, Options{Library: testLib})
	v, pr, fail := run.Start()
	if fail != nil {
		t.Fatalf("run: %v", fail)
	}
	return run, v, pr
}

// checkPureData walks every value reachable from v through the vm's own
// types and fails on a func or a chan: a suspended frame must be data.
// Values of other packages' types (value.Value, *value.Object) are the
// library's business and are not entered.
func checkPureData(t *testing.T, v reflect.Value, path string, seen map[uintptr]bool) {
	t.Helper()
	switch v.Kind() {
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		t.Errorf("%s is a %s", path, v.Kind())
		return
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		if v.Elem().Type().PkgPath() != reflect.TypeOf(frame{}).PkgPath() {
			return
		}
		checkPureData(t, v.Elem(), path, seen)
	case reflect.Interface:
		if !v.IsNil() {
			checkPureData(t, v.Elem(), path, seen)
		}
	case reflect.Struct:
		if v.Type().PkgPath() != reflect.TypeOf(frame{}).PkgPath() {
			return
		}
		for i := 0; i < v.NumField(); i++ {
			checkPureData(t, v.Field(i), path+"."+v.Type().Field(i).Name, seen)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			checkPureData(t, v.Index(i), path+"[]", seen)
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			checkPureData(t, it.Key(), path+"{k}", seen)
			checkPureData(t, it.Value(), path+"{v}", seen)
		}
	}
}

// TestSuspendedFrameIsData suspends a generator and an async function in
// the middle of their bodies (inside a try region, with captured
// variables and a half-evaluated call on the operand stack) and checks
// that what keeps them is plain data holding the frame's state.
func TestSuspendedFrameIsData(t *testing.T) {
	_, v, _ := startProgram(t, `function* g(a) { let n = a; const get = () => n; try { n += [1].length + (yield get()) } finally { n++ } }
		const it = g(1); it.next(); it`)
	gen, ok := v.AsObject().Internal.(*generator)
	if !ok || gen.co.fr == nil {
		t.Fatalf("no suspended generator: %v", v)
	}
	fr := gen.co.fr
	if len(fr.handlers) != 1 || fr.pc == 0 || fr.sp <= fr.bp+fr.fc.NumLocals {
		t.Errorf("the frame lost its state: pc %d, handlers %d, sp %d", fr.pc, len(fr.handlers), fr.sp)
	}
	checkPureData(t, reflect.ValueOf(gen), "generator", map[uintptr]bool{})

	run, _, p := startProgram(t, `let log = []; async function f(x) { try { log.push(await x) } catch (e) {} return log }
		let resolve; const pending = new Promise(r => { resolve = r }); const q = f(pending); await null; resolve(7); q`)
	if p == nil {
		t.Fatal("the body did not await")
	}
	// The body is parked at its await; f is parked at its own.
	if run.mainCo == nil || run.mainCo.fr == nil {
		t.Fatal("the program body is not suspended")
	}
	checkPureData(t, reflect.ValueOf(run.mainCo), "main", map[uintptr]bool{})
	if fail := run.Settle(p); fail != nil {
		t.Fatal(fail)
	}
}

// TestSuspendedFramesCharged checks that suspended generators count
// against the memory budget: a program keeping many of them runs out.
func TestSuspendedFramesCharged(t *testing.T) {
	p, err := ast.ParseWith(`function* g() { yield 1 } const keep = []; for (let i = 0; i < 1e6; i++) { const it = g(); it.next(); keep.push(it) } keep.length`, ast.Options{})
	if err != nil {
		t.Fatal(err)
	}
	prog, err := Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	run := NewRun(context.Background(), prog, Options{Library: testLib})
	run.Realm().Budget = 16 << 20
	_, _, fail := run.Start()
	if fail == nil || fail.Interrupt == nil || fail.Interrupt.Kind != "MemoryLimitExceeded" {
		t.Fatalf("got %v (%s), want a MemoryLimitExceeded interrupt", fail, run.Realm().Describe(fail.Exception.Value))
	}
}
