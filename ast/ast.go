// Package ast is codemode's front end: the syntax tree of a program, the
// parser that builds it with an exact source position on every node, the
// early errors JavaScript requires, scope resolution, and the cleanup of
// what models really send (Normalize). TypeScript without run-time
// meaning is parsed and erased (Options.NoTypeScript rejects it instead),
// so the tree of a TypeScript program is that of its JavaScript.
//
// The tree is shaped for evaluation, not for reproducing the text: there
// are no parenthesis nodes (Print puts them back by precedence), an arrow
// with an expression body keeps the expression, and destructuring targets
// are patterns, never expressions. Every node starts at Pos(); the parser
// records nothing else about position.
package ast

// Node is any syntax tree node.
type Node interface {
	Pos() Pos
}

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// Stmt is a statement node.
type Stmt interface {
	Node
	stmtNode()
}

// Pattern is a binding or assignment target: *Ident, *ArrayPattern,
// *ObjectPattern, *AssignPattern, and, in assignments only, *Member and
// *Index.
type Pattern interface {
	Node
	patternNode()
}

// At is embedded by every node and holds its start.
type At struct{ Start Pos }

// Pos returns where the node starts.
func (a *At) Pos() Pos { return a.Start }

// ---------------------------------------------------------------------------
// Expressions

type (
	// Ident is a reference to or a declaration of a variable. The resolver
	// fills Binding; nil means a free (global) name when Global is set.
	Ident struct {
		At
		Name    string
		Binding *Binding // set by the resolver; Binding.Scope says where it lives
	}

	// Name is an identifier that is not a variable: a property key, a label,
	// the property of a member expression.
	Name struct {
		At
		Name string
	}

	// PrivateName is a class private name such as #count (Name excludes #).
	PrivateName struct {
		At
		Name string
	}

	// NumberLit is a numeric literal; Raw is its exact text.
	NumberLit struct {
		At
		Value float64
		Raw   string
	}

	// BigIntLit is a BigInt literal (123n). It parses; the engines reject it
	// when it is evaluated.
	BigIntLit struct {
		At
		Raw string
	}

	// StringLit is a string literal. Value is WTF-8: valid UTF-8 except that
	// a lone surrogate (from an escape such as "\uD800") is kept as its
	// 3-byte generalized-UTF-8 form, so no JavaScript string is lost.
	StringLit struct {
		At
		Value string
		Raw   string
	}

	// RegExpLit is a regular expression literal /Pattern/Flags.
	RegExpLit struct {
		At
		Pattern string
		Flags   string
	}

	// BoolLit is true or false.
	BoolLit struct {
		At
		Value bool
	}

	// NullLit is null.
	NullLit struct{ At }

	// This is the this keyword. Binding is the implicit "this" of the
	// nearest non-arrow function (or of the program), set by the resolver.
	This struct {
		At
		Binding *Binding
	}

	// Super is the super keyword, only as super(...), super.x or super[x].
	Super struct {
		At
		// This is the implicit this of the function super belongs to (the
		// nearest non-arrow), which super(...) initializes; set by the
		// resolver.
		This *Binding
	}

	// NewTarget is new.target.
	NewTarget struct{ At }

	// ImportMeta is import.meta.
	ImportMeta struct{ At }

	// ImportCall is a dynamic import(Arg).
	ImportCall struct {
		At
		Arg Expr
	}

	// TemplateLit is a template literal. len(Quasis) == len(Exprs)+1.
	TemplateLit struct {
		At
		Quasis []*TemplateElement
		Exprs  []Expr
	}

	// TaggedTemplate is Tag`...`.
	TaggedTemplate struct {
		At
		Tag   Expr
		Quasi *TemplateLit
	}

	// ArrayLit is [a, , ...b]. A nil element is a hole.
	ArrayLit struct {
		At
		Elems []Expr
	}

	// Spread is ...X inside an array literal, call arguments or new.
	Spread struct {
		At
		X Expr
	}

	// ObjectLit is {a, b: 1, [k]: v, ...o, m() {}, get g() {}}.
	ObjectLit struct {
		At
		Props []*Property
	}

	// FuncLit is a function or arrow expression.
	FuncLit struct {
		At
		Func *Function
	}

	// ClassLit is a class expression.
	ClassLit struct {
		At
		Class *Class
	}

	// Unary is a prefix operator: ! ~ + - typeof void delete.
	Unary struct {
		At
		Op UnaryOp
		X  Expr
	}

	// Update is ++ or --, prefix or postfix. X is an *Ident, *Member or *Index.
	Update struct {
		At
		Op     UpdateOp
		Prefix bool
		X      Expr
	}

	// Binary is an arithmetic, comparison, bitwise, relational or logical
	// operator (&&, ||, ?? short-circuit; the engines check Op.IsLogical).
	Binary struct {
		At
		Op BinaryOp
		X  Expr
		Y  Expr
	}

	// Assign is Target Op= Value. With Op == Assign the target may be a
	// destructuring pattern; compound forms only take *Ident, *Member and
	// *Index.
	Assign struct {
		At
		Op     AssignOp
		Target Pattern
		Value  Expr
	}

	// Cond is Test ? Then : Else.
	Cond struct {
		At
		Test, Then, Else Expr
	}

	// Call is Callee(Args). Optional marks ?.( .
	Call struct {
		At
		Callee   Expr
		Args     []Expr
		Optional bool
	}

	// New is new Callee(Args).
	New struct {
		At
		Callee Expr
		Args   []Expr
	}

	// Member is X.Prop (or X.#priv). Optional marks ?. .
	Member struct {
		At
		X        Expr
		Prop     *Name
		Private  *PrivateName // set instead of Prop for X.#name
		Optional bool
	}

	// Index is X[Index]. Optional marks ?.[ .
	Index struct {
		At
		X        Expr
		Index    Expr
		Optional bool
	}

	// Chain wraps an optional chain (a?.b.c()) so that short-circuiting
	// stops at its end: (a?.b).c does not short-circuit .c.
	Chain struct {
		At
		X Expr
	}

	// Sequence is the comma operator a, b, c.
	Sequence struct {
		At
		List []Expr
	}

	// Await is await X.
	Await struct {
		At
		X Expr
	}

	// Yield is yield X or yield* X. X may be nil.
	Yield struct {
		At
		X        Expr
		Delegate bool
	}

	// PrivateIn is #name in X.
	PrivateIn struct {
		At
		Name *PrivateName
		X    Expr
	}
)

