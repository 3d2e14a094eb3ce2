package jsops

import (
	"strconv"
	"strings"

	"github.com/go-codemode/codemode/value"
)

// BrandSep ends a private method's hidden key, before the class's brand,
// so that a failed lookup can name the class.
const BrandSep = "\x00"

// ReceiverBrand is the class a private method's hidden key belongs to.
func ReceiverBrand(key string) (string, bool) {
	if i := strings.Index(key, BrandSep); i >= 0 {
		return key[i+len(BrandSep):], true
	}
	return "", false
}

// PrivateGet reads o.#name, whose hidden key is key.
func PrivateGet(r *value.Realm, o value.Value, key, name string) value.Value {
	p := privateProperty(r, o, key, name, "read", "from")
	if p.IsAccessor() {
		if p.Get == nil {
			r.ThrowType("'#%s' was defined without a getter", name)
		}
		return r.CallObject(p.Get, o, nil)
	}
	return p.Value
}

// PrivateSet writes o.#name = v, whose hidden key is key.
func PrivateSet(r *value.Realm, o value.Value, key, name string, v value.Value) {
	p := privateProperty(r, o, key, name, "write", "to")
	if p.IsAccessor() {
		if p.Set == nil {
			r.ThrowType("'#%s' was defined without a setter", name)
		}
		r.CallObject(p.Set, o, []value.Value{v})
		return
	}
	if p.Flags&value.Writable == 0 {
		r.ThrowType("Private method '#%s' is not writable", name)
	}
	p.Value = v
}

// privateProperty is o's own property under a private name's hidden key,
// or the TypeError of an object whose class did not declare it.
func privateProperty(r *value.Realm, o value.Value, key, name, verb, prep string) *value.Property {
	var p *value.Property
	if oo := o.AsObject(); oo != nil {
		p = oo.GetOwn(key)
	}
	if p == nil {
		if brand, ok := ReceiverBrand(key); ok {
			r.ThrowType("Receiver must be an instance of class %s", brand)
		}
		r.ThrowType("Cannot %s private member #%s %s an object whose class did not declare it", verb, name, prep)
	}
	return p
}

// PrivateKey is the hidden property key of the private name #name in the
// class evaluation numbered id; a private method's key ends with its
// class's brand.
func PrivateKey(name string, id int, method bool, brand string) string {
	key := "\xfe#" + name + "@" + strconv.Itoa(id)
	if method {
		key += BrandSep + brand
	}
	return key
}
