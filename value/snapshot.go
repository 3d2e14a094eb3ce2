package value

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-codemode/codemode/internal/snapshot"
)

// This file is what a saved run (a snapshot) needs from the value
// package: codecs for its types, the realm's own state, and the names of
// the objects every realm makes for itself (intrinsics and built-in
// functions), which are saved by name and, when a program changed them,
// with their changes.

// SnapshotTypes registers the types of this package that a run's heap
// holds, for a snapshot of a run over lib.
func SnapshotTypes(reg *snapshot.Registry, lib *Library) {
	snapshot.Register[Value](reg, "value.Value", snapshot.Custom(encodeValue, decodeValue))
	// Slices of values (array elements, frame segments) without
	// reflection per element.
	snapshot.Register[[]Value](reg, "value.Values", snapshot.Custom(encodeValues, decodeValues))
	snapshot.Register[*String](reg, "value.String", snapshot.Custom(encodeString, decodeString))
	snapshot.Register[*Object](reg, "value.Object", snapshot.Custom(encodeObject, decodeObject), snapshot.After(checkObject),
		snapshot.ExternIf(builtinName))
	snapshot.Register[*Symbol](reg, "value.Symbol")
	snapshot.Register[*Native](reg, "value.Native", snapshot.ExternBy(func(n *Native) (string, bool) {
		name, ok := lib.snapNatives().byPtr[n]
		return "N" + name, ok
	}))
	snapshot.Register[*ArrayData](reg, "value.ArrayData", snapshot.After(checkArray))
	snapshot.Register[*PromiseData](reg, "value.PromiseData")
	snapshot.Register[*ErrorData](reg, "value.ErrorData")
	snapshot.Register[*Bound](reg, "value.Bound")
	snapshot.Register[*BoundFunc](reg, "value.BoundFunc")
	snapshot.Register[*resolvingState](reg, "value.resolvingState")
	snapshot.Register[*IteratorRecord](reg, "value.IteratorRecord")
	snapshot.Register[*ArrayIter](reg, "value.ArrayIter")
	snapshot.Register[*StringIter](reg, "value.StringIter")
	snapshot.Register[*OrderedMap](reg, "value.OrderedMap", snapshot.Skip("index"), snapshot.After(rebuildMap))
	snapshot.Register[*MapIterator](reg, "value.MapIterator")
	snapshot.Register[*Exception](reg, "value.Exception")
}

// The tags of a saved Value.
const (
	tagUndefined = iota
	tagNull
	tagTrue
	tagFalse
	tagHole
	tagNumber
	tagString
	tagObject
	tagSymbol
	tagNilObject
	// tagInt and up are the integers 0, 1, ... in the tag itself.
	tagInt = 16
)

// maxTagInt bounds the integers written in the tag.
const maxTagInt = 1 << 20

func encodeValue(e *snapshot.Encoder, v *Value) {
	switch r := v.ref.(type) {
	case nil:
		e.Uint(tagUndefined)
	case *nullTag:
		e.Uint(tagNull)
	case *boolTag:
		if v.num != 0 {
			e.Uint(tagTrue)
		} else {
			e.Uint(tagFalse)
		}
	case *holeTag:
		e.Uint(tagHole)
	case *numberTag:
		if i := uint64(v.num); float64(i) == v.num && i < maxTagInt && !math.Signbit(v.num) {
			e.Uint(tagInt + i)
			return
		}
		e.Uint(tagNumber)
		e.Float(v.num)
	case *String:
		e.Uint(tagString)
		e.Ptr(r)
	case *Object:
		if r == nil {
			// The VM's slot of a callee that has no function object (the
			// program body).
			e.Uint(tagNilObject)
			return
		}
		e.Uint(tagObject)
		e.Ptr(r)
	case *Symbol:
		e.Uint(tagSymbol)
		e.Ptr(r)
	default:
		e.Fail(fmt.Errorf("snapshot: cannot save a value holding %T", r))
	}
}

