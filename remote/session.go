package remote

// A session is one WebSocket connection to a server, after its hello.
// Two goroutines serve it: readLoop reads every frame and never blocks
// on anything but the socket (answers go to buffered channels, tool
// calls and fetches to goroutines of their own), and writeLoop writes
// the frames queued on out, one at a time, each within writeTimeout.
// The session dies when its socket does; the requests then in flight
// fail with CONNECTION_LOST, and the executions it retained are gone.
//
// The bookkeeping of a session (its requests in flight, its retained
// executions, its state) is guarded by the Executor's mutex, so that
// picking a session and registering a request on it is one step.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/coder/websocket"

	"github.com/go-codemode/codemode/protocol"
	"sync"
	"sync/atomic"
)

// The kinds of request.
const (
	kindExecute = "execute"
	kindResume  = "resume"
	kindInvoke  = "invokeHandle"
	kindClose   = "closeHandles"
)

// handlers answer the tool calls and fetches of a request.
type handlers struct {
	dispatch protocol.DispatchFunc
	fetch    protocol.FetchFunc
}

// answer is the server's answer to a request, or the failure that stands
// for it.
type answer struct {
	res *protocol.ResultMessage
	err error
	// refused is set for an error message of the server (the request
	// did not run), as opposed to a failure of this side.
	refused bool
}

// call is one request in flight on a session.
type call struct {
	id   string // set when registered
	kind string
	h    handlers
	// ctx is the context of the request's tool calls and fetches. It
	// carries the caller's values, and ends when the answer arrives, when
	// the caller gives up (after the cancel frame is queued) or when the
	// session dies.
	ctx    context.Context
	cancel context.CancelCauseFunc
	answer chan answer // buffered: the one send never blocks
}

func newCall(ctx context.Context, kind string, h handlers) *call {
	cctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	return &call{kind: kind, h: h, ctx: cctx, cancel: cancel, answer: make(chan answer, 1)}
}

// finish delivers a. Only the one who removed c from its session's
// pending calls calls it.
func (c *call) finish(a answer, cause error) {
	c.answer <- a
	c.cancel(cause)
}

type session struct {
	e   *Executor
	ws  *websocket.Conn
	log *slog.Logger
	out chan []byte
	// wmu is held by whoever writes a frame; queued counts the frames
	// queued or being written by writeLoop (a sender that finds none
	// writes its frame itself).
	wmu    sync.Mutex
	queued atomic.Int64

	ctx    context.Context // ends when the session dies
	cancel context.CancelCauseFunc

	// Under e.mu:
	seq      uint64
	pending  map[string]*call
	retained map[string]bool
	runs     int  // executions and resumes sent (rotation)
	retired  bool // takes no new work; closes once idle
	closing  bool // this side began closing it
	dead     bool
}

// dial opens a session: the upgrade, the hello and its answer. Its
// error is the server's refusal (*protocol.Error: PROTOCOL_MISMATCH,
// CONNECTION_REJECTED, SHUTTING_DOWN...) or CONNECTION_LOST.
func (e *Executor) dial(ctx context.Context) (*session, error) {
	ws, resp, err := websocket.Dial(ctx, e.url, &websocket.DialOptions{
		HTTPClient: e.cfg.HTTPClient, HTTPHeader: e.cfg.header()})
	if err != nil {
		if resp != nil && (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden) {
			return nil, protocol.Errorf(protocol.CodeConnectionRejected,
				"remote: %s refused the upgrade: %s", e.url, resp.Status)
		}
		return nil, connLost(err, "cannot connect to %s", e.url)
	}
	ws.SetReadLimit(int64(e.cfg.maxFrame))
	if err := e.hello(ctx, ws); err != nil {
		_ = ws.CloseNow()
		return nil, err
	}
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		_ = ws.Close(websocket.StatusNormalClosure, "executor closed")
		return nil, errClosed
	}
	e.seq++
	s := &session{e: e, ws: ws, out: make(chan []byte, sendQueue),
		pending: map[string]*call{}, retained: map[string]bool{},
		log: e.cfg.log.With("session", e.seq)}
	s.ctx, s.cancel = context.WithCancelCause(context.Background())
	e.sessions[s] = struct{}{}
	e.wg.Go(s.readLoop)
	e.wg.Go(s.writeLoop)
	e.mu.Unlock()
	s.log.Debug("session opened", "url", e.url)
	return s, nil
}

