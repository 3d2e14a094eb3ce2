package codemode

import (
	"context"
	"testing"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/builtin"
	"github.com/go-codemode/codemode/interp"
	"github.com/go-codemode/codemode/value"
)

// TestNativesHaveStableNames: every built-in function a program can
// reach from the globals is registered in the library under a unique
// stable name, which is what lets a snapshot refer to it.
func TestNativesHaveStableNames(t *testing.T) {
	lib := builtin.New(libraryInstallers...)
	prog, err := ast.Parse("1")
	if err != nil {
		t.Fatal(err)
	}
	code, err := interp.Compile(prog)
	if err != nil {
		t.Fatal(err)
	}
	run := interp.NewRun(context.Background(), code, interp.Options{Library: lib})
	defer run.Close()
	r := run.Realm()
	seen := map[*value.Object]bool{}
	byName := map[string]*value.Native{}
	count := 0
	var walk func(o *value.Object, path string)
	check := func(f *value.Object, path string) {
		n, ok := f.Internal.(*value.Native)
		if !ok {
			return
		}
		count++
		if prev, dup := byName[n.Name]; dup && prev != n {
			t.Errorf("%s: two different natives share the name %q", path, n.Name)
		}
		byName[n.Name] = n
		if lib.Native(n.Name) != n {
			t.Errorf("%s: native %q is not registered in the library", path, n.Name)
		}
	}
	walk = func(o *value.Object, path string) {
		if o == nil || seen[o] {
			return
		}
		seen[o] = true
		if o.Callable() {
			check(o, path)
		}
		walk(o.Proto, path+".[[Prototype]]")
		for _, k := range r.OwnKeys(o, false, true) {
			p, _ := r.GetOwnProperty(o, k)
			if p.IsAccessor() {
				walk(p.Get, path+".get "+k)
				walk(p.Set, path+".set "+k)
				continue
			}
			walk(p.Value.AsObject(), path+"."+k)
		}
	}
	for _, name := range lib.GlobalNames() {
		v, _ := r.Global(name)
		walk(v.AsObject(), name)
	}
	for id := value.Intrinsic(0); id < value.NumIntrinsics; id++ {
		walk(r.Intrinsic(id), "intrinsic")
	}
	if count < 400 {
		t.Errorf("only %d built-in functions reached; the walk is broken", count)
	}
	t.Logf("%d built-in functions, all with stable names", count)
}