// TemplateElement is one literal piece of a template. Cooked is nil when
// the piece has an invalid escape, which only a tagged template allows.
type TemplateElement struct {
	At
	Cooked *string
	Raw    string
}

// PropKind says what an object literal entry is.
type PropKind uint8

// The kinds of object literal entries.
const (
	PropInit   PropKind = iota // key: value, or shorthand
	PropMethod                 // key() {}
	PropGet                    // get key() {}
	PropSet                    // set key(v) {}
	PropSpread                 // ...Value
)

// Property is one entry of an object literal. For a non-computed key, Key
// is a *Name, *StringLit or *NumberLit; for a computed one, any Expr.
type Property struct {
	At
	Kind      PropKind
	Key       Expr
	Computed  bool
	Shorthand bool // {a} (Value is the *Ident a)
	Value     Expr // a *FuncLit for methods and accessors
}

// ---------------------------------------------------------------------------
// Patterns

type (
	// ArrayPattern is [a, , b = 1, ...rest]. A nil element is an elision.
	ArrayPattern struct {
		At
		Elems []Pattern
		Rest  Pattern
	}

	// ObjectPattern is {a, b: c, [k]: d = 1, ...rest}.
	ObjectPattern struct {
		At
		Props []*PatternProp
		Rest  Pattern
	}

	// AssignPattern is Target = Default inside a pattern or parameter list.
	AssignPattern struct {
		At
		Target  Pattern
		Default Expr
	}
)

// PatternProp is one key: value entry of an object pattern. Key is as in
// Property.
type PatternProp struct {
	At
	Key       Expr
	Computed  bool
	Shorthand bool
	Value     Pattern
}

// ---------------------------------------------------------------------------
// Functions and classes

// FuncKind says what kind of function a Function is; it decides `this`,
// `arguments`, `super` and whether the function can be constructed.
type FuncKind uint8

// Function kinds.
const (
	FuncNormal      FuncKind = iota // function declarations and expressions
	FuncArrow                       // (a) => b
	FuncMethod                      // object literal and class methods
	FuncGetter                      // get x() {}
	FuncSetter                      // set x(v) {}
	FuncConstructor                 // class constructor
	FuncClassInit                   // a class field initializer or static block, run as a method
	FuncProgram                     // the program itself: the body of an async function
)

