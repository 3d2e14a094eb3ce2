package codemode

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/flate"
)

// A state's source and heap sections are deflated when that saves a
// tenth or more: the source is most of a small state. A deflated
// section is named with ".z" and starts with its inflated length, which
// bounds the inflating (a small state cannot claim to inflate to more
// than maxInflate times its size).
//
// The source is deflated with a preset dictionary of common JavaScript
// (sourceDict), which saves about 7% of a short program; the dictionary
// is part of the format, so changing it needs a new snapfile version.
// A run deflates its source once: later saves, and the saves of a
// resumed run, reuse the bytes.

// packMin is the size under which a section is stored as it is.
const packMin = 256

// maxInflate bounds how many times its stored size a section inflates to.
const maxInflate = 64

// deflateLevel is the level both sections are deflated at: on the
// fixture's state level 5 is 11% smaller than level 1 and takes 40%
// longer (github.com/klauspost/compress/flate, which unlike the
// standard library's can reset a writer to another dictionary, and is
// about twice as fast on sections this small).
const deflateLevel = 5

// sourceDict is the source's preset dictionary: the tokens and calls a
// model's program is made of, the likeliest last (deflate reaches the
// end of the window best).
const sourceDict = `function async await const return let for (const  of  in  if (  } else { else if ( ` +
	`try { } catch (e) { throw new Error( new Promise((resolve, reject) => Promise.all( ` +
	`Promise.allSettled( .then( .catch( .finally( typeof  instanceof  undefined null true false ` +
	` === !== == != && || ?? => { }); ]); ), (x) => x.filter( .map( .reduce((acc, .forEach( .find( ` +
	`.some( .every( .includes( .indexOf( .slice( .splice( .push( .sort((a, b) =>  .join(", ") ` +
	`.split( .length .toFixed(2) .trim() .toLowerCase() .startsWith( Object.keys( Object.values( ` +
	`Object.entries( Object.fromEntries( Object.assign({}, Array.from( Array.isArray( ` +
	`JSON.stringify( JSON.parse( Math.max( Math.min( Math.round( Math.floor( Number( String( ` +
	`new Map() new Set() .get( .set( .has( console.log( console.error( await tools. ` +
	`await Promise.all( return { id: name: status: total: count: items: results: error: message: ` +
	`data: value: type: `

// The heap is deflated with the program's source as its dictionary:
// the names a heap holds (properties, tools, strings) are mostly in the
// source, which the resuming side reads first.

// pack returns b deflated against dict (with its length first) when that is at
// least a tenth smaller, else b itself; z says which.
func (rt *Runtime) pack(b []byte, dict []byte) (stored []byte, z bool) {
	if len(b) < packMin {
		return b, false
	}
	var buf bytes.Buffer
	buf.Grow(len(b)/2 + 16)
	buf.Write(binary.AppendUvarint(nil, uint64(len(b))))
	w, _ := rt.codecs.get(&rt.codecs.deflaters).(*flate.Writer)
	if w == nil {
		w, _ = flate.NewWriterDict(&buf, deflateLevel, dict)
	} else {
		w.ResetDict(&buf, dict)
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

// unpack inflates a section pack deflated against dict, refusing one that
// claims or holds more than it may.
func (rt *Runtime) unpack(stored []byte, dict []byte) ([]byte, error) {
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
		r = flate.NewReaderDict(src, dict)
	} else if err := r.(flate.Resetter).Reset(src, dict); err != nil {
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

// codecPool keeps a few deflaters and inflaters of each codec per
// Runtime for reuse: a deflater is about 300 KB of tables, which a
// sync.Pool would drop at every collection.
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
