package ast

// Print writes a tree back as JavaScript source. The tree keeps no
// parentheses, so the printer adds them where precedence, associativity
// or the grammar (an object literal at the start of a statement, `in`
// inside a for head) requires. Parsing the output gives the same tree.

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2/js"
)

// Print returns the source text of a node: a *Program, a statement, an
// expression or a pattern.
func Print(n any) string {
	pr := &printer{}
	switch n := n.(type) {
	case *Program:
		pr.stmtList(n.Body())
	case Stmt:
		pr.stmt(n)
	case Expr:
		pr.expr(n, precSequence)
	case Pattern:
		pr.pattern(n)
	}
	return strings.TrimSuffix(pr.b.String(), "\n")
}

type printer struct {
	b      strings.Builder
	indent int
}

func (pr *printer) w(s string) { pr.b.WriteString(s) }

func (pr *printer) newline() {
	pr.w("\n")
	pr.w(strings.Repeat("  ", pr.indent))
}

// Precedence levels of expressions, lowest first.
const (
	precSequence = iota
	precAssign   // assignment, arrow, yield
	precCond
	precBinary  // + BinaryOp.Precedence(), 1..12
	precUnary   = precBinary + 13
	precPostfix = precUnary + 1
	precLHS     = precUnary + 2
	precPrimary = precUnary + 3
)

func exprPrec(x Expr) int {
	switch x := x.(type) {
	case *Sequence:
		return precSequence
	case *Assign, *Yield:
		return precAssign
	case *FuncLit:
		if x.Func.Kind == FuncArrow {
			return precAssign
		}
		return precPrimary
	case *Cond:
		return precCond
	case *Binary:
		return precBinary + x.Op.Precedence()
	case *PrivateIn:
		return precBinary + OpIn.Precedence()
	case *Unary, *Await:
		return precUnary
	case *Update:
		if x.Prefix {
			return precUnary
		}
		return precPostfix
	case *Call, *New, *Member, *Index, *Chain, *TaggedTemplate, *ImportCall, *Super:
		return precLHS
	}
	return precPrimary
}

// expr prints x, in parentheses if it binds more loosely than min.
func (pr *printer) expr(x Expr, min int) {
	if exprPrec(x) < min {
		pr.w("(")
		pr.exprInner(x)
		pr.w(")")
		return
	}
	pr.exprInner(x)
}

// exprStart prints an expression where a statement begins: one that would
// start with {, function, class or let [ needs parentheses there.
func (pr *printer) exprStart(x Expr, min int) {
	sub := &printer{indent: pr.indent}
	sub.expr(x, min)
	s := sub.b.String()
	if strings.HasPrefix(s, "{") || strings.HasPrefix(s, "function") || strings.HasPrefix(s, "class") ||
		strings.HasPrefix(s, "async function") || strings.HasPrefix(s, "let [") {
		pr.w("(" + s + ")")
		return
	}
	pr.w(s)
}

