package vm

import (
	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/internal/jsops"
	"github.com/go-codemode/codemode/value"
)

// expr compiles x, leaving its value on the operand stack.
func (c *compiler) expr(x ast.Expr) {
	c.at(x.Pos())
	switch x := x.(type) {
	case *ast.Ident:
		c.at(x.Start)
		c.load(x.Binding)
	case *ast.This:
		c.at(x.Start)
		c.load(x.Binding)
	case *ast.NumberLit:
		c.emitNumber(x.Value)
	case *ast.StringLit:
		c.emitString(x.Value)
	case *ast.BoolLit:
		if x.Value {
			c.emit(TRUE)
		} else {
			c.emit(FALSE)
		}
	case *ast.NullLit:
		c.emit(NULL)
	case *ast.RegExpLit:
		c.emitString(x.Pattern)
		c.emitString(x.Flags)
		c.at(x.Start)
		c.emit(REGEXP)
	case *ast.TemplateLit:
		c.template(x)
	case *ast.ArrayLit:
		c.arrayLit(x)
	case *ast.ObjectLit:
		c.objectLit(x)
	case *ast.FuncLit:
		name := ""
		if x.Func.Name != nil {
			name = x.Func.Name.Name
		}
		c.funcLit(x.Func, name)
	case *ast.Unary:
		c.unary(x)
	case *ast.Update:
		c.update(x)
	case *ast.Binary:
		c.binary(x)
	case *ast.Assign:
		c.assign(x)
	case *ast.Cond:
		els := c.jumpIfFalse(x.Test)
		d := c.fn.depth
		c.expr(x.Then)
		end := c.jump(JMP)
		c.patchHere(els)
		c.fn.depth = d
		c.expr(x.Else)
		c.patchHere(end)
	case *ast.Sequence:
		for i, e := range x.List {
			if i > 0 {
				c.emit(POP)
			}
			c.expr(e)
		}
	case *ast.Call:
		c.call(x)
	case *ast.New:
		c.newExpr(x)
	case *ast.Member:
		c.member(x)
	case *ast.Index:
		c.index(x)
	case *ast.TaggedTemplate:
		c.taggedTemplate(x)
	case *ast.Chain:
		saved := c.chain
		var sites []int
		c.chain = &sites
		c.expr(x.X)
		c.chain = saved
		c.patchHere(sites...)
	case *ast.ClassLit:
		name := ""
		if x.Class.Name != nil {
			name = x.Class.Name.Name
		}
		c.class(x.Class, name)
	case *ast.NewTarget:
		c.emit(NEWTARGET)
	case *ast.Await:
		c.expr(x.X)
		c.at(x.Start)
		c.emitAwait()
	case *ast.Yield:
		c.yield(x)
	case *ast.BigIntLit:
		c.emit1(UNSUPPORTED, c.str(bigIntMarker))
		c.emit(UNDEFINED)
	case *ast.ImportMeta:
		c.emit1(UNSUPPORTED, c.str("MetaProperty"))
		c.emit(UNDEFINED)
	case *ast.ImportCall:
		c.expr(x.Arg)
		c.at(x.Start)
		c.emit(IMPORTCALL)
	case *ast.PrivateIn:
		c.expr(x.X)
		c.at(x.Start)
		c.privOp(PRIVIN, x.Name)
	default:
		c.fail(exprName(x), x.Pos())
	}
}

// jumpIfFalse compiles a condition and a jump taken when it is false,
// returning the jump's site. A comparison jumps on its own (CMPJMP).
func (c *compiler) jumpIfFalse(x ast.Expr) int {
	if b, ok := x.(*ast.Binary); ok {
		switch b.Op {
		case ast.OpLt, ast.OpLe, ast.OpGt, ast.OpGe, ast.OpStrictEq, ast.OpStrictNe:
			c.expr(b.X)
			c.expr(b.Y)
			c.at(b.Start)
			c.emit2(CMPJMP, 0, int(binaryOps[b.Op]))
			return len(c.fn.code) - 8
		}
	}
	c.expr(x)
	return c.jump(JMPFALSE)
}

