package builtin_test

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
)

// The hostile programs of the built-in library: each must end with its
// limit's diagnostic near the limit, and while it runs the Go heap must
// stay within twice the memory budget. They run end to end through the
// root package (the engine, the library, the limits).

// bomb is one hostile program and the limit it must end at.
type bomb struct {
	name    string
	src     string
	timeout time.Duration // 0: the default of the table
	memory  int64         // 0: the default of the table
	want    codemode.Kind
}

// budget is the memory budget of the memory bombs (and the heap bound of
// every bomb is twice it).
const budget = 64 << 20

// slack is how far past its deadline a timeout bomb may end: generous,
// since the machines running the tests are shared, but well under the
// seconds these programs ran past their deadline before built-ins ticked.
const slack = 2 * time.Second

// runBomb runs b and returns its result, how long it took and the
// highest Go heap seen while it ran (sampled).
func runBomb(t *testing.T, b bomb) (codemode.Result, time.Duration, uint64) {
	t.Helper()
	rt, err := codemode.New(codemode.Options{Limits: codemode.Limits{Timeout: b.timeout, MaxMemoryBytes: b.memory}})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tk := time.NewTicker(5 * time.Millisecond)
		defer tk.Stop()
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-tk.C:
				runtime.ReadMemStats(&m)
				if m.HeapAlloc > base.HeapAlloc && m.HeapAlloc-base.HeapAlloc > peak.Load() {
					peak.Store(m.HeapAlloc - base.HeapAlloc)
				}
			}
		}
	}()
	start := time.Now()
	res := rt.Execute(context.Background(), b.src)
	elapsed := time.Since(start)
	close(stop)
	wg.Wait()
	return res, elapsed, peak.Load()
}

// runBombs runs a table: every program must end with its kind, within
// slack of its timeout, with the Go heap under twice the budget.
func runBombs(t *testing.T, deadline time.Duration, mem int64, bombs []bomb) {
	for _, b := range bombs {
		t.Run(b.name, func(t *testing.T) {
			if b.timeout == 0 {
				b.timeout = deadline
				if b.want == memory {
					// Long enough that the budget, not the clock, ends
					// it, even on a loaded machine.
					b.timeout = 10 * time.Second
				}
			}
			if b.memory == 0 {
				b.memory = mem
			}
			res, elapsed, peak := runBomb(t, b)
			if res.OK || res.Error == nil || !(res.Error.Kind == b.want ||
				b.want == anyLimit && (res.Error.Kind == timeout || res.Error.Kind == memory)) {
				msg := res.String()
				if len(msg) > 300 {
					msg = msg[:300] + "..."
				}
				t.Fatalf("got %s, want %s", msg, b.want)
			}
			allowed := slack
			if raceEnabled {
				// A bomb's last step before the deadline check (a GC of
				// its heap, a regexp compile) is several times slower.
				allowed = 3 * slack
			}
			if elapsed > b.timeout+allowed {
				t.Errorf("ended %v after a %v timeout", elapsed, b.timeout)
			}
			if peak > 2*uint64(b.memory) {
				t.Errorf("Go heap reached %d MiB, over twice the %d MiB budget", peak>>20, b.memory>>20)
			}
			t.Logf("%s after %v, heap peak %d MiB", res.Error.Kind, elapsed.Round(time.Millisecond), peak>>20)
		})
	}
}

const (
	timeout = codemode.TimeoutExceeded
	memory  = codemode.MemoryLimitExceeded
	// anyLimit is either: a loop that allocates as it works may reach
	// its budget before its deadline, or not, by the machine's speed.
	anyLimit codemode.Kind = "TimeoutExceeded or MemoryLimitExceeded"
)

