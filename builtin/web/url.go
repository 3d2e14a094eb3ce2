package web

// The URL class: a URL record (urlparse.go) behind accessor properties
// on URL.prototype, as the URL standard's API section has them, and a
// URLSearchParams bound to it (made on first use of searchParams) whose
// changes write the query back.

import (
	"github.com/go-codemode/codemode/value"
)

// urlData is the Internal of a URL object.
type urlData struct {
	rec *urlRecord
	// params is the URLSearchParams object of searchParams, once made.
	params *value.Object
}

func installURL(l *value.Library) {
	l.Intrinsic(value.URLPrototype, value.IntrinsicSpec{Name: "URL.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			constructorFirst(r, o, value.URLCtor)
			webMethods(r, o, []*value.Native{urlToString})
			for _, a := range urlAccessors {
				accessor(r, o, a.name, a.get, a.set, true)
			}
			webMethods(r, o, []*value.Native{urlToJSON})
			toStringTag(o, "URL")
		}})
	l.Intrinsic(value.URLCtor, value.IntrinsicSpec{Name: "URL",
		Func: &value.Native{Name: "URL", Length: 1, Ctor: true, Fn: urlCtor},
		Init: func(r *value.Realm, o *value.Object) {
			r.Constructor(o, r.Intrinsic(value.URLPrototype))
			webMethods(r, o, urlStatics)
		}})
	l.GlobalIntrinsic("URL", value.URLCtor)
	l.Register(urlToString, urlToJSON)
	l.Register(urlStatics...)
	for _, a := range urlAccessors {
		l.Register(a.get)
		if a.set != nil {
			l.Register(a.set)
		}
	}
}

// parseArgs parses url against base the way the constructor, parse and
// canParse do; ok is false for "Invalid URL".
func parseArgs(r *value.Realm, c *value.Call) (rec *urlRecord, input, base string, hasBase, ok bool) {
	input = usv(r, c.Arg(0))
	r.Reserve(8 * len(input)) // the parser's runes and buffers
	var baseRec *urlRecord
	if b := c.Arg(1); !b.IsUndefined() {
		hasBase = true
		base = usv(r, b)
		if baseRec = parseURLTicked(base, nil, r.Tick); baseRec == nil {
			return nil, input, base, hasBase, false
		}
	}
	rec = parseURLTicked(input, baseRec, r.Tick)
	return rec, input, base, hasBase, rec != nil
}

func urlCtor(r *value.Realm, c *value.Call) value.Value {
	requireNew(r, c, "URL")
	if len(c.Args) == 0 {
		throwCoded(r, value.TypeError, "ERR_MISSING_ARGS", `The "url" argument must be specified`)
	}
	rec, input, base, hasBase, ok := parseArgs(r, c)
	if !ok {
		if hasBase {
			throwCoded(r, value.TypeError, "ERR_INVALID_URL", "Invalid URL", "input", input, "base", base)
		}
		throwCoded(r, value.TypeError, "ERR_INVALID_URL", "Invalid URL", "input", input)
	}
	return value.Obj(newURLObject(r, r.ProtoFromCtor(c.NewTarget, value.URLPrototype), rec))
}

func newURLObject(r *value.Realm, proto *value.Object, rec *urlRecord) *value.Object {
	o := value.NewObject(proto)
	o.Class = value.ClassURL
	o.Internal = &urlData{rec: rec}
	r.Charge(256 + len(rec.serialize(false)))
	return o
}

var urlStatics = []*value.Native{
	native("URL.parse", 1, func(r *value.Realm, c *value.Call) value.Value {
		if len(c.Args) == 0 {
			throwCoded(r, value.TypeError, "ERR_MISSING_ARGS", `The "url" argument must be specified`)
		}
		rec, _, _, _, ok := parseArgs(r, c)
		if !ok {
			return value.Null
		}
		return value.Obj(newURLObject(r, r.Intrinsic(value.URLPrototype), rec))
	}),
	native("URL.canParse", 1, func(r *value.Realm, c *value.Call) value.Value {
		if len(c.Args) == 0 {
			throwCoded(r, value.TypeError, "ERR_MISSING_ARGS", `The "url" argument must be specified`)
		}
		_, _, _, _, ok := parseArgs(r, c)
		return value.Bool(ok)
	}),
}

// thisURL returns the receiver's URL data or throws node's error.
func thisURL(r *value.Realm, c *value.Call) *urlData {
	if o := c.This.AsObject(); o != nil {
		if d, ok := o.Internal.(*urlData); ok {
			return d
		}
	}
	r.ThrowType("Receiver must be an instance of class URL")
	return nil
}

var (
	urlToString = native("URL.prototype.toString", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.StrOf(thisURL(r, c).rec.serialize(false))
	})
	urlToJSON = native("URL.prototype.toJSON", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.StrOf(thisURL(r, c).rec.serialize(false))
	})
)

type urlAccessor struct {
	name     string
	get, set *value.Native
}

