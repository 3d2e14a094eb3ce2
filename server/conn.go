package server

// One WebSocket connection. Three goroutines serve it: serve (the HTTP
// handler's) performs the handshake and then reads frames until the
// connection ends; writeLoop writes the frames that others queue on out,
// one at a time, so that writes are serialized and a slow client blocks
// only its own connection; ping checks that the client is still there.
// Each request (execute, resume, invokeHandle, closeHandles) runs in a
// goroutine of its own (run.go), and the backend call of a run in one
// more, so that the server can answer for a backend that does not.
//
// The connection's context, ctx, ends when the connection does; the
// runs' contexts derive from it, so a closing connection cancels its
// runs, their tool calls return, and their answers go nowhere. serve
// returns once every run has returned and every retained execution of
// the connection has been released.

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/go-codemode/codemode/protocol"
)

// frame is one item of a connection's send queue: a text frame to write,
// then, when close is set, the close handshake with that status.
type frame struct {
	data   []byte
	close  websocket.StatusCode
	reason string
}

// The causes a connection's context ends with. None is a
// *protocol.Error, so that a run whose context ends with one is not
// answered (its connection is gone).
var (
	errConnClosed = errors.New("the connection closed")
	errSlowClient = errors.New("the client did not read its frames in time")
	errNoPong     = errors.New("the client did not answer a ping")
)

// errTooBig is read's failure for a frame over the frame limit.
var errTooBig = errors.New("frame too big")

type conn struct {
	s      *Server
	ws     *websocket.Conn
	id     uint64
	remote string
	header http.Header
	log    *slog.Logger

	ctx    context.Context // ends when the connection does
	cancel context.CancelCauseFunc
	base   context.Context // ctx with the identity: the runs' parent; set by the handshake

	out        chan frame
	writerDone chan struct{}
	done       chan struct{} // closed when serve returns

	// wmu is held by whoever writes a frame; queued counts the frames
	// queued or being written by writeLoop. A sender that finds none
	// writes its frame itself, saving the hand-over to writeLoop (a
	// tool call's round trip is mostly such hand-overs).
	wmu    sync.Mutex
	queued atomic.Int64

	hello atomic.Int32   // 0 waiting for the hello, 1 received, 2 timed out
	bg    sync.WaitGroup // ping

	mu         sync.Mutex
	runs       map[string]*run // requests in flight, by the client's id
	calls      map[string]*pending
	retained   map[string]*retained // executions this connection retained
	released   bool                 // retained executions were released: no more
	closing    bool                 // no new requests
	refusalErr *protocol.Error      // the answer to a new request while closing
	callSeq    uint64

	active tracker // runs registered and not yet answered
}

// retained is an execution the connection retained.
type retained struct {
	id             string
	timeout        time.Duration // of the request that retained it: its invocations'
	countHostWaits bool
	invocations    []*run // in flight, oldest first
}

// pending is a tool call or fetch waiting for the client's answer.
type pending struct {
	run  *run
	kind protocol.MessageType // TypeDispatch or TypeFetch
	ch   chan callAnswer      // receives the one answer
}

type callAnswer struct {
	envelope string                     // dispatchResult
	response *protocol.OutboundResponse // fetchResult
	err      string                     // fetchResult
}

func newConn(s *Server, ws *websocket.Conn, r *http.Request) *conn {
	c := &conn{
		s:          s,
		ws:         ws,
		id:         s.connSeq.Add(1),
		remote:     r.RemoteAddr,
		header:     r.Header.Clone(),
		out:        make(chan frame, s.cfg.SendQueue),
		writerDone: make(chan struct{}),
		done:       make(chan struct{}),
		runs:       make(map[string]*run),
		calls:      make(map[string]*pending),
		retained:   make(map[string]*retained),
	}
	c.log = s.log.With("conn", c.id, "remote", c.remote)
	c.ctx, c.cancel = context.WithCancelCause(context.Background())
	c.base = c.ctx
	ws.SetReadLimit(-1) // read enforces MaxFrameBytes, answering before it closes
	return c
}

