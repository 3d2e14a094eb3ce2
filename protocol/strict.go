package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
)

// The strict decoder behind Decode. encoding/json matches field names
// without regard to case, keeps the last of two equal keys, ignores
// unknown fields and leaves a field untouched when the value is null; the
// protocol wants none of that, so messages decode through the functions
// here, which walk the message structs by reflection and decode each
// field's value on its own.
//
// A struct field's json tag gives its key; the tag `proto:"required"`
// makes the key mandatory, and `proto:"required,nonempty"` also refuses
// the empty string. After a value decodes, its validate method, where it
// has one, checks what its type alone cannot say.

// validator is a type with checks of its own, run after decoding and
// before encoding.
type validator interface{ validate() error }

// fieldError is a decoding failure at a path of keys and indexes. msg
// is a predicate ("is missing") unless colon is set, when it is a
// sentence of its own.
type fieldError struct {
	path  string
	msg   string
	colon bool
}

func (e *fieldError) Error() string {
	if e.path == "" {
		return e.msg
	}
	path := e.path
	if !strings.Contains(path, `"`) {
		path = `"` + path + `"`
	}
	if e.colon {
		return path + ": " + e.msg
	}
	return path + " " + e.msg
}

func failAt(path, format string, args ...any) error {
	return &fieldError{path: path, msg: fmt.Sprintf(format, args...)}
}

func joinPath(path, key string) string {
	if key == "" {
		return path
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// decodeObject splits one JSON object into its fields, refusing anything
// else, a key given twice and trailing data. The fields are slices of
// data.
func decodeObject(data []byte) (map[string]json.RawMessage, error) {
	if fields, ok := splitObject(data); ok {
		return fields, nil
	}
	return readObject(data)
}

// readObject is decodeObject's slow path, through encoding/json's
// tokens: it finds what is wrong and says it as encoding/json does.
func readObject(data []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxError(err)
	}
	if tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	fields := make(map[string]json.RawMessage)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, syntaxError(err)
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errors.New("not a JSON object")
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, syntaxError(err)
		}
		if _, dup := fields[key]; dup {
			return nil, fmt.Errorf("key %q appears twice", key)
		}
		fields[key] = raw
	}
	if _, err := dec.Token(); err != nil {
		return nil, syntaxError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON value")
	}
	return fields, nil
}

// splitObject is decodeObject's fast path for a well-formed object: one
// pass over the bytes, finding each value's end, then json.Valid on it.
// It reports false for anything it does not accept (bad JSON, a key
// given twice, trailing data), which the slow path then explains.
func splitObject(data []byte) (map[string]json.RawMessage, bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, false
	}
	fields := make(map[string]json.RawMessage, 8)
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return fields, skipSpace(data, i+1) == len(data)
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return nil, false
		}
		end, ok := stringEnd(data, i)
		if !ok {
			return nil, false
		}
		var key string
		if plainKey(data[i+1 : end-1]) {
			key = string(data[i+1 : end-1])
		} else if json.Unmarshal(data[i:end], &key) != nil {
			return nil, false
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return nil, false
		}
		i = skipSpace(data, i+1)
		vend, ok := valueEnd(data, i)
		if !ok || !json.Valid(data[i:vend]) {
			return nil, false
		}
		if _, dup := fields[key]; dup {
			return nil, false
		}
		fields[key] = data[i:vend:vend]
		i = skipSpace(data, vend)
		if i >= len(data) {
			return nil, false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return fields, skipSpace(data, i+1) == len(data)
		default:
			return nil, false
		}
	}
}

