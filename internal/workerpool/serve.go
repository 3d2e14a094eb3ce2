package workerpool

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/go-codemode/codemode/protocol"
)

// Executor is what a worker runs requests on: the in-process
// codemode.Executor (Runtime.Executor) is one.
type Executor interface {
	protocol.Executor
	protocol.Resumer
}

// Serve is the worker side of the pipe: it reads frames from r (the
// pool's requests), runs each request concurrently on ex, and writes to
// w the runs' tool calls and stub fetches (answered by the pool), their
// memory reports and their results. `codemode worker` calls it with
// os.Stdin and os.Stdout.
//
// Serve returns nil when r ends between frames (the pool closed the
// pipe: it is done with this worker), after cancelling the runs still
// going and waiting for them; an error when a frame from the pool is
// malformed, a write to w fails, or ctx ends (the goroutine reading r
// then stays blocked until r returns). It does not close ex.
func Serve(ctx context.Context, r io.Reader, w io.Writer, ex Executor) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &session{
		ctx:     ctx,
		cancel:  cancel,
		ex:      ex,
		w:       w,
		runs:    map[string]*serveRun{},
		pending: map[string]chan protocol.Message{},
	}

	type frameOrErr struct {
		frame []byte
		err   error
	}
	frames := make(chan frameOrErr)
	go func() {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			b, err := readFrame(br, maxFrame)
			select {
			case frames <- frameOrErr{b, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()

	var err error
loop:
	for {
		select {
		case f := <-frames:
			if f.err != nil {
				if f.err != io.EOF {
					err = fmt.Errorf("workerpool: reading from the pool: %w", f.err)
				}
				break loop
			}
			if err = s.handle(f.frame); err != nil {
				err = fmt.Errorf("workerpool: a message from the pool: %w", err)
				break loop
			}
		case <-ctx.Done():
			err = ctx.Err()
			break loop
		}
	}
	cancel()
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.writeErr != nil {
		return fmt.Errorf("workerpool: writing to the pool: %w", s.writeErr)
	}
	return err
}

// session is one Serve.
type session struct {
	ctx    context.Context
	cancel context.CancelFunc
	ex     Executor
	wg     sync.WaitGroup // the goroutines of requests

	wmu sync.Mutex // serializes frames to w
	w   io.Writer

	mu       sync.Mutex
	runs     map[string]*serveRun             // requests in flight, by id
	pending  map[string]chan protocol.Message // tool calls and fetches waiting on the pool, by callId
	nextCall int
	writeErr error
}

// serveRun is a request in flight on the worker.
type serveRun struct {
	cancel      context.CancelFunc
	suspend     chan struct{} // nil unless the request had one
	suspendOnce sync.Once
}

// requestKey is the context key of the pipe id of the request a context
// belongs to. The tool calls of a retained execution's invocation reach
// the forwarding function made for the run that retained it; the id in
// their context sends them to the pool as the invocation's.
type requestKey struct{}

func requestID(ctx context.Context, fallback string) string {
	if id, ok := ctx.Value(requestKey{}).(string); ok {
		return id
	}
	return fallback
}

// handle acts on one frame from the pool. Its error ends the session:
// the pool never sends a malformed frame, so one means the pipe is
// broken.
func (s *session) handle(frame []byte) error {
	msg, err := decodeMessage(frame)
	if err != nil {
		return err
	}
	switch m := msg.(type) {
	case *startMessage:
		return s.start(m)
	case *suspendMessage:
		s.mu.Lock()
		r := s.runs[m.ID]
		s.mu.Unlock()
		if r != nil && r.suspend != nil {
			r.suspendOnce.Do(func() { close(r.suspend) })
		}
	case *protocol.CancelMessage:
		s.mu.Lock()
		r := s.runs[m.ID]
		s.mu.Unlock()
		if r != nil {
			r.cancel()
		}
	case *protocol.DispatchResultMessage:
		s.deliver(m.CallID, m)
	case *protocol.FetchResultMessage:
		s.deliver(m.CallID, m)
	case *protocol.InvokeHandleMessage:
		rctx, _, err := s.register(m.ID, false)
		if err != nil {
			return err
		}
		s.spawn(m.ID, func() (protocol.ExecuteResult, error) {
			return s.ex.InvokeHandle(rctx, m.ExecutionID, m.Handle, m.Args)
		})
	case *protocol.CloseHandlesMessage:
		rctx, _, err := s.register(m.ID, false)
		if err != nil {
			return err
		}
		s.spawn(m.ID, func() (protocol.ExecuteResult, error) {
			return protocol.ExecuteResult{}, s.ex.CloseHandles(rctx, m.ExecutionID)
		})
	default:
		return fmt.Errorf("unexpected %q message", msgType(msg))
	}
	return nil
}

// start begins an execute or a resume.
func (s *session) start(m *startMessage) error {
	inner, err := protocol.DecodeLimit(m.Request, maxFrame)
	if err != nil {
		return err
	}
	if inner.CorrelationID() != m.ID {
		return fmt.Errorf("start %q carries a request of id %q", m.ID, inner.CorrelationID())
	}
	rctx, run, err := s.register(m.ID, m.Suspend)
	if err != nil {
		return err
	}
	var dispatch protocol.DispatchFunc
	if m.Dispatch {
		dispatch = s.dispatcher(m.ID)
	}
	var fetch protocol.FetchFunc
	if m.Fetch {
		fetch = s.fetcher(m.ID)
	}
	var suspend <-chan struct{}
	if run.suspend != nil {
		suspend = run.suspend
	}
	switch req := inner.(type) {
	case *protocol.ExecuteMessage:
		s.spawn(m.ID, func() (protocol.ExecuteResult, error) {
			return s.ex.Execute(rctx, protocol.ExecuteRequest{
				Code:           req.Code,
				Providers:      req.Providers,
				Dispatch:       dispatch,
				Modules:        req.Modules,
				Timeout:        req.Options.Timeout,
				CountHostWaits: req.Options.CountHostWaits,
				Outbound:       req.Options.Outbound,
				Fetch:          fetch,
				RetainHandles:  req.Options.RetainHandles,
				Suspend:        suspend,
			})
		})
	case *protocol.ResumeMessage:
		s.spawn(m.ID, func() (protocol.ExecuteResult, error) {
			return s.ex.Resume(rctx, protocol.ResumeRequest{
				State:     req.State,
				Providers: req.Providers,
				Dispatch:  dispatch,
				Fetch:     fetch,
				Timeout:   req.Options.Timeout,
				Suspend:   suspend,
			})
		})
	default:
		s.unregister(m.ID)
		return fmt.Errorf("start %q carries a %q message", m.ID, inner.Type())
	}
	return nil
}

// register records the request id and returns its record and its
// context, which carries the id (see requestKey) and ends when the
// request is cancelled or the session ends. A suspendable request gets
// the channel that a suspend message closes.
func (s *session) register(id string, suspendable bool) (context.Context, *serveRun, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.runs[id]; dup {
		return nil, nil, fmt.Errorf("request id %q is already in flight", id)
	}
	ctx, cancel := context.WithCancel(context.WithValue(s.ctx, requestKey{}, id))
	r := &serveRun{cancel: cancel}
	if suspendable {
		r.suspend = make(chan struct{})
	}
	s.runs[id] = r
	return ctx, r, nil
}

func (s *session) unregister(id string) {
	s.mu.Lock()
	r := s.runs[id]
	delete(s.runs, id)
	s.mu.Unlock()
	if r != nil {
		r.cancel()
	}
}

// spawn runs the request id on a goroutine of its own and answers it:
// the worker's memory, then its result or its error.
func (s *session) spawn(id string, run func() (protocol.ExecuteResult, error)) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		res, err := run()
		s.unregister(id)
		s.send(readMemory())
		if err != nil {
			s.send(protocol.NewErrorMessage(id, err))
			return
		}
		b, err := protocol.Encode(res.ResultMessage(id))
		switch {
		case err != nil:
			s.send(protocol.NewErrorMessage(id, protocol.Errorf(protocol.CodeInternal,
				"workerpool: the worker cannot encode the result: %v", err)))
			return
		case len(b) > maxFrame:
			s.send(&protocol.ResultMessage{ID: id, Error: protocol.Errorf(protocol.CodePayloadTooLarge,
				"The result is %d bytes, over the %d bytes a worker may send.", len(b), maxFrame)})
			return
		}
		s.write(b)
	}()
}

