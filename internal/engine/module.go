package engine

import "github.com/go-codemode/codemode/value"

// Module resolves a module name through the host (import, require).
func Module(r *value.Realm, host Host, name string) value.Value {
	if mh, ok := host.(ModuleHost); ok {
		return mh.Module(r, name)
	}
	r.ThrowError(value.Error, "Cannot find module '%s': this host provides no modules", name)
	return value.Undefined
}

// Import is import(spec): a promise of the module's namespace (its
// properties, and default), rejected when the module cannot be had.
func Import(r *value.Realm, host Host, spec value.Value) value.Value {
	p := r.NewPromise()
	exc := r.Try(func() {
		mod := Module(r, host, r.ToString(spec).String())
		ns := value.NewObject(nil)
		if mo := mod.AsObject(); mo != nil {
			for _, k := range r.OwnKeys(mo, true, false) {
				ns.Define(k, r.Get(mod, k), value.Enumerable|value.Writable)
			}
		}
		ns.Define("default", mod, value.Enumerable|value.Writable)
		r.ResolvePromise(p, value.Obj(ns))
	})
	if exc != nil {
		r.RejectPromise(p, exc.Value)
	}
	return value.Obj(p)
}

// ResolveGlobal is a global name's value the first time a run reads it:
// the host's (tools, bindings, extensions) before the library's.
func ResolveGlobal(r *value.Realm, host Host, name string) (value.Value, bool) {
	if host != nil {
		if v, ok := host.Global(r, name); ok {
			return v, true
		}
	}
	return r.Global(name)
}
