package value

import (
	"strconv"
	"strings"
)

// Symbol is a symbol value. A symbol is its property key: a string no
// program string can equal (it starts with the byte 0xFF, which WTF-8
// never contains) that also spells the symbol's description, so that any
// key names its symbol without a table and a run's symbols are plain data
// (a snapshot of the run keeps them as the keys they are). Two *Symbol
// with the same key are the same symbol: compare keys, never pointers.
//
// The keys are, after the 0xFF byte:
//
//	Symbol.iterator         a well-known symbol, by its description
//	#<id>                   Symbol(): a symbol of the run, no description
//	#<id>:<description>     Symbol(description); id is unique in the run
//	@<description>          Symbol.for(description), the registry's
//
// The registry needs no state: Symbol.for(s) is the symbol whose key is
// "\xff@" + s, the same symbol each time in the run, and Symbol.keyFor
// reads the string back from the key.
type Symbol struct {
	// Description is the description (WTF-8), "" when there is none
	// (HasDescription tells Symbol("") from Symbol()).
	Description string
	// HasDescription is false for Symbol() (description is undefined).
	HasDescription bool
	key            string
}

// Key is the property key of the symbol.
func (s *Symbol) Key() string { return s.key }

// Registered reports a symbol of the Symbol.for registry.
func (s *Symbol) Registered() bool { return len(s.key) > 1 && s.key[1] == '@' }

// WellKnown reports one of the well-known symbols (Symbol.iterator...).
func (s *Symbol) WellKnown() bool { return wellKnownByKey[s.key] != nil }

// String is the symbol as String(sym) renders it, "Symbol(description)",
// as Go text for messages.
func (s *Symbol) String() string { return "Symbol(" + NewString(s.Description).String() + ")" }

// DescriptiveString is SymbolDescriptiveString(sym): String(sym) and
// sym.toString().
func (s *Symbol) DescriptiveString() *String { return NewString("Symbol(" + s.Description + ")") }

// DescriptionValue is sym.description: the description, or undefined.
func (s *Symbol) DescriptionValue() Value {
	if !s.HasDescription {
		return Undefined
	}
	return StrOf(s.Description)
}

func wellKnown(name string) *Symbol {
	d := "Symbol." + name
	return &Symbol{Description: d, HasDescription: true, key: "\xff" + d}
}

// The well-known symbols codemode has, each honoured where JavaScript
// looks it up: for...of and spread (iterator), for await (asyncIterator),
// Object.prototype.toString (toStringTag), instanceof (hasInstance),
// ToPrimitive (toPrimitive), Array.prototype.concat (isConcatSpreadable).
// The others (species, unscopables, match, replace, search, split,
// matchAll) are left out: nothing would look them up.
var (
	SymIterator           = wellKnown("iterator")
	SymAsyncIterator      = wellKnown("asyncIterator")
	SymToStringTag        = wellKnown("toStringTag")
	SymHasInstance        = wellKnown("hasInstance")
	SymToPrimitive        = wellKnown("toPrimitive")
	SymIsConcatSpreadable = wellKnown("isConcatSpreadable")
)

// WellKnownSymbols are the well-known symbols, in the order Symbol's
// properties list them.
var WellKnownSymbols = []*Symbol{SymIterator, SymAsyncIterator, SymToStringTag, SymHasInstance,
	SymToPrimitive, SymIsConcatSpreadable}

var wellKnownByKey = func() map[string]*Symbol {
	m := make(map[string]*Symbol, len(WellKnownSymbols))
	for _, s := range WellKnownSymbols {
		m[s.key] = s
	}
	return m
}()

// NewSymbol makes a new symbol of the run: Symbol(description), or
// Symbol() when desc is nil. Its key holds a number unique in the realm.
func (r *Realm) NewSymbol(desc *String) *Symbol {
	r.symbols++
	key := "\xff#" + strconv.FormatInt(r.symbols, 10)
	s := &Symbol{key: key}
	if desc != nil {
		s.Description, s.HasDescription = desc.Key(), true
		s.key += ":" + s.Description
	}
	r.Charge(objectBytes + len(s.key))
	return s
}

// SymbolFor is Symbol.for(desc): the registry's symbol for the string,
// the same one every time in the run. Each call makes the key anew, so
// each is charged as a new symbol.
func (r *Realm) SymbolFor(desc *String) *Symbol {
	d := desc.Key()
	s := &Symbol{Description: d, HasDescription: true, key: "\xff@" + d}
	r.Charge(objectBytes + len(s.key))
	return s
}

// Sym makes a symbol value.
func Sym(s *Symbol) Value { return Value{ref: s} }

// IsSymbol reports a symbol.
func (v Value) IsSymbol() bool { _, ok := v.ref.(*Symbol); return ok }

// AsSymbol returns the symbol of a symbol value, or nil.
func (v Value) AsSymbol() *Symbol { s, _ := v.ref.(*Symbol); return s }

// IsSymbolKey reports whether a property key names a symbol.
func IsSymbolKey(key string) bool { return len(key) > 0 && key[0] == 0xff }

// SymbolOfKey returns the symbol a symbol key names (a well-known
// symbol, one of the registry, or one a run made), or nil for a string
// key. The key alone says which symbol it is, so no realm is needed.
func SymbolOfKey(key string) *Symbol {
	if !IsSymbolKey(key) {
		return nil
	}
	if s := wellKnownByKey[key]; s != nil {
		return s
	}
	switch {
	case strings.HasPrefix(key, "\xff@"):
		return &Symbol{Description: key[2:], HasDescription: true, key: key}
	case strings.HasPrefix(key, "\xff#"):
		s := &Symbol{key: key}
		if i := strings.IndexByte(key, ':'); i >= 0 {
			s.Description, s.HasDescription = key[i+1:], true
		}
		return s
	}
	return nil
}

// WellKnownByDescription returns the well-known symbol described so
// ("Symbol.iterator"), or nil.
func WellKnownByDescription(desc string) *Symbol { return wellKnownByKey["\xff"+desc] }

// FunctionNameOfKey is the name a function defined under a property key
// gets (SetFunctionName): the key itself, or for a symbol its
// description in brackets ("" for a symbol without one).
func FunctionNameOfKey(key string) string {
	if s := SymbolOfKey(key); s != nil {
		if !s.HasDescription {
			return ""
		}
		return "[" + NewString(s.Description).String() + "]"
	}
	return NewString(key).String()
}
