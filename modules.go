package codemode

import (
	"sort"
	"strings"

	"github.com/go-codemode/codemode/value"
)

// Modules: `import fs from "node:fs"`, `require("crypto")` and
// `await import("url")` load globals by their Node module name (reference
// 3.13). There are no packages: a module is a global the host or the
// library provides, or an alias built from globals.

// moduleAliases build a module from the globals that exist.
var moduleAliases = map[string]func(h *host, r *value.Realm) (value.Value, bool){
	"fs/promises": func(h *host, r *value.Realm) (value.Value, bool) {
		fs, ok := h.moduleGlobal(r, "fs")
		if !ok || !fs.IsObject() {
			return value.Undefined, false
		}
		p := r.Get(fs, "promises")
		return p, !p.IsUndefined()
	},
	"url":    pick("URL", "URLSearchParams"),
	"util":   pick("TextEncoder", "TextDecoder"),
	"buffer": pick("Buffer", "atob", "btoa"),
}

// pick makes a module of the named globals that exist (a null-prototype
// object); with none of them the module is unavailable.
func pick(names ...string) func(h *host, r *value.Realm) (value.Value, bool) {
	return func(h *host, r *value.Realm) (value.Value, bool) {
		o := value.NewObject(nil)
		found := false
		for _, n := range names {
			if v, ok := h.moduleGlobal(r, n); ok {
				o.Define(n, v, value.DefaultFlags)
				found = true
			}
		}
		return value.Obj(o), found
	}
}

// moduleGlobal is a global by name: the host's (extensions) first, then
// the library's.
func (h *host) moduleGlobal(r *value.Realm, name string) (value.Value, bool) {
	if h.exts != nil {
		if v, ok := h.exts.global(r, name); ok {
			return v, true
		}
	}
	return r.Global(name)
}

// moduleNames lists what this host can import, for the error.
func (h *host) moduleNames(r *value.Realm) []string {
	var names []string
	if h.exts != nil {
		for n := range h.exts.globals {
			names = append(names, n)
		}
	}
	for _, n := range []string{"crypto"} {
		if r.Library().HasGlobal(n) {
			names = append(names, n)
		}
	}
	for alias, build := range moduleAliases {
		if _, ok := build(h, r); ok {
			names = append(names, alias)
		}
	}
	sort.Strings(names)
	return names
}

// Module implements engine.ModuleHost.
func (h *host) Module(r *value.Realm, spec string) value.Value {
	name := strings.TrimPrefix(spec, "node:")
	if h.exts != nil {
		if v, ok := h.exts.global(r, name); ok {
			return v
		}
	}
	if name == "crypto" {
		if v, ok := r.Global(name); ok {
			return v
		}
	}
	if build, ok := moduleAliases[name]; ok {
		if v, ok := build(h, r); ok {
			return v
		}
	}
	r.ThrowError(value.Error, "Cannot find module '%s'. There are no packages; this host provides only these modules: %s.", spec, strings.Join(h.moduleNames(r), ", "))
	return value.Undefined
}

// requireNative is the `require` global.
var requireNative = &value.Native{Name: "require", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	h := c.Callee.Internal.(*value.Bound).Data.(*host)
	if !c.Arg(0).IsString() {
		r.ThrowType("The \"id\" argument must be of type string. Received %s", r.Describe(c.Arg(0)))
	}
	return h.Module(r, c.Arg(0).AsString().String())
}}
