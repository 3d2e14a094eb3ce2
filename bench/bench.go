// Package bench compares codemode with other pure-Go JavaScript engines
// on the workloads in ../shared/bench/workloads, side by side in one run.
// It is its own module so that comparison engines (goja) never enter the
// main module's dependencies.
package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dop251/goja"
	"github.com/go-codemode/codemode"
)

// Workload is one benchmark program.
type Workload struct {
	Name     string
	Source   string
	Expected string // the "Expected result" from the file's header
	// NeedsJSON says the program reads the global jsonText.
	NeedsJSON bool
	// NeedsHost names a host function the program calls (lookup,
	// lookupAsync); such workloads wait for host tools.
	NeedsHost string
}

// WorkloadsDir finds ../shared/bench/workloads from the bench directory
// or the repository root.
func WorkloadsDir() (string, error) {
	for _, d := range []string{"../../shared/bench/workloads", "../shared/bench/workloads"} {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d, nil
		}
	}
	return "", fmt.Errorf("bench: ../shared/bench/workloads not found beside the checkout")
}

var expectedRE = regexp.MustCompile(`Expected result: (.*)`)

// Load reads every workload.
func Load(dir string) ([]Workload, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.js"))
	if err != nil {
		return nil, err
	}
	var out []Workload
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		src := string(data)
		w := Workload{Name: strings.TrimSuffix(filepath.Base(f), ".js"), Source: src}
		if m := expectedRE.FindStringSubmatch(src); m != nil {
			w.Expected = strings.TrimSpace(m[1])
		}
		w.NeedsJSON = strings.Contains(src, "jsonText")
		switch {
		case strings.Contains(src, "lookupAsync("):
			w.NeedsHost = "lookupAsync"
		case strings.Contains(src, "lookup("):
			w.NeedsHost = "lookup"
		}
		out = append(out, w)
	}
	return out, nil
}

// JSONText reads the 1 MB document json_parse.js uses.
func JSONText(dir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, "data", "1mb.json"))
	return string(data), err
}

// Codemode runs a workload on codemode and returns its value as JSON.
func Codemode(rt *codemode.Runtime, w Workload, jsonText string) (string, error) {
	var opts []codemode.ExecOption
	if w.NeedsJSON {
		opts = append(opts, codemode.WithBindings(map[string]any{"jsonText": jsonText}))
	}
	res := rt.Execute(context.Background(), w.Source, opts...)
	if !res.OK {
		return "", fmt.Errorf("%s: %s", w.Name, res)
	}
	return string(res.Value), nil
}

// Goja runs a workload on a fresh goja runtime and returns its value
// exported as text.
func Goja(w Workload, jsonText string) (string, error) {
	vm := goja.New()
	if w.NeedsJSON {
		if err := vm.Set("jsonText", jsonText); err != nil {
			return "", err
		}
	}
	v, err := vm.RunString(w.Source)
	if err != nil {
		return "", err
	}
	return fmt.Sprint(v.Export()), nil
}

// Same reports whether a codemode JSON value matches the expected text.
func Same(jsonValue, expected string) bool {
	return jsonValue == expected || jsonValue == `"`+strings.Trim(expected, `"`)+`"`
}
