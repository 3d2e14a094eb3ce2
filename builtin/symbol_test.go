package builtin_test

import (
	"context"
	"testing"

	"github.com/go-codemode/codemode"
)

// TestSymbolAndWrapperIntrinsics: the shapes of Symbol, its prototype,
// the wrapper prototypes (each a wrapper of its kind's zero value) and
// the Symbol.toPrimitive methods, as node has them; bound functions
// construct as their targets do; each intrinsic exists once per run.
func TestSymbolAndWrapperIntrinsics(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"symbol_ctor", `const d = (o, k) => { const p = Object.getOwnPropertyDescriptor(o, k); return [p.writable, p.enumerable, p.configurable]; };
return [Symbol.length, Symbol.name, Symbol.prototype.constructor === Symbol, d(Symbol, "iterator"), d(Symbol, "prototype"), d(Symbol.prototype, Symbol.toPrimitive), Symbol.prototype[Symbol.toPrimitive].name, Symbol.prototype[Symbol.toPrimitive].length, d(Symbol.prototype, Symbol.toStringTag), Symbol.for.length, Symbol.keyFor.length, typeof Object.getOwnPropertyDescriptor(Symbol.prototype, "description").get];`,
			`[0,"Symbol",true,[false,false,false],[false,false,false],[false,false,true],"[Symbol.toPrimitive]",1,[false,false,true],1,1,"function"]`},
		{"prototypes_are_wrappers", `return [Boolean.prototype.valueOf(), Number.prototype.valueOf(), String.prototype.valueOf(), String.prototype.length, Object.prototype.toString.call(Boolean.prototype), Object.prototype.toString.call(Number.prototype), Object.prototype.toString.call(String.prototype), Object.prototype.toString.call(Symbol.prototype)];`,
			`[false,0,"",0,"[object Boolean]","[object Number]","[object String]","[object Symbol]"]`},
		{"date_to_primitive", `const p = Object.getOwnPropertyDescriptor(Date.prototype, Symbol.toPrimitive);
return [p.writable, p.enumerable, p.configurable, p.value.name, p.value.length, Date.prototype[Symbol.toPrimitive].call({ toString() { return "s"; }, valueOf() { return 1; } }, "default")];`,
			`[false,false,true,"[Symbol.toPrimitive]",1,"s"]`},
		{"bound_constructors", `const b = Math.max.bind(null);
class A {}
const B = A.bind(null);
let err;
try { new b(); } catch (e) { err = e.name; }
return [err, new B() instanceof A, Array.of.call(b, 1, 2), Array.from.call(b, [3]).length];`,
			`["TypeError",true,[1,2],1]`},
		{"intrinsics_once", `function f() {}
return [Object.getPrototypeOf(Number) === Function.prototype, Object.getPrototypeOf(String) === Object.getPrototypeOf(f), Function.prototype.isPrototypeOf(Boolean), Object.getPrototypeOf(Math.max) === Function.prototype];`,
			`[true,true,true,true]`},
	}
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := rt.Execute(context.Background(), tt.src)
			if !res.OK || string(res.Value) != tt.want {
				t.Errorf("got  %s\nwant value %s", res, tt.want)
			}
		})
	}
}