// serve serves the connection until it ends.
func (c *conn) serve() {
	defer close(c.done)
	c.log.Debug("connected")
	go c.writeLoop()

	var ageTimer *time.Timer
	ageDone := make(chan struct{})
	if c.handshake() {
		if d := c.s.cfg.PingInterval; d > 0 {
			c.bg.Go(func() { c.ping(d) })
		}
		if d := c.s.cfg.MaxConnectionAge; d > 0 {
			ageTimer = time.AfterFunc(d, func() {
				defer close(ageDone)
				c.log.Info("connection reached its maximum age", "age", d)
				c.retire()
			})
		}
		c.readLoop()
	} else {
		// The handshake queued its refusal and the close: let them go.
		waitZero(context.Background(), c.ctx.Done(), c.s.cfg.WriteTimeout+10*time.Second)
	}

	c.cancel(errConnClosed)
	if ageTimer != nil && !ageTimer.Stop() {
		<-ageDone
	}
	<-c.active.zero() // each run answers within TerminationDelay of its context's end
	c.releaseRetained()
	c.bg.Wait()
	<-c.writerDone
	_ = c.ws.CloseNow()
	c.log.Debug("disconnected", "cause", context.Cause(c.ctx))
}

// abort drops the connection without a close handshake.
func (c *conn) abort(cause error) {
	c.cancel(cause)
	_ = c.ws.CloseNow()
}

// writeLoop writes the queued frames one at a time.
func (c *conn) writeLoop() {
	defer close(c.writerDone)
	for {
		select {
		case <-c.ctx.Done():
			return
		case f := <-c.out:
			if f.data != nil {
				c.wmu.Lock()
				ok := c.write(f.data)
				c.queued.Add(-1)
				c.wmu.Unlock()
				if !ok {
					return
				}
			} else {
				c.queued.Add(-1)
			}
			if f.close != 0 {
				_ = c.ws.Close(f.close, f.reason) // waits for the client's close, a few seconds at most
				c.cancel(errConnClosed)
				return
			}
		}
	}
}

// write writes one frame. A write past WriteTimeout drops the
// connection, its cause set before the socket closes (a deadline on
// Write's context would close the socket first). It reports whether the
// frame was written; the caller holds wmu.
func (c *conn) write(data []byte) bool {
	slow := time.AfterFunc(c.s.cfg.WriteTimeout, func() {
		c.log.Warn("dropping the connection: a write took too long", "timeout", c.s.cfg.WriteTimeout)
		c.abort(errSlowClient)
	})
	err := c.ws.Write(c.ctx, websocket.MessageText, data)
	slow.Stop()
	if err != nil {
		c.abort(errConnClosed)
		return false
	}
	return true
}

// send writes f at once when nothing is queued before it, else queues it,
// waiting at most WriteTimeout for room; a client that leaves its queue
// full that long is dropped. It reports whether f was written or queued.
func (c *conn) send(f frame) bool {
	if c.ctx.Err() != nil {
		return false
	}
	if f.close == 0 && c.queued.Load() == 0 && c.wmu.TryLock() {
		if c.queued.Load() == 0 {
			ok := c.write(f.data)
			c.wmu.Unlock()
			return ok
		}
		c.wmu.Unlock()
	}
	c.queued.Add(1)
	select {
	case c.out <- f:
		return true
	default:
	}
	t := time.NewTimer(c.s.cfg.WriteTimeout)
	defer t.Stop()
	select {
	case c.out <- f:
		return true
	case <-c.ctx.Done():
		c.queued.Add(-1)
		return false
	case <-t.C:
		c.queued.Add(-1)
		c.log.Warn("dropping the connection: its send queue stayed full", "wait", c.s.cfg.WriteTimeout)
		c.abort(errSlowClient)
		return false
	}
}

// sendError queues an error message answering the message id.
func (c *conn) sendError(id string, e *protocol.Error) bool {
	return c.send(frame{data: c.errorFrame(id, e)})
}

// errorFrame returns the error message answering the message id, and
// counts it.
func (c *conn) errorFrame(id string, e *protocol.Error) []byte {
	c.s.metrics.errors.WithLabelValues(string(e.Code)).Inc()
	data, err := protocol.Encode(&protocol.ErrorMessage{ID: id, Code: e.Code, Message: e.Message})
	if err != nil { // an error message always encodes (its code is never empty here); be safe
		data, _ = protocol.Encode(&protocol.ErrorMessage{ID: id, Code: protocol.CodeInternal, Message: e.Message})
	}
	return data
}

// refuse answers the message id with e and closes the connection with
// status.
func (c *conn) refuse(id string, e *protocol.Error, status websocket.StatusCode) {
	c.sendError(id, e)
	c.send(frame{close: status, reason: closeReason(e.Message)})
}

