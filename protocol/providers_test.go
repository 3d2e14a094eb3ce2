package protocol_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/go-codemode/codemode/protocol"
)

func TestReservedListsSorted(t *testing.T) {
	for name, list := range map[string][]string{
		"ReservedProviderNames":   protocol.ReservedProviderNames,
		"JavaScriptReservedWords": protocol.JavaScriptReservedWords,
	} {
		if !slices.IsSorted(list) {
			t.Errorf("%s is not sorted", name)
		}
		if len(slices.Compact(slices.Clone(list))) != len(list) {
			t.Errorf("%s has a duplicate", name)
		}
	}
}

func TestReservedProviderNames(t *testing.T) {
	must := []string{
		"tools", "search", "console", "fetch", "codemode", "globalThis", "Promise", "JSON",
		"Math", "Object", "Array", "String", "Number", "Boolean", "Symbol", "Error", "Date",
		"RegExp", "Map", "Set", "WeakMap", "WeakSet", "Reflect", "Proxy", "BigInt", "Intl",
		"undefined", "NaN", "Infinity", "eval", "arguments", "module", "exports", "require",
		"process", "setTimeout", "setInterval", "clearTimeout", "clearInterval",
		"queueMicrotask", "structuredClone", "atob", "btoa", "URL", "URLSearchParams",
		"TextEncoder", "TextDecoder", "Buffer",
	}
	for _, n := range must {
		if !slices.Contains(protocol.ReservedProviderNames, n) || !protocol.IsReservedProviderName(n) {
			t.Errorf("%q is not reserved", n)
		}
	}
	if protocol.IsReservedProviderName("store") {
		t.Error("store is reserved")
	}
}

func TestJavaScriptReservedWords(t *testing.T) {
	must := []string{
		"await", "break", "case", "catch", "class", "const", "continue", "debugger",
		"default", "delete", "do", "else", "enum", "export", "extends", "false", "finally",
		"for", "function", "if", "implements", "import", "in", "instanceof", "interface",
		"let", "new", "null", "package", "private", "protected", "public", "return",
		"static", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void",
		"while", "with", "yield",
	}
	if !slices.Equal(protocol.JavaScriptReservedWords, must) {
		t.Errorf("JavaScriptReservedWords = %v", protocol.JavaScriptReservedWords)
	}
	for _, n := range []string{"async", "of", "get", "set", "from", "as"} {
		if protocol.IsJavaScriptReservedWord(n) {
			t.Errorf("%q is reported reserved, but it is a valid identifier", n)
		}
	}
}

func TestProviderNamePattern(t *testing.T) {
	for name, ok := range map[string]bool{
		"store": true, "_x": true, "$": true, "a1": true, "A_$9": true,
		"": false, "1a": false, "my-store": false, "a b": false, "é": false, "a.b": false,
		"store\n": false,
	} {
		if protocol.ProviderNamePattern.MatchString(name) != ok {
			t.Errorf("pattern on %q = %v", name, !ok)
		}
	}
}

func yes() *bool { b := true; return &b }

