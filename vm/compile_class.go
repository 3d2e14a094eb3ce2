package vm

import (
	"github.com/go-codemode/codemode/ast"
)

// class compiles a class definition, leaving its constructor: the
// heritage, CLASS, each member in order (its computed key, then its
// function), the name binding, then CLASSINIT (static fields and
// blocks), as engine "ast" evaluates a class (interp/class.go).
func (c *compiler) class(cls *ast.Class, name string) {
	info := ClassInfo{Name: name, Brand: "anonymous", Derived: cls.Extends != nil, Ctor: -1}
	if cls.Name != nil {
		info.Brand = cls.Name.Name
	}
	names := map[string]int{}
	for _, m := range cls.Members {
		pn, ok := m.Key.(*ast.PrivateName)
		if !ok {
			continue
		}
		i, seen := names[pn.Name]
		if !seen {
			i = len(info.Private)
			names[pn.Name] = i
			info.Private = append(info.Private, pn.Name)
			info.PrivMethod = append(info.PrivMethod, false)
		}
		if m.Kind != ast.MemberField {
			info.PrivMethod[i] = true
		}
	}
	k := len(c.prog.Classes)
	c.prog.Classes = append(c.prog.Classes, ClassInfo{})
	if b := cls.Inner; b != nil {
		// Uninitialized while the heritage and the keys are evaluated.
		c.emit(HOLE)
		c.initFresh(b)
	}
	if cls.Extends != nil {
		c.expr(cls.Extends)
	}
	c.classes = append(c.classes, names)
	c.at(cls.Start)
	c.emit1(CLASS, k)
	if info.Derived {
		c.fn.depth--
	}
	for _, m := range cls.Members {
		if m.Kind == ast.MemberConstructor {
			info.Ctor = c.function(m.Value, name)
			continue
		}
		mi := ClassMember{Kind: uint8(m.Kind), Static: m.Static, Pos: int(m.Start)}
		switch key := m.Key.(type) {
		case *ast.PrivateName:
			mi.Private = names[key.Name] + 1
		default:
			if m.Computed {
				mi.Computed = true
				c.expr(m.Key)
			} else if m.Kind != ast.MemberStaticBlock && m.Key != nil {
				mi.Key = staticKey(m.Key)
			}
		}
		if m.Value != nil {
			c.funcLit(m.Value, "")
		} else {
			c.emit(UNDEFINED)
		}
		c.at(m.Start)
		c.emit2(CLASSMEMBER, k, len(info.Members))
		if mi.Computed {
			c.fn.depth--
		}
		info.Members = append(info.Members, mi)
	}
	c.classes = c.classes[:len(c.classes)-1]
	c.emit(POP)
	if b := cls.Inner; b != nil {
		c.emit(DUP)
		c.store(b, true)
	}
	c.at(cls.Start)
	c.emit1(CLASSINIT, k)
	c.prog.Classes[k] = info
}

// initFresh pops a value into a binding's slot, in a fresh cell when it
// is captured.
func (c *compiler) initFresh(b *ast.Binding) {
	switch b.Storage {
	case ast.Local:
		c.emit1(SETLOCAL, b.Index)
	case ast.Cell:
		c.emit1(INITCELL, b.Index)
	default:
		c.emit(POP)
	}
}

// privDepth is how many classes out the private name is declared.
func (c *compiler) privDepth(pn *ast.PrivateName) int {
	for i := len(c.classes) - 1; i >= 0; i-- {
		if _, ok := c.classes[i][pn.Name]; ok {
			return len(c.classes) - 1 - i
		}
	}
	c.fail("an undeclared private name", pn.Start)
	return 0
}

// privOp emits a private name operation.
func (c *compiler) privOp(op Opcode, pn *ast.PrivateName) {
	c.emit2(op, c.str(pn.Name), c.privDepth(pn))
}

// loadRaw pushes a binding without the TDZ check.
func (c *compiler) loadRaw(b *ast.Binding) {
	switch b.Storage {
	case ast.Local:
		c.emit1(LOCAL, b.Index)
	case ast.Cell:
		c.emit1(CELL, b.Index)
	case ast.Free:
		c.emit1(FREE, b.Index)
	default:
		c.emit(UNDEFINED)
	}
}