func (pr *printer) exprInner(x Expr) {
	switch x := x.(type) {
	case *Ident:
		pr.w(x.Name)
	case *Name:
		pr.w(x.Name)
	case *PrivateName:
		pr.w("#" + x.Name)
	case *NumberLit:
		pr.w(x.Raw)
	case *BigIntLit:
		pr.w(x.Raw)
	case *StringLit:
		pr.w(x.Raw)
	case *RegExpLit:
		pr.w("/" + x.Pattern + "/" + x.Flags)
	case *BoolLit:
		if x.Value {
			pr.w("true")
		} else {
			pr.w("false")
		}
	case *NullLit:
		pr.w("null")
	case *This:
		pr.w("this")
	case *Super:
		pr.w("super")
	case *NewTarget:
		pr.w("new.target")
	case *ImportMeta:
		pr.w("import.meta")
	case *ImportCall:
		pr.w("import(")
		pr.expr(x.Arg, precAssign)
		pr.w(")")
	case *TemplateLit:
		pr.template(x)
	case *TaggedTemplate:
		pr.object(x.Tag)
		pr.template(x.Quasi)
	case *ArrayLit:
		pr.w("[")
		for i, el := range x.Elems {
			if i > 0 {
				pr.w(", ")
			}
			if el != nil {
				pr.expr(el, precAssign)
			}
		}
		if n := len(x.Elems); n > 0 && x.Elems[n-1] == nil {
			pr.w(",")
		}
		pr.w("]")
	case *Spread:
		pr.w("...")
		pr.expr(x.X, precAssign)
	case *ObjectLit:
		pr.objectLit(x)
	case *FuncLit:
		pr.function(x.Func, x.Func.Name)
	case *ClassLit:
		pr.class(x.Class)
	case *Unary:
		op := x.Op.String()
		pr.w(op)
		sub := &printer{indent: pr.indent}
		sub.expr(x.X, precUnary)
		s := sub.b.String()
		if len(op) > 1 || strings.HasPrefix(s, op) {
			pr.w(" ")
		}
		pr.w(s)
	case *Await:
		pr.w("await ")
		pr.expr(x.X, precUnary)
	case *Update:
		if x.Prefix {
			pr.w(x.Op.String())
			pr.expr(x.X, precUnary)
		} else {
			pr.expr(x.X, precLHS)
			pr.w(x.Op.String())
		}
	case *Binary:
		pr.binary(x)
	case *PrivateIn:
		pr.w("#" + x.Name.Name + " in ")
		pr.expr(x.X, precBinary+OpIn.Precedence()+1)
	case *Assign:
		pr.pattern(x.Target)
		pr.w(" " + x.Op.String() + " ")
		pr.expr(x.Value, precAssign)
	case *Cond:
		pr.expr(x.Test, precBinary+1)
		pr.w(" ? ")
		pr.expr(x.Then, precAssign)
		pr.w(" : ")
		pr.expr(x.Else, precAssign)
	case *Call:
		pr.object(x.Callee)
		if x.Optional {
			pr.w("?.")
		}
		pr.args(x.Args)
	case *New:
		pr.w("new ")
		if containsCall(x.Callee) || exprPrec(x.Callee) < precLHS {
			pr.w("(")
			pr.exprInner(x.Callee)
			pr.w(")")
		} else {
			pr.object(x.Callee)
		}
		pr.args(x.Args)
	case *Member:
		pr.object(x.X)
		if x.Optional {
			pr.w("?.")
		} else {
			pr.w(".")
		}
		if x.Private != nil {
			pr.w("#" + x.Private.Name)
		} else {
			pr.w(x.Prop.Name)
		}
	case *Index:
		pr.object(x.X)
		if x.Optional {
			pr.w("?.")
		}
		pr.w("[")
		pr.expr(x.Index, precSequence)
		pr.w("]")
	case *Chain:
		pr.exprInner(x.X)
	case *Sequence:
		for i, el := range x.List {
			if i > 0 {
				pr.w(", ")
			}
			pr.expr(el, precAssign)
		}
	case *Yield:
		pr.w("yield")
		if x.Delegate {
			pr.w("*")
		}
		if x.X != nil {
			pr.w(" ")
			pr.expr(x.X, precAssign)
		}
	default:
		pr.w("/* unknown expression */")
	}
}

// object prints the object of a member access, call or tagged template.
// A finished optional chain needs parentheses there: (a?.b).c does not
// short-circuit .c. So does an integer literal: (1).toString().
func (pr *printer) object(x Expr) {
	if _, ok := x.(*Chain); ok {
		pr.w("(")
		pr.exprInner(x)
		pr.w(")")
		return
	}
	if n, ok := x.(*NumberLit); ok && !strings.ContainsAny(n.Raw, ".eExXoObBn") {
		pr.w("(" + n.Raw + ")")
		return
	}
	if nw, ok := x.(*New); ok && nw.Args == nil {
		pr.w("(")
		pr.exprInner(x)
		pr.w(")")
		return
	}
	pr.expr(x, precLHS)
}

