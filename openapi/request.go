package openapi

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-codemode/codemode/internal/jsnum"
)

// A call's input becomes an HTTP request the way the reference builds it:
// path parameters first (each required, percent-encoded as
// encodeURIComponent does plus !'()*), then every other required field,
// then the query (URLSearchParams encoding), headers and body. Every
// check runs before authentication and before the network.

// draft is a request being built.
type draft struct {
	url    string // base URL and path, parameters substituted
	query  [][2]string
	header http.Header
	body   []byte
}

// parseInput reads a call's input; anything but an object counts as {}.
func parseInput(raw json.RawMessage) *object {
	if len(raw) == 0 {
		return newObject(0)
	}
	v, err := parseJSON(raw)
	if o := asObject(v); err == nil && o != nil {
		return o
	}
	return newObject(0)
}

func (p *plan) build(in *object) (*draft, error) {
	d := &draft{url: p.url, header: http.Header{}}
	for _, h := range p.hidden {
		if _, ok := in.get(h); ok {
			return nil, p.fail(nil, "Parameter '%s' is supplied by the host; remove it from the input.", h)
		}
	}
	for _, f := range p.fields {
		if f.in != "path" {
			continue
		}
		v, ok := in.get(f.inputName)
		if !ok {
			return nil, p.fail(nil, "Missing required path parameter '%s'.", f.inputName)
		}
		s, err := p.serializePath(f, v)
		if err != nil {
			return nil, err
		}
		if s == "" || s == "." || s == ".." {
			return nil, p.fail(nil, "Invalid path parameter '%s'.", f.inputName)
		}
		d.url = strings.ReplaceAll(d.url, "{"+f.name+"}", s)
	}
	if m := templateVar.FindString(d.url); m != "" {
		return nil, p.fail(nil, "Unresolved path parameter %s.", m)
	}
	for _, f := range p.fields {
		if f.required && f.in != "path" {
			if _, ok := in.get(f.inputName); !ok {
				label := f.in + " parameter"
				if f.in == "body" {
					label = "body field"
				}
				return nil, p.fail(nil, "Missing required %s '%s'.", label, f.inputName)
			}
		}
	}
	if p.query != "" {
		for _, kv := range strings.Split(p.query, "&") {
			k, v, _ := strings.Cut(kv, "=")
			if u, err := url.QueryUnescape(k); err == nil {
				k = u
			}
			if u, err := url.QueryUnescape(v); err == nil {
				v = u
			}
			d.query = append(d.query, [2]string{k, v})
		}
	}
	if p.accept != "" {
		d.header.Set("Accept", p.accept)
	}
	for k, v := range p.call.headers {
		d.header.Set(k, v)
	}
	var cookies []string
	for _, f := range p.fields {
		v, ok := in.get(f.inputName)
		if !ok {
			continue
		}
		switch f.in {
		case "query":
			pairs, err := p.serializeQuery(f, v)
			if err != nil {
				return nil, err
			}
			d.query = append(d.query, pairs...)
		case "header":
			s, err := p.serializeSimple(f, v, identity, ",")
			if err != nil {
				return nil, err
			}
			if !validHeaderValue(s) {
				return nil, p.fail(nil, "Header parameter '%s' contains a character HTTP headers cannot carry.", f.inputName)
			}
			d.header.Set(f.name, s)
		case "cookie":
			s, err := p.serializeSimple(f, v, cookieEscape, ",")
			if err != nil {
				return nil, err
			}
			if strings.ContainsAny(s, " ,") {
				s = `"` + s + `"`
			}
			cookies = append(cookies, f.name+"="+s)
		}
	}
	if len(cookies) > 0 {
		if prior := d.header.Get("Cookie"); prior != "" {
			cookies = append([]string{prior}, cookies...)
		}
		d.header.Set("Cookie", strings.Join(cookies, "; "))
	}
	return d, p.buildBody(d, in)
}