func decodeValue(d *snapshot.Decoder, v *Value) {
	switch tag := d.Uint(); tag {
	case tagUndefined:
	case tagNull:
		*v = Null
	case tagTrue:
		*v = True
	case tagFalse:
		*v = False
	case tagHole:
		*v = Hole
	case tagNumber:
		*v = Number(d.Float())
	case tagString:
		var s *String
		d.Ptr(&s)
		if s == nil {
			d.Malformed("a nil string value")
		}
		*v = Str(s)
	case tagObject:
		var o *Object
		d.Ptr(&o)
		if o == nil {
			d.Malformed("a nil object value")
		}
		*v = Obj(o)
	case tagSymbol:
		var s *Symbol
		d.Ptr(&s)
		if s == nil {
			d.Malformed("a nil symbol value")
		}
		*v = Sym(s)
	case tagNilObject:
		*v = Value{ref: (*Object)(nil)}
	default:
		if tag < tagInt || tag >= tagInt+maxTagInt {
			d.Malformed("a value tag of %d", tag)
		}
		*v = Number(float64(tag - tagInt))
	}
}

// An object is saved as its prototype, class and flags, its Internal,
// and its properties by shape: the keys and attributes of a property
// list are written once, and every later object with the same list
// refers to it, so that a thousand records of one kind cost their
// values. Deleted properties are dropped (order is kept).
type shapeTable struct {
	ids   map[string]int
	key   []byte
	lists [][]Property // decoding: each shape's keys and flags
}

const (
	objCallable = 1 << iota
	objNotExtends
	objInternal
	objFlagBits = iota
)

func encodeObject(e *snapshot.Encoder, o *Object) {
	e.Ptr(o.Proto)
	bits := uint64(o.Class) << objFlagBits
	if o.callable {
		bits |= objCallable
	}
	if o.notExtends {
		bits |= objNotExtends
	}
	if o.Internal != nil {
		bits |= objInternal
	}
	e.Uint(bits)
	if o.Internal != nil {
		e.Any(&o.Internal)
	}
	st := e.Memo("value.shapes", func() any { return &shapeTable{ids: map[string]int{}} }).(*shapeTable)
	key := st.key[:0]
	n := 0
	for i := range o.props {
		p := &o.props[i]
		if p.Flags&tombstone != 0 {
			continue
		}
		n++
		key = binary.AppendUvarint(key, uint64(len(p.Key)))
		key = append(key, p.Key...)
		key = append(key, byte(p.Flags))
	}
	st.key = key
	if id, ok := st.ids[string(key)]; ok {
		e.Uint(uint64(id) + 1)
	} else {
		st.ids[string(key)] = len(st.ids)
		e.Uint(0)
		e.Uint(uint64(n))
		for i := range o.props {
			if p := &o.props[i]; p.Flags&tombstone == 0 {
				e.String(p.Key)
				e.Uint(uint64(p.Flags))
			}
		}
	}
	for i := range o.props {
		p := &o.props[i]
		switch {
		case p.Flags&tombstone != 0:
		case p.Flags&Accessor != 0:
			e.Ptr(p.Get)
			e.Ptr(p.Set)
		default:
			encodeValue(e, &p.Value)
		}
	}
}

func decodeObject(d *snapshot.Decoder, o *Object) {
	d.Ptr(&o.Proto)
	bits := d.Uint()
	if bits>>objFlagBits > 255 {
		d.Malformed("an object of class %d", bits>>objFlagBits)
	}
	o.Class = Class(bits >> objFlagBits)
	o.callable, o.notExtends = bits&objCallable != 0, bits&objNotExtends != 0
	if bits&objInternal != 0 {
		d.Any(&o.Internal)
	}
	st := d.Memo("value.shapes", func() any { return &shapeTable{} }).(*shapeTable)
	var shape []Property
	if ref := d.Uint(); ref > 0 {
		if ref-1 >= uint64(len(st.lists)) {
			d.Malformed("shape %d of %d", ref-1, len(st.lists))
		}
		shape = st.lists[ref-1]
	} else {
		n := d.Count()
		shape = make([]Property, n)
		for i := range shape {
			shape[i].Key = d.String()
			f := d.Uint()
			if f > uint64(Writable|Enumerable|Configurable|Accessor) {
				d.Malformed("property flags %b", f)
			}
			shape[i].Flags = PropFlags(f)
		}
		st.lists = append(st.lists, shape)
	}
	if len(shape) > d.Left() {
		d.Malformed("an object of %d properties with %d bytes left", len(shape), d.Left())
	}
	o.props = make([]Property, len(shape))
	restoredBytes(d, objectBytes+propertyBytes*len(shape))
	for i := range shape {
		p := &o.props[i]
		p.Key, p.Flags = shape[i].Key, shape[i].Flags
		if p.Flags&Accessor != 0 {
			d.Ptr(&p.Get)
			d.Ptr(&p.Set)
		} else {
			decodeValue(d, &p.Value)
		}
	}
}