// closeReason trims a text to the 123 bytes a close frame's reason may
// hold.
func closeReason(s string) string {
	if len(s) <= 123 {
		return s
	}
	s = s[:120]
	for len(s) > 0 && s[len(s)-1]&0xC0 == 0x80 { // do not cut a character
		s = s[:len(s)-1]
	}
	if len(s) > 0 && s[len(s)-1] >= 0xC0 {
		s = s[:len(s)-1]
	}
	return s + "..."
}

// read reads one message, refusing one over MaxFrameBytes with errTooBig
// (the message is then not read to its end, and the connection must
// close).
func (c *conn) read() (websocket.MessageType, []byte, error) {
	typ, r, err := c.ws.Reader(c.ctx)
	if err != nil {
		return 0, nil, err
	}
	limit := c.s.cfg.MaxFrameBytes
	data, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return 0, nil, err
	}
	if len(data) > limit {
		return typ, nil, errTooBig
	}
	return typ, data, nil
}

// tooBig answers a frame over the limit and closes the connection
// (status 1009).
func (c *conn) tooBig() {
	limit := c.s.cfg.MaxFrameBytes
	c.log.Info("closing the connection: a frame is over the limit", "limit", limit)
	c.refuse("", protocol.Errorf(protocol.CodePayloadTooLarge,
		"a frame exceeds the limit of %d bytes (the server's --max-frame); the connection is closed", limit),
		websocket.StatusMessageTooBig)
}

// The answers of the handshake.
var (
	errBinary = protocol.NewError(protocol.CodeMalformedMessage,
		"malformed message: a binary frame; every message is one text frame holding one JSON object")
)

// handshake reads and answers the hello. It reports whether the
// connection is open; when it is not, it has queued its refusal and the
// close.
func (c *conn) handshake() bool {
	d := c.s.cfg.HandshakeTimeout
	timer := time.AfterFunc(d, func() {
		if c.hello.CompareAndSwap(0, 2) {
			c.s.metrics.handshakes.WithLabelValues("timeout").Inc()
			c.log.Info("refused: no hello in time", "timeout", d)
			c.refuse("", protocol.Errorf(protocol.CodeConnectionRejected,
				"no hello within %v of the upgrade", d), websocket.StatusPolicyViolation)
		}
	})
	defer timer.Stop()

	typ, data, err := c.read()
	if !c.hello.CompareAndSwap(0, 1) {
		return false // timed out
	}
	timer.Stop()
	fail := func(outcome, id string, e *protocol.Error, status websocket.StatusCode) bool {
		c.s.metrics.handshakes.WithLabelValues(outcome).Inc()
		c.log.Info("refused", "code", e.Code, "reason", e.Message)
		c.refuse(id, e, status)
		return false
	}
	switch {
	case errors.Is(err, errTooBig):
		c.s.metrics.handshakes.WithLabelValues("malformed").Inc()
		c.tooBig()
		return false
	case err != nil:
		c.cancel(errConnClosed)
		return false
	case typ != websocket.MessageText:
		return fail("malformed", "", errBinary, websocket.StatusProtocolError)
	}
	m, err := protocol.DecodeLimit(data, c.s.cfg.MaxFrameBytes)
	if err != nil {
		return fail("malformed", protocol.PeekID(data), asError(err), websocket.StatusProtocolError)
	}
	hello, ok := m.(*protocol.HelloMessage)
	if !ok {
		return fail("malformed", m.CorrelationID(), protocol.Errorf(protocol.CodeMalformedMessage,
			"a %s message before the hello; the first message must be a hello", m.Type()), websocket.StatusProtocolError)
	}
	if err := protocol.AssertCompatible(hello.Version, protocol.Version); err != nil {
		return fail("mismatch", hello.ID, asError(err), websocket.StatusProtocolError)
	}
	if !c.s.Accepting() {
		return fail("shutting_down", hello.ID, protocol.NewError(protocol.CodeShuttingDown,
			"the server is shutting down and takes no new connections; connect to another server"),
			websocket.StatusGoingAway)
	}
	id, err := c.identify(hello)
	if err != nil {
		return fail("rejected", hello.ID, protocol.NewError(protocol.CodeConnectionRejected, err.Error()),
			websocket.StatusPolicyViolation)
	}
	data, err = protocol.Encode(&protocol.HelloAckMessage{ID: hello.ID, Version: protocol.Version})
	if err != nil {
		return fail("rejected", hello.ID, asError(err), websocket.StatusInternalError)
	}
	c.base = context.WithValue(c.ctx, identityKey{}, id)
	c.s.metrics.handshakes.WithLabelValues("accepted").Inc()
	c.log.Debug("accepted", "subject", id.Subject)
	return c.send(frame{data: data})
}

