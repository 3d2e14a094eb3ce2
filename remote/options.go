package remote

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/go-codemode/codemode/protocol"
)

// Options shape an [Executor]. The zero Options is a working
// configuration: no token, rotation after 100 executions, the default
// reconnection, transparent resumes of suspended runs, and the server's
// own defaults for every request option.
type Options struct {
	// Token is the client's credential: it is sent as the hello's
	// "token" and as the upgrade's "Authorization: Bearer" header (an
	// Authorization in Header wins over the latter).
	Token string
	// Header holds extra headers of the WebSocket upgrade.
	Header http.Header
	// HTTPClient performs the upgrade (a proxy, a custom transport, a
	// test server's client). Nil is http.DefaultClient.
	HTTPClient *http.Client

	// RotateAfterExecutions retires a session after it has run that many
	// executions and resumes: it takes no new work, closes once its
	// requests in flight are answered and its retained executions are
	// closed, and the next call opens a new session. Zero is 100, the
	// seed's rotateAfterExecutions; negative never rotates.
	RotateAfterExecutions int
	// Reconnect says how a call that finds no live session opens one.
	// Nil is [DefaultReconnect]: three retries, backing off 250, 500 and
	// 750 ms.
	Reconnect *ReconnectOptions

	// Timeout is the default of a request whose Timeout is absent.
	Timeout protocol.Timeout
	// CountHostWaits, when true, counts host waits against the timeout
	// for every request; a request's own CountHostWaits true does so for
	// that request. (A request cannot turn a true default off: its field
	// is a plain bool.)
	CountHostWaits *bool
	// Modules is the module map of a request whose Modules is nil; a
	// request's map replaces it whole.
	Modules protocol.ModuleMap
	// Outbound is the outbound mode of a request that names none; empty
	// leaves it to the server.
	Outbound protocol.OutboundMode

	// ResumeSuspended, true when nil, resumes a SUSPENDED result (the
	// server drained while the run waited on a tool) on a new session,
	// with the request's providers, Dispatch and Fetch, at most
	// [MaxResumes] times per call. False returns the SUSPENDED result,
	// State set, for [Executor.Resume].
	ResumeSuspended *bool

	// MaxFrameBytes bounds one frame in either direction. A request
	// whose frame is larger fails with PAYLOAD_TOO_LARGE without being
	// sent; a larger frame from the server closes the session. Zero is
	// [protocol.MaxFrameSize], the server's default, 64 MiB.
	MaxFrameBytes int

	// Logger receives the client's logs (sessions opened, lost, rotated;
	// answers dropped). Nil discards them.
	Logger *slog.Logger
}

// ReconnectOptions say how a call that finds no live session opens one.
// The fields are taken as they are: the zero ReconnectOptions opens once,
// without retrying.
type ReconnectOptions struct {
	// Disabled turns reconnection off: once a session is lost, every
	// call fails with CONNECTION_LOST. A session this side retired (a
	// rotation, a suspended run, a SHUTTING_DOWN refusal) or the server
	// closed with status 1001 (it drains, or the connection reached its
	// maximum age) is no loss: the next call opens a new one, once.
	Disabled bool
	// Retries is how many times an open that failed is tried again. A
	// connection that fails and a server that is SHUTTING_DOWN are
	// retried; PROTOCOL_MISMATCH, CONNECTION_REJECTED and a malformed
	// handshake never are.
	Retries int
	// Backoff is the wait before the first retry; the n-th retry waits
	// n × Backoff.
	Backoff time.Duration
}

// DefaultReconnect returns the reconnection of a nil
// Options.Reconnect, the seed's { retries: 3, backoff: 250 }.
func DefaultReconnect() ReconnectOptions {
	return ReconnectOptions{Retries: 3, Backoff: 250 * time.Millisecond}
}

// The defaults and bounds the Options do not expose.
const (
	// DefaultRotateAfterExecutions is the rotation of a zero
	// Options.RotateAfterExecutions.
	DefaultRotateAfterExecutions = 100
	// MaxResumes bounds the transparent resumes of one call: a run
	// suspended more often comes back SUSPENDED, State set.
	MaxResumes = 3

	handshakeTimeout = 10 * time.Second // for the helloAck
	writeTimeout     = 30 * time.Second // for one frame, as the server's
	sendQueue        = 64               // frames waiting to be written
	cancelWait       = 10 * time.Second // for the answer of a cancelled request
	maxOpenRounds    = 3                // sessions one call may see close before use
)

// config is Options checked, defaults applied.
type config struct {
	Options
	reconnect       ReconnectOptions
	rotate          int // 0: never
	countHostWaits  bool
	resumeSuspended bool
	maxFrame        int
	log             *slog.Logger
}

func newConfig(rawURL string, opts Options) (config, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return config{}, fmt.Errorf("remote: the URL %q: %w", rawURL, err)
	}
	switch u.Scheme {
	case "ws", "wss", "http", "https":
	default:
		return config{}, fmt.Errorf("remote: the URL %q is not a ws:// or wss:// URL", rawURL)
	}
	c := config{Options: opts, reconnect: DefaultReconnect(), rotate: opts.RotateAfterExecutions,
		resumeSuspended: true, maxFrame: opts.MaxFrameBytes, log: opts.Logger}
	var errs []error
	if opts.Reconnect != nil {
		c.reconnect = *opts.Reconnect
		if c.reconnect.Retries < 0 {
			errs = append(errs, fmt.Errorf("Reconnect.Retries is %d; it must not be negative", c.reconnect.Retries))
		}
		if c.reconnect.Backoff < 0 {
			errs = append(errs, fmt.Errorf("Reconnect.Backoff is %v; it must not be negative", c.reconnect.Backoff))
		}
	}
	switch {
	case c.rotate == 0:
		c.rotate = DefaultRotateAfterExecutions
	case c.rotate < 0:
		c.rotate = 0
	}
	if opts.CountHostWaits != nil {
		c.countHostWaits = *opts.CountHostWaits
	}
	if opts.ResumeSuspended != nil {
		c.resumeSuspended = *opts.ResumeSuspended
	}
	switch {
	case c.maxFrame == 0:
		c.maxFrame = protocol.MaxFrameSize
	case c.maxFrame < 0:
		errs = append(errs, fmt.Errorf("MaxFrameBytes is %d; it must be positive", c.maxFrame))
	}
	switch opts.Outbound {
	case "", protocol.OutboundNative, protocol.OutboundStub, protocol.OutboundDisabled:
	default:
		errs = append(errs, fmt.Errorf("Outbound is %q; the outbound modes are native, stub and disabled", opts.Outbound))
	}
	if ms, ok := opts.Timeout.Millis(); ok && ms <= 0 {
		errs = append(errs, fmt.Errorf("Timeout is %dms; it must be positive", ms))
	}
	if err := opts.Modules.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("Modules: %w", err))
	}
	if err := errors.Join(errs...); err != nil {
		return config{}, fmt.Errorf("remote: %w", err)
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	return c, nil
}

// header returns the upgrade's headers.
func (c *config) header() http.Header {
	h := c.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	if c.Token != "" && h.Get("Authorization") == "" {
		h.Set("Authorization", "Bearer "+c.Token)
	}
	return h
}
