package interp

import (
	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/internal/jsops"
	"github.com/go-codemode/codemode/value"
)

func (c *compiler) stmts(list []ast.Stmt) stmtFn {
	fns := make([]stmtFn, 0, len(list))
	for _, s := range list {
		if fn := c.stmt(s); fn != nil {
			fns = append(fns, fn)
		}
	}
	switch len(fns) {
	case 0:
		return func(*frame) ctl { return ctlNormal }
	case 1:
		return fns[0]
	}
	return func(f *frame) ctl {
		for _, s := range fns {
			if r := s(f); r != ctlNormal {
				return r
			}
		}
		return ctlNormal
	}
}

func (c *compiler) block(b *ast.Block) stmtFn {
	enter := c.enterScope(b.Scope)
	body := c.stmts(b.Body)
	if enter == nil {
		return body
	}
	return func(f *frame) ctl {
		enter(f)
		return body(f)
	}
}

// stmt compiles one statement, counting its Go stack (stack.go); nil
// means it does nothing at run time.
func (c *compiler) stmt(s ast.Stmt) stmtFn {
	defer c.nest(stmtStackCost(s))()
	return c.stmtNode(s)
}

func (c *compiler) stmtNode(s ast.Stmt) stmtFn {
	switch s := s.(type) {
	case *ast.ExprStmt:
		x := c.expr(s.X)
		return func(f *frame) ctl { x(f); return ctlNormal }
	case *ast.VarDecl:
		return c.varDecl(s)
	case *ast.FuncDecl:
		return nil // hoisted
	case *ast.ClassDecl:
		mk := c.class(s.Class, s.Class.Name.Name)
		st := c.store(s.Class.Name.Binding, s.Start, true)
		return func(f *frame) ctl { st(f, mk(f)); return ctlNormal }
	case *ast.Block:
		return c.block(s)
	case *ast.Empty:
		return nil
	case *ast.If:
		return c.ifStmt(s)
	case *ast.For:
		return c.forStmt(s, nil)
	case *ast.ForIn:
		return c.forIn(s, nil)
	case *ast.ForOf:
		return c.forOf(s, nil)
	case *ast.While:
		return c.while(s, nil)
	case *ast.DoWhile:
		return c.doWhile(s, nil)
	case *ast.Return:
		if s.X == nil {
			return func(f *frame) ctl { f.ret = value.Undefined; return ctlReturn }
		}
		x := c.expr(s.X)
		if c.fn.kind == ast.FuncProgram {
			// The program's value is copied out after its end: an error
			// there (a circular structure) is located at its return.
			pos := int(s.Start)
			return func(f *frame) ctl { f.ret = x(f); f.run.pos = pos; return ctlReturn }
		}
		return func(f *frame) ctl { f.ret = x(f); return ctlReturn }
	case *ast.Break:
		label := ""
		if s.Label != nil {
			label = s.Label.Name
		}
		return func(f *frame) ctl { f.label = label; return ctlBreak }
	case *ast.Continue:
		label := ""
		if s.Label != nil {
			label = s.Label.Name
		}
		return func(f *frame) ctl { f.label = label; return ctlContinue }
	case *ast.Throw:
		x := c.expr(s.X)
		return func(f *frame) ctl { panic(&value.Exception{Value: x(f)}) }
	case *ast.Try:
		return c.tryStmt(s)
	case *ast.Switch:
		return c.switchStmt(s)
	case *ast.Labeled:
		return c.labeled(s, nil)
	case *ast.With:
		return c.unsupported("WithStatement", s.Start)
	case *ast.Debugger:
		return c.unsupported("DebuggerStatement", s.Start)
	case *ast.Import:
		return c.importStmt(s)
	}
	panic("interp: unknown statement " + ast.Dump(s, nil))
}

