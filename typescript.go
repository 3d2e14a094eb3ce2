package codemode

import "github.com/go-codemode/codemode/ast"

// TypeScriptMode says what a Runtime does with TypeScript syntax in a
// program. Models write TypeScript because the catalog shows TypeScript
// signatures; the default erases it.
type TypeScriptMode uint8

const (
	// TypeScriptErase (the zero value, the default) accepts the
	// TypeScript that has no run-time meaning and erases it before the
	// program runs, as Node's type stripping does: annotations, as and
	// satisfies, the non-null !, type arguments and parameters, optional
	// parameters, interface and type declarations, declare, import type
	// and export type, abstract, and modifiers on class members. What has
	// run-time meaning (enum, namespace, parameter properties, decorators)
	// is a ParseError that says what to write instead. Positions in
	// diagnostics are those of the text as sent.
	TypeScriptErase TypeScriptMode = iota
	// TypeScriptReject makes any TypeScript syntax a ParseError ("TypeScript
	// syntax is not accepted (type annotation); write plain JavaScript"),
	// the reference's behaviour.
	TypeScriptReject
)

// parseOptions are the front end's options for this Runtime's programs.
func (rt *Runtime) parseOptions() ast.Options {
	return ast.Options{NoTypeScript: rt.opts.TypeScript == TypeScriptReject}
}
