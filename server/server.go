package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/go-codemode/codemode/protocol"
)

// Backend runs executions for the server: in process on the runtime, or
// in worker processes. Its methods are called concurrently, at most
// MaxWorkers × ExecutionsPerWorker of Execute, Resume and InvokeHandle at
// once.
//
// The context of a call ends when the client cancels the request, when
// its connection goes away, when the server gives up on it (its timeout,
// Grace and TerminationDelay passed) or at the end of a drain; the
// backend should then return promptly, with whatever result it has (its
// code is then replaced by the reason, CANCELLED or SHUTTING_DOWN). The
// context carries the connection's [Identity].
//
// The request's Dispatch and Fetch are the server's: they send the call
// to the client and wait for its answer. Once the run has ended they
// answer {"error":"Execution has already completed."} (Fetch: an error
// of that text) without reaching the client. The tool calls of a handle
// invocation go to the Dispatch and Fetch of the request that retained
// the execution: the backend must pass them a context derived from
// InvokeHandle's, by which the server sends them with the invocation's
// id (without it, the server picks the most recent invocation in flight
// of that execution).
//
// A failure of the backend itself is its error, best an *protocol.Error
// with a code (QUEUE_OVERFLOW, WORKER_CRASHED, UNKNOWN_EXECUTION, ...);
// an error without one is answered as INTERNAL. The failures of the
// program are in the result.
type Backend interface {
	// Execute runs one program.
	Execute(ctx context.Context, req protocol.ExecuteRequest) (protocol.ExecuteResult, error)
	// Resume continues a run saved by a SUSPENDED result.
	Resume(ctx context.Context, req protocol.ResumeRequest) (protocol.ExecuteResult, error)
	// InvokeHandle calls the function at path handle of the retained
	// execution executionID; argsJSON is as protocol.ParseDispatchArguments
	// reads it.
	InvokeHandle(ctx context.Context, executionID, handle, argsJSON string) (protocol.ExecuteResult, error)
	// CloseHandles releases a retained execution.
	CloseHandles(ctx context.Context, executionID string) error
}

// CrashReporter is a [Backend] that reports its workers' deaths. The
// server calls SetCrashHook once, from New, and counts each call of the
// hook in codemode_worker_crashes_total. A backend that is not a
// CrashReporter has its WORKER_CRASHED results counted instead.
type CrashReporter interface {
	SetCrashHook(hook func())
}

// Server is the WebSocket executor server behind `codemode serve`: it
// speaks the protocol of docs/protocol.md to its clients and runs their
// programs through a [Backend]. Its methods are safe for concurrent use.
type Server struct {
	cfg     Config
	backend Backend
	log     *slog.Logger
	metrics *metrics
	sched   *scheduler
	mux     *http.ServeMux

	countCrashResults bool // the backend is not a CrashReporter

	accepting atomic.Bool // new connections' hellos are accepted
	closing   atomic.Bool // Shutdown passed its delay: no new work anywhere
	connSeq   atomic.Uint64

	mu       sync.Mutex
	conns    map[*conn]struct{}
	handlers tracker // serveWS calls in progress
	runs     tracker // requests in flight, over every connection
	http     *http.Server
	shutdown chan struct{} // closed when Shutdown begins
	finished chan struct{} // closed when Shutdown has finished
	once     sync.Once
	done     bool // Shutdown has begun (under mu)

	backendCalls sync.WaitGroup // backend calls, including abandoned ones
}

