package workerpool

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/go-codemode/codemode/protocol"
)

// worker is one worker process, as the pool sees it. Fields after mu
// in the comment's sense (everything but p, id, the pipes and wmu) are
// guarded by Pool.mu.
type worker struct {
	p  *Pool
	id string

	cmd    *exec.Cmd
	pid    int
	stdin  *os.File // the pool's end of the worker's stdin
	stdout *os.File // the pool's end of the worker's stdout
	stderr *stderrTail
	wmu    sync.Mutex // serializes frames to stdin

	starting   bool // the process is being started
	retiring   bool // takes no new runs
	stopping   bool // stdin is closed: the worker is to exit
	dead       bool // the process is reaped
	running    int  // runs (executions, resumes) in flight
	executions int  // runs started
	retained   int  // retained executions held
	memory     uint64
	calls      map[string]*call // requests in flight, by pipe id
	// fault and killReason say why a worker that dies was unwell: it
	// sent a bad frame, or the pool killed it.
	fault      string
	killReason string
	killTimer  *time.Timer
}

// start starts the process and its reader goroutine (counted in wg by
// newWorkerLocked).
func (w *worker) start() error {
	cfg := w.p.cfg
	cmd := exec.Command(cfg.Command[0], cfg.Command[1:]...)
	cmd.Env = cfg.Env
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, w.stderr
	// WaitDelay bounds the copy of stderr after the process exits, when
	// something it started still holds the pipe.
	cmd.WaitDelay = cfg.TerminationDelay
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return err
	}
	w.cmd, w.stdin, w.stdout = cmd, inW, outR
	w.p.mu.Lock()
	w.pid = cmd.Process.Pid
	w.p.mu.Unlock()
	go w.readLoop()
	return nil
}

// stopLocked asks the worker to exit by closing its stdin, and kills it
// if it has not exited after TerminationDelay.
func (w *worker) stopLocked() {
	if w.stopping || w.dead || w.starting {
		return
	}
	w.stopping = true
	w.p.log.Debug("workerpool: stopping a worker", "worker", w.id, "pid", w.pid)
	_ = w.stdin.Close()
	w.killTimer = time.AfterFunc(w.p.cfg.TerminationDelay, func() {
		w.kill(fmt.Sprintf("it did not exit within %v of being asked to", w.p.cfg.TerminationDelay))
	})
}

// kill kills the process (SIGKILL), recording why for the crash
// message. Its reader then sees the pipe end and reaps it.
func (w *worker) kill(reason string) {
	w.p.mu.Lock()
	if w.dead {
		w.p.mu.Unlock()
		return
	}
	if w.killReason == "" {
		w.killReason = reason
	}
	pid := w.pid
	w.p.mu.Unlock()
	w.p.log.Warn("workerpool: killing a worker", "worker", w.id, "pid", pid, "reason", reason)
	_ = w.cmd.Process.Kill()
}

// send writes one frame to the worker.
func (w *worker) send(frame []byte) error {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	return writeFrame(w.stdin, frame)
}

// sendOrBreak writes one frame, and kills a worker whose pipe no longer
// takes it: its runs then fail as crashed. A worker asked to exit has
// its stdin closed on purpose; what is still sent to it is dropped.
func (w *worker) sendOrBreak(frame []byte) {
	if err := w.send(frame); err != nil {
		w.p.mu.Lock()
		stopping := w.stopping || w.dead
		w.p.mu.Unlock()
		if !stopping {
			w.kill("its stdin pipe broke: " + err.Error())
		}
	}
}

// sendMessage encodes and writes m; a message that does not encode is
// reported to the worker as err's text where the caller can.
func (w *worker) sendMessage(m any) error {
	b, err := encodeMessage(m)
	if err != nil {
		return err
	}
	if len(b) > maxFrame {
		return fmt.Errorf("%d bytes exceeds the frame limit of %d bytes", len(b), maxFrame)
	}
	w.sendOrBreak(b)
	return nil
}

// callList returns the requests in flight on w.
func (w *worker) callList() []*call {
	out := make([]*call, 0, len(w.calls))
	for _, c := range w.calls {
		out = append(out, c)
	}
	return out
}

// readLoop reads the worker's frames until its stdout ends or it sends
// garbage, then reaps the process and fails what it left.
func (w *worker) readLoop() {
	defer w.p.wg.Done()
	br := bufio.NewReaderSize(w.stdout, 64<<10)
	fault := ""
	for {
		frame, err := readFrame(br, maxFrame)
		if err != nil {
			if err != io.EOF && !errors.Is(err, os.ErrClosed) {
				fault = "it sent a broken frame: " + err.Error()
			}
			break
		}
		msg, err := decodeMessage(frame)
		if err == nil {
			err = w.handle(msg)
		}
		if err != nil {
			fault = "it sent a malformed message: " + err.Error()
			break
		}
	}
	w.p.mu.Lock()
	w.fault = fault
	stopping := w.stopping
	w.p.mu.Unlock()
	switch {
	case fault != "":
		w.kill(fault)
	case !stopping:
		// Its stdout ended unasked: it died, or it can no longer talk
		// and is of no use. (Killing a process that has exited changes
		// nothing; its exit status stays the reason.)
		_ = w.cmd.Process.Kill()
	}
	_ = w.stdout.Close()
	_ = w.stdin.Close()
	w.gone(w.cmd.Wait())
}

