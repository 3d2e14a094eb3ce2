package value

import "testing"

// TestSymbols: a symbol is its key, which names it without a table, so a
// run's symbols are plain data; Symbol() is unique per call in its run,
// Symbol.for the same symbol every time.
func TestSymbols(t *testing.T) {
	r := NewRealm(NewLibrary(), nil)
	a, b := r.NewSymbol(NewString("x")), r.NewSymbol(NewString("x"))
	none, empty := r.NewSymbol(nil), r.NewSymbol(Empty)
	wide := r.NewSymbol(FromUTF16([]uint16{0xD800, 'a'})) // a lone surrogate survives
	reg := r.SymbolFor(NewString("app"))

	tests := []struct {
		name                 string
		s                    *Symbol
		desc                 Value
		str, fnName          string
		registered, wellKnow bool
	}{
		{"described", a, StrOf("x"), "Symbol(x)", "[x]", false, false},
		{"no description", none, Undefined, "Symbol()", "", false, false},
		{"empty description", empty, StrOf(""), "Symbol()", "[]", false, false},
		{"registered", reg, StrOf("app"), "Symbol(app)", "[app]", true, false},
		{"well-known", SymToPrimitive, StrOf("Symbol.toPrimitive"), "Symbol(Symbol.toPrimitive)", "[Symbol.toPrimitive]", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			back := SymbolOfKey(tt.s.Key())
			if back == nil || !StrictEquals(Sym(back), Sym(tt.s)) || back.HasDescription != tt.s.HasDescription || back.Description != tt.s.Description {
				t.Fatalf("SymbolOfKey(%q) = %+v, want %+v", tt.s.Key(), back, tt.s)
			}
			if got := tt.s.DescriptionValue(); !SameValue(got, tt.desc) {
				t.Errorf("description = %v, want %v", got, tt.desc)
			}
			if got := tt.s.DescriptiveString().String(); got != tt.str {
				t.Errorf("DescriptiveString = %q, want %q", got, tt.str)
			}
			if got := FunctionNameOfKey(tt.s.Key()); got != tt.fnName {
				t.Errorf("FunctionNameOfKey = %q, want %q", got, tt.fnName)
			}
			if tt.s.Registered() != tt.registered || tt.s.WellKnown() != tt.wellKnow {
				t.Errorf("Registered, WellKnown = %v, %v", tt.s.Registered(), tt.s.WellKnown())
			}
			if !IsSymbolKey(tt.s.Key()) {
				t.Errorf("IsSymbolKey(%q) = false", tt.s.Key())
			}
		})
	}
	if StrictEquals(Sym(a), Sym(b)) || a.Key() == b.Key() {
		t.Errorf("two Symbol(\"x\") are one symbol: keys %q, %q", a.Key(), b.Key())
	}
	if !StrictEquals(Sym(reg), Sym(r.SymbolFor(NewString("app")))) {
		t.Errorf("Symbol.for(\"app\") twice gives two symbols")
	}
	if got := SymbolOfKey(wide.Key()); got == nil || NewString(got.Description).Len() != 2 || NewString(got.Description).At(0) != 0xD800 {
		t.Errorf("a lone surrogate in a description did not survive the key: %+v", got)
	}
	if SymbolOfKey("plain") != nil || SymbolOfKey("\xfe#1") != nil {
		t.Errorf("SymbolOfKey named a symbol for a string or private key")
	}
	// Another run numbers its symbols from 1 again: symbols are the run's,
	// never shared state.
	r2 := NewRealm(NewLibrary(), nil)
	if first := r2.NewSymbol(NewString("x")); first.Key() != a.Key() {
		t.Errorf("a new realm's first symbol has key %q, want %q", first.Key(), a.Key())
	}
	m := NewOrderedMap()
	m.Set(Sym(a), Number(1))
	m.Set(Sym(b), Number(2))
	if v, _ := m.Get(Sym(SymbolOfKey(a.Key()))); m.Len() != 2 || v.Num() != 1 {
		t.Errorf("Map keyed by symbols: len %d, a → %v", m.Len(), v)
	}
}

// TestWrappers: wrapper objects hold their primitive, the thisXValue
// checks accept the primitive or its wrapper only, and a String object's
// characters are read-only own properties listed first.
func TestWrappers(t *testing.T) {
	r := NewRealm(NewLibrary(), nil)
	proto := NewObject(nil)
	sym := r.NewSymbol(NewString("s"))
	tests := []struct {
		name  string
		prim  Value
		class Class
	}{
		{"string", StrOf("ab"), ClassString},
		{"number", Number(1.5), ClassNumber},
		{"boolean", False, ClassBoolean},
		{"symbol", Sym(sym), ClassSymbol},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := r.NewWrapper(tt.prim, proto)
			if o.Class != tt.class || o.Proto != proto {
				t.Fatalf("class %d proto %p, want %d %p", o.Class, o.Proto, tt.class, proto)
			}
			p, ok := o.PrimitiveValue()
			if !ok || !SameValue(p, tt.prim) {
				t.Errorf("PrimitiveValue = %v, %v", p, ok)
			}
			for _, k := range []Kind{KindString, KindNumber, KindBoolean, KindSymbol} {
				v, ok := ThisPrimitive(Obj(o), k)
				if want := k == tt.prim.Kind(); ok != want || ok && !SameValue(v, tt.prim) {
					t.Errorf("ThisPrimitive(wrapper, %v) = %v, %v", k, v, ok)
				}
			}
			if v, ok := ThisPrimitive(tt.prim, tt.prim.Kind()); !ok || !SameValue(v, tt.prim) {
				t.Errorf("ThisPrimitive(primitive) = %v, %v", v, ok)
			}
		})
	}
	if _, ok := ThisPrimitive(Obj(NewObject(nil)), KindNumber); ok {
		t.Errorf("ThisPrimitive accepted an ordinary object")
	}

	s := r.NewWrapper(StrOf("ab"), nil)
	s.Define("x", Number(1), DefaultFlags)
	r.DefineProperty(s, Property{Key: "7", Value: Number(1), Flags: DefaultFlags})
	if got := r.OwnKeys(s, false, false); len(got) != 5 || got[0] != "0" || got[1] != "1" || got[2] != "7" || got[3] != "length" || got[4] != "x" {
		t.Errorf("OwnKeys = %q, want [0 1 7 length x]", got)
	}
	if got := r.OwnKeys(s, true, false); len(got) != 4 || got[2] != "7" || got[3] != "x" {
		t.Errorf("enumerable OwnKeys = %q, want [0 1 7 x]", got)
	}
	if p, ok := r.GetOwnProperty(s, "1"); !ok || p.Value.AsString().String() != "b" || p.Flags != Enumerable {
		t.Errorf("GetOwnProperty(1) = %+v, %v", p, ok)
	}
	if r.SetObj(s, "0", StrOf("z"), Obj(s)) || r.DeleteProp(s, "1") || r.DefineProperty(s, Property{Key: "0", Value: StrOf("z"), Flags: Enumerable}) {
		t.Errorf("a String object's character could be changed")
	}
	if !r.DefineProperty(s, Property{Key: "0", Value: StrOf("a"), Flags: Enumerable}) {
		t.Errorf("redefining a character as it is failed")
	}
	if !r.HasOwn(s, "1") || r.HasOwn(s, "2") || !r.HasOwn(s, "length") {
		t.Errorf("HasOwn of characters and length is wrong")
	}
}
