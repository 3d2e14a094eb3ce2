package value

import (
	"strings"
	"testing"
)

// TestInterned: a repeated short string is one String, charged once;
// long strings and a full table make new ones; text that differs only
// in invalid bytes is not confused.
func TestInterned(t *testing.T) {
	var in Interned
	a, fresh := in.String("active")
	if !fresh {
		t.Fatal("the first string is not fresh")
	}
	for range 3 {
		b, fresh := in.String("active")
		if b != a || fresh {
			t.Fatalf("a repeated short string is a new String (fresh %v)", fresh)
		}
	}
	c, fresh := in.String("retail")
	if c == a || !fresh || c.String() != "retail" {
		t.Fatalf("a second string: %q fresh %v", c.String(), fresh)
	}
	if again, _ := in.String("active"); again != a {
		t.Fatal("the first string is lost once the table exists")
	}
	long := strings.Repeat("x", internMaxLen+1)
	l1, _ := in.String(long)
	l2, fresh := in.String(long)
	if l1 == l2 || !fresh {
		t.Error("a long string is interned")
	}
	w1, _ := in.String("caf\u00e9")
	if w2, fresh := in.String("caf\u00e9"); w2 != w1 || fresh || w2.String() != "caf\u00e9" {
		t.Error("a non-ASCII string is not interned")
	}
	bad, _ := in.String("\xff")
	if repl, _ := in.String("\ufffd"); repl == bad {
		t.Error("invalid text and its replacement character share a String")
	}
}

// TestParseJSONSharesStrings: a document's repeated values are one
// String, and the document still reads back the same.
func TestParseJSONSharesStrings(t *testing.T) {
	v, err := ParseJSON(NewString(`[{"s":"open"},{"s":"open"},{"s":"closed"}]`), JSONProtos{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := v.AsObject().Array()
	get := func(i int) *String {
		d, _ := a.Dense()
		return d[i].AsObject().GetOwn("s").Value.AsString()
	}
	if get(0) != get(1) || get(0) == get(2) || get(2).String() != "closed" {
		t.Errorf("strings %q %q %q: the repeated one is not shared", get(0).String(), get(1).String(), get(2).String())
	}
}

// TestParseJSONRecordSizes: the records of a list after the first are
// made at their exact size (the first one's), so a page of records holds
// no doubling slack; an object of another size still parses whole.
func TestParseJSONRecordSizes(t *testing.T) {
	v, err := ParseJSON(NewString(`[{"a":1,"b":2,"c":3,"d":4,"e":5,"t":["x","y"]},{"a":1,"b":2,"c":3,"d":4,"e":5,"t":["x","y"]},{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"t":[]}]`), JSONProtos{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := v.AsObject().Array().Dense()
	second := d[1].AsObject()
	if len(second.props) != 6 || cap(second.props) != 6 {
		t.Errorf("second record: %d properties in %d slots, want 6 in 6", len(second.props), cap(second.props))
	}
	tags, _ := second.GetOwn("t").Value.AsObject().Array().Dense()
	if len(tags) != 2 || cap(tags) != 2 {
		t.Errorf("second record's tags: %d elements in %d slots, want 2 in 2", len(tags), cap(tags))
	}
	if third := d[2].AsObject(); len(third.props) != 8 {
		t.Errorf("third record has %d properties, want 8", len(third.props))
	}
}
