package codemode

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Limits bound one execution. A limit left at its zero value is
// unlimited, as in the reference (except MaxSourceBytes, whose zero is a
// default); MaxToolCalls and MaxOutputBytes are
// pointers because zero is a meaningful setting for them (no tool calls;
// truncate everything), so use Max(n) to set them.
type Limits struct {
	// Timeout is the wall-clock time of the whole run: parsing,
	// evaluation, the boundary copy and cleanup. At the deadline the run
	// stops (a busy loop too) and tool calls in flight are cancelled
	// through their context.
	Timeout time.Duration
	// MaxToolCalls is how many tool calls (search included) the program
	// may make; the next one fails with ToolCallLimitExceeded.
	MaxToolCalls *int
	// MaxOutputBytes bounds the Result: the value, the logs and the
	// warnings are cut with the reference's markers.
	MaxOutputBytes *int
	// MaxMemoryBytes bounds what the program allocates (strings, arrays,
	// objects, closures, promises, collection entries); past it the run
	// ends with MemoryLimitExceeded.
	MaxMemoryBytes int64
	// MaxSourceBytes bounds the program's source, which is parsed and
	// compiled before the other limits can act. Zero means
	// DefaultMaxSourceBytes; a negative value means no bound. A longer
	// program fails with ParseError and nothing runs.
	MaxSourceBytes int
	// CountHostWaits says whether the time the run spends waiting only
	// on the host (tool calls, asynchronous extensions, fetch) counts
	// against Timeout. Nil counts it, as the reference does; Bool(false)
	// stops the run's clock during those waits, as the executor seed's
	// countHostWaits: false does, so that a slow tool does not use up a
	// program's time. The caller's context still bounds the wall clock,
	// and tools then see no deadline from Timeout in their context.
	CountHostWaits *bool
}

// Bool makes a value for Limits.CountHostWaits.
func Bool(b bool) *bool { return &b }

// pausesHostWaits reports whether the run's clock stops during host waits.
func (l Limits) pausesHostWaits() bool { return l.CountHostWaits != nil && !*l.CountHostWaits }

// DefaultMaxSourceBytes is the source bound when Limits.MaxSourceBytes
// is zero: 1 MiB, far above any program a model writes.
const DefaultMaxSourceBytes = 1 << 20

// sourceLimit is the effective source bound.
func (l Limits) sourceLimit() int {
	switch {
	case l.MaxSourceBytes > 0:
		return l.MaxSourceBytes
	case l.MaxSourceBytes < 0:
		return math.MaxInt
	}
	return DefaultMaxSourceBytes
}

// Max makes a limit value for MaxToolCalls and MaxOutputBytes.
func Max(n int) *int { return &n }

// The fixed caps every run has, whatever its limits (reference 3.6).
const (
	// MaxStringLength is the longest string a program can build.
	MaxStringLength = 1 << 24
	// MaxArrayLength is the longest array.
	MaxArrayLength = 10_000_000
	// MaxPendingPromises is how many promises may be pending at once.
	MaxPendingPromises = 10_000
	// MaxCallDepth is the deepest call stack.
	MaxCallDepth = 10_000
)

// maxSafeInteger is 2^53 - 1, the largest limit the reference accepts.
const maxSafeInteger = 1<<53 - 1