// New returns a server running programs through backend. Zero fields of
// cfg take their defaults.
func New(cfg Config, backend Backend) (*Server, error) {
	if backend == nil {
		return nil, errors.New("server: New needs a Backend")
	}
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	cfg = cfg.withDefaults()
	s := &Server{
		cfg:      cfg,
		backend:  backend,
		log:      cfg.Logger,
		metrics:  newMetrics(),
		conns:    make(map[*conn]struct{}),
		shutdown: make(chan struct{}),
		finished: make(chan struct{}),
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	capacity := cfg.MaxWorkers * cfg.ExecutionsPerWorker
	s.sched = newScheduler(capacity, cfg.MaxQueue, func(n int) { s.metrics.queueDepth.Set(float64(n)) })
	s.metrics.slots.Set(float64(capacity))
	if cr, ok := backend.(CrashReporter); ok {
		cr.SetCrashHook(s.metrics.crashes.Inc)
	} else {
		s.countCrashResults = true
	}
	s.accepting.Store(true)

	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	s.mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if !s.Accepting() {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("draining\n"))
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	})
	s.mux.Handle("GET /metrics", promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}))
	s.mux.HandleFunc("/{$}", s.serveWS)
	return s, nil
}

// Config returns the server's configuration, defaults filled in.
func (s *Server) Config() Config { return s.cfg }

// Registry returns the server's private Prometheus registry, which
// /metrics exposes, so that a backend can add its own series.
func (s *Server) Registry() *prometheus.Registry { return s.metrics.reg }

// Handler returns the server's HTTP handler: WebSocket upgrades at "/",
// GET /healthz, /readyz and /metrics. An upgrade from a browser page of
// another origin is refused (the websocket library's default); clients
// outside browsers send no Origin and are not concerned.
func (s *Server) Handler() http.Handler { return s.mux }

// Serve accepts connections on ln until Shutdown, and then returns
// http.ErrServerClosed. It may be called once.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.done {
		s.mu.Unlock()
		_ = ln.Close()
		return http.ErrServerClosed
	}
	if s.http != nil {
		s.mu.Unlock()
		return errors.New("server: Serve called twice")
	}
	s.http = &http.Server{Handler: s.mux, ReadHeaderTimeout: s.cfg.HandshakeTimeout,
		ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelWarn)}
	hs := s.http
	s.mu.Unlock()
	s.log.Info("serving", "addr", ln.Addr().String())
	return hs.Serve(ln)
}

// ListenAndServe listens on cfg.Addr and serves until ctx ends, then
// shuts down (see Shutdown) and returns nil, or the error that stopped
// it.
func (s *Server) ListenAndServe(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	errc := make(chan error, 1)
	go func() { errc <- s.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	err = s.Shutdown(context.WithoutCancel(ctx))
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// Accepting reports whether the server accepts new connections: true
// until StopAccepting or Shutdown.
func (s *Server) Accepting() bool { return s.accepting.Load() }

// StopAccepting turns new connections away: /readyz answers 503 and a
// new connection's hello is answered SHUTTING_DOWN. Open connections
// keep working.
func (s *Server) StopAccepting() {
	s.accepting.Store(false)
	s.metrics.draining.Set(1)
}

// ResumeAccepting undoes StopAccepting. It does nothing once Shutdown
// has begun.
func (s *Server) ResumeAccepting() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return
	}
	s.accepting.Store(true)
	s.metrics.draining.Set(0)
}

// errShutdown is the answer of a run the end of a drain cancelled.
var errShutdown = protocol.NewError(protocol.CodeShuttingDown,
	"the server shut down before the execution finished")

// errRefused is the answer of new work while the server drains.
var errRefused = protocol.NewError(protocol.CodeShuttingDown,
	"the server is shutting down and takes no new work; send the request to another server")

