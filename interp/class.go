package interp

import (
	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/internal/jsops"
	"github.com/go-codemode/codemode/value"
)

// classCode is a compiled class.
type classCode struct {
	names   map[string]bool // private names the class declares
	derived bool
	// brand is what V8 calls the class in "Receiver must be an instance of
	// class X": its own name, or "anonymous".
	brand string
	// methods holds the private names that are methods or accessors.
	methods map[string]bool
}

// classRuntime is one evaluation of a class: its instance fields and
// private methods, which every construction installs.
type classRuntime struct {
	derived bool
	fields  []jsops.FieldInit
}

// privScope maps a class's private names to the hidden keys of one
// evaluation of the class.
type privScope struct {
	parent *privScope
	keys   map[string]string
}

// privateKey compiles the lookup of a private name's hidden key.
func (c *compiler) privateKey(pn *ast.PrivateName) func(f *frame) string {
	depth := 0
	found := false
	for i := len(c.classes) - 1; i >= 0; i-- {
		if c.classes[i].names[pn.Name] {
			found = true
			break
		}
		depth++
	}
	if !found {
		panic("interp: undeclared private name #" + pn.Name)
	}
	name := pn.Name
	return func(f *frame) string {
		var s *privScope
		if f.fn != nil {
			s = f.fn.priv
		}
		for i := 0; i < depth && s != nil; i++ {
			s = s.parent
		}
		if s == nil {
			return "\xfe#" + name
		}
		return s.keys[name]
	}
}