// validate checks the limits. Its errors name the Go fields, for the
// host that set them.
func (l Limits) validate() error {
	if l.Timeout < 0 || l.Timeout > 0 && l.Timeout < time.Millisecond {
		return fmt.Errorf("codemode: Limits.Timeout must be at least 1ms, or 0 for no timeout; got %v", l.Timeout)
	}
	if l.MaxToolCalls != nil && (*l.MaxToolCalls < 0 || int64(*l.MaxToolCalls) > maxSafeInteger) {
		return fmt.Errorf("codemode: Limits.MaxToolCalls must be between 0 and 2^53-1 (Max(n); nil for no limit); got %d", *l.MaxToolCalls)
	}
	if l.MaxOutputBytes != nil && (*l.MaxOutputBytes < 0 || int64(*l.MaxOutputBytes) > maxSafeInteger) {
		return fmt.Errorf("codemode: Limits.MaxOutputBytes must be between 0 and 2^53-1 (Max(n); nil for no limit); got %d", *l.MaxOutputBytes)
	}
	if l.MaxMemoryBytes < 0 || l.MaxMemoryBytes > math.MaxInt64/2 {
		return fmt.Errorf("codemode: Limits.MaxMemoryBytes must be positive, or 0 for no limit; got %d", l.MaxMemoryBytes)
	}
	return nil
}

// DefaultLimits are safe limits for a host that wants them: the
// command-line tool's 30 s and 256 MiB, at most 100 tool calls, and a
// 1 MiB bound on the Result's value, logs and warnings. The zero Limits
// stay unlimited, as in the reference.
func DefaultLimits() Limits {
	return Limits{
		Timeout:        30 * time.Second,
		MaxToolCalls:   Max(100),
		MaxOutputBytes: Max(1 << 20),
		MaxMemoryBytes: 256 << 20,
	}
}

// tighten applies a run's limits (WithLimits) over the Runtime's: each
// one set replaces the Runtime's, and none may be looser than it.
func tighten(base, run Limits) (Limits, error) {
	if err := run.validate(); err != nil {
		return base, fmt.Errorf("codemode: WithLimits: %s", strings.TrimPrefix(err.Error(), "codemode: "))
	}
	looser := func(field, got, ceiling string) error {
		return fmt.Errorf("codemode: WithLimits: %s %s is looser than the Runtime's %s; a run's limits may only be tighter", field, got, ceiling)
	}
	out := base
	if run.Timeout > 0 {
		if base.Timeout > 0 && run.Timeout > base.Timeout {
			return base, looser("Timeout", run.Timeout.String(), base.Timeout.String())
		}
		out.Timeout = run.Timeout
	}
	if run.MaxMemoryBytes > 0 {
		if base.MaxMemoryBytes > 0 && run.MaxMemoryBytes > base.MaxMemoryBytes {
			return base, looser("MaxMemoryBytes", fmt.Sprint(run.MaxMemoryBytes), fmt.Sprint(base.MaxMemoryBytes))
		}
		out.MaxMemoryBytes = run.MaxMemoryBytes
	}
	if run.MaxToolCalls != nil {
		if base.MaxToolCalls != nil && *run.MaxToolCalls > *base.MaxToolCalls {
			return base, looser("MaxToolCalls", fmt.Sprint(*run.MaxToolCalls), fmt.Sprint(*base.MaxToolCalls))
		}
		out.MaxToolCalls = run.MaxToolCalls
	}
	if run.MaxOutputBytes != nil {
		if base.MaxOutputBytes != nil && *run.MaxOutputBytes > *base.MaxOutputBytes {
			return base, looser("MaxOutputBytes", fmt.Sprint(*run.MaxOutputBytes), fmt.Sprint(*base.MaxOutputBytes))
		}
		out.MaxOutputBytes = run.MaxOutputBytes
	}
	if run.CountHostWaits != nil {
		// Not counting host waits lets a run take longer: looser than a
		// Runtime that counts them explicitly.
		if base.CountHostWaits != nil && *base.CountHostWaits && !*run.CountHostWaits {
			return base, looser("CountHostWaits", "false", "true")
		}
		out.CountHostWaits = run.CountHostWaits
	}
	if run.MaxSourceBytes != 0 {
		if run.sourceLimit() > base.sourceLimit() {
			return base, looser("MaxSourceBytes", fmt.Sprint(run.MaxSourceBytes), fmt.Sprint(base.sourceLimit()))
		}
		out.MaxSourceBytes = run.MaxSourceBytes
	}
	return out, nil
}
