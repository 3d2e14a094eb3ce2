// Package bench compares codemode's two engines (ast and vm) with goja,
// another pure-Go JavaScript engine, on the workloads in
// ../shared/bench/workloads and a few programs of its own, side by side
// in one run. It is its own module so that comparison engines (goja)
// never enter the main module's dependencies.
package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dop251/goja"
	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/interp"
	"github.com/go-codemode/codemode/tools"
	"github.com/go-codemode/codemode/vm"
)

// Goja is the name of goja's column beside codemode's engines.
const Goja = "goja"

// Columns are the engines measured side by side, in table order.
var Columns = []string{codemode.EngineAST, codemode.EngineVM, Goja}

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
	// Body says Source is a codemode program body (top-level await and
	// return); goja runs it inside an async function.
	Body bool
	// PerRun is how many operations (Unit) one run does, for a time per
	// operation beside the time per run; 0 when that means nothing.
	PerRun int
	Unit   string
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

// AwaitSettled awaits 100,000 already-settled promises: the cost of one
// await (suspend, a job, resume) with no host involved.
var AwaitSettled = Workload{Name: "await_settled", Body: true, Expected: "4999950000", PerRun: 100000, Unit: "await",
	Source: `let s = 0; for (let i = 0; i < 100000; i++) s += await Promise.resolve(i); return s`}