func (p *plan) buildBody(d *draft, in *object) error {
	b := p.body
	if b == nil {
		return nil
	}
	var value any
	if b.flattened {
		obj := newObject(0)
		for _, f := range p.fields {
			if f.in != "body" {
				continue
			}
			if v, ok := in.get(f.inputName); ok {
				obj.set(f.name, v)
			}
		}
		if !b.required && len(obj.keys) == 0 {
			return nil
		}
		value = obj
	} else {
		var ok bool
		for _, f := range p.fields {
			if f.in == "body" {
				value, ok = in.get(f.inputName)
			}
		}
		if !ok {
			return nil
		}
	}
	if b.form {
		obj := asObject(value)
		if obj == nil {
			return p.fail(nil, "The form body for %s %s must be an object.", p.op.Method, p.op.Path)
		}
		var pairs [][2]string
		obj.each(func(k string, v any) {
			switch x := v.(type) {
			case *object:
				pairs = append(pairs, [2]string{k, string(appendJSON(nil, x))})
			case []any:
				for _, e := range x {
					if isScalar(e) {
						pairs = append(pairs, [2]string{k, str(e)})
					} else {
						pairs = append(pairs, [2]string{k, string(appendJSON(nil, e))})
					}
				}
			default:
				pairs = append(pairs, [2]string{k, str(v)})
			}
		})
		d.body = []byte(encodePairs(pairs))
	} else {
		d.body = appendJSON(nil, value)
	}
	d.header.Set("Content-Type", b.mediaType)
	return nil
}

// isScalar: null, a boolean, a number or a string.
func isScalar(v any) bool {
	switch v.(type) {
	case nil, bool, string, json.Number:
		return true
	}
	return false
}

// str is JavaScript's String(v) for a scalar.
func str(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	case json.Number:
		return jsNumber(string(x))
	}
	return ""
}

// jsNumber writes a number literal as JavaScript's String does: 2, 0.5,
// 1e+21, 1e-7.
func jsNumber(lit string) string {
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return lit // beyond float64: JSON allows it, keep the digits
	}
	return jsnum.Format(f)
}

func identity(s string) string { return s }

const upperHex = "0123456789ABCDEF"

// escape percent-encodes every byte keep does not accept, in upper case.
func escape(s string, keep func(byte) bool, space byte) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if !keep(s[i]) {
			n++
		}
	}
	if n == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case keep(c):
			b.WriteByte(c)
		case c == ' ' && space != 0:
			b.WriteByte(space)
		default:
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
		}
	}
	return b.String()
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// pathEscape is encodeURIComponent with !'()* escaped too: only RFC 3986
// unreserved characters stay.
func pathEscape(s string) string {
	return escape(s, func(c byte) bool { return isAlnum(c) || c == '-' || c == '_' || c == '.' || c == '~' }, 0)
}

// formEscape is URLSearchParams' application/x-www-form-urlencoded
// encoding: a space is "+", and only alphanumerics and *-._ stay.
func formEscape(s string) string {
	return escape(s, func(c byte) bool { return isAlnum(c) || c == '*' || c == '-' || c == '.' || c == '_' }, '+')
}

// cookieEscape percent-encodes the bytes a cookie value cannot hold.
func cookieEscape(s string) string {
	return escape(s, func(c byte) bool { return c >= 0x20 && c < 0x7f && c != '"' && c != ';' && c != '\\' }, 0)
}

func encodePairs(pairs [][2]string) string {
	var b strings.Builder
	for i, kv := range pairs {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(formEscape(kv[0]))
		b.WriteByte('=')
		b.WriteString(formEscape(kv[1]))
	}
	return b.String()
}

func (p *plan) nested(f field) error {
	return p.fail(nil, "Parameter '%s' contains an unsupported nested value.", f.inputName)
}

