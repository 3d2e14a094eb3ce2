package snapfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

var (
	key      = []byte("the snapshot key")
	otherKey = []byte("another key")
)

// sample is a typical header: a run of the vm with a heap and a stack.
func sample() (Header, []byte) {
	h := Header{
		Build:       "v1.2.3+abcd",
		Engine:      "vm",
		ProgramHash: sha256.Sum256([]byte("await tools.x()")),
		ToolsHash:   [16]byte{0: 7, 15: 9},
		Sections:    []Section{{"heap", 5}, {"stack", 3}},
	}
	return h, []byte("HEAPSSTK")
}

func mustWrite(t testing.TB, h Header, body []byte, opts Options) []byte {
	t.Helper()
	data, err := Write(h, body, opts)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	return data
}

// raw assembles a state by hand: a uint64 is written as a uvarint, a string
// or []byte as it is.
func raw(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch p := p.(type) {
		case int:
			b = binary.AppendUvarint(b, uint64(p))
		case uint64:
			b = binary.AppendUvarint(b, p)
		case string:
			b = append(b, p...)
		case []byte:
			b = append(b, p...)
		default:
			panic(fmt.Sprintf("raw: %T", p))
		}
	}
	return b
}

var zeroHashes = strings.Repeat("\x00", 48) // the program hash (32 bytes) and the tools hash (16)

// empty is the smallest state, by hand: magic, version 1, build "", engine
// "", two zero hashes, unsealed, no sections, empty body.
var empty = raw(Magic, 1, 0, 0, zeroHashes, "\x00", 0, 0)

func TestLayoutByHand(t *testing.T) {
	if got := mustWrite(t, Header{}, nil, Options{}); !bytes.Equal(got, empty) {
		t.Errorf("Write(Header{}) = %q\nwant %q", got, empty)
	}
	h, _ := sample()
	want := raw(Magic, 1, 11, h.Build, 2, "vm", h.ProgramHash[:], h.ToolsHash[:], "\x00",
		2, 4, "heap", 5, 5, "stack", 3, 8, "HEAPSSTK")
	if got := mustWrite(t, h, []byte("HEAPSSTK"), Options{}); !bytes.Equal(got, want) {
		t.Errorf("Write(sample) = %q\nwant %q", got, want)
	}
}

func TestRoundTrip(t *testing.T) {
	h, body := sample()
	sixtyFour := make([]Section, 64)
	for i := range sixtyFour {
		sixtyFour[i] = Section{Name: strings.Repeat("n", 256), Size: 1}
	}
	tests := []struct {
		name string
		h    Header
		body []byte
		opts Options
	}{
		{"unsealed", h, body, Options{}},
		{"sealed", h, body, Options{Key: key}},
		{"empty header and body", Header{}, nil, Options{}},
		{"empty, sealed", Header{}, nil, Options{Key: key}},
		{"zero-size section", Header{Sections: []Section{{"a", 0}, {"b", 2}, {"", 0}}}, []byte("xy"), Options{}},
		{"strings at the 256-byte limit, 64 sections", Header{Build: strings.Repeat("b", 256), Engine: strings.Repeat("e", 256), Sections: sixtyFour}, make([]byte, 64), Options{Key: key}},
		{"exactly MaxBytes", h, body, Options{MaxBytes: len(mustWrite(t, h, body, Options{Key: key})), Key: key}},
		{"Version already set", Header{Version: FormatVersion}, nil, Options{}},
		{"Sealed set by the caller is ignored without a key", Header{Sealed: true}, nil, Options{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := mustWrite(t, tt.h, tt.body, tt.opts)
			got, gotBody, err := Read(data, tt.opts)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			want := tt.h
			want.Version = FormatVersion
			want.Sealed = tt.opts.Key != nil
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("header = %+v\nwant %+v", got, want)
			}
			if !bytes.Equal(gotBody, tt.body) {
				t.Errorf("body = %q, want %q", gotBody, tt.body)
			}
			// Without the key a sealed state still reads, and says it is sealed.
			noKey, _, err := Read(data, Options{})
			if err != nil || noKey.Sealed != want.Sealed {
				t.Errorf("Read without key: Sealed=%v, err=%v; want Sealed=%v", noKey.Sealed, err, want.Sealed)
			}
			if hdr, err := ReadHeader(data); err != nil || fmt.Sprint(hdr) != fmt.Sprint(want) {
				t.Errorf("ReadHeader = %+v, %v", hdr, err)
			}
		})
	}
}