// handle acts on one message from the worker. Its error marks the
// worker as broken.
func (w *worker) handle(msg any) error {
	p := w.p
	switch m := msg.(type) {
	case *memoryMessage:
		p.mu.Lock()
		p.noteMemoryLocked(w, m)
		p.mu.Unlock()
	case *protocol.ResultMessage:
		p.mu.Lock()
		c := w.calls[m.ID]
		if c == nil {
			p.mu.Unlock()
			return nil // settled already: the pool closed
		}
		res := m.Result()
		var r reply
		switch c.kind {
		case kindRun:
			if res.ExecutionID != "" {
				res.ExecutionID = p.retainLocked(c, res.ExecutionID)
			}
			r.res = res
		case kindInvoke:
			if res.ExecutionID != "" {
				res.ExecutionID = w.id + "-" + res.ExecutionID
			}
			r.res = res
		}
		p.settleLocked(c, r)
		p.mu.Unlock()
	case *protocol.ErrorMessage:
		p.mu.Lock()
		c := w.calls[m.ID]
		if c != nil {
			p.settleLocked(c, reply{err: m.Err()})
		}
		p.mu.Unlock()
		if c == nil {
			p.log.Warn("workerpool: a worker reported an error", "worker", w.id, "id", m.ID, "code", m.Code, "message", m.Message)
		}
	case *protocol.DispatchMessage:
		c := w.hostCall(m.ID)
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			env := protocol.ExecutionCompletedEnvelope
			if c != nil {
				env = callDispatch(c.hostCtx, c.dispatch, m.Provider, m.Tool, m.Args)
			}
			if err := w.sendMessage(&protocol.DispatchResultMessage{ID: m.ID, CallID: m.CallID, Envelope: env}); err != nil {
				_ = w.sendMessage(&protocol.DispatchResultMessage{ID: m.ID, CallID: m.CallID,
					Envelope: protocol.ErrorEnvelope(fmt.Sprintf("The answer of %s.%s cannot reach the program: %v", m.Provider, m.Tool, err))})
			}
			w.hostCallDone(c)
		}()
	case *protocol.FetchMessage:
		c := w.hostCall(m.ID)
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			ans := &protocol.FetchResultMessage{ID: m.ID, CallID: m.CallID, Error: protocol.ExecutionCompletedMessage}
			if c != nil {
				ans = callFetch(c.hostCtx, c.fetch, m)
			}
			if err := w.sendMessage(ans); err != nil {
				_ = w.sendMessage(&protocol.FetchResultMessage{ID: m.ID, CallID: m.CallID,
					Error: "the response cannot reach the program: " + err.Error()})
			}
			w.hostCallDone(c)
		}()
	default:
		return fmt.Errorf("unexpected %q message", msgType(msg))
	}
	return nil
}

// hostCall returns the request a tool call or fetch of the pipe id
// belongs to, and stops its watchdog while the host answers; nil when
// the request is over (the call is answered "Execution has already
// completed.").
func (w *worker) hostCall(id string) *call {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	c := w.calls[id]
	if c != nil {
		w.p.hostWaitLocked(c, +1)
	}
	return c
}

func (w *worker) hostCallDone(c *call) {
	if c == nil {
		return
	}
	w.p.mu.Lock()
	w.p.hostWaitLocked(c, -1)
	w.p.mu.Unlock()
}

// gone handles the end of the process: the requests it left fail with
// WORKER_CRASHED, its retained executions are forgotten, and a death
// the pool did not ask for is a crash.
func (w *worker) gone(waitErr error) {
	p := w.p
	p.mu.Lock()
	w.dead = true
	if w.killTimer != nil {
		w.killTimer.Stop()
	}
	p.removeWorkerLocked(w)
	crashed := !w.stopping || len(w.calls) > 0
	reason := w.crashReason(waitErr)
	crash := protocol.NewError(protocol.CodeWorkerCrashed,
		fmt.Sprintf("The worker process running the execution died (%s).", reason))
	for _, c := range w.callList() {
		p.settleLocked(c, c.failure(crash))
	}
	for _, x := range p.retained {
		if x.w == w {
			p.dropRetainedLocked(x)
		}
	}
	p.signalLocked()
	hook := p.crashHook
	p.mu.Unlock()

	if !crashed {
		p.log.Debug("workerpool: worker exited", "worker", w.id, "pid", w.pid, "status", waitStatus(waitErr))
		return
	}
	p.log.Error("workerpool: worker crashed", "worker", w.id, "pid", w.pid, "reason", reason,
		"stderr", w.stderr.tail())
	if p.cfg.OnCrash != nil {
		p.cfg.OnCrash()
	}
	if hook != nil {
		hook()
	}
}

