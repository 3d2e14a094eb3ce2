package numeric_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/go-codemode/codemode"
)

// run executes a program and returns its Result JSON.
func run(t *testing.T, rt *codemode.Runtime, code string) string {
	t.Helper()
	return rt.Execute(context.Background(), code).String()
}

func newRuntime(t *testing.T) *codemode.Runtime {
	t.Helper()
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

// TestV8Cases checks each expression's value (or error) against what V8
// gives.
func TestV8Cases(t *testing.T) {
	rt := newRuntime(t)
	const prelude = "const show = (v) => typeof v === 'number' ? (Object.is(v, -0) ? '-0' : String(v)) : typeof v === 'string' ? JSON.stringify(v) : String(v);\n"
	for _, c := range v8Cases {
		prog := prelude + "try { return show((() => (" + c.expr + "))()); } catch (e) { return e.name + ': ' + e.message; }"
		var res struct {
			OK    bool
			Value string
		}
		out := run(t, rt, prog)
		if err := json.Unmarshal([]byte(out), &res); err != nil || !res.OK {
			t.Errorf("%s: bad result %s", c.expr, out)
			continue
		}
		if res.Value != c.want {
			t.Errorf("%s\n got: %s\nwant: %s", c.expr, res.Value, c.want)
		}
	}
}

// TestPrograms checks whole programs, including where codemode differs
// from V8 on purpose.
func TestPrograms(t *testing.T) {
	rt := newRuntime(t)
	cases := []struct{ code, want string }{
		// Date.prototype.toString and Date() are the ISO form (reference 2.9).
		{`return String(new Date(0));`, `"1970-01-01T00:00:00.000Z"`},
		{`return new Date(1000) + 1;`, `"1970-01-01T00:00:01.000Z1"`},
		{`const s = Date(); return [typeof s, s === new Date(Date.parse(s)).toISOString()];`, `["string",true]`},
		{`return new Date(NaN).toString();`, `"Invalid Date"`},
		// Dates cross the boundary as ISO strings (toJSON), invalid ones as null.
		{`return { a: new Date(Date.UTC(2021, 2, 3)), b: new Date("nope") };`, `{"a":"2021-03-03T00:00:00.000Z","b":null}`},
		// Number objects: a wrapper holding its number.
		{`const n = new Number(1.5); return [typeof n, n.valueOf(), n + 1, n.toFixed(2), n == 1.5, n === 1.5, Object.prototype.toString.call(n)];`,
			`["object",1.5,2.5,"1.50",true,false,"[object Number]"]`},
		{`return [Number.prototype.toFixed.call(new Number(1), 1), Number.prototype.valueOf.call(Number.prototype)];`, `["1.0",0]`},
		{`try { Number.prototype.toFixed.call({}, 1); } catch (e) { return e.name + ": " + e.message; }`,
			`"TypeError: Number.prototype.toFixed requires that 'this' be a Number"`},
		{`class N extends Number {}; const n = new N(3); return [n instanceof N, n instanceof Number, n * 2];`, `[true,true,6]`},
		{`const d = new Date(0); return [d[Symbol.toPrimitive]("number"), d[Symbol.toPrimitive]("default"), typeof (d + 1)];`,
			`[0,"1970-01-01T00:00:00.000Z","string"]`},
		{`try { new Date(0)[Symbol.toPrimitive]("bogus"); } catch (e) { return e.name + ": " + e.message; }`, `"TypeError: Invalid hint: \"bogus\""`},
		{`return [Number.parseInt === parseInt, Number.parseFloat === parseFloat];`, `[true,true]`},
		// Math.random: in [0, 1), and not constant.
		{`const xs = Array.from({ length: 200 }, Math.random); return [xs.every((x) => x >= 0 && x < 1), new Set(xs).size > 150];`, `[true,true]`},
		{`return Object.prototype.toString.call(Math);`, `"[object Math]"`},
		{`try { Math(); } catch (e) { return e.name; }`, `"TypeError"`},
		{`const d = new Date(0); d.setUTCFullYear(2020); return d.getTime();`, `1577836800000`},
		{`return Object.getOwnPropertyNames(Number).join();`, `"length,name,prototype,isFinite,isInteger,isNaN,isSafeInteger,parseFloat,parseInt,MAX_VALUE,MIN_VALUE,NaN,NEGATIVE_INFINITY,POSITIVE_INFINITY,MAX_SAFE_INTEGER,MIN_SAFE_INTEGER,EPSILON"`},
		{`return Object.getOwnPropertyNames(Number.prototype).join();`, `"constructor,toExponential,toFixed,toPrecision,toString,valueOf,toLocaleString"`},
		{`return Math.sumPrecise(new Set([0.1, 0.2, 0.3]));`, `0.6`},
		{`return Math.round([2.5]);`, `3`},
	}
	for _, c := range cases {
		got := run(t, rt, c.code)
		want := `{"ok":true,"value":` + c.want + `,"toolCalls":[]}`
		if got != want {
			t.Errorf("%s\n got: %s\nwant: %s", c.code, got, want)
		}
	}
}

// TestSumPreciseLong sums a long iterable exactly.
func TestSumPreciseLong(t *testing.T) {
	rt := newRuntime(t)
	got := run(t, rt, `const xs = []; for (let i = 0; i < 100000; i++) xs.push(0.1, 1e20, -1e20); return Math.sumPrecise(xs);`)
	if !strings.Contains(got, `"value":10000,`) {
		t.Errorf("got %s", got)
	}
}