func containsCall(x Expr) bool {
	for {
		switch t := x.(type) {
		case *Call:
			return true
		case *Member:
			x = t.X
		case *Index:
			x = t.X
		case *TaggedTemplate:
			x = t.Tag
		case *Chain:
			return true
		default:
			return false
		}
	}
}

func (pr *printer) binary(x *Binary) {
	prec := precBinary + x.Op.Precedence()
	left, right := prec, prec+1
	if x.Op == OpExp {
		left, right = precPostfix, prec
	}
	mixed := func(child Expr) bool {
		b, ok := child.(*Binary)
		if !ok {
			return false
		}
		if x.Op == OpNullish {
			return b.Op == OpOr || b.Op == OpAnd
		}
		return (x.Op == OpOr || x.Op == OpAnd) && b.Op == OpNullish
	}
	if mixed(x.X) {
		left = precPrimary
	}
	if mixed(x.Y) {
		right = precPrimary
	}
	pr.expr(x.X, left)
	pr.w(" " + x.Op.String() + " ")
	pr.expr(x.Y, right)
}

func (pr *printer) args(args []Expr) {
	pr.w("(")
	for i, a := range args {
		if i > 0 {
			pr.w(", ")
		}
		pr.expr(a, precAssign)
	}
	pr.w(")")
}

func (pr *printer) template(t *TemplateLit) {
	pr.w("`")
	for i, q := range t.Quasis {
		pr.w(q.Raw)
		if i < len(t.Exprs) {
			pr.w("${")
			pr.expr(t.Exprs[i], precSequence)
			pr.w("}")
		}
	}
	pr.w("`")
}

func (pr *printer) key(k Expr, computed bool) {
	if computed {
		pr.w("[")
		pr.expr(k, precAssign)
		pr.w("]")
		return
	}
	pr.exprInner(k)
}

func (pr *printer) objectLit(o *ObjectLit) {
	if len(o.Props) == 0 {
		pr.w("{}")
		return
	}
	pr.w("{")
	pr.indent++
	for i, prop := range o.Props {
		if i > 0 {
			pr.w(",")
		}
		pr.newline()
		switch prop.Kind {
		case PropSpread:
			pr.w("...")
			pr.expr(prop.Value, precAssign)
		case PropInit:
			if prop.Shorthand {
				pr.expr(prop.Value, precAssign)
				continue
			}
			pr.key(prop.Key, prop.Computed)
			pr.w(": ")
			pr.expr(prop.Value, precAssign)
		default:
			pr.method(prop.Key, prop.Computed, prop.Value.(*FuncLit).Func, false)
		}
	}
	pr.indent--
	pr.newline()
	pr.w("}")
}

// method prints a method, getter or setter of an object literal or class.
func (pr *printer) method(key Expr, computed bool, fn *Function, static bool) {
	if static {
		pr.w("static ")
	}
	switch fn.Kind {
	case FuncGetter:
		pr.w("get ")
	case FuncSetter:
		pr.w("set ")
	}
	if fn.Async {
		pr.w("async ")
	}
	if fn.Generator {
		pr.w("*")
	}
	pr.key(key, computed)
	pr.params(fn)
	pr.w(" ")
	pr.body(fn.Body)
}

func (pr *printer) params(fn *Function) {
	pr.w("(")
	for i, prm := range fn.Params {
		if i > 0 {
			pr.w(", ")
		}
		pr.pattern(prm)
	}
	if fn.Rest != nil {
		if len(fn.Params) > 0 {
			pr.w(", ")
		}
		pr.w("...")
		pr.pattern(fn.Rest)
	}
	pr.w(")")
}

