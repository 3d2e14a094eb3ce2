package vm

import "github.com/go-codemode/codemode/ast"

func (c *compiler) stmts(list []ast.Stmt) {
	for _, s := range list {
		c.stmt(s, nil)
	}
}

func (c *compiler) block(b *ast.Block) {
	c.enterScope(b.Scope)
	c.stmts(b.Body)
}

// stmt compiles s; labels are those of the labeled statements directly
// around it (they belong to a loop).
func (c *compiler) stmt(s ast.Stmt, labels []string) {
	c.at(s.Pos())
	switch s := s.(type) {
	case *ast.ExprStmt:
		c.exprVoid(s.X)
	case *ast.VarDecl:
		c.varDecl(s)
	case *ast.FuncDecl, *ast.Empty:
		// hoisted, or nothing
	case *ast.Block:
		c.block(s)
	case *ast.If:
		els := c.jumpIfFalse(s.Test)
		c.stmt(s.Then, nil)
		if s.Else == nil {
			c.patchHere(els)
			return
		}
		end := c.jump(JMP)
		c.patchHere(els)
		c.stmt(s.Else, nil)
		c.patchHere(end)
	case *ast.For:
		c.forStmt(s, labels)
	case *ast.While:
		c.while(s, labels)
	case *ast.DoWhile:
		c.doWhile(s, labels)
	case *ast.Return:
		if s.X == nil {
			c.emit(UNDEFINED)
		} else {
			c.expr(s.X)
		}
		if ast.FuncKind(c.fn.fc.Kind) == ast.FuncProgram {
			// The program's value is copied out after its end: an error
			// there (a circular structure) is located at its return.
			c.at(s.Start)
		}
		c.emit(RETURN)
	case *ast.Break:
		c.breakStmt(s)
	case *ast.Continue:
		c.continueStmt(s)
	case *ast.Throw:
		c.expr(s.X)
		c.at(s.Start)
		c.emit(THROW)
	case *ast.Try:
		c.tryStmt(s)
	case *ast.Switch:
		c.switchStmt(s)
	case *ast.Labeled:
		c.labeled(s, labels)
	case *ast.ClassDecl:
		c.class(s.Class, s.Class.Name.Name)
		c.at(s.Start)
		b := s.Class.Name.Binding
		c.store(b, true)
		if c.fn.noInit == 0 {
			c.fn.initBinding(b)
		}
	case *ast.ForIn:
		c.forIn(s, labels)
	case *ast.ForOf:
		c.forOf(s, labels)
	case *ast.With:
		c.emit1(UNSUPPORTED, c.str("WithStatement"))
	case *ast.Debugger:
		c.emit1(UNSUPPORTED, c.str("DebuggerStatement"))
	case *ast.Import:
		c.importStmt(s)
	default:
		c.fail("this statement", s.Pos())
	}
}

func (c *compiler) varDecl(d *ast.VarDecl) {
	mode := bindDecl
	if d.Kind == ast.DeclVar {
		mode = bindVar
	}
	for _, dc := range d.Decls {
		id, ok := dc.Target.(*ast.Ident)
		if !ok {
			c.expr(dc.Init)
			c.pattern(dc.Target, mode)
			continue
		}
		if dc.Init == nil {
			if d.Kind == ast.DeclVar {
				continue
			}
			c.emit(UNDEFINED)
		} else {
			c.namedExpr(dc.Init, id.Name)
		}
		c.at(id.Start)
		c.store(id.Binding, d.Kind != ast.DeclVar)
		if d.Kind != ast.DeclVar && c.fn.noInit == 0 {
			c.fn.initBinding(id.Binding)
		}
	}
}

// ---------------------------------------------------------------------------
// Loops, break and continue

func (c *compiler) pushTarget(labels []string, loop bool) *target {
	t := &target{labels: labels, loop: loop, breakable: loop, hdepth: c.fn.hdepth, chdepth: c.fn.hdepth, finallies: c.fn.finallies}
	c.fn.targets = append(c.fn.targets, t)
	return t
}

func (c *compiler) popTarget(t *target, continueAddr int) {
	c.fn.targets = c.fn.targets[:len(c.fn.targets)-1]
	for _, s := range t.continues {
		c.patch(s, continueAddr)
	}
	c.patchHere(t.breaks...)
}

func (c *compiler) forStmt(s *ast.For, labels []string) {
	c.enterScope(s.Scope)
	if s.Init != nil {
		c.stmt(s.Init, nil)
	}
	c.renewCells(s.Scope)
	t := c.pushTarget(labels, true)
	top := c.here()
	exit := -1
	if s.Test != nil {
		exit = c.jumpIfFalse(s.Test)
	}
	c.stmt(s.Body, nil)
	cont := c.here()
	c.renewCells(s.Scope)
	if s.Update != nil {
		c.exprVoid(s.Update)
	}
	c.at(s.Start)
	c.emit1(LOOP, top)
	if exit >= 0 {
		c.patchHere(exit)
	}
	c.popTarget(t, cont)
}