// noAssign reports whether evaluating x certainly assigns no local of
// the function being compiled: it has no assignment, update or nested
// function (a conservative syntactic check).
func noAssign(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident, *ast.This, *ast.NumberLit, *ast.StringLit, *ast.BoolLit, *ast.NullLit:
		return true
	case *ast.Member:
		return noAssign(x.X)
	case *ast.Index:
		return noAssign(x.X) && noAssign(x.Index)
	case *ast.Binary:
		return noAssign(x.X) && noAssign(x.Y)
	case *ast.Unary:
		return x.Op != ast.OpDelete && noAssign(x.X)
	case *ast.Call:
		if !noAssign(x.Callee) {
			return false
		}
		for _, a := range x.Args {
			if !noAssign(a) {
				return false
			}
		}
		return true
	}
	return false
}

// exprName names an expression the compiler does not handle yet.
func exprName(x ast.Expr) string {
	switch x.(type) {
	case *ast.ClassLit:
		return "a class"
	case *ast.Await:
		return "await"
	case *ast.Yield:
		return "yield"
	case *ast.Spread:
		return "spread"
	case *ast.PrivateIn:
		return "#name in"
	case *ast.BigIntLit:
		return "a BigInt literal"
	case *ast.NewTarget:
		return "new.target"
	case *ast.ImportMeta:
		return "import.meta"
	case *ast.ImportCall:
		return "import()"
	case *ast.Super:
		return "super"
	}
	return "this expression"
}

// namedExpr compiles x, giving an anonymous function the name it is
// bound to (NamedEvaluation).
func (c *compiler) namedExpr(x ast.Expr, name string) {
	if fl, ok := x.(*ast.FuncLit); ok && fl.Func.Name == nil && name != "" {
		c.funcLit(fl.Func, name)
		return
	}
	if cl, ok := x.(*ast.ClassLit); ok && cl.Class.Name == nil {
		c.class(cl.Class, name)
		return
	}
	c.expr(x)
}

func (c *compiler) funcLit(fn *ast.Function, name string) {
	i := c.function(fn, name)
	c.at(fn.Start)
	c.emit1(MAKEFUNC, i)
}

func (c *compiler) template(x *ast.TemplateLit) {
	for i, q := range x.Quasis {
		if q.Cooked == nil {
			c.fail("a template with an invalid escape", q.Start)
		}
		if i > 0 {
			c.expr(x.Exprs[i-1])
		}
		c.emitString(*q.Cooked)
	}
	if len(x.Exprs) > 0 {
		c.at(x.Start)
		c.emit1(TEMPLATE, len(x.Exprs))
	}
}

func (c *compiler) arrayLit(x *ast.ArrayLit) {
	if hasSpread(x.Elems) {
		c.emit1(MAKEARRAY, 0)
		c.spreadList(x.Elems, false, x.Start)
		return
	}
	for _, e := range x.Elems {
		switch e := e.(type) {
		case nil:
			c.emit(HOLE)
		case *ast.Spread:
			c.fail("spread", e.Start)
		default:
			c.expr(e)
		}
	}
	c.at(x.Start)
	c.emit1(MAKEARRAY, len(x.Elems))
}

