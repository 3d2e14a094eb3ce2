package ast

import "testing"

// TestResolveFrames shows how the resolver lays out the program's frame:
// which bindings live in plain slots, which in cells because a closure
// captures them, and which names are the host's.
func TestResolveFrames(t *testing.T) {
	tests := []struct {
		src     string
		frame   string
		globals []string
	}{
		{"let x = 1; x++", "locals[x:local]", nil},
		{"let x = 1; const f = () => x", "locals[x:cell f:local]", nil},
		{"var v; function g() { return v }", "locals[v:cell g:local]", nil},
		{"for (let i = 0; i < 3; i++) later(() => i)", "locals[i:cell]", []string{"later"}},
		{"for (let i = 0; i < 3; i++) now(i)", "locals[i:local]", []string{"now"}},
		{"{ let a; { let a; } }", "locals[a:local a:local]", nil},
		{"try { f() } catch (e) { log(e) }", "locals[e:local]", []string{"f", "log"}},
		{"const t = this", "locals[t:local this:local]", nil},
		{"const f = () => this", "locals[f:local this:cell]", nil},
		{"import fs from 'fs'; fs.readFile()", "locals[fs:local]", nil},
		{"class A {}", "locals[A:local A:local]", nil},
		{"return tools.a.b(Math.max(1, 2))", "locals[]", []string{"Math", "tools"}},
		{"undefinedName", "locals[]", []string{"undefinedName"}},
		{"arguments", "locals[]", []string{"arguments"}},
	}
	for _, tt := range tests {
		prog, err := Parse(tt.src)
		if err != nil {
			t.Errorf("%q: %v", tt.src, err)
			continue
		}
		if got := frameSummary(prog.Func.Scope); got != tt.frame {
			t.Errorf("%q: frame %s, want %s", tt.src, got, tt.frame)
		}
		if len(prog.Globals) != len(tt.globals) {
			t.Errorf("%q: globals %v, want %v", tt.src, prog.Globals, tt.globals)
			continue
		}
		for i := range tt.globals {
			if prog.Globals[i] != tt.globals[i] {
				t.Errorf("%q: globals %v, want %v", tt.src, prog.Globals, tt.globals)
				break
			}
		}
	}
}

// TestResolveClosure shows a closure's view: it captures exactly the
// variables it uses, through every function in between.
func TestResolveClosure(t *testing.T) {
	prog, err := Parse(`
let unused = 0, used = 1;
function outer() {
  const mid = 2;
  return function inner() { return used + mid; };
}`)
	if err != nil {
		t.Fatal(err)
	}
	outer := prog.Body()[1].(*FuncDecl).Func
	inner := outer.Body.Body[1].(*Return).X.(*FuncLit).Func
	if got := frameSummary(outer.Scope); got != "locals[mid:cell] free[used]" {
		t.Errorf("outer: %s", got)
	}
	if got := frameSummary(inner.Scope); got != "locals[inner:local] free[used mid]" {
		t.Errorf("inner: %s", got)
	}
	used := inner.Scope.Free[0]
	if used.Storage != Free || used.Outer == nil || used.Outer.Storage != Free || used.Outer.Outer.Storage != Cell {
		t.Errorf("used is not captured through outer: %+v", used)
	}
	if got := frameSummary(prog.Func.Scope); got != "locals[outer:local unused:local used:cell]" {
		t.Errorf("program: %s", got)
	}
}