// plainKey reports a key that reads as itself: printable ASCII without
// escapes.
func plainKey(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= 0x80 || c == '\\' {
			return false
		}
	}
	return true
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// stringEnd is the index just past the string starting at data[i] ('"').
func stringEnd(data []byte, i int) (int, bool) {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// valueEnd is the index just past the JSON value starting at data[i],
// found by its shape (strings, nesting, the characters a literal or
// number may hold); json.Valid checks it.
func valueEnd(data []byte, i int) (int, bool) {
	if i >= len(data) {
		return 0, false
	}
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				e, ok := stringEnd(data, j)
				if !ok {
					return 0, false
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
	for j < len(data) && strings.IndexByte("+-.0123456789Eaeflnrstu", data[j]) >= 0 {
		j++
	}
	return j, j > i
}

func syntaxError(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return errors.New("not valid JSON: unexpected end of input")
	}
	return fmt.Errorf("not valid JSON: %v", err)
}

// structField is one decodable field of a struct.
type structField struct {
	index    int
	key      string
	required bool
	nonempty bool
}

var fieldCache sync.Map // reflect.Type -> []structField

func fieldsOf(t reflect.Type) []structField {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]structField)
	}
	var fields []structField
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		key, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if key == "-" {
			continue
		}
		if key == "" {
			key = sf.Name
		}
		opts := sf.Tag.Get("proto")
		fields = append(fields, structField{
			index:    i,
			key:      key,
			required: strings.Contains(opts, "required"),
			nonempty: strings.Contains(opts, "nonempty"),
		})
	}
	fieldCache.Store(t, fields)
	return fields
}

// decodeFields fills the struct v points to from fields, skipping the key
// skip (the message type, already read).
func decodeFields(path string, fields map[string]json.RawMessage, v reflect.Value, skip string) error {
	v = v.Elem()
	known := fieldsOf(v.Type())
	for _, key := range sortedKeys(fields) {
		if key == skip {
			continue
		}
		found := false
		for _, f := range known {
			if f.key == key {
				found = true
				break
			}
		}
		if !found {
			if path == "" {
				return fmt.Errorf("unknown field %q", key)
			}
			return failAt(path, "has unknown field %q", key)
		}
	}
	for _, f := range known {
		p := joinPath(path, f.key)
		raw, ok := fields[f.key]
		if !ok {
			if f.required {
				return failAt(p, "is missing")
			}
			continue
		}
		fv := v.Field(f.index)
		if err := decodeValue(p, raw, fv); err != nil {
			return err
		}
		if f.nonempty && fv.Kind() == reflect.String && fv.String() == "" {
			return failAt(p, "must not be empty")
		}
	}
	return validateValue(path, v)
}

var (
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
)

// decodeValue decodes raw into the settable value v.
func decodeValue(path string, raw json.RawMessage, v reflect.Value) error {
	t := v.Type()
	raw = bytes.Trim(raw, " \t\r\n")
	if len(raw) == 0 {
		return failAt(path, "has no value")
	}
	isNull := string(raw) == "null"
	switch {
	case t == rawMessageType:
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return failAt(path, "is not valid JSON")
		}
		v.SetBytes(bytes.Clone(buf.Bytes()))
		return nil
	case reflect.PointerTo(t).Implements(unmarshalerType):
		if err := v.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(raw); err != nil {
			return atPath(path, err)
		}
		return validateValue(path, v)
	}
	switch t.Kind() {
	case reflect.Pointer:
		if isNull {
			v.SetZero()
			return nil
		}
		e := reflect.New(t.Elem())
		if err := decodeValue(path, raw, e.Elem()); err != nil {
			return err
		}
		v.Set(e)
		return nil
	case reflect.Struct:
		if isNull {
			return failAt(path, "must be an object, not null")
		}
		fields, err := decodeObject(raw)
		if err != nil {
			return failAt(path, "must be an object, not %s", jsonKind(raw))
		}
		return decodeFields(path, fields, v.Addr(), "")
	case reflect.Slice:
		if isNull {
			v.SetZero()
			return validateValue(path, v)
		}
		if raw[0] != '[' {
			return failAt(path, "must be an array, not %s", jsonKind(raw))
		}
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return failAt(path, "is not valid JSON")
		}
		s := reflect.MakeSlice(t, len(items), len(items))
		for i, item := range items {
			if err := decodeValue(fmt.Sprintf("%s[%d]", path, i), item, s.Index(i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return validateValue(path, v)
	case reflect.Map:
		if isNull {
			v.SetZero()
			return validateValue(path, v)
		}
		if raw[0] != '{' || t.Key().Kind() != reflect.String {
			return failAt(path, "must be an object, not %s", jsonKind(raw))
		}
		fields, err := decodeObject(raw)
		if err != nil {
			return atPath(path, err)
		}
		m := reflect.MakeMapWithSize(t, len(fields))
		for _, k := range sortedKeys(fields) {
			e := reflect.New(t.Elem()).Elem()
			if err := decodeValue(fmt.Sprintf("%s[%q]", path, k), fields[k], e); err != nil {
				return err
			}
			m.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), e)
		}
		v.Set(m)
		return validateValue(path, v)
	}
	if isNull {
		return failAt(path, "must be %s, not null", describeKind(t))
	}
	if err := json.Unmarshal(raw, v.Addr().Interface()); err != nil {
		if kind := jsonKind(raw); kind == "a number" && isNumberKind(t.Kind()) {
			return failAt(path, "must be %s, not %s", describeKind(t), raw)
		}
		return failAt(path, "must be %s, not %s", describeKind(t), jsonKind(raw))
	}
	return validateValue(path, v)
}