func (c *compiler) objectLit(x *ast.ObjectLit) {
	c.emit(NEWOBJECT)
	for _, p := range x.Props {
		switch p.Kind {
		case ast.PropInit:
			if p.Computed {
				c.expr(p.Key)
				c.at(p.Start)
				c.emit(TOPROPKEY)
				if fl, ok := p.Value.(*ast.FuncLit); ok && fl.Func.Name == nil {
					c.funcLit(fl.Func, "")
					c.emit(DEFMETHOD)
					continue
				}
				c.expr(p.Value)
				c.at(p.Start)
				c.emit(DEFINDEX)
				continue
			}
			key := staticKey(p.Key)
			if !p.Shorthand && key == "__proto__" {
				c.expr(p.Value)
				c.emit(SETPROTO)
				continue
			}
			c.namedExpr(p.Value, value.FunctionNameOfKey(key))
			c.at(p.Start)
			c.emit1(DEFPROP, c.str(key))
		case ast.PropMethod:
			if p.Computed {
				c.expr(p.Key)
				c.at(p.Start)
				c.emit(TOPROPKEY)
				c.funcLit(p.Value.(*ast.FuncLit).Func, "")
				c.emit1(SETHOME, 2)
				c.emit(DEFMETHOD)
				continue
			}
			key := staticKey(p.Key)
			c.funcLit(p.Value.(*ast.FuncLit).Func, value.FunctionNameOfKey(key))
			c.emit1(SETHOME, 1)
			c.at(p.Start)
			c.emit1(DEFPROP, c.str(key))
		case ast.PropSpread:
			c.expr(p.Value)
			c.at(p.Start)
			c.emit(SPREADOBJ)
		default:
			if p.Computed {
				c.expr(p.Key)
				c.at(p.Start)
				c.emit(TOPROPKEY)
				c.funcLit(p.Value.(*ast.FuncLit).Func, "")
				c.emit1(SETHOME, 2)
				c.at(p.Start)
				c.emit(DEFACCESSOR)
				continue
			}
			key := staticKey(p.Key)
			op, prefix := DEFGETTER, "get "
			if p.Kind == ast.PropSet {
				op, prefix = DEFSETTER, "set "
			}
			c.funcLit(p.Value.(*ast.FuncLit).Func, prefix+value.FunctionNameOfKey(key))
			c.emit1(SETHOME, 1)
			c.at(p.Start)
			c.emit1(op, c.str(key))
		}
	}
}

// bigIntKey aborts compilation at a BigInt literal used as a property
// key: it is not compiled.
type bigIntKey struct{ pos ast.Pos }

// staticKey is the property key of a non-computed key node.
func staticKey(k ast.Expr) string {
	if key, ok := jsops.StaticKey(k); ok {
		return key
	}
	if b, ok := k.(*ast.BigIntLit); ok {
		// Engine "ast" does not compile it either.
		panic(bigIntKey{b.Start})
	}
	panic("vm: unexpected property key " + ast.Dump(k, nil))
}

func (c *compiler) unary(x *ast.Unary) {
	switch x.Op {
	case ast.OpTypeof:
		if id, ok := x.X.(*ast.Ident); ok && id.Binding.Storage == ast.Global {
			c.emit1(TYPEOFGLOBAL, c.globalSlot(id.Name))
		} else {
			c.expr(x.X)
		}
		c.emit(TYPEOF)
		return
	case ast.OpDelete:
		c.deleteExpr(x)
		return
	}
	c.expr(x.X)
	c.at(x.Start)
	switch x.Op {
	case ast.OpNot:
		c.emit(NOT)
	case ast.OpNeg:
		c.emit(NEG)
	case ast.OpPos:
		c.emit(POS)
	case ast.OpBitNot:
		c.emit(BITNOT)
	case ast.OpVoid:
		c.emit(POP)
		c.emit(UNDEFINED)
	default:
		c.fail("this unary operator", x.Start)
	}
}

func (c *compiler) deleteExpr(x *ast.Unary) {
	inner := x.X
	var sites []int
	if ch, ok := inner.(*ast.Chain); ok {
		// A short-circuit deletes nothing: true.
		inner = ch.X
		saved := c.chain
		c.chain = &sites
		defer func() {
			c.chain = saved
			end := c.jump(JMP)
			c.patchHere(sites...)
			c.emit(POP)
			c.emit(TRUE)
			c.patchHere(end)
		}()
	}
	switch t := inner.(type) {
	case *ast.Member:
		if t.Private != nil {
			c.fail("this delete", x.Start)
		}
		if s, ok := t.X.(*ast.Super); ok {
			c.superKey(s, t)
			c.emit(POP)
			c.emit(POP)
			c.at(x.Start)
			c.emit(SUPERDELETE)
			c.emit(TRUE)
			return
		}
		c.memberBase(t.X, t.Optional, false, t.Start)
		c.at(x.Start)
		c.emit1(DELPROP, c.str(t.Prop.Name))
		return
	case *ast.Index:
		if s, ok := t.X.(*ast.Super); ok {
			c.superKey(s, t)
			c.emit(POP)
			c.emit(POP)
			c.at(x.Start)
			c.emit(SUPERDELETE)
			c.emit(TRUE)
			return
		}
		c.memberBase(t.X, t.Optional, false, t.Start)
		c.expr(t.Index)
		c.at(x.Start)
		c.emit(DELINDEX)
		return
	}
	c.expr(x.X)
	c.emit(POP)
	c.emit(TRUE)
}

