package protocol

import (
	"bytes"
	"encoding/json"
	"testing"
)

// slowObject is decodeObject's slow path alone.
func slowObject(data []byte) (map[string]json.RawMessage, bool) {
	fields, err := readObject(data)
	return fields, err == nil
}

// FuzzSplitObject: whatever the fast path accepts, the slow path accepts
// too, with the same keys and values.
func FuzzSplitObject(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, ` {"type":"dispatch","id":"1","callId":"c","provider":"p","tool":"t","args":"[1]"} `,
		`{"a":{"b":[1,"]}",{"c":null}]},"d":"\"}"}`, `{"a":1,"a":2}`, `{"\u0061":1,"a":2}`, `{"a":1}x`, `{"a":tru}`, `{"a":-1.5e3}`,
		`{"k\\":"v"}`, "{\"\xff\":1}", `{"a":[}`, `{"a":"\ud800"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := splitObject(data)
		if !ok {
			return
		}
		slow, sok := slowObject(data)
		if !sok {
			t.Fatalf("fast path accepted %q, slow path refused it", data)
		}
		if len(fast) != len(slow) {
			t.Fatalf("%q: %d fields fast, %d slow", data, len(fast), len(slow))
		}
		for k, v := range fast {
			w, ok := slow[k]
			var a, b bytes.Buffer
			if !ok || json.Compact(&a, v) != nil || json.Compact(&b, w) != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatalf("%q: field %q is %q fast, %q slow", data, k, v, w)
			}
		}
	})
}