// hello performs the handshake on ws.
func (e *Executor) hello(ctx context.Context, ws *websocket.Conn) error {
	ctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
	defer cancel()
	data, err := protocol.Encode(&protocol.HelloMessage{ID: "hello", Version: protocol.Version, Token: e.cfg.Token})
	if err != nil {
		return err
	}
	if err := ws.Write(ctx, websocket.MessageText, data); err != nil {
		return connLost(err, "the hello to %s failed", e.url)
	}
	typ, data, err := ws.Read(ctx)
	if err != nil {
		return connLost(nil, "%s did not answer the hello: %s", e.url, describeClose(err))
	}
	if typ != websocket.MessageText {
		return protocol.Errorf(protocol.CodeMalformedMessage, "remote: %s answered the hello with a binary frame", e.url)
	}
	m, err := protocol.DecodeLimit(data, e.cfg.maxFrame)
	if err != nil {
		return fmt.Errorf("remote: the answer of %s to the hello: %w", e.url, err)
	}
	switch m := m.(type) {
	case *protocol.HelloAckMessage:
		return protocol.AssertCompatible(m.Version, protocol.Version)
	case *protocol.ErrorMessage:
		return m.Err()
	}
	return protocol.Errorf(protocol.CodeMalformedMessage,
		"remote: %s answered the hello with a %s message", e.url, m.Type())
}

// usable reports whether s takes new work. Under e.mu.
func (s *session) usable() bool { return !s.dead && !s.retired && !s.closing }

// idle reports whether s has nothing in flight and retains nothing.
// Under e.mu.
func (s *session) idle() bool { return len(s.pending) == 0 && len(s.retained) == 0 }

// register gives c an id on s and records it in flight. Under e.mu.
func (s *session) register(c *call) {
	s.seq++
	c.id = strconv.FormatUint(s.seq, 10)
	s.pending[c.id] = c
}

// closeIfIdle starts closing s when it is retired and idle. Under e.mu.
func (s *session) closeIfIdle() {
	if s.retired && !s.closing && !s.dead && s.idle() && !s.e.closed {
		s.closing = true
		s.log.Debug("closing a retired session")
		s.e.wg.Go(func() { s.closeSocket("retired") })
	}
}

// closeSocket closes the socket with the close handshake; the read loop
// then ends and the session dies.
func (s *session) closeSocket(reason string) {
	_ = s.ws.Close(websocket.StatusNormalClosure, reason)
	s.cancel(errClosed)
}

// readLoop reads the server's frames until the session dies.
func (s *session) readLoop() {
	for {
		typ, data, err := s.ws.Read(s.ctx)
		if err != nil {
			s.die(err)
			return
		}
		if typ != websocket.MessageText {
			s.log.Warn("ignored a binary frame")
			continue
		}
		m, err := protocol.DecodeLimit(data, s.e.cfg.maxFrame)
		if err != nil {
			s.log.Warn("ignored a frame that is not a message", "err", err)
			continue
		}
		s.handle(m)
	}
}

// handle acts on one message of the server. It never blocks.
func (s *session) handle(m protocol.Message) {
	switch m := m.(type) {
	case *protocol.ResultMessage:
		s.deliver(m.ID, answer{res: m})
	case *protocol.ErrorMessage:
		if m.ID == "" {
			s.log.Warn("the server reported an error", "code", m.Code, "message", m.Message)
			return
		}
		s.deliver(m.ID, answer{err: m.Err(), refused: true})
	case *protocol.DispatchMessage:
		c := s.lookup(m.ID)
		s.e.wg.Go(func() { s.answerDispatch(c, m) })
	case *protocol.FetchMessage:
		c := s.lookup(m.ID)
		s.e.wg.Go(func() { s.answerFetch(c, m) })
	default:
		s.log.Warn("ignored an unexpected message", "type", m.Type(), "id", m.CorrelationID())
	}
}

// lookup returns the request id in flight, or nil.
func (s *session) lookup(id string) *call {
	s.e.mu.Lock()
	defer s.e.mu.Unlock()
	return s.pending[id]
}

