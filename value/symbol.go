package value

// Symbol is a symbol value. Programs cannot make their own (Symbol() is
// not supported); the well-known symbols are the only ones, shared by
// every run because they are immutable.
type Symbol struct {
	Description string
	key         string
}

// Key is the property key of the symbol: a string no program string can
// equal, because WTF-8 never contains the byte 0xFF.
func (s *Symbol) Key() string { return s.key }

// The well-known symbols codemode supports.
var (
	SymIterator      = &Symbol{Description: "Symbol.iterator", key: "\xffSymbol.iterator"}
	SymAsyncIterator = &Symbol{Description: "Symbol.asyncIterator", key: "\xffSymbol.asyncIterator"}
	SymToStringTag   = &Symbol{Description: "Symbol.toStringTag", key: "\xffSymbol.toStringTag"}
	SymHasInstance   = &Symbol{Description: "Symbol.hasInstance", key: "\xffSymbol.hasInstance"}
)

// Sym makes a symbol value.
func Sym(s *Symbol) Value { return Value{ref: s} }

// IsSymbol reports a symbol.
func (v Value) IsSymbol() bool { _, ok := v.ref.(*Symbol); return ok }

// AsSymbol returns the symbol of a symbol value, or nil.
func (v Value) AsSymbol() *Symbol { s, _ := v.ref.(*Symbol); return s }

// IsSymbolKey reports whether a property key names a symbol.
func IsSymbolKey(key string) bool { return len(key) > 0 && key[0] == 0xff }

// SymbolOfKey returns the well-known symbol a symbol key names, or nil.
func SymbolOfKey(key string) *Symbol {
	for _, s := range []*Symbol{SymIterator, SymAsyncIterator, SymToStringTag, SymHasInstance} {
		if s.key == key {
			return s
		}
	}
	return nil
}