// Function is everything a function expression, declaration, arrow,
// method or the program itself has in common.
type Function struct {
	At
	Kind      FuncKind
	Name      *Ident // nil when anonymous; for expressions, bound inside the function
	Async     bool
	Generator bool
	Params    []Pattern
	Rest      Pattern    // ...rest parameter, or nil
	Body      *Block     // the body; nil for an arrow with an expression body
	ExprBody  Expr       // the arrow's expression body
	Derived   bool       // a constructor of a class with extends
	Strict    bool       // always true today: code mode programs are strict
	Scope     *FuncScope // set by the resolver
	// SimpleParams is true when every parameter is a plain identifier
	// without a default (it decides whether duplicates are allowed).
	SimpleParams bool
	// Module is set by Link on the function that runs a module's code: the
	// module's name. Its free names are globals, never the program's own
	// declarations, and it has no implicit arguments.
	Module string
}

// Class is a class declaration or expression.
type Class struct {
	At
	Name    *Ident // the outer binding for declarations; the inner one for expressions
	Extends Expr
	Members []*ClassMember
	// Inner is the class's own name binding, visible inside its body; set by
	// the resolver when the class has a name.
	Inner *Binding
}

// MemberKind says what a class element is.
type MemberKind uint8

// Class element kinds.
const (
	MemberMethod MemberKind = iota
	MemberGetter
	MemberSetter
	MemberField
	MemberConstructor
	MemberStaticBlock
)

// ClassMember is one class element. Key is as in Property, or a
// *PrivateName. Value is the method's function, the field's initializer
// wrapped as a FuncClassInit function (nil when the field has none), or
// the static block as a FuncClassInit function.
type ClassMember struct {
	At
	Kind     MemberKind
	Static   bool
	Key      Expr
	Computed bool
	Value    *Function
}

// ---------------------------------------------------------------------------
// Statements

// DeclKind is var, let or const.
type DeclKind uint8

// Declaration kinds.
const (
	DeclVar DeclKind = iota
	DeclLet
	DeclConst
)

func (k DeclKind) String() string { return [...]string{"var", "let", "const"}[k] }

type (
	// VarDecl is a var, let or const declaration.
	VarDecl struct {
		At
		Kind  DeclKind
		Decls []*Declarator
	}

	// FuncDecl is a function declaration.
	FuncDecl struct {
		At
		Func *Function
	}

	// ClassDecl is a class declaration.
	ClassDecl struct {
		At
		Class *Class
	}

	// ExprStmt is an expression used as a statement.
	ExprStmt struct {
		At
		X Expr
	}

	// Block is { ... }. End is the position of the closing brace.
	Block struct {
		At
		Body  []Stmt
		End   Pos
		Scope *Scope // the block's lexical declarations; set by the resolver
	}

	// Empty is a lone semicolon.
	Empty struct{ At }

	// If is if (Test) Then else Else.
	If struct {
		At
		Test Expr
		Then Stmt
		Else Stmt
	}

	// For is for (Init; Test; Update) Body. Init is a *VarDecl, an
	// *ExprStmt or nil. Scope holds the let/const bindings of Init, which
	// get a fresh copy per iteration.
	For struct {
		At
		Init   Stmt
		Test   Expr
		Update Expr
		Body   Stmt
		Scope  *Scope
	}

	// ForIn is for (Left in Right) Body; ForOf is for (Left of Right) and
	// for await (Left of Right). Left is a *VarDecl with one declarator
	// and no initializer, or an assignment Pattern.
	ForIn struct {
		At
		Left  Node
		Right Expr
		Body  Stmt
		Scope *Scope
	}

	// ForOf is for (Left of Right) Body, or for await when Await is set.
	ForOf struct {
		At
		Await bool
		Left  Node
		Right Expr
		Body  Stmt
		Scope *Scope
	}

	// While is while (Test) Body.
	While struct {
		At
		Test Expr
		Body Stmt
	}

	// DoWhile is do Body while (Test).
	DoWhile struct {
		At
		Body Stmt
		Test Expr
	}

	// Return is return X; X may be nil.
	Return struct {
		At
		X Expr
	}

	// Break is break or break Label.
	Break struct {
		At
		Label *Name
	}

	// Continue is continue or continue Label.
	Continue struct {
		At
		Label *Name
	}

	// Throw is throw X.
	Throw struct {
		At
		X Expr
	}

	// Try is try Block catch (Param) Handler finally Finalizer. Handler or
	// Finalizer may be nil (not both); Param may be nil (catch {}).
	Try struct {
		At
		Block      *Block
		Param      Pattern
		Handler    *Block
		Finalizer  *Block
		CatchScope *Scope // the catch parameter's bindings
	}

	// Switch is switch (Disc) { Cases }. Scope holds the lexical
	// declarations of all the cases, which share one block.
	Switch struct {
		At
		Disc  Expr
		Cases []*Case
		Scope *Scope
	}

	// Labeled is Label: Body.
	Labeled struct {
		At
		Label *Name
		Body  Stmt
	}

	// With is with (Obj) Body. It parses; the engines reject it.
	With struct {
		At
		Obj  Expr
		Body Stmt
	}

	// Debugger is the debugger statement. It parses; the engines reject it.
	Debugger struct{ At }

	// Import is a top-level import declaration. Module is the module name;
	// the bindings are const-like locals bound to what the host provides.
	// Type is the type import attribute, if any: with { type: "json" }.
	Import struct {
		At
		Default   *Ident
		Namespace *Ident
		Specs     []*ImportSpec
		Module    *StringLit
		Type      string
	}
)

