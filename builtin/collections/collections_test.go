package collections_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
)

// prelude is prepended to every case: t turns a throw into "Name: message"
// and push appends without Array.prototype.push, so that these programs
// lean on this package and the core library only (a few receivers render
// as "[object Array]" only once Array.prototype.toString exists).
const prelude = `const t = (f) => { try { return f(); } catch (e) { return e.name + ": " + e.message; } };
const push = (a, ...vs) => { for (const v of vs) a[a.length] = v; return a.length; };
`

// cases: the expected values were produced by node 26 running the same
// programs.
var cases = []struct{ name, code, want string }{
	{"map_errors", `
return [
 t(() => Map()), t(() => new Map([1, 2])), t(() => new Map(["ab"])), t(() => new Map([null])),
 t(() => new Map(5)), t(() => new Map({})), t(() => new Map(true)),
 t(() => Map.prototype.get.call({}, 1)), t(() => Map.prototype.get.call(new Set(), 1)),
 t(() => Map.prototype.get.call(1, 1)), t(() => Map.prototype.get.call([], 1)), t(() => Map.prototype.get.call(null, 1)),
 t(() => Map.prototype.set.call("abc", 1)), t(() => Map.prototype.has.call(new WeakMap(), 1)),
 t(() => Object.getOwnPropertyDescriptor(Map.prototype, "size").get.call({})),
 t(() => new Map().forEach(1)), t(() => new Map().forEach({})), t(() => new Map().forEach()), t(() => new Map().forEach("abc")), t(() => new Map().forEach(null)),
 t(() => new Map().getOrInsertComputed(1, 2)), t(() => Map.prototype.getOrInsertComputed.call({}, 1, 2)),
 t(() => Map.groupBy([1], 1)), t(() => Map.groupBy(null, (x) => x)), t(() => Map.groupBy(5, (x) => x)), t(() => Map.groupBy([1], {})), t(() => Map.groupBy([1], "abc")),
 t(() => Map.prototype.keys.call({})), t(() => Map.prototype.entries.call(new Set())), t(() => Map.prototype.clear.call([])),
 t(() => new Map({ [Symbol.iterator]() { return { next: 1 }; } })),
 t(() => new Map({ [Symbol.iterator]() { return 1; } })),
 t(() => new Map({ [Symbol.iterator]: 1 })),
 t(() => new Map({ [Symbol.iterator]() { return { next() { return "abc"; } }; } })),
 t(() => new Map({ [Symbol.iterator]() { return { next() { return null; } }; } })),
];`,
		`["TypeError: Constructor Map requires 'new'","TypeError: Iterator value 1 is not an entry object","TypeError: Iterator value ab is not an entry object","TypeError: Iterator value null is not an entry object","TypeError: number 5 is not iterable (cannot read property Symbol(Symbol.iterator))","TypeError: object is not iterable (cannot read property Symbol(Symbol.iterator))","TypeError: boolean true is not iterable (cannot read property Symbol(Symbol.iterator))","TypeError: Method Map.prototype.get called on incompatible receiver #<Object>","TypeError: Method Map.prototype.get called on incompatible receiver #<Set>","TypeError: Method Map.prototype.get called on incompatible receiver 1","TypeError: Method Map.prototype.get called on incompatible receiver [object Array]","TypeError: Method Map.prototype.get called on incompatible receiver null","TypeError: Method Map.prototype.set called on incompatible receiver abc","TypeError: Method Map.prototype.has called on incompatible receiver #<WeakMap>","TypeError: Method get Map.prototype.size called on incompatible receiver #<Object>","TypeError: number 1 is not a function","TypeError: object is not a function","TypeError: undefined is not a function","TypeError: string \"abc\" is not a function","TypeError: object null is not a function","TypeError: Map.prototype.getOrInsertComputed is not a function","TypeError: Method Map.prototype.getOrInsertComputed called on incompatible receiver #<Object>","TypeError: 1 is not a function","TypeError: Map.groupBy called on null or undefined","TypeError: number 5 is not iterable (cannot read property Symbol(Symbol.iterator))","TypeError: #<Object> is not a function","TypeError: abc is not a function","TypeError: Method Map.prototype.keys called on incompatible receiver #<Object>","TypeError: Method Map.prototype.entries called on incompatible receiver #<Set>","TypeError: Method Map.prototype.clear called on incompatible receiver [object Array]","TypeError: number 1 is not a function","TypeError: Result of the Symbol.iterator method is not an object","TypeError: object is not iterable (cannot read property Symbol(Symbol.iterator))","TypeError: Iterator result abc is not an object","TypeError: Iterator result null is not an object"]`},
	{"map_adder", `
const o = Map.prototype.set;
const out = [];
Map.prototype.set = 1;
push(out, t(() => new Map([[1, 2]])), t(() => new Map(null).size), t(() => new Map().size));
Map.prototype.set = function (k, v) { push(out, "set " + k + "=" + v); return o.call(this, k, v * 10); };
const m = new Map([[1, 2], [3, 4]]);
push(out, [...m]);
const m2 = new Map(m);
push(out, [...m2]);
Map.prototype.set = o;
return out;`,
		`["TypeError: '1' returned for property 'set' of object '#<Map>' is not a function",0,0,"set 1=2","set 3=4",[[1,20],[3,40]],"set 1=20","set 3=40",[[1,200],[3,400]]]`},
	{"map_ctor_close", `
const log = [];
const mk = (vals) => ({ [Symbol.iterator]() { let i = 0; return { next() { return i < vals.length ? { value: vals[i++], done: false } : { done: true }; }, return() { push(log, "return"); return {}; } }; } });
push(log, t(() => new Map(mk([[1, 2], 5]))));
push(log, t(() => new Map(mk([[1, 2], { get 0() { throw new Error("getter"); } }]))));
const o = Map.prototype.set;
Map.prototype.set = function () { throw new Error("adder"); };
push(log, t(() => new Map(mk([[1, 2]]))));
Map.prototype.set = o;
push(log, t(() => new Map(mk([[1, 2], [3]])).get(3)));
return log;`,
		`["return","TypeError: Iterator value 5 is not an entry object","return","Error: getter","return","Error: adder",null]`},
	{"map_entry_getters", `
const log = [];
const m = new Map([{ get 0() { push(log, 0); return "k"; }, get 1() { push(log, 1); return "v"; } }, ["a"], { length: 0, 0: 1, 1: 2 }]);
return [log, [...m], t(() => new Map([["a", 1], "xy"]))];`,
		`[[0,1],[["k","v"],["a",null],[1,2]],"TypeError: Iterator value xy is not an entry object"]`},
	{"map_api", `
const m = new Map();
const k = {};
m.set(NaN, 1).set(-0, "z").set(k, "obj").set("s", undefined);
const r = [m.size, m.get(NaN), m.get(0), m.get(-0), Object.is([...m.keys()][1], -0), m.has(k), m.has({}), m.get("s"), m.has("s")];
push(r, m.delete(NaN), m.delete(NaN), m.size);
m.clear();
push(r, m.size, [...m]);
return r;`,
		`[4,1,"z","z",false,true,false,null,true,true,false,3,0,[]]`},
	{"map_foreach_live", `
const m = new Map([[1, "a"], [2, "b"], [3, "c"]]);
const out = [];
m.forEach(function (v, k, map) { push(out, [k, v, map === m, this.x]); if (k === 1) { m.delete(2); m.set(4, "d"); } if (k === 4) m.set(1, "again"); }, { x: 7 });
return [out, [...m]];`,
		`[[[1,"a",true,7],[3,"c",true,7],[4,"d",true,7]],[[1,"again"],[3,"c"],[4,"d"]]]`},
	{"map_iter_live", `
const m = new Map([[1, 1], [2, 2]]);
const it = m.keys();
const a = it.next().value;
m.delete(2); m.set(3, 3);
const b = it.next().value;
m.clear(); m.set(9, 9);
const c = it.next();
const d = it.next();
m.set(10, 10);
const e = it.next();
return [a, b, c, d, e];`,
		`[1,3,{"value":9,"done":false},{"done":true},{"done":true}]`},
	{"map_iter_many_deletes", `
const m = new Map();
for (let i = 0; i < 100; i++) m.set(i, i);
const it = m.keys();
const seen = [];
for (let i = 0; i < 5; i++) push(seen, it.next().value);
for (let i = 0; i < 90; i++) m.delete(i);
for (const k of it) push(seen, k);
return seen;`,
		`[0,1,2,3,4,90,91,92,93,94,95,96,97,98,99]`},
	{"map_iter_proto", `
const it = new Map([[1, 2]]).entries();
const p = Object.getPrototypeOf(it);
return [Object.prototype.toString.call(it), p[Symbol.toStringTag], Object.getOwnPropertyNames(p), Object.getPrototypeOf(p) === Object.getPrototypeOf(Object.getPrototypeOf([].values())), it[Symbol.iterator]() === it, t(() => p.next.call({})), t(() => p.next.call(new Set().values())), it.next(), it.next(), typeof it.toArray];`,
		`["[object Map Iterator]","Map Iterator",["next"],true,true,"TypeError: Method Map Iterator.prototype.next called on incompatible receiver #<Object>","TypeError: Method Map Iterator.prototype.next called on incompatible receiver [object Set Iterator]",{"value":[1,2],"done":false},{"done":true},"function"]`},
	{"map_proto_shape", `
const d = Object.getOwnPropertyDescriptor(Map.prototype, "size");
return [Object.getOwnPropertyNames(Map.prototype), typeof d.get, d.set, d.enumerable, d.configurable, d.get.name, Map.prototype[Symbol.iterator] === Map.prototype.entries, Map.prototype[Symbol.toStringTag], Map.name, Map.length, Map.groupBy.length, Map.prototype.set.length, Map.prototype.forEach.length, Map.prototype.getOrInsertComputed.length, Map.prototype.entries.name, Object.prototype.toString.call(new Map()), Object.getOwnPropertyNames(Map), Map.prototype.constructor === Map, Object.keys(new Map([[1, 2]]))];`,
		`[["constructor","get","set","has","delete","clear","entries","forEach","keys","size","values","getOrInsert","getOrInsertComputed"],"function",null,false,true,"get size",true,"Map","Map",0,2,2,1,2,"entries","[object Map]",["length","name","prototype","groupBy"],true,[]]`},
	{"map_groupby", `
const g = Map.groupBy(["a", "b", "c", "a", "b"], (c, i) => (i < 2 ? c : c + c));
const z = Map.groupBy([1, 2], () => -0);
const log = [];
const g2 = t(() => Map.groupBy({ [Symbol.iterator]() { let i = 0; return { next() { return { value: i++, done: false }; }, return() { push(log, "ret"); return {}; } }; } }, (x) => { if (x === 2) throw new Error("cb"); return x; }));
const args = [];
Map.groupBy(["x"], function (v, i) { push(args, this === undefined, arguments.length, v, i); });
return [[...g], Object.is([...z.keys()][0], -0), g2, log, args, g instanceof Map];`,
		`[[["a",["a"]],["b",["b"]],["cc",["c"]],["aa",["a"]],["bb",["b"]]],false,"Error: cb",["ret"],[true,2,"x",0],true]`},
	{"map_get_or_insert", `
const m = new Map();
const v = m.getOrInsertComputed("a", (k) => { m.set("z", 0); m.set("a", 1); return k + 2; });
const w = m.getOrInsertComputed(-0, (k) => Object.is(k, -0));
const x = m.getOrInsert(NaN, 5);
const y = m.getOrInsert(NaN, 6);
return [v, w, x, y, [...m]];`,
		`["a2",false,5,5,[["z",0],["a","a2"],[0,false],[null,5]]]`},
	{"map_subclass", `
class M extends Map { constructor(x) { super(x); this.extra = 1; } set(k, v) { return super.set(k, v + "!"); } }
const m = new M([[1, "a"]]);
return [m instanceof Map, m instanceof M, m.get(1), m.extra, Object.prototype.toString.call(m), t(() => M())];`,
		`[true,true,"a!",1,"[object Map]","TypeError: Class constructor M cannot be invoked without 'new'"]`},
	{"set_errors", `
return [
 t(() => Set()), t(() => new Set(5)), t(() => new Set({})), t(() => new Set(Symbol.iterator)), t(() => new Set(function () {})),
 t(() => Set.prototype.add.call({}, 1)), t(() => Object.getOwnPropertyDescriptor(Set.prototype, "size").get.call(new Map())),
 t(() => Set.prototype.values.call(new Map())), t(() => Set.prototype.forEach.call({}, (x) => x)), t(() => new Set().forEach(5)),
 t(() => new Set().union(1)), t(() => new Set().union({})), t(() => new Set().union({ size: 1 })), t(() => new Set().union({ size: 1, has: () => 1 })),
 t(() => new Set().union({ size: 1, has: () => 1, keys: 1 })), t(() => new Set().union({ size: NaN, has: () => 1, keys: () => 1 })),
 t(() => new Set().union({ size: -1, has: () => 1, keys: () => 1 })), t(() => new Set().union({ size: -1.5, has() {}, keys() {} })),
 t(() => new Set().union({ size: -Infinity, has() {}, keys() {} })), t(() => new Set().union({ size: "-3", has() {}, keys() {} })),
 t(() => new Set().union({ size: "x", has: () => 1, keys: () => 1 })), t(() => new Set([1]).union({ size: 1, has: () => 1, keys: () => 1 })),
 t(() => new Set([1]).union({ size: 1, has: () => 1, keys: () => ({ next: 1 }) })), t(() => new Set([1]).union({ size: 1, has: () => 1, keys: () => ({ next() { return 1; } }) })),
 t(() => new Set([1]).union([2])), t(() => new Set().intersection(null)), t(() => Set.prototype.union.call({}, new Set())),
 t(() => new Set().union({ size: Symbol.iterator, has() {}, keys() {} })), t(() => new Set().isSubsetOf(undefined)),
 t(() => new Set().difference("abc")), t(() => new Set().symmetricDifference(true)), t(() => new Set().isSupersetOf(1)), t(() => new Set().isDisjointFrom(1)),
];`,
		`["TypeError: Constructor Set requires 'new'","TypeError: number 5 is not iterable (cannot read property Symbol(Symbol.iterator))","TypeError: object is not iterable (cannot read property Symbol(Symbol.iterator))","TypeError: symbol is not iterable (cannot read property Symbol(Symbol.iterator))","TypeError: function is not iterable (cannot read property Symbol(Symbol.iterator))","TypeError: Method Set.prototype.add called on incompatible receiver #<Object>","TypeError: Method get Set.prototype.size called on incompatible receiver #<Map>","TypeError: Method Set.prototype.values called on incompatible receiver #<Map>","TypeError: Method Set.prototype.forEach called on incompatible receiver #<Object>","TypeError: number 5 is not a function","TypeError: Set.prototype.union argument must be an object","TypeError: The .size property is NaN","TypeError: string \"has\" is not a function","TypeError: string \"keys\" is not a function","TypeError: string \"keys\" is not a function","TypeError: The .size property is NaN","RangeError: '-1' is an invalid size","RangeError: '-1' is an invalid size","RangeError: '-Infinity' is an invalid size","RangeError: '-3' is an invalid size","TypeError: The .size property is NaN","TypeError: Result of the keys method is not an object","TypeError: string \"next\" is not a function","TypeError: Iterator result 1 is not an object","TypeError: The .size property is NaN","TypeError: Set.prototype.intersection argument must be an object","TypeError: Method Set.prototype.union called on incompatible receiver #<Object>","TypeError: Cannot convert a Symbol value to a number","TypeError: Set.prototype.isSubsetOf argument must be an object","TypeError: Set.prototype.difference argument must be an object","TypeError: Set.prototype.symmetricDifference argument must be an object","TypeError: Set.prototype.isSupersetOf argument must be an object","TypeError: Set.prototype.isDisjointFrom argument must be an object"]`},
	{"set_adder", `
const o = Set.prototype.add;
const out = [];
Set.prototype.add = "x";
push(out, t(() => new Set([1])), t(() => new Set([])), t(() => new Set().size));
Set.prototype.add = function (v) { push(out, "add " + v); return o.call(this, v * 2); };
push(out, [...new Set([1, 2])]);
push(out, [...new Set(new Set([3]))]);
Set.prototype.add = o;
return out;`,
		`["TypeError: 'x' returned for property 'add' of object '#<Set>' is not a function","TypeError: 'x' returned for property 'add' of object '#<Set>' is not a function",0,"add 1","add 2",[2,4],"add 3","add 6",[12]]`},
	{"set_api", `
const s = new Set([NaN, NaN, 0, -0, "0", undefined]);
const r = [s.size, s.has(NaN), s.has(-0), Object.is([...s][1], -0), s.has(undefined), s.add(-0) === s, s.size];
push(r, s.delete(0), s.has(-0), s.delete("nope"), [...s]);
s.clear();
push(r, s.size, [...s.entries()], [...new Set(new Map([[1, 2]]))], [...new Set(new Set([1, 2]))]);
return r;`,
		`[4,true,true,false,true,true,4,true,false,false,[null,"0",null],0,[],[[1,2]],[1,2]]`},
	{"set_foreach_live", `
const s = new Set([1, 2, 3]);
const out = [];
s.forEach(function (v, v2, set) { push(out, [v, v2, set === s, this.y]); if (v === 1) { s.delete(2); s.add(4); } }, { y: 8 });
return out;`,
		`[[1,1,true,8],[3,3,true,8],[4,4,true,8]]`},
	{"set_proto_shape", `
return [Object.getOwnPropertyNames(Set.prototype), Set.prototype.keys === Set.prototype.values, Set.prototype[Symbol.iterator] === Set.prototype.values, Set.prototype.values.name, Set.prototype[Symbol.toStringTag], Object.getOwnPropertyDescriptor(Set.prototype, "size").get.name, Set.prototype.union.length, Set.length, Object.getOwnPropertyNames(Set), Object.prototype.toString.call(new Set().values()), Object.getPrototypeOf(new Set().values())[Symbol.toStringTag], t(() => Object.getPrototypeOf(new Set().values()).next.call([]))];`,
		`[["constructor","has","add","delete","difference","clear","entries","forEach","intersection","isSubsetOf","isSupersetOf","isDisjointFrom","size","symmetricDifference","union","values","keys"],true,true,"values","Set","get size",1,0,["length","name","prototype"],"[object Set Iterator]","Set Iterator","TypeError: Method Set Iterator.prototype.next called on incompatible receiver [object Array]"]`},
	{"set_methods", `
const a = new Set([1, 2, 3]);
const b = new Set([3, 4, 1, 5]);
const m = new Map([[2, "x"], [9, "y"]]);
const like = { size: 2, has: (v) => v === 1 || v === 7, keys: () => [7, 1].values() };
const arr = (s) => [...s];
return [
 arr(a.union(b)), arr(a.intersection(b)), arr(b.intersection(a)), arr(a.difference(b)), arr(b.difference(a)), arr(a.symmetricDifference(b)),
 a.isSubsetOf(b), new Set([1, 3]).isSubsetOf(b), b.isSupersetOf(new Set([1, 3])), a.isDisjointFrom(new Set([8])), a.isDisjointFrom(b),
 arr(a.union(m)), arr(a.intersection(m)), arr(a.difference(m)), arr(a.symmetricDifference(m)), a.isSupersetOf(m), a.isDisjointFrom(m),
 arr(a.union(like)), arr(a.intersection(like)), arr(a.difference(like)), arr(a.symmetricDifference(like)), a.isSubsetOf(like), a.isSupersetOf(like), a.isDisjointFrom(like),
 a.union(b) instanceof Set, a.union(b) !== a, arr(a),
 Object.is(arr(new Set([1, 2]).union({ size: 1, has() {}, keys: () => [-0].values() }))[2], -0),
 Object.is(arr(new Set([0, 5, 6]).intersection({ size: 1, has() {}, keys: () => [-0].values() }))[0], -0),
];`,
		`[[1,2,3,4,5],[1,3],[1,3],[2],[4,5],[2,4,5],false,true,true,true,false,[1,2,3,9],[2],[1,3],[1,3,9],false,false,[1,2,3,7],[1],[2,3],[2,3,7],false,false,false,true,true,[1,2,3],false,false]`},
	{"set_methods_order", `
const log = [];
const other = { get size() { push(log, "size"); return 2; }, get has() { push(log, "get has"); return (v) => { push(log, "has " + v); return v === 2; }; }, get keys() { push(log, "get keys"); return () => { push(log, "keys()"); let i = 0; return { get next() { push(log, "get next"); return () => { push(log, "next"); return i < 2 ? { value: [2, 8][i++], done: false } : { done: true }; }; } }; }; } };
const s = new Set([1, 2, 3]);
const r = [];
for (const m of ["union", "intersection", "difference", "symmetricDifference", "isSubsetOf", "isSupersetOf", "isDisjointFrom"]) {
  push(log, "== " + m);
  const x = s[m](other);
  push(r, typeof x === "boolean" ? x : [...x]);
}
const small = new Set([2]);
for (const m of ["intersection", "difference", "isSubsetOf", "isDisjointFrom", "isSupersetOf"]) {
  push(log, "== small " + m);
  const x = small[m](other);
  push(r, typeof x === "boolean" ? x : [...x]);
}
return [r, log];`,
		`[[[1,2,3,8],[2],[1,3],[1,3,8],false,false,false,[2],[],true,false,false],["== union","size","get has","get keys","keys()","get next","next","next","next","== intersection","size","get has","get keys","keys()","get next","next","next","next","== difference","size","get has","get keys","keys()","get next","next","next","next","== symmetricDifference","size","get has","get keys","keys()","get next","next","next","next","== isSubsetOf","size","get has","get keys","== isSupersetOf","size","get has","get keys","keys()","get next","next","next","== isDisjointFrom","size","get has","get keys","keys()","get next","next","== small intersection","size","get has","get keys","has 2","== small difference","size","get has","get keys","has 2","== small isSubsetOf","size","get has","get keys","has 2","== small isDisjointFrom","size","get has","get keys","has 2","== small isSupersetOf","size","get has","get keys"]]`},
	{"set_methods_live", `
const s = new Set([1, 2, 3]);
const r1 = s.intersection({ size: 10, has(v) { if (v === 1) { s.delete(2); s.add(4); } return true; }, keys() {} });
const s2 = new Set([1, 2, 3]);
const r2 = s2.difference({ size: 10, has(v) { if (v === 1) { s2.delete(2); s2.add(4); } return v === 3; }, keys() {} });
const s3 = new Set([1, 2, 3]);
const seen = [];
const r3 = s3.isSubsetOf({ size: 10, has(v) { push(seen, v); if (v === 1) { s3.delete(2); s3.add(4); } return true; }, keys() {} });
const s4 = new Set([1, 2]);
const r4 = s4.symmetricDifference({ size: 2, has() {}, keys() { let i = 0; return { next() { if (i === 0) { s4.delete(1); } return i < 2 ? { value: [1, 7][i++], done: false } : { done: true }; } }; } });
return [[...r1], [...r2], r3, seen, [...r4]];`,
		`[[1,3,4],[1,2],true,[1,3,4],[1,2,7]]`},
	{"set_methods_close", `
const log = [];
const mk = (ret) => ({ i: 0, next() { return { done: false, value: this.i++ }; }, return: ret });
return [
 t(() => new Set([1]).isSupersetOf({ size: 1, has() {}, keys() { return mk(() => { push(log, "ret"); return {}; }); } })),
 t(() => new Set([1]).isSupersetOf({ size: 1, has() {}, keys() { return mk(() => 5); } })),
 t(() => new Set([1, 2, 3]).isDisjointFrom({ size: 1, has() {}, keys() { return mk(() => { push(log, "ret2"); return {}; }); } })),
 t(() => new Set([1, 2, 3]).isDisjointFrom({ size: 1, has() {}, keys() { return mk(() => 5); } })),
 t(() => new Set([1, 2, 3]).isDisjointFrom({ size: 1, has() {}, keys() { return mk(() => { throw new Error("boom"); }); } })),
 log,
];`,
		`[false,"TypeError: return called on non-object",false,"TypeError: return called on non-object","Error: boom",["ret","ret2"]]`},
	{"set_subclass", `
class S extends Set { add(v) { return super.add("s" + v); } }
const s = new S([1, 2]);
return [[...s], s instanceof S, s.union(new Set([3])) instanceof S, [...s.union(new Set([3]))]];`,
		`[["s1","s2"],true,false,["s1","s2",3]]`},
	{"weak", `
const wm = new WeakMap();
const k1 = {}, k2 = [], k3 = function () {};
wm.set(k1, "one").set(k2, "two").set(k3, 3).set(Symbol.iterator, "sym");
const ws = new WeakSet([k1]);
return [
 wm.get(k1), wm.has(k2), wm.delete(k2), wm.has(k2), wm.get({}), wm.get(k3), wm.get(Symbol.iterator), wm.get(1), wm.has("x"), wm.delete(null),
 wm.getOrInsert(k1, 9), wm.getOrInsert(k2, 10), wm.getOrInsertComputed({}, (k) => typeof k),
 ws.has(k1), ws.has({}), ws.add(k2) === ws, ws.has(k2), ws.delete(k1), ws.has(k1), ws.has(1), ws.delete(1), ws.add(Symbol.iterator).has(Symbol.iterator),
 t(() => wm.set("str", 1)), t(() => wm.getOrInsert(1, 1)), t(() => wm.getOrInsertComputed(1, () => 1)), t(() => wm.getOrInsertComputed({}, 1)), t(() => wm.getOrInsertComputed(1, 1)),
 t(() => new WeakMap([[1, 2]])), t(() => new WeakMap([1])), t(() => ws.add(1)), t(() => new WeakSet([1])), t(() => WeakMap()), t(() => WeakSet()),
 t(() => WeakMap.prototype.get.call({}, {})), t(() => WeakSet.prototype.add.call(new WeakMap(), {})), t(() => WeakMap.prototype.set.call(new Map(), {}, 1)),
 new WeakSet(null) instanceof WeakSet, new WeakMap(undefined) instanceof WeakMap,
 Object.getOwnPropertyNames(WeakMap.prototype), Object.getOwnPropertyNames(WeakSet.prototype), Object.prototype.toString.call(wm), Object.prototype.toString.call(ws),
 [WeakMap.length, WeakSet.length, WeakMap.prototype.set.length, WeakSet.prototype.add.length],
];`,
		`["one",true,true,false,null,3,"sym",null,false,false,"one",10,"object",true,false,true,true,true,false,false,false,true,"TypeError: Invalid value used as weak map key","TypeError: Invalid value used as weak map key","TypeError: Invalid value used as weak map key","TypeError: WeakMap.prototype.getOrInsertComputed is not a function","TypeError: WeakMap.prototype.getOrInsertComputed is not a function","TypeError: Invalid value used as weak map key","TypeError: Iterator value 1 is not an entry object","TypeError: Invalid value used in weak set","TypeError: Invalid value used in weak set","TypeError: Constructor WeakMap requires 'new'","TypeError: Constructor WeakSet requires 'new'","TypeError: Method WeakMap.prototype.get called on incompatible receiver #<Object>","TypeError: Method WeakSet.prototype.add called on incompatible receiver #<WeakMap>","TypeError: Method WeakMap.prototype.set called on incompatible receiver #<Map>",true,true,["constructor","delete","get","set","has","getOrInsert","getOrInsertComputed"],["constructor","delete","has","add"],"[object WeakMap]","[object WeakSet]",[0,0,2,1]]`},
	{"weak_computed", `
const wm = new WeakMap();
const k = {};
const v = wm.getOrInsertComputed(k, () => { wm.set(k, 1); return 2; });
return [v, wm.get(k), wm.getOrInsertComputed(k, () => 3)];`,
		`[2,2,2]`},
	{"weak_adder", `
const log = [];
const mk = (vals) => ({ [Symbol.iterator]() { let i = 0; return { next() { return i < vals.length ? { value: vals[i++], done: false } : { done: true }; }, return() { push(log, "return"); return {}; } }; } });
return [t(() => new WeakMap(mk([[{}, 1], [1, 2]]))), t(() => new WeakSet(mk([{}, 1]))), log];`,
		`["TypeError: Invalid value used as weak map key","TypeError: Invalid value used in weak set",["return","return"]]`},
	{"iterator_ctor", `
class A extends Iterator { constructor() { super(); this.i = 0; } next() { return this.i < 3 ? { value: this.i++, done: false } : { done: true }; } }
const a = new A();
return [t(() => new Iterator()), t(() => Iterator()), t(() => Iterator.call({})), a instanceof Iterator, a.map((x) => x * 2).toArray(), Iterator.from(a) === a, typeof Iterator, Iterator.length, Iterator.name, Iterator.prototype === Object.getPrototypeOf(Object.getPrototypeOf([].values())), Object.getOwnPropertyNames(Iterator), Object.getOwnPropertyNames(Iterator.prototype)];`,
		`["TypeError: Abstract class Iterator not directly constructable","TypeError: Constructor Iterator requires 'new'","TypeError: Constructor Iterator requires 'new'",true,[0,2,4],true,"function",0,"Iterator",true,["length","name","prototype","from","concat"],["constructor","reduce","toArray","forEach","some","every","find","map","filter","take","drop","flatMap"]]`},
	{"iterator_proto_accessors", `
const d = Object.getOwnPropertyDescriptor(Iterator.prototype, "constructor");
const e = Object.getOwnPropertyDescriptor(Iterator.prototype, Symbol.toStringTag);
const o = Object.create(Iterator.prototype);
o.constructor = 5;
e.set.call(o, "Mine");
const od = Object.getOwnPropertyDescriptor(o, "constructor");
return [typeof d.get, typeof d.set, d.enumerable, d.configurable, d.get.name, d.set.name, e.get.name, e.set.name, Iterator.prototype.constructor === Iterator, Iterator.prototype[Symbol.toStringTag],
 t(() => { Iterator.prototype.constructor = 1; }), t(() => e.set.call(Iterator.prototype, "x")), t(() => e.set.call(undefined, "x")), t(() => d.set.call(1, 2)),
 od, Object.prototype.toString.call(o), Object.prototype.toString.call(Object.create(Iterator.prototype)), Iterator.prototype.constructor === Iterator, "" + Iterator.prototype[Symbol.toStringTag]];`,
		`["function","function",false,true,"get constructor","set constructor","get [Symbol.toStringTag]","set [Symbol.toStringTag]",true,"Iterator","TypeError: Cannot assign to read only property 'constructor' of object '[object Object]'","TypeError: Cannot assign to read only property 'Symbol(Symbol.toStringTag)' of object '[object Object]'","TypeError: set Iterator.prototype[Symbol.toStringTag] called on non-object","TypeError: set Iterator.prototype.constructor called on non-object",{"value":5,"writable":true,"enumerable":true,"configurable":true},"[object Mine]","[object Iterator]",true,"Iterator"]`},
	{"helpers_errors", `
const mkc = (log) => ({ next() { return { done: true }; }, return() { push(log, "ret"); return {}; }, __proto__: Iterator.prototype });
const log = [];
const it = mkc(log);
return [
 t(() => [1].values().take(-1)), t(() => [1].values().take(NaN)), t(() => [1].values().take("x")), t(() => [1].values().take()), t(() => [1].values().take({})),
 t(() => [1].values().take([1, 2])), t(() => [1].values().take(-Infinity)), t(() => [1].values().take(-0.5).toArray()), t(() => [1].values().take("-2")),
 t(() => [1].values().drop(-1)), t(() => [1].values().drop(NaN)), t(() => [1].values().take(Symbol.iterator)),
 t(() => [1].values().map(1)), t(() => [1].values().map()), t(() => [1].values().filter({})), t(() => [1].values().flatMap(null)),
 t(() => [].values().reduce((a, b) => a)), t(() => [].values().reduce(1)), t(() => [1].values().forEach()), t(() => [1].values().some()), t(() => [1].values().every(1)), t(() => [1].values().find("f")),
 t(() => Iterator.prototype.map.call(1, (x) => x)), t(() => Iterator.prototype.toArray.call(null)), t(() => Iterator.prototype.toArray.call("abc")), t(() => Iterator.prototype.map.call({}, (x) => x).next()),
 t(() => Iterator.prototype.reduce.call(undefined, (x) => x)), t(() => Iterator.prototype.take.call(true, 1)),
 t(() => it.take(-1)), t(() => it.map(1)), t(() => it.drop(NaN)), t(() => it.reduce()), t(() => it.some(null)), log,
];`,
		`["RangeError: -1 must be positive","RangeError: NaN must be positive","RangeError: x must be positive","RangeError: undefined must be positive","RangeError: #<Object> must be positive","RangeError: [object Array] must be positive","RangeError: -Infinity must be positive",[],"RangeError: -2 must be positive","RangeError: -1 must be positive","RangeError: NaN must be positive","TypeError: Cannot convert a Symbol value to a number","TypeError: number 1 is not a function","TypeError: undefined is not a function","TypeError: object is not a function","TypeError: Iterator.prototype.flatMap is not a function","TypeError: Reduce of a done iterator with no initial value","TypeError: number 1 is not a function","TypeError: undefined is not a function","TypeError: undefined is not a function","TypeError: number 1 is not a function","TypeError: string \"f\" is not a function","TypeError: Iterator.prototype.map called on non-object","TypeError: Iterator.prototype.toArray called on non-object","TypeError: Iterator.prototype.toArray called on non-object","TypeError: undefined is not a function","TypeError: Iterator.prototype.reduce called on non-object","TypeError: Iterator.prototype.take called on non-object","RangeError: -1 must be positive","TypeError: number 1 is not a function","RangeError: NaN must be positive","TypeError: undefined is not a function","TypeError: object null is not a function",["ret","ret","ret","ret","ret"]]`},
	{"helpers_next_read_order", `
const log = [];
const it = { get next() { push(log, "get next"); return () => ({ done: true }); }, __proto__: Iterator.prototype };
it.map((x) => x); it.take(1); it.drop(0); it.filter(Boolean); it.flatMap((x) => x); it.toArray(); it.forEach(() => {}); it.some(() => {}); it.every(() => {}); it.find(() => {}); it.reduce(() => {}, 0);
push(log, t(() => it.reduce(() => {})));
return log;`,
		`["get next","get next","get next","get next","get next","get next","get next","get next","get next","get next","get next","get next","TypeError: Reduce of a done iterator with no initial value"]`},
	{"helpers_lazy", `
function* nat() { let n = 0; while (true) yield n++; }
const log = [];
const h = nat().map((x) => { push(log, "map " + x); return x * 2; }).filter((x) => { push(log, "filter " + x); return x % 3 === 0; });
push(log, "made");
const a = h.next();
const b = h.next();
return [a, b, log, nat().drop(5).take(3).toArray(), nat().take(0).toArray(), nat().drop(2.7).take(1).toArray(), [1, 2, 3].values().drop(Infinity).toArray(), [1, 2].values().take(Infinity).toArray()];`,
		`[{"value":0,"done":false},{"value":6,"done":false},["made","map 0","filter 0","map 1","filter 2","map 2","filter 4","map 3","filter 6"],[5,6,7],[],[2],[],[1,2]]`},
	{"helpers_indices", `
const r = [];
["a", "b", "c"].values().map((v, i) => push(r, "m" + v + i)).toArray();
["a", "b", "c"].values().filter((v, i) => push(r, "f" + v + i)).toArray();
["a", "b"].values().flatMap((v, i) => { push(r, "fm" + v + i); return [v, v]; }).toArray();
["a", "b"].values().forEach((v, i) => push(r, "fe" + v + i));
["a", "b"].values().some((v, i) => { push(r, "s" + v + i); });
["a", "b"].values().every((v, i) => { push(r, "e" + v + i); return true; });
["a", "b"].values().find((v, i) => { push(r, "fd" + v + i); });
push(r, ["a", "b", "c"].values().reduce((acc, v, i) => acc + v + i), ["a", "b", "c"].values().reduce((acc, v, i) => acc + v + i, ">"));
const args = [];
[5].values().map(function () { push(args, arguments.length, this === undefined); }).toArray();
return [r, args];`,
		`[["ma0","mb1","mc2","fa0","fb1","fc2","fma0","fmb1","fea0","feb1","sa0","sb1","ea0","eb1","fda0","fdb1","ab1c2",">a0b1c2"],[2,true]]`},
	{"helpers_close", `
const log = [];
const src = (name, n) => { let i = 0; return { next() { push(log, name + " next"); return i < n ? { value: i++, done: false } : { done: true }; }, return() { push(log, name + " return"); return {}; }, __proto__: Iterator.prototype }; };
push(log, "some " + src("a", 5).some((x) => x === 1));
push(log, "every " + src("b", 5).every((x) => x < 1));
push(log, "find " + src("c", 5).find((x) => x === 2));
push(log, "nofind " + src("d", 2).find((x) => x === 9));
push(log, src("e", 5).take(2).toArray());
push(log, t(() => src("f", 5).map((x) => { throw new Error("mapper"); }).next()));
push(log, t(() => src("g", 5).filter((x) => { throw new Error("pred"); }).next()));
push(log, t(() => src("h", 5).forEach((x) => { throw new Error("fe"); })));
push(log, t(() => src("i", 5).reduce((x) => { throw new Error("red"); })));
push(log, t(() => src("j", 5).flatMap((x) => 5).next()));
push(log, t(() => src("k", 5).flatMap((x) => ({ [Symbol.iterator]() { return 1; } })).next()));
push(log, t(() => src("l", 5).flatMap((x) => ({ [Symbol.iterator]: 1 })).next()));
push(log, t(() => src("m", 5).flatMap((x) => ({ next() { throw new Error("inner next"); } })).next()));
return log;`,
		`["a next","a next","a return","some true","b next","b next","b return","every false","c next","c next","c next","c return","find 2","d next","d next","d next","nofind undefined","e next","e next","e return",[0,1],"f next","f return","Error: mapper","g next","g return","Error: pred","h next","h return","Error: fe","i next","i next","i return","Error: red","j next","j return","TypeError: Iterator.prototype.flatMap called on non-object","k next","k return","TypeError: #<Object> is not iterable","l next","l return","TypeError: '1' returned for property 'Symbol(Symbol.iterator)' of object '#<Object>' is not a function","m next","m return","Error: inner next"]`},
	{"helpers_return", `
const log = [];
const src = (name, ret) => ({ i: 0, next() { return { value: this.i++, done: false }; }, return: ret === undefined ? () => { push(log, name + " return"); return {}; } : ret, __proto__: Iterator.prototype });
const h1 = src("a").map((x) => x);
push(log, [h1.return(), h1.next(), h1.return()]);
const h2 = src("b").filter((x) => true);
h2.next();
push(log, h2.return(), h2.next());
push(log, t(() => { const h = src("c", () => 5).map((x) => x); h.next(); return h.return(); }));
push(log, t(() => src("d", () => 5).map((x) => x).return()));
push(log, t(() => src("e", () => { throw new Error("ret throws"); }).take(1).return()));
const inner = { next() { return { done: false, value: 1 }; }, return() { push(log, "inner return"); return {}; }, [Symbol.iterator]() { return this; } };
const h3 = src("outer").flatMap(() => inner);
h3.next();
h3.return();
const badInner = { next() { return { done: false, value: 1 }; }, return() { throw new Error("inner throws"); }, [Symbol.iterator]() { return this; } };
const h4 = src("outer2").flatMap(() => badInner);
h4.next();
push(log, t(() => h4.return()));
push(log, h4.next());
const h5 = src("noret", null).map((x) => x);
push(log, h5.return());
return log;`,
		`["a return",[{"done":true},{"done":true},{"done":true}],"b return",{"done":true},{"done":true},"TypeError: return called on non-object","TypeError: return called on non-object","Error: ret throws","inner return","outer return","outer2 return","Error: inner throws",{"done":true},{"done":true}]`},
	{"helpers_running", `
let h;
h = [1, 2].values().map((x) => h.next());
let g;
g = [1, 2].values().map((x) => g.return());
const r = [t(() => h.next()), t(() => g.next()), h.next(), g.next()];
const p = Object.getPrototypeOf([].values().map((x) => x));
push(r, t(() => p.next.call({})), t(() => p.return.call({})), t(() => p.next.call([].values())), Object.getOwnPropertyNames(p), p[Symbol.toStringTag], Object.prototype.toString.call([].values().map((x) => x)), p.next.name, p.return.length);
const h2 = [1].values().map((x) => { throw 1; });
push(r, t(() => h2.next()), h2.next());
return r;`,
		`["TypeError: Generator is already running","TypeError: Generator is already running",{"done":true},{"done":true},"TypeError: Method Iterator Helper.prototype.next called on incompatible receiver #<Object>","TypeError: Method Iterator Helper.prototype.return called on incompatible receiver #<Object>","TypeError: Method Iterator Helper.prototype.next called on incompatible receiver [object Array Iterator]",["next","return"],"Iterator Helper","[object Iterator Helper]","next",0,"undefined: undefined",{"done":true}]`},
	{"helpers_flatmap", `
return [
 [1, 2].values().flatMap((x) => [x, x * 10]).toArray(),
 [1, 2].values().flatMap((x) => new Set([x])).toArray(),
 [1, 2].values().flatMap((x) => new Map([[x, x]])).toArray(),
 t(() => ["ab"].values().flatMap((x) => x).toArray()),
 [1].values().flatMap((x) => ({ i: 0, next() { return this.i < 2 ? { value: this.i++, done: false } : { done: true }; } })).toArray(),
 [1].values().flatMap((x) => ({ [Symbol.iterator]: null, i: 0, next() { return this.i < 1 ? { value: "n" + this.i++, done: false } : { done: true }; } })).toArray(),
 [1, 2, 3].values().flatMap((x) => []).toArray(),
];`,
		`[[1,10,2,20],[1,2],[[1,1],[2,2]],"TypeError: Iterator.prototype.flatMap called on non-object",[0,1],["n0"],[]]`},
	{"iterator_from", `
const plain = { i: 0, next() { return this.i < 2 ? { value: this.i++, done: false } : { done: true }; } };
const w = Iterator.from(plain);
const wp = Object.getPrototypeOf(w);
const withRet = Iterator.from({ next() { return { done: true }; }, return(x) { return { value: "r", args: arguments.length }; } });
return [
 w.toArray(), Object.prototype.toString.call(w), Object.getOwnPropertyNames(wp), Object.getPrototypeOf(wp) === Iterator.prototype,
 Iterator.from([1, 2]).toArray(), Iterator.from(new Set([3])).toArray(),
 t(() => Iterator.from(1)), t(() => Iterator.from(null)), t(() => Iterator.from()), Object.prototype.toString.call(Iterator.from({})), t(() => Iterator.from({ next: 1 }).next()),
 t(() => Iterator.from({ [Symbol.iterator]: 1 })), t(() => Iterator.from({ [Symbol.iterator]() { return 1; } })), Iterator.from({ [Symbol.iterator]: null, next() { return { done: true }; } }).toArray(),
 Iterator.from({ next() { return { done: true }; } }).return(), withRet.return(5), t(() => Iterator.from({ next() {}, return: 5 }).return()), Iterator.from({ next() { return 42; } }).next(),
 t(() => wp.next.call({})), t(() => wp.return.call({})), (() => { const h = [1].values().map((x) => x); return Iterator.from(h) === h; })(),
 t(() => Iterator.from({ next() { return "abc"; } }).toArray()), t(() => Iterator.from({ next() { return null; } }).toArray()), t(() => Iterator.from({ next() {} }).toArray()),
];`,
		`[[0,1],"[object Iterator]",["next","return"],true,[1,2],[3],"TypeError: Iterator.from called on non-object","TypeError: Iterator.from called on non-object","TypeError: Iterator.from called on non-object","[object Iterator]","TypeError: number 1 is not a function","TypeError: '1' returned for property 'Symbol(Symbol.iterator)' of object '#<Object>' is not a function","TypeError: #<Object> is not iterable",[],{"done":true},{"value":"r","args":0},"TypeError: '5' returned for property 'return' of object '#<Object>' is not a function",42,"TypeError: Method %WrapForValidIteratorPrototype%.next called on incompatible receiver #<Object>","TypeError: Method %WrapForValidIteratorPrototype%.return called on incompatible receiver #<Object>",true,"TypeError: Iterator result abc is not an object","TypeError: Iterator result null is not an object","TypeError: Iterator result undefined is not an object"]`},
	{"iterator_concat", `
const log = [];
const c = Iterator.concat([1, 2], new Set([3]), ["a", "b"], { [Symbol.iterator]() { push(log, "open"); return [4].values(); } });
push(log, "made");
const r = c.toArray();
const c2 = Iterator.concat([1], [2]);
const first = c2.next();
const ret = c2.return();
const inner = { next() { return { value: 1, done: false }; }, return() { push(log, "inner return"); return {}; } };
const c3 = Iterator.concat({ [Symbol.iterator]() { return inner; } });
c3.next(); c3.return();
return [r, log, first, ret, c2.next(), Iterator.concat().toArray(), Iterator.concat.length,
 t(() => Iterator.concat(1)), t(() => Iterator.concat({})), t(() => Iterator.concat("ab")), t(() => Iterator.concat({ [Symbol.iterator]: 1 })), t(() => Iterator.concat({ [Symbol.iterator]() { return 1; } }).next()),
 Object.prototype.toString.call(Iterator.concat()), (() => { const h = Iterator.concat([1]); return [h.return(), h.next()]; })()];`,
		`[[1,2,3,"a","b",4],["made","open","inner return"],{"value":1,"done":false},{"done":true},{"done":true},[],0,"TypeError: Iterator.concat called on non-object","TypeError: #<Object> is not iterable","TypeError: Iterator.concat called on non-object","TypeError: '1' returned for property 'Symbol(Symbol.iterator)' of object '#<Object>' is not a function","TypeError: 1 is not iterable","[object Iterator Helper]",[{"done":true},{"done":true}]]`},
	{"misc_describe", `
class Foo {}
const vals = [new Foo(), Object.create(null), new Error("e"), new TypeError("te"), Promise.resolve(), { a: 1 }, 1.5, -0, NaN, [1].values(), new Map().keys(), Iterator.prototype, new WeakSet(), [1,2]];
const res = [];
for (const v of vals) push(res, t(() => Map.prototype.get.call(v)));
return res;`,
		`["TypeError: Method Map.prototype.get called on incompatible receiver #<Foo>","TypeError: Method Map.prototype.get called on incompatible receiver [object Object]","TypeError: Method Map.prototype.get called on incompatible receiver Error: e","TypeError: Method Map.prototype.get called on incompatible receiver TypeError: te","TypeError: Method Map.prototype.get called on incompatible receiver #<Promise>","TypeError: Method Map.prototype.get called on incompatible receiver #<Object>","TypeError: Method Map.prototype.get called on incompatible receiver 1.5","TypeError: Method Map.prototype.get called on incompatible receiver 0","TypeError: Method Map.prototype.get called on incompatible receiver NaN","TypeError: Method Map.prototype.get called on incompatible receiver [object Array Iterator]","TypeError: Method Map.prototype.get called on incompatible receiver [object Map Iterator]","TypeError: Method Map.prototype.get called on incompatible receiver [object Object]","TypeError: Method Map.prototype.get called on incompatible receiver #<WeakSet>","TypeError: Method Map.prototype.get called on incompatible receiver [object Array]"]`},
	{"spread_and_forof", `
const m = new Map([["a", 1], ["b", 2]]);
const s = new Set(["x", "y"]);
const out = [];
for (const [k, v] of m) { push(out, k + v); if (k === "a") m.set("c", 3); }
for (const v of s) { push(out, v); if (v === "x") s.delete("y"); }
return [out, [...m.values()], [...s.entries()], [...new Set([1, 1, 2])]];`,
		`[["a1","b2","c3","x"],[1,2,3],[["x","x"]],[1,2]]`},
	{"map_keys_of_all_kinds", `
const m = new Map();
const o = {}, f = () => 1, a = [];
m.set(o, 1).set(f, 2).set(a, 3).set(null, 4).set(undefined, 5).set(true, 6).set("true", 7).set(1, 8).set("1", 9).set(Symbol.iterator, 10);
return [m.size, m.get(o), m.get(f), m.get(a), m.get(null), m.get(undefined), m.get(true), m.get("true"), m.get(1), m.get("1"), m.get(Symbol.iterator), m.get(1.0), m.has(false), m.get("tr" + "ue")];`,
		`[10,1,2,3,4,5,6,7,8,9,10,8,false,7]`},
	{"map_delete_readd_order", `
const m = new Map([["a", 1], ["b", 2], ["c", 3]]);
m.delete("a");
m.set("a", 4);
m.set("b", 5);
const out = [];
for (const [k, v] of m) push(out, k + v);
return out;`,
		`["b5","c3","a4"]`},
	{"map_reentrant_set_in_foreach", `
const m = new Map([[0, 0]]);
const seen = [];
m.forEach((v, k) => { push(seen, k); if (k < 5) m.set(k + 1, 0); });
return [seen, m.size];`,
		`[[0,1,2,3,4,5],6]`},
	{"set_reentrant_delete_all", `
const s = new Set([1, 2, 3, 4]);
const seen = [];
for (const v of s) { push(seen, v); s.clear(); if (v === 1) s.add(10); }
return seen;`,
		`[1,10]`},
	{"iterators_toArray_of_collections", `
const m = new Map([["a", 1], ["b", 2]]);
const s = new Set(["x"]);
return [m.keys().toArray(), m.values().toArray(), m.entries().toArray(), s.values().toArray(), s.entries().toArray(), m.entries().filter(([, v]) => v > 1).map(([k]) => k).toArray()];`,
		`[["a","b"],[1,2],[["a",1],["b",2]],["x"],[["x","x"]],["b"]]`},
	{"helpers_on_generator_close", `
const log = [];
function* g() { try { yield 1; yield 2; yield 3; } finally { push(log, "closed"); } }
const r1 = g().take(2).toArray();
const r2 = g().find((x) => x === 2);
const r3 = g().some((x) => x === 1);
const r4 = g().every((x) => x < 2);
const it = g().map((x) => x * 10);
const r5 = [it.next().value, it.return(), it.next()];
const r6 = t(() => g().map((x) => { throw new Error("boom " + x); }).toArray());
return [r1, r2, r3, r4, r5, r6, log];`,
		`[[1,2],2,true,false,[10,{"done":true},{"done":true}],"Error: boom 1",["closed","closed","closed","closed","closed","closed"]]`},
	{"helpers_chain_laziness", `
const log = [];
const src = { i: 0, next() { push(log, "next " + this.i); return this.i < 4 ? { value: this.i++, done: false } : { done: true }; }, __proto__: Iterator.prototype };
const h = src.drop(1).filter((x) => x % 2 === 1).map((x) => x * 100).take(1);
push(log, "built");
const v = h.toArray();
return [v, log];`,
		`[[100],["built","next 0","next 1"]]`},
	{"helpers_value_getter", `
const log = [];
const src = { i: 0, next() { const i = this.i++; return { get done() { push(log, "done " + i); return i >= 3; }, get value() { push(log, "value " + i); return i; } }; }, __proto__: Iterator.prototype };
const r = src.drop(2).toArray();
return [r, log];`,
		`[[2],["done 0","done 1","done 2","value 2","done 3"]]`},
	{"iterator_from_wrap_next_args", `
const seen = [];
const w = Iterator.from({ next(...args) { push(seen, args.length); return { done: true }; } });
w.next(1, 2);
return [seen, w.next()];`,
		`[[0,0],{"done":true}]`},
	{"map_set_from_iterator_helper", `
const h = [1, 2, 3].values().map((x) => [x, x * x]);
const m = new Map(h);
const s = new Set([1, 2, 2, 3].values().filter((x) => x > 1));
return [[...m], [...s]];`,
		`[[[1,1],[2,4],[3,9]],[2,3]]`},
	{"groupby_objects_as_keys", `
const a = { id: 1 }, b = { id: 2 };
const items = [{ k: a, v: 1 }, { k: b, v: 2 }, { k: a, v: 3 }];
const g = Map.groupBy(items, (x) => x.k);
return [g.size, g.get(a).length, g.get(b)[0].v, g.get({ id: 1 })];`,
		`[2,2,2,null]`},
	{"set_methods_same_set", `
const s = new Set([1, 2, 3]);
return [[...s.union(s)], [...s.intersection(s)], [...s.difference(s)], [...s.symmetricDifference(s)], s.isSubsetOf(s), s.isSupersetOf(s), s.isDisjointFrom(s), s.isDisjointFrom(new Set())];`,
		`[[1,2,3],[1,2,3],[],[],true,true,false,true]`},
	{"set_methods_empty_and_infinite_size", `
const inf = { size: Infinity, has: (v) => v === 2, keys() { throw new Error("keys called"); } };
const s = new Set([1, 2]);
return [[...s.intersection(inf)], [...s.difference(inf)], s.isSubsetOf(inf), t(() => s.isSupersetOf(inf)), s.isDisjointFrom(inf), t(() => [...s.union(inf)]), t(() => [...s.symmetricDifference(inf)])];`,
		`[[2],[1],false,false,false,"Error: keys called","Error: keys called"]`},
	{"set_methods_arg_validation_order", `
const log = [];
const o = { get size() { push(log, "size"); return { valueOf() { push(log, "valueOf"); return 1; } }; }, get has() { push(log, "has"); return 1; }, get keys() { push(log, "keys"); return () => 1; } };
return [t(() => new Set().union(o)), log];`,
		`["TypeError: string \"has\" is not a function",["size","valueOf","has"]]`},
	{"weak_values_any", `
const wm = new WeakMap();
const k = {};
wm.set(k, undefined);
return [wm.has(k), wm.get(k), wm.getOrInsert(k, 5), wm.delete(k), wm.delete(k), wm.getOrInsert(k, 6)];`,
		`[true,null,null,true,false,6]`},
	{"iterator_setter_frozen", `
const o = Object.freeze(Object.create(Iterator.prototype));
const d = Object.getOwnPropertyDescriptor(Iterator.prototype, "constructor");
const e = Object.getOwnPropertyDescriptor(Iterator.prototype, Symbol.toStringTag);
const p = Object.create(Iterator.prototype);
Object.defineProperty(p, "constructor", { value: 1, writable: false, configurable: true });
const q = Object.create(Iterator.prototype);
d.set.call(q, 1);
d.set.call(q, 2);
return [t(() => d.set.call(o, 1)), t(() => e.set.call(o, 1)), t(() => d.set.call(p, 2)), q.constructor, Object.keys(q)];`,
		`["TypeError: Cannot define property constructor, object is not extensible","TypeError: Cannot define property Symbol(Symbol.toStringTag), object is not extensible","TypeError: Cannot assign to read only property 'constructor' of object '[object Object]'",2,["constructor"]]`},
	{"helpers_deep_chains", `
let it = [1, 2].values();
for (let i = 0; i < 5000; i++) it = it.map((x) => x + 1);
let deep = [1, 2].values();
for (let i = 0; i < 20000; i++) deep = deep.map((x) => x);
let deep2 = [1, 2].values();
for (let i = 0; i < 20000; i++) deep2 = deep2.filter((x) => x);
return [it.toArray(), t(() => deep.next()), t(() => deep2.return()), [5].values().map((x) => x * 2).toArray()];`,
		`[[5001,5002],"RangeError: Maximum call stack size exceeded","RangeError: Maximum call stack size exceeded",[10]]`},
}

func TestCollections(t *testing.T) {
	rt, err := codemode.New(codemode.Options{Limits: codemode.Limits{Timeout: 10 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := rt.Execute(context.Background(), prelude+c.code)
			got, _ := res.MarshalJSON()
			want := `{"ok":true,"value":` + c.want + `,"toolCalls":[]}`
			if !sameJSON(got, []byte(want)) {
				t.Errorf("program:%s\ngot:  %s\nwant: %s", c.code, got, want)
			}
		})
	}
}

// sameJSON compares two JSON texts after compaction: key order matters.
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
