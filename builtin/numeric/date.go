package numeric

import (
	"math"
	"time"

	"github.com/go-codemode/codemode/internal/jsdate"
	"github.com/go-codemode/codemode/value"
)

// Date, deterministic: local time is UTC, locale strings are en-US, and
// toString is the ISO form (reference 2.9). The algorithms are
// internal/jsdate's; this file is the JavaScript surface: argument
// conversion in the specification's order, receivers, and V8's messages.

// dateSlot is the [[DateValue]] of a Date object (its Internal).
type dateSlot struct{ t float64 }

// DateValue returns the time value of a Date object (NaN for an invalid
// date), and false for anything that is not a Date.
func DateValue(v value.Value) (float64, bool) {
	if o := v.AsObject(); o != nil && o.Class == value.ClassDate {
		if d, ok := o.Internal.(*dateSlot); ok {
			return d.t, true
		}
	}
	return 0, false
}

// NewDate makes a Date object holding the time value t (which is clipped
// as every stored time value is).
func NewDate(r *value.Realm, t float64) *value.Object {
	return newDateWithProto(r, r.Intrinsic(value.DatePrototype), t)
}

func newDateWithProto(r *value.Realm, proto *value.Object, t float64) *value.Object {
	r.Charge(96)
	o := value.NewObject(proto)
	o.Class = value.ClassDate
	o.Internal = &dateSlot{jsdate.TimeClip(t)}
	return o
}

// now is the current time value.
func now() float64 { return float64(time.Now().UnixMilli()) }

func installDate(l *value.Library) {
	l.Intrinsic(value.DatePrototype, value.IntrinsicSpec{Name: "Date.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			o.Define("constructor", value.Obj(r.Intrinsic(value.DateCtor)), value.Writable|value.Configurable)
			for _, n := range dateProto {
				f := r.Method(o, value.MethodKey(n), n)
				if n == dateToUTCString {
					// toGMTString is the same function object (B.2.3.3).
					o.Define("toGMTString", value.Obj(f), value.Writable|value.Configurable)
				}
			}
			f := r.Method(o, value.SymToPrimitive.Key(), dateToPrimitive)
			o.Define(value.SymToPrimitive.Key(), value.Obj(f), value.Configurable) // read-only, as specified
		}})
	l.Intrinsic(value.DateCtor, value.IntrinsicSpec{Name: "Date",
		Func: &value.Native{Name: "Date", Length: 7, Ctor: true, Fn: dateCtor},
		Init: func(r *value.Realm, o *value.Object) {
			r.Constructor(o, r.Intrinsic(value.DatePrototype))
			r.Methods(o, dateStatics)
		}})
	l.GlobalIntrinsic("Date", value.DateCtor)
	l.Register(dateProto...)
	l.Register(dateStatics...)
	l.Register(dateToPrimitive)
}

func dateCtor(r *value.Realm, c *value.Call) value.Value {
	if c.NewTarget == nil {
		// Date() called as a function: the current time as a string,
		// which in codemode is the ISO form.
		return value.StrOf(jsdate.ToString(now()))
	}
	var tv float64
	switch len(c.Args) {
	case 0:
		tv = now()
	case 1:
		v := c.Args[0]
		if t, ok := DateValue(v); ok {
			tv = t
		} else {
			p := r.ToPrimitive(v, value.HintDefault)
			if s := p.AsString(); s != nil {
				tv = jsdate.ParseTicked(s.String(), r.Tick)
			} else {
				tv = r.ToNumber(p)
			}
		}
	default:
		tv = utcFromArgs(r, c.Args)
	}
	proto := r.ProtoFromCtor(c.NewTarget, value.DatePrototype)
	return value.Obj(newDateWithProto(r, proto, tv))
}

// utcFromArgs converts up to seven components (year, month, date, hours,
// minutes, seconds, ms) in order and makes their time value.
func utcFromArgs(r *value.Realm, args []value.Value) float64 {
	var n [7]float64
	argc := min(len(args), 7)
	for i := 0; i < argc; i++ {
		n[i] = r.ToNumber(args[i])
	}
	return jsdate.UTC(n[0], n[1], n[2], n[3], n[4], n[5], n[6], argc)
}