func TestBodyIsCappedSubSlice(t *testing.T) {
	data := mustWrite(t, Header{Sections: []Section{{"all", 3}}}, []byte("abc"), Options{Key: key})
	_, body, err := Read(data, Options{Key: key})
	if err != nil {
		t.Fatal(err)
	}
	_ = append(body, 'X') // must not overwrite the seal that follows the body in data
	if _, _, err := Read(data, Options{Key: key}); err != nil {
		t.Errorf("appending to the body changed the state: %v", err)
	}
}

func TestHeaderJSON(t *testing.T) {
	h, _ := sample()
	h.Version, h.Sealed = 1, true
	h.ProgramHash = [32]byte{0xAB, 0x01}
	h.ToolsHash = [16]byte{15: 0xFF}
	got, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"version":1,"build":"v1.2.3+abcd","engine":"vm",` +
		`"programHash":"ab01000000000000000000000000000000000000000000000000000000000000",` +
		`"toolsHash":"000000000000000000000000000000ff",` +
		`"sealed":true,"sections":[{"name":"heap","size":5},{"name":"stack","size":3}]}`
	if string(got) != want {
		t.Errorf("JSON =\n%s\nwant\n%s", got, want)
	}
	got, _ = json.Marshal(&Header{}) // pointer too; no sections is [], not null
	if want := `"sections":[]}`; !strings.HasSuffix(string(got), want) {
		t.Errorf("JSON of Header{} = %s, want it to end %s", got, want)
	}
}

func reasonOf(err error) Reason {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

func TestReadErrors(t *testing.T) {
	h, body := sample()
	unsealed := mustWrite(t, h, body, Options{})
	sealed := mustWrite(t, h, body, Options{Key: key})
	tests := []struct {
		name   string
		data   []byte
		opts   Options
		reason Reason
		msg    string // a part of the message
	}{
		{"nothing", nil, Options{}, Malformed, "cut short"},
		{"not a state", []byte("{\"json\": true}"), Options{}, Malformed, "not a saved state"},
		{"a prefix of the magic", []byte("CMST"), Options{}, Malformed, "inside the magic"},
		{"version 2", raw(Magic, 2, 0, 0, zeroHashes, "\x00", 0, 0), Options{}, WrongVersion,
			"the state has format version 2; this build reads version 1 only: resume it with the build that wrote it"},
		{"version 0", raw(Magic, 0), Options{}, WrongVersion, "version 0"},
		{"a huge version", raw(Magic, uint64(1<<63)), Options{}, WrongVersion, "version 9223372036854775808"},
		{"a varint over 64 bits", raw(Magic, strings.Repeat("\xff", 10), "\x01"), Options{}, Malformed, "longer than 64 bits"},
		{"a varint in a long form", raw(Magic, "\x81\x00"), Options{}, Malformed, "longer form"},
		{"a build claiming 1 GB", raw(Magic, 1, 1<<30, "x"), Options{}, Malformed, "the build claims 1073741824 bytes, over the 256-byte limit"},
		{"a build longer than the input", raw(Magic, 1, 200, "x"), Options{}, Malformed, "inside the build (200 bytes wanted, 1 left)"},
		{"flags 2", raw(Magic, 1, 0, 0, zeroHashes, "\x02", 0, 0), Options{}, Malformed, "flags byte is 0x2"},
		{"65 sections", raw(Magic, 1, 0, 0, zeroHashes, "\x00", 65), Options{}, Malformed, "65 sections, over the limit of 64"},
		{"a section claiming 1 GB", raw(Magic, 1, 0, 0, zeroHashes, "\x00", 1, 1, "s", 1<<30, 1<<30), Options{}, Malformed, "claims 1073741824 bytes, more than the whole"},
		{"a body longer than the input", raw(Magic, 1, 0, 0, zeroHashes, "\x00", 1, 1, "s", 50, 50), Options{}, Malformed, "inside the body (50 bytes wanted, 0 left)"},
		{"body length not the sections' sum", raw(Magic, 1, 0, 0, zeroHashes, "\x00", 1, 1, "s", 1, 2, "ab"), Options{}, Malformed, "the body is 2 bytes, but its sections add up to 1"},
		{"sealed but the seal is missing", raw(Magic, 1, 0, 0, zeroHashes, "\x01", 0, 0), Options{}, Malformed, "inside the seal"},
		{"a trailing byte", append(bytes.Clone(unsealed), 0), Options{}, Malformed, "1 bytes follow the end of the state"},
		{"a trailing byte after the seal", append(bytes.Clone(sealed), 0), Options{Key: key}, Malformed, "follow the end"},
		{"sealed with another key", sealed, Options{Key: otherKey}, BadSeal,
			"the state's seal does not match Options.SnapshotKey: it was changed after it was written, or sealed with another key"},
		{"unsealed, but a key is set", unsealed, Options{Key: key}, Unsealed,
			"the state is not sealed, but Options.SnapshotKey is set: only sealed states are accepted"},
		{"over MaxBytes", sealed, Options{Key: key, MaxBytes: 100}, TooLarge,
			fmt.Sprintf("the state is %d bytes, over the 100-byte MaxSnapshotBytes limit", len(sealed))},
		{"over MaxBytes and not a state: the size is checked first", make([]byte, 10), Options{MaxBytes: 9}, TooLarge, "10 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Read(tt.data, tt.opts)
			if reasonOf(err) != tt.reason || !strings.Contains(fmt.Sprint(err), tt.msg) {
				t.Errorf("Read: %v (reason %q)\nwant reason %q, message containing %q", err, reasonOf(err), tt.reason, tt.msg)
			}
			if !strings.HasPrefix(fmt.Sprint(err), "snapshot: ") {
				t.Errorf("message %q does not start with \"snapshot: \"", err)
			}
		})
	}
}

func TestWriteErrors(t *testing.T) {
	h, body := sample()
	with := func(f func(*Header)) Header {
		c := h
		c.Sections = append([]Section(nil), h.Sections...)
		f(&c)
		return c
	}
	tests := []struct {
		name   string
		h      Header
		body   []byte
		opts   Options
		reason Reason
		msg    string
	}{
		{"sections shorter than the body", h, append(bytes.Clone(body), 'x'), Options{}, Malformed,
			"the sections' sizes add up to 8 bytes, but the body is 9 bytes"},
		{"sections longer than the body", h, body[:7], Options{}, Malformed, "the sections' sizes must add up to len(body)"},
		{"a negative size", with(func(h *Header) { h.Sections[0].Size = -1 }), body, Options{}, Malformed, "has size -1"},
		{"a body but no sections", Header{}, body, Options{}, Malformed, "add up to 0 bytes"},
		{"a 300-byte build", with(func(h *Header) { h.Build = strings.Repeat("b", 300) }), body, Options{}, Malformed,
			"Header.Build is 300 bytes, over the 256-byte limit"},
		{"a 257-byte engine", with(func(h *Header) { h.Engine = strings.Repeat("e", 257) }), body, Options{}, Malformed, "Header.Engine is 257 bytes"},
		{"a 300-byte section name", with(func(h *Header) { h.Sections[1].Name = strings.Repeat("s", 300) }), body, Options{}, Malformed, "Header.Sections[1].Name is 300 bytes"},
		{"65 sections", Header{Sections: make([]Section, 65)}, nil, Options{}, Malformed, "65 sections"},
		{"version 2", Header{Version: 2}, nil, Options{}, WrongVersion, "Header.Version is 2"},
		{"over MaxBytes", h, body, Options{MaxBytes: 50}, TooLarge, "over the 50-byte MaxSnapshotBytes limit"},
		{"over MaxBytes only with the seal", h, body, Options{Key: key, MaxBytes: len(mustWrite(t, h, body, Options{}))}, TooLarge, "MaxSnapshotBytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := Write(tt.h, tt.body, tt.opts)
			if data != nil || reasonOf(err) != tt.reason || !strings.Contains(fmt.Sprint(err), tt.msg) {
				t.Errorf("Write: %q, %v (reason %q)\nwant reason %q, message containing %q", data, err, reasonOf(err), tt.reason, tt.msg)
			}
		})
	}
}

// Every proper prefix of a valid state is Malformed: never a panic, never a
// shorter state that reads.
func TestTruncations(t *testing.T) {
	h, body := sample()
	for _, opts := range []Options{{}, {Key: key}} {
		data := mustWrite(t, h, body, opts)
		for n := range len(data) {
			_, _, err := Read(data[:n], opts)
			_, herr := ReadHeader(data[:n])
			if reasonOf(err) != Malformed || reasonOf(herr) != Malformed {
				t.Errorf("sealed=%v, first %d of %d bytes: Read %v, ReadHeader %v; want Malformed", opts.Key != nil, n, len(data), err, herr)
			}
		}
	}
}

// Any single flipped bit of a sealed state is refused: BadSeal when the
// layout still parses, Malformed when it does not, WrongVersion in the
// version byte.
func TestBitFlips(t *testing.T) {
	h, body := sample()
	data := mustWrite(t, h, body, Options{Key: key})
	seen := map[Reason]int{}
	for i := range len(data) {
		for bit := range 8 {
			c := bytes.Clone(data)
			c[i] ^= 1 << bit
			_, _, err := Read(c, Options{Key: key})
			r := reasonOf(err)
			seen[r]++
			want := r == BadSeal || r == Malformed || (i == len(Magic) && r == WrongVersion)
			if !want {
				t.Errorf("bit %d of byte %d flipped: %v (reason %q)", bit, i, err, r)
			}
		}
	}
	if seen[BadSeal] == 0 || seen[Malformed] == 0 {
		t.Errorf("reasons seen: %v; want both BadSeal and Malformed", seen)
	}
}

// FuzzRead feeds arbitrary bytes to Read and ReadHeader. They must not panic,
// must fail only with an *Error of a known Reason, and must agree; a state
// that reads is canonical: writing what was read gives back the same bytes.
func FuzzRead(f *testing.F) {
	h, body := sample()
	for _, opts := range []Options{{}, {Key: key}} {
		f.Add(mustWrite(f, h, body, opts))
		f.Add(mustWrite(f, Header{}, nil, opts))
		f.Add(mustWrite(f, Header{Build: "b", Sections: []Section{{"x", 1}, {"", 0}}}, []byte{7}, opts))
	}
	f.Add([]byte(Magic))
	known := map[Reason]bool{Malformed: true, WrongVersion: true, Unsealed: true, BadSeal: true, TooLarge: true}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, body, err := Read(data, Options{})
		hh, herr := ReadHeader(data)
		if (err == nil) != (herr == nil) || fmt.Sprint(h) != fmt.Sprint(hh) {
			t.Fatalf("Read and ReadHeader disagree: %+v, %v / %+v, %v", h, err, hh, herr)
		}
		if err != nil && !known[reasonOf(err)] {
			t.Fatalf("Read: %v is not an *Error with a known Reason", err)
		}
		if err == nil && !h.Sealed {
			if again := mustWrite(t, h, body, Options{}); !bytes.Equal(again, data) {
				t.Fatalf("re-Write of an unsealed state differs:\n%q\n%q", again, data)
			}
		}
		h, body, err = Read(data, Options{Key: key})
		if err != nil && !known[reasonOf(err)] {
			t.Fatalf("Read with key: %v is not an *Error with a known Reason", err)
		}
		if err == nil {
			if again := mustWrite(t, h, body, Options{Key: key}); !bytes.Equal(again, data) {
				t.Fatalf("re-Write of a sealed state differs:\n%q\n%q", again, data)
			}
		}
	})
}