func isSuper(x ast.Expr) bool {
	_, ok := x.(*ast.Super)
	return ok
}

var binaryOps = map[ast.BinaryOp]Opcode{
	ast.OpAdd: ADD, ast.OpSub: SUB, ast.OpMul: MUL, ast.OpDiv: DIV, ast.OpMod: MOD, ast.OpExp: EXP,
	ast.OpEq: EQ, ast.OpNe: NE, ast.OpStrictEq: SEQ, ast.OpStrictNe: SNE,
	ast.OpLt: LT, ast.OpGt: GT, ast.OpLe: LE, ast.OpGe: GE,
	ast.OpBitOr: BITOR, ast.OpBitXor: BITXOR, ast.OpBitAnd: BITAND,
	ast.OpShl: SHL, ast.OpShr: SHR, ast.OpUShr: USHR, ast.OpInstanceof: INSTANCEOF, ast.OpIn: IN,
}

func (c *compiler) binary(x *ast.Binary) {
	c.expr(x.X)
	switch x.Op {
	case ast.OpAnd, ast.OpOr, ast.OpNullish:
		site := c.jump(logicalJump(x.Op))
		c.expr(x.Y)
		c.patchHere(site)
		return
	}
	c.expr(x.Y)
	op, ok := binaryOps[x.Op]
	if !ok {
		c.fail("the operator "+x.Op.String(), x.Start)
	}
	c.at(x.Start)
	c.emit(op)
}

// logicalJump is the short-circuit jump of &&, || and ??.
func logicalJump(op ast.BinaryOp) Opcode {
	switch op {
	case ast.OpAnd:
		return ANDJMP
	case ast.OpOr:
		return ORJMP
	}
	return NULLISHJMP
}

// memberPos is where a member access is reported: at the property name.
func memberPos(m *ast.Member) ast.Pos {
	if m.Private != nil {
		return m.Private.Start
	}
	return m.Prop.Start
}

// memberBase compiles the object of X.name or X[key], refusing what is
// not compiled yet.
func (c *compiler) memberBase(x ast.Expr, optional bool, private bool, pos ast.Pos) {
	switch {
	case optional && c.chain == nil:
		c.fail("an optional link outside a chain", pos)
	case isSuper(x):
		c.fail("super", pos)
	}
	c.expr(x)
	if optional {
		c.optJump(OPTJMP)
	}
}

// optJump emits a short-circuit of the optional chain being compiled.
func (c *compiler) optJump(op Opcode) {
	*c.chain = append(*c.chain, c.jump(op))
}

func (c *compiler) member(m *ast.Member) {
	if s, ok := m.X.(*ast.Super); ok {
		c.superKey(s, m)
		c.emit(SUPERGET)
		return
	}
	c.memberBase(m.X, m.Optional, m.Private != nil, m.Start)
	c.at(memberPos(m))
	if m.Private != nil {
		c.privOp(PRIVGET, m.Private)
		return
	}
	fc := c.fn.fc
	if fc.members == nil {
		fc.members = map[int32]*ast.Member{}
	}
	fc.members[int32(len(c.fn.code))] = m
	c.emit1(GETPROP, c.str(m.Prop.Name))
}

func (c *compiler) index(m *ast.Index) {
	if s, ok := m.X.(*ast.Super); ok {
		c.superKey(s, m)
		c.emit(SUPERGET)
		return
	}
	c.memberBase(m.X, m.Optional, false, m.Start)
	c.expr(m.Index)
	c.at(m.Index.Pos())
	c.emit(GETINDEX)
}

func hasSpread(list []ast.Expr) bool {
	for _, e := range list {
		if _, ok := e.(*ast.Spread); ok {
			return true
		}
	}
	return false
}

// spreadList appends the elements of a list with spreads to the array
// on the stack; args marks an argument list (its own length limit). A
// spread's error is reported at pos, where engine "ast" reports it.
func (c *compiler) spreadList(list []ast.Expr, args bool, pos ast.Pos) {
	flag := 0
	if args {
		flag = 1
	}
	for _, e := range list {
		switch e := e.(type) {
		case nil:
			c.emit(HOLE)
			c.emit(APPEND)
		case *ast.Spread:
			c.expr(e.X)
			c.at(pos)
			c.emit1(SPREAD, flag)
		default:
			c.expr(e)
			c.emit(APPEND)
		}
	}
}

