package codemode

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/go-codemode/codemode/value"
)

// Tool results usually are maps, slices and scalars. Copying those into
// program values directly gives what the reference's JSON round trip
// (JSON.parse(JSON.stringify(result))) gives, without writing and parsing
// the text; anything else (structs with tags, custom marshalers) takes
// the round trip.

// errNeedsJSON sends a value down the json.Marshal path.
var errNeedsJSON = errors.New("needs encoding/json")

// maxGoDepth bounds the direct copy; deeper values take the round trip,
// which has its own limits.
const maxGoDepth = 64

// goToValue copies a Go value into the realm with JSON semantics.
func goToValue(r *value.Realm, v any, depth int) (value.Value, error) {
	c := goCopyIn{r: r}
	return c.value(v, depth)
}

// goCopyIn is one copy of a Go value into the realm: the realm, and the
// copy's repeated short strings, shared.
type goCopyIn struct {
	r    *value.Realm
	strs value.Interned
}

func (c *goCopyIn) value(v any, depth int) (value.Value, error) {
	r := c.r
	if depth > maxGoDepth {
		return value.Undefined, errNeedsJSON
	}
	switch x := v.(type) {
	case nil:
		return value.Null, nil
	case string:
		s, fresh := c.strs.String(x)
		if fresh {
			r.Charge(s.Bytes())
		}
		return value.Str(s), nil
	case bool:
		return value.Bool(x), nil
	case float64:
		return floatValue(x)
	case float32:
		return floatValue(float64(x))
	case int:
		return value.Number(float64(x)), nil
	case int64:
		return value.Number(float64(x)), nil
	case int32:
		return value.Number(float64(x)), nil
	case uint64:
		return value.Number(float64(x)), nil
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return value.Undefined, fmt.Errorf("json: invalid number literal %q", string(x))
		}
		return value.Number(f), nil
	case json.RawMessage:
		return parseJSONValue(r, x)
	case dispatchBytes:
		r.Charge(len(x) * 16)
		return bytesValue(r, x), nil
	case map[string]any:
		return mapToValue(c, x, depth, false)
	case []any:
		return listToValue(c, x, depth)
	// The typed maps and lists tools return most often, without reflection.
	case map[string]string:
		return mapToValue(c, x, depth, true)
	case map[string]int:
		return mapToValue(c, x, depth, true)
	case map[string]float64:
		return mapToValue(c, x, depth, true)
	case map[string]bool:
		return mapToValue(c, x, depth, true)
	case []string:
		return listToValue(c, x, depth)
	case []int:
		return listToValue(c, x, depth)
	case []float64:
		return listToValue(c, x, depth)
	case []map[string]any:
		return listToValue(c, x, depth)
	}
	return reflectToValue(c, reflect.ValueOf(v), depth)
}

// typedCopyable are the typed results goToValue copies without
// reflection; callTool passes them on as they are.
func typedCopyable(v any) bool {
	switch v.(type) {
	case map[string]string, map[string]int, map[string]float64, map[string]bool,
		[]string, []int, []float64, []map[string]any:
		return true
	}
	return false
}

// mapToValue copies a map as an object, its keys in encoding/json's
// (sorted) order. A nil typed map is null, as it marshals; a nil
// map[string]any has always been {} (nilIsNull false).
func mapToValue[V any](c *goCopyIn, m map[string]V, depth int, nilIsNull bool) (value.Value, error) {
	r := c.r
	if m == nil && nilIsNull {
		return value.Null, nil
	}
	var scratch [8]string
	keys := scratch[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys) // encoding/json's order
	o := r.NewPlainObject()
	o.Reserve(len(keys))
	for _, k := range keys {
		e, err := c.value(m[k], depth+1)
		if err != nil {
			return value.Undefined, err
		}
		if k == "__proto__" {
			continue // never a prototype; JSON.parse makes it a key, the boundary drops it
		}
		r.DefineProperty(o, value.Property{Key: propertyKey(k), Value: e, Flags: value.DefaultFlags})
	}
	return value.Obj(o), nil
}

// propertyKey is a Go string as a property key: an ASCII one as it is,
// others through value.String (WTF-8, as the engine keeps keys).
func propertyKey(k string) string {
	for i := 0; i < len(k); i++ {
		if k[i] >= utf8.RuneSelf {
			return value.NewString(k).Key()
		}
	}
	return k
}

// listToValue copies a slice as an array; a nil slice is null.
func listToValue[E any](c *goCopyIn, list []E, depth int) (value.Value, error) {
	r := c.r
	if list == nil {
		return value.Null, nil
	}
	elems := make([]value.Value, len(list))
	for i, e := range list {
		ev, err := c.value(e, depth+1)
		if err != nil {
			return value.Undefined, err
		}
		elems[i] = ev
	}
	return value.Obj(r.NewArrayValue(elems)), nil
}

