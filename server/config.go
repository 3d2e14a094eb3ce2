package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"time"

	"github.com/go-codemode/codemode/protocol"
)

// Config shapes a [Server]. The zero value of every field means its
// default, so Config{} is a working configuration; [DefaultConfig]
// returns the defaults spelled out. The defaults are the seed's
// (@supolka/codemode-executor's createExecutorServer and WorkerPool).
type Config struct {
	// Addr is where ListenAndServe listens. Default ":8080".
	Addr string

	// Token is the bearer token a client must present, in its hello's
	// "token" or in the upgrade's "Authorization: Bearer <token>" header.
	// Empty admits everyone. Ignored when Identify is set.
	Token string
	// Identify, when set, decides who may connect instead of the token
	// check. It runs once per connection, after the hello; an error
	// refuses the connection with CONNECTION_REJECTED and the error's
	// text, and so does a panic. The Identity it returns is in the
	// context of every backend call of the connection (see
	// [IdentityFromContext]).
	Identify func(ctx context.Context, h Handshake) (Identity, error)

	// MaxWorkers is how many workers run executions. Default
	// runtime.GOMAXPROCS(0).
	MaxWorkers int
	// ExecutionsPerWorker is how many executions one worker runs at a
	// time. Default 1. At most MaxWorkers × ExecutionsPerWorker
	// executions, resumes and handle invocations run at once; the others
	// wait in the queue, first come first served.
	ExecutionsPerWorker int
	// MaxQueue is how many requests may wait for a worker; one more is
	// refused with QUEUE_OVERFLOW. Default 100; negative for no queue at
	// all (a request that finds every worker busy is refused).
	MaxQueue int

	// DefaultTimeout bounds a run whose request names no timeout.
	// Default [protocol.DefaultTimeout], one minute.
	DefaultTimeout time.Duration
	// MaxTimeout caps every requested timeout, and is the bound of a
	// request whose timeout is null. Default (and at most)
	// [protocol.MaxSupportedTimeout].
	MaxTimeout time.Duration
	// Grace is the time after a run's timeout during which the backend
	// may still unwind it. Default [protocol.DefaultGrace], one second.
	Grace time.Duration
	// TerminationDelay is how long past its timeout and Grace the server
	// waits for a backend that does not answer before it answers TIMEOUT
	// itself; and how long it waits for the answer of a run it cancelled
	// (a cancel, a closing connection, the end of a drain) before it
	// answers for the backend. Default 5 s, the seed's terminationDelay.
	TerminationDelay time.Duration

	// PingInterval is how often the server pings a connection; a
	// connection whose pong does not come back within the next interval
	// is dropped. Default 30 s; negative for no pings.
	PingInterval time.Duration
	// MaxConnectionAge, when positive, retires a connection that old:
	// it takes no new requests, and closes once its runs are done (at
	// most ShutdownDrain later, the runs then being saved or cancelled
	// as in a drain). Default 0: connections live as long as they like.
	MaxConnectionAge time.Duration
	// HandshakeTimeout is how long a client has after the upgrade to
	// send its hello. Default 10 s.
	HandshakeTimeout time.Duration

	// ResponseLimit, when positive, bounds the bytes of one result
	// frame: a larger result is replaced by an error result of code
	// PAYLOAD_TOO_LARGE. Default 0, no bound but MaxFrameBytes.
	ResponseLimit int
	// MaxFrameBytes bounds one frame in either direction. A larger frame
	// from the client is refused with PAYLOAD_TOO_LARGE and the
	// connection is closed (status 1009); a larger result is replaced as
	// for ResponseLimit. Default [protocol.MaxFrameSize], 64 MiB.
	MaxFrameBytes int

	// SendQueue is how many frames may wait to be written to one
	// connection. Default 64.
	SendQueue int
	// WriteTimeout bounds the writing of one frame, and how long a full
	// send queue may stay full: a client that does not read for that
	// long is dropped and its runs are cancelled. Default 30 s.
	WriteTimeout time.Duration

	// ShutdownDelay is how long Shutdown keeps serving after readiness
	// flips, so that load balancers see /readyz fail before connections
	// stop taking work. Default 0.
	ShutdownDelay time.Duration
	// ShutdownDrain is how long Shutdown then waits for the runs still
	// in flight to finish on their own. Default 0.
	ShutdownDrain time.Duration
	// SuspendWait is how long Shutdown waits, after asking the remaining
	// runs to save themselves, for them to come back SUSPENDED (or to
	// finish) before it cancels them. Default 5 s.
	SuspendWait time.Duration

	// OutboundDefault is the outbound mode of a request that names none.
	// Default [protocol.OutboundDisabled].
	OutboundDefault protocol.OutboundMode
	// ForbidStub refuses requests whose outbound mode is stub (the
	// client performs the program's fetches) with PROTOCOL_MISMATCH, as
	// the seed's assertOutboundFetch does when no fetch function is
	// given. Default false: stub is allowed.
	ForbidStub bool
	// ForbidNative is the operator's veto over the native mode: a request
	// asking for native fetching runs with outbound disabled, as the
	// seed's outboundMode 'null'. Default false.
	ForbidNative bool

	// Logger receives the server's logs. Nil discards them.
	Logger *slog.Logger
}

