// Package snapfile writes and reads the envelope of a saved run, a "state"
// (snapshot): a small header that says what the run was saved from, the
// opaque body another package produced, and optionally an HMAC-SHA256 seal.
//
// # Layout
//
// Every integer is an unsigned varint (encoding/binary's Uvarint) in its
// shortest form. A longer encoding of the same value is Malformed, so that a
// state has exactly one encoding and Read then Write gives back the same
// bytes.
//
//	magic        8 bytes: Magic
//	version      uvarint: FormatVersion
//	build        uvarint length, then that many bytes (at most 256)
//	engine       uvarint length, then that many bytes (at most 256)
//	programHash  32 bytes
//	toolsHash    16 bytes (a truncated SHA-256)
//	flags        1 byte: 0 unsealed, 1 sealed; any other value is Malformed
//	sections     uvarint count (at most 64), then for each section:
//	             uvarint name length, the name (at most 256 bytes), uvarint size
//	body         uvarint length (the sum of the section sizes), then the body
//	seal         only when sealed: 32 bytes, HMAC-SHA256 under the key of
//	             every byte before it
//
// Nothing may follow the seal (or the body, when unsealed). Everything after
// the version belongs to that version, so a reader stops at a version it does
// not know and reports WrongVersion instead of misreading the rest.
//
// # What is checked, and what is not
//
// Read checks that the bytes are a well-formed state, no longer than
// Options.MaxBytes, and, when Options.Key is set, sealed with that key.
// Whether the state fits the running program (the same Build, ProgramHash and
// ToolsHash) is the caller's decision: compare the Header Read returns with
// your own. Without a key Read accepts a sealed state unverified and reports
// Sealed; again the caller decides.
//
// Read and ReadHeader never panic on hostile bytes, and check every length
// against the input left before allocating, so a short input claiming a huge
// string is Malformed rather than an allocation.
//
// Error messages name Options.SnapshotKey and MaxSnapshotBytes, the codemode
// options that set Key and MaxBytes, because those are what a user can change.
package snapfile

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// Magic is the first 8 bytes of every state, so that other files are told
// apart before anything else is read.
const Magic = "CMSTATE\x00"

// FormatVersion is the envelope's version; bump it when the layout changes.
const FormatVersion = 1

// Limits on the header, so that a hostile header stays small.
const (
	maxString   = 256 // bytes in Build, Engine and each section name
	maxSections = 64
	sealSize    = sha256.Size
	hashSize    = 32
)

// Header says what a state was saved from.
type Header struct {
	Version     int       // FormatVersion when written; Write rejects any other non-zero value
	Build       string    // build fingerprint: module version plus a hash of the build info (the caller supplies it); at most 256 bytes
	Engine      string    // the engine that saved the run, "vm"; at most 256 bytes
	ProgramHash [32]byte  // sha256 of the program source
	ToolsHash   [16]byte  // fingerprint of the tool tree and extensions (a truncated SHA-256)
	Sealed      bool      // an HMAC-SHA256 seal follows the body; Write sets it from Options.Key
	Sections    []Section // the body's parts, in order, for inspection; at most 64
}

// Section names one part of the body and its length in bytes. The sizes of
// all sections add up to the body's length.
type Section struct {
	Name string `json:"name"` // at most 256 bytes
	Size int    `json:"size"`
}

// Options bound reading and writing.
type Options struct {
	Key      []byte // when non-empty, Write seals and Read refuses a state whose seal is missing or wrong
	MaxBytes int    // when > 0, the whole encoded state may be at most this long (checked on Write and on Read)
}

// Reason classifies an Error, so callers can map it without parsing text.
type Reason string

// The reasons an Error gives.
const (
	Malformed    Reason = "malformed" // not a state, truncated, bad lengths, trailing bytes; on Write, an invalid header
	WrongVersion Reason = "version"   // another FormatVersion
	Unsealed     Reason = "unsealed"  // a key is set but the state has no seal
	BadSeal      Reason = "seal"      // the seal does not match: tampered, or another key
	TooLarge     Reason = "too-large" // over MaxBytes
)

// Error is every failure of Read, ReadHeader and Write.
type Error struct {
	Reason Reason
	Msg    string // what failed and how to fix it
}

// Error returns "snapshot: " + Msg.
func (e *Error) Error() string { return "snapshot: " + e.Msg }

func fail(r Reason, format string, args ...any) error {
	return &Error{Reason: r, Msg: fmt.Sprintf(format, args...)}
}

// MarshalJSON writes the header with lowerCamel names and the hashes as
// lowercase hex, the form `codemode snapshot inspect` prints.
func (h Header) MarshalJSON() ([]byte, error) {
	sections := h.Sections
	if sections == nil {
		sections = []Section{} // "sections": [] rather than null
	}
	return json.Marshal(struct {
		Version     int       `json:"version"`
		Build       string    `json:"build"`
		Engine      string    `json:"engine"`
		ProgramHash string    `json:"programHash"`
		ToolsHash   string    `json:"toolsHash"`
		Sealed      bool      `json:"sealed"`
		Sections    []Section `json:"sections"`
	}{h.Version, h.Build, h.Engine, hex.EncodeToString(h.ProgramHash[:]),
		hex.EncodeToString(h.ToolsHash[:]), h.Sealed, sections})
}

