// Package numeric is the numeric area of codemode's standard library:
// Number (its constructor, statics and prototype), Math, and Date.
//
// Number formatting and parsing come from internal/jsnum and the Date
// algorithms from internal/jsdate; both reproduce V8 exactly. Date is
// deterministic: the local time zone is UTC and locale output is en-US.
package numeric

import (
	"github.com/go-codemode/codemode/value"
)

// Install adds Number, Math and Date to a library.
func Install(l *value.Library) {
	installNumber(l)
	installMath(l)
	installDate(l)
}

// native builds a built-in function description.
func native(name string, length int, fn value.NativeFunc) *value.Native {
	return &value.Native{Name: name, Length: length, Fn: fn}
}

// receiverString renders a bad receiver the way V8's "called on
// incompatible receiver X" messages do: primitives as their string, arrays
// as [object Array], ordinary objects as #<Constructor>.
func receiverString(r *value.Realm, v value.Value) string {
	o := v.AsObject()
	if o == nil {
		if s := v.AsSymbol(); s != nil {
			return "Symbol(" + s.Description + ")"
		}
		s, _ := v.ToString()
		return s.String()
	}
	switch {
	case o.Callable():
		return r.Describe(v)
	case o.Class == value.ClassArray:
		return "[object Array]"
	case o.Proto == nil:
		return "[object Object]"
	}
	return "#<" + constructorName(r, o) + ">"
}

// constructorName finds the name of an object's constructor without
// running program code (only data properties are read), as V8's class
// name lookup does; "Object" when there is none.
func constructorName(r *value.Realm, o *value.Object) string {
	p, _ := o.Lookup("constructor")
	if p != nil && !p.IsAccessor() {
		if f := p.Value.AsObject(); f != nil && f.Callable() {
			if n := r.FunctionName(f); n != "" {
				return n
			}
		}
	}
	return "Object"
}
