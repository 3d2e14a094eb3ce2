package protocol

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
)

// BinaryTag is the key of the object a binary value crosses the dispatch
// grammar as: {"$binary":"<base64>"}, standard base64 with padding (RFC
// 4648 section 4). An object with that key alone and a string value that
// decodes as base64 is binary on the receiving side; any other object,
// one with "$binary" and further keys included, is an ordinary object.
// A plain object of the form {"$binary":"<valid base64>"} therefore cannot
// cross as itself.
const BinaryTag = "$binary"

// maxDepth bounds the nesting StringifyForDispatch walks, which also
// stops a cyclic value.
const maxDepth = 1000

// Binary is a byte slice that crosses the dispatch grammar tagged as
// {"$binary":"<base64>"}. Use it for a struct field that should arrive
// as binary: StringifyForDispatch tags []byte only where it can see it,
// in values reached through interfaces, maps, slices and pointers, and
// leaves structs to encoding/json, which encodes a plain []byte field as a
// bare base64 string. A nil Binary is null.
type Binary []byte

// MarshalJSON encodes b as {"$binary":"<base64>"}, or null when b is nil.
func (b Binary) MarshalJSON() ([]byte, error) {
	if b == nil {
		return []byte("null"), nil
	}
	return binaryJSON(b), nil
}

// UnmarshalJSON decodes {"$binary":"<base64>"} into b, and null into
// nil. Anything else is an error.
func (b *Binary) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		*b = nil
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil || len(obj) != 1 {
		return errors.New(`binary value must be {"$binary":"<base64>"}`)
	}
	var s string
	if err := json.Unmarshal(obj[BinaryTag], &s); err != nil {
		return errors.New(`binary value must be {"$binary":"<base64>"}`)
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return errors.New("binary value is not valid base64: " + err.Error())
	}
	*b = raw
	return nil
}

func binaryJSON(b []byte) []byte {
	out := make([]byte, 0, len(`{"$binary":""}`)+base64.StdEncoding.EncodedLen(len(b)))
	out = append(out, `{"$binary":"`...)
	out = base64.StdEncoding.AppendEncode(out, b)
	return append(out, `"}`...)
}

// StringifyForDispatch encodes v as the one JSON text of the dispatch
// grammar. It is json.Marshal with two differences: HTML characters are
// not escaped, and every []byte reached through interfaces, maps, slices,
// arrays and pointers is tagged as {"$binary":"<base64>"} (see
// [BinaryTag]); a nil []byte is null. Structs, and values that implement
// json.Marshaler or encoding.TextMarshaler, are encoded by encoding/json
// as they are: use [Binary] for a struct field that should be tagged. A
// json.RawMessage passes through verbatim (compacted).
func StringifyForDispatch(v any) (string, error) {
	w, err := tagBinary(reflect.ValueOf(v), 0)
	if err != nil {
		return "", err
	}
	b, err := marshalNoEscape(w)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// ParseForDispatch decodes one JSON text of the dispatch grammar into
// plain Go values (nil, bool, float64, string, []any, map[string]any),
// rebuilding every binary tag as a []byte. Numbers decode as float64,
// which holds every JavaScript number exactly. Anything but exactly one
// JSON value is an error.
func ParseForDispatch(s string) (any, error) {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, err
	}
	return DecodeDispatchValue(v), nil
}

// DecodeDispatchValue rebuilds binary inside a value that already
// crossed as data: every map[string]any that is a binary tag (see
// [BinaryTag]) becomes a []byte, through maps and slices at any depth.
// Maps and slices are rebuilt in place; the result is returned.
func DecodeDispatchValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if b, ok := binaryOf(x); ok {
			return b
		}
		for k, e := range x {
			x[k] = DecodeDispatchValue(e)
		}
	case []any:
		for i, e := range x {
			x[i] = DecodeDispatchValue(e)
		}
	}
	return v
}

func binaryOf(m map[string]any) ([]byte, bool) {
	if len(m) != 1 {
		return nil, false
	}
	s, ok := m[BinaryTag].(string)
	if !ok {
		return nil, false
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, false
	}
	if b == nil {
		b = []byte{}
	}
	return b, true
}

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

func isMarshaler(t reflect.Type) bool {
	return t.Implements(jsonMarshalerType) || t.Implements(textMarshalerType)
}

// tagBinary returns v with every visible []byte replaced by its tag, as a
// tree encoding/json renders the same way except for the tags.
func tagBinary(v reflect.Value, depth int) (any, error) {
	if !v.IsValid() {
		return nil, nil
	}
	if depth > maxDepth {
		return nil, errors.New("value is nested too deeply, or cyclic")
	}
	t := v.Type()
	if isMarshaler(t) || (v.CanAddr() && isMarshaler(reflect.PointerTo(t))) {
		return v.Interface(), nil
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil, nil
		}
		return tagBinary(v.Elem(), depth+1)
	case reflect.Slice:
		if v.IsNil() {
			return nil, nil
		}
		if t.Elem().Kind() == reflect.Uint8 {
			return json.RawMessage(binaryJSON(v.Bytes())), nil
		}
		fallthrough
	case reflect.Array:
		out := make([]any, v.Len())
		for i := range out {
			e, err := tagBinary(v.Index(i), depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	case reflect.Map:
		if v.IsNil() {
			return nil, nil
		}
		out := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			k, ok, err := mapKey(it.Key())
			if err != nil {
				return nil, err
			}
			if !ok {
				return v.Interface(), nil
			}
			e, err := tagBinary(it.Value(), depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = e
		}
		return out, nil
	}
	return v.Interface(), nil
}

// mapKey renders a map key as encoding/json does; ok is false for a kind
// of key it does not render, which encoding/json then reports.
func mapKey(k reflect.Value) (string, bool, error) {
	if k.Type().Implements(textMarshalerType) {
		if k.Kind() == reflect.Pointer && k.IsNil() {
			return "", true, nil
		}
		b, err := k.Interface().(encoding.TextMarshaler).MarshalText()
		return string(b), true, err
	}
	switch k.Kind() {
	case reflect.String:
		return k.String(), true, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10), true, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(k.Uint(), 10), true, nil
	}
	return "", false, nil
}

// marshalNoEscape is json.Marshal without HTML escaping.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
