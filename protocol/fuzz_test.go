package protocol_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/go-codemode/codemode/protocol"
)

func FuzzParseDispatchArguments(f *testing.F) {
	for _, s := range []string{
		"", " ", "[]", "[1,2]", `{"a":1}`, `"s"`, "null", `[{"$binary":"aGk="}]`,
		`{"$binary":"aGk=","x":1}`, "[", "1 2", `[{"$binary":"!"}]`, `[[[[]]]]`, "\u00a0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args, err := protocol.ParseDispatchArguments(s)
		raw, rawErr := protocol.ParseDispatchArgumentsRaw(s)
		if err != nil {
			if protocol.CodeOf(err) != protocol.CodeMalformedMessage {
				t.Fatalf("%q: code of %v", s, err)
			}
			// Only a number beyond float64 separates the two parsers.
			if valid := json.Valid([]byte(s)); valid != (rawErr == nil) ||
				(valid && !strings.HasPrefix(err.Error(), "tool arguments cannot be decoded: ")) {
				t.Fatalf("%q: err %v, Raw err %v", s, err, rawErr)
			}
			return
		}
		if rawErr != nil {
			t.Fatalf("%q: Raw err %v alone", s, rawErr)
		}
		if args == nil || len(args) != len(raw) {
			t.Fatalf("%q: %d args, %d raw", s, len(args), len(raw))
		}
		// The list re-encodes and parses back to itself.
		enc, err := protocol.StringifyForDispatch(args)
		if err != nil {
			t.Fatalf("%q: re-encoding %#v: %v", s, args, err)
		}
		again, err := protocol.ParseDispatchArguments(enc)
		if err != nil || !reflect.DeepEqual(again, args) {
			t.Fatalf("%q -> %s -> %#v, %v; want %#v", s, enc, again, err, args)
		}
		// The envelope of the arguments carries them.
		env, err := protocol.ResultEnvelope(args)
		if err != nil {
			t.Fatal(err)
		}
		result, _, isErr, err := protocol.ParseEnvelope(env)
		if err != nil || isErr || string(result) != enc {
			t.Fatalf("envelope %s: %s, %v, %v", env, result, isErr, err)
		}
	})
}

func FuzzDecode(f *testing.F) {
	for _, m := range sampleMessages() {
		b, err := protocol.Encode(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		``, `{}`, `[]`, `{"type":"hello"}`, `{"type":"hello","id":"1","version":1} x`,
		`{"type":"execute","id":"1","code":"x","options":{"timeout":1e3}}`,
		`{"type":"execute","id":"1","code":"x","modules":{"a":"x","b":{"json":{"__proto__":1}}}}`,
		`{"type":"result","id":"1","resultJson":[ 1 , 2 ],"logs":null,"handles":[]}`,
		`{"type":"hello","id":"\ud800","version":1}`,
		"{\"type\":\"hello\",\"id\":\"\xff\",\"version\":1}",
		`{"type":"dispatchResult","id":"1","callId":"2","envelope":"{\"result\":[1, 2]}"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		m, err := protocol.Decode(frame)
		if err != nil {
			if m != nil {
				t.Fatal("a message beside an error")
			}
			if c := protocol.CodeOf(err); c != protocol.CodeMalformedMessage && c != protocol.CodePayloadTooLarge {
				t.Fatalf("code %q: %v", c, err)
			}
			return
		}
		if m.CorrelationID() == "" && m.Type() != protocol.TypeError {
			t.Fatalf("decoded %#v without an id", m)
		}
		b, err := protocol.Encode(m)
		if err != nil {
			t.Fatalf("decoded %#v from %q does not encode: %v", m, frame, err)
		}
		back, err := protocol.DecodeLimit(b, len(b))
		if err != nil {
			t.Fatalf("re-encoded %s does not decode: %v", b, err)
		}
		if !reflect.DeepEqual(back, m) {
			t.Fatalf("round trip of %q\n via %s\n got %#v\nwant %#v", frame, b, back, m)
		}
		if b2, err := protocol.Encode(back); err != nil || string(b2) != string(b) {
			t.Fatalf("encoding is not stable: %s then %s, %v", b, b2, err)
		}
		if !strings.HasPrefix(string(b), `{"type":"`) {
			t.Fatalf("frame %s", b)
		}
	})
}

func FuzzSeparateImports(f *testing.F) {
	for _, s := range []string{
		"import x from \"a\"; import {y} from 'b'\nasync () => {}",
		"// c\nimport * as n from 'm' with {type:'json'}\n() => n",
		"import(\"x\")", "import a from \"a\" /* open", "import {\"a\" as b} from 'c';;x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		imports, body := protocol.SeparateImports(code)
		if !strings.Contains(code, imports) || !strings.HasSuffix(code, body) {
			t.Fatalf("%q split into %q and %q", code, imports, body)
		}
		if imports != "" && !strings.HasPrefix(strings.TrimLeft(imports, " \t\r\n\v\f\u00a0\ufeff\u2028\u2029"), "import") &&
			!strings.HasPrefix(strings.TrimSpace(imports), "/") {
			t.Fatalf("%q: imports %q do not start with an import or a comment", code, imports)
		}
		// Splitting the body again finds no further import block that the
		// first split missed.
		if imports != "" {
			if again, _ := protocol.SeparateImports(body); strings.HasPrefix(body, "import") && again != "" {
				t.Fatalf("%q: body %q still leads with imports %q", code, body, again)
			}
		}
	})
}

func FuzzParseEnvelope(f *testing.F) {
	for _, s := range []string{`{"result":null}`, `{"error":"x"}`, `{}`, `{"result":1,"error":"x"}`, `{"result":{"$binary":"AQ=="}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		result, msg, isErr, err := protocol.ParseEnvelope(s)
		if err != nil {
			if protocol.CodeOf(err) != protocol.CodeMalformedMessage {
				t.Fatalf("code of %v", err)
			}
			return
		}
		var env string
		if isErr {
			env = protocol.ErrorEnvelope(msg)
		} else {
			if !json.Valid(result) {
				t.Fatalf("result %q is not JSON", result)
			}
			env = `{"result":` + string(result) + `}`
		}
		r2, m2, e2, err := protocol.ParseEnvelope(env)
		if err != nil || e2 != isErr || m2 != msg || string(r2) != string(result) {
			t.Fatalf("%q -> %s -> %s %q %v %v", s, env, r2, m2, e2, err)
		}
	})
}