func TestValidateProviders(t *testing.T) {
	p := func(name string, tools ...string) protocol.ProviderDescriptor {
		return protocol.ProviderDescriptor{Name: name, Tools: tools}
	}
	cases := []struct {
		name      string
		providers []protocol.ProviderDescriptor
		want      string
	}{
		{"none", nil, ""},
		{"good", []protocol.ProviderDescriptor{p("store", "listUsers", "get_user"), p("$db"), {
			Name: "kv", Tools: []string{"get"}, PositionalArgs: yes(),
			Schemas:      map[string]json.RawMessage{"get": json.RawMessage(`{"type":"object"}`)},
			Descriptions: map[string]string{"get": "Reads a key."},
		}}, ""},
		{"reserved", []protocol.ProviderDescriptor{p("tools")},
			`Provider name "tools" is reserved`},
		{"reserved global", []protocol.ProviderDescriptor{p("store"), p("JSON")},
			`Provider name "JSON" is reserved`},
		{"empty", []protocol.ProviderDescriptor{p("")}, `Provider name "" is not a valid JavaScript identifier`},
		{"not an identifier", []protocol.ProviderDescriptor{p("my-store")},
			`Provider name "my-store" is not a valid JavaScript identifier`},
		{"leading digit", []protocol.ProviderDescriptor{p("1store")},
			`Provider name "1store" is not a valid JavaScript identifier`},
		{"reserved word", []protocol.ProviderDescriptor{p("class")},
			`Provider name "class" is a JavaScript reserved word`},
		{"strict reserved word", []protocol.ProviderDescriptor{p("let")},
			`Provider name "let" is a JavaScript reserved word`},
		{"literal", []protocol.ProviderDescriptor{p("null")},
			`Provider name "null" is a JavaScript reserved word`},
		{"twice", []protocol.ProviderDescriptor{p("store"), p("kv"), p("store")},
			`Duplicate provider name "store"`},
		{"first failure wins", []protocol.ProviderDescriptor{p("class"), p("tools")},
			`Provider name "class" is a JavaScript reserved word`},
		{"empty tool", []protocol.ProviderDescriptor{p("store", "a", "")},
			`provider "store": a tool name is empty`},
		{"tool not an identifier", []protocol.ProviderDescriptor{p("store", "list-users")},
			`provider "store": tool name "list-users" is not a JavaScript identifier (letters, digits, _ and $, not starting with a digit)`},
		{"tool twice", []protocol.ProviderDescriptor{p("store", "get", "put", "get")},
			`provider "store": tool "get" is declared twice`},
		{"tool named as a reserved word is fine", []protocol.ProviderDescriptor{p("store", "delete", "tools")}, ""},
		{"same tool in two providers is fine", []protocol.ProviderDescriptor{p("a", "get"), p("b", "get")}, ""},
		{"schema of an undeclared tool", []protocol.ProviderDescriptor{{Name: "store", Tools: []string{"get"},
			Schemas: map[string]json.RawMessage{"put": json.RawMessage(`{}`)}}},
			`provider "store": a schema names tool "put", which the provider does not declare`},
		{"schema not JSON", []protocol.ProviderDescriptor{{Name: "store", Tools: []string{"get"},
			Schemas: map[string]json.RawMessage{"get": json.RawMessage(`{`)}}},
			`provider "store": the schema of tool "get" is not valid JSON`},
		{"description of an undeclared tool", []protocol.ProviderDescriptor{{Name: "store", Tools: []string{"get"},
			Descriptions: map[string]string{"put": "x"}}},
			`provider "store": a description names tool "put", which the provider does not declare`},
		{"name checks before tool checks of a later provider", []protocol.ProviderDescriptor{p("store", "a-b"), p("class")},
			`provider "store": tool name "a-b" is not a JavaScript identifier (letters, digits, _ and $, not starting with a digit)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := protocol.ValidateProviders(c.providers); got != c.want {
				t.Errorf("ValidateProviders = %q\nwant %q", got, c.want)
			}
			err := protocol.CheckProviders(c.providers)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("CheckProviders = %v", err)
			case c.want != "" && (protocol.CodeOf(err) != protocol.CodeInvalidRequest || err.Error() != c.want):
				t.Errorf("CheckProviders = %v (%s)", err, protocol.CodeOf(err))
			}
		})
	}
}

// Changing the exported lists does not change validation.
func TestValidateProvidersUsesItsOwnCopy(t *testing.T) {
	saved := protocol.ReservedProviderNames[len(protocol.ReservedProviderNames)-1]
	protocol.ReservedProviderNames[len(protocol.ReservedProviderNames)-1] = "store"
	defer func() { protocol.ReservedProviderNames[len(protocol.ReservedProviderNames)-1] = saved }()
	if got := protocol.ValidateProviders([]protocol.ProviderDescriptor{{Name: "store"}}); got != "" {
		t.Errorf("got %q", got)
	}
}

func TestProviderDescriptorJSON(t *testing.T) {
	d := protocol.ProviderDescriptor{Name: "store", Tools: []string{"get"}}
	b, err := json.Marshal(d)
	if err != nil || string(b) != `{"name":"store","tools":["get"]}` {
		t.Errorf("json = %s, %v", b, err)
	}
	d.PositionalArgs = yes()
	d.Descriptions = map[string]string{"get": "Reads."}
	b, _ = json.Marshal(d)
	if string(b) != `{"name":"store","tools":["get"],"positionalArgs":true,"descriptions":{"get":"Reads."}}` {
		t.Errorf("json = %s", b)
	}
}
