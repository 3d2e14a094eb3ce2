package protocol

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
)

// ProviderDescriptor is a provider as the sandbox is told about it: the
// global name a program reaches it by and the tools it offers. The
// functions behind the tools stay with the host; only this description
// crosses.
type ProviderDescriptor struct {
	// Name is the global the program calls the tools through.
	Name string `json:"name" proto:"required"`
	// Tools are the tool names, each callable as Name.tool(...).
	Tools []string `json:"tools"`
	// PositionalArgs, when true, declares that the tools take positional
	// arguments rather than one argument object; nil leaves the
	// executor's default.
	PositionalArgs *bool `json:"positionalArgs,omitempty"`
	// Schemas are optional JSON Schemas of the tools' input, by tool
	// name.
	Schemas map[string]json.RawMessage `json:"schemas,omitzero"`
	// Descriptions are optional one-line descriptions of the tools, by
	// tool name.
	Descriptions map[string]string `json:"descriptions,omitzero"`
}

// ReservedProviderNames are the names no provider may take: the
// runtime's own globals and bindings, which a provider of that name would
// shadow. The list is sorted. Changing it has no effect on
// [ValidateProviders], which works from its own copy.
var ReservedProviderNames = []string{
	"AbortController", "AbortSignal", "AggregateError", "Array",
	"ArrayBuffer", "Atomics", "BigInt", "BigInt64Array", "BigUint64Array",
	"Boolean", "Buffer", "DataView", "Date", "Error", "EvalError",
	"FinalizationRegistry", "Float32Array", "Float64Array", "Function",
	"Headers", "Infinity", "Int16Array", "Int32Array", "Int8Array", "Intl",
	"Iterator", "JSON", "Map", "Math", "NaN", "Number", "Object", "Promise",
	"Proxy", "RangeError", "ReferenceError", "Reflect", "RegExp", "Request",
	"Response", "Set", "SharedArrayBuffer", "String", "Symbol",
	"SyntaxError", "TextDecoder", "TextEncoder", "TypeError", "URIError",
	"URL", "URLSearchParams", "Uint16Array", "Uint32Array", "Uint8Array",
	"Uint8ClampedArray", "WeakMap", "WeakRef", "WeakSet", "arguments",
	"atob", "btoa", "clearInterval", "clearTimeout", "codemode", "console",
	"crypto", "decodeURI", "decodeURIComponent", "encodeURI",
	"encodeURIComponent", "eval", "exports", "fetch", "global",
	"globalThis", "isFinite", "isNaN", "module", "parseFloat", "parseInt",
	"performance", "process", "queueMicrotask", "require", "search",
	"setInterval", "setTimeout", "structuredClone", "tools", "undefined",
}

// JavaScriptReservedWords are the words ECMAScript 2023 reserves,
// strict-mode and module code included (await, yield, let, static and
// the future reserved words), along with the literals null, true and
// false. A provider name cannot be one, since a program could not write
// it as a binding. The list is sorted. Changing it has no effect on
// [ValidateProviders].
var JavaScriptReservedWords = []string{
	"await", "break", "case", "catch", "class", "const", "continue",
	"debugger", "default", "delete", "do", "else", "enum", "export",
	"extends", "false", "finally", "for", "function", "if", "implements",
	"import", "in", "instanceof", "interface", "let", "new", "null",
	"package", "private", "protected", "public", "return", "static",
	"super", "switch", "this", "throw", "true", "try", "typeof", "var",
	"void", "while", "with", "yield",
}

// ProviderNamePattern is the form of a provider or tool name: an ASCII
// JavaScript identifier, letters, digits, _ and $, not starting with a
// digit.
var ProviderNamePattern = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

var (
	reservedNames = setOf(ReservedProviderNames)
	reservedWords = setOf(JavaScriptReservedWords)
)

func setOf(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// IsReservedProviderName reports whether name is in
// [ReservedProviderNames].
func IsReservedProviderName(name string) bool { return reservedNames[name] }

// IsJavaScriptReservedWord reports whether name is in
// [JavaScriptReservedWords].
func IsJavaScriptReservedWord(name string) bool { return reservedWords[name] }

const identifierRule = "letters, digits, _ and $, not starting with a digit"

// ValidateProviders checks a provider list and returns the text of the
// first failure, or "" when every provider is acceptable. Providers are
// checked in order. Each name is tested against
// [ReservedProviderNames], then [ProviderNamePattern], then
// [JavaScriptReservedWords], then the names already seen; then each of
// its tools must be a non-empty identifier declared once, and every
// schema and description must name a declared tool.
func ValidateProviders(providers []ProviderDescriptor) string {
	seen := make(map[string]bool, len(providers))
	for _, p := range providers {
		if msg := validateProviderName(p.Name, seen); msg != "" {
			return msg
		}
		seen[p.Name] = true
		if msg := validateTools(p); msg != "" {
			return msg
		}
	}
	return ""
}

// CheckProviders is [ValidateProviders] as an error: nil, or an *Error
// with [CodeInvalidRequest] carrying the failure text.
func CheckProviders(providers []ProviderDescriptor) error {
	if msg := ValidateProviders(providers); msg != "" {
		return NewError(CodeInvalidRequest, msg)
	}
	return nil
}

func validateProviderName(name string, seen map[string]bool) string {
	// The texts are @cloudflare/codemode's, which the seed's dialect pins.
	switch {
	case reservedNames[name]:
		return fmt.Sprintf("Provider name %q is reserved", name)
	case !ProviderNamePattern.MatchString(name):
		return fmt.Sprintf("Provider name %q is not a valid JavaScript identifier", name)
	case reservedWords[name]:
		return fmt.Sprintf("Provider name %q is a JavaScript reserved word", name)
	case seen[name]:
		return fmt.Sprintf("Duplicate provider name %q", name)
	}
	return ""
}

func validateTools(p ProviderDescriptor) string {
	tools := make(map[string]bool, len(p.Tools))
	for _, t := range p.Tools {
		switch {
		case t == "":
			return fmt.Sprintf("provider %q: a tool name is empty", p.Name)
		case !ProviderNamePattern.MatchString(t):
			return fmt.Sprintf("provider %q: tool name %q is not a JavaScript identifier (%s)", p.Name, t, identifierRule)
		case tools[t]:
			return fmt.Sprintf("provider %q: tool %q is declared twice", p.Name, t)
		}
		tools[t] = true
	}
	for _, t := range sortedKeys(p.Schemas) {
		if !tools[t] {
			return fmt.Sprintf("provider %q: a schema names tool %q, which the provider does not declare", p.Name, t)
		}
		if !json.Valid(p.Schemas[t]) {
			return fmt.Sprintf("provider %q: the schema of tool %q is not valid JSON", p.Name, t)
		}
	}
	for _, t := range sortedKeys(p.Descriptions) {
		if !tools[t] {
			return fmt.Sprintf("provider %q: a description names tool %q, which the provider does not declare", p.Name, t)
		}
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
