package jsops

import (
	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/value"
)

// FieldInit is one thing a class installs on each new instance (or, for
// static members, on the class): a private method or accessor, or a
// field with its initializer.
type FieldInit struct {
	Key      string
	Private  bool
	Init     *value.Object // the initializer as a method, or nil
	Method   value.Value   // a private method to install
	Get, Set *value.Object // a private accessor's halves
	Kind     ast.MemberKind
	Name     string // the private name, for errors
}

// DefineField creates a field on an instance (or the class, for static
// fields).
func DefineField(r *value.Realm, o *value.Object, fi FieldInit, v value.Value) {
	if fi.Private {
		if o.GetOwn(fi.Key) != nil {
			r.ThrowType("Cannot initialize #%s twice on the same object", fi.Name)
		}
		o.Define(fi.Key, v, value.Writable)
		return
	}
	if !r.DefineProperty(o, value.Property{Key: fi.Key, Value: v, Flags: value.DefaultFlags}) {
		r.ThrowType("Cannot define property %s, object is not extensible", value.KeyString(fi.Key))
	}
}

// InitFields installs a class's private methods and accessors, then its
// instance fields in order, on a newly constructed object.
func InitFields(r *value.Realm, fields []FieldInit, o *value.Object) {
	for _, fi := range fields {
		switch fi.Kind {
		case ast.MemberMethod:
			if o.GetOwn(fi.Key) != nil {
				r.ThrowType("Cannot initialize private methods of class twice on the same object")
			}
			o.Define(fi.Key, fi.Method, 0)
		case ast.MemberGetter, ast.MemberSetter:
			cur := o.GetOwn(fi.Key)
			get, set := fi.Get, fi.Set
			if cur != nil && cur.IsAccessor() {
				if get == nil {
					get = cur.Get
				}
				if set == nil {
					set = cur.Set
				}
			}
			o.DefineAccessor(fi.Key, get, set, 0)
		}
	}
	for _, fi := range fields {
		if fi.Kind != ast.MemberField {
			continue
		}
		v := value.Undefined
		if fi.Init != nil {
			v = r.CallObject(fi.Init, value.Obj(o), nil)
		}
		DefineField(r, o, fi, v)
	}
}

// InitStatics runs a class's static fields and static blocks in order,
// with the class as this.
func InitStatics(r *value.Realm, statics []FieldInit, ctor *value.Object) {
	for _, s := range statics {
		if s.Kind == ast.MemberStaticBlock {
			r.CallObject(s.Init, value.Obj(ctor), nil)
			continue
		}
		v := value.Undefined
		if s.Init != nil {
			v = r.CallObject(s.Init, value.Obj(ctor), nil)
		}
		DefineField(r, ctor, s, v)
	}
}

// ClassHeritage is what `class extends parent` inherits: the prototype's
// parent and the constructor's, or the TypeError of a parent that is
// neither null nor a constructor with a valid prototype.
func ClassHeritage(r *value.Realm, parent value.Value) (protoParent, ctorParent *value.Object) {
	switch {
	case parent.IsNull():
		return nil, r.Intrinsic(value.FunctionPrototype)
	case value.IsConstructor(parent):
		pp := r.Get(parent, "prototype")
		switch {
		case pp.IsNull():
			protoParent = nil
		case pp.IsObject():
			protoParent = pp.AsObject()
		default:
			r.ThrowType("Class extends value does not have valid prototype property %s", r.Describe(pp))
		}
		return protoParent, parent.AsObject()
	}
	r.ThrowType("Class extends value %s is not a constructor or null", r.Describe(parent))
	return nil, nil
}
