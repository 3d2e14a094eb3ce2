// Package bench compares codemode with other pure-Go JavaScript engines
// on the workloads in ../shared/bench/workloads, side by side in one run.
// It is its own module so that comparison engines (goja) never enter the
// main module's dependencies.
package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dop251/goja"
	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
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

// Tools are the host functions of the workloads as codemode tools: a
// program calls tools.lookupAsync(arg) where the workload says
// lookupAsync(arg). The tool copies its argument out and its result in,
// as the host contract asks.
func Tools() map[string]any {
	return map[string]any{
		"lookupAsync": &tools.Tool{Description: "Look up an item", Output: json.RawMessage(`{"type":"object"}`),
			Func: func(_ context.Context, in json.RawMessage) (any, error) {
				var arg struct {
					ID  int    `json:"id"`
					Tag string `json:"tag"`
				}
				if err := json.Unmarshal(in, &arg); err != nil {
					return nil, err
				}
				return map[string]any{"id": arg.ID, "score": arg.ID % 7}, nil
			}},
	}
}

// Runnable reports whether codemode can run the workload: synchronous host
// functions (lookup) have no codemode equivalent, tools are asynchronous.
func (w Workload) Runnable() bool { return w.NeedsHost != "lookup" }

// Codemode runs a workload on codemode and returns its value as JSON.
func Codemode(rt *codemode.Runtime, w Workload, jsonText string) (string, error) {
	var opts []codemode.ExecOption
	if w.NeedsJSON {
		opts = append(opts, codemode.WithBindings(map[string]any{"jsonText": jsonText}))
	}
	src := w.Source
	if w.NeedsHost == "lookupAsync" {
		src = strings.ReplaceAll(src, "lookupAsync(", "tools.lookupAsync(")
	}
	res := rt.Execute(context.Background(), src, opts...)
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
	lookup := func(arg map[string]any) map[string]any {
		id, _ := arg["id"].(int64)
		return map[string]any{"id": id, "score": id % 7}
	}
	_ = vm.Set("lookup", lookup)
	_ = vm.Set("lookupAsync", func(arg map[string]any) goja.Value {
		p, resolve, _ := vm.NewPromise()
		_ = resolve(lookup(arg))
		return vm.ToValue(p)
	})
	v, err := vm.RunString(w.Source)
	if err != nil {
		return "", err
	}
	if p, ok := v.Export().(*goja.Promise); ok {
		if p.State() != goja.PromiseStateFulfilled {
			return "", fmt.Errorf("goja: the promise is %v", p.State())
		}
		return fmt.Sprint(p.Result().Export()), nil
	}
	return fmt.Sprint(v.Export()), nil
}

// Same reports whether a codemode JSON value matches the expected text.
func Same(jsonValue, expected string) bool {
	return jsonValue == expected || jsonValue == `"`+strings.Trim(expected, `"`)+`"`
}