func (c *compiler) args(list []ast.Expr) {
	for _, a := range list {
		if s, ok := a.(*ast.Spread); ok {
			c.fail("spread", s.Start)
		}
		c.expr(a)
	}
}

func (c *compiler) call(x *ast.Call) {
	if s, ok := x.Callee.(*ast.Super); ok {
		c.superCall(s, x)
		return
	}
	if x.Optional && c.chain == nil {
		c.fail("an optional call outside a chain", x.Start)
	}
	c.callee(x.Callee)
	if x.Optional {
		c.optJump(OPTCALLJMP)
	}
	if hasSpread(x.Args) {
		c.emit1(MAKEARRAY, 0)
		c.spreadList(x.Args, true, calleePos(x))
		c.at(x.Start)
		c.emit2(CALLARRAY, 0, c.str(jsops.CalleeText(x.Callee)))
		return
	}
	c.args(x.Args)
	c.at(x.Start)
	c.emit2(CALL, len(x.Args), c.str(jsops.CalleeText(x.Callee)))
}

// calleePos is where engine "ast" last noted a position before a call's
// arguments: its callee's property access, if any.
func calleePos(x *ast.Call) ast.Pos {
	switch m := x.Callee.(type) {
	case *ast.Member:
		return memberPos(m)
	case *ast.Index:
		return m.Index.Pos()
	}
	return x.Start
}

// callee pushes a call's function and this value.
func (c *compiler) callee(x ast.Expr) {
	switch m := x.(type) {
	case *ast.Member:
		if s, ok := m.X.(*ast.Super); ok {
			c.superKey(s, m)
			c.emit(SUPERMETHOD)
			return
		}
		c.memberBase(m.X, m.Optional, m.Private != nil, m.Start)
		c.at(memberPos(m))
		if m.Private != nil {
			c.emit(DUP)
			c.privOp(PRIVGET, m.Private)
			c.emit(SWAP)
			return
		}
		c.emit1(METHOD, c.str(m.Prop.Name))
	case *ast.Index:
		if s, ok := m.X.(*ast.Super); ok {
			c.superKey(s, m)
			c.emit(SUPERMETHOD)
			return
		}
		c.memberBase(m.X, m.Optional, false, m.Start)
		c.expr(m.Index)
		c.at(m.Index.Pos())
		c.emit(METHODINDEX)
	case *ast.Super:
		c.fail("super", m.Start)
	case *ast.Chain:
		// (a?.b)() keeps the this of a?.b; a short-circuit calls
		// undefined.
		saved := c.chain
		var sites []int
		c.chain = &sites
		c.callee(m.X)
		c.chain = saved
		if len(sites) > 0 {
			end := c.jump(JMP)
			c.patchHere(sites...)
			c.fn.depth--
			c.emit(UNDEFINED)
			c.patchHere(end)
		}
	default:
		c.expr(x)
		c.emit(UNDEFINED)
	}
}

// taggedTemplate compiles tag`...`: a call of the tag with the site's
// strings array (made once per run) and the substitutions.
func (c *compiler) taggedTemplate(x *ast.TaggedTemplate) {
	c.callee(x.Tag)
	site := Template{}
	for _, q := range x.Quasi.Quasis {
		site.HasCooked = append(site.HasCooked, q.Cooked != nil)
		cooked := ""
		if q.Cooked != nil {
			cooked = *q.Cooked
		}
		site.Cooked = append(site.Cooked, cooked)
		site.Raw = append(site.Raw, q.Raw)
	}
	c.emit1(TEMPLATEOBJ, len(c.prog.Templates))
	c.prog.Templates = append(c.prog.Templates, site)
	for _, e := range x.Quasi.Exprs {
		c.expr(e)
	}
	c.at(x.Start)
	c.emit2(CALL, 1+len(x.Quasi.Exprs), c.str(jsops.CalleeText(x.Tag)))
}

