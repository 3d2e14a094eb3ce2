package codemode_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// checkResult fails on a Result that is not valid JSON, an internal
// error, or a run far past its timeout.
func checkResult(t *testing.T, what string, res codemode.Result, elapsed, timeout time.Duration) {
	t.Helper()
	text := res.String()
	if !json.Valid([]byte(text)) {
		t.Fatalf("%s: Result is not JSON: %.400s", what, text)
	}
	if !res.OK && strings.Contains(res.Error.Message, "Internal error") {
		t.Fatalf("%s: %s", what, text)
	}
	if elapsed > timeout+2*time.Second {
		t.Fatalf("%s: ran %v under a %v timeout", what, elapsed, timeout)
	}
}

// byteReader returns the fuzz bytes one at a time, then zeros.
func byteReader(data []byte) func() byte {
	pos := 0
	return func() byte {
		if pos >= len(data) {
			return 0
		}
		b := data[pos]
		pos++
		return b
	}
}

// goValueFrom builds a Go value from fuzz bytes: scalars, maps, slices,
// typed values, deep nesting and cycles back to an enclosing container.
func goValueFrom(data []byte) any {
	next := byteReader(data)
	var open []any // enclosing containers, for cycles
	var build func(depth int) any
	build = func(depth int) any {
		if depth > 40 {
			return nil
		}
		switch op := next(); op % 12 {
		case 0:
			return nil
		case 1:
			return float64(next()) - 100
		case 2:
			return strings.Repeat(string(rune('a'+next()%26)), int(next()))
		case 3:
			return next()%2 == 0
		case 4:
			m := map[string]any{}
			open = append(open, m)
			for i, n := 0, int(next()%5); i < n; i++ {
				m[fmt.Sprint("k", next()%8)] = build(depth + 1)
			}
			open = open[:len(open)-1]
			return m
		case 5:
			s := make([]any, int(next()%5))
			open = append(open, s)
			for i := range s {
				s[i] = build(depth + 1)
			}
			open = open[:len(open)-1]
			return s
		case 6:
			if len(open) == 0 {
				return nil
			}
			return open[int(next())%len(open)] // a cycle, or a shared value
		case 7:
			return nested(int(next()) * 8) // up to 2040 levels
		case 8:
			return []int{int(next()), 2, 3}
		case 9:
			return map[string]string{"s": string(rune(next()))}
		case 10:
			return []byte{next(), next()}
		default:
			return struct {
				A int `json:"a"`
			}{int(next())}
		}
	}
	return build(0)
}

// FuzzExtensionValues: whatever Go value an extension (or a tool) returns (cycles,
// deep nesting, typed values), the run ends with a valid Result and never
// an internal error, within its limits.
func FuzzExtensionValues(f *testing.F) {
	for _, seed := range [][]byte{{}, {4, 3, 1, 6, 0}, {5, 2, 6, 0, 6, 1}, {7, 255}, {4, 1, 1, 4, 1, 2, 6, 0}, {11, 3}, {10, 1, 2}, {2, 1, 200}} {
		f.Add(seed)
	}
	timeout := 2 * time.Second
	f.Fuzz(func(t *testing.T, data []byte) {
		v := goValueFrom(data)
		ext := codemode.Extension{Name: "v", Globals: map[string]any{
			"val":   codemode.HostFunc(func(context.Context, []any) (any, error) { return v, nil }),
			"later": codemode.AsyncHostFunc(func(context.Context, []any) (any, error) { return v, nil }),
			"echo":  codemode.HostFunc(func(_ context.Context, args []any) (any, error) { return args, nil }),
		}}
		tool := &tools.Tool{Description: "returns the value", Output: objectOut, Func: func(context.Context, json.RawMessage) (any, error) { return v, nil }}
		rt, err := codemode.New(codemode.Options{Extensions: []codemode.Extension{ext}, Tools: map[string]any{"t": tool},
			Limits: codemode.Limits{Timeout: timeout, MaxMemoryBytes: 16 << 20, MaxOutputBytes: codemode.Max(1 << 16)}})
		if err != nil {
			t.Fatal(err)
		}
		for _, src := range []string{`return val()`, `return await later()`, `const x = val(); return echo(x, [x])`, `try { return JSON.stringify(val()).length } catch (e) { return e.message }`, `return await tools.t({})`} {
			start := time.Now()
			res := rt.Execute(context.Background(), src)
			checkResult(t, src, res, time.Since(start), timeout)
		}
	})
}

