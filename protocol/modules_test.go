package protocol_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/go-codemode/codemode/protocol"
)

func TestModuleSourceUnmarshal(t *testing.T) {
	good := []struct {
		in   string
		want protocol.ModuleSource
	}{
		{`"export default 1"`, protocol.JSModule("export default 1")},
		{`{"js":"export const a = 1"}`, protocol.JSModule("export const a = 1")},
		{`{"cjs":"module.exports = 1"}`, protocol.CJSModule("module.exports = 1")},
		{`{"text":"hello\n"}`, protocol.TextModule("hello\n")},
		{`{"json": {"a": [1, 2]}}`, protocol.JSONModule(json.RawMessage(`{"a":[1,2]}`))},
		{`{"json":null}`, protocol.JSONModule(json.RawMessage(`null`))},
		{`{"json":"s"}`, protocol.JSONModule(json.RawMessage(`"s"`))},
		{`""`, protocol.JSModule("")},
	}
	for _, c := range good {
		var m protocol.ModuleSource
		if err := json.Unmarshal([]byte(c.in), &m); err != nil || !reflect.DeepEqual(m, c.want) {
			t.Errorf("%s = %+v, %v; want %+v", c.in, m, err, c.want)
		}
	}
	bad := map[string]string{
		`5`:                     "module source must be a string or an object keyed js, cjs, json or text, not a number",
		`null`:                  "module source must be a string or an object keyed js, cjs, json or text, not null",
		`["x"]`:                 "module source must be a string or an object keyed js, cjs, json or text, not an array",
		`{}`:                    "module source is an empty object; name one kind: js, cjs, json or text",
		`{"wasm":"x"}`:          `module source has unknown kind "wasm" (the kinds are js, cjs, json or text)`,
		`{"js":"a","text":"b"}`: `module source names 2 kinds ("js" and "text"); name exactly one`,
		`{"js":"a","js":"b"}`:   `module source: key "js" appears twice`,
		`{"js":5}`:              `module source "js" must be a string, not a number`,
		`{"text":null}`:         `module source "text" must be a string, not null`,
		`{"cjs":{"a":1}}`:       `module source "cjs" must be a string, not an object`,
		`{"JS":"x"}`:            `module source has unknown kind "JS" (the kinds are js, cjs, json or text)`,
		`{"js":"a","data":"b"}`: `module source has unknown kind "data" (the kinds are js, cjs, json or text)`,
	}
	for in, want := range bad {
		var m protocol.ModuleSource
		err := m.UnmarshalJSON([]byte(in))
		if err == nil || err.Error() != want {
			t.Errorf("%s: err = %v\nwant %s", in, err, want)
		}
	}
}

func TestModuleSourceMarshal(t *testing.T) {
	for _, c := range []struct {
		m    protocol.ModuleSource
		want string
	}{
		{protocol.JSModule("export default 'a'"), `{"js":"export default 'a'"}`},
		{protocol.CJSModule("x"), `{"cjs":"x"}`},
		{protocol.TextModule("t"), `{"text":"t"}`},
		{protocol.JSONModule(json.RawMessage(` [1, 2] `)), `{"json":[1,2]}`},
	} {
		b, err := json.Marshal(c.m)
		if err != nil || string(b) != c.want {
			t.Errorf("%+v = %s, %v", c.m, b, err)
		}
		var back protocol.ModuleSource
		if err := json.Unmarshal(b, &back); err != nil || back.Kind != c.m.Kind || back.Source != c.m.Source {
			t.Errorf("%s -> %+v, %v", b, back, err)
		}
	}
	for _, bad := range []protocol.ModuleSource{{}, {Kind: "wasm"}, protocol.JSONModule(nil), protocol.JSONModule(json.RawMessage(`{`))} {
		if _, err := json.Marshal(bad); err == nil {
			t.Errorf("%+v encoded", bad)
		}
	}
}

func TestModuleMap(t *testing.T) {
	var m protocol.ModuleMap
	if err := json.Unmarshal([]byte(`{"b":"export default 1","a":{"json":{"x":1}}}`), &m); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.Names(), []string{"a", "b"}) {
		t.Errorf("Names = %v", m.Names())
	}
	if err := m.Validate(); err != nil {
		t.Errorf("Validate = %v", err)
	}
	m[""] = protocol.JSModule("x")
	if err := m.Validate(); protocol.CodeOf(err) != protocol.CodeInvalidRequest || err.Error() != "module map has an empty module name" {
		t.Errorf("empty name: %v", err)
	}
	delete(m, "")
	m["c"] = protocol.ModuleSource{Kind: "wasm"}
	if err := m.Validate(); err == nil || err.Error() != `module "c": module source has unknown kind "wasm" (the kinds are js, cjs, json or text)` {
		t.Errorf("bad source: %v", err)
	}
}

func TestRenderJSONModule(t *testing.T) {
	for in, want := range map[string]string{
		`{"a": 1}`:                         `export default {"a":1};`,
		` [1, 2.50, -0, 1e5, true, null] `: `export default [1,2.50,-0,1e5,true,null];`,
		`"x"`:                              `export default "x";`,
		`{}`:                               `export default {};`,
		`[[], {}, [{}]]`:                   `export default [[],{},[{}]];`,
		`{"a": {"b": [1, {"c": "d"}]}, "e": "<\u0026>"}`: `export default {"a":{"b":[1,{"c":"d"}]},"e":"<&>"};`,
		`{"__proto__": {"x": 1}, "y": 2}`:                `export default {["__proto__"]:{"x":1},"y":2};`,
		`{"\u005f_proto__": 1}`:                          `export default {["__proto__"]:1};`,
		`[{"__proto__": null}]`:                          `export default [{["__proto__"]:null}];`,
		"\"line\u2028sep\"":                              `export default "line\u2028sep";`,
		`{`:                                              `throw new SyntaxError("JSON module source is not valid JSON");`,
		`1 2`:                                            `throw new SyntaxError("JSON module source is not valid JSON");`,
		`1; globalThis.x = 1`:                            `throw new SyntaxError("JSON module source is not valid JSON");`,
	} {
		if got := protocol.RenderJSONModule(json.RawMessage(in)); got != want {
			t.Errorf("%s = %s\nwant %s", in, got, want)
		}
	}
}

func TestRenderTextModule(t *testing.T) {
	if got := protocol.RenderTextModule("a \"b\"\n</script>"); got != `export default "a \"b\"\n</script>";` {
		t.Errorf("got %s", got)
	}
}