func (c *compiler) newExpr(x *ast.New) {
	c.expr(x.Callee)
	if hasSpread(x.Args) {
		c.emit1(MAKEARRAY, 0)
		c.spreadList(x.Args, true, x.Start)
		c.at(x.Start)
		c.emit2(NEWARRAY, 0, c.str(jsops.CalleeText(x.Callee)))
		return
	}
	c.args(x.Args)
	c.at(x.Start)
	c.emit2(NEW, len(x.Args), c.str(jsops.CalleeText(x.Callee)))
}

// ---------------------------------------------------------------------------
// Assignment and update

// refKind is the shape of an assignment target.
type refKind int

const (
	refName  refKind = iota
	refProp          // obj
	refIndex         // obj key
	refPriv          // obj
	refSuper         // this key
)

// baseSize is how many values a target's base is.
func (k refKind) baseSize() int {
	switch k {
	case refProp, refPriv:
		return 1
	case refIndex, refSuper:
		return 2
	}
	return 0
}

// reference compiles the base of an assignment target (nothing for a
// name, the object for X.name, the object and key for X[key]).
func (c *compiler) reference(t ast.Pattern) refKind {
	switch t := t.(type) {
	case *ast.Ident:
		return refName
	case *ast.Member:
		if s, ok := t.X.(*ast.Super); ok {
			c.superKey(s, t)
			return refSuper
		}
		c.memberBase(t.X, t.Optional, t.Private != nil, t.Start)
		if t.Private != nil {
			return refPriv
		}
		return refProp
	case *ast.Index:
		if s, ok := t.X.(*ast.Super); ok {
			c.superKey(s, t)
			return refSuper
		}
		c.memberBase(t.X, t.Optional, false, t.Start)
		c.expr(t.Index)
		return refIndex
	}
	c.fail("a destructuring assignment", t.Pos())
	return 0
}

// refGet reads a target whose base is on the stack, keeping the base:
// obj → obj v, obj key → obj key' v (the key converted once).
func (c *compiler) refGet(t ast.Pattern, k refKind) {
	switch k {
	case refName:
		id := t.(*ast.Ident)
		c.at(id.Start)
		c.load(id.Binding)
	case refProp:
		m := t.(*ast.Member)
		c.emit(DUP)
		c.at(memberPos(m))
		c.emit1(GETPROP, c.str(m.Prop.Name))
	case refIndex:
		m := t.(*ast.Index)
		c.at(m.Index.Pos())
		c.emit(TOPROPKEY)
		c.emit(DUP2)
		c.emit(GETINDEX)
	case refPriv:
		m := t.(*ast.Member)
		c.emit(DUP)
		c.at(memberPos(m))
		c.privOp(PRIVGET, m.Private)
	case refSuper:
		c.at(refPos(t))
		c.emit(TOKEY)
		c.emit(DUP2)
		c.emit(SUPERGET)
	}
}

// refPos is where a super reference's get and set are reported.
func refPos(t ast.Pattern) ast.Pos {
	switch m := t.(type) {
	case *ast.Member:
		return memberPos(m)
	case *ast.Index:
		return m.Index.Pos()
	}
	return t.Pos()
}

// refSet writes the value on top of the stack to a target whose base is
// below it, leaving the value: [base] v → v; or nothing when the value
// is not used (c.void).
func (c *compiler) refSet(t ast.Pattern, k refKind) {
	void := c.void
	c.void = false
	switch k {
	case refName:
		id := t.(*ast.Ident)
		if !void {
			c.emit(DUP)
		}
		c.at(id.Start)
		c.store(id.Binding, false)
		return
	case refProp:
		m := t.(*ast.Member)
		c.at(memberPos(m))
		c.emit1(SETPROP, c.str(m.Prop.Name))
	case refIndex:
		c.at(t.(*ast.Index).Index.Pos())
		c.emit(SETINDEX)
	case refPriv:
		m := t.(*ast.Member)
		c.at(memberPos(m))
		c.privOp(PRIVSET, m.Private)
	case refSuper:
		c.at(refPos(t))
		c.emit(SUPERSET)
	}
	if void {
		c.emit(POP)
	}
}

