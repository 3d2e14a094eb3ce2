package codemode

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
)

// A state's source and heap sections are deflated when that saves a
// tenth or more: the source is most of a small state. A deflated
// section is named with ".z" and starts with its inflated length, which
// bounds the inflating (a small state cannot claim to inflate to more
// than maxInflate times its size).

// packMin is the size under which a section is stored as it is.
const packMin = 256

// maxInflate bounds how many times its stored size a section inflates to.
const maxInflate = 64

// pack returns b deflated (with its length first) when that is at least
// a tenth smaller, else b itself; z says which.
func (rt *Runtime) pack(b []byte) (stored []byte, z bool) {
	if len(b) < packMin {
		return b, false
	}
	var buf bytes.Buffer
	buf.Grow(len(b)/2 + 16)
	buf.Write(binary.AppendUvarint(nil, uint64(len(b))))
	w, _ := rt.codecs.get(&rt.codecs.deflaters).(*flate.Writer)
	if w == nil {
		w, _ = flate.NewWriter(&buf, flate.BestSpeed)
	} else {
		w.Reset(&buf)
	}
	_, err := w.Write(b)
	if err == nil {
		err = w.Close()
	}
	rt.codecs.put(&rt.codecs.deflaters, w)
	if err != nil || buf.Len() > len(b)-len(b)/10 {
		return b, false
	}
	return buf.Bytes(), true
}

// unpack inflates a section pack deflated, refusing one that claims or
// holds more than it may.
func (rt *Runtime) unpack(stored []byte) ([]byte, error) {
	n, k := binary.Uvarint(stored)
	if k <= 0 {
		return nil, errors.New("a deflated section without its length")
	}
	if n > uint64(maxInflate*len(stored)+4096) || n > 1<<28 {
		return nil, fmt.Errorf("a deflated section of %d bytes claims %d", len(stored), n)
	}
	src := bytes.NewReader(stored[k:])
	r, _ := rt.codecs.get(&rt.codecs.inflaters).(io.ReadCloser)
	if r == nil {
		r = flate.NewReader(src)
	} else if err := r.(flate.Resetter).Reset(src, nil); err != nil {
		return nil, err
	}
	defer rt.codecs.put(&rt.codecs.inflaters, r)
	out := make([]byte, n)
	if _, err := io.ReadFull(r, out); err != nil {
		return nil, fmt.Errorf("a deflated section does not inflate: %v", err)
	}
	var one [1]byte
	if m, _ := r.Read(one[:]); m != 0 {
		return nil, errors.New("a deflated section inflates to more than it says")
	}
	return out, nil
}

// codecPool keeps a few deflaters and inflaters per Runtime for reuse:
// a deflater is about 300 KB of tables, which a sync.Pool would drop at
// every collection.
type codecPool struct {
	mu                   sync.Mutex
	deflaters, inflaters []any
}

// maxPooled is how many of each a Runtime keeps.
const maxPooled = 4

func (p *codecPool) get(list *[]any) any {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(*list)
	if n == 0 {
		return nil
	}
	v := (*list)[n-1]
	*list = (*list)[:n-1]
	return v
}

func (p *codecPool) put(list *[]any, v any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(*list) < maxPooled {
		*list = append(*list, v)
	}
}