// identify decides who the client is: the identity hook's answer, or the
// token check's.
func (c *conn) identify(hello *protocol.HelloMessage) (id Identity, err error) {
	if hook := c.s.cfg.Identify; hook != nil {
		ctx, cancel := context.WithTimeout(c.ctx, c.s.cfg.HandshakeTimeout)
		defer cancel()
		defer func() {
			if p := recover(); p != nil {
				c.log.Error("the identity hook panicked", "panic", p)
				id, err = Identity{}, errors.New("the identity hook failed")
			}
		}()
		id, err = hook(ctx, Handshake{RemoteAddr: c.remote, Header: c.header.Clone(), Token: hello.Token})
		if err != nil && err.Error() == "" {
			err = errors.New("the identity hook refused the connection")
		}
		return id, err
	}
	want := c.s.cfg.Token
	if want == "" {
		return Identity{Subject: "anonymous"}, nil
	}
	bearer := ""
	if auth := c.header.Get("Authorization"); len(auth) > 7 && strings.EqualFold(auth[:7], "bearer ") {
		bearer = strings.TrimSpace(auth[7:])
	}
	if hello.Token == "" && bearer == "" {
		return Identity{}, errors.New(`this server requires a token: send it as the hello's "token" or as an "Authorization: Bearer" header`)
	}
	if tokenEqual(hello.Token, want) || tokenEqual(bearer, want) {
		return Identity{Subject: "token"}, nil
	}
	return Identity{}, errors.New("the token is not valid")
}

func tokenEqual(got, want string) bool {
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// ping pings the client every d and drops it when a pong does not come
// back within the next d.
func (c *conn) ping(d time.Duration) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-t.C:
		}
		late := time.AfterFunc(d, func() {
			c.log.Info("dropping the connection: no pong", "wait", d)
			c.abort(errNoPong)
		})
		err := c.ws.Ping(c.ctx)
		late.Stop()
		if err != nil {
			c.abort(errConnClosed)
			return
		}
	}
}

// readLoop reads and handles the client's messages until the connection
// ends.
func (c *conn) readLoop() {
	for {
		typ, data, err := c.read()
		switch {
		case errors.Is(err, errTooBig):
			c.tooBig()
			<-c.ctx.Done() // the message is not read to its end: read no more
			return
		case err != nil:
			if c.ctx.Err() == nil {
				c.log.Debug("read ended", "err", err)
			}
			return
		case typ != websocket.MessageText:
			c.sendError("", errBinary)
			continue
		}
		m, err := protocol.DecodeLimit(data, c.s.cfg.MaxFrameBytes)
		if err != nil {
			c.sendError(protocol.PeekID(data), asError(err))
			continue
		}
		c.handle(m)
	}
}

// handle acts on one message of an open connection.
func (c *conn) handle(m protocol.Message) {
	switch m := m.(type) {
	case *protocol.ExecuteMessage:
		c.startExecute(m)
	case *protocol.ResumeMessage:
		c.startResume(m)
	case *protocol.InvokeHandleMessage:
		c.startInvoke(m)
	case *protocol.CloseHandlesMessage:
		c.startCloseHandles(m)
	case *protocol.CancelMessage:
		c.mu.Lock()
		r := c.runs[m.ID]
		c.mu.Unlock()
		if r != nil && r.kind != kindClose {
			r.cancel(errCancelled)
		}
	case *protocol.DispatchResultMessage:
		c.answerCall(m.ID, m.CallID, protocol.TypeDispatch, callAnswer{envelope: m.Envelope})
	case *protocol.FetchResultMessage:
		c.answerCall(m.ID, m.CallID, protocol.TypeFetch, callAnswer{response: m.Response, err: m.Error})
	case *protocol.HelloMessage:
		c.sendError(m.ID, protocol.NewError(protocol.CodeMalformedMessage,
			"a second hello; the connection is already open (the hello is ignored)"))
	default:
		c.sendError(m.CorrelationID(), protocol.Errorf(protocol.CodeMalformedMessage,
			"a %s message goes from the server to the client, never the other way", m.Type()))
	}
}