// crashReason says why the worker died, for the runs' error message:
// the bad frame it sent, why the pool killed it, or its exit status
// with the fatal error line of its stderr.
func (w *worker) crashReason(waitErr error) string {
	switch {
	case w.fault != "":
		return w.fault
	case w.killReason != "":
		return "killed: " + w.killReason
	}
	reason := waitStatus(waitErr)
	if f := w.stderr.fatalLine(); f != "" {
		reason += ": " + f
	}
	return reason
}

func waitStatus(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// callKind is the kind of a request in flight on a worker.
type callKind uint8

const (
	kindRun    callKind = iota // an execute or a resume: takes a slot
	kindInvoke                 // a handle invocation
	kindClose                  // a closeHandles
)

func (k callKind) String() string {
	return [...]string{"run", "invocation", "closeHandles"}[k]
}

// call is a request in flight on a worker. Fields from settled on are
// guarded by Pool.mu.
type call struct {
	id       string
	kind     callKind
	w        *worker
	dispatch protocol.DispatchFunc
	fetch    protocol.FetchFunc
	exec     *retainedExec // the execution an invocation calls
	// hostCtx is the context of the request's tool calls and fetches:
	// the caller's values, cancelled when the request ends or, once the
	// worker has been told, when the caller cancels (so that a tool
	// answering its cancellation cannot overtake the cancel frame).
	hostCtx    context.Context
	hostCancel context.CancelFunc
	done       chan reply // buffered: receives the one answer

	settled bool
	// The watchdog: limit is the active time the request may take;
	// spent is what it took before since, the start of the current
	// active stretch. While outstanding host calls are answered the
	// clock stops, unless countHostWaits.
	limit          time.Duration
	countHostWaits bool
	outstanding    int
	spent          time.Duration
	since          time.Time
	timer          *time.Timer
	gen            int
	cancelled      bool
	cancelTimer    *time.Timer
}

// reply is a request's answer.
type reply struct {
	res protocol.ExecuteResult
	err error
}

// failure is the answer of a request that its worker could not give:
// a result with e for runs and invocations, e itself for closeHandles.
func (c *call) failure(e *protocol.Error) reply {
	if c.kind == kindClose {
		return reply{err: e}
	}
	return reply{res: protocol.ExecuteResult{Error: e}}
}

// beginLocked registers c on w and starts its watchdog.
func (p *Pool) beginLocked(w *worker, ctx context.Context, c *call) {
	c.w = w
	c.done = make(chan reply, 1)
	c.hostCtx, c.hostCancel = context.WithCancel(context.WithoutCancel(ctx))
	w.calls[c.id] = c
	p.armLocked(c)
}

// settleLocked answers c once: it leaves its worker, its watchdog
// stops, its host calls' context ends, and its slot frees.
func (p *Pool) settleLocked(c *call, r reply) {
	if c.settled {
		return
	}
	c.settled = true
	w := c.w
	delete(w.calls, c.id)
	c.gen++
	c.timer.Stop()
	if c.cancelTimer != nil {
		c.cancelTimer.Stop()
	}
	c.hostCancel()
	switch c.kind {
	case kindRun:
		w.running--
	case kindInvoke:
		if x := c.exec; x != nil {
			x.busy--
			if x.busy == 0 && p.retained[x.id] == x {
				p.armIdleLocked(x)
			}
		}
	}
	c.done <- r
	p.signalLocked()
	p.maybeStopLocked(w)
}

// wait waits for c's answer, forwarding a cancellation of ctx and a
// close of suspend to the worker.
func (p *Pool) wait(ctx context.Context, c *call, suspend <-chan struct{}) reply {
	done := ctx.Done()
	for {
		select {
		case r := <-c.done:
			return r
		case <-done:
			done = nil
			p.cancel(c)
		case <-suspend:
			suspend = nil
			c.w.sendOrBreak(mustEncode(&suspendMessage{Type: typeSuspend, ID: c.id}))
		}
	}
}

// cancel asks the worker to cancel c, and kills the worker if c is not
// answered within Grace and TerminationDelay.
func (p *Pool) cancel(c *call) {
	p.mu.Lock()
	if c.settled || c.cancelled {
		p.mu.Unlock()
		return
	}
	c.cancelled = true
	d := p.cfg.Grace + p.cfg.TerminationDelay
	c.cancelTimer = time.AfterFunc(d, func() {
		p.mu.Lock()
		settled := c.settled
		p.mu.Unlock()
		if !settled {
			c.w.kill(fmt.Sprintf("it did not answer the cancelled %s %s within %v", c.kind, c.id, d))
		}
	})
	p.mu.Unlock()
	c.w.sendOrBreak(mustEncode(&protocol.CancelMessage{ID: c.id}))
	c.hostCancel()
}

// armLocked starts, or restarts after a host wait, c's watchdog with
// the active time left.
func (p *Pool) armLocked(c *call) {
	c.since = time.Now()
	c.gen++
	gen := c.gen
	c.timer = time.AfterFunc(max(c.limit-c.spent, 0), func() {
		p.mu.Lock()
		stale := c.settled || c.gen != gen
		p.mu.Unlock()
		if !stale {
			c.w.kill(fmt.Sprintf("the %s %s did not end within its timeout, grace and termination delay (%v)", c.kind, c.id, c.limit))
		}
	})
}

// hostWaitLocked counts a tool call or fetch of c starting (+1) or
// ending (-1): the watchdog stops while any is outstanding, as the
// run's own clock does, unless the request counts host waits.
func (p *Pool) hostWaitLocked(c *call, delta int) {
	if c.settled {
		return
	}
	before := c.outstanding
	c.outstanding += delta
	if c.countHostWaits {
		return
	}
	switch {
	case before == 0 && c.outstanding > 0:
		c.spent += time.Since(c.since)
		c.gen++
		c.timer.Stop()
	case before > 0 && c.outstanding == 0:
		p.armLocked(c)
	}
}

// callDispatch answers one forwarded tool call with dispatch's
// envelope, as the in-process executor would read it: no dispatch is
// "not found", a panic and an answer that is not an envelope are the
// call's error.
func callDispatch(ctx context.Context, dispatch protocol.DispatchFunc, provider, tool, args string) (env string) {
	if dispatch == nil {
		return protocol.ErrorEnvelope(fmt.Sprintf("Tool %q not found", provider+"."+tool))
	}
	defer func() {
		if r := recover(); r != nil {
			env = protocol.ErrorEnvelope(fmt.Sprintf("the dispatch of %s.%s panicked: %v", provider, tool, r))
		}
	}()
	env = dispatch(ctx, provider, tool, args)
	if _, _, _, err := protocol.ParseEnvelope(env); err != nil {
		return protocol.ErrorEnvelope(fmt.Sprintf("the dispatch of %s.%s answered with a %v; answer {\"result\": value} or {\"error\": \"text\"}", provider, tool, err))
	}
	return env
}

// callFetch performs one forwarded stub fetch.
func callFetch(ctx context.Context, fetch protocol.FetchFunc, m *protocol.FetchMessage) (ans *protocol.FetchResultMessage) {
	ans = &protocol.FetchResultMessage{ID: m.ID, CallID: m.CallID}
	if fetch == nil {
		ans.Error = "fetch is not available: the request has no function to perform it"
		return ans
	}
	defer func() {
		if r := recover(); r != nil {
			ans.Response, ans.Error = nil, fmt.Sprintf("fetch panicked: %v", r)
		}
	}()
	resp, err := fetch(ctx, m.Request)
	switch {
	case err != nil && err.Error() != "":
		ans.Error = err.Error()
	case err != nil:
		ans.Error = "fetch failed"
	case resp.Status < 200 || resp.Status > 599:
		ans.Error = fmt.Sprintf("fetch answered with status %d; an HTTP status is 200 to 599", resp.Status)
	default:
		ans.Response = &resp
	}
	return ans
}

// stderrTail is a worker's stderr as the pool keeps it: the last
// tailSize bytes, and the first line that names a Go fatal error or
// panic, which comes before the goroutine dumps that follow it.
type stderrTail struct {
	mu    sync.Mutex
	copy  io.Writer
	buf   []byte // the last tailSize bytes
	line  []byte // the line being written, up to maxLine bytes
	fatal string
}

const (
	tailSize = 16 << 10
	maxLine  = 512
)

func (t *stderrTail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.copy != nil {
		_, _ = t.copy.Write(b)
	}
	t.buf = append(t.buf, b...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	for _, c := range b {
		if c != '\n' {
			if len(t.line) < maxLine {
				t.line = append(t.line, c)
			}
			continue
		}
		if t.fatal == "" {
			l := string(bytes.TrimSpace(t.line))
			for _, prefix := range [...]string{"fatal error: ", "panic: "} {
				if len(l) > len(prefix) && l[:len(prefix)] == prefix {
					t.fatal = l
				}
			}
		}
		t.line = t.line[:0]
	}
	return len(b), nil
}

func (t *stderrTail) tail() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

func (t *stderrTail) fatalLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.fatal
}