// deliver hands a, the answer to the request id, to its caller, keeps
// the execution a result retained, and retires s when its server is
// draining.
func (s *session) deliver(id string, a answer) {
	e := s.e
	e.mu.Lock()
	c := s.pending[id]
	if c == nil {
		orphan := a.res != nil && a.res.ExecutionID != "" && !s.dead && !s.closing
		var closeID string
		if orphan {
			s.seq++
			closeID = strconv.FormatUint(s.seq, 10)
		}
		e.mu.Unlock()
		s.log.Debug("dropped an answer nobody waits for", "id", id)
		if orphan { // a retention nobody will read: release it
			msg := &protocol.CloseHandlesMessage{ID: closeID, ExecutionID: a.res.ExecutionID}
			if data, err := protocol.Encode(msg); err == nil {
				e.wg.Go(func() { _ = s.send(s.ctx, data) })
			}
		}
		return
	}
	delete(s.pending, id)
	if a.res != nil && a.res.ExecutionID != "" && c.kind != kindInvoke && c.kind != kindClose {
		e.retain(s, a.res.ExecutionID, c.h)
	}
	draining := (a.res != nil && a.res.Error != nil && a.res.Error.Code == protocol.CodeSuspended) ||
		(a.refused && protocol.CodeOf(a.err) == protocol.CodeShuttingDown)
	if draining && !s.retired {
		s.log.Info("the server is draining: retiring the session")
		e.retireLocked(s)
	}
	s.closeIfIdle()
	e.mu.Unlock()
	c.finish(a, errRunEnded)
}

// unregister forgets c, whose caller gave up on it or could not send it.
func (s *session) unregister(c *call, cause error) {
	s.e.mu.Lock()
	if s.pending[c.id] == c {
		delete(s.pending, c.id)
	}
	s.closeIfIdle()
	s.e.mu.Unlock()
	c.cancel(cause)
}

// die ends s: its requests in flight fail, its retained executions are
// forgotten, and the Executor opens another session for the next call.
func (s *session) die(cause error) {
	e := s.e
	e.mu.Lock()
	if s.dead {
		e.mu.Unlock()
		return
	}
	s.dead = true
	pending := s.pending
	s.pending = map[string]*call{}
	for id := range s.retained {
		e.forgetLocked(id)
	}
	delete(e.sessions, s)
	byUs, closed := s.closing, e.closed
	var lost error
	if !byUs && !closed {
		lost = connLost(nil, "the connection to %s was lost: %s", e.url, describeClose(cause))
	}
	if e.current == s {
		e.current = nil
		if lost != nil && websocket.CloseStatus(cause) != websocket.StatusGoingAway {
			e.lost = lost
		}
	}
	e.mu.Unlock()

	s.cancel(cause)
	if !byUs {
		_ = s.ws.CloseNow()
	}
	switch {
	case lost != nil && len(pending) > 0:
		s.log.Warn("session lost", "cause", describeClose(cause), "requests", len(pending))
	case lost != nil:
		s.log.Info("session closed by the server", "cause", describeClose(cause))
	default:
		s.log.Debug("session closed")
	}
	err := lost
	if err == nil {
		err = errClosed
	}
	for _, c := range pending {
		c.finish(answer{err: fmt.Errorf("%w (the %s request %s was in flight)", err, c.kind, c.id)}, err)
	}
}

// writeLoop writes the queued frames until the session dies.
func (s *session) writeLoop() {
	for {
		select {
		case <-s.ctx.Done():
			return
		case data := <-s.out:
			s.wmu.Lock()
			err := s.write(data)
			s.queued.Add(-1)
			s.wmu.Unlock()
			if err != nil {
				return
			}
		}
	}
}

// write writes one frame; a failure kills the session. The caller holds
// wmu.
func (s *session) write(data []byte) error {
	ctx, cancel := context.WithTimeout(s.ctx, writeTimeout)
	err := s.ws.Write(ctx, websocket.MessageText, data)
	cancel()
	if err != nil {
		s.die(fmt.Errorf("writing a frame: %w", err))
		return connLost(err, "the connection to %s is closed", s.e.url)
	}
	return nil
}