// class compiles a class definition; the function returns the class
// constructor.
func (c *compiler) class(cls *ast.Class, name string) exprFn {
	cc := &classCode{names: map[string]bool{}, derived: cls.Extends != nil, brand: "anonymous", methods: map[string]bool{}}
	if cls.Name != nil {
		cc.brand = cls.Name.Name
	}
	for _, m := range cls.Members {
		if pn, ok := m.Key.(*ast.PrivateName); ok {
			cc.names[pn.Name] = true
			if m.Kind != ast.MemberField {
				cc.methods[pn.Name] = true
			}
		}
	}
	var extends exprFn
	if cls.Extends != nil {
		extends = c.expr(cls.Extends)
	}
	type member struct {
		m        *ast.ClassMember
		key      string
		computed exprFn
		private  string
		mk       func(f *frame, home *value.Object, name string) value.Value
	}
	members := make([]member, len(cls.Members))
	var ctorCode *funcCode
	// Computed keys are evaluated in the class's private scope (the
	// heritage is not): `[this.#f]` names the class's own #f.
	c.classes = append(c.classes, cc)
	for i, m := range cls.Members {
		mb := member{m: m}
		switch k := m.Key.(type) {
		case *ast.PrivateName:
			mb.private = k.Name
		default:
			if m.Computed {
				mb.computed = c.expr(m.Key)
			} else if m.Kind != ast.MemberStaticBlock && m.Key != nil {
				mb.key = staticKey(m.Key)
			}
		}
		members[i] = mb
	}
	for i, m := range cls.Members {
		if m.Kind == ast.MemberConstructor {
			ctorCode = c.function(m.Value, cc)
			continue
		}
		if m.Value != nil {
			members[i].mk = c.methodMaker(m.Value)
		}
	}
	c.classes = c.classes[:len(c.classes)-1]
	var inner func(f *frame, v value.Value)
	var innerFresh func(f *frame)
	if cls.Inner != nil {
		// The inner name is uninitialized while the heritage and the
		// computed keys are evaluated: `class C extends C {}` reads it
		// too early.
		inner = c.store(cls.Inner, cls.Start, true)
		idx := cls.Inner.Index
		switch cls.Inner.Storage {
		case ast.Cell:
			innerFresh = func(f *frame) { f.cells[idx] = &cell{v: value.Hole} }
		case ast.Local:
			innerFresh = func(f *frame) { f.locals[idx] = value.Hole }
		}
	}
	pos := cls.Start
	return func(f *frame) value.Value {
		r := f.run.realm
		if innerFresh != nil {
			innerFresh(f)
		}
		protoParent := r.Intrinsic(value.ObjectPrototype)
		ctorParent := r.Intrinsic(value.FunctionPrototype)
		if extends != nil {
			parent := extends(f)
			f.run.pos = int(pos)
			protoParent, ctorParent = jsops.ClassHeritage(r, parent)
		}
		proto := value.NewObject(protoParent)
		// The private scope of this evaluation.
		ps := &privScope{keys: map[string]string{}}
		if f.fn != nil {
			ps.parent = f.fn.priv
		}
		f.run.privIDs++
		for n := range cc.names {
			ps.keys[n] = jsops.PrivateKey(n, f.run.privIDs, cc.methods[n], cc.brand)
		}
		rt := &classRuntime{derived: cc.derived}
		cl := &closure{code: ctorCode, home: proto, priv: ps, class: rt}
		if ctorCode != nil {
			cl.free = captureFree(ctorCode, f)
		}
		ctor := value.NewFunctionObject(ctorParent, cl)
		length := 0
		if ctorCode != nil {
			length = ctorCode.length
		}
		ctor.Define("length", value.Number(float64(length)), value.Configurable)
		ctor.Define("name", value.StrOf(name), value.Configurable)
		ctor.Define("prototype", value.Obj(proto), 0)
		proto.Define("constructor", value.Obj(ctor), value.Writable|value.Configurable)
		r.Charge(256)

		// Methods run with the class's private scope: make them in a
		// frame view whose closure carries it.
		mf := *f
		mfn := closure{priv: ps}
		if f.fn != nil {
			mfn = *f.fn
			mfn.priv = ps
		}
		mf.fn = &mfn

		var statics []jsops.FieldInit
		for _, mb := range members {
			m := mb.m
			if m.Kind == ast.MemberConstructor {
				continue
			}
			target := proto
			if m.Static {
				target = ctor
			}
			key := mb.key
			if mb.computed != nil {
				key = r.ToPropertyKey(evalWithPriv(f, mf.fn, mb.computed))
			}
			if mb.private != "" {
				key = ps.keys[mb.private]
			}
			if m.Static && key == "prototype" && m.Kind != ast.MemberField {
				// The constructor's prototype is not configurable: a
				// static method or accessor cannot replace it (a literal
				// name is an early error, a computed one fails here).
				f.run.pos = int(m.Start)
				r.ThrowType("Classes may not have a static property named 'prototype'")
			}
			display := keyName(key)
			if mb.private != "" {
				display = "#" + mb.private
			}
			switch m.Kind {
			case ast.MemberMethod:
				fn := mb.mk(&mf, target, display)
				if mb.private != "" {
					fi := jsops.FieldInit{Key: key, Private: true, Method: fn, Kind: m.Kind, Name: mb.private}
					if m.Static {
						target.Define(key, fn, 0)
					} else {
						rt.fields = append(rt.fields, fi)
					}
					continue
				}
				target.Define(key, fn, value.Writable|value.Configurable)
			case ast.MemberGetter, ast.MemberSetter:
				prefix := "get "
				if m.Kind == ast.MemberSetter {
					prefix = "set "
				}
				fn := mb.mk(&mf, target, prefix+display).AsObject()
				if mb.private != "" && !m.Static {
					fi := jsops.FieldInit{Key: key, Private: true, Kind: m.Kind, Name: mb.private}
					if m.Kind == ast.MemberGetter {
						fi.Get = fn
					} else {
						fi.Set = fn
					}
					rt.fields = append(rt.fields, fi)
					continue
				}
				var get, set *value.Object
				if cur := target.GetOwn(key); cur != nil && cur.IsAccessor() {
					get, set = cur.Get, cur.Set
				}
				if m.Kind == ast.MemberGetter {
					get = fn
				} else {
					set = fn
				}
				target.DefineAccessor(key, get, set, value.Configurable)
			case ast.MemberField:
				fi := jsops.FieldInit{Key: key, Private: mb.private != "", Kind: m.Kind, Name: mb.private}
				if mb.mk != nil {
					fi.Init = mb.mk(&mf, target, display).AsObject()
				}
				if m.Static {
					statics = append(statics, fi)
				} else {
					rt.fields = append(rt.fields, fi)
				}
			case ast.MemberStaticBlock:
				fi := jsops.FieldInit{Kind: m.Kind, Init: mb.mk(&mf, ctor, "").AsObject()}
				statics = append(statics, fi)
			}
		}
		if inner != nil {
			inner(f, value.Obj(ctor))
		}
		jsops.InitStatics(r, statics, ctor)
		return value.Obj(ctor)
	}
}

// evalWithPriv evaluates a computed key in frame f running as fn (the
// frame's own closure with the class's private scope), so that the key can
// use the class's private names and still assign the frame's this (super()
// in a key) and locals.
func evalWithPriv(f *frame, fn *closure, e exprFn) value.Value {
	saved := f.fn
	f.fn = fn
	defer func() { f.fn = saved }()
	return e(f)
}

// initFields installs a class's private methods and instance fields on
// a newly constructed object.
func (run *Run) initFields(cl *closure, o *value.Object) {
	if cl == nil || cl.class == nil || o == nil {
		return
	}
	jsops.InitFields(run.realm, cl.class.fields, o)
}