// Write encodes the header and body, sealed when opts.Key is set (the
// written Sealed flag follows the key, whatever h.Sealed says). The section
// sizes must add up to len(body).
func Write(h Header, body []byte, opts Options) ([]byte, error) {
	if h.Version != 0 && h.Version != FormatVersion {
		return nil, fail(WrongVersion, "Header.Version is %d; this build writes version %d only: leave Version zero", h.Version, FormatVersion)
	}
	if err := checkString("Header.Build", h.Build); err != nil {
		return nil, err
	}
	if err := checkString("Header.Engine", h.Engine); err != nil {
		return nil, err
	}
	if len(h.Sections) > maxSections {
		return nil, fail(Malformed, "Header.Sections has %d sections, over the limit of %d: merge some", len(h.Sections), maxSections)
	}
	sum := 0
	for i, s := range h.Sections {
		if err := checkString(fmt.Sprintf("Header.Sections[%d].Name", i), s.Name); err != nil {
			return nil, err
		}
		if s.Size < 0 || s.Size > len(body)-sum {
			return nil, fail(Malformed, "Header.Sections[%d] (%q) has size %d, but only %d bytes of the %d-byte body are left: the sections' sizes must add up to len(body)", i, s.Name, s.Size, len(body)-sum, len(body))
		}
		sum += s.Size
	}
	if sum != len(body) {
		return nil, fail(Malformed, "the sections' sizes add up to %d bytes, but the body is %d bytes: list every part of the body in Header.Sections", sum, len(body))
	}
	sealed := len(opts.Key) > 0

	buf := make([]byte, 0, 128+len(body)+sealSize)
	buf = append(buf, Magic...)
	buf = binary.AppendUvarint(buf, FormatVersion)
	buf = appendString(buf, h.Build)
	buf = appendString(buf, h.Engine)
	buf = append(buf, h.ProgramHash[:]...)
	buf = append(buf, h.ToolsHash[:]...)
	if sealed {
		buf = append(buf, 1)
	} else {
		buf = append(buf, 0)
	}
	buf = binary.AppendUvarint(buf, uint64(len(h.Sections)))
	for _, s := range h.Sections {
		buf = appendString(buf, s.Name)
		buf = binary.AppendUvarint(buf, uint64(s.Size))
	}
	buf = binary.AppendUvarint(buf, uint64(len(body)))

	// Check the limit before copying the body, which may be the bulk of it.
	total := len(buf) + len(body)
	if sealed {
		total += sealSize
	}
	if opts.MaxBytes > 0 && total > opts.MaxBytes {
		return nil, tooLarge(total, opts.MaxBytes)
	}
	buf = append(buf, body...)
	if sealed {
		buf = appendSeal(buf, opts.Key)
	}
	return buf, nil
}

// Read checks and decodes a state: MaxBytes, magic, version, every length,
// no trailing bytes, and the seal when opts.Key is set. The body is a
// sub-slice of data (its capacity ends with the body), not a copy.
func Read(data []byte, opts Options) (Header, []byte, error) {
	if opts.MaxBytes > 0 && len(data) > opts.MaxBytes {
		return Header{}, nil, tooLarge(len(data), opts.MaxBytes)
	}
	h, body, err := parse(data)
	if err != nil {
		return Header{}, nil, err
	}
	if len(opts.Key) > 0 {
		if !h.Sealed {
			return Header{}, nil, fail(Unsealed, "the state is not sealed, but Options.SnapshotKey is set: only sealed states are accepted")
		}
		n := len(data) - sealSize
		want := appendSeal(nil, opts.Key, data[:n]...)
		if !hmac.Equal(want, data[n:]) {
			return Header{}, nil, fail(BadSeal, "the state's seal does not match Options.SnapshotKey: it was changed after it was written, or sealed with another key")
		}
	}
	return h, body, nil
}

// ReadHeader decodes the header without checking the seal, so a state can be
// inspected without its key. It still checks the whole layout, so a cut-off
// or padded state is reported here too.
func ReadHeader(data []byte) (Header, error) {
	h, _, err := parse(data)
	return h, err
}

func tooLarge(n, limit int) error {
	return fail(TooLarge, "the state is %d bytes, over the %d-byte MaxSnapshotBytes limit", n, limit)
}

func checkString(field, s string) error {
	if len(s) > maxString {
		return fail(Malformed, "%s is %d bytes, over the %d-byte limit: shorten it", field, len(s), maxString)
	}
	return nil
}

func appendString(buf []byte, s string) []byte {
	return append(binary.AppendUvarint(buf, uint64(len(s))), s...)
}

// appendSeal appends HMAC-SHA256 under key of buf followed by more.
func appendSeal(buf, key []byte, more ...byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(buf)
	m.Write(more)
	return m.Sum(buf)
}