// serializeSimple is the simple style: array items and object entries
// joined by sep (explode: k=v entries), each piece encoded by enc.
func (p *plan) serializeSimple(f field, v any, enc func(string) string, sep string) (string, error) {
	parts, err := p.pieces(f, v, enc, "=")
	if err != nil {
		return "", err
	}
	return strings.Join(parts, sep), nil
}

// pieces lists the encoded pieces of a value: a scalar's text, an array's
// items, an object's keys and values (joined by kv when exploded).
func (p *plan) pieces(f field, v any, enc func(string) string, kv string) ([]string, error) {
	switch x := v.(type) {
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			if !isScalar(e) {
				return nil, p.nested(f)
			}
			parts[i] = enc(str(e))
		}
		return parts, nil
	case *object:
		var parts []string
		var err error
		x.each(func(k string, e any) {
			if err != nil {
				return
			}
			if !isScalar(e) {
				err = p.nested(f)
				return
			}
			if f.explode {
				parts = append(parts, enc(k)+kv+enc(str(e)))
			} else {
				parts = append(parts, enc(k), enc(str(e)))
			}
		})
		return parts, err
	}
	return []string{enc(str(v))}, nil
}

// serializePath encodes a path parameter: simple (a,b), label (.a.b) or
// matrix (;id=a;id=b).
func (p *plan) serializePath(f field, v any) (string, error) {
	switch f.style {
	case "label":
		parts, err := p.pieces(f, v, pathEscape, "=")
		if err != nil {
			return "", err
		}
		sep := ","
		if f.explode {
			sep = "."
		}
		return "." + strings.Join(parts, sep), nil
	case "matrix":
		name := pathEscape(f.name)
		parts, err := p.pieces(f, v, pathEscape, "=")
		if err != nil {
			return "", err
		}
		switch v.(type) {
		case []any:
			if f.explode {
				var b strings.Builder
				for _, s := range parts {
					b.WriteString(";" + name + "=" + s)
				}
				return b.String(), nil
			}
		case *object:
			if f.explode {
				return ";" + strings.Join(parts, ";"), nil
			}
		default:
			if parts[0] == "" {
				return ";" + name, nil
			}
		}
		return ";" + name + "=" + strings.Join(parts, ","), nil
	}
	return p.serializeSimple(f, v, pathEscape, ",")
}

// serializeQuery lists a query parameter's name=value pairs.
func (p *plan) serializeQuery(f field, v any) ([][2]string, error) {
	if f.style == "deepObject" {
		obj := asObject(v)
		if obj == nil {
			return nil, p.fail(nil, "Deep-object parameter '%s' must be an object.", f.inputName)
		}
		var pairs [][2]string
		var err error
		obj.each(func(k string, e any) {
			if err == nil && !isScalar(e) {
				err = p.fail(nil, "Deep-object parameter '%s' contains an unsupported nested value.", f.inputName)
			}
			pairs = append(pairs, [2]string{f.name + "[" + k + "]", str(e)})
		})
		return pairs, err
	}
	sep := ","
	switch f.style {
	case "spaceDelimited":
		sep = " "
	case "pipeDelimited":
		sep = "|"
	}
	switch x := v.(type) {
	case []any:
		if !f.explode {
			s, err := p.serializeSimple(f, v, identity, sep)
			return [][2]string{{f.name, s}}, err
		}
		pairs := make([][2]string, len(x))
		for i, e := range x {
			if !isScalar(e) {
				return nil, p.nested(f)
			}
			pairs[i] = [2]string{f.name, str(e)}
		}
		return pairs, nil
	case *object:
		if !f.explode {
			s, err := p.serializeSimple(f, v, identity, sep)
			return [][2]string{{f.name, s}}, err
		}
		var pairs [][2]string
		var err error
		x.each(func(k string, e any) {
			if err == nil && !isScalar(e) {
				err = p.fail(nil, "Query parameter '%s' contains an unsupported nested value.", f.inputName)
			}
			pairs = append(pairs, [2]string{k, str(e)})
		})
		return pairs, err
	}
	return [][2]string{{f.name, str(v)}}, nil
}
