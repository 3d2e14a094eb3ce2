package ast

// BindingKind says how a name was declared, which decides when it is
// initialized (TDZ) and whether it can be assigned.
type BindingKind uint8

// Binding kinds.
const (
	BindVar       BindingKind = iota // var: function-scoped, starts undefined
	BindLet                          // let: block-scoped, TDZ until declared
	BindConst                        // const: like let, and never reassigned
	BindClass                        // a class declaration's outer name: like let
	BindClassName                    // a class's own name inside its body: like const
	BindFunction                     // a function declaration: initialized on scope entry
	BindParam                        // a parameter
	BindCatch                        // a catch clause parameter
	BindImport                       // a name bound by an import declaration: read-only
	BindCallee                       // a named function expression's own name: read-only
	BindThis                         // the implicit `this` of a non-arrow function
	BindArguments                    // the implicit `arguments` of a non-arrow function
	BindGlobal                       // a free name, looked up among the host's globals
)

var bindingKindNames = [...]string{"var", "let", "const", "class", "class name", "function",
	"param", "catch", "import", "callee", "this", "arguments", "global"}

func (k BindingKind) String() string { return bindingKindNames[k] }

// Storage says where an engine keeps a binding's value.
type Storage uint8

// Binding storage.
const (
	// Local lives in a slot of its function's frame (Index into
	// FuncScope.Locals) and no closure sees it.
	Local Storage = iota
	// Cell also has a frame slot, but the slot holds a shared cell because
	// a nested function captures it. A block re-entered (a loop body)
	// creates a fresh cell for its own declarations each time.
	Cell
	// Free is a captured variable of an enclosing function: Index into
	// FuncScope.Free, and Outer is the binding it captures.
	Free
	// Global is a name the program does not declare: a host global.
	Global
)

func (s Storage) String() string { return [...]string{"local", "cell", "free", "global"}[s] }

// Binding is one variable as the resolver sees it. Every *Ident (and each
// `this`) points to the Binding it refers to; identifiers that name the
// same variable in the same function share one Binding.
type Binding struct {
	Name    string
	Kind    BindingKind
	Decl    Pos // where it was declared; NoPos for implicit and global bindings
	Storage Storage
	Index   int
	Outer   *Binding // for Free: the captured binding one function out

	owner *FuncScope
}

// Lexical reports whether reading the binding before its declaration
// runs is a ReferenceError (the temporal dead zone).
func (b *Binding) Lexical() bool {
	switch b.Kind {
	case BindLet, BindConst, BindClass, BindClassName:
		return true
	}
	return false
}

// ReadOnly reports whether assigning to the binding is a TypeError.
func (b *Binding) ReadOnly() bool {
	switch b.Kind {
	case BindConst, BindClassName, BindImport, BindCallee:
		return true
	}
	return false
}

// Scope lists what a block-like construct declares: engines create these
// bindings (uninitialized when Lexical, fresh cells when Cell) each time
// the construct is entered, then initialize Funcs.
type Scope struct {
	Bindings []*Binding
	Funcs    []*FuncDecl // function declarations hoisted to the start of the scope
}

// FuncScope is the frame layout of one function, computed by the resolver.
type FuncScope struct {
	// Locals are the bindings that live in this function's frame, in slot
	// order: parameters, vars, lexical declarations of every block, and the
	// implicit this, arguments and callee bindings when they are used.
	Locals []*Binding
	// Free are the bindings of enclosing functions that this function
	// captures; a closure holds one cell for each.
	Free []*Binding
	// Params are the parameter bindings, in declaration order.
	Params []*Binding
	// Vars is the function-level scope: var declarations and top-level
	// function declarations (initialized on entry).
	Vars *Scope
	// This, Arguments and Callee are the implicit bindings, when used.
	This      *Binding
	Arguments *Binding
	Callee    *Binding
	Parent    *FuncScope
}