// TestArrayBombs: the fast paths of Array methods tick and charge.
func TestArrayBombs(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile programs take seconds")
	}
	runBombs(t, 500*time.Millisecond, 1<<30, []bomb{
		{name: "indexOf", src: `const a = new Array(2e6).fill(0); let n = 0; for (;;) n += a.indexOf(1)`, want: timeout},
		{name: "includes", src: `const a = new Array(2e6).fill(0); for (;;) a.includes(1)`, want: timeout},
		{name: "lastIndexOf", src: `const a = new Array(2e6).fill(0); for (;;) a.lastIndexOf(1)`, want: timeout},
		{name: "join", src: `const a = new Array(1e6).fill(1); for (;;) a.join()`, want: anyLimit, memory: budget},
		{name: "fill", src: `const a = new Array(2e6).fill(0); for (;;) a.fill(1)`, want: timeout},
		{name: "reverse", src: `const a = new Array(2e6).fill(0); for (;;) a.reverse()`, want: timeout},
		{name: "copyWithin", src: `const a = new Array(2e6).fill(0); for (;;) a.copyWithin(0, 1)`, want: timeout},
		{name: "sort", src: `const a = Array.from({length: 1e6}, (_, i) => i % 1000); a.sort()`, timeout: 200 * time.Millisecond, want: timeout},
		{name: "spread of a string", src: `[..."x".repeat(5e6)]`, timeout: 100 * time.Millisecond, want: timeout},
		{name: "Array.from a string", src: `Array.from("x".repeat(5e6))`, timeout: 100 * time.Millisecond, want: timeout},
		{name: "spread of a sparse array", src: `const a = []; a.length = 1e7; return [...a].length`, memory: budget, want: anyLimit},
		{name: "spread of a sparse array, one element", src: `const a = []; a[1e7 - 1] = 1; return [...a].length`, memory: budget, want: anyLimit},
		{name: "Array.from length", src: `return Array.from({length: 1e7}).length`, memory: budget, want: memory},
		{name: "fill of new Array", src: `return new Array(1e7).fill().length`, memory: budget, want: memory},
		{name: "flat(Infinity) of a DAG", src: `let x = [1]; for (let i = 0; i < 30; i++) x = [x, x]; return x.flat(Infinity).length`, memory: budget, want: anyLimit},
	})
}

// TestStringBombs: String and RegExp methods tick and charge.
func TestStringBombs(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile programs take seconds")
	}
	runBombs(t, 500*time.Millisecond, 1<<30, []bomb{
		{name: "localeCompare", src: `const a = "a".repeat(2 ** 24 - 1), b = "a".repeat(2 ** 24 - 2) + "b"; for (;;) a.localeCompare(b)`, want: timeout},
		{name: "localeCompare, case only", src: `const a = "a".repeat(2 ** 23), b = "A".repeat(2 ** 23); for (;;) a.localeCompare(b)`, want: timeout},
		{name: "normalize", src: `const s = "e\u0301".repeat(2 ** 23 - 1); for (;;) s.normalize("NFC")`, want: timeout},
		{name: "normalize once", src: `const s = "e\u0301".repeat(2 ** 23 - 1); s.normalize("NFC"); 0`, timeout: 100 * time.Millisecond, want: timeout},
		{name: "trim", src: `const s = " ".repeat(2 ** 24 - 1); for (;;) s.trim()`, want: timeout},
		{name: "indexOf", src: `const s = "x".repeat(2 ** 24 - 1); for (;;) s.indexOf("y")`, want: timeout},
		{name: "padStart", src: `for (;;) "x".padStart(2 ** 24 - 1, "ab")`, want: anyLimit},
		{name: "split", src: `const s = "x".repeat(2 ** 24 - 1); for (;;) s.split("y")`, want: timeout},
		{name: "regexp test", src: `const s = "x".repeat(2 ** 24 - 1); for (;;) /y/.test(s)`, want: timeout},
		{name: "compiling long regexps", src: `for (let i = 0; ; i++) new RegExp("(a|b|c)+" + "x".repeat(1e5) + i, "iu")`, want: timeout},
		{name: "compiled regexps kept", src: `const a = []; for (let i = 0; ; i++) a.push(new RegExp("[^\\s\\d\\w]{2}[\\s\\S]" + i, "iu"))`, timeout: 10 * time.Second, memory: budget, want: anyLimit},
		{name: "Date.parse", src: `const s = "x".repeat(2 ** 24 - 1); for (let i = 0; i < 1000; i++) Date.parse(s)`, want: timeout},
		{name: "bound names", src: `let f = function () {}; for (let i = 0; i < 1e5; i++) f = f.bind(null); return f.name.length`, memory: budget, want: memory},
	})
}

