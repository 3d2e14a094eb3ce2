package workerpool

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/go-codemode/codemode/protocol"
)

// The pipe between a pool and a worker carries frames: a 4-byte
// big-endian length, then that many bytes of one JSON object. A frame
// holds either a message of package protocol (execute and resume
// inside a start, dispatch, dispatchResult, fetch, fetchResult, result,
// error, invokeHandle, closeHandles, cancel), decoded as strictly as
// the WebSocket protocol decodes it, or one of the worker-only messages
// below.

// maxFrame bounds one frame each way: the protocol's frame bound, which
// leaves room for a value at PayloadLimit and a full console capture
// even when every character is escaped.
const maxFrame = protocol.MaxFrameSize

// preallocLimit is the largest frame whose buffer is allocated in one
// piece; a larger one grows as its bytes arrive, so that a lying length
// costs no more memory than the bytes actually sent.
const preallocLimit = 1 << 20

// errFrameTooLarge is the error of a frame whose length exceeds the
// bound.
var errFrameTooLarge = errors.New("frame exceeds the limit")

// writeFrame writes body as one frame. Callers serialize writes.
func writeFrame(w io.Writer, body []byte) error {
	if len(body) == 0 || len(body) > maxFrame {
		return fmt.Errorf("workerpool: a frame of %d bytes is outside 1 to %d", len(body), maxFrame)
	}
	var head [4]byte
	binary.BigEndian.PutUint32(head[:], uint32(len(body)))
	if _, err := w.Write(head[:]); err != nil {
		return err
	}
	_, err := w.Write(body)
	return err
}

// readFrame reads one frame of at most limit bytes. It returns io.EOF
// at a clean end between frames, io.ErrUnexpectedEOF inside one, and
// errFrameTooLarge (or an error naming an empty frame) for a length
// outside 1 to limit.
func readFrame(r *bufio.Reader, limit int) ([]byte, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, err // io.EOF when nothing was read
	}
	n := binary.BigEndian.Uint32(head[:])
	switch {
	case n == 0:
		return nil, errors.New("empty frame")
	case uint64(n) > uint64(limit):
		return nil, fmt.Errorf("%w: %d bytes, the limit is %d", errFrameTooLarge, n, limit)
	case n <= preallocLimit:
		buf := make([]byte, n)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, eofInside(err)
		}
		return buf, nil
	}
	var buf bytes.Buffer
	if _, err := io.CopyN(&buf, r, int64(n)); err != nil {
		return nil, eofInside(err)
	}
	return buf.Bytes(), nil
}

func eofInside(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// The worker-only message types.
const (
	// typeStart (pool to worker) starts a run: an execute or a resume
	// message of package protocol, and what the request's Go fields say
	// that the message cannot.
	typeStart = "start"
	// typeSuspend (pool to worker) asks a run to save itself: the
	// worker closes the Suspend channel of the run's request.
	typeSuspend = "suspend"
	// typeMemory (worker to pool) reports the worker's memory. The
	// worker sends one before every answer to a run or an invocation.
	typeMemory = "memory"
)

// startMessage starts a run on a worker.
type startMessage struct {
	Type string `json:"type"`
	// ID names the run on the pipe; it is also the id of Request.
	ID string `json:"id"`
	// Request is a protocol execute or resume message.
	Request json.RawMessage `json:"request"`
	// Dispatch, Fetch and Suspend say whether the request had a
	// Dispatch, a Fetch and a Suspend channel: the worker gives the
	// executor a forwarding function, or a channel, only then, so that
	// the run behaves as it would in process (a nil Dispatch answers
	// "not found"; a request with Suspend runs as a suspendable
	// program).
	Dispatch bool `json:"dispatch,omitempty"`
	Fetch    bool `json:"fetch,omitempty"`
	Suspend  bool `json:"suspend,omitempty"`
}

// suspendMessage asks the run ID to save itself.
type suspendMessage struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// memoryMessage is a worker's memory, in bytes.
type memoryMessage struct {
	Type string `json:"type"`
	// RSS is the resident set size of the process, where the system
	// says (Linux: /proc/self/statm); zero elsewhere.
	RSS uint64 `json:"rss,omitempty"`
	// Heap is the Go heap in use (spans holding objects).
	Heap uint64 `json:"heap"`
}

// used is the number compared with the memory limit: the resident set
// when it is known, the heap otherwise.
func (m *memoryMessage) used() uint64 {
	if m.RSS > 0 {
		return m.RSS
	}
	return m.Heap
}

// encodeMessage renders m, a protocol message or a worker-only one, as a
// frame body.
func encodeMessage(m any) ([]byte, error) {
	if pm, ok := m.(protocol.Message); ok {
		return protocol.Encode(pm)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// decodeMessage reads a frame body as a worker-only message (a
// *startMessage, *suspendMessage or *memoryMessage) or, for any other
// type, as a protocol message through protocol.DecodeLimit. Unknown
// fields, a missing id and trailing data are refused.
func decodeMessage(frame []byte) (any, error) {
	var peek struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(frame, &peek); err != nil {
		return nil, fmt.Errorf("not one JSON object: %v", err)
	}
	switch peek.Type {
	case typeStart:
		m := &startMessage{}
		if err := decodeStrict(frame, m); err != nil {
			return nil, err
		}
		if m.ID == "" || len(m.Request) == 0 {
			return nil, errors.New(`a start message needs an "id" and a "request"`)
		}
		return m, nil
	case typeSuspend:
		m := &suspendMessage{}
		if err := decodeStrict(frame, m); err != nil {
			return nil, err
		}
		if m.ID == "" {
			return nil, errors.New(`a suspend message needs an "id"`)
		}
		return m, nil
	case typeMemory:
		m := &memoryMessage{}
		if err := decodeStrict(frame, m); err != nil {
			return nil, err
		}
		return m, nil
	}
	return protocol.DecodeLimit(frame, maxFrame)
}

// decodeStrict decodes one JSON object into v, refusing unknown fields
// and trailing data.
func decodeStrict(frame []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(frame))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}