// parse checks the layout of data and returns its header and body; the
// seal, when there is one, is the last sealSize bytes of data.
func parse(data []byte) (Header, []byte, error) {
	r := reader{data: data}
	if len(data) < len(Magic) {
		if bytes.HasPrefix([]byte(Magic), data) {
			return Header{}, nil, r.short("the magic", uint64(len(Magic)))
		}
		return Header{}, nil, notState()
	}
	if string(data[:len(Magic)]) != Magic {
		return Header{}, nil, notState()
	}
	r.off = len(Magic)
	var h Header
	version, err := r.uvarint("the format version")
	if err != nil {
		return Header{}, nil, err
	}
	if version != FormatVersion {
		return Header{}, nil, fail(WrongVersion, "the state has format version %d; this build reads version %d only: resume it with the build that wrote it", version, FormatVersion)
	}
	h.Version = FormatVersion
	if h.Build, err = r.string("the build"); err != nil {
		return Header{}, nil, err
	}
	if h.Engine, err = r.string("the engine"); err != nil {
		return Header{}, nil, err
	}
	if err := r.hash("the program hash", &h.ProgramHash); err != nil {
		return Header{}, nil, err
	}
	b, err := r.bytes("the tools hash", uint64(len(h.ToolsHash)))
	if err != nil {
		return Header{}, nil, err
	}
	copy(h.ToolsHash[:], b)
	flags, err := r.bytes("the flags", 1)
	if err != nil {
		return Header{}, nil, err
	}
	if flags[0] > 1 {
		return Header{}, nil, r.bad("the flags byte is %#x; only 0 (unsealed) and 1 (sealed) are defined", flags[0])
	}
	h.Sealed = flags[0] == 1
	count, err := r.uvarint("the section count")
	if err != nil {
		return Header{}, nil, err
	}
	if count > maxSections {
		return Header{}, nil, r.bad("the header claims %d sections, over the limit of %d", count, maxSections)
	}
	if count > 0 {
		h.Sections = make([]Section, count)
	}
	var sum uint64
	for i := range h.Sections {
		s := &h.Sections[i]
		if s.Name, err = r.string(fmt.Sprintf("the name of section %d", i)); err != nil {
			return Header{}, nil, err
		}
		size, err := r.uvarint(fmt.Sprintf("the size of section %d", i))
		if err != nil {
			return Header{}, nil, err
		}
		if size > uint64(len(data)) || sum+size > uint64(len(data)) {
			return Header{}, nil, r.bad("section %d (%q) claims %d bytes, more than the whole %d-byte state", i, s.Name, size, len(data))
		}
		sum += size
		s.Size = int(size)
	}
	n, err := r.uvarint("the body length")
	if err != nil {
		return Header{}, nil, err
	}
	if n != sum {
		return Header{}, nil, r.bad("the body is %d bytes, but its sections add up to %d", n, sum)
	}
	body, err := r.bytes("the body", n)
	if err != nil {
		return Header{}, nil, err
	}
	if h.Sealed {
		if _, err := r.bytes("the seal", sealSize); err != nil {
			return Header{}, nil, err
		}
	}
	if r.off != len(data) {
		return Header{}, nil, r.bad("%d bytes follow the end of the state; pass the state exactly as it was saved", len(data)-r.off)
	}
	return h, body, nil
}

func notState() error {
	return fail(Malformed, "the data does not start with %q: it is not a saved state", Magic)
}

// reader walks data, checking each length against what is left.
type reader struct {
	data []byte
	off  int
}

func (r *reader) short(what string, want uint64) error {
	return fail(Malformed, "the state ends at byte %d, inside %s (%d bytes wanted, %d left): it was cut short: pass the whole state, as it was saved", len(r.data), what, want, len(r.data)-r.off)
}

func (r *reader) bad(format string, args ...any) error {
	return fail(Malformed, "the state is corrupt at byte %d: %s; it was changed or damaged after it was written", r.off, fmt.Sprintf(format, args...))
}

func (r *reader) uvarint(what string) (uint64, error) {
	v, n := binary.Uvarint(r.data[r.off:])
	switch {
	case n == 0:
		return 0, r.short(what, 1)
	case n < 0:
		return 0, r.bad("%s is a varint longer than 64 bits", what)
	case n > 1 && r.data[r.off+n-1] == 0:
		// Only the shortest encoding is valid, so the state is canonical.
		return 0, r.bad("%s is a varint in a longer form than needed", what)
	}
	r.off += n
	return v, nil
}

func (r *reader) bytes(what string, n uint64) ([]byte, error) {
	if n > uint64(len(r.data)-r.off) {
		return nil, r.short(what, n)
	}
	end := r.off + int(n)
	b := r.data[r.off:end:end]
	r.off = end
	return b, nil
}

func (r *reader) string(what string) (string, error) {
	n, err := r.uvarint(what + "'s length")
	if err != nil {
		return "", err
	}
	if n > maxString {
		return "", r.bad("%s claims %d bytes, over the %d-byte limit", what, n, maxString)
	}
	b, err := r.bytes(what, n)
	return string(b), err
}

func (r *reader) hash(what string, dst *[hashSize]byte) error {
	b, err := r.bytes(what, hashSize)
	copy(dst[:], b)
	return err
}