func (c *compiler) while(s *ast.While, labels []string) {
	t := c.pushTarget(labels, true)
	top := c.here()
	exit := c.jumpIfFalse(s.Test)
	c.stmt(s.Body, nil)
	c.at(s.Start)
	c.emit1(LOOP, top)
	c.patchHere(exit)
	c.popTarget(t, top)
}

func (c *compiler) doWhile(s *ast.DoWhile, labels []string) {
	t := c.pushTarget(labels, true)
	top := c.here()
	c.stmt(s.Body, nil)
	cont := c.here()
	exit := c.jumpIfFalse(s.Test)
	c.at(s.Start)
	c.emit1(LOOP, top)
	c.patchHere(exit)
	c.popTarget(t, cont)
}

// forOf compiles for (x of xs). The iterator lives in a temporary, and
// the loop is a try region whose finally block (ITERCLOSE) closes it
// when the loop is left early: by break, return, an outer continue or a
// throw, as engine "ast" does.
func (c *compiler) forOf(s *ast.ForOf, labels []string) {
	if s.Await {
		c.forAwait(s, labels)
		return
	}
	c.enterScope(s.Scope)
	c.expr(s.Right)
	c.at(s.Right.Pos())
	c.emit(GETITER)
	it := c.temp()
	c.emit1(SETLOCAL, it)
	t := c.pushTarget(labels, true)
	fin := c.jump(TRYFINALLY)
	c.fn.hdepth++
	t.chdepth = c.fn.hdepth
	top := c.here()
	d := c.fn.depth
	c.at(s.Right.Pos())
	c.emit2(ITERNEXT, 0, it)
	exit := len(c.fn.code) - 8
	c.enterScope(s.Scope)
	c.forBind(s.Left)
	c.stmt(s.Body, nil)
	cont := c.here()
	c.at(s.Start)
	c.emit1(LOOP, top)
	c.patchHere(exit)
	c.fn.depth = d
	c.emit(POPHANDLER)
	c.fn.hdepth--
	c.emit(NORMAL)
	c.patchHere(fin)
	c.emit1(ITERCLOSE, it)
	c.emit(ENDFINALLY)
	c.popTarget(t, cont)
	c.freeTemp()
}

// forIn compiles for (k in obj): the keys are listed when the loop
// starts, and one deleted meanwhile is skipped.
func (c *compiler) forIn(s *ast.ForIn, labels []string) {
	c.enterScope(s.Scope)
	c.expr(s.Right)
	c.emit(FORIN)
	st := c.temp()
	c.emit1(SETLOCAL, st)
	t := c.pushTarget(labels, true)
	top := c.here()
	d := c.fn.depth
	c.emit2(FORINNEXT, 0, st)
	exit := len(c.fn.code) - 8
	c.enterScope(s.Scope)
	c.forBind(s.Left)
	c.stmt(s.Body, nil)
	c.at(s.Start)
	c.emit1(LOOP, top)
	c.patchHere(exit)
	c.fn.depth = d
	c.popTarget(t, top)
	c.freeTemp()
}

// forBind binds the value on the stack to a for-of head: a declaration
// or an assignment target.
func (c *compiler) forBind(left ast.Node) {
	if d, ok := left.(*ast.VarDecl); ok {
		mode := bindDecl
		if d.Kind == ast.DeclVar {
			mode = bindVar
		}
		c.pattern(d.Decls[0].Target, mode)
		return
	}
	p, ok := left.(ast.Pattern)
	if !ok {
		c.fail("this loop head", left.Pos())
	}
	c.pattern(p, bindAssign)
}

func (c *compiler) labeled(s *ast.Labeled, labels []string) {
	labels = append(labels[:len(labels):len(labels)], s.Label.Name)
	switch s.Body.(type) {
	case *ast.For, *ast.ForOf, *ast.ForIn, *ast.While, *ast.DoWhile, *ast.Labeled:
		c.stmt(s.Body, labels)
		return
	}
	t := c.pushTarget(labels, false)
	c.stmt(s.Body, nil)
	c.popTarget(t, -1)
}

func hasLabel(labels []string, l string) bool {
	for _, x := range labels {
		if x == l {
			return true
		}
	}
	return false
}

// findTarget finds the statement a break or continue leaves.
func (c *compiler) findTarget(label *ast.Name, cont bool, pos ast.Pos) *target {
	ts := c.fn.targets
	for i := len(ts) - 1; i >= 0; i-- {
		t := ts[i]
		if label != nil {
			if hasLabel(t.labels, label.Name) && (!cont || t.loop) {
				return t
			}
			continue
		}
		if cont && t.loop || !cont && t.breakable {
			return t
		}
	}
	c.fail("this break or continue", pos) // the parser rejects these
	return nil
}