// send writes data at once when nothing is queued before it (saving the
// hand-over to writeLoop), else queues it. It fails when the session
// dies or ctx ends first; the queue is bounded, and a frame that cannot
// be written within writeTimeout kills the session, so send never waits
// much longer.
func (s *session) send(ctx context.Context, data []byte) error {
	if s.ctx.Err() == nil && s.queued.Load() == 0 && s.wmu.TryLock() {
		if s.queued.Load() == 0 {
			err := s.write(data)
			s.wmu.Unlock()
			return err
		}
		s.wmu.Unlock()
	}
	s.queued.Add(1)
	select {
	case s.out <- data:
		return nil
	case <-s.ctx.Done():
		s.queued.Add(-1)
		return connLost(context.Cause(s.ctx), "the connection to %s is closed", s.e.url)
	case <-ctx.Done():
		s.queued.Add(-1)
		return context.Cause(ctx)
	}
}

// answerDispatch answers one tool call of c (nil: a request this side
// no longer waits for).
func (s *session) answerDispatch(c *call, m *protocol.DispatchMessage) {
	env := protocol.ExecutionCompletedEnvelope
	if c != nil {
		env = runDispatch(c.ctx, c.h.dispatch, m.Provider, m.Tool, m.Args)
	}
	msg := &protocol.DispatchResultMessage{ID: m.ID, CallID: m.CallID, Envelope: env}
	data, err := protocol.Encode(msg)
	if err == nil && len(data) > s.e.cfg.maxFrame {
		err = fmt.Errorf("its answer is %d bytes, over the frame limit of %d bytes", len(data), s.e.cfg.maxFrame)
	}
	if err != nil {
		msg.Envelope = protocol.ErrorEnvelope(fmt.Sprintf("tool %s.%s: %v", m.Provider, m.Tool, err))
		if data, err = protocol.Encode(msg); err != nil {
			return
		}
	}
	_ = s.send(s.ctx, data) // an answer nobody waits for is dropped by the server
}

// runDispatch calls dispatch, turning a nil one into the not-found
// envelope, a panic into an error envelope, and an answer that is not an
// envelope into one.
func runDispatch(ctx context.Context, dispatch protocol.DispatchFunc, provider, tool, args string) (env string) {
	if dispatch == nil {
		return protocol.ErrorEnvelope(fmt.Sprintf("Tool %q not found", provider+"."+tool))
	}
	defer func() {
		if p := recover(); p != nil {
			env = protocol.ErrorEnvelope(fmt.Sprintf("tool %s.%s panicked: %v", provider, tool, p))
		}
	}()
	env = dispatch(ctx, provider, tool, args)
	if _, _, _, err := protocol.ParseEnvelope(env); err != nil {
		return protocol.ErrorEnvelope(fmt.Sprintf("tool %s.%s answered with %v", provider, tool, err))
	}
	return env
}

// answerFetch performs one stub fetch of c (nil: a request this side no
// longer waits for).
func (s *session) answerFetch(c *call, m *protocol.FetchMessage) {
	msg := &protocol.FetchResultMessage{ID: m.ID, CallID: m.CallID}
	if c == nil {
		msg.Error = protocol.ExecutionCompletedMessage
	} else if resp, err := runFetch(c.ctx, c.h.fetch, m.Request); err != nil {
		msg.Error = err.Error()
	} else {
		msg.Response = &resp
	}
	data, err := protocol.Encode(msg)
	if err == nil && len(data) > s.e.cfg.maxFrame {
		err = fmt.Errorf("the response is %d bytes, over the frame limit of %d bytes", len(data), s.e.cfg.maxFrame)
	}
	if err != nil {
		msg.Response, msg.Error = nil, fmt.Sprintf("fetch %s: %v", m.Request.URL, err)
		if data, err = protocol.Encode(msg); err != nil {
			return
		}
	}
	_ = s.send(s.ctx, data)
}

// runFetch calls fetch, turning a nil one and a panic into errors, and
// an error without a text into one with.
func runFetch(ctx context.Context, fetch protocol.FetchFunc, req protocol.OutboundRequest) (resp protocol.OutboundResponse, err error) {
	if fetch == nil {
		return resp, errors.New("fetch is not available: the request gives no Fetch function for the outbound mode stub")
	}
	defer func() {
		if p := recover(); p != nil {
			resp, err = protocol.OutboundResponse{}, fmt.Errorf("fetch %s panicked: %v", req.URL, p)
		}
	}()
	resp, err = fetch(ctx, req)
	if err != nil && err.Error() == "" {
		err = fmt.Errorf("fetch %s failed", req.URL)
	}
	return resp, err
}