// validateValue runs v's validate method, where it has one.
func validateValue(path string, v reflect.Value) error {
	var val validator
	if x, ok := v.Interface().(validator); ok {
		val = x
	} else if v.CanAddr() {
		if x, ok := v.Addr().Interface().(validator); ok {
			val = x
		}
	}
	if val == nil {
		return nil
	}
	return atPath(path, val.validate())
}

// atPath places err, a failure of the value at path, at that path.
func atPath(path string, err error) error {
	if err == nil {
		return nil
	}
	var fe *fieldError
	if errors.As(err, &fe) {
		return &fieldError{path: joinPath(path, fe.path), msg: fe.msg, colon: fe.colon}
	}
	return &fieldError{path: path, msg: err.Error(), colon: true}
}

func isNumberKind(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Float64
}

// describeKind names the JSON form a Go type decodes from.
func describeKind(t reflect.Type) string {
	switch k := t.Kind(); {
	case k == reflect.String:
		return "a string"
	case k == reflect.Bool:
		return "a boolean"
	case k >= reflect.Int && k <= reflect.Uint64:
		return "an integer"
	case isNumberKind(k):
		return "a number"
	case k == reflect.Slice || k == reflect.Array:
		return "an array"
	}
	return "an object"
}

// jsonKind names the kind of one JSON value.
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// checkValue runs, before encoding, the checks decoding would: required
// non-empty strings and validate methods, through structs, pointers,
// slices and maps.
func checkValue(path string, v reflect.Value) error {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return checkValue(path, v.Elem())
	case reflect.Struct:
		if reflect.PointerTo(v.Type()).Implements(unmarshalerType) {
			break // a type of its own form: its validate checks it
		}
		if err := checkStruct(path, v); err != nil {
			return err
		}
	case reflect.Slice:
		if v.Type() == rawMessageType {
			break
		}
		for i := range v.Len() {
			if err := checkValue(fmt.Sprintf("%s[%d]", path, i), v.Index(i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			if err := checkValue(fmt.Sprintf("%s[%q]", path, k.String()), v.MapIndex(k)); err != nil {
				return err
			}
		}
	}
	if v.Kind() == reflect.Pointer {
		return nil
	}
	c := v
	if v.CanAddr() {
		c = v.Addr()
	}
	if x, ok := c.Interface().(validator); ok {
		return atPath(path, x.validate())
	}
	return nil
}

// checkStruct checks the fields of the struct v.
func checkStruct(path string, v reflect.Value) error {
	for _, f := range fieldsOf(v.Type()) {
		fv := v.Field(f.index)
		p := joinPath(path, f.key)
		if f.nonempty && fv.Kind() == reflect.String && fv.String() == "" {
			return failAt(p, "must not be empty")
		}
		if err := checkValue(p, fv); err != nil {
			return err
		}
	}
	return nil
}