// jumpTo emits a jump to t, dropping the completion records of finally
// blocks it leaves and running the finally blocks of try regions it
// leaves (JUMPOUT).
func (c *compiler) jumpTo(t *target, cont bool) int {
	// What follows a jump is reached from elsewhere, at this depth.
	d := c.fn.depth
	defer func() { c.fn.depth = d }()
	for i := t.finallies; i < c.fn.finallies; i++ {
		c.emit(POP)
		c.emit(POP)
		c.emit(POP)
	}
	hdepth := t.hdepth
	if cont {
		hdepth = t.chdepth
	}
	if hdepth != c.fn.hdepth {
		return c.jumpOut(hdepth)
	}
	return c.jump(JMP)
}

func (c *compiler) breakStmt(s *ast.Break) {
	t := c.findTarget(s.Label, false, s.Start)
	t.breaks = append(t.breaks, c.jumpTo(t, false))
}

func (c *compiler) continueStmt(s *ast.Continue) {
	t := c.findTarget(s.Label, true, s.Start)
	t.continues = append(t.continues, c.jumpTo(t, true))
}

func (c *compiler) switchStmt(s *ast.Switch) {
	c.expr(s.Disc)
	d := c.temp()
	c.emit1(SETLOCAL, d)
	c.enterScope(s.Scope)
	c.fn.noInit++
	defer func() { c.fn.noInit-- }()
	t := c.pushTarget(nil, false)
	t.breakable = true
	bodies := make([]int, len(s.Cases))
	dflt := -1
	for i, cs := range s.Cases {
		if cs.Test == nil {
			dflt = i
			continue
		}
		c.emit1(LOCAL, d)
		c.expr(cs.Test)
		c.at(cs.Start)
		c.emit(SEQ)
		bodies[i] = c.jump(JMPTRUE)
	}
	var none int
	if dflt >= 0 {
		bodies[dflt] = c.jump(JMP)
	} else {
		none = c.jump(JMP)
	}
	for i, cs := range s.Cases {
		c.patchHere(bodies[i])
		c.stmts(cs.Body)
	}
	if dflt < 0 {
		c.patchHere(none)
	}
	c.popTarget(t, -1)
	c.freeTemp()
}

// ---------------------------------------------------------------------------
// Exceptions

// tryStmt compiles try/catch/finally. A try region is a handler on the
// frame's handler stack (TRY, TRYFINALLY) from its start to its
// POPHANDLER. A throw inside jumps to the catch with the exception
// pushed; a finally block is entered with a completion record pushed
// (kind, value, aux): normal when the block ends, a throw, a return or a
// jump out, and ENDFINALLY carries that completion on.
func (c *compiler) tryStmt(s *ast.Try) {
	fin := -1
	if s.Finalizer != nil {
		fin = c.jump(TRYFINALLY)
		c.fn.hdepth++
	}
	if s.Handler != nil {
		catch := c.jump(TRY)
		d := c.fn.depth
		c.fn.hdepth++
		c.block(s.Block)
		c.emit(POPHANDLER)
		c.fn.hdepth--
		end := c.jump(JMP)
		c.patchHere(catch)
		c.fn.depth = d + 1 // the exception
		c.enterScope(s.CatchScope)
		switch p := s.Param.(type) {
		case nil:
			c.emit(POP)
		default:
			c.pattern(p, bindDecl)
		}
		c.block(s.Handler)
		c.patchHere(end)
	} else {
		c.block(s.Block)
	}
	if s.Finalizer != nil {
		c.emit(POPHANDLER)
		c.fn.hdepth--
		c.emit(NORMAL)
		c.patchHere(fin)
		c.fn.finallies++
		c.block(s.Finalizer)
		c.fn.finallies--
		c.emit(ENDFINALLY)
	}
}

// importStmt binds what an import declaration names, when it runs: the
// module (default, namespace) and its properties.
func (c *compiler) importStmt(s *ast.Import) {
	c.emit1(IMPORT, c.str(s.Module.Value))
	for _, id := range []*ast.Ident{s.Default, s.Namespace} {
		if id != nil {
			c.emit(DUP)
			c.at(id.Start)
			c.store(id.Binding, true)
		}
	}
	for _, sp := range s.Specs {
		c.emit(DUP)
		c.at(s.Start)
		c.emit1(GETPROP, c.str(sp.Imported.Name))
		if sp.Imported.Name == "default" {
			c.emit(POP)
			c.emit(DUP)
		}
		c.at(sp.Local.Start)
		c.store(sp.Local.Binding, true)
	}
	c.emit(POP)
}
