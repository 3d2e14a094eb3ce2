package web

// Response, as undici has it (the fetch standard's class), over a body
// that is whole in memory: fetch hands the program a Response whose
// bytes have all arrived (NewResponse), and a program may make its own
// (new Response(body, init), Response.json, Response.error,
// Response.redirect).
//
// A body is read once: text(), json(), bytes() and arrayBuffer() each
// return a promise, and a second read rejects with undici's TypeError.
// What differs from node, for want of the types: there are no streams,
// so the body getter throws a TypeError that says how to read the body
// instead; arrayBuffer() resolves to a Uint8Array (the one binary type;
// `new Uint8Array(await res.arrayBuffer())` still works); blob() and
// formData() reject, saying what to use.
//
// Response has no intrinsic of its own in value: its constructor is
// made per run on first use and kept on the Headers constructor under a
// private key (as iterProto keeps the iterator prototypes), so that
// NewResponse finds the run's own Response.prototype even after a
// program reassigns the global, and so that a snapshot saves it with
// the heap. A Response is an ordinary object whose Internal is a
// *responseData: JSON.stringify gives "{}" as undici's does,
// structuredClone refuses it, and at the host boundary it is an
// InvalidDataValue error that says to return its body instead.

import (
	"math"
	"strings"

	"github.com/go-codemode/codemode/protocol"
	"github.com/go-codemode/codemode/value"
)

// responseData is the Internal of a Response.
type responseData struct {
	status     int
	statusText string
	headers    *value.Object // its Headers object
	url        string        // without its fragment; "" for a made Response
	redirected bool
	kind       string // the type: "default", "basic" or "error"
	// body is the whole body, shared with clones (never changed);
	// hasBody is false for a null body.
	body    []byte
	hasBody bool
	used    bool
}

// BoundaryValue refuses a Response at the host boundary: what a program
// means by returning one is almost always its body.
func (d *responseData) BoundaryValue(r *value.Realm) value.Value {
	r.ThrowKind("InvalidDataValue", value.TypeError, "%s", responseBoundaryMessage)
	return value.Undefined
}

const responseBoundaryMessage = "A Response cannot cross to the host; return its body instead, e.g. `return await res.json()` or `return await res.text()`."

// InspectValue is what console rendering may show for a Response: its
// tag and a plain object of its state in node's order (status,
// statusText, headers, bodyUsed, ok, redirected, type, url).
func (d *responseData) InspectValue(r *value.Realm) (string, value.Value) {
	o := r.NewPlainObject()
	o.Put("status", value.Number(float64(d.status)))
	o.Put("statusText", value.StrOf(d.statusText))
	o.Put("headers", value.Obj(d.headers))
	o.Put("bodyUsed", value.Bool(d.bodyUsed()))
	o.Put("ok", value.Bool(d.ok()))
	o.Put("redirected", value.Bool(d.redirected))
	o.Put("type", value.StrOf(d.kind))
	o.Put("url", value.StrOf(d.url))
	return "Response", value.Obj(o)
}

func (d *responseData) bodyUsed() bool { return d.hasBody && d.used }
func (d *responseData) ok() bool       { return d.status >= 200 && d.status <= 299 }

// responseKey is the private key the run's Response constructor is kept
// under, on the Headers constructor.
const responseKey = "\xfe%Response%"

func installResponse(l *value.Library) {
	l.Global("Response", func(r *value.Realm) value.Value { return value.Obj(responseCtor(r)) })
	l.Register(responseCtorNative)
	l.Register(responseGetters...)
	l.Register(responseMethods...)
	l.Register(responseStatics...)
}

// responseParts are the natives Response is made of. They are set by
// init: several natives refer back to Response.prototype (responseProto),
// which is made of them, a cycle Go refuses in variable initializers.
var responseParts struct {
	ctor                      *value.Native
	getters, methods, statics []*value.Native
}

func init() {
	responseParts.ctor = responseCtorNative
	responseParts.getters, responseParts.methods, responseParts.statics = responseGetters, responseMethods, responseStatics
}