// answerCall hands the client's answer to the tool call or fetch callID
// of the request id. An answer nobody waits for is dropped.
func (c *conn) answerCall(id, callID string, kind protocol.MessageType, a callAnswer) {
	c.mu.Lock()
	p := c.calls[callID]
	if p == nil || p.kind != kind || p.run.id != id {
		c.mu.Unlock()
		c.log.Debug("dropped an answer nobody waits for", "id", id, "callId", callID)
		return
	}
	delete(c.calls, callID)
	c.mu.Unlock()
	p.ch <- a // buffered, and the only send: deleted above
}

// newCall registers a tool call or fetch of r and returns its callId.
func (c *conn) newCall(r *run, kind protocol.MessageType) (string, *pending) {
	p := &pending{run: r, kind: kind, ch: make(chan callAnswer, 1)}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.callSeq++
	prefix := "c"
	if kind == protocol.TypeFetch {
		prefix = "f"
	}
	id := fmt.Sprintf("%s%d", prefix, c.callSeq)
	c.calls[id] = p
	return id, p
}

func (c *conn) dropCall(callID string) {
	c.mu.Lock()
	delete(c.calls, callID)
	c.mu.Unlock()
}

// The answers of a retiring connection.
var (
	errAgedRefusal = protocol.NewError(protocol.CodeShuttingDown,
		"this connection reached its maximum age and takes no new work; open a new connection")
	errAgedCancel = protocol.NewError(protocol.CodeShuttingDown,
		"the connection reached its maximum age before the execution finished")
)

// stopTaking makes the connection refuse new requests with refusal.
func (c *conn) stopTaking(refusal *protocol.Error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closing {
		c.closing = true
		c.refusalErr = refusal
	}
}

// retire closes a connection that reached its maximum age: it takes no
// new requests, waits ShutdownDrain for its runs, asks the runs left to
// save themselves and waits SuspendWait, cancels those still left, and
// closes with status 1001.
func (c *conn) retire() {
	c.stopTaking(errAgedRefusal)
	ctx, cfg := c.ctx, c.s.cfg
	if !waitZero(ctx, c.active.zero(), cfg.ShutdownDrain) {
		c.forRuns(func(r *run) { r.askSuspend() })
		if !waitZero(ctx, c.active.zero(), cfg.SuspendWait) {
			c.forRuns(func(r *run) { r.cancel(errAgedCancel) })
			waitZero(ctx, c.active.zero(), cfg.TerminationDelay+time.Second)
		}
	}
	c.send(frame{close: websocket.StatusGoingAway, reason: "connection reached its maximum age"})
}

// forRuns calls f for each request in flight.
func (c *conn) forRuns(f func(*run)) {
	c.mu.Lock()
	runs := make([]*run, 0, len(c.runs))
	for _, r := range c.runs {
		runs = append(runs, r)
	}
	c.mu.Unlock()
	for _, r := range runs {
		f(r)
	}
}

// releaseRetained closes, through the backend, every execution the
// connection retained; later retentions are released at once.
func (c *conn) releaseRetained() {
	c.mu.Lock()
	c.released = true
	ids := make([]string, 0, len(c.retained))
	for id := range c.retained {
		ids = append(ids, id)
	}
	c.retained = nil
	c.mu.Unlock()
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { c.s.closeHandles(context.WithoutCancel(c.base), id) })
	}
	wg.Wait()
}

// closeHandles releases a retained execution nobody owns any more.
func (s *Server) closeHandles(ctx context.Context, executionID string) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.TerminationDelay)
	defer cancel()
	if err := s.backend.CloseHandles(ctx, executionID); err != nil && protocol.CodeOf(err) != protocol.CodeUnknownExecution {
		s.log.Warn("cannot release a retained execution", "executionId", executionID, "err", err)
	}
}

// asError returns err as a *protocol.Error: itself, or INTERNAL with its
// text.
func asError(err error) *protocol.Error {
	var e *protocol.Error
	if errors.As(err, &e) && e != nil && e.Code != "" {
		return e
	}
	return protocol.NewError(protocol.CodeInternal, err.Error())
}