// send writes m as one frame. A message that does not encode is
// reported as an error; a failed write ends the session.
func (s *session) send(m any) error {
	b, err := encodeMessage(m)
	if err != nil {
		return err
	}
	if len(b) > maxFrame {
		return protocol.Errorf(protocol.CodePayloadTooLarge, "a message of %d bytes exceeds the frame limit of %d bytes", len(b), maxFrame)
	}
	return s.write(b)
}

func (s *session) write(b []byte) error {
	s.wmu.Lock()
	err := writeFrame(s.w, b)
	s.wmu.Unlock()
	if err != nil {
		s.mu.Lock()
		if s.writeErr == nil {
			s.writeErr = err
		}
		s.mu.Unlock()
		s.cancel()
	}
	return err
}

// ask sends the message build makes for a fresh callId and waits for
// the pool's answer of that callId, or for ctx to end.
func (s *session) ask(ctx context.Context, build func(callID string) protocol.Message) (protocol.Message, error) {
	ch := make(chan protocol.Message, 1)
	s.mu.Lock()
	s.nextCall++
	callID := "c" + strconv.Itoa(s.nextCall)
	s.pending[callID] = ch
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.pending, callID)
		s.mu.Unlock()
	}()
	if err := s.send(build(callID)); err != nil {
		return nil, err
	}
	select {
	case m := <-ch:
		return m, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// deliver hands the pool's answer to the call waiting for it; an
// answer nobody waits for any more is dropped.
func (s *session) deliver(callID string, m protocol.Message) {
	s.mu.Lock()
	ch := s.pending[callID]
	delete(s.pending, callID)
	s.mu.Unlock()
	if ch != nil {
		ch <- m
	}
}

// dispatcher is the Dispatch of a run: each tool call goes to the pool
// as a dispatch message, and its envelope comes back.
func (s *session) dispatcher(runID string) protocol.DispatchFunc {
	return func(ctx context.Context, provider, tool, args string) string {
		m, err := s.ask(ctx, func(callID string) protocol.Message {
			return &protocol.DispatchMessage{ID: requestID(ctx, runID), CallID: callID,
				Provider: provider, Tool: tool, Args: args}
		})
		switch {
		case ctx.Err() != nil:
			return protocol.ExecutionCompletedEnvelope
		case err != nil:
			return protocol.ErrorEnvelope(fmt.Sprintf("The call of %s.%s could not reach the host: %v", provider, tool, err))
		}
		if r, ok := m.(*protocol.DispatchResultMessage); ok {
			return r.Envelope
		}
		return protocol.ErrorEnvelope(fmt.Sprintf("The host answered the call of %s.%s with a %s message.", provider, tool, m.Type()))
	}
}

// fetcher is the Fetch of a run in the stub mode: each request goes to
// the pool as a fetch message.
func (s *session) fetcher(runID string) protocol.FetchFunc {
	return func(ctx context.Context, req protocol.OutboundRequest) (protocol.OutboundResponse, error) {
		m, err := s.ask(ctx, func(callID string) protocol.Message {
			return &protocol.FetchMessage{ID: requestID(ctx, runID), CallID: callID, Request: req}
		})
		if err != nil {
			return protocol.OutboundResponse{}, err
		}
		r, ok := m.(*protocol.FetchResultMessage)
		switch {
		case !ok:
			return protocol.OutboundResponse{}, fmt.Errorf("the host answered a fetch with a %s message", m.Type())
		case r.Response == nil:
			return protocol.OutboundResponse{}, errors.New(r.Error)
		}
		return *r.Response, nil
	}
}

// msgType names a decoded message for errors.
func msgType(m any) string {
	switch m := m.(type) {
	case protocol.Message:
		return string(m.Type())
	case *startMessage:
		return typeStart
	case *suspendMessage:
		return typeSuspend
	case *memoryMessage:
		return typeMemory
	}
	return fmt.Sprintf("%T", m)
}
