package array_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
)

// The cases below run through the whole runtime. Each want is node 26's
// JSON.stringify of the program's value (generated once, outside this
// repository), except where a comment says the reference's caps differ
// from V8's.

type arrayCase struct {
	name string
	code string
	want string
}

func TestArrayPrograms(t *testing.T) {
	rt, err := codemode.New(codemode.Options{Limits: codemode.Limits{Timeout: 20 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range arrayCases {
		t.Run(c.name, func(t *testing.T) {
			res := rt.Execute(context.Background(), c.code)
			if !res.OK {
				t.Fatalf("program failed: %s\n%s", res, c.code)
			}
			if got := compact(t, res.Value); got != compact(t, json.RawMessage(c.want)) {
				t.Errorf("got  %s\nwant %s\n%s", got, c.want, c.code)
			}
		})
	}
}

// TestArrayLimits checks the caps and that hostile inputs end in a
// catchable error or the run's timeout, never a crash or a hang.
func TestArrayLimits(t *testing.T) {
	rt, err := codemode.New(codemode.Options{Limits: codemode.Limits{Timeout: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	catch := func(expr string) string {
		return "try { " + expr + "; return \"no error\"; } catch (e) { return e.name + \": \" + e.message; }"
	}
	for _, c := range []struct{ code, want string }{
		{"let a = []; for (let i = 0; i < 100000; i++) a = [a];\n" + catch("String(a)"), `{"ok":true,"value":"RangeError: Maximum call stack size exceeded","toolCalls":[]}`},
		{"let a = []; for (let i = 0; i < 100000; i++) a = [a];\n" + catch("a.flat(Infinity)"), `{"ok":true,"value":"RangeError: Maximum call stack size exceeded","toolCalls":[]}`},
		{catch("Array.prototype.join.call({ length: 1e9 })"), `{"ok":true,"value":"RangeError: Invalid string length","toolCalls":[]}`},
		{`return Array.prototype.join.call({ length: 1e5 }, "").length`, `{"ok":true,"value":0,"toolCalls":[]}`},
		{"const big = Array(4e6).fill(0);\n" + catch("big.concat(big, big)"), `{"ok":true,"value":"RangeError: Invalid array length","toolCalls":[]}`},
		{"const big = Array(6e6).fill(0);\nbig.length = 1e7;\n" + catch("big.push(1)"), `{"ok":true,"value":"RangeError: Invalid array length","toolCalls":[]}`},
		{catch("Array.prototype.slice.call({ length: 2 ** 53 - 1 })"), `{"ok":true,"value":"RangeError: Invalid array length","toolCalls":[]}`},
		{catch("Array.prototype.map.call({ length: 1e8 }, (x) => x)"), `{"ok":true,"value":"RangeError: Invalid array length","toolCalls":[]}`},
		{catch("Array.prototype.toSorted.call({ length: 1e8 })"), `{"ok":true,"value":"RangeError: Invalid array length","toolCalls":[]}`},
		{catch("Array.prototype.unshift.call({ length: 2 ** 53 - 1 }, 1)"), `{"ok":true,"value":"TypeError: Invalid array length","toolCalls":[]}`},
		{"const a = Array(1e7); a[5] = 1; a.reverse(); a.sort(); return [a.length, a[0], Object.keys(a)];", `{"ok":true,"value":[10000000,1,["0"]],"toolCalls":[]}`},
		{"return [Array(1e7).join().length, Array(1e7).indexOf(undefined), Array(1e7).includes(undefined)];", `{"ok":true,"value":[9999999,-1,true],"toolCalls":[]}`},
	} {
		if got := rt.Execute(context.Background(), c.code).String(); got != c.want {
			t.Errorf("%s\ngot  %s\nwant %s", c.code, got, c.want)
		}
	}
	// Loops over huge array-likes stop at the run's deadline.
	short, err := codemode.New(codemode.Options{Limits: codemode.Limits{Timeout: 200 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{
		"return Array.prototype.indexOf.call({ length: 2 ** 53 - 1 }, 1);",
		"Array.prototype.forEach.call({ length: 2 ** 53 - 1 }, () => {});",
		"Array.prototype.reverse.call({ length: 2 ** 53 - 1 });",
		"Array.prototype.sort.call({ length: 2 ** 53 - 1 });",
	} {
		want := `{"ok":false,"error":{"kind":"TimeoutExceeded","message":"Execution timed out after 200ms."},"toolCalls":[]}`
		if got := short.Execute(context.Background(), code).String(); got != want {
			t.Errorf("%s\ngot  %s\nwant %s", code, got, want)
		}
	}
}

// compact re-encodes JSON without insignificant space, keeping key order.
func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var b strings.Builder
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case json.Delim:
			b.WriteString(v.String())
		case json.Number:
			f, _ := v.Float64()
			fmt.Fprintf(&b, "%v,", f)
		case string:
			fmt.Fprintf(&b, "%q,", v)
		default:
			fmt.Fprintf(&b, "%v,", v)
		}
	}
	return b.String()
}

var arrayCases = []arrayCase{
	{
		name: "ctor_forms",
		code: `return [Array(), Array(2).length, new Array(0).length, Array(1, 2), new Array("3"), Array(true), Array.length, Array.name, Object.keys(Array(3))];`,
		want: `[[],2,0,[1,2],["3"],[true],1,"Array",[]]`,
	},
	{
		name: "ctor_invalid_lengths",
		// the reference caps arrays at 10,000,000 elements; V8 allows 2^32-1.
		code: `const out = [];
for (const n of [-1, 1.5, 2 ** 32, NaN, Infinity, 1e7 + 1]) { try { Array(n); out.push("ok"); } catch (e) { out.push(e.name + ": " + e.message); } }
return out;`,
		want: `["RangeError: Invalid array length","RangeError: Invalid array length","RangeError: Invalid array length","RangeError: Invalid array length","RangeError: Invalid array length","RangeError: Invalid array length"]`,
	},
	{
		name: "ctor_max_length_ok",
		code: `return [Array(1e7).length, new Array(10000000).length];`,
		want: `[10000000,10000000]`,
	},
	{
		name: "isarray",
		code: `function f() { return Array.isArray(arguments); }
return [Array.isArray([]), Array.isArray(new Array(2)), Array.isArray({ length: 0 }), Array.isArray("a"), Array.isArray(null), Array.isArray(), f(1)];`,
		want: `[true,true,false,false,false,false,false]`,
	},
	{
		name: "of_forms",
		code: `return [Array.of(), Array.of(undefined), Array.of(3), Array.of(1, "a", null), Array.of.length];`,
		want: `[[],[null],[3],[1,"a",null],0]`,
	},
	{
		name: "from_forms",
		code: `return [Array.from("héllo"), Array.from([1, , 3]), Array.from({ length: 3, 1: "b" }), Array.from(new Set(["x", "y"])), Array.from({ length: 2 }, function (v, i) { return this.k + i; }, { k: 10 }), Array.from(5), Array.from(true), Array.from({ length: -3 })];`,
		want: `[["h","é","l","l","o"],[1,null,3],[null,"b",null],["x","y"],[10,11],[],[],[]]`,
	},
	{
		name: "from_iterator_protocol",
		code: `const it = { i: 0, [Symbol.iterator]() { return this; }, next() { this.i++; return this.i > 3 ? { done: true } : { value: this.i * 10, done: false }; } };
function* g() { yield 1; yield 2; }
return [Array.from(it), Array.from(g(), (x, i) => x + i), Array.from([1, 2].keys())];`,
		want: `[[10,20,30],[1,3],[0,1]]`,
	},
	{
		name: "from_mapper_throws_closes_iterator",
		code: `let closed = false;
const it = { [Symbol.iterator]() { return { next: () => ({ value: 1, done: false }), return() { closed = true; return {}; } }; } };
try { Array.from(it, () => { throw new Error("boom"); }); } catch (e) { return [e.message, closed]; }`,
		want: `["boom",true]`,
	},
	{
		name: "from_errors",
		code: `const out = [];
for (const f of [() => Array.from(null), () => Array.from(undefined), () => Array.from([1], 5), () => Array.from([1], {}), () => Array.from({ [Symbol.iterator]: 5 }), () => Array.from({ [Symbol.iterator]: () => 5 }), () => Array.from({ length: 1e10 })]) {
  try { f(); out.push("ok"); } catch (e) { out.push(e.name + ": " + e.message); }
}
return out;`,
		want: `["TypeError: object null is not iterable (cannot read property Symbol(Symbol.iterator))","TypeError: undefined is not iterable (cannot read property Symbol(Symbol.iterator))","TypeError: number 5 is not a function","TypeError: object is not a function","TypeError: %Array%.from requires that the property of the first argument, items[Symbol.iterator], when exists, be a function","TypeError: Result of the Symbol.iterator method is not an object","RangeError: Invalid array length"]`,
	},
	{
		name: "from_subclass",
		code: `class L extends Array {}
const a = L.from([1, 2]);
const b = L.of(3);
return [a instanceof L, a.length, b instanceof L, b[0], Array.from.call(undefined, [1]).length];`,
		want: `[true,2,true,3,1]`,
	},
	{
		name: "foreach_args_and_holes",
		code: `const seen = [];
[10, , 30].forEach(function (v, i, arr) { seen.push([v, i, arr.length, this.t]); }, { t: "T" });
return seen;`,
		want: `[[10,0,3,"T"],[30,2,3,"T"]]`,
	},
	{
		name: "foreach_mutation_during",
		code: `const a = [1, 2, 3];
const seen = [];
a.forEach((v, i) => { seen.push(v); if (i === 0) { a.push(99); a.pop(); a.pop(); } });
return seen;`,
		want: `[1,2]`,
	},
	{
		name: "foreach_appended_not_visited",
		code: `const a = [1, 2];
const seen = [];
a.forEach((v) => { seen.push(v); a.push(v * 10); });
return [seen, a];`,
		want: `[[1,2],[1,2,10,20]]`,
	},
	{
		name: "callback_errors",
		code: `const out = [];
for (const cb of [undefined, null, 3, "abc", {}, [1], true]) {
  try { [1].map(cb); out.push("ok"); } catch (e) { out.push(e.name + ": " + e.message); }
}
try { [].forEach(); } catch (e) { out.push(e.message); }
return out;`,
		want: `["TypeError: undefined is not a function","TypeError: object null is not a function","TypeError: number 3 is not a function","TypeError: string \"abc\" is not a function","TypeError: object is not a function","TypeError: object is not a function","TypeError: boolean true is not a function","undefined is not a function"]`,
	},
	{
		name: "callback_called_on_null",
		code: `const out = [];
for (const m of ["map", "filter", "forEach", "some", "every", "find", "findIndex", "findLast", "findLastIndex", "reduce", "reduceRight", "indexOf", "concat", "join", "slice", "push", "includes", "at", "flat", "sort", "toSorted", "keys"]) {
  try { Array.prototype[m].call(null, () => 1); out.push("ok"); } catch (e) { out.push(m + ": " + e.message); }
}
return out;`,
		want: `["map: Array.prototype.map called on null or undefined","filter: Array.prototype.filter called on null or undefined","forEach: Array.prototype.forEach called on null or undefined","some: Array.prototype.some called on null or undefined","every: Array.prototype.every called on null or undefined","find: Array.prototype.find called on null or undefined","findIndex: Array.prototype.findIndex called on null or undefined","findLast: Array.prototype.findLast called on null or undefined","findLastIndex: Array.prototype.findLastIndex called on null or undefined","reduce: Array.prototype.reduce called on null or undefined","reduceRight: Array.prototype.reduceRight called on null or undefined","indexOf: Array.prototype.indexOf called on null or undefined","concat: Array.prototype.concat called on null or undefined","join: Cannot convert undefined or null to object","slice: Cannot convert undefined or null to object","push: Cannot convert undefined or null to object","includes: Cannot convert undefined or null to object","at: Cannot convert undefined or null to object","flat: Cannot convert undefined or null to object","sort: Cannot convert undefined or null to object","toSorted: Cannot convert undefined or null to object","keys: Cannot convert undefined or null to object"]`,
	},
	{
		name: "map_holes_and_this",
		code: `const r = [1, , 3].map(function (x) { return x * this.m; }, { m: 5 });
return [r, r.length, 1 in r, Object.keys(r)];`,
		want: `[[5,null,15],3,false,["0","2"]]`,
	},
	{
		name: "map_arguments_kept",
		code: `const kept = [];
[1, 2].map(function () { kept.push(arguments); return 0; });
return kept.map((a) => [a[0], a[1], a.length]);`,
		want: `[[1,0,3],[2,1,3]]`,
	},
	{
		name: "map_generic",
		code: `return [Array.prototype.map.call({ length: 3, 0: "a", 2: "c" }, (x, i) => x + i), Array.prototype.map.call("xy", (c, i) => c + i)];`,
		want: `[["a0",null,"c2"],["x0","y1"]]`,
	},
	{
		name: "filter_forms",
		code: `const a = [5, , 7, 8];
return [a.filter((x) => x > 5), a.filter(() => true), a.filter(function (x) { return x === this.v; }, { v: 8 }), Array.prototype.filter.call({ length: 2, 0: 1, 1: 2 }, (x) => x > 1)];`,
		want: `[[7,8],[5,7,8],[8],[2]]`,
	},
	{
		name: "some_every_forms",
		code: `const calls = [];
const r1 = [1, , 3].some((x, i) => { calls.push(i); return false; });
const r2 = [1, , 3].every((x, i) => { calls.push(i); return true; });
return [r1, r2, calls, [2, 4].every((x) => x % 2 === 0), [1, 2].some(function (x) { return x === this.n; }, { n: 2 })];`,
		want: `[false,true,[0,2,0,2],true,true]`,
	},
	{
		name: "find_family_forms",
		code: `const a = [1, , 3, 4];
const seen = [];
a.findLast((x, i) => { seen.push(i); return false; });
return [seen, a.find((x) => x === undefined), a.findIndex((x) => x === undefined), a.findLastIndex((x) => x > 2), a.findLast((x) => x > 100), Array.prototype.find.call("abc", (c) => c > "a")];`,
		want: `[[3,2,1,0],null,1,3,null,"b"]`,
	},
	{
		name: "reduce_forms",
		code: `return [[1, 2, 3].reduce((a, b) => a * b), [, , 5, , 6].reduce((a, b) => a + b), [[1, 2], [3]].reduce((acc, x) => acc.concat(x), []), [1].reduce((a, b) => a + b), [].reduce((a, b) => a + b, "init"), ["a", "b", "c"].reduce((acc, x, i, arr) => acc + x + i + arr.length, "")];`,
		want: `[6,11,[1,2,3],1,"init","a03b13c23"]`,
	},
	{
		name: "reduce_right_forms",
		code: `const idx = [];
const r = [1, , 3, 4].reduceRight((acc, x, i) => { idx.push(i); return acc + x; });
return [r, idx, [[1], [2, 3]].reduceRight((a, b) => a.concat(b))];`,
		want: `[8,[2,0],[2,3,1]]`,
	},
	{
		name: "reduce_errors",
		code: `const out = [];
for (const f of [() => [].reduce((a) => a), () => [, ,].reduce((a) => a), () => [].reduceRight((a) => a), () => [1].reduce(5), () => [1].reduce()]) {
  try { out.push(f()); } catch (e) { out.push(e.name + ": " + e.message); }
}
return out;`,
		want: `["TypeError: Reduce of empty array with no initial value","TypeError: Reduce of empty array with no initial value","TypeError: Reduce of empty array with no initial value","TypeError: number 5 is not a function","TypeError: undefined is not a function"]`,
	},
	{
		name: "flatmap_forms",
		code: `return [[1, 2].flatMap((x) => [x, x * 2]), [1, 2].flatMap((x) => [[x]]), ["ab", "c"].flatMap((s) => (s === "ab" ? ["a", "b"] : [s])), [1, , 2].flatMap((x) => x), [1].flatMap(function () { return this.v; }, { v: [7, 8] }), [[1, , 3]].flatMap((x) => x)];`,
		want: `[[1,2,2,4],[[1],[2]],["a","b","c"],[1,2],[7,8],[1,3]]`,
	},
	{
		name: "flatmap_errors",
		code: `try { [1].flatMap(); } catch (e) { return e.name + ": " + e.message; }`,
		want: `"TypeError: undefined is not a function"`,
	},
	{
		name: "includes_forms",
		code: `const a = [1, NaN, , "x", -0];
return [a.includes(NaN), a.includes(undefined), a.includes(0), a.includes("x"), a.includes(1, 1), a.includes(1, -100), a.includes("x", 4), a.includes(1, Infinity), a.includes(-0, -1), [].includes(undefined), Array.prototype.includes.call({ length: 2, 0: "a" }, undefined)];`,
		want: `[true,true,true,true,false,true,false,false,true,false,true]`,
	},
	{
		name: "indexof_forms",
		code: `const a = [1, 2, , 1, "1", NaN, null];
return [a.indexOf(1), a.indexOf(1, 1), a.indexOf(1, -4), a.indexOf("1"), a.indexOf(undefined), a.indexOf(NaN), a.indexOf(null), a.indexOf(2, 100), a.indexOf(1, -100), a.indexOf(1, "2"), [1, 2, 3].indexOf(3, Infinity)];`,
		want: `[0,3,3,4,-1,-1,6,-1,0,3,-1]`,
	},
	{
		name: "lastindexof_forms",
		code: `const a = [1, 2, 1, , 2];
return [a.lastIndexOf(1), a.lastIndexOf(2), a.lastIndexOf(2, 3), a.lastIndexOf(2, -1), a.lastIndexOf(2, -2), a.lastIndexOf(1, -100), a.lastIndexOf(undefined), a.lastIndexOf(1, 100), a.lastIndexOf(1, undefined), [].lastIndexOf(1), a.lastIndexOf(2, -Infinity)];`,
		want: `[2,4,1,4,1,-1,-1,2,0,-1,-1]`,
	},
	{
		name: "at_forms",
		code: `const a = [1, 2, 3];
return [a.at(), a.at(null), a.at("2"), a.at(-0), a.at(Infinity), a.at(-Infinity), a.at(true), Array.prototype.at.call("hey", -1), [, 2].at(0)];`,
		want: `[1,1,3,1,null,null,2,"y",null]`,
	},
	{
		name: "slice_more",
		code: `const a = [1, , 3, 4];
const s = a.slice(0, 3);
return [s, s.length, 1 in s, a.slice(-Infinity, Infinity), a.slice(3, 1), a.slice(undefined, undefined), a.slice("1", "-1"), Array.prototype.slice.call("abc", 1), Array.prototype.slice.call({ length: 3, 1: "b" }, 0)];`,
		want: `[[1,null,3],3,false,[1,null,3,4],[],[1,null,3,4],[null,3],["b","c"],[null,"b",null]]`,
	},
	{
		name: "concat_more",
		code: `const a = [1, , 3];
const c = a.concat([4, , 6], 7, "s", { length: 1, 0: "x" }, [[8]]);
function f() { return [].concat(arguments); }
return [c, c.length, 1 in c, 4 in c, Array.prototype.concat.call(1, 2).length, [].concat(), f(1, 2)[0][0], Array(2).concat([1]).length];`,
		want: `[[1,null,3,4,null,6,7,"s",{"0":"x","length":1},[8]],10,false,false,2,[],1,3]`,
	},
	{
		name: "flat_more",
		code: `const a = [1, [2, , [3, [4]]], , 5];
return [a.flat(), a.flat(0), a.flat(-1), a.flat("2"), a.flat(Infinity), [[]].flat(), Array.prototype.flat.call({ length: 2, 0: [1], 1: 2 })];`,
		want: `[[1,2,[3,[4]],5],[1,[2,null,[3,[4]]],5],[1,[2,null,[3,[4]]],5],[1,2,3,[4],5],[1,2,3,4,5],[],[1,2]]`,
	},
	{
		name: "flat_self_cycle",
		code: `const a = [1];
a.push(a);
try { a.flat(Infinity); } catch (e) { return e.name + ": " + e.message; }`,
		want: `"RangeError: Maximum call stack size exceeded"`,
	},
	{
		name: "join_forms",
		code: `return [[1, 2, 3].join(), [1, 2].join(undefined), [1, 2].join(null), [1, 2].join(""), [1, , 3].join("-"), [[1, [2]], [3]].join(";"), [true, false, 1.5, -0, 1e21].join(), Array(3).join("ab"), Array.prototype.join.call({ length: 2, 0: "x" }, "+"), Array.prototype.join.call("abc", "."), ["é", "x"].join("→")];`,
		want: `["1,2,3","1,2","1null2","12","1--3","1,2;3","true,false,1.5,0,1e+21","abab","x+","a.b.c","é→x"]`,
	},
	{
		name: "join_cycles",
		code: `const a = [1, 2];
a.push(a);
const b = [1];
b.push([2, b]);
return [a.join("-"), String(b), a.toString()];`,
		want: `["1-2-","1,2,","1,2,"]`,
	},
	{
		name: "join_calls_tostring",
		code: `const log = [];
const o = { toString() { log.push("ts"); return "O"; } };
return [[o, 1, o].join(), log.length];`,
		want: `["O,1,O",2]`,
	},
	{
		name: "join_too_long",
		// the reference caps strings at 2^24 code units; V8 allows 2^29-24.
		code: `let big = "x";
for (let i = 0; i < 23; i++) big += big;
try { [big, big, big].join(); } catch (e) { return e.name + ": " + e.message; }`,
		want: `"RangeError: Invalid string length"`,
	},
	{
		name: "tostring_forms",
		code: "const a = [1, 2];\na.join = () => \"custom\";\nconst b = [1, 2];\nb.join = 5;\nreturn [String([1, [2, 3]]), a.toString(), b.toString(), Array.prototype.toString.call({ join: () => \"J\" }), Array.prototype.toString.call({}), `${[]}`, [] + [], [null] + \"\"];",
		want: `["1,2,3","custom","[object Array]","J","[object Object]","","",""]`,
	},
	{
		name: "tolocalestring_forms",
		code: `const o = { toLocaleString() { return "L"; } };
return [[o, null, undefined, o].toLocaleString(), [].toLocaleString(), ["a", [o]].toLocaleString()];`,
		want: `["L,,,L","","a,L"]`,
	},
	{
		name: "push_forms",
		code: `const a = [];
const n = a.push(1, 2, 3);
const o = { length: "2" };
Array.prototype.push.call(o, "x");
const p = {};
Array.prototype.push.call(p);
return [a, n, a.push(), o, p];`,
		want: `[[1,2,3],3,3,{"2":"x","length":3},{"length":0}]`,
	},
	{
		name: "push_errors",
		code: `const out = [];
for (const f of [() => Object.freeze([1]).push(2), () => Object.seal([1]).push(2), () => Object.preventExtensions([1]).push(2), () => Array.prototype.push.call({ length: 2 ** 53 - 1 }, 1), () => Array.prototype.push.call(Object.freeze({ length: 0 }), 1)]) {
  try { f(); out.push("ok"); } catch (e) { out.push(e.name + ": " + e.message); }
}
return out;`,
		want: `["TypeError: Cannot add property 1, object is not extensible","TypeError: Cannot add property 1, object is not extensible","TypeError: Cannot add property 1, object is not extensible","TypeError: Pushing 1 elements on an array-like of length 9007199254740991 is disallowed, as the total surpasses 2**53-1","TypeError: Cannot add property 0, object is not extensible"]`,
	},
	{
		name: "push_past_cap",
		// the reference caps arrays at 10,000,000 elements; V8 allows 2^32-1.
		code: `const a = Array(1e7);
try { a.push(1); } catch (e) { return [e.name + ": " + e.message, a.length]; }`,
		want: `["RangeError: Invalid array length",10000000]`,
	},
	{
		name: "pop_shift_forms",
		code: `const a = [1, , 3];
const p1 = a.pop();
const p2 = a.pop();
const b = [, 2, 3];
const s1 = b.shift();
const o = { length: 2, 0: "a", 1: "b" };
const s2 = Array.prototype.shift.call(o);
const e = { length: 0 };
Array.prototype.pop.call(e);
const e2 = {};
Array.prototype.shift.call(e2);
return [a, p1, p2, b, 0 in b, s1, s2, o, e, e2, [].shift()];`,
		want: `[[1],3,null,[2,3],true,null,"a",{"0":"b","length":1},{"length":0},{"length":0},null]`,
	},
	{
		name: "pop_shift_errors",
		code: `const out = [];
for (const f of [() => Object.freeze([1]).pop(), () => Object.freeze([1, 2]).shift(), () => Object.freeze([]).pop(), () => Array.prototype.pop.call(Object.freeze({ length: 1, 0: 1 }))]) {
  try { f(); out.push("ok"); } catch (e) { out.push(e.name + ": " + e.message); }
}
return out;`,
		want: `["TypeError: Cannot delete property '0' of [object Array]","TypeError: Cannot assign to read only property '0' of object '[object Array]'","TypeError: Cannot assign to read only property 'length' of object '[object Array]'","TypeError: Cannot delete property '0' of #<Object>"]`,
	},
	{
		name: "unshift_forms",
		code: `const a = [3, , 5];
const n = a.unshift(1, 2);
const o = { length: 1, 0: "b" };
Array.prototype.unshift.call(o, "a");
return [a, n, 3 in a, a.unshift(), o, [].unshift(1)];`,
		want: `[[1,2,3,null,5],5,false,5,{"0":"a","1":"b","length":2},1]`,
	},
	{
		name: "splice_more",
		code: `const a = [0, 1, 2, 3, 4];
const r1 = a.splice();
const r2 = a.splice(undefined);
const b = [0, 1, 2, 3, 4];
const r3 = b.splice(-2, 1, "a", "b", "c");
const r4 = b.splice(1, -5);
const r5 = b.splice(100, 1, "end");
const c = [1, , 3, 4];
const r6 = c.splice(0, 2);
const o = { length: 3, 0: "a", 1: "b", 2: "c" };
const r7 = Array.prototype.splice.call(o, 1, 1);
return [r1, r2, a, r3, r4, r5, b, r6, r6.length, 1 in r6, c, r7, o];`,
		want: `[[],[0,1,2,3,4],[],[3],[],[],[0,1,2,"a","b","c",4,"end"],[1,null],2,false,[3,4],["b"],{"0":"a","1":"c","length":2}]`,
	},
	{
		name: "splice_grow_shrink",
		code: `const a = [1, 2, 3, 4, 5, 6];
a.splice(1, 4, "x");
const b = [1, 2];
b.splice(1, 0, "a", "b", "c", "d");
const d = [1, , 3];
d.splice(0, 1, "a", "b");
return [a, b, d, 2 in d];`,
		want: `[[1,"x",6],[1,"a","b","c","d",2],["a","b",null,3],false]`,
	},
	{
		name: "splice_subclass",
		code: `class S extends Array {}
const s = S.of(1, 2, 3);
const r = s.splice(0, 2);
return [r instanceof S, r.length, s.length, s.map((x) => x) instanceof S, s.filter(() => true) instanceof S, s.slice() instanceof S, s.concat([1]) instanceof S, s.flat() instanceof S];`,
		want: `[true,2,1,true,true,true,true,true]`,
	},
	{
		name: "species_odd_constructors",
		code: `const out = [];
for (const c of [null, 5, {}, function F() {}, undefined]) {
  const a = [1];
  a.constructor = c;
  try { out.push(a.map((x) => x + 1)); } catch (e) { out.push(e.name + ": " + e.message); }
}
return out;`,
		want: `["TypeError: object.constructor[Symbol.species] is not a constructor","TypeError: object.constructor[Symbol.species] is not a constructor",[2],[2],[2]]`,
	},
	{
		name: "fill_forms",
		code: `return [[1, 2, 3].fill(0), [1, 2, 3].fill(0, -1), [1, 2, 3].fill(0, 1, 2), [1, 2, 3].fill(0, 5), [1, 2, 3].fill(0, NaN, NaN), Array(3).fill(), Array.prototype.fill.call({ length: 2 }, "z"), new Array(5).fill(1, 2)];`,
		want: `[[0,0,0],[1,2,0],[1,0,3],[1,2,3],[1,2,3],[null,null,null],{"0":"z","1":"z","length":2},[null,null,1,1,1]]`,
	},
	{
		name: "fill_frozen",
		code: `try { Object.freeze([1]).fill(0); } catch (e) { return e.name + ": " + e.message; }`,
		want: `"TypeError: Cannot assign to read only property '0' of object '[object Array]'"`,
	},
	{
		name: "copywithin_forms",
		code: `return [[1, 2, 3, 4, 5].copyWithin(-2), [1, 2, 3, 4, 5].copyWithin(0, -2, -1), [1, 2, 3, 4, 5].copyWithin(2, 0), [1, , 3, 4].copyWithin(2, 0), Object.keys([1, , 3, 4].copyWithin(2, 0)), Array.prototype.copyWithin.call({ length: 5, 3: 1 }, 0, 3), [1, 2].copyWithin(0, 0, 0)];`,
		want: `[[1,2,3,1,2],[4,2,3,4,5],[1,2,1,2,3],[1,null,1,null],["0","2"],{"0":1,"3":1,"length":5},[1,2]]`,
	},
	{
		name: "reverse_forms",
		code: `const a = [1, , 3, 4];
a.reverse();
const o = { length: 3, 0: "a", 2: "c" };
Array.prototype.reverse.call(o);
const p = { length: 3, 0: "a" };
Array.prototype.reverse.call(p);
return [a, Object.keys(a), o, p, [].reverse(), [1].reverse()];`,
		want: `[[4,3,null,1],["0","1","3"],{"0":"c","2":"a","length":3},{"2":"a","length":3},[],[1]]`,
	},
	{
		name: "reverse_frozen",
		code: `try { Object.freeze([1, 2]).reverse(); } catch (e) { return e.name + ": " + e.message; }`,
		want: `"TypeError: Cannot assign to read only property '0' of object '[object Array]'"`,
	},
	{
		name: "sort_default_forms",
		code: `return [["b", "a", "c"].sort(), [10, 1, 2, 100, -1, -10].sort(), [true, false, null, "null", undefined, "a"].sort(), ["é", "e", "f", "E"].sort(), [3, , 1, undefined, 2].sort(), Object.keys([3, , 1, , ].sort()), ["\u{1F600}", "\uFFFF", "z"].sort()];`,
		want: `[["a","b","c"],[-1,-10,1,10,100,2],["a",false,null,"null",true,null],["E","e","f","é"],[1,2,3,null,null],["0","1"],["z","😀","￿"]]`,
	},
	{
		name: "sort_comparator_forms",
		code: `const people = [];
for (let i = 0; i < 40; i++) people.push({ id: i, g: i % 3 });
people.sort((a, b) => a.g - b.g);
return [[5, 1, 4].sort((a, b) => b - a), [1, 2, 3].sort(() => 0), people.map((p) => p.id).join(","), ["b", "a"].sort((a, b) => (a < b ? -1 : 1)), [2, 1].sort((a, b) => ({ valueOf: () => a - b })), [2, 1, 3].sort(() => NaN), [undefined, 3, undefined, 1].sort((a, b) => { if (a === undefined || b === undefined) throw new Error("saw undefined"); return a - b; })];`,
		want: `[[5,4,1],[1,2,3],"0,3,6,9,12,15,18,21,24,27,30,33,36,39,1,4,7,10,13,16,19,22,25,28,31,34,37,2,5,8,11,14,17,20,23,26,29,32,35,38",["a","b"],[1,2],[2,1,3],[1,3,null,null]]`,
	},
	{
		name: "sort_inconsistent_like_v8",
		code: `const mk = (n) => { const a = []; let x = 7; for (let i = 0; i < n; i++) { x = (x * 1103515245 + 12345) % 2147483648; a.push(x % 100); } return a; };
return [mk(10).sort((a, b) => a > b), mk(30).sort((a, b) => a < b), mk(100).sort((a, b) => a > b), mk(10).sort(() => -1), mk(70).sort(() => 1), mk(200).sort((a, b) => (a % 7) - (b % 7))];`,
		want: `[[16,40,0,12,0,56,76,96,12,96],[16,40,0,12,0,56,76,96,12,96,16,20,28,84,60,60,56,20,72,84,60,28,44,12,56,48,60,68,44,60],[16,40,0,12,0,56,76,96,12,96,16,20,28,84,60,60,56,20,72,84,60,28,44,12,56,48,60,68,44,60,4,12,24,88,4,12,0,72,84,52,28,88,60,24,48,8,88,68,28,76,12,28,68,92,72,40,80,44,92,80,52,80,40,60,12,92,92,76,8,92,96,64,12,56,60,36,60,80,36,12,4,80,33,36,4,96,28,28,4,96,92,8,92,32,76,96,0,80,28,76],[96,12,96,76,56,0,12,0,40,16],[16,40,0,12,0,56,76,96,12,96,16,20,28,84,60,60,56,20,72,84,60,28,44,12,56,48,60,68,44,60,4,12,24,88,4,12,0,72,84,52,28,88,60,24,48,8,88,68,28,76,12,28,68,92,72,40,80,44,92,80,52,80,40,60,12,92,92,76,8,92],[0,0,56,28,84,56,84,28,56,0,84,28,28,28,56,28,28,0,28,0,84,0,0,84,56,0,56,28,84,56,28,0,28,8,92,92,92,92,8,92,64,36,36,36,92,8,92,36,8,36,64,8,36,8,8,8,92,64,36,92,36,92,64,8,64,16,16,72,44,44,72,72,44,72,16,72,72,44,72,72,44,44,44,72,44,44,44,44,44,72,16,24,52,24,80,80,52,80,80,80,80,80,80,52,24,52,24,80,60,60,60,60,60,4,88,4,88,60,88,60,60,60,4,4,4,32,88,4,81,4,32,4,88,4,60,88,32,88,4,88,4,4,88,4,88,88,40,12,96,12,96,12,68,12,12,68,12,68,40,40,12,96,12,12,33,96,96,96,12,96,96,68,40,12,40,96,12,68,68,68,96,76,20,20,48,48,76,76,76,76,48,76,76,76,20,76,20,20,76,48]]`,
	},
	{
		name: "sort_short_inconsistent_like_v8",
		code: `const out = [];
for (const n of [2, 3, 5, 7, 8, 9, 16]) {
  const a = [];
  for (let i = 0; i < n; i++) a.push((i * 7 + 3) % n);
  const calls = [];
  out.push(a.slice().sort((x, y) => { calls.push(x + ":" + y); return x > y; }), a.slice().sort(() => -1), a.slice().sort(() => 1), calls.join(" "));
}
return out;`,
		want: `[[1,0],[0,1],[1,0],"0:1",[0,1,2],[2,1,0],[0,1,2],"1:0 2:1",[3,0,2,4,1],[1,4,2,0,3],[3,0,2,4,1],"0:3 2:0 4:0 4:2 1:2 1:4",[3,3,3,3,3,3,3],[3,3,3,3,3,3,3],[3,3,3,3,3,3,3],"3:3 3:3 3:3 3:3 3:3 3:3 3:3 3:3 3:3 3:3",[3,2,1,0,7,6,5,4],[4,5,6,7,0,1,2,3],[3,2,1,0,7,6,5,4],"2:3 1:2 0:1 7:0 6:7 5:6 4:5",[3,1,8,6,4,2,0,7,5],[5,7,0,2,4,6,8,1,3],[3,1,8,6,4,2,0,7,5],"1:3 8:1 6:8 4:6 2:4 0:2 7:0 5:7",[3,10,1,8,15,6,13,4,11,2,9,0,7,14,5,12],[12,5,14,7,0,9,2,11,4,13,6,15,8,1,10,3],[3,10,1,8,15,6,13,4,11,2,9,0,7,14,5,12],"10:3 1:10 8:1 15:8 6:15 13:6 4:13 11:4 2:11 9:2 0:9 7:0 14:7 5:14 12:5"]`,
	},
	{
		name: "sort_pseudo_random_comparator",
		code: `let seed = 42;
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const a = [];
for (let i = 0; i < 500; i++) a.push(i);
a.sort(() => rnd() - 0.5);
const sorted = a.slice().sort((x, y) => x - y);
let ok = true;
for (let i = 0; i < 500; i++) if (sorted[i] !== i) ok = false;
return [a.length, ok, a.slice(0, 20)];`,
		want: `[500,true,[19,365,188,201,186,189,54,48,218,61,24,183,156,129,0,41,227,42,159,211]]`,
	},
	{
		name: "sort_comparator_calls_like_v8",
		code: `const calls = [];
[5, 3, 8, 1, 9, 2].sort((a, b) => { calls.push(a + ":" + b); return a - b; });
return calls;`,
		want: `["3:5","8:5","1:5","1:3","9:5","9:8","2:5","2:3","2:1"]`,
	},
	{
		name: "sort_large_merges_like_v8",
		code: `const mk = (n, m) => { const a = []; let x = 3; for (let i = 0; i < n; i++) { x = (x * 1103515245 + 12345) % 2147483648; a.push(x % m); } return a; };
let count = 0;
const a = mk(3000, 1000);
a.sort((x, y) => { count++; return x - y; });
let ok = true;
for (let i = 1; i < a.length; i++) if (a[i - 1] > a[i]) ok = false;
const runs = [];
for (let i = 0; i < 300; i++) runs.push(i < 150 ? i : 300 - i);
let c2 = 0;
runs.sort((x, y) => { c2++; return x - y; });
return [ok, count, c2, runs.slice(140, 160)];`,
		want: `[true,29742,599,[70,71,71,72,72,73,73,74,74,75,75,76,76,77,77,78,78,79,79,80]]`,
	},
	{
		name: "sort_errors",
		code: `const out = [];
for (const c of [null, 3, "x", {}, [1, 2], true]) {
  try { [2, 1].sort(c); out.push("ok"); } catch (e) { out.push(e.name + ": " + e.message); }
}
try { [2, 1].toSorted(5); } catch (e) { out.push(e.message); }
const a = [3, 2, 1];
try { a.sort(() => { throw new Error("cmp"); }); } catch (e) { out.push(e.message, a.join()); }
try { Object.freeze([2, 1]).sort(); } catch (e) { out.push(e.message); }
return out;`,
		want: `["TypeError: The comparison function must be either a function or undefined: null","TypeError: The comparison function must be either a function or undefined: 3","TypeError: The comparison function must be either a function or undefined: x","TypeError: The comparison function must be either a function or undefined: #<Object>","TypeError: The comparison function must be either a function or undefined: [object Array]","TypeError: The comparison function must be either a function or undefined: true","The comparison function must be either a function or undefined: 5","cmp","3,2,1","Cannot assign to read only property '0' of object '[object Array]'"]`,
	},
	{
		name: "sort_generic",
		code: `const o = { length: 4, 0: "d", 1: "b", 3: "a" };
Array.prototype.sort.call(o);
return [o, Array.prototype.toSorted.call({ length: 3, 0: 2, 2: 1 })];`,
		want: `[{"0":"a","1":"b","2":"d","length":4},[1,2,null]]`,
	},
	{
		name: "sort_mutating_comparator",
		code: `const a = [3, 1, 2];
a.sort((x, y) => { a.length = 0; return x - y; });
const b = [3, 1, 2];
b.sort((x, y) => { b.push(9); return x - y; });
return [a, b.slice(0, 3), b.length > 3];`,
		want: `[[1,2,3],[1,2,3],true]`,
	},
	{
		name: "tosorted_forms",
		code: `const a = [3, , 1];
const s = a.toSorted();
return [s, s.length, 1 in s, a, [1, 10, 2].toSorted((x, y) => x - y)];`,
		want: `[[1,3,null],3,true,[3,null,1],[1,2,10]]`,
	},
	{
		name: "toreversed_with_tospliced",
		code: `const a = [1, , 3];
return [a.toReversed(), 1 in a.toReversed(), a.with(1, 2), a.with(-1, 9), Array.prototype.with.call({ length: 2, 0: "a" }, 1, "b"), a.toSpliced(0, 1), a.toSpliced(1), a.toSpliced(), a.toSpliced(-1, 0, "x", "y"), Array.prototype.toReversed.call("ab")];`,
		want: `[[3,null,1],true,[1,2,3],[1,null,9],["a","b"],[null,3],[1],[1,null,3],[1,null,"x","y",3],["b","a"]]`,
	},
	{
		name: "with_errors",
		code: `const out = [];
for (const i of [3, -4, 1.5 * 2, Infinity, -Infinity]) {
  try { [1, 2, 3].with(i, 0); out.push("ok"); } catch (e) { out.push(e.name + ": " + e.message); }
}
out.push([1, 2].with(1.5, 0));
out.push([1, 2].with("x", 0));
return out;`,
		want: `["RangeError: Invalid index : 3","RangeError: Invalid index : -4","RangeError: Invalid index : 3","RangeError: Invalid index : Infinity","RangeError: Invalid index : -Infinity",[1,0],[0,2]]`,
	},
	{
		name: "iterators_forms",
		code: `const a = ["a", , "c"];
const it = a.entries();
const first = it.next();
return [[...a.keys()], [...a.values()], [...a.entries()], first, [...Array.prototype.keys.call({ length: 2 })], typeof a[Symbol.iterator], a[Symbol.iterator] === a.values, Object.prototype.toString.call(a.keys())];`,
		want: `[[0,1,2],["a",null,"c"],[[0,"a"],[1,null],[2,"c"]],{"value":[0,"a"],"done":false},[0,1],"function",true,"[object Array Iterator]"]`,
	},
	{
		name: "iterator_live",
		code: `const a = [1];
const it = a.values();
a.push(2);
const out = [...it];
a.push(3);
return [out, it.next().done];`,
		want: `[[1,2],true]`,
	},
	{
		name: "prototype_shape",
		code: `const names = Object.getOwnPropertyNames(Array.prototype).filter((k) => typeof Array.prototype[k] === "function").sort();
return [names, Array.prototype.constructor === Array, Array.prototype.map.length, Array.prototype.slice.length, Array.prototype.splice.length, Array.prototype.reduce.name, Array.prototype.length, Array.isArray(Array.prototype), Object.keys(Array.prototype)];`,
		want: `[["at","concat","constructor","copyWithin","entries","every","fill","filter","find","findIndex","findLast","findLastIndex","flat","flatMap","forEach","includes","indexOf","join","keys","lastIndexOf","map","pop","push","reduce","reduceRight","reverse","shift","slice","some","sort","splice","toLocaleString","toReversed","toSorted","toSpliced","toString","unshift","values","with"],true,1,2,2,"reduce",0,true,[]]`,
	},
	{
		name: "arguments_generic",
		code: `function f() { return [Array.prototype.slice.call(arguments), Array.prototype.map.call(arguments, (x) => x * 2), Array.prototype.join.call(arguments, "-"), Array.prototype.indexOf.call(arguments, 3), Array.prototype.reverse.call(arguments).length, [...arguments]]; }
return f(1, 2, 3);`,
		want: `[[1,2,3],[2,4,6],"1-2-3",2,3,[3,2,1]]`,
	},
	{
		name: "getters_in_arraylike",
		code: `const log = [];
const o = { get length() { log.push("len"); return 2; }, get 0() { log.push("0"); return "a"; }, get 1() { log.push("1"); return "b"; } };
const r = Array.prototype.map.call(o, (x) => x.toUpperCase());
return [r, log];`,
		want: `[["A","B"],["len","0","1"]]`,
	},
	{
		name: "inherited_elements",
		code: `const proto = [, "p1"];
const a = [1, , 3];
Object.setPrototypeOf(a, proto);
return [Array.prototype.join.call(a), Array.prototype.indexOf.call(a, "p1"), Array.prototype.includes.call(a, "p1"), Array.prototype.slice.call(a)];`,
		want: `["1,p1,3",1,true,[1,"p1",3]]`,
	},
	{
		name: "numeric_coercion_valueof",
		code: `const log = [];
const n = (v) => ({ valueOf() { log.push(v); return v; } });
const a = [1, 2, 3, 4, 5];
return [a.slice(n(1), n(3)), a.at(n(-1)), a.includes(5, n(4)), a.indexOf(1, n(-5)), a.fill(0, n(3), n(4)), log];`,
		want: `[[2,3],5,true,0,[1,2,3,0,5],[1,3,-1,4,-5,3,4]]`,
	},
	{
		name: "large_dense_ops",
		code: `const a = [];
for (let i = 0; i < 100000; i++) a.push(i);
const m = a.map((x) => x * 2);
const f = m.filter((x) => x % 3 === 0);
const s = f.slice(10, 15);
const r = a.reduce((x, y) => x + y, 0);
a.reverse();
return [m.length, f.length, s, r, a[0], a.indexOf(5), a.includes(99999), a.lastIndexOf(0)];`,
		want: `[100000,33334,[60,66,72,78,84],4999950000,99999,99994,true,99999]`,
	},
	{
		name: "queue_shift_push",
		code: `const q = [0];
let steps = 0;
while (q.length && steps < 2000) { const x = q.shift(); steps++; if (x < 1000) q.push(x + 1, x + 2); }
return [steps, q.length];`,
		want: `[2000,2001]`,
	},
	{
		name: "length_and_holes",
		code: `const a = [1, 2, 3];
a.length = 1;
a[4] = 5;
return [a, a.length, Object.keys(a), a.indexOf(undefined), a.includes(undefined), a.findIndex((x) => x === undefined)];`,
		want: `[[1,null,null,null,5],5,["0","4"],-1,true,1]`,
	},
}