// The defaults of the fields whose zero value is not the default.
const (
	defaultAddr             = ":8080"
	defaultMaxQueue         = 100
	defaultTerminationDelay = 5 * time.Second
	defaultPingInterval     = 30 * time.Second
	defaultHandshakeTimeout = 10 * time.Second
	defaultSendQueue        = 64
	defaultWriteTimeout     = 30 * time.Second
	defaultSuspendWait      = 5 * time.Second
)

// DefaultConfig returns the configuration whose every field is its
// default.
func DefaultConfig() Config {
	return Config{}.withDefaults()
}

// withDefaults returns c with every zero field set to its default.
func (c Config) withDefaults() Config {
	setDefault(&c.Addr, defaultAddr)
	setDefault(&c.MaxWorkers, runtime.GOMAXPROCS(0))
	setDefault(&c.ExecutionsPerWorker, 1)
	setDefault(&c.MaxQueue, defaultMaxQueue)
	setDefault(&c.DefaultTimeout, protocol.DefaultTimeout)
	setDefault(&c.MaxTimeout, protocol.MaxSupportedTimeout)
	setDefault(&c.Grace, protocol.DefaultGrace)
	setDefault(&c.TerminationDelay, defaultTerminationDelay)
	setDefault(&c.PingInterval, defaultPingInterval)
	setDefault(&c.HandshakeTimeout, defaultHandshakeTimeout)
	setDefault(&c.MaxFrameBytes, protocol.MaxFrameSize)
	setDefault(&c.SendQueue, defaultSendQueue)
	setDefault(&c.WriteTimeout, defaultWriteTimeout)
	setDefault(&c.SuspendWait, defaultSuspendWait)
	setDefault(&c.OutboundDefault, protocol.OutboundDisabled)
	if c.MaxTimeout > protocol.MaxSupportedTimeout {
		c.MaxTimeout = protocol.MaxSupportedTimeout
	}
	return c
}

func setDefault[T comparable](field *T, def T) {
	var zero T
	if *field == zero {
		*field = def
	}
}

// check reports a configuration that cannot work.
func (c Config) check() error {
	var errs []error
	if c.MaxWorkers < 0 {
		errs = append(errs, fmt.Errorf("MaxWorkers is %d; it must be positive", c.MaxWorkers))
	}
	if c.ExecutionsPerWorker < 0 {
		errs = append(errs, fmt.Errorf("ExecutionsPerWorker is %d; it must be positive", c.ExecutionsPerWorker))
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"DefaultTimeout", c.DefaultTimeout}, {"MaxTimeout", c.MaxTimeout}, {"Grace", c.Grace},
		{"TerminationDelay", c.TerminationDelay}, {"HandshakeTimeout", c.HandshakeTimeout},
		{"WriteTimeout", c.WriteTimeout}, {"ShutdownDelay", c.ShutdownDelay},
		{"ShutdownDrain", c.ShutdownDrain}, {"SuspendWait", c.SuspendWait},
		{"MaxConnectionAge", c.MaxConnectionAge},
	} {
		if d.v < 0 {
			errs = append(errs, fmt.Errorf("%s is %v; it must not be negative", d.name, d.v))
		}
	}
	if c.ResponseLimit < 0 {
		errs = append(errs, fmt.Errorf("ResponseLimit is %d; it must not be negative", c.ResponseLimit))
	}
	if c.MaxFrameBytes < 0 {
		errs = append(errs, fmt.Errorf("MaxFrameBytes is %d; it must be positive", c.MaxFrameBytes))
	}
	if c.SendQueue < 0 {
		errs = append(errs, fmt.Errorf("SendQueue is %d; it must be positive", c.SendQueue))
	}
	switch c.OutboundDefault {
	case "", protocol.OutboundNative, protocol.OutboundStub, protocol.OutboundDisabled:
	default:
		errs = append(errs, fmt.Errorf("OutboundDefault is %q; the outbound modes are native, stub and disabled", c.OutboundDefault))
	}
	if c.ForbidStub && c.OutboundDefault == protocol.OutboundStub {
		errs = append(errs, errors.New("OutboundDefault is stub, which ForbidStub forbids"))
	}
	return errors.Join(errs...)
}

// Handshake is what the identity hook knows of a connecting client.
type Handshake struct {
	// RemoteAddr is the client's network address, as net/http reports
	// it.
	RemoteAddr string
	// Header is the header of the WebSocket upgrade request.
	Header http.Header
	// Token is the hello's "token", empty when it had none.
	Token string
}

// Identity is who a connection belongs to, as the identity hook (or the
// token check) decided.
type Identity struct {
	// Subject names the client in logs: "anonymous" when the server has
	// no token, "token" when the client presented the server's token,
	// and what the hook says otherwise.
	Subject string
	// Attributes are whatever else the hook wants the backend to know.
	Attributes map[string]string
}

type identityKey struct{}

// IdentityFromContext returns the identity of the connection a backend
// call serves, and false when ctx is not such a call's.
func IdentityFromContext(ctx context.Context) (Identity, bool) {
	id, ok := ctx.Value(identityKey{}).(Identity)
	return id, ok
}
