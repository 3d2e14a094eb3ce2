package value

// Interned makes the short strings of one copy of data (a parsed JSON
// document, a tool's result) shared: the same status, tag or currency
// repeated across a thousand records is one String, not a thousand.
// Strings are immutable, so sharing one is invisible to the program. The
// zero value is ready; it allocates its table on the second string.
type Interned struct {
	m map[string]*String
	// first is the one string seen before the table exists, made of
	// firstText.
	first     *String
	firstText string
}

// Interned strings: at most internMaxLen bytes each (longer ones are
// rarely repeated) and internMaxEntries per copy (a document of distinct
// strings stops filling the table).
const (
	internMaxLen     = 32
	internMaxEntries = 1024
)

// String returns s as a String and whether it is new (the caller charges
// only new strings to the memory budget).
func (t *Interned) String(s string) (str *String, fresh bool) {
	if len(s) > internMaxLen {
		return NewString(s), true
	}
	if t.m == nil {
		if t.first == nil {
			t.first, t.firstText = NewString(s), s
			return t.first, true
		}
		if t.firstText == s {
			return t.first, false
		}
		t.m = make(map[string]*String, 8)
		t.m[t.firstText] = t.first
	}
	if x, ok := t.m[s]; ok {
		return x, false
	}
	x := NewString(s)
	if len(t.m) < internMaxEntries {
		t.m[s] = x
	}
	return x, true
}
