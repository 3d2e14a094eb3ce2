package value

// OrderedMap is the storage of Map and Set: entries in insertion order,
// keys compared with SameValueZero (NaN equals NaN, +0 equals -0), and
// iteration that is live, as JavaScript requires: an iterator sees entries
// added after it started (even after a clear()), and skips entries deleted
// before it reached them.
//
// Entries sit in a slice; deleting leaves a tombstone. When tombstones
// outnumber live entries the slice is compacted, and the compaction is
// logged so that iterators created before it can translate their
// position (see MapIterator).
type OrderedMap struct {
	entries []mapEntry
	index   map[mapKey]int
	dead    int
	// compactions[i] lists, ascending, the entry positions removed by the
	// i-th compaction (nil for a clear(), which removes them all); an
	// iterator from epoch e replays those from e on.
	compactions [][]int
}

type mapEntry struct {
	key, value Value
	deleted    bool
}

// mapKey is a Value reduced to what SameValueZero compares, so that Go's
// map can hash it.
type mapKey struct {
	kind Kind
	num  float64
	str  string
	obj  *Object
}

func keyOf(v Value) mapKey {
	switch r := v.ref.(type) {
	case *numberTag:
		n := v.num
		if n == 0 {
			n = 0 // -0 and +0 are one key
		}
		if n != n {
			return mapKey{kind: KindNumber, str: "NaN"} // all NaNs are one key
		}
		return mapKey{kind: KindNumber, num: n}
	case *boolTag:
		return mapKey{kind: KindBoolean, num: v.num}
	case *String:
		return mapKey{kind: KindString, str: r.Key()}
	case *Object:
		return mapKey{kind: KindObject, obj: r}
	case *Symbol:
		return mapKey{kind: KindSymbol, str: r.key}
	}
	return mapKey{kind: v.Kind()}
}

// NewOrderedMap makes an empty map.
func NewOrderedMap() *OrderedMap { return &OrderedMap{index: map[mapKey]int{}} }

// Len is the number of entries (Map.prototype.size).
func (m *OrderedMap) Len() int { return len(m.entries) - m.dead }

// Get returns the value for key.
func (m *OrderedMap) Get(key Value) (Value, bool) {
	if i, ok := m.index[keyOf(key)]; ok {
		return m.entries[i].value, true
	}
	return Undefined, false
}

// Has reports whether key is present.
func (m *OrderedMap) Has(key Value) bool {
	_, ok := m.index[keyOf(key)]
	return ok
}

// Set adds or updates an entry; a new key goes last. A -0 key is stored
// as +0, as Map.prototype.set does.
func (m *OrderedMap) Set(key, value Value) {
	k := keyOf(key)
	if i, ok := m.index[k]; ok {
		m.entries[i].value = value
		return
	}
	if key.IsNumber() && key.num == 0 {
		key = Number(0)
	}
	m.index[k] = len(m.entries)
	m.entries = append(m.entries, mapEntry{key: key, value: value})
}

// Delete removes key and reports whether it was present.
func (m *OrderedMap) Delete(key Value) bool {
	k := keyOf(key)
	i, ok := m.index[k]
	if !ok {
		return false
	}
	delete(m.index, k)
	m.entries[i] = mapEntry{deleted: true}
	m.dead++
	if m.dead > 8 && m.dead > len(m.entries)/2 {
		m.compact()
	}
	return true
}

// Clear removes every entry. Iterators continue with entries added later.
func (m *OrderedMap) Clear() {
	m.entries, m.dead = nil, 0
	clear(m.index)
	m.compactions = append(m.compactions, nil)
}

func (m *OrderedMap) compact() {
	var removed []int
	live := m.entries[:0]
	for i, e := range m.entries {
		if e.deleted {
			removed = append(removed, i)
			continue
		}
		m.index[keyOf(e.key)] = len(live)
		live = append(live, e)
	}
	clear(m.entries[len(live):])
	m.entries, m.dead = live, 0
	m.compactions = append(m.compactions, removed)
}

// Entries returns the live entries in order, for spreading and the
// boundary.
func (m *OrderedMap) Entries() (keys, values []Value) {
	for _, e := range m.entries {
		if !e.deleted {
			keys = append(keys, e.key)
			values = append(values, e.value)
		}
	}
	return keys, values
}

// MapIterator walks an OrderedMap live. It holds a position and the
// compaction epoch that position refers to, which is plain data: an
// iterator survives a snapshot like everything else.
type MapIterator struct {
	m     *OrderedMap
	pos   int
	epoch int
	done  bool
}

// Iterate starts an iterator at the first entry.
func (m *OrderedMap) Iterate() *MapIterator {
	return &MapIterator{m: m, epoch: len(m.compactions)}
}

// Next returns the next live entry, or ok=false when the iteration is
// over (and stays over, as JavaScript iterators do).
func (it *MapIterator) Next() (key, value Value, ok bool) {
	if it.done {
		return Undefined, Undefined, false
	}
	m := it.m
	// Translate the position through compactions since the last step.
	for ; it.epoch < len(m.compactions); it.epoch++ {
		removed := m.compactions[it.epoch]
		if removed == nil { // a clear()
			it.pos = 0
			continue
		}
		below := 0
		for below < len(removed) && removed[below] < it.pos {
			below++
		}
		it.pos -= below
	}
	for it.pos < len(m.entries) {
		e := m.entries[it.pos]
		it.pos++
		if !e.deleted {
			return e.key, e.value, true
		}
	}
	it.done = true
	return Undefined, Undefined, false
}
