package vm

// Classes at run time, with engine "ast"'s semantics (interp/class.go):
// a class evaluation makes the constructor and prototype (CLASS),
// defines each member in order (CLASSMEMBER), then binds its name and
// runs the static fields and blocks (CLASSINIT). Instance fields and
// private methods are kept on the constructor's closure and installed
// on each new object (initFields). Private names are hidden property
// keys, unique to one evaluation of the class.

import (
	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/internal/jsops"
	"github.com/go-codemode/codemode/value"
)

// privScope maps a class's private names to the hidden keys of one
// evaluation of the class.
type privScope struct {
	parent *privScope
	names  []string
	keys   []string
}

// key is the hidden key of a private name declared depth classes out.
func (ps *privScope) key(name string, depth int) string {
	s := ps
	for i := 0; i < depth && s != nil; i++ {
		s = s.parent
	}
	if s != nil {
		for i, n := range s.names {
			if n == name {
				return s.keys[i]
			}
		}
	}
	return "\xfe#" + name
}

// classRuntime is one evaluation of a class: its instance fields and
// private methods, which every construction installs.
type classRuntime struct {
	derived bool
	fields  []jsops.FieldInit
	statics []jsops.FieldInit // until CLASSINIT runs them
}

// classEval is CLASS: the constructor and prototype of classes[k], with
// the class's private scope entered in fr.
func (run *Run) classEval(k int, fr *frame, parent value.Value) (*value.Object, *value.Object) {
	r := run.realm
	info := &run.prog.Classes[k]
	protoParent := r.Intrinsic(value.ObjectPrototype)
	ctorParent := r.Intrinsic(value.FunctionPrototype)
	if info.Derived {
		protoParent, ctorParent = jsops.ClassHeritage(r, parent)
	}
	proto := value.NewObject(protoParent)
	ps := &privScope{parent: fr.priv, names: info.Private}
	run.privIDs++
	for i, n := range info.Private {
		ps.keys = append(ps.keys, jsops.PrivateKey(n, run.privIDs, info.PrivMethod[i], info.Brand))
	}
	rt := &classRuntime{derived: info.Derived}
	cl := &closure{home: proto, priv: ps, class: rt}
	length := 0
	if info.Ctor >= 0 {
		cl.fc = run.prog.Funcs[info.Ctor]
		cl.free = captureFree(cl.fc, fr)
		length = cl.fc.Length
	}
	ctor := value.NewFunctionObject(ctorParent, cl)
	ctor.Define("length", value.Number(float64(length)), value.Configurable)
	ctor.Define("name", value.StrOf(info.Name), value.Configurable)
	ctor.Define("prototype", value.Obj(proto), 0)
	proto.Define("constructor", value.Obj(ctor), value.Writable|value.Configurable)
	r.Charge(256)
	fr.priv = ps
	return ctor, proto
}

// classMember is CLASSMEMBER: member i of classes[k], whose function (a
// method, accessor, field initializer or static block) is fn.
func (run *Run) classMember(k, i int, fr *frame, ctor, proto *value.Object, keyv value.Value, fnv value.Value) {
	r := run.realm
	m := &run.prog.Classes[k].Members[i]
	rt := ctor.Internal.(*closure).class
	target := proto
	if m.Static {
		target = ctor
	}
	key := m.Key
	if m.Computed {
		key = r.ToPropertyKey(keyv)
	}
	private := ""
	if m.Private > 0 {
		private = run.prog.Classes[k].Private[m.Private-1]
		key = fr.priv.keys[m.Private-1]
	}
	kind := ast.MemberKind(m.Kind)
	if m.Static && key == "prototype" && kind != ast.MemberField {
		r.ThrowType("Classes may not have a static property named 'prototype'")
	}
	display := value.FunctionNameOfKey(key)
	if private != "" {
		display = "#" + private
	}
	fn := fnv.AsObject()
	name := func(prefix string) {
		fn.Internal.(*closure).home = target
		fn.Define("name", value.StrOf(prefix+display), value.Configurable)
	}
	switch kind {
	case ast.MemberMethod:
		name("")
		if private != "" {
			if m.Static {
				target.Define(key, fnv, 0)
			} else {
				rt.fields = append(rt.fields, jsops.FieldInit{Key: key, Private: true, Method: fnv, Kind: kind, Name: private})
			}
			return
		}
		target.Define(key, fnv, value.Writable|value.Configurable)
	case ast.MemberGetter, ast.MemberSetter:
		prefix := "get "
		if kind == ast.MemberSetter {
			prefix = "set "
		}
		name(prefix)
		if private != "" && !m.Static {
			fi := jsops.FieldInit{Key: key, Private: true, Kind: kind, Name: private}
			if kind == ast.MemberGetter {
				fi.Get = fn
			} else {
				fi.Set = fn
			}
			rt.fields = append(rt.fields, fi)
			return
		}
		var get, set *value.Object
		if cur := target.GetOwn(key); cur != nil && cur.IsAccessor() {
			get, set = cur.Get, cur.Set
		}
		if kind == ast.MemberGetter {
			get = fn
		} else {
			set = fn
		}
		target.DefineAccessor(key, get, set, value.Configurable)
	case ast.MemberField:
		fi := jsops.FieldInit{Key: key, Private: private != "", Kind: kind, Name: private}
		if fn != nil {
			name("")
			fi.Init = fn
		}
		if m.Static {
			rt.statics = append(rt.statics, fi)
		} else {
			rt.fields = append(rt.fields, fi)
		}
	case ast.MemberStaticBlock:
		fn.Internal.(*closure).home = ctor
		fn.Define("name", value.StrOf(""), value.Configurable)
		rt.statics = append(rt.statics, jsops.FieldInit{Kind: kind, Init: fn})
	}
}

