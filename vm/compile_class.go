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
