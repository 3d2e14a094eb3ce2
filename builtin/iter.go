package builtin

import (
	"github.com/go-codemode/codemode/value"
)

// The iterator and generator prototypes. Iterator.prototype's helpers
// (map, filter, take, ...) are added by the collections package.

func installIterators(l *value.Library) {
	l.Intrinsic(value.IteratorPrototype, value.IntrinsicSpec{Name: "Iterator.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			r.Methods(o, []*value.Native{iteratorSelf})
		}})
	l.Intrinsic(value.AsyncIteratorPrototype, value.IntrinsicSpec{Name: "AsyncIterator.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			r.Methods(o, []*value.Native{asyncIteratorSelf})
		}})
	l.Intrinsic(value.ArrayIteratorPrototype, value.IntrinsicSpec{Name: "%ArrayIteratorPrototype%", Proto: value.IteratorPrototype,
		Init: func(r *value.Realm, o *value.Object) {
			r.Method(o, "next", value.ArrayIteratorNext)
			o.Define(value.SymToStringTag.Key(), value.StrOf("Array Iterator"), value.Configurable)
		}})
	l.Intrinsic(value.StringIteratorPrototype, value.IntrinsicSpec{Name: "%StringIteratorPrototype%", Proto: value.IteratorPrototype,
		Init: func(r *value.Realm, o *value.Object) {
			r.Method(o, "next", value.StringIteratorNext)
			o.Define(value.SymToStringTag.Key(), value.StrOf("String Iterator"), value.Configurable)
		}})
	l.Intrinsic(value.GeneratorPrototype, value.IntrinsicSpec{Name: "%GeneratorPrototype%", Proto: value.IteratorPrototype,
		Init: func(r *value.Realm, o *value.Object) {
			r.Methods(o, generatorProto)
			o.Define(value.SymToStringTag.Key(), value.StrOf("Generator"), value.Configurable)
		}})
	l.Intrinsic(value.AsyncGeneratorPrototype, value.IntrinsicSpec{Name: "%AsyncGeneratorPrototype%", Proto: value.AsyncIteratorPrototype,
		Init: func(r *value.Realm, o *value.Object) {
			r.Methods(o, asyncGeneratorProto)
			o.Define(value.SymToStringTag.Key(), value.StrOf("AsyncGenerator"), value.Configurable)
		}})
	l.Register(iteratorSelf, asyncIteratorSelf)
	l.Register(generatorProto...)
	l.Register(asyncGeneratorProto...)
}

var iteratorSelf = Native("Iterator.prototype[Symbol.iterator]", 0, func(r *value.Realm, c *value.Call) value.Value {
	return c.This
})

var asyncIteratorSelf = Native("AsyncIterator.prototype[Symbol.asyncIterator]", 0, func(r *value.Realm, c *value.Call) value.Value {
	return c.This
})

func thisGenerator(r *value.Realm, c *value.Call, method string) value.Generator {
	if o := c.This.AsObject(); o != nil {
		if g, ok := o.Internal.(value.Generator); ok && o.Class == value.ClassGenerator {
			return g
		}
	}
	r.ThrowType("%s method called on incompatible receiver %s", method, r.Describe(c.This))
	return nil
}

var generatorProto = []*value.Native{
	Native("%GeneratorPrototype%.next", 1, func(r *value.Realm, c *value.Call) value.Value {
		return thisGenerator(r, c, "next").Resume(r, value.ResumeNext, c.Arg(0))
	}),
	Native("%GeneratorPrototype%.return", 1, func(r *value.Realm, c *value.Call) value.Value {
		return thisGenerator(r, c, "return").Resume(r, value.ResumeReturn, c.Arg(0))
	}),
	Native("%GeneratorPrototype%.throw", 1, func(r *value.Realm, c *value.Call) value.Value {
		return thisGenerator(r, c, "throw").Resume(r, value.ResumeThrow, c.Arg(0))
	}),
}

func asyncGenStep(r *value.Realm, c *value.Call, mode value.ResumeMode, method string) value.Value {
	if o := c.This.AsObject(); o != nil {
		if g, ok := o.Internal.(value.AsyncGenerator); ok {
			return value.Obj(g.Enqueue(r, mode, c.Arg(0)))
		}
	}
	p := r.NewPromise()
	r.RejectPromise(p, value.Obj(r.RaisedError(value.TypeError, method+" method called on incompatible receiver "+r.Describe(c.This))))
	return value.Obj(p)
}

var asyncGeneratorProto = []*value.Native{
	Native("%AsyncGeneratorPrototype%.next", 1, func(r *value.Realm, c *value.Call) value.Value {
		return asyncGenStep(r, c, value.ResumeNext, "next")
	}),
	Native("%AsyncGeneratorPrototype%.return", 1, func(r *value.Realm, c *value.Call) value.Value {
		return asyncGenStep(r, c, value.ResumeReturn, "return")
	}),
	Native("%AsyncGeneratorPrototype%.throw", 1, func(r *value.Realm, c *value.Call) value.Value {
		return asyncGenStep(r, c, value.ResumeThrow, "throw")
	}),
}