// classInit is CLASSINIT: the static fields and blocks, in order, once
// the class's name is bound; the private scope is left first.
func (run *Run) classInit(fr *frame, ctor *value.Object) {
	r := run.realm
	if fr.priv != nil {
		fr.priv = fr.priv.parent
	}
	rt := ctor.Internal.(*closure).class
	statics := rt.statics
	rt.statics = nil
	jsops.InitStatics(r, statics, ctor)
}

// initFields installs a class's private methods and instance fields on
// a newly constructed object.
func (run *Run) initFields(cl *closure, o *value.Object) {
	if cl == nil || cl.class == nil || o == nil {
		return
	}
	jsops.InitFields(run.realm, cl.class.fields, o)
}

// construct is new F(...args) for a program function or class, from a
// built-in or for a class (whose construction runs fields first).
func (run *Run) construct(cl *closure, fobj *value.Object, args []value.Value, newTarget *value.Object) value.Value {
	r := run.realm
	if !cl.IsConstructor() {
		r.ThrowType("%s is not a constructor", r.FunctionName(fobj))
	}
	if newTarget == nil {
		newTarget = fobj
	}
	if cl.class != nil && cl.class.derived {
		if cl.fc == nil {
			// The implicit constructor(...args) { super(...args); }
			parent := fobj.Proto
			if !value.IsConstructor(value.Obj(parent)) {
				r.ThrowType("Super constructor %s of anonymous class is not a constructor", r.Describe(value.Obj(parent)))
			}
			res := r.Construct(value.Obj(parent), args, newTarget)
			run.initFields(cl, res.AsObject())
			return res
		}
		return run.derivedResult(run.constructClosure(cl, fobj, value.Hole, args, newTarget))
	}
	obj := run.newThis(newTarget)
	if cl.class != nil {
		run.initFields(cl, obj)
		if cl.fc == nil {
			return value.Obj(obj)
		}
	}
	res := run.constructClosure(cl, fobj, value.Obj(obj), args, newTarget)
	if res.IsObject() {
		return res
	}
	return value.Obj(obj)
}

// derivedThis is the this binding of a derived constructor's frame.
func derivedThis(fr *frame) value.Value {
	if t := fr.fc.This; t > 0 {
		if fr.fc.ThisCell {
			return fr.cells[t-1].v
		}
		return fr.seg[fr.bp+t-1]
	}
	return value.Hole
}

// derivedResult is what new gives for a derived constructor that
// returned v: an object, or its this, which super() must have bound. It
// is checked in the caller, as on engine "ast".
func (run *Run) derivedResult(v value.Value) value.Value {
	r := run.realm
	this := run.derivedThis
	run.derivedThis = value.Undefined
	if v.IsObject() {
		return v
	}
	if !v.IsUndefined() {
		r.ThrowType("Derived constructors may only return object or undefined")
	}
	if this.IsHole() {
		r.ThrowError(value.ReferenceError, "Must call super constructor in derived class before accessing 'this' or returning from derived constructor")
	}
	return this
}

// ctorOf is the constructor super() in fr belongs to: the frame's own
// function, or an arrow's enclosing one.
func (fr *frame) ctorOf() (*value.Object, *closure) {
	if ast.FuncKind(fr.fc.Kind) == ast.FuncArrow {
		return fr.cl.outerFobj, fr.cl.outerCl
	}
	return fr.fobj, fr.cl
}

// superCall is super(...args).
func (run *Run) superCall(fr *frame, args []value.Value) value.Value {
	r := run.realm
	fobj, _ := fr.ctorOf()
	var parent *value.Object
	if fobj != nil {
		parent = fobj.Proto
	}
	if parent == nil || !value.IsConstructor(value.Obj(parent)) {
		r.ThrowType("Super constructor %s of anonymous class is not a constructor", r.Describe(value.Obj(parent)))
	}
	return r.Construct(value.Obj(parent), args, fr.newTarget)
}

// superBase is the object a super property reference reads or writes:
// the home object's prototype, which must not be null.
func superBase(r *value.Realm, fr *frame, k value.Value, verb, doing string) *value.Object {
	home := fr.cl.home
	if home == nil || home.Proto == nil {
		jsops.ThrowNullishBase(r, value.Null, k, verb, doing)
	}
	return home.Proto
}

// captureFree collects the cells a function made in frame fr captures.
func captureFree(fc *Funcode, fr *frame) []*cell {
	if len(fc.Free) == 0 {
		return nil
	}
	free := make([]*cell, len(fc.Free))
	for i, fv := range fc.Free {
		if fv.FromFree {
			free[i] = fr.cl.free[fv.Index]
		} else {
			free[i] = fr.cells[fv.Index]
		}
	}
	return free
}