// responseCtor returns the run's Response constructor, making it and
// its prototype on first use.
func responseCtor(r *value.Realm) *value.Object {
	host := r.Intrinsic(value.HeadersCtor)
	if p := host.GetOwn(responseKey); p != nil && p.Value.IsObject() {
		return p.Value.AsObject()
	}
	ctor := r.NewNative(responseParts.ctor)
	proto := value.NewObject(r.Intrinsic(value.ObjectPrototype))
	r.Constructor(ctor, proto)
	for _, g := range responseParts.getters {
		accessor(r, proto, g.FuncName()[len("get "):], g, nil, true)
	}
	webMethods(r, proto, responseParts.methods)
	toStringTag(proto, "Response")
	webMethods(r, ctor, responseParts.statics)
	host.Define(responseKey, value.Obj(ctor), 0)
	return ctor
}

// responseProto is the run's Response.prototype.
func responseProto(r *value.Realm) *value.Object {
	return responseCtor(r).GetOwn("prototype").Value.AsObject()
}

// newResponseObject makes a Response over d, with a Headers object over
// h.
func newResponseObject(r *value.Realm, proto *value.Object, d *responseData, h *headersData) *value.Object {
	d.headers = newHeadersObject(r, r.Intrinsic(value.HeadersPrototype), h)
	o := value.NewObject(proto)
	o.Internal = d
	r.Charge(192)
	return o
}

// NewResponse makes the Response a program's fetch resolves to, from
// the outbound response: its status, status text (the standard one when
// resp.StatusText is empty), headers (immutable, as fetch's are), body
// and URL. requestURL is the URL the program fetched: the Response's url
// when resp.URL is empty, and redirected says whether resp.URL differs
// from it (fragments aside). The Response keeps resp.Body, which must not change after,
// and charges it to the run's memory budget (which may end the run, as
// any allocation may). Call it on the run's goroutine.
func NewResponse(r *value.Realm, requestURL string, resp protocol.OutboundResponse) *value.Object {
	h := &headersData{immutable: true}
	for _, kv := range resp.Headers {
		name, val := strings.ToLower(kv[0]), normalizeHeaderValue(kv[1])
		r.Charge(64 + len(name) + len(val))
		h.append(name, val)
	}
	r.Charge(len(resp.Body))
	d := &responseData{status: resp.Status, statusText: resp.StatusText, url: withoutFragment(requestURL), kind: "basic",
		body: resp.Body, hasBody: !isNullBodyStatus(resp.Status)}
	if d.statusText == "" {
		d.statusText = statusTexts[resp.Status]
	}
	if u := withoutFragment(resp.URL); u != "" && u != d.url {
		d.url, d.redirected = u, true
	}
	return newResponseObject(r, responseProto(r), d, h)
}

// withoutFragment is a serialized URL without its fragment, as a
// Response's url is.
func withoutFragment(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i]
	}
	return u
}

func isNullBodyStatus(s int) bool { return s == 101 || s == 204 || s == 205 || s == 304 }

// isRedirectStatus reports the statuses Response.redirect accepts.
func isRedirectStatus(s int) bool { return s == 301 || s == 302 || s == 303 || s == 307 || s == 308 }

// responseInit is a converted ResponseInit dictionary.
type responseInit struct {
	status        int
	statusText    string
	hasStatusText bool
	headers       value.Value // undefined when absent
}

// convertInit is Web IDL's ResponseInit conversion of v.
func convertInit(r *value.Realm, v value.Value) responseInit {
	init := responseInit{status: 200, headers: value.Undefined}
	if v.IsNullish() {
		return init
	}
	if !v.IsObject() {
		r.ThrowType("Response constructor: Expected %s to be one of: Null, Undefined, Object.", r.ToString(v).String())
	}
	if s := r.Get(v, "status"); !s.IsUndefined() {
		init.status = unsignedShort(r, s)
	}
	if s := r.Get(v, "statusText"); !s.IsUndefined() {
		init.statusText, init.hasStatusText = byteString(r, s), true
	}
	init.headers = r.Get(v, "headers")
	return init
}