func (pr *printer) function(fn *Function, name *Ident) {
	if fn.Kind == FuncArrow {
		if fn.Async {
			pr.w("async ")
		}
		pr.params(fn)
		pr.w(" => ")
		if fn.Body != nil {
			pr.body(fn.Body)
			return
		}
		sub := &printer{indent: pr.indent}
		sub.expr(fn.ExprBody, precAssign)
		if s := sub.b.String(); strings.HasPrefix(s, "{") {
			pr.w("(" + s + ")")
		} else {
			pr.w(s)
		}
		return
	}
	if fn.Async {
		pr.w("async ")
	}
	pr.w("function")
	if fn.Generator {
		pr.w("*")
	}
	if name != nil {
		pr.w(" " + name.Name)
	}
	pr.params(fn)
	pr.w(" ")
	pr.body(fn.Body)
}

func (pr *printer) class(c *Class) {
	pr.w("class")
	if c.Name != nil {
		pr.w(" " + c.Name.Name)
	}
	if c.Extends != nil {
		pr.w(" extends ")
		pr.expr(c.Extends, precLHS)
	}
	pr.w(" {")
	pr.indent++
	for _, m := range c.Members {
		pr.newline()
		switch m.Kind {
		case MemberStaticBlock:
			pr.w("static ")
			pr.body(m.Value.Body)
		case MemberField:
			if m.Static {
				pr.w("static ")
			}
			pr.key(m.Key, m.Computed)
			if m.Value != nil {
				pr.w(" = ")
				pr.expr(m.Value.ExprBody, precAssign)
			}
			pr.w(";")
		default:
			pr.method(m.Key, m.Computed, m.Value, m.Static)
		}
	}
	pr.indent--
	if len(c.Members) > 0 {
		pr.newline()
	}
	pr.w("}")
}

func (pr *printer) pattern(p Pattern) {
	switch p := p.(type) {
	case *Ident:
		pr.w(p.Name)
	case *Member, *Index:
		pr.expr(p.(Expr), precLHS)
	case *AssignPattern:
		pr.pattern(p.Target)
		pr.w(" = ")
		pr.expr(p.Default, precAssign)
	case *ArrayPattern:
		pr.w("[")
		for i, el := range p.Elems {
			if i > 0 {
				pr.w(", ")
			}
			if el != nil {
				pr.pattern(el)
			}
		}
		if p.Rest != nil {
			if len(p.Elems) > 0 {
				pr.w(", ")
			}
			pr.w("...")
			pr.pattern(p.Rest)
		} else if n := len(p.Elems); n > 0 && p.Elems[n-1] == nil {
			pr.w(",")
		}
		pr.w("]")
	case *ObjectPattern:
		pr.w("{")
		for i, prop := range p.Props {
			if i > 0 {
				pr.w(", ")
			}
			if prop.Shorthand {
				pr.pattern(prop.Value)
				continue
			}
			pr.key(prop.Key, prop.Computed)
			pr.w(": ")
			pr.pattern(prop.Value)
		}
		if p.Rest != nil {
			if len(p.Props) > 0 {
				pr.w(", ")
			}
			pr.w("...")
			pr.pattern(p.Rest)
		}
		pr.w("}")
	}
}

// ---------------------------------------------------------------------------
// Statements

func (pr *printer) stmtList(list []Stmt) {
	for i, s := range list {
		if i > 0 {
			pr.newline()
		}
		pr.stmt(s)
	}
}

func (pr *printer) body(b *Block) {
	if len(b.Body) == 0 {
		pr.w("{}")
		return
	}
	pr.w("{")
	pr.indent++
	pr.newline()
	pr.stmtList(b.Body)
	pr.indent--
	pr.newline()
	pr.w("}")
}

// sub prints the body of if, for, while, labeled and with statements.
func (pr *printer) sub(s Stmt) {
	if b, ok := s.(*Block); ok {
		pr.w(" ")
		pr.body(b)
		return
	}
	pr.indent++
	pr.newline()
	pr.stmt(s)
	pr.indent--
}

func (pr *printer) varDecl(d *VarDecl, noIn bool) {
	pr.w(d.Kind.String() + " ")
	for i, decl := range d.Decls {
		if i > 0 {
			pr.w(", ")
		}
		pr.pattern(decl.Target)
		if decl.Init != nil {
			pr.w(" = ")
			if noIn && containsIn(decl.Init) {
				pr.w("(")
				pr.expr(decl.Init, precSequence)
				pr.w(")")
			} else {
				pr.expr(decl.Init, precAssign)
			}
		}
	}
}

