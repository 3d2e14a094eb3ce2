package workerpool

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/go-codemode/codemode/protocol"
)

func TestFrameRoundTrip(t *testing.T) {
	for _, n := range []int{1, 100, preallocLimit, preallocLimit + 1, 3 * preallocLimit} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			body := bytes.Repeat([]byte{'x'}, n)
			var buf bytes.Buffer
			if err := writeFrame(&buf, body); err != nil {
				t.Fatal(err)
			}
			if err := writeFrame(&buf, []byte("{}")); err != nil {
				t.Fatal(err)
			}
			br := bufio.NewReader(&buf)
			for _, want := range [][]byte{body, []byte("{}")} {
				got, err := readFrame(br, maxFrame)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("read %d bytes, %v; want %d bytes", len(got), err, len(want))
				}
			}
			if _, err := readFrame(br, maxFrame); err != io.EOF {
				t.Fatalf("after the last frame: %v, want io.EOF", err)
			}
		})
	}
}

func TestFrameErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		limit int
		want  error  // errors.Is
		text  string // or in the message
	}{
		{"clean end", "", 10, io.EOF, ""},
		{"short header", "\x00\x00", 10, io.ErrUnexpectedEOF, ""},
		{"short body", "\x00\x00\x00\x05abc", 10, io.ErrUnexpectedEOF, ""},
		{"short large body", "\x00\x20\x00\x00abc", 4 << 20, io.ErrUnexpectedEOF, ""},
		{"empty frame", "\x00\x00\x00\x00", 10, nil, "empty frame"},
		{"over the limit", "\x00\x00\x00\x0bhello world", 10, errFrameTooLarge, ""},
		{"lying length", "\xff\xff\xff\xff", maxFrame, errFrameTooLarge, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readFrame(bufio.NewReader(strings.NewReader(tt.input)), tt.limit)
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) || !strings.Contains(err.Error(), tt.text) {
				t.Fatalf("error %v, want %v %q", err, tt.want, tt.text)
			}
		})
	}
	if err := writeFrame(io.Discard, nil); err == nil {
		t.Fatal("wrote an empty frame")
	}
}

func TestDecodeMessage(t *testing.T) {
	tests := []struct {
		frame string
		want  string // the decoded type, or "error: <text>"
	}{
		{`{"type":"start","id":"r1","request":{"type":"execute","id":"r1","code":""},"dispatch":true}`, "*workerpool.startMessage"},
		{`{"type":"suspend","id":"r1"}`, "*workerpool.suspendMessage"},
		{`{"type":"memory","rss":10,"heap":5}`, "*workerpool.memoryMessage"},
		{`{"type":"result","id":"r1","resultJson":1}`, "*protocol.ResultMessage"},
		{`{"type":"dispatch","id":"r1","callId":"c1","provider":"p","tool":"t","args":"[]"}`, "*protocol.DispatchMessage"},
		{`{"type":"start","id":"r1"}`, `error: needs an "id" and a "request"`},
		{`{"type":"start","request":{}}`, `error: needs an "id"`},
		{`{"type":"suspend"}`, `error: needs an "id"`},
		{`{"type":"memory","heap":1,"extra":2}`, `error: unknown field "extra"`},
		{`{"type":"memory","heap":1} {}`, "error: not one JSON object"},
		{`{"type":"memory","heap":"lots"}`, "error: cannot unmarshal"},
		{`{"type":"result"}`, `error: malformed message: "id" is missing`},
		{`{"type":"result","id":"r1","extra":1}`, "error: malformed message"},
		{`{"type":"nope","id":"x"}`, `error: unknown message type "nope"`},
		{`[1,2]`, "error: not one JSON object"},
		{`hello`, "error: not one JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.frame, func(t *testing.T) {
			m, err := decodeMessage([]byte(tt.frame))
			got := fmt.Sprintf("%T", m)
			if err != nil {
				got = "error: " + err.Error()
			}
			if !strings.HasPrefix(tt.want, "error: ") && got != tt.want ||
				strings.HasPrefix(tt.want, "error: ") && !strings.Contains(got, strings.TrimPrefix(tt.want, "error: ")) {
				t.Fatalf("decoded %s, want %s", got, tt.want)
			}
		})
	}
}

// TestEncodeMessage: what the two sides encode, they decode back.
func TestEncodeMessage(t *testing.T) {
	msgs := []any{
		&startMessage{Type: typeStart, ID: "r1", Request: []byte(`{"type":"execute","id":"r1","code":"<&>"}`), Suspend: true},
		&suspendMessage{Type: typeSuspend, ID: "r1"},
		&memoryMessage{Type: typeMemory, RSS: 1 << 30, Heap: 12345},
		&protocol.CancelMessage{ID: "r1"},
	}
	for _, m := range msgs {
		b, err := encodeMessage(m)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(`\u003c`)) {
			t.Fatalf("HTML-escaped: %s", b)
		}
		back, err := decodeMessage(b)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if fmt.Sprint(back) != fmt.Sprint(m) {
			t.Fatalf("decoded %v, want %v", back, m)
		}
	}
}

func TestReadMemory(t *testing.T) {
	m := readMemory()
	if m.Heap == 0 || m.used() == 0 {
		t.Fatalf("memory %+v", m)
	}
}

// FuzzFrames: whatever a worker (or a pool) writes on the pipe, reading
// it is an error or messages, never a panic, and a frame never claims
// more memory than it brings.
func FuzzFrames(f *testing.F) {
	var seed bytes.Buffer
	_ = writeFrame(&seed, []byte(`{"type":"memory","rss":1,"heap":2}`))
	_ = writeFrame(&seed, []byte(`{"type":"result","id":"r1","resultJson":1}`))
	f.Add(seed.Bytes())
	f.Add([]byte{0, 0, 0, 2, '{', '}'})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 'x'})
	f.Fuzz(func(t *testing.T, data []byte) {
		br := bufio.NewReader(bytes.NewReader(data))
		for {
			frame, err := readFrame(br, 1<<16)
			if err != nil {
				return
			}
			if len(frame) > len(data) {
				t.Fatalf("a %d-byte frame from %d bytes", len(frame), len(data))
			}
			_, _ = decodeMessage(frame)
		}
	})
}