func encodeValues(e *snapshot.Encoder, vs *[]Value) {
	if *vs == nil {
		e.Uint(0)
		return
	}
	e.Uint(uint64(len(*vs)) + 1)
	for i := range *vs {
		encodeValue(e, &(*vs)[i])
	}
}

func decodeValues(d *snapshot.Decoder, vs *[]Value) {
	u := d.Uint()
	if u == 0 {
		return
	}
	if u-1 > uint64(d.Left()) {
		d.Malformed("%d values with %d bytes left", u-1, d.Left())
	}
	*vs = make([]Value, u-1)
	restoredBytes(d, valueBytes*len(*vs))
	for i := range *vs {
		decodeValue(d, &(*vs)[i])
	}
}

// A string is saved flat: its ASCII form through the string table, or
// its UTF-16 code units.
func encodeString(e *snapshot.Encoder, s *String) {
	s.flatten()
	e.Bool(s.isWide)
	if !s.isWide {
		e.String(s.ascii)
		return
	}
	b := make([]byte, 2*len(s.wide))
	for i, u := range s.wide {
		b[2*i], b[2*i+1] = byte(u), byte(u>>8)
	}
	e.Bytes(b)
}

func decodeString(d *snapshot.Decoder, s *String) {
	if !d.Bool() {
		a := d.String()
		for i := 0; i < len(a); i++ {
			if a[i] >= 0x80 {
				d.Malformed("a non-ASCII byte in an ASCII string")
			}
		}
		*s = String{ascii: a, length: len(a)}
		restoredBytes(d, s.Bytes())
		return
	}
	b := d.Bytes()
	if len(b)%2 != 0 {
		d.Malformed("an odd number of bytes of UTF-16")
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	*s = String{wide: u, isWide: true, length: len(u)}
	restoredBytes(d, s.Bytes())
}

// The memory a restored heap holds is recounted as it is read, at the
// sizes Charge uses: a state's own count is not trusted (an unsealed
// state could claim a huge heap costs nothing), and the Runtime that
// resumes it may have a smaller budget.

// heapTally is the recount of one decoding.
type heapTally struct{ n int64 }

func restoredBytes(d *snapshot.Decoder, n int) {
	d.Memo("value.recount", func() any { return &heapTally{} }).(*heapTally).n += int64(n)
}

// RestoredBytes is what the objects, arrays and strings d has read cost
// in the memory count.
func RestoredBytes(d *snapshot.Decoder) int64 {
	return d.Memo("value.recount", func() any { return &heapTally{} }).(*heapTally).n
}

// Recount makes the run's memory count at least restored (RestoredBytes
// of the state it was restored from), and returns the MemoryLimitExceeded
// interrupt when that passes the budget.
func (r *Realm) Recount(restored int64) *Interrupt {
	r.allocated = max(r.allocated, restored)
	if r.Budget > 0 && r.allocated > r.Budget {
		return &Interrupt{Kind: "MemoryLimitExceeded",
			Message: fmt.Sprintf("Execution exceeded its memory limit of %d bytes.", r.Budget)}
	}
	return nil
}

// maxProtoChain bounds a prototype chain read from a state.
const maxProtoChain = 100_000

// checkObject rebuilds what is not saved (the key index) and refuses
// what hostile bytes could break: a prototype cycle, which would make a
// property lookup loop for ever, and a wrong tombstone count.
func checkObject(d *snapshot.Decoder, o *Object) error {
	dead, hasIndex := 0, false
	for i := range o.props {
		switch {
		case o.props[i].Flags&tombstone != 0:
			dead++
		case IsArrayIndex(o.props[i].Key):
			hasIndex = true
		}
	}
	if dead != o.dead {
		return snapshot.Malformedf("an object with %d deleted properties says %d", dead, o.dead)
	}
	o.hasIndex = hasIndex
	if len(o.props) > indexMin {
		o.buildIndex()
	}
	// Objects whose whole chain an earlier walk checked are marked; a walk
	// stops at one. A walk that meets itself is a cycle.
	var walk []*Object
	var in map[*Object]bool
	for p := o; p != nil && !d.Marked(p); p = p.Proto {
		switch {
		case in != nil:
			if in[p] {
				return snapshot.Malformedf("a prototype chain is a cycle")
			}
			in[p] = true
		case len(walk) >= 16:
			in = make(map[*Object]bool, 2*len(walk))
			for _, q := range walk {
				in[q] = true
			}
			if in[p] {
				return snapshot.Malformedf("a prototype chain is a cycle")
			}
			in[p] = true
		default:
			for _, q := range walk {
				if q == p {
					return snapshot.Malformedf("a prototype chain is a cycle")
				}
			}
		}
		if walk = append(walk, p); len(walk) > maxProtoChain {
			return snapshot.Malformedf("a prototype chain over %d long", maxProtoChain)
		}
	}
	for _, q := range walk {
		d.Mark(q)
	}
	return nil
}

func checkArray(_ *snapshot.Decoder, a *ArrayData) error {
	if uint64(len(a.dense)) > uint64(a.length) {
		return snapshot.Malformedf("an array of length %d holds %d elements", a.length, len(a.dense))
	}
	for i := range a.sparse {
		if i >= a.length {
			return snapshot.Malformedf("an array of length %d has an element at %d", a.length, i)
		}
	}
	return nil
}

func rebuildMap(_ *snapshot.Decoder, m *OrderedMap) error {
	m.index = make(map[mapKey]int, len(m.entries))
	dead := 0
	for i, en := range m.entries {
		if en.deleted {
			dead++
			continue
		}
		m.index[keyOf(en.key)] = i
	}
	if dead != m.dead {
		return snapshot.Malformedf("a map with %d deleted entries says %d", dead, m.dead)
	}
	return nil
}

// nativeIndex names every built-in function of a library, for saving a
// reference to one.
type nativeIndex struct {
	byPtr  map[*Native]string
	byName map[string]*Native
}

// libSnapshot is what a Library computes once for snapshots: a realm
// with every intrinsic and library global made and never changed, which
// a saved realm is compared with, and the names of its natives.
type libSnapshot struct {
	once     sync.Once
	pristine *Realm
	natives  nativeIndex
	// intrinsicOf finds a pristine intrinsic's number.
	intrinsicOf map[*Object]Intrinsic
	// places are where each built-in function sits on an intrinsic in a
	// pristine realm (the first place, when it sits in several).
	places map[*Native]nativePlace
	// intrinsicNames are the extern names of the intrinsics ("i7").
	intrinsicNames [NumIntrinsics]string
}

// nativePlace is a built-in function's place: intrinsic id's own
// property key, as its value ('n') or accessor half ('g', 's').
type nativePlace struct {
	id   Intrinsic
	key  string
	kind byte
	name string // the extern name: "n7.map"
}

func (l *Library) snapshotData() *libSnapshot {
	s := &l.snap
	s.once.Do(func() { s.build(l) })
	return s
}

func (l *Library) snapNatives() *nativeIndex { return &l.snapshotData().natives }

func (s *libSnapshot) build(l *Library) {
	r := NewRealm(l, nil)
	s.pristine = r
	s.intrinsicOf = map[*Object]Intrinsic{}
	s.natives = nativeIndex{byPtr: map[*Native]string{}, byName: map[string]*Native{}}
	add := func(n *Native) {
		if _, ok := s.natives.byPtr[n]; ok {
			return
		}
		name := n.Name
		for k := 2; s.natives.byName[name] != nil; k++ {
			name = n.Name + "#" + strconv.Itoa(k)
		}
		s.natives.byPtr[n], s.natives.byName[name] = name, n
	}
	add(promiseResolveFunction)
	add(promiseRejectFunction)
	seen := map[*Object]bool{}
	var walk func(o *Object)
	walk = func(o *Object) {
		if o == nil || seen[o] {
			return
		}
		seen[o] = true
		switch in := o.Internal.(type) {
		case *Native:
			add(in)
		case *Bound:
			add(in.Native)
		}
		walk(o.Proto)
		for i := range o.props {
			p := &o.props[i]
			walk(p.Value.AsObject())
			walk(p.Get)
			walk(p.Set)
		}
	}
	for id := Intrinsic(0); id < NumIntrinsics; id++ {
		o := safeIntrinsic(r, id)
		if o != nil {
			s.intrinsicOf[o] = id
		}
	}
	for id := Intrinsic(0); id < NumIntrinsics; id++ {
		walk(r.intrinsics[id])
	}
	s.places = map[*Native]nativePlace{}
	for id := Intrinsic(0); id < NumIntrinsics; id++ {
		s.intrinsicNames[id] = "i" + strconv.Itoa(int(id))
		o := r.intrinsics[id]
		if o == nil {
			continue
		}
		for i := range o.props {
			p := &o.props[i]
			for _, h := range []struct {
				f    *Object
				kind byte
			}{{p.Value.AsObject(), 'n'}, {p.Get, 'g'}, {p.Set, 's'}} {
				if h.f == nil {
					continue
				}
				if n, ok := h.f.Internal.(*Native); ok {
					if _, seen := s.places[n]; !seen {
						s.places[n] = nativePlace{id: id, key: p.Key, kind: h.kind,
							name: string(h.kind) + strconv.Itoa(int(id)) + "." + p.Key}
					}
				}
			}
		}
	}
	names := make([]string, 0, len(l.globals))
	for name := range l.globals {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if v, ok := safeGlobal(r, name); ok {
			walk(v.AsObject())
		}
	}
	natives := make([]string, 0, len(l.natives))
	for name := range l.natives {
		natives = append(natives, name)
	}
	slices.Sort(natives)
	for _, name := range natives {
		add(l.natives[name])
	}
}

func safeIntrinsic(r *Realm, id Intrinsic) (o *Object) {
	defer func() {
		if recover() != nil {
			o = nil
		}
	}()
	return r.Intrinsic(id)
}

func safeGlobal(r *Realm, name string) (v Value, ok bool) {
	defer func() {
		if recover() != nil {
			v, ok = Undefined, false
		}
	}()
	return r.Global(name)
}

// builtinName names a built-in function object by its place on an
// intrinsic, when it is this realm's own and unchanged there: the
// function objects of a realm's built-ins are made per realm, and a
// program holding Array.prototype.map must get the new realm's.
func builtinName(e *snapshot.Encoder, f *Object) (string, bool) {
	n, ok := f.Internal.(*Native)
	if !ok {
		return "", false
	}
	r, _ := e.Memo("value.realm", func() any { return nil }).(*Realm)
	if r == nil {
		return "", false
	}
	s := r.lib.snapshotData()
	place, ok := s.places[n]
	if !ok {
		return "", false
	}
	o, po := r.intrinsics[place.id], s.pristine.intrinsics[place.id]
	if o == nil || po == nil {
		return "", false
	}
	i, pi := o.find(place.key), po.find(place.key)
	if i < 0 || pi < 0 {
		return "", false
	}
	var cur, pf *Object
	switch place.kind {
	case 'n':
		cur, pf = o.props[i].Value.AsObject(), po.props[pi].Value.AsObject()
	case 'g':
		cur, pf = o.props[i].Get, po.props[pi].Get
	default:
		cur, pf = o.props[i].Set, po.props[pi].Set
	}
	if cur != f || !r.sameFunc(f, pf) {
		return "", false
	}
	return place.name, true
}

// RealmState is what a saved run keeps of its realm.
type RealmState struct {
	// Intrinsics are the intrinsics the program changed, whole.
	Intrinsics []IntrinsicState
	Globals    map[string]Value
	Jobs       []job
	Allocated  int64
	NextID     int64
	Symbols    int64
	Pending    int
	Logs       []string
	Rejections []*Object
}

// IntrinsicState is an intrinsic a program changed: its prototype,
// extensibility and own properties, as they are.
type IntrinsicState struct {
	ID         Intrinsic
	Proto      *Object
	NotExtends bool
	Props      []Property
	Dead       int
	Array      *ArrayData // Array.prototype's elements, when it has any
}

// SaveState returns what a snapshot keeps of the realm, and makes e
// write the realm's own objects by name: the realm, its intrinsics, the
// built-in functions on them that the program left as they were, and the
// well-known symbols. Built-in objects the program changed are saved
// whole (IntrinsicState). The realm must be between jobs.
func (r *Realm) SaveState(e *snapshot.Encoder) RealmState {
	s := r.lib.snapshotData()
	e.Memo("value.realm", func() any { return r })
	e.Extern(r, "realm")
	e.Extern(&r.allocated, "realm.allocated")
	for _, sym := range WellKnownSymbols {
		e.Extern(sym, "sym:"+sym.Description)
	}
	st := RealmState{Globals: r.globals, Allocated: r.allocated, NextID: r.nextID, Symbols: r.symbols,
		Pending: r.pending, Logs: r.Logs, Rejections: r.Rejections}
	st.Jobs = r.jobs.items[r.jobs.head:]
	for id := Intrinsic(0); id < NumIntrinsics; id++ {
		o := r.intrinsics[id]
		if o == nil {
			continue
		}
		e.Extern(o, s.intrinsicNames[id])
		if !r.sameAsPristine(o, s.pristine.intrinsics[id]) {
			is := IntrinsicState{ID: id, Proto: o.Proto, NotExtends: o.notExtends, Props: o.props, Dead: o.dead}
			if a, ok := o.Internal.(*ArrayData); ok && a.length > 0 {
				is.Array = a
			}
			st.Intrinsics = append(st.Intrinsics, is)
		}
	}
	return st
}

// sameAsPristine compares an intrinsic with the pristine realm's.
func (r *Realm) sameAsPristine(o, p *Object) bool {
	if p == nil || o.Class != p.Class || o.notExtends != p.notExtends || !r.counterpart(o.Proto, p.Proto) ||
		o.Len() != p.Len() {
		return false
	}
	if a, ok := o.Internal.(*ArrayData); ok && a.length > 0 {
		return false
	}
	for i := range o.props {
		op := &o.props[i]
		if op.Flags&tombstone != 0 {
			continue
		}
		j := p.find(op.Key)
		if j < 0 {
			return false
		}
		pp := &p.props[j]
		if op.Flags != pp.Flags || !r.counterpartValue(op.Value, pp.Value) ||
			!r.counterpartFunc(op.Get, pp.Get) || !r.counterpartFunc(op.Set, pp.Set) {
			return false
		}
	}
	return true
}

// counterpart reports whether o is this realm's version of the pristine
// realm's object p: the same intrinsic.
func (r *Realm) counterpart(o, p *Object) bool {
	if o == nil || p == nil {
		return o == p
	}
	id, ok := r.lib.snapshotData().intrinsicOf[p]
	return ok && r.intrinsics[id] == o
}

func (r *Realm) counterpartValue(v, p Value) bool {
	switch pr := p.ref.(type) {
	case *Object:
		o := v.AsObject()
		return o != nil && r.counterpartFunc(o, pr)
	case *String:
		s, ok := v.ref.(*String)
		return ok && Equal(s, pr)
	case *numberTag:
		_, ok := v.ref.(*numberTag)
		return ok && math.Float64bits(v.num) == math.Float64bits(p.num)
	}
	return v.ref == p.ref && v.num == p.num
}

// counterpartFunc reports whether f is this realm's version of the
// pristine realm's pf: the same intrinsic, or an unchanged built-in
// function of the same native.
func (r *Realm) counterpartFunc(f, pf *Object) bool {
	if f == nil || pf == nil {
		return f == pf
	}
	return r.counterpart(f, pf) || r.sameFunc(f, pf)
}

// sameFunc reports whether f is an unchanged built-in function object
// of pf's native (its name and length as made).
func (r *Realm) sameFunc(f, pf *Object) bool {
	n, ok := pf.Internal.(*Native)
	if !ok || f.Internal != any(n) || f.Class != pf.Class || f.notExtends != pf.notExtends ||
		!r.counterpart(f.Proto, pf.Proto) || f.Len() != pf.Len() {
		return false
	}
	for i := range f.props {
		fp := &f.props[i]
		if fp.Flags&tombstone != 0 {
			continue
		}
		j := pf.find(fp.Key)
		if j < 0 || fp.Flags != pf.props[j].Flags || fp.Get != nil || fp.Set != nil {
			return false
		}
		if pv := pf.props[j].Value; pv.AsObject() != nil || !r.counterpartValue(fp.Value, pv) {
			return false
		}
	}
	return true
}

// RestoreState puts a saved realm's state back, after the whole state
// was read (externs that name a built-in function were resolved against
// the intrinsics as they are first made).
func (r *Realm) RestoreState(st RealmState) error {
	for _, is := range st.Intrinsics {
		if is.ID >= NumIntrinsics {
			return snapshot.Malformedf("intrinsic %d", is.ID)
		}
		o := r.Intrinsic(is.ID)
		o.Proto, o.notExtends, o.props, o.dead, o.index = is.Proto, is.NotExtends, is.Props, is.Dead, nil
		if is.Array != nil {
			o.Internal = is.Array
		}
		o.hasIndex = false
		for i := range o.props {
			if IsArrayIndex(o.props[i].Key) {
				o.hasIndex = true
			}
		}
		if len(o.props) > indexMin {
			o.buildIndex()
		}
		for p, n := o.Proto, 0; p != nil; p, n = p.Proto, n+1 {
			if p == o || n > maxProtoChain {
				return snapshot.Malformedf("the prototype chain of intrinsic %d is a cycle", is.ID)
			}
		}
	}
	if st.Globals != nil {
		r.globals = st.Globals
	}
	r.jobs = jobQueue{items: st.Jobs}
	r.allocated, r.nextID, r.symbols, r.pending = st.Allocated, st.NextID, st.Symbols, st.Pending
	r.Logs, r.Rejections = st.Logs, st.Rejections
	r.recountLogs()
	return nil
}

// ResolveExtern finds the object an extern name written by SaveState
// names in this realm; ok is false for a name that is not the realm's.
func (r *Realm) ResolveExtern(name string, t reflect.Type) (v reflect.Value, ok bool, err error) {
	switch {
	case name == "realm":
		return reflect.ValueOf(r), true, nil
	case name == "realm.allocated":
		return reflect.ValueOf(&r.allocated), true, nil
	case strings.HasPrefix(name, "sym:"):
		for _, s := range WellKnownSymbols {
			if s.Description == name[4:] {
				return reflect.ValueOf(s), true, nil
			}
		}
	case strings.HasPrefix(name, "N"):
		if n := r.lib.snapNatives().byName[name[1:]]; n != nil {
			return reflect.ValueOf(n), true, nil
		}
		return v, true, fmt.Errorf("snapshot: the state uses the built-in %q, which this build does not have", name[1:])
	case strings.HasPrefix(name, "i"):
		id, err := strconv.Atoi(name[1:])
		if err != nil || id < 0 || id >= int(NumIntrinsics) {
			return v, true, snapshot.Malformedf("intrinsic %q", name)
		}
		return reflect.ValueOf(r.Intrinsic(Intrinsic(id))), true, nil
	case len(name) > 1 && (name[0] == 'n' || name[0] == 'g' || name[0] == 's'):
		dot := strings.IndexByte(name, '.')
		id, err := strconv.Atoi(name[1:max(dot, 1)])
		if dot < 0 || err != nil || id < 0 || id >= int(NumIntrinsics) {
			return v, true, snapshot.Malformedf("built-in %q", name)
		}
		o := r.Intrinsic(Intrinsic(id))
		i := o.find(name[dot+1:])
		var f *Object
		if i >= 0 {
			switch name[0] {
			case 'n':
				f = o.props[i].Value.AsObject()
			case 'g':
				f = o.props[i].Get
			case 's':
				f = o.props[i].Set
			}
		}
		if f == nil {
			return v, true, fmt.Errorf("snapshot: the state uses the built-in %q, which this build does not have", name)
		}
		return reflect.ValueOf(f), true, nil
	}
	return v, false, nil
}
