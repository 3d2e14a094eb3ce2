package value

// NewArguments makes an unmapped arguments object: an ordinary object of
// ClassArguments with the arguments as elements "0".."n-1", its own length
// (writable, not enumerable, configurable: writing an element past it does
// not change it) and Symbol.iterator set to values, the prototype of
// which is Object.prototype. It is built in one step, as it is made on every
// call of a function that mentions arguments.
func (r *Realm) NewArguments(args []Value, values Value) *Object {
	r.Charge(objectBytes + propertyBytes*(len(args)+2))
	o := &Object{Proto: r.Intrinsic(ObjectPrototype), Class: ClassArguments}
	n := len(args)
	props := make([]Property, n+2)
	for i, a := range args {
		p := &props[i]
		p.Key, p.Value, p.Flags = itoa(i), a, DefaultFlags
	}
	props[n].Key, props[n].Value, props[n].Flags = "length", Number(float64(n)), Writable|Configurable
	props[n+1].Key, props[n+1].Value, props[n+1].Flags = SymIterator.key, values, Writable|Configurable
	o.props = props
	o.hasIndex = len(args) > 0
	if len(o.props) > indexMin {
		o.buildIndex()
	}
	return o
}