// containsIn reports an `in` operator anywhere in x, which a for head
// would misread.
func containsIn(x Expr) bool {
	found := false
	Inspect(x, func(n Node) bool {
		switch n := n.(type) {
		case *Binary:
			if n.Op == OpIn {
				found = true
			}
		case *PrivateIn:
			found = true
		}
		return !found
	})
	return found
}

func (pr *printer) stmt(s Stmt) {
	switch s := s.(type) {
	case *VarDecl:
		pr.varDecl(s, false)
		pr.w(";")
	case *FuncDecl:
		pr.function(s.Func, s.Func.Name)
	case *ClassDecl:
		pr.class(s.Class)
	case *ExprStmt:
		pr.exprStart(s.X, precSequence)
		pr.w(";")
	case *Block:
		pr.body(s)
	case *Empty:
		pr.w(";")
	case *If:
		pr.w("if (")
		pr.expr(s.Test, precSequence)
		pr.w(")")
		then := s.Then
		if s.Else != nil && danglingIf(then) {
			then = &Block{At: At{then.Pos()}, Body: []Stmt{then}}
		}
		pr.sub(then)
		if s.Else != nil {
			if _, ok := then.(*Block); ok {
				pr.w(" ")
			} else {
				pr.newline()
			}
			pr.w("else")
			if _, ok := s.Else.(*If); ok {
				pr.w(" ")
				pr.stmt(s.Else)
			} else {
				pr.sub(s.Else)
			}
		}
	case *For:
		pr.w("for (")
		switch init := s.Init.(type) {
		case *VarDecl:
			pr.varDecl(init, true)
		case *ExprStmt:
			if containsIn(init.X) {
				pr.w("(")
				pr.expr(init.X, precSequence)
				pr.w(")")
			} else {
				pr.exprStart(init.X, precSequence)
			}
		}
		pr.w(";")
		if s.Test != nil {
			pr.w(" ")
			pr.expr(s.Test, precSequence)
		}
		pr.w(";")
		if s.Update != nil {
			pr.w(" ")
			pr.expr(s.Update, precSequence)
		}
		pr.w(")")
		pr.sub(s.Body)
	case *ForIn:
		pr.w("for (")
		pr.forLeft(s.Left)
		pr.w(" in ")
		pr.expr(s.Right, precSequence)
		pr.w(")")
		pr.sub(s.Body)
	case *ForOf:
		pr.w("for ")
		if s.Await {
			pr.w("await ")
		}
		pr.w("(")
		pr.forLeft(s.Left)
		pr.w(" of ")
		pr.expr(s.Right, precAssign)
		pr.w(")")
		pr.sub(s.Body)
	case *While:
		pr.w("while (")
		pr.expr(s.Test, precSequence)
		pr.w(")")
		pr.sub(s.Body)
	case *DoWhile:
		pr.w("do")
		pr.sub(s.Body)
		if _, ok := s.Body.(*Block); ok {
			pr.w(" ")
		} else {
			pr.newline()
		}
		pr.w("while (")
		pr.expr(s.Test, precSequence)
		pr.w(");")
	case *Return:
		pr.w("return")
		if s.X != nil {
			pr.w(" ")
			pr.expr(s.X, precSequence)
		}
		pr.w(";")
	case *Break:
		pr.w("break")
		if s.Label != nil {
			pr.w(" " + s.Label.Name)
		}
		pr.w(";")
	case *Continue:
		pr.w("continue")
		if s.Label != nil {
			pr.w(" " + s.Label.Name)
		}
		pr.w(";")
	case *Throw:
		pr.w("throw ")
		pr.expr(s.X, precSequence)
		pr.w(";")
	case *Try:
		pr.w("try ")
		pr.body(s.Block)
		if s.Handler != nil {
			pr.w(" catch ")
			if s.Param != nil {
				pr.w("(")
				pr.pattern(s.Param)
				pr.w(") ")
			}
			pr.body(s.Handler)
		}
		if s.Finalizer != nil {
			pr.w(" finally ")
			pr.body(s.Finalizer)
		}
	case *Switch:
		pr.w("switch (")
		pr.expr(s.Disc, precSequence)
		pr.w(") {")
		for _, c := range s.Cases {
			pr.indent++
			pr.newline()
			if c.Test != nil {
				pr.w("case ")
				pr.expr(c.Test, precSequence)
				pr.w(":")
			} else {
				pr.w("default:")
			}
			pr.indent++
			for _, st := range c.Body {
				pr.newline()
				pr.stmt(st)
			}
			pr.indent -= 2
		}
		pr.newline()
		pr.w("}")
	case *Labeled:
		pr.w(s.Label.Name + ":")
		pr.sub(s.Body)
	case *With:
		pr.w("with (")
		pr.expr(s.Obj, precSequence)
		pr.w(")")
		pr.sub(s.Body)
	case *Debugger:
		pr.w("debugger;")
	case *Import:
		pr.importDecl(s)
	default:
		pr.w("/* unknown statement */")
	}
}