func (c *compiler) varDecl(d *ast.VarDecl) stmtFn {
	// The common `const x = init;` is one closure.
	if len(d.Decls) == 1 && d.Decls[0].Init != nil {
		dc := d.Decls[0]
		init := c.namedExpr(dc.Init, targetName(dc.Target))
		st := c.bindTarget(dc.Target, d.Kind != ast.DeclVar)
		return func(f *frame) ctl { st(f, init(f)); return ctlNormal }
	}
	var fns []func(f *frame)
	for _, dc := range d.Decls {
		if dc.Init == nil {
			if d.Kind == ast.DeclVar {
				continue
			}
			st := c.bindTarget(dc.Target, true)
			fns = append(fns, func(f *frame) { st(f, value.Undefined) })
			continue
		}
		init := c.namedExpr(dc.Init, targetName(dc.Target))
		st := c.bindTarget(dc.Target, d.Kind != ast.DeclVar)
		fns = append(fns, func(f *frame) { st(f, init(f)) })
	}
	if len(fns) == 1 {
		fn := fns[0]
		return func(f *frame) ctl { fn(f); return ctlNormal }
	}
	return func(f *frame) ctl {
		for _, fn := range fns {
			fn(f)
		}
		return ctlNormal
	}
}

// targetName is the name an anonymous function gets from its binding.
func targetName(p ast.Pattern) string {
	if id, ok := p.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func (c *compiler) ifStmt(s *ast.If) stmtFn {
	test := c.cond(s.Test)
	then := c.stmtOrNop(s.Then)
	if s.Else == nil {
		return func(f *frame) ctl {
			if test(f) {
				return then(f)
			}
			return ctlNormal
		}
	}
	els := c.stmtOrNop(s.Else)
	return func(f *frame) ctl {
		if test(f) {
			return then(f)
		}
		return els(f)
	}
}

func (c *compiler) stmtOrNop(s ast.Stmt) stmtFn {
	if fn := c.stmt(s); fn != nil {
		return fn
	}
	return func(*frame) ctl { return ctlNormal }
}

// loopCtl decides what a loop does with its body's completion: stop
// (and with what completion) or go on.
func loopCtl(f *frame, r ctl, labels []string) (stop bool, out ctl) {
	switch r {
	case ctlBreak:
		if f.label == "" || hasLabel(labels, f.label) {
			f.label = ""
			return true, ctlNormal
		}
		return true, ctlBreak
	case ctlContinue:
		if f.label == "" || hasLabel(labels, f.label) {
			f.label = ""
			return false, ctlNormal
		}
		return true, ctlContinue
	case ctlReturn:
		return true, ctlReturn
	}
	return false, ctlNormal
}

func hasLabel(labels []string, l string) bool {
	for _, x := range labels {
		if x == l {
			return true
		}
	}
	return false
}

func (c *compiler) forStmt(s *ast.For, labels []string) stmtFn {
	enter := c.enterScope(s.Scope)
	var init stmtFn
	if s.Init != nil {
		init = c.stmt(s.Init)
	}
	var test func(f *frame) bool
	if s.Test != nil {
		test = c.cond(s.Test)
	}
	var update exprFn
	if s.Update != nil {
		update = c.expr(s.Update)
	}
	body := c.stmtOrNop(s.Body)
	renew := renewCells(s.Scope)
	return func(f *frame) ctl {
		if enter != nil {
			enter(f)
		}
		if init != nil {
			init(f)
		}
		if renew != nil {
			renew(f)
		}
		for {
			if test != nil && !test(f) {
				return ctlNormal
			}
			r := body(f)
			if r != ctlNormal {
				if stop, out := loopCtl(f, r, labels); stop {
					return out
				}
			}
			if renew != nil {
				renew(f)
			}
			if update != nil {
				update(f)
			}
			f.run.Poll()
		}
	}
}

func (c *compiler) while(s *ast.While, labels []string) stmtFn {
	test := c.cond(s.Test)
	body := c.stmtOrNop(s.Body)
	return func(f *frame) ctl {
		for test(f) {
			r := body(f)
			if r != ctlNormal {
				if stop, out := loopCtl(f, r, labels); stop {
					return out
				}
			}
			f.run.Poll()
		}
		return ctlNormal
	}
}

func (c *compiler) doWhile(s *ast.DoWhile, labels []string) stmtFn {
	test := c.cond(s.Test)
	body := c.stmtOrNop(s.Body)
	return func(f *frame) ctl {
		for {
			r := body(f)
			if r != ctlNormal {
				if stop, out := loopCtl(f, r, labels); stop {
					return out
				}
			}
			f.run.Poll()
			if !test(f) {
				return ctlNormal
			}
		}
	}
}

// forHead compiles the binding of each value in for-in/for-of: a
// declaration (fresh per iteration) or an assignment target.
func (c *compiler) forHead(left ast.Node, scope *ast.Scope) (enter func(f *frame), bind func(f *frame, v value.Value)) {
	enter = c.enterScope(scope)
	if d, ok := left.(*ast.VarDecl); ok {
		return enter, c.bindTarget(d.Decls[0].Target, d.Kind != ast.DeclVar)
	}
	return enter, c.assignTarget(left.(ast.Pattern))
}

func (c *compiler) forIn(s *ast.ForIn, labels []string) stmtFn {
	enter, bind := c.forHead(s.Left, s.Scope)
	right := c.expr(s.Right)
	body := c.stmtOrNop(s.Body)
	return func(f *frame) ctl {
		if enter != nil {
			enter(f)
		}
		obj := right(f)
		if obj.IsNullish() {
			return ctlNormal
		}
		o := f.run.realm.ProtoOf(obj)
		keys := jsops.ForInKeys(f.run.realm, obj, o)
		for _, k := range keys {
			// A key deleted during the loop is skipped.
			if !obj.IsString() && !f.run.realm.HasProperty(o, k) {
				continue
			}
			if enter != nil {
				enter(f)
			}
			bind(f, value.StrOf(k))
			r := body(f)
			if r != ctlNormal {
				if stop, out := loopCtl(f, r, labels); stop {
					return out
				}
			}
			f.run.Poll()
		}
		return ctlNormal
	}
}

func (c *compiler) forOf(s *ast.ForOf, labels []string) stmtFn {
	if s.Await {
		return c.forAwait(s, labels)
	}
	enter, bind := c.forHead(s.Left, s.Scope)
	right := c.expr(s.Right)
	body := c.stmtOrNop(s.Body)
	pos := s.Right.Pos()
	return func(f *frame) (res ctl) {
		if enter != nil {
			enter(f)
		}
		r := f.run.realm
		iterable := right(f)
		f.run.pos = int(pos)
		it := r.GetIterator(iterable)
		// The loop runs guarded and the iterator is closed after the
		// panic was recovered: re-panicking inside a deferred function
		// would keep every frame below it on the stack while the panic
		// goes on, doubling the stack a deep recursion needs to unwind
		// and making the unwinding quadratic.
		var out ctl
		var done bool
		p := value.CatchPanic(func() {
			for {
				v, ok := it.Step(r)
				if !ok {
					done = true
					out = ctlNormal
					return
				}
				if enter != nil {
					enter(f)
				}
				bind(f, v)
				rc := body(f)
				if rc != ctlNormal {
					if stop, o := loopCtl(f, rc, labels); stop {
						done = true
						if o != ctlNormal || rc == ctlBreak {
							it.Close(r)
						}
						out = o
						return
					}
				}
				f.run.Poll()
			}
		})
		if p != nil {
			if !done {
				if _, ok := p.(*value.Exception); ok {
					it.CloseQuietly(r)
				} else if _, ok := p.(*genReturn); ok {
					it.Close(r)
				}
			}
			panic(p)
		}
		return out
	}
}

func (c *compiler) labeled(s *ast.Labeled, labels []string) stmtFn {
	labels = append(labels, s.Label.Name)
	var body stmtFn
	switch b := s.Body.(type) {
	case *ast.For:
		body = c.forStmt(b, labels)
	case *ast.ForIn:
		body = c.forIn(b, labels)
	case *ast.ForOf:
		body = c.forOf(b, labels)
	case *ast.While:
		body = c.while(b, labels)
	case *ast.DoWhile:
		body = c.doWhile(b, labels)
	case *ast.Labeled:
		body = c.labeled(b, labels)
	default:
		body = c.stmtOrNop(b)
	}
	name := s.Label.Name
	return func(f *frame) ctl {
		r := body(f)
		if r == ctlBreak && f.label == name {
			f.label = ""
			return ctlNormal
		}
		return r
	}
}

func (c *compiler) switchStmt(s *ast.Switch) stmtFn {
	disc := c.expr(s.Disc)
	enter := c.enterScope(s.Scope)
	type kase struct {
		test exprFn
		body stmtFn
	}
	cases := make([]kase, len(s.Cases))
	dflt := -1
	for i, cs := range s.Cases {
		if cs.Test == nil {
			dflt = i
		} else {
			cases[i].test = c.expr(cs.Test)
		}
		cases[i].body = c.stmts(cs.Body)
	}
	return func(f *frame) ctl {
		d := disc(f)
		if enter != nil {
			enter(f)
		}
		start := -1
		for i, cs := range cases {
			if cs.test != nil && f.run.realm.StrictEquals(d, cs.test(f)) {
				start = i
				break
			}
		}
		if start < 0 {
			start = dflt
		}
		if start < 0 {
			return ctlNormal
		}
		for _, cs := range cases[start:] {
			r := cs.body(f)
			if r == ctlBreak && f.label == "" {
				return ctlNormal
			}
			if r != ctlNormal {
				return r
			}
		}
		return ctlNormal
	}
}

// tryStmt compiles try/catch/finally. The finally block runs after a
// normal or abrupt completion and after a throw; an abrupt completion of
// the finally block itself replaces whatever was pending.
func (c *compiler) tryStmt(s *ast.Try) stmtFn {
	block := c.block(s.Block)
	var handler stmtFn
	var bindParam func(f *frame, v value.Value)
	var enterCatch func(f *frame)
	if s.Handler != nil {
		handler = c.block(s.Handler)
		enterCatch = c.enterScope(s.CatchScope)
		if s.Param != nil {
			bindParam = c.bindTarget(s.Param, true)
		}
	}
	var final stmtFn
	if s.Finalizer != nil {
		final = c.block(s.Finalizer)
	}
	return func(f *frame) ctl {
		r, p := runGuarded(f, block)
		if exc, ok := p.(*value.Exception); ok && handler != nil {
			r, p = runGuarded(f, func(f *frame) ctl {
				if enterCatch != nil {
					enterCatch(f)
				}
				if bindParam != nil {
					bindParam(f, exc.Value)
				}
				return handler(f)
			})
		}
		if final != nil {
			if _, catchable := p.(*value.Exception); p == nil || catchable || isGenReturn(p) {
				ret, label := f.ret, f.label
				fr := final(f)
				if fr != ctlNormal {
					return fr // overrides the pending completion or throw
				}
				f.ret, f.label = ret, label
			}
		}
		if p != nil {
			panic(p)
		}
		return r
	}
}

// runGuarded runs s, returning a recovered panic instead of unwinding.
func runGuarded(f *frame, s stmtFn) (r ctl, p any) {
	rl := f.run.realm
	depth, goDepth, height := rl.Depth, rl.GoDepth, len(rl.ArgStack)
	defer func() {
		if rec := recover(); rec != nil {
			rl.Depth, rl.GoDepth = depth, goDepth
			clear(rl.ArgStack[height:])
			rl.ArgStack = rl.ArgStack[:height]
			r, p = ctlNormal, rec
		}
	}()
	return s(f), nil
}

// importStmt binds what the host provides under a module name: the
// default and namespace imports are the module object, named imports its
// properties.
func (c *compiler) importStmt(s *ast.Import) stmtFn {
	name := s.Module.Value
	pos := s.Start
	var whole []func(f *frame, v value.Value)
	for _, id := range []*ast.Ident{s.Default, s.Namespace} {
		if id != nil {
			whole = append(whole, c.store(id.Binding, id.Start, true))
		}
	}
	type named struct {
		key   string
		store func(f *frame, v value.Value)
	}
	var names []named
	for _, sp := range s.Specs {
		names = append(names, named{sp.Imported.Name, c.store(sp.Local.Binding, sp.Local.Start, true)})
	}
	return func(f *frame) ctl {
		f.run.pos = int(pos)
		mod := f.run.module(name)
		for _, st := range whole {
			st(f, mod)
		}
		for _, n := range names {
			v := f.run.realm.Get(mod, n.key)
			if n.key == "default" {
				v = mod
			}
			n.store(f, v)
		}
		return ctlNormal
	}
}

// module resolves a module name through the host.
func (run *Run) module(name string) value.Value { return engine.Module(run.realm, run.host, name) }

// unsupported compiles a construct codemode parses but does not run: it
// throws a catchable SyntaxError whose uncaught diagnostic is
// UnsupportedSyntax.
func (c *compiler) unsupported(what string, pos ast.Pos) stmtFn {
	return func(f *frame) ctl {
		f.run.pos = int(pos)
		f.run.realm.ThrowKind("UnsupportedSyntax", value.SyntaxError, "%s", engine.UnsupportedMessage(what))
		return ctlNormal
	}
}
