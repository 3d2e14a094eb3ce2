package vm_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/go-codemode/codemode/internal/scripttest"
	"github.com/go-codemode/codemode/vm"
)

// TestScriptSuiteDifferential runs every case of the script suite that
// the compiler handles on both engines and requires the same outcome:
// value (or exception and its location) and console lines. Cases with
// tools or limits need the host, which the VM does not have yet.
func TestScriptSuiteDifferential(t *testing.T) {
	cases, err := scripttest.Load(filepath.Join("..", "testdata", "scripts"))
	if err != nil {
		t.Fatal(err)
	}
	var ran, notCompiled, host int
	for _, c := range cases {
		if c.Tools != nil || c.Limits != nil {
			host++
			continue
		}
		p, err := parseOrNil(c.Program)
		if err != nil {
			continue // parse errors are the front end's business
		}
		if _, err := vm.Compile(p); err != nil {
			if !vm.IsNotCompiled(err) {
				t.Errorf("%s: %v", c.ID(), err)
			}
			notCompiled++
			continue
		}
		ran++
		t.Run(c.ID(), func(t *testing.T) {
			got, err := runVM(t, c.Program)
			if err != nil {
				t.Fatal(err)
			}
			if want := runAST(t, c.Program); got != want {
				t.Errorf("engines differ:\n vm  %s\n ast %s", got, want)
			}
		})
	}
	t.Logf("script suite: %d cases, %d run on both engines, %d not compiled yet, %d need the host", len(cases), ran, notCompiled, host)
}

// TestCorpusDifferential does the same with the realistic programs of
// ast/testdata/corpus (most use tools and await, which the VM does not
// run yet): whatever compiles must behave as on engine "ast".
func TestCorpusDifferential(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "ast", "testdata", "corpus", "*.js"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	ran := 0
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := parseOrNil(string(text))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if _, err := vm.Compile(p); err != nil {
			if !vm.IsNotCompiled(err) {
				t.Errorf("%s: %v", f, err)
			}
			continue
		}
		if nondeterministic(string(text)) {
			continue // the clock and random numbers differ between two runs
		}
		ran++
		got, _ := runVM(t, string(text))
		if want := runAST(t, string(text)); got != want {
			t.Errorf("%s: engines differ:\n vm  %s\n ast %s", filepath.Base(f), got, want)
		}
	}
	t.Logf("corpus: %d programs, %d run on both engines", len(files), ran)
}