// reflectToValue handles typed maps and slices of the kinds above.
func reflectToValue(c *goCopyIn, rv reflect.Value, depth int) (value.Value, error) {
	switch rv.Kind() {
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String || rv.Type().Key() != reflect.TypeFor[string]() {
			return value.Undefined, errNeedsJSON
		}
		if rv.IsNil() {
			return value.Null, nil
		}
		m := make(map[string]any, rv.Len())
		it := rv.MapRange()
		for it.Next() {
			m[it.Key().String()] = it.Value().Interface()
		}
		return c.value(m, depth)
	case reflect.Slice:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return value.Undefined, errNeedsJSON // []byte marshals as base64
		}
		if rv.IsNil() {
			return value.Null, nil
		}
		fallthrough
	case reflect.Array:
		list := make([]any, rv.Len())
		for i := range list {
			list[i] = rv.Index(i).Interface()
		}
		return c.value(list, depth)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if rv.Type().PkgPath() != "" {
			return value.Undefined, errNeedsJSON // a named type may marshal itself
		}
		return value.Number(float64(rv.Int())), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if rv.Type().PkgPath() != "" {
			return value.Undefined, errNeedsJSON
		}
		return value.Number(float64(rv.Uint())), nil
	}
	return value.Undefined, errNeedsJSON
}

func floatValue(f float64) (value.Value, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return value.Undefined, fmt.Errorf("json: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, 64))
	}
	return value.Number(f), nil
}

// parseJSONValue parses JSON text into the realm.
func parseJSONValue(r *value.Realm, data []byte) (value.Value, error) {
	if len(data) == 0 {
		return value.Null, nil
	}
	return value.ParseJSON(value.NewString(string(data)), value.JSONProtos{
		Object: r.Intrinsic(value.ObjectPrototype), Array: r.Intrinsic(value.ArrayPrototype)},
		func(n int) error { r.Charge(n); return nil })
}

// jsonRoundTrip copies a Go value in through encoding/json, as the
// reference's JSON.parse(JSON.stringify(value)) does.
func jsonRoundTrip(r *value.Realm, v any) (value.Value, error) {
	data, err := marshalBounded(v)
	if err != nil {
		return value.Undefined, err
	}
	return parseJSONValue(r, data)
}

// maxGoNesting and maxGoParts bound the Go values handed to
// encoding/json, which recurses once per level with no limit of its own:
// a result a million levels deep overflows the goroutine's stack, a fatal
// error no recover catches, and a cycle through a pointer is only found
// a thousand levels down.
const (
	maxGoNesting = 10_000
	maxGoParts   = 10_000_000
)

// errCircularGo is checkNesting's error for a value that holds itself.
var errCircularGo = fmt.Errorf("json: the value holds itself (a cycle)")

// marshalBounded is json.Marshal for a host's value, refusing one nested
// deeper than maxGoNesting or made of more than maxGoParts values.
func marshalBounded(v any) ([]byte, error) {
	if err := checkNesting(v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// checkNesting walks v as encoding/json would (interfaces, pointers,
// maps, slices, arrays, exported struct fields).
//
// A container that holds itself fails at once, as encoding/json's
// cycle check would only after a deep descent: walking a cycle that
// branches would otherwise take the whole parts budget (10 million
// steps, seconds under a loaded machine) before failing.
func checkNesting(v any) error {
	parts := 0
	type container struct {
		ptr uintptr
		len int
	}
	onPath := map[container]bool{}
	var walk func(rv reflect.Value, depth int) error
	enter := func(c container) (bool, func()) {
		if onPath[c] {
			return false, nil
		}
		onPath[c] = true
		return true, func() { delete(onPath, c) }
	}
	walk = func(rv reflect.Value, depth int) error {
		if depth > maxGoNesting {
			return fmt.Errorf("json: the value nests deeper than %d levels (or holds itself)", maxGoNesting)
		}
		if parts++; parts > maxGoParts {
			return fmt.Errorf("json: the value has more than %d parts", maxGoParts)
		}
		switch rv.Kind() {
		case reflect.Interface, reflect.Pointer:
			if rv.IsNil() {
				return nil
			}
			if rv.Kind() == reflect.Pointer {
				ok, leave := enter(container{rv.Pointer(), -1})
				if !ok {
					return errCircularGo
				}
				defer leave()
			}
			return walk(rv.Elem(), depth+1)
		case reflect.Map:
			if rv.IsNil() {
				return nil
			}
			ok, leave := enter(container{rv.Pointer(), -2})
			if !ok {
				return errCircularGo
			}
			defer leave()
			for it := rv.MapRange(); it.Next(); {
				if err := walk(it.Value(), depth+1); err != nil {
					return err
				}
			}
		case reflect.Slice, reflect.Array:
			if rv.Type().Elem().Kind() == reflect.Uint8 {
				return nil // bytes: base64 or raw JSON
			}
			if rv.Kind() == reflect.Slice && rv.Len() > 0 {
				ok, leave := enter(container{rv.Pointer(), rv.Len()})
				if !ok {
					return errCircularGo
				}
				defer leave()
			}
			for i := 0; i < rv.Len(); i++ {
				if err := walk(rv.Index(i), depth+1); err != nil {
					return err
				}
			}
		case reflect.Struct:
			t := rv.Type()
			for i := 0; i < rv.NumField(); i++ {
				if t.Field(i).IsExported() {
					if err := walk(rv.Field(i), depth+1); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return walk(reflect.ValueOf(v), 0)
}
