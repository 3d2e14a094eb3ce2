package codemode

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
)

// runSection is the "run" section: what the resumed run's limits need
// before the heap is read, and what `codemode snapshot inspect` shows
// without the tools. It is written as varints and length-prefixed
// strings (a JSON form was a tenth of a typical state):
//
//	usedNanos suspensions toolCalls n (key path input)×n
type runSection struct {
	UsedNanos   int64
	Suspensions int
	ToolCalls   int
	Pending     []PendingCall
}

func (rs runSection) append(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(max(rs.UsedNanos, 0)))
	b = binary.AppendUvarint(b, uint64(rs.Suspensions))
	b = binary.AppendUvarint(b, uint64(rs.ToolCalls))
	b = binary.AppendUvarint(b, uint64(len(rs.Pending)))
	for _, p := range rs.Pending {
		for _, s := range [][]byte{[]byte(p.Key), []byte(p.Path), p.Input} {
			b = binary.AppendUvarint(b, uint64(len(s)))
			b = append(b, s...)
		}
	}
	return b
}

var errRunSection = errors.New("its run section is malformed")

// parseRunSection reads what append wrote, refusing counts and lengths
// the bytes cannot hold and inputs that are not JSON.
func parseRunSection(b []byte) (runSection, error) {
	var rs runSection
	next := func() (uint64, bool) {
		v, k := binary.Uvarint(b)
		if k <= 0 {
			return 0, false
		}
		b = b[k:]
		return v, true
	}
	bytesOf := func() ([]byte, bool) {
		n, ok := next()
		if !ok || n > uint64(len(b)) {
			return nil, false
		}
		s := b[:n]
		b = b[n:]
		return s, true
	}
	used, ok1 := next()
	sus, ok2 := next()
	calls, ok3 := next()
	n, ok4 := next()
	if !ok1 || !ok2 || !ok3 || !ok4 || used > math.MaxInt64 || sus > math.MaxInt32 || calls > math.MaxInt32 || n > uint64(len(b)) {
		return rs, errRunSection
	}
	rs.UsedNanos, rs.Suspensions, rs.ToolCalls = int64(used), int(sus), int(calls)
	for range n {
		key, ok1 := bytesOf()
		path, ok2 := bytesOf()
		input, ok3 := bytesOf()
		if !ok1 || !ok2 || !ok3 || !json.Valid(input) {
			return rs, errRunSection
		}
		rs.Pending = append(rs.Pending, PendingCall{Key: string(key), Path: string(path), Input: json.RawMessage(input)})
	}
	if len(b) != 0 {
		return rs, errRunSection
	}
	return rs, nil
}