// ToolCallPrograms are 1,000 awaited calls of a trivial host function,
// in sequence and all at once under Promise.all.
var ToolCallPrograms = []Workload{
	{Name: "toolcall_sequence", NeedsHost: "lookupAsync", Expected: "2997", PerRun: 1000, Unit: "call",
		Source: `(async () => { let t = 0; for (let i = 0; i < 1000; i++) { const r = await lookupAsync({id: i, tag: "item"}); t += r.score; } return t })()`},
	{Name: "toolcall_parallel", NeedsHost: "lookupAsync", Expected: "2997", PerRun: 1000, Unit: "call",
		Source: `(async () => { const ps = []; for (let i = 0; i < 1000; i++) ps.push(lookupAsync({id: i, tag: "item"})); let t = 0; for (const r of await Promise.all(ps)) t += r.score; return t })()`},
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

// NewRuntime makes a codemode Runtime on the engine with the workloads'
// tools.
func NewRuntime(engine string) (*codemode.Runtime, error) {
	return codemode.New(codemode.Options{Engine: engine, Tools: Tools()})
}

// Runnable reports whether codemode can run the workload: synchronous host
// functions (lookup) have no codemode equivalent, tools are asynchronous.
func (w Workload) Runnable() bool { return w.NeedsHost != "lookup" }

// CodemodeSource is the program codemode runs: host functions are tools.
func (w Workload) CodemodeSource() string {
	if w.NeedsHost == "lookupAsync" {
		return strings.ReplaceAll(w.Source, "lookupAsync(", "tools.lookupAsync(")
	}
	return w.Source
}

// GojaSource is the program goja runs: a body goes inside an async
// function, whose promise goja settles by running its job queue.
func (w Workload) GojaSource() string {
	if w.Body {
		return "(async () => {\n" + w.Source + "\n})()"
	}
	return w.Source
}

// Missing says why a column cannot run the workload, or "" when it can:
// a synchronous host function on codemode, or a construct engine "vm"
// does not compile yet.
func (w Workload) Missing(column string) string {
	if column == Goja {
		return ""
	}
	if !w.Runnable() {
		return fmt.Sprintf("sync host function %s; codemode tools are async, see tool_calls_async", w.NeedsHost)
	}
	if column == codemode.EngineVM {
		if what := NotCompiled(w.CodemodeSource()); what != "" {
			return "not compiled: " + what
		}
	}
	return ""
}

// NotCompiled names the construct engine "vm" cannot compile yet in src,
// or returns "" when it compiles (or does not parse: the run says why).
func NotCompiled(src string) string {
	p, err := ast.Parse(src)
	if err != nil {
		return ""
	}
	var nc *vm.NotCompiledError
	if _, err := vm.Compile(p); errors.As(err, &nc) {
		return nc.What
	}
	return ""
}

// Codemode runs a workload on codemode and returns its value as JSON.
func Codemode(rt *codemode.Runtime, w Workload, jsonText string) (string, error) {
	var opts []codemode.ExecOption
	if w.NeedsJSON {
		opts = append(opts, codemode.WithBindings(map[string]any{"jsonText": jsonText}))
	}
	res := rt.Execute(context.Background(), w.CodemodeSource(), opts...)
	if !res.OK {
		return "", fmt.Errorf("%s: %s", w.Name, res)
	}
	return string(res.Value), nil
}

// RunGoja runs a workload on a fresh goja runtime and returns its value
// exported as text; a promise's result once goja has drained its jobs.
func RunGoja(w Workload, jsonText string) (string, error) {
	rt := goja.New()
	if w.NeedsJSON {
		if err := rt.Set("jsonText", jsonText); err != nil {
			return "", err
		}
	}
	lookup := func(arg map[string]any) map[string]any {
		id, _ := arg["id"].(int64)
		return map[string]any{"id": id, "score": id % 7}
	}
	_ = rt.Set("lookup", lookup)
	_ = rt.Set("lookupAsync", func(arg map[string]any) goja.Value {
		p, resolve, _ := rt.NewPromise()
		_ = resolve(lookup(arg))
		return rt.ToValue(p)
	})
	// RunString runs the job queue before it returns, so a promise the
	// program made is settled by then unless it waits for nothing.
	v, err := rt.RunString(w.GojaSource())
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

// SameExport reports whether a goja value exported as text matches the
// expected text (a string is exported without its quotes).
func SameExport(exported, expected string) bool {
	return exported == expected || exported == strings.Trim(expected, `"`)
}

// Runner runs workloads on every column, each codemode engine on a
// Runtime of its own made once.
type Runner struct {
	rts      map[string]*codemode.Runtime
	jsonText string
}

// NewRunner makes a Runtime for each codemode engine.
func NewRunner(jsonText string) (*Runner, error) {
	r := &Runner{rts: map[string]*codemode.Runtime{}, jsonText: jsonText}
	for _, e := range []string{codemode.EngineAST, codemode.EngineVM} {
		rt, err := NewRuntime(e)
		if err != nil {
			return nil, err
		}
		r.rts[e] = rt
	}
	return r, nil
}

// Run runs w once on the column and checks its result.
func (r *Runner) Run(column string, w Workload) error {
	if column == Goja {
		got, err := RunGoja(w, r.jsonText)
		if err != nil {
			return err
		}
		if !SameExport(got, w.Expected) {
			return fmt.Errorf("%s: got %s, want %s", w.Name, got, w.Expected)
		}
		return nil
	}
	got, err := Codemode(r.rts[column], w, r.jsonText)
	if err != nil {
		return err
	}
	if !Same(got, w.Expected) {
		return fmt.Errorf("%s: got %s, want %s", w.Name, got, w.Expected)
	}
	return nil
}

// TrivialProgram is what execute_trivial runs on an existing Runtime.
const TrivialProgram = "1 + 1"

// CompileProgram is a program of about size bytes for compile_100kb:
// numbered copies of realistic code (functions, objects, arrays, loops,
// closures, template literals, destructuring, try/catch; no await, class
// or generator, so engine "vm" compiles it today). Its top level only
// defines functions; its completion value is the number of copies.
func CompileProgram(size int) string {
	var b strings.Builder
	n := 0
	for b.Len() < size {
		fmt.Fprintf(&b, compileChunk, n)
		n++
	}
	fmt.Fprintf(&b, "%d;\n", n)
	return b.String()
}

// compileChunk is one copy of CompileProgram's code; %[1]d numbers it.
const compileChunk = `function summarize%[1]d(orders, opts) {
  const { currency = "USD", minTotal = 0 } = opts || {};
  const byCustomer = {};
  let grand = 0;
  for (let i = 0; i < orders.length; i++) {
    const o = orders[i];
    if (!o || o.total < minTotal) continue;
    const key = o.customer.id + ":" + o.customer.region;
    if (!byCustomer[key]) byCustomer[key] = { count: 0, total: 0, items: [] };
    byCustomer[key].count++;
    byCustomer[key].total += o.total;
    for (const item of o.items) {
      byCustomer[key].items.push({ sku: item.sku, qty: item.qty * (item.unit === "box" ? 12 : 1) });
    }
    grand += o.total;
  }
  const rows = Object.keys(byCustomer).map((k) => {
    const c = byCustomer[k];
    return ` + "`" + `${k}: ${c.count} orders, ${c.total.toFixed(2)} ${currency}` + "`" + `;
  });
  return { rows, grand, average: rows.length ? grand / rows.length : 0 };
}
function retry%[1]d(fn, attempts) {
  let last = null;
  for (let a = 0; a < attempts; a++) {
    try {
      return fn(a);
    } catch (e) {
      last = e;
      if (e && e.fatal) break;
    }
  }
  throw new Error("failed after " + attempts + " attempts: " + (last && last.message));
}
function index%[1]d(list, field) {
  const out = new Map();
  list.filter((x) => x[field] !== undefined).forEach((x) => {
    const bucket = out.get(x[field]) || [];
    bucket.push(x);
    out.set(x[field], bucket);
  });
  return [...out.entries()].sort((a, b) => b[1].length - a[1].length).slice(0, 10);
}
`

// CompileAST parses and compiles src for engine "ast", without running it.
func CompileAST(src string) error {
	p, err := ast.Parse(src)
	if err != nil {
		return err
	}
	_, err = interp.Compile(p)
	return err
}

// CompileVM parses and compiles src for engine "vm", without running it.
func CompileVM(src string) error {
	p, err := ast.Parse(src)
	if err != nil {
		return err
	}
	_, err = vm.Compile(p)
	return err
}

// ParseOnly parses src: the part of compiling both engines share.
func ParseOnly(src string) error {
	_, err := ast.Parse(src)
	return err
}

// CompileGoja compiles src with goja (parse + compile to its bytecode).
func CompileGoja(src string) error {
	_, err := goja.Compile("compile.js", src, false)
	return err
}