// TestDataBombs: JSON, the web APIs, structuredClone and the console.
func TestDataBombs(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile programs take seconds")
	}
	runBombs(t, 500*time.Millisecond, 1<<30, []bomb{
		{name: "JSON.parse of a string", src: `const s = '"' + "x".repeat(2 ** 24 - 3) + '"'; for (;;) JSON.parse(s)`, want: anyLimit},
		{name: "JSON.parse of numbers", src: `const s = "[" + "1,".repeat(5e6) + "1]"; return JSON.parse(s).length`, memory: budget, want: memory},
		{name: "JSON.stringify", src: `const a = new Array(1e6).fill(1); for (;;) JSON.stringify(a)`, want: anyLimit},
		{name: "JSON.stringify of a DAG", src: `let x = [1]; for (let i = 0; i < 30; i++) x = [x, x]; return JSON.stringify(x).length`, memory: budget, want: timeout},
		{name: "String of a DAG", src: `let x = [1]; for (let i = 0; i < 30; i++) x = [x, x]; return String(x).length`, memory: budget, want: timeout},
		{name: "atob", src: `const s = "A".repeat(2 ** 24 - 4); for (;;) atob(s)`, want: anyLimit},
		{name: "btoa", src: `const s = "x".repeat(12e6); for (;;) btoa(s)`, want: anyLimit},
		{name: "encodeURI", src: `const s = "x".repeat(2 ** 24 - 1); for (;;) encodeURI(s)`, want: anyLimit},
		{name: "decodeURI", src: `const s = "x".repeat(2 ** 24 - 1); for (;;) decodeURI(s)`, want: anyLimit},
		{name: "TextEncoder kept", src: `const s = "x".repeat(9e6); const a = []; for (;;) a.push(new TextEncoder().encode(s))`, memory: budget, want: memory},
		{name: "TextDecoder", src: `const b = new Uint8Array(9e6).fill(65); const d = new TextDecoder(); for (;;) d.decode(b)`, want: anyLimit},
		{name: "fromBase64", src: `const s = "A".repeat(12e6); for (;;) Uint8Array.fromBase64(s)`, want: anyLimit},
		{name: "new URL with a 16M host", src: `new URL("http://" + "a".repeat(2 ** 24 - 8) + "/")`, timeout: 100 * time.Millisecond, want: timeout},
		{name: "URLSearchParams", src: `const s = "a=1&".repeat(4e6); for (;;) new URLSearchParams(s)`, want: anyLimit},
		{name: "structuredClone of a long array", src: `const a = new Array(5e6).fill(1); for (;;) structuredClone(a)`, want: anyLimit},
		{name: "Object.keys", src: `const o = {}; for (let i = 0; i < 1e6; i++) o["k" + i] = i; for (;;) Object.keys(o)`, want: anyLimit},
		{name: "structuredClone of a DAG", src: `let x = [1]; for (let i = 0; i < 30; i++) x = [x, x]; for (;;) structuredClone(x)`, want: timeout},
		{name: "console.dir", src: `const s = "x".repeat(2 ** 24 - 1); for (;;) console.dir({ s })`, memory: budget, want: memory},
		{name: "console.table", src: `const s = "x".repeat(2 ** 24 - 1); for (;;) console.table([{ s }])`, memory: budget, want: memory},
		{name: "console.log of a DAG", src: `let x = [1]; for (let i = 0; i < 30; i++) x = [x, x]; for (;;) console.log(x)`, memory: budget, want: anyLimit},
		{name: "Symbol.for kept", src: `const d = "x".repeat(1 << 20); const a = []; for (;;) a.push(Symbol.for(d))`, memory: budget, want: memory},
		{name: "Symbol descriptions kept", src: `const s = Symbol("x".repeat(1 << 20)); const a = []; for (;;) a.push(s.description, String(s), s.toString())`, memory: budget, want: memory},
		{name: "symbols kept", src: `const d = "x".repeat(1 << 20); const a = []; for (;;) a.push(Symbol(d))`, memory: budget, want: memory},
		{name: "String objects kept", src: `const a = []; for (let i = 0; ; i++) a.push(new String("s"), Object(i))`, memory: budget, want: memory},
		{name: "throw of a DAG", src: `let x = [1]; for (let i = 0; i < 30; i++) x = [x, x]; throw x`, memory: budget, want: codemode.ExecutionFailure},
	})
}