// Declarator is one Target = Init in a declaration. Init may be nil.
type Declarator struct {
	At
	Target Pattern
	Init   Expr
}

// Case is one case Test: Body of a switch; Test is nil for default.
type Case struct {
	At
	Test Expr
	Body []Stmt
}

// ImportSpec is one { Imported as Local } of an import declaration.
type ImportSpec struct {
	At
	Imported *Name
	Local    *Ident
}

// Program is a parsed and resolved program: the body of an async function.
type Program struct {
	Source *Source
	Func   *Function // FuncProgram: async, Body holds the statements
	// Globals are the free names the program uses, sorted: the host globals
	// it needs (tools, console, Math, ...) and any typos.
	Globals []string
}

// Body returns the program's top-level statements.
func (p *Program) Body() []Stmt { return p.Func.Body.Body }

func (*Ident) exprNode()          {}
func (*Name) exprNode()           {}
func (*PrivateName) exprNode()    {}
func (*NumberLit) exprNode()      {}
func (*BigIntLit) exprNode()      {}
func (*StringLit) exprNode()      {}
func (*RegExpLit) exprNode()      {}
func (*BoolLit) exprNode()        {}
func (*NullLit) exprNode()        {}
func (*This) exprNode()           {}
func (*Super) exprNode()          {}
func (*NewTarget) exprNode()      {}
func (*ImportMeta) exprNode()     {}
func (*ImportCall) exprNode()     {}
func (*TemplateLit) exprNode()    {}
func (*TaggedTemplate) exprNode() {}
func (*ArrayLit) exprNode()       {}
func (*Spread) exprNode()         {}
func (*ObjectLit) exprNode()      {}
func (*FuncLit) exprNode()        {}
func (*ClassLit) exprNode()       {}
func (*Unary) exprNode()          {}
func (*Update) exprNode()         {}
func (*Binary) exprNode()         {}
func (*Assign) exprNode()         {}
func (*Cond) exprNode()           {}
func (*Call) exprNode()           {}
func (*New) exprNode()            {}
func (*Member) exprNode()         {}
func (*Index) exprNode()          {}
func (*Chain) exprNode()          {}
func (*Sequence) exprNode()       {}
func (*Await) exprNode()          {}
func (*Yield) exprNode()          {}
func (*PrivateIn) exprNode()      {}

func (*Ident) patternNode()         {}
func (*Member) patternNode()        {}
func (*Index) patternNode()         {}
func (*ArrayPattern) patternNode()  {}
func (*ObjectPattern) patternNode() {}
func (*AssignPattern) patternNode() {}

func (*VarDecl) stmtNode()   {}
func (*FuncDecl) stmtNode()  {}
func (*ClassDecl) stmtNode() {}
func (*ExprStmt) stmtNode()  {}
func (*Block) stmtNode()     {}
func (*Empty) stmtNode()     {}
func (*If) stmtNode()        {}
func (*For) stmtNode()       {}
func (*ForIn) stmtNode()     {}
func (*ForOf) stmtNode()     {}
func (*While) stmtNode()     {}
func (*DoWhile) stmtNode()   {}
func (*Return) stmtNode()    {}
func (*Break) stmtNode()     {}
func (*Continue) stmtNode()  {}
func (*Throw) stmtNode()     {}
func (*Try) stmtNode()       {}
func (*Switch) stmtNode()    {}
func (*Labeled) stmtNode()   {}
func (*With) stmtNode()      {}
func (*Debugger) stmtNode()  {}
func (*Import) stmtNode()    {}

var funcKindNames = [...]string{"normal", "arrow", "method", "getter", "setter", "constructor", "class-init", "program"}

func (k FuncKind) String() string { return funcKindNames[k] }

var propKindNames = [...]string{"init", "method", "get", "set", "spread"}

func (k PropKind) String() string { return propKindNames[k] }

var memberKindNames = [...]string{"method", "getter", "setter", "field", "constructor", "static-block"}

func (k MemberKind) String() string { return memberKindNames[k] }