// urlAccessors are the URL attributes in node's property order.
var urlAccessors = []urlAccessor{
	urlAttr("href", func(u *urlData) string { return u.rec.serialize(false) }, func(r *value.Realm, u *urlData, v string) {
		rec := parseURLTicked(v, nil, r.Tick)
		if rec == nil {
			throwCoded(r, value.TypeError, "ERR_INVALID_URL", "Invalid URL", "input", v)
		}
		u.rec = rec
		u.syncParams()
	}),
	urlAttr("origin", func(u *urlData) string { return u.rec.origin() }, nil),
	urlAttr("protocol", func(u *urlData) string { return u.rec.scheme + ":" }, func(r *value.Realm, u *urlData, v string) {
		basicParse(v+":", nil, u.rec, stSchemeStart, r.Tick)
	}),
	urlAttr("username", func(u *urlData) string { return u.rec.username }, func(r *value.Realm, u *urlData, v string) {
		if u.rec.cannotHaveCredentials() {
			return
		}
		u.rec.username = percentEncode(v, userinfoSet, false)
	}),
	urlAttr("password", func(u *urlData) string { return u.rec.password }, func(r *value.Realm, u *urlData, v string) {
		if u.rec.cannotHaveCredentials() {
			return
		}
		u.rec.password = percentEncode(v, userinfoSet, false)
	}),
	urlAttr("host", func(u *urlData) string {
		if u.rec.host == nil {
			return ""
		}
		if u.rec.port < 0 {
			return *u.rec.host
		}
		return *u.rec.host + ":" + itoa(u.rec.port)
	}, func(r *value.Realm, u *urlData, v string) {
		if u.rec.opaque {
			return
		}
		basicParse(v, nil, u.rec, stHost, r.Tick)
	}),
	urlAttr("hostname", func(u *urlData) string {
		if u.rec.host == nil {
			return ""
		}
		return *u.rec.host
	}, func(r *value.Realm, u *urlData, v string) {
		if u.rec.opaque {
			return
		}
		basicParse(v, nil, u.rec, stHostname, r.Tick)
	}),
	urlAttr("port", func(u *urlData) string {
		if u.rec.port < 0 {
			return ""
		}
		return itoa(u.rec.port)
	}, func(r *value.Realm, u *urlData, v string) {
		if u.rec.cannotHaveCredentials() {
			return
		}
		if v == "" {
			u.rec.port = -1
			return
		}
		basicParse(v, nil, u.rec, stPort, r.Tick)
	}),
	urlAttr("pathname", func(u *urlData) string { return u.rec.pathString() }, func(r *value.Realm, u *urlData, v string) {
		if u.rec.opaque {
			return
		}
		u.rec.path = nil
		basicParse(v, nil, u.rec, stPathStart, r.Tick)
	}),
	urlAttr("search", func(u *urlData) string {
		if u.rec.query == nil || *u.rec.query == "" {
			return ""
		}
		return "?" + *u.rec.query
	}, func(r *value.Realm, u *urlData, v string) {
		if v == "" {
			u.rec.query = nil
			u.syncParams()
			return
		}
		if v[0] == '?' {
			v = v[1:]
		}
		u.rec.query = strp("")
		basicParse(v, nil, u.rec, stQuery, r.Tick)
		u.syncParams()
	}),
	{name: "searchParams", get: native("URL.prototype.get searchParams", 0, func(r *value.Realm, c *value.Call) value.Value {
		u := thisURL(r, c)
		if u.params == nil {
			u.params = newParamsObject(r, r.Intrinsic(value.URLSearchParamsPrototype))
			pd := u.params.Internal.(*paramsData)
			pd.url = u
			if u.rec.query != nil {
				pd.list = parseFormTicked(*u.rec.query, r.Tick)
			}
		}
		return value.Obj(u.params)
	})},
	urlAttr("hash", func(u *urlData) string {
		if u.rec.fragment == nil || *u.rec.fragment == "" {
			return ""
		}
		return "#" + *u.rec.fragment
	}, func(r *value.Realm, u *urlData, v string) {
		if v == "" {
			u.rec.fragment = nil
			return
		}
		if v[0] == '#' {
			v = v[1:]
		}
		u.rec.fragment = strp("")
		basicParse(v, nil, u.rec, stFragment, r.Tick)
	}),
}

// urlAttr makes the getter (and setter, if set is not nil) natives of
// one attribute.
func urlAttr(name string, get func(*urlData) string, set func(*value.Realm, *urlData, string)) urlAccessor {
	a := urlAccessor{name: name}
	a.get = native("URL.prototype.get "+name, 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.StrOf(get(thisURL(r, c)))
	})
	if set != nil {
		a.set = native("URL.prototype.set "+name, 1, func(r *value.Realm, c *value.Call) value.Value {
			u := thisURL(r, c)
			set(r, u, usv(r, c.Arg(0)))
			return value.Undefined
		})
	}
	return a
}

// cannotHaveCredentials: a URL without a host, with an empty host, or of
// the file scheme has no username, password or port.
func (u *urlRecord) cannotHaveCredentials() bool {
	return u.host == nil || *u.host == "" || u.scheme == "file"
}

// syncParams refreshes the bound URLSearchParams after the query changed.
func (u *urlData) syncParams() {
	if u.params == nil {
		return
	}
	pd := u.params.Internal.(*paramsData)
	pd.list = nil
	if u.rec.query != nil {
		pd.list = parseForm(*u.rec.query) // the query was just set from a string the setter charged
	}
}

func itoa(n int) string { return value.NumberToString(float64(n)).String() }