// danglingIf reports whether s ends in an if without else, which would
// capture a following else.
func danglingIf(s Stmt) bool {
	for {
		switch t := s.(type) {
		case *If:
			if t.Else == nil {
				return true
			}
			s = t.Else
		case *For:
			s = t.Body
		case *ForIn:
			s = t.Body
		case *ForOf:
			s = t.Body
		case *While:
			s = t.Body
		case *Labeled:
			s = t.Body
		case *With:
			s = t.Body
		default:
			return false
		}
	}
}

func (pr *printer) forLeft(left Node) {
	if d, ok := left.(*VarDecl); ok {
		pr.varDecl(d, true)
		return
	}
	sub := &printer{indent: pr.indent}
	sub.pattern(left.(Pattern))
	s := sub.b.String()
	if strings.HasPrefix(s, "let") || strings.HasPrefix(s, "async") {
		s = "(" + s + ")"
	}
	pr.w(s)
}

func (pr *printer) importDecl(s *Import) {
	pr.w("import ")
	parts := []string{}
	if s.Default != nil {
		parts = append(parts, s.Default.Name)
	}
	if s.Namespace != nil {
		parts = append(parts, "* as "+s.Namespace.Name)
	}
	if s.Specs != nil {
		var specs []string
		for _, sp := range s.Specs {
			if sp.Imported.Name == sp.Local.Name {
				specs = append(specs, sp.Local.Name)
			} else {
				specs = append(specs, quoteImportName(sp.Imported.Name)+" as "+sp.Local.Name)
			}
		}
		parts = append(parts, "{"+strings.Join(specs, ", ")+"}")
	}
	if len(parts) > 0 {
		pr.w(strings.Join(parts, ", ") + " from ")
	}
	pr.w(s.Module.Raw)
	if s.Type != "" {
		pr.w(" with {type: " + quoteJS(s.Type) + "}")
	}
	pr.w(";")
}

func quoteImportName(name string) string {
	if name == "" || !utf8.ValidString(name) {
		return quoteJS(name)
	}
	for i, r := range name {
		ok := js.IsIdentifierContinue([]byte(string(r)))
		if i == 0 {
			ok = js.IsIdentifierStart([]byte(string(r)))
		}
		if !ok || r == '\\' {
			return quoteJS(name)
		}
	}
	return name
}

// quoteJS writes s (WTF-8, see StringLit) as a JavaScript string literal.
func quoteJS(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1 && s[i] == 0xED && i+2 < len(s):
			// A lone surrogate in its generalized UTF-8 form.
			code := rune(s[i]&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			fmt.Fprintf(&b, "\\u%04X", code)
			size = 3
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02X", s[i])
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}