// Shutdown drains the server:
//
//  1. It stops accepting: /readyz answers 503, new connections' hellos
//     SHUTTING_DOWN.
//  2. It keeps serving the open connections for ShutdownDelay.
//  3. It refuses new requests (SHUTTING_DOWN) and waits ShutdownDrain for
//     the requests in flight to be answered.
//  4. It answers the requests still in the queue SHUTTING_DOWN (they never
//     started), and asks the remaining runs to save themselves (it closes
//     their requests' Suspend): a run waiting on the host comes back
//     SUSPENDED with its state, which its client resumes elsewhere.
//  5. After SuspendWait it cancels the runs left, which are answered with
//     a result of code SHUTTING_DOWN (within TerminationDelay).
//  6. It closes every connection (status 1001), releasing the retained
//     executions through the backend, and the listener of Serve.
//
// When ctx ends first, Shutdown skips to 5 without waiting and closes
// the connections at once; it then returns ctx's error. Later calls wait
// for the first to finish.
func (s *Server) Shutdown(ctx context.Context) error {
	first := false
	s.once.Do(func() { first = true })
	if !first {
		select {
		case <-s.finished:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	defer close(s.finished)

	s.mu.Lock()
	s.done = true
	hs := s.http
	s.mu.Unlock()
	s.StopAccepting()
	close(s.shutdown)
	s.log.Info("draining", "delay", s.cfg.ShutdownDelay, "drain", s.cfg.ShutdownDrain)

	sleep(ctx, s.cfg.ShutdownDelay)
	s.closing.Store(true)
	s.mu.Lock()
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	// Connections that upgrade from now on are refused at their hello.
	for _, c := range conns {
		c.stopTaking(errRefused)
	}
	cfg := s.cfg
	if !waitZero(ctx, s.runs.zero(), cfg.ShutdownDrain) {
		s.sched.stop(errRefused) // the queued requests never started
		for _, c := range conns {
			c.forRuns(func(r *run) { r.askSuspend() })
		}
		if !waitZero(ctx, s.runs.zero(), cfg.SuspendWait) {
			s.log.Info("cancelling the runs left")
			for _, c := range conns {
				c.forRuns(func(r *run) { r.cancel(errShutdown) })
			}
			waitZero(ctx, s.runs.zero(), cfg.TerminationDelay+time.Second)
		}
	}
	var closing sync.WaitGroup // a full send queue may hold a close up
	for _, c := range conns {
		if ctx.Err() != nil {
			c.abort(context.Cause(ctx))
			continue
		}
		closing.Go(func() { c.send(frame{close: websocket.StatusGoingAway, reason: "server shutting down"}) })
	}
	select {
	case <-s.handlers.zero():
	case <-ctx.Done():
		s.mu.Lock()
		for c := range s.conns {
			c.abort(context.Cause(ctx))
		}
		s.mu.Unlock()
	}
	closing.Wait()
	var err error
	if hs != nil {
		err = hs.Shutdown(ctx)
	}
	if ctx.Err() != nil {
		err = ctx.Err()
	}
	s.log.Info("shut down", "err", err)
	return err
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// waitZero waits until ch is closed, d passes or ctx ends, and reports
// whether ch was closed.
func waitZero(ctx context.Context, ch <-chan struct{}, d time.Duration) bool {
	select {
	case <-ch:
		return true
	default:
	}
	if d <= 0 || ctx.Err() != nil {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

// serveWS upgrades one connection and serves it until it closes.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	s.handlers.add()
	defer s.handlers.done()
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		s.log.Debug("upgrade failed", "remote", r.RemoteAddr, "err", err)
		return
	}
	c := newConn(s, ws, r)
	s.mu.Lock()
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	s.metrics.connections.Inc()
	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		s.metrics.connections.Dec()
	}()
	c.serve()
}

// tracker counts things in progress and says when none is.
type tracker struct {
	mu sync.Mutex
	n  int
	ch chan struct{} // closed when n is zero; nil is closed
}

var closedChan = func() chan struct{} { ch := make(chan struct{}); close(ch); return ch }()

func (t *tracker) add() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n == 0 {
		t.ch = make(chan struct{})
	}
	t.n++
}

func (t *tracker) done() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.n--
	if t.n == 0 {
		close(t.ch)
	}
}

// zero returns a channel closed when nothing is in progress.
func (t *tracker) zero() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n == 0 {
		return closedChan
	}
	return t.ch
}