// superCall compiles super(...args): the parent constructs, this is
// bound (once), then the class's fields are installed.
func (c *compiler) superCall(s *ast.Super, x *ast.Call) {
	if hasSpread(x.Args) {
		c.emit1(MAKEARRAY, 0)
		c.spreadList(x.Args, true, x.Start)
		c.at(x.Start)
		c.emit1(SUPERCALLARRAY, 0)
	} else {
		c.args(x.Args)
		c.at(x.Start)
		c.emit1(SUPERCALL, len(x.Args))
	}
	c.loadRaw(s.This)
	c.emit(SUPERBIND)
	c.emit(DUP)
	c.store(s.This, true)
	c.emit(INITFIELDS)
}

// superKey pushes this and the key of super.name or super[key].
func (c *compiler) superKey(s *ast.Super, x ast.Expr) {
	c.at(s.Start)
	c.load(s.This)
	switch m := x.(type) {
	case *ast.Member:
		c.emitString(m.Prop.Name)
	case *ast.Index:
		c.expr(m.Index)
	}
	c.at(s.Start)
}

// emitAwait emits AWAIT; a program body that awaits runs as an async
// function.
func (c *compiler) emitAwait() {
	if ast.FuncKind(c.fn.fc.Kind) == ast.FuncProgram {
		c.fn.fc.Flags |= FlagAsync
	}
	c.emit(AWAIT)
}

// yield compiles yield and yield*. In an async generator a yielded
// value is awaited first.
func (c *compiler) yield(x *ast.Yield) {
	async := c.fn.fc.Flags&FlagAsync != 0
	if !x.Delegate {
		if x.X != nil {
			c.expr(x.X)
		} else {
			c.emit(UNDEFINED)
		}
		c.at(x.Start)
		if async {
			c.emit(AWAIT)
		}
		c.emit(YIELD)
		return
	}
	// yield*: each resumption (value and mode) goes to the inner
	// iterator, until its result is done.
	c.expr(x.X)
	c.at(x.Start)
	flag := 0
	if async {
		flag = 1
	}
	c.emit1(YIELDSTARINIT, flag)
	t := c.temp()
	c.emit1(SETLOCAL, t)
	c.emit(UNDEFINED)
	c.emitNumber(0) // value.ResumeNext
	top := c.here()
	c.emit1(YIELDSTARSTEP, t)
	if async {
		c.emit(AWAIT)
	}
	c.emit2(YIELDSTARDONE, 0, t)
	exit := len(c.fn.code) - 8
	c.emit(YIELDSTAR)
	c.emit1(JMP, top)
	c.fn.depth--
	c.patchHere(exit)
	c.freeTemp()
}

// forAwait compiles for await (x of xs), as forOf does, with each next
// result (or value) awaited, and the iterator's return (awaited for an
// async iterator) when the body is left early.
func (c *compiler) forAwait(s *ast.ForOf, labels []string) {
	c.enterScope(s.Scope)
	c.expr(s.Right)
	c.at(s.Right.Pos())
	c.emit(ASYNCITER)
	it := c.temp()
	c.emit1(SETLOCAL, it)
	t := c.pushTarget(labels, true)
	fin := c.jump(TRYFINALLY)
	c.fn.hdepth++
	t.chdepth = c.fn.hdepth
	top := c.here()
	d := c.fn.depth
	c.at(s.Right.Pos())
	c.emit2(ASYNCITERSTEP, 0, it)
	exit1 := len(c.fn.code) - 8
	c.emitAwait()
	c.at(s.Right.Pos())
	c.emit2(ASYNCITERVALUE, 0, it)
	exit2 := len(c.fn.code) - 8
	c.enterScope(s.Scope)
	c.forBind(s.Left)
	c.stmt(s.Body, nil)
	cont := c.here()
	c.at(s.Start)
	c.emit1(LOOP, top)
	c.patchHere(exit1, exit2)
	c.fn.depth = d
	c.emit(POPHANDLER)
	c.fn.hdepth--
	c.emit(NORMAL)
	c.patchHere(fin)
	c.at(s.Start)
	c.emit1(ASYNCITERCLOSE, it)
	c.emit1(ASYNCITERCLOSED, it)
	c.emit(ENDFINALLY)
	c.popTarget(t, cont)
	c.freeTemp()
}