// programFrom builds a program returning a value from fuzz bytes:
// literals, nesting, shared subvalues (DAGs), sparse arrays, getters,
// toJSON, promises, collections, errors, cycles and throws.
func programFrom(data []byte) string {
	next := byteReader(data)
	var b strings.Builder
	b.WriteString("const v = [];\n")
	n := 1 + int(next()%8)
	for i := 0; i < n; i++ {
		prev := "null"
		if i > 0 {
			prev = fmt.Sprintf("v[%d]", int(next())%i)
		}
		var e string
		switch next() % 20 {
		case 0:
			e = fmt.Sprint(int(next()) - 128)
		case 1:
			e = fmt.Sprintf("%q", strings.Repeat("é<", int(next()%10)))
		case 2:
			e = fmt.Sprintf("[%s, %s]", prev, prev)
		case 3:
			e = fmt.Sprintf("{a: %s, b: %s, u: undefined, f() {}}", prev, prev)
		case 4:
			e = fmt.Sprintf("(() => { const a = []; a[%d] = %s; return a })()", int(next())<<uint(next()%16), prev)
		case 5:
			e = fmt.Sprintf("Array(%d).fill(%s)", int(next()), prev)
		case 6:
			e = fmt.Sprintf("{ get g() { return %s } }", prev)
		case 7:
			e = "{ get g() { for (;;) {} } }"
		case 8:
			e = fmt.Sprintf("{ toJSON() { return %s } }", prev)
		case 9:
			e = fmt.Sprintf("Promise.resolve(%s)", prev)
		case 10:
			e = "Promise.reject(new Error('no'))"
		case 11:
			e = fmt.Sprintf("new Set([%s, 1])", prev)
		case 12:
			e = "new Map([[1, 2]])"
		case 13:
			e = fmt.Sprintf("Object.assign(new TypeError('t'), {x: %s})", prev)
		case 14:
			e = "(() => { const o = {}; o.o = o; return o })()"
		case 15:
			e = "new Uint8Array(2)"
		case 16:
			e = fmt.Sprintf("(() => { let x = %s; for (let i = 0; i < %d; i++) x = [x, x]; return x })()", prev, next()%40)
		case 17:
			e = fmt.Sprintf("(() => { const o = {big: 'x'.repeat(%d)}; for (let i = 0; i < %d; i++) o['u' + i] = undefined; return o })()", int(next())<<12, int(next())<<6)
		case 18:
			e = fmt.Sprintf("{ get name() { throw %s } }", prev)
		default:
			e = "Symbol.iterator"
		}
		fmt.Fprintf(&b, "v.push(%s);\n", e)
	}
	switch next() % 4 {
	case 0:
		fmt.Fprintf(&b, "throw v[%d];", int(next())%n)
	case 1:
		fmt.Fprintf(&b, "Promise.reject(v[%d]); return v[%d];", int(next())%n, int(next())%n)
	default:
		fmt.Fprintf(&b, "return v[%d];", int(next())%n)
	}
	return b.String()
}

// FuzzBoundary: whatever value a program returns or throws, the Result is
// valid JSON and never an internal error, within its limits.
func FuzzBoundary(f *testing.F) {
	for _, seed := range [][]byte{{}, {3, 16, 0, 39, 2, 0}, {2, 4, 200, 15, 9, 1}, {1, 7, 3}, {4, 17, 255, 255, 2}, {2, 0, 5, 5, 0, 200}, {1, 14, 0}, {1, 18, 0}} {
		f.Add(seed)
	}
	// Short limits: most interesting inputs are bombs that run to a
	// limit, and the fuzzer's speed is the sum of those limits.
	limits := []codemode.Limits{
		{Timeout: 200 * time.Millisecond, MaxMemoryBytes: 16 << 20},
		{Timeout: 200 * time.Millisecond, MaxOutputBytes: codemode.Max(100)},
		{Timeout: 100 * time.Millisecond},
	}
	var rts []*codemode.Runtime
	for _, l := range limits {
		rt, err := codemode.New(codemode.Options{Limits: l})
		if err != nil {
			f.Fatal(err)
		}
		rts = append(rts, rt)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		src := programFrom(data)
		for i, rt := range rts {
			start := time.Now()
			res := rt.Execute(context.Background(), src)
			checkResult(t, src, res, time.Since(start), limits[i].Timeout)
		}
	})
}
