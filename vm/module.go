package vm

import (
	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/value"
)

// ModuleHost is implemented by hosts that provide modules to import and
// import(): Module returns the module object or throws.
type ModuleHost = engine.ModuleHost

// module resolves a module name through the host.
func (run *Run) module(name string) value.Value {
	if mh, ok := run.host.(ModuleHost); ok {
		return mh.Module(run.realm, name)
	}
	run.realm.ThrowError(value.Error, "Cannot find module '%s': this host provides no modules", name)
	return value.Undefined
}

// importCall is import(spec): a promise of the module's namespace (its
// properties, and default), rejected when the module cannot be had.
func (run *Run) importCall(spec value.Value) value.Value {
	r := run.realm
	p := r.NewPromise()
	exc := r.Try(func() {
		mod := run.module(r.ToString(spec).String())
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

// bigIntMessage is the marker UNSUPPORTED's operand gives for a BigInt
// literal, whose message is its own.
const bigIntMarker = "BigInt"

func throwUnsupported(r *value.Realm, what string) {
	if what == bigIntMarker {
		r.ThrowKind("UnsupportedSyntax", value.SyntaxError, "BigInt literals are not supported.")
	}
	r.ThrowKind("UnsupportedSyntax", value.SyntaxError, "%s", engine.UnsupportedMessage(what))
}
