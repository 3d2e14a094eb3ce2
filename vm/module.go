package vm

import (
	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/value"
)

// ModuleHost is implemented by hosts that provide modules to import and
// import(): Module returns the module object or throws.
type ModuleHost = engine.ModuleHost

// module resolves a module name through the host.
func (run *Run) module(name string) value.Value { return engine.Module(run.realm, run.host, name) }

// importCall is import(spec).
func (run *Run) importCall(spec value.Value) value.Value {
	return engine.Import(run.realm, run.host, spec)
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
