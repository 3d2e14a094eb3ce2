// Package json is the JSON object of codemode's standard library:
// JSON.parse (with a reviver) and JSON.stringify (replacer, indent,
// toJSON), with V8's messages.
//
// JSON.parse parses with value.ParseJSON, which never runs program code,
// and then, when there is a reviver, walks the result as the
// specification's InternalizeJSONProperty does, calling the reviver
// through the realm.
//
// JSON.stringify has two paths that give byte-identical text. The data
// path (value.StringifyData) writes plain objects, arrays and primitives
// without running any program code; the general path (stringify.go)
// follows SerializeJSONProperty step by step, running getters, toJSON
// methods and the replacer, and applies the reference's rules for the
// values codemode treats specially (an Error as {name, message, ...own},
// Headers as {name: value}, a Promise as a TypeError). A scan
// (fastpath.go) decides which path a value takes.
package json

import (
	"errors"
	"strconv"
	"strings"

	"github.com/go-codemode/codemode/value"
)

// Install adds the JSON global to a library.
func Install(l *value.Library) {
	l.Intrinsic(value.JSONObject, value.IntrinsicSpec{Name: "JSON",
		Init: func(r *value.Realm, o *value.Object) {
			r.Methods(o, natives)
			o.Define(value.SymToStringTag.Key(), value.StrOf("JSON"), value.Configurable)
		}})
	l.GlobalIntrinsic("JSON", value.JSONObject)
	l.Register(natives...)
}

var natives = []*value.Native{
	{Name: "JSON.parse", Length: 2, Fn: parse},
	{Name: "JSON.stringify", Length: 3, Fn: stringify},
}

// parse is JSON.parse(text, reviver).
func parse(r *value.Realm, c *value.Call) value.Value {
	text := r.ToString(c.Arg(0))
	protos := value.JSONProtos{Object: r.Intrinsic(value.ObjectPrototype), Array: r.Intrinsic(value.ArrayPrototype)}
	// The scan is about a nanosecond a character; the Meter ticks per
	// value parsed and per byte allocated besides.
	r.Tick(text.Len() / 16)
	v, err := value.ParseJSON(text, protos, func(n int) error {
		r.Charge(n)
		r.Tick(1 + n/16)
		return nil
	})
	if err != nil {
		var je *value.JSONError
		if errors.As(err, &je) {
			r.ThrowError(value.SyntaxError, "%s", parseMessage(text, je.Message))
		}
		r.ThrowError(value.SyntaxError, "%s", err.Error())
	}
	reviver := c.Arg(1)
	if f := reviver.AsObject(); f == nil || !f.Callable() {
		return v
	}
	root := r.NewPlainObject()
	root.Put("", v)
	w := &reviverWalk{r: r, reviver: reviver}
	return w.internalize(value.Obj(root), "", 0)
}

// parseMessage is V8's wording of a parse error. V8 words an unexpected
// token differently when the whole text is one of the strings a careless
// conversion makes (JSON.parse({}) parses "[object Object]").
func parseMessage(text *value.String, msg string) string {
	if strings.HasPrefix(msg, "Unexpected token ") && text.Len() <= 15 {
		switch t := text.String(); t {
		case "[object Object]", "undefined", "Infinity", "NaN":
			return `"` + t + `" is not valid JSON`
		}
	}
	return msg
}

// reviverWalk is InternalizeJSONProperty: each value is revived after
// its members, with its holder as `this`.
type reviverWalk struct {
	r       *value.Realm
	reviver value.Value
}

// internalize revives holder[key]. depth bounds the recursion: the
// reviver can make the structure deeper (or circular) as it goes, and V8
// stops such a walk with a stack overflow.
func (w *reviverWalk) internalize(holder value.Value, key string, depth int) value.Value {
	r := w.r
	poll(r)
	val := r.Get(holder, key)
	if o := val.AsObject(); o != nil {
		if depth >= value.MaxJSONDepth {
			r.ThrowRange("Maximum call stack size exceeded")
		}
		r.Enter() // the reviver runs the program below
		defer r.Leave()
		if o.Class == value.ClassArray {
			n := r.LengthOf(val)
			for i := 0; i < n; i++ {
				k := strconv.Itoa(i)
				w.revise(o, k, w.internalize(val, k, depth+1))
			}
		} else {
			for _, k := range r.OwnKeys(o, true, false) {
				w.revise(o, k, w.internalize(val, k, depth+1))
			}
		}
	}
	return r.Call(w.reviver, holder, []value.Value{value.StrOf(key), val})
}

// revise stores a revived member: undefined deletes it, anything else is
// CreateDataProperty. Failures are ignored, as the specification says.
func (w *reviverWalk) revise(o *value.Object, key string, v value.Value) {
	if v.IsUndefined() {
		w.r.DeleteProp(o, key)
		return
	}
	w.r.DefineProperty(o, value.Property{Key: key, Value: v, Flags: value.DefaultFlags})
}

// poll lets the deadline interrupt a long walk.
func poll(r *value.Realm) {
	if r.Agent != nil {
		r.Poll()
	}
}