var dateStatics = []*value.Native{
	native("Date.now", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.Number(now())
	}),
	native("Date.parse", 1, func(r *value.Realm, c *value.Call) value.Value {
		return value.Number(jsdate.ParseTicked(r.ToString(c.Arg(0)).String(), r.Tick))
	}),
	native("Date.UTC", 7, func(r *value.Realm, c *value.Call) value.Value {
		return value.Number(utcFromArgs(r, c.Args))
	}),
}

// thisDate is thisTimeValue for the methods whose V8 message is "this is
// not a Date object." (the getters and valueOf).
func thisDate(r *value.Realm, c *value.Call) *dateSlot {
	if o := c.This.AsObject(); o != nil && o.Class == value.ClassDate {
		if d, ok := o.Internal.(*dateSlot); ok {
			return d
		}
	}
	r.ThrowType("this is not a Date object.")
	return nil
}

// thisDateMethod is the receiver check of the other methods, whose V8
// message names the method and the receiver.
func thisDateMethod(r *value.Realm, c *value.Call, method string) *dateSlot {
	if o := c.This.AsObject(); o != nil && o.Class == value.ClassDate {
		if d, ok := o.Internal.(*dateSlot); ok {
			return d
		}
	}
	r.ThrowType("Method Date.prototype.%s called on incompatible receiver %s", method, receiverString(r, c.This))
	return nil
}

// getter makes a Date.prototype getter from a function of the time value
// (local and UTC getters are the same, local time being UTC).
func getter(name string, fn func(float64) float64) *value.Native {
	return native("Date.prototype."+name, 0, func(r *value.Realm, c *value.Call) value.Value {
		t := thisDate(r, c).t
		if math.IsNaN(t) {
			return value.Number(t)
		}
		return value.Number(fn(t))
	})
}

// setter makes a Date.prototype setter taking up to length arguments:
// the time value is read first, then the arguments present are converted
// in order, then the new value is stored and returned.
func setter(name string, length int, fn func(t float64, args ...float64) float64) *value.Native {
	return native("Date.prototype."+name, length, func(r *value.Realm, c *value.Call) value.Value {
		d := thisDateMethod(r, c, name)
		t := d.t
		var buf [4]float64
		n := min(len(c.Args), length)
		for i := 0; i < n; i++ {
			buf[i] = r.ToNumber(c.Args[i])
		}
		d.t = jsdate.TimeClip(fn(t, buf[:n]...))
		return value.Number(d.t)
	})
}

// stringer makes a Date.prototype string conversion.
func stringer(name string, fn func(float64) string) *value.Native {
	return native("Date.prototype."+name, 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.StrOf(fn(thisDateMethod(r, c, name).t))
	})
}

var dateToUTCString = stringer("toUTCString", jsdate.ToUTCString)

func identity(t float64) float64 { return t }