// unsignedShort is Web IDL's unsigned short conversion: ToNumber,
// truncated, modulo 2^16 (NaN and the infinities are 0).
func unsignedShort(r *value.Realm, v value.Value) int {
	f := r.ToNumber(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	m := math.Mod(math.Trunc(f), 65536)
	if m < 0 {
		m += 65536
	}
	return int(m)
}

// isReasonPhrase reports HTTP's reason-phrase: tabs, spaces, visible
// ASCII and obs-text.
func isReasonPhrase(s string) bool {
	for _, c := range s {
		if c != '\t' && (c < 0x20 || c == 0x7f || c > 0xff) {
			return false
		}
	}
	return true
}

// initialize is the fetch standard's "initialize a response": init's
// status, statusText and headers, then the body and its Content-Type.
func initialize(r *value.Realm, d *responseData, h *headersData, init responseInit, body []byte, hasBody bool, contentType string) {
	if init.status < 200 || init.status > 599 {
		r.ThrowRange(`init["status"] must be in the range of 200 to 599, inclusive.`)
	}
	if init.hasStatusText && !isReasonPhrase(init.statusText) {
		r.ThrowType("Invalid statusText")
	}
	d.status, d.statusText = init.status, init.statusText
	if !init.headers.IsUndefined() {
		fillHeaders(r, h, init.headers)
	}
	if !hasBody {
		return
	}
	if isNullBodyStatus(d.status) {
		r.ThrowType("Response constructor: Invalid response status code %d", d.status)
	}
	d.body, d.hasBody = body, true
	if _, ok := h.get("content-type"); contentType != "" && !ok {
		h.append("content-type", contentType)
	}
}

// extractBody converts a BodyInit: a string (UTF-8), a Uint8Array (its
// bytes, copied), URLSearchParams (form-encoded); anything else is
// converted to a string, as undici's DOMString fallback does.
func extractBody(r *value.Realm, v value.Value) (body []byte, contentType string) {
	if o := v.AsObject(); o != nil {
		switch in := o.Internal.(type) {
		case *u8Data:
			r.Reserve(len(in.bytes()))
			body = append([]byte{}, in.bytes()...)
			r.Charge(len(body))
			return body, ""
		case *paramsData:
			s := serializeForm(in.list)
			r.Charge(len(s))
			return []byte(s), "application/x-www-form-urlencoded;charset=UTF-8"
		}
	}
	s := r.ToString(v)
	r.Tick(s.Len())
	r.Reserve(3 * s.Len())
	body = utf8Bytes(s)
	r.Charge(len(body))
	return body, "text/plain;charset=UTF-8"
}

// ExtractBody converts a fetch request's init.body (not null or
// undefined) as a Response's body is converted: a string, a Uint8Array,
// URLSearchParams, or anything else as a string. It returns the bytes
// and the Content-Type the body implies ("" for bytes), charged to the
// run's memory budget; a conversion that throws (a Symbol) throws.
func ExtractBody(r *value.Realm, body value.Value) ([]byte, string) { return extractBody(r, body) }

// HeaderList converts a fetch request's init.headers (a Headers, an
// iterable of pairs, or a record) to the list fetch sends: lower-case
// names, values trimmed, in the order given, repeats kept. It throws the
// Headers constructor's TypeErrors for what is not a HeadersInit, an
// invalid name or an invalid value.
func HeaderList(r *value.Realm, init value.Value) [][2]string {
	h := &headersData{}
	fillHeaders(r, h, init)
	out := make([][2]string, len(h.list))
	for i, e := range h.list {
		out[i] = [2]string{e.name, e.value}
	}
	return out
}

// protoFromNewTarget is the prototype `new` gives a Response: the
// newTarget's prototype (a subclass's), else Response.prototype.
func protoFromNewTarget(r *value.Realm, newTarget *value.Object) *value.Object {
	if newTarget != nil {
		if p := r.GetObj(newTarget, "prototype", value.Obj(newTarget)); p.IsObject() {
			return p.AsObject()
		}
	}
	return responseProto(r)
}

var responseCtorNative = &value.Native{Name: "Response", Ctor: true, Fn: func(r *value.Realm, c *value.Call) value.Value {
	requireNew(r, c, "Response")
	var body []byte
	contentType, hasBody := "", false
	if b := c.Arg(0); !b.IsNullish() {
		body, contentType = extractBody(r, b)
		hasBody = true
	}
	init := convertInit(r, c.Arg(1))
	d, h := &responseData{kind: "default"}, &headersData{}
	o := newResponseObject(r, protoFromNewTarget(r, c.NewTarget), d, h)
	initialize(r, d, h, init, body, hasBody, contentType)
	return value.Obj(o)
}}

// thisResponse returns the receiver's data or throws undici's brand
// check error.
func thisResponse(r *value.Realm, c *value.Call) *responseData {
	if o := c.This.AsObject(); o != nil {
		if d, ok := o.Internal.(*responseData); ok {
			return d
		}
	}
	throwCoded(r, value.TypeError, "ERR_INVALID_THIS", "Illegal invocation")
	return nil
}

func responseGetter(key string, fn func(r *value.Realm, d *responseData) value.Value) *value.Native {
	return native("Response.prototype.get "+key, 0, func(r *value.Realm, c *value.Call) value.Value {
		return fn(r, thisResponse(r, c))
	})
}

// responseGetters are Response.prototype's attributes, in undici's
// order.
var responseGetters = []*value.Native{
	responseGetter("type", func(r *value.Realm, d *responseData) value.Value { return value.StrOf(d.kind) }),
	responseGetter("url", func(r *value.Realm, d *responseData) value.Value { return value.StrOf(d.url) }),
	responseGetter("status", func(r *value.Realm, d *responseData) value.Value { return value.Number(float64(d.status)) }),
	responseGetter("ok", func(r *value.Realm, d *responseData) value.Value { return value.Bool(d.ok()) }),
	responseGetter("redirected", func(r *value.Realm, d *responseData) value.Value { return value.Bool(d.redirected) }),
	responseGetter("statusText", func(r *value.Realm, d *responseData) value.Value { return value.StrOf(d.statusText) }),
	responseGetter("headers", func(r *value.Realm, d *responseData) value.Value { return value.Obj(d.headers) }),
	responseGetter("body", func(r *value.Realm, d *responseData) value.Value {
		r.ThrowType("Response.body is not supported: codemode has no streams; read the body with text(), json() or bytes()")
		return value.Undefined
	}),
	responseGetter("bodyUsed", func(r *value.Realm, d *responseData) value.Value { return value.Bool(d.bodyUsed()) }),
}

// bodyMethod is one of the body-reading methods: it returns a promise
// of read's value over the body's bytes, which the call uses up. Every
// failure (the brand check, a used body, a parse error) rejects the
// promise, as undici's async consumeBody does.
func bodyMethod(name string, read func(r *value.Realm, body []byte) value.Value) *value.Native {
	return native("Response.prototype."+name, 0, func(r *value.Realm, c *value.Call) value.Value {
		p := r.NewPromise()
		var v value.Value
		exc := r.Try(func() {
			d := thisResponse(r, c)
			if d.bodyUsed() {
				r.ThrowType("Body is unusable: Body has already been read")
			}
			d.used = true
			v = read(r, d.body)
		})
		if exc != nil {
			r.RejectPromise(p, exc.Value)
		} else {
			r.ResolvePromise(p, v)
		}
		return value.Obj(p)
	})
}

// unsupportedBody is a body method codemode cannot offer: it rejects
// with what to use instead, without using the body up.
func unsupportedBody(name, msg string) *value.Native {
	return native("Response.prototype."+name, 0, func(r *value.Realm, c *value.Call) value.Value {
		p := r.NewPromise()
		exc := r.Try(func() {
			thisResponse(r, c)
			r.ThrowType("%s", msg)
		})
		r.RejectPromise(p, exc.Value)
		return value.Obj(p)
	})
}

// responseMethods are Response.prototype's methods, in undici's order.
var responseMethods = []*value.Native{
	native("Response.prototype.clone", 0, func(r *value.Realm, c *value.Call) value.Value {
		d := thisResponse(r, c)
		if d.bodyUsed() {
			r.ThrowType("Response.clone: Body has already been consumed.")
		}
		src := d.headers.Internal.(*headersData)
		h := &headersData{list: append([]headerEntry(nil), src.list...), immutable: src.immutable}
		r.Charge(64 * len(h.list))
		cp := *d
		return value.Obj(newResponseObject(r, responseProto(r), &cp, h))
	}),
	unsupportedBody("blob", "Response.blob() is not supported: codemode has no Blob; read the body with bytes(), text() or json()"),
	bodyMethod("arrayBuffer", bodyBytes),
	bodyMethod("text", bodyText),
	bodyMethod("json", func(r *value.Realm, body []byte) value.Value {
		return libraryCall(r, "JSON.parse", bodyText(r, body))
	}),
	unsupportedBody("formData", "Response.formData() is not supported; read the body with text() and parse it with new URLSearchParams(text)"),
	bodyMethod("bytes", bodyBytes),
}

// libraryCall calls the library's own built-in function name (JSON.parse
// as the library made it, whatever the program did to the JSON global),
// as undici calls the JSON.parse it captured.
func libraryCall(r *value.Realm, name string, args ...value.Value) value.Value {
	n := r.Library().Native(name)
	if n == nil || n.Fn == nil {
		r.ThrowType("%s is not in this library", name)
	}
	return n.Fn(r, &value.Call{This: value.Undefined, Args: args})
}

// bodyBytes is a Uint8Array copy of the body.
func bodyBytes(r *value.Realm, body []byte) value.Value {
	r.Reserve(128 + len(body))
	return value.Obj(newU8Bytes(r, append([]byte{}, body...)))
}

// bodyText is the body as UTF-8 decoded by the Encoding standard (a
// leading BOM dropped, invalid bytes U+FFFD), as fetch decodes it.
func bodyText(r *value.Realm, body []byte) value.Value {
	if len(body) >= 3 && body[0] == 0xEF && body[1] == 0xBB && body[2] == 0xBF {
		body = body[3:]
	}
	r.Tick(len(body))
	ascii := true
	for _, b := range body {
		if b >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		if len(body) > value.MaxStringLength {
			r.ThrowRange("Invalid string length")
		}
		r.Charge(len(body))
		return value.StrOf(string(body))
	}
	r.Reserve(48 + 2*len(body))
	units, _ := decodeUTF8(body, false)
	if len(units) > value.MaxStringLength {
		r.ThrowRange("Invalid string length")
	}
	r.Charge(2 * len(units))
	return value.Str(value.FromUTF16(units))
}

// responseStatics are Response's static methods.
var responseStatics = []*value.Native{
	native("Response.error", 0, func(r *value.Realm, c *value.Call) value.Value {
		d := &responseData{kind: "error"}
		return value.Obj(newResponseObject(r, responseProto(r), d, &headersData{immutable: true}))
	}),
	native("Response.json", 1, func(r *value.Realm, c *value.Call) value.Value {
		if len(c.Args) == 0 {
			r.ThrowType("Response.json: 1 argument required, but 0 found.")
		}
		init := responseInit{status: 200, headers: value.Undefined}
		if v := c.Arg(1); !v.IsNull() {
			init = convertInit(r, v)
		}
		text := libraryCall(r, "JSON.stringify", c.Args[0])
		if !text.IsString() {
			r.ThrowType("Value is not JSON serializable")
		}
		body := utf8Bytes(text.AsString())
		r.Charge(len(body))
		d, h := &responseData{kind: "default"}, &headersData{}
		o := newResponseObject(r, responseProto(r), d, h)
		initialize(r, d, h, init, body, true, "application/json")
		return value.Obj(o)
	}),
	native("Response.redirect", 1, func(r *value.Realm, c *value.Call) value.Value {
		if len(c.Args) == 0 {
			r.ThrowType("Response.redirect: 1 argument required, but 0 found.")
		}
		input := usv(r, c.Args[0])
		status := 302
		if s := c.Arg(1); !s.IsUndefined() {
			status = unsignedShort(r, s)
		}
		r.Reserve(8 * len(input))
		rec := parseURLTicked(input, nil, r.Tick)
		if rec == nil {
			r.ThrowType("Failed to parse URL from %s", input)
		}
		if !isRedirectStatus(status) {
			r.ThrowRange("Invalid status code %d", status)
		}
		loc := rec.serialize(false)
		r.Charge(64 + len(loc))
		d := &responseData{kind: "default", status: status}
		h := &headersData{immutable: true}
		h.append("location", loc)
		return value.Obj(newResponseObject(r, responseProto(r), d, h))
	}),
}

// statusTexts are the standard reason phrases, for a fetched response
// whose status text the outbound side left empty.
var statusTexts = map[int]string{
	200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
	205: "Reset Content", 206: "Partial Content", 207: "Multi-Status", 208: "Already Reported", 226: "IM Used",
	300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
	305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
	400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
	405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout",
	409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
	414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
	418: "I'm a teapot", 421: "Misdirected Request", 422: "Unprocessable Content", 423: "Locked",
	424: "Failed Dependency", 425: "Too Early", 426: "Upgrade Required", 428: "Precondition Required",
	429: "Too Many Requests", 431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
	500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
	504: "Gateway Timeout", 505: "HTTP Version Not Supported", 506: "Variant Also Negotiates",
	507: "Insufficient Storage", 508: "Loop Detected", 510: "Not Extended", 511: "Network Authentication Required",
}