// exprVoid compiles x for its effects only, leaving nothing: an
// assignment or update then skips keeping its value.
func (c *compiler) exprVoid(x ast.Expr) {
	switch x := x.(type) {
	case *ast.Assign:
		if id, ok := x.Target.(*ast.Ident); ok && x.Op == ast.OpAddAssign && noAssign(x.Value) {
			// The value cannot change the local (no closure sees it and
			// the value assigns nothing), so it may be read after it.
			if b := id.Binding; b.Storage == ast.Local && !b.ReadOnly() && !c.checked(b) {
				c.expr(x.Value)
				c.at(x.Start)
				c.emit1(ADDLOCAL, b.Index)
				return
			}
		}
		if x.Op != ast.OpAndAssign && x.Op != ast.OpOrAssign && x.Op != ast.OpNullishAssign {
			c.at(x.Start)
			c.voidAssign = true
			c.assign(x)
			return
		}
	case *ast.Update:
		c.at(x.Start)
		c.voidAssign = true
		c.update(x)
		return
	}
	c.expr(x)
	c.emit(POP)
}

// dropBase removes a target's base from under the value on top.
func (c *compiler) dropBase(k refKind) {
	for i := 0; i < k.baseSize(); i++ {
		c.emit(SWAP)
		c.emit(POP)
	}
}

func (c *compiler) assign(x *ast.Assign) {
	void := c.voidAssign
	c.voidAssign = false
	switch x.Target.(type) {
	case *ast.ArrayPattern, *ast.ObjectPattern:
		c.expr(x.Value)
		if !void {
			c.emit(DUP)
		}
		c.pattern(x.Target, bindAssign)
		return
	}
	k := c.reference(x.Target)
	switch x.Op {
	case ast.OpAssign:
		if id, ok := x.Target.(*ast.Ident); ok {
			c.namedExpr(x.Value, id.Name)
		} else {
			c.expr(x.Value)
		}
		c.void = void
		c.refSet(x.Target, k)
		return
	case ast.OpAndAssign, ast.OpOrAssign, ast.OpNullishAssign:
		c.refGet(x.Target, k)
		d := c.fn.depth
		lop := map[ast.AssignOp]ast.BinaryOp{ast.OpAndAssign: ast.OpAnd, ast.OpOrAssign: ast.OpOr, ast.OpNullishAssign: ast.OpNullish}[x.Op]
		short := c.jump(logicalJump(lop))
		if id, ok := x.Target.(*ast.Ident); ok {
			c.namedExpr(x.Value, id.Name)
		} else {
			c.expr(x.Value)
		}
		c.refSet(x.Target, k)
		end := c.jump(JMP)
		c.patchHere(short)
		c.fn.depth = d
		c.dropBase(k)
		c.patchHere(end)
		return
	}
	bop, ok := x.Op.Binary()
	op, ok2 := binaryOps[bop]
	if !ok || !ok2 {
		c.fail("this assignment operator", x.Start)
	}
	c.refGet(x.Target, k)
	c.expr(x.Value)
	c.at(x.Start)
	c.emit(op)
	c.void = void
	c.refSet(x.Target, k)
}

func (c *compiler) update(x *ast.Update) {
	void := c.voidAssign
	c.voidAssign = false
	target, ok := x.X.(ast.Pattern)
	if !ok {
		c.fail("this update target", x.Start)
	}
	if id, ok := target.(*ast.Ident); ok && void {
		if b := id.Binding; b.Storage == ast.Local && !b.ReadOnly() && !c.checked(b) {
			c.at(x.Start)
			if x.Op == ast.OpDec {
				c.emit1(DECLOCAL, b.Index)
			} else {
				c.emit1(INCLOCAL, b.Index)
			}
			return
		}
	}
	k := c.reference(target)
	c.refGet(target, k)
	c.at(x.Start)
	c.emit(TONUMBER)
	t := -1
	if !x.Prefix && !void {
		t = c.temp()
		c.emit(DUP)
		c.emit1(SETLOCAL, t)
	}
	c.emitNumber(1)
	if x.Op == ast.OpDec {
		c.emit(SUB)
	} else {
		c.emit(ADD)
	}
	c.void = void
	c.refSet(target, k)
	if t >= 0 {
		c.emit(POP)
		c.emit1(LOCAL, t)
		c.freeTemp()
	}
}