// dateProto is in V8's property order (toGMTString is added after
// toUTCString).
var dateProto = []*value.Native{
	stringer("toString", jsdate.ToString),
	stringer("toDateString", jsdate.ToDateString),
	stringer("toTimeString", jsdate.ToTimeString),
	native("Date.prototype.toISOString", 0, func(r *value.Realm, c *value.Call) value.Value {
		s, ok := jsdate.ToISOString(thisDateMethod(r, c, "toISOString").t)
		if !ok {
			r.ThrowRange("Invalid time value")
		}
		return value.StrOf(s)
	}),
	dateToUTCString,
	getter("getDate", jsdate.DateFromTime),
	setter("setDate", 1, jsdate.SetDate),
	getter("getDay", jsdate.WeekDay),
	getter("getFullYear", jsdate.YearFromTime),
	setter("setFullYear", 3, jsdate.SetFullYear),
	getter("getHours", jsdate.HourFromTime),
	setter("setHours", 4, jsdate.SetHours),
	getter("getMilliseconds", jsdate.MsFromTime),
	setter("setMilliseconds", 1, jsdate.SetMilliseconds),
	getter("getMinutes", jsdate.MinFromTime),
	setter("setMinutes", 3, jsdate.SetMinutes),
	getter("getMonth", jsdate.MonthFromTime),
	setter("setMonth", 2, jsdate.SetMonth),
	getter("getSeconds", jsdate.SecFromTime),
	setter("setSeconds", 2, jsdate.SetSeconds),
	getter("getTime", identity),
	setter("setTime", 1, func(_ float64, args ...float64) float64 { return first(args) }),
	getter("getTimezoneOffset", jsdate.TimezoneOffset),
	getter("getUTCDate", jsdate.DateFromTime),
	setter("setUTCDate", 1, jsdate.SetDate),
	getter("getUTCDay", jsdate.WeekDay),
	getter("getUTCFullYear", jsdate.YearFromTime),
	setter("setUTCFullYear", 3, jsdate.SetFullYear),
	getter("getUTCHours", jsdate.HourFromTime),
	setter("setUTCHours", 4, jsdate.SetHours),
	getter("getUTCMilliseconds", jsdate.MsFromTime),
	setter("setUTCMilliseconds", 1, jsdate.SetMilliseconds),
	getter("getUTCMinutes", jsdate.MinFromTime),
	setter("setUTCMinutes", 3, jsdate.SetMinutes),
	getter("getUTCMonth", jsdate.MonthFromTime),
	setter("setUTCMonth", 2, jsdate.SetMonth),
	getter("getUTCSeconds", jsdate.SecFromTime),
	setter("setUTCSeconds", 2, jsdate.SetSeconds),
	getter("valueOf", identity),
	native("Date.prototype.getYear", 0, func(r *value.Realm, c *value.Call) value.Value {
		t := thisDateMethod(r, c, "getYear").t
		if math.IsNaN(t) {
			return value.Number(t)
		}
		return value.Number(jsdate.GetYear(t))
	}),
	setter("setYear", 1, func(t float64, args ...float64) float64 { return jsdate.SetYear(t, first(args)) }),
	native("Date.prototype.toJSON", 1, dateToJSON),
	localeStringer("toLocaleString", jsdate.ToLocaleString, localeDateTime),
	localeStringer("toLocaleDateString", jsdate.ToLocaleDateString, localeDate),
	localeStringer("toLocaleTimeString", jsdate.ToLocaleTimeString, localeTime),
}

// first is the first converted argument, or NaN (undefined) if none.
func first(args []float64) float64 {
	if len(args) == 0 {
		return math.NaN()
	}
	return args[0]
}

// dateToJSON is Date.prototype.toJSON: generic over any object with a
// toISOString method; a non-finite time value gives null.
func dateToJSON(r *value.Realm, c *value.Call) value.Value {
	o := value.Obj(r.ToObject(c.This))
	tv := r.ToPrimitive(o, value.HintNumber)
	if tv.IsNumber() && !isFinite(tv.Num()) {
		return value.Null
	}
	f := r.Get(o, "toISOString")
	if fo := f.AsObject(); fo == nil || !fo.Callable() {
		r.ThrowType("toISOString is not a function")
	}
	return r.Call(f, o, nil)
}

// dateToPrimitive is Date.prototype[Symbol.toPrimitive]: the default hint
// is string for dates, which is why date + "" reads as text.
var dateToPrimitive = native("Date.prototype[Symbol.toPrimitive]", 1, func(r *value.Realm, c *value.Call) value.Value {
	if !c.This.IsObject() {
		r.ThrowType("Date.prototype[Symbol.toPrimitive] called on non-object")
	}
	var hint value.Hint
	switch h := c.Arg(0); {
	case h.IsString() && (h.AsString().String() == "string" || h.AsString().String() == "default"):
		hint = value.HintString
	case h.IsString() && h.AsString().String() == "number":
		hint = value.HintNumber
	default:
		r.ThrowType("Invalid hint: %s", r.Describe(h))
	}
	return r.OrdinaryToPrimitive(c.This, hint)
})
