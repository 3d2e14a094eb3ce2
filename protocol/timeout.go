package protocol

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"time"
)

// Timeout is the timeout of an execute request, which has three states on
// the wire: absent, the serving side's default; null, the largest bound
// the serving side supports; or a positive whole number of milliseconds.
// The zero Timeout is the absent one.
type Timeout struct {
	set       bool
	unbounded bool
	millis    int64
}

// DefaultTimeoutValue returns the absent Timeout, the zero value: the
// serving side's default applies.
func DefaultTimeoutValue() Timeout { return Timeout{} }

// UnboundedTimeout returns the null Timeout: the largest bound the serving
// side supports, never above [MaxSupportedTimeout].
func UnboundedTimeout() Timeout { return Timeout{set: true, unbounded: true} }

// TimeoutMillis returns a Timeout of ms milliseconds. ms must be
// positive: a Timeout of zero or fewer milliseconds does not encode.
func TimeoutMillis(ms int64) Timeout { return Timeout{set: true, millis: ms} }

// TimeoutOf returns a Timeout of d rounded up to whole milliseconds.
func TimeoutOf(d time.Duration) Timeout {
	ms := int64(d / time.Millisecond)
	if d%time.Millisecond > 0 {
		ms++
	}
	return TimeoutMillis(ms)
}

// IsZero reports whether t is absent. It makes t omitzero-friendly.
func (t Timeout) IsZero() bool { return !t.set }

// IsUnbounded reports whether t is null, the largest supported bound.
func (t Timeout) IsUnbounded() bool { return t.set && t.unbounded }

// Millis returns t's milliseconds, and false when t is absent or null.
func (t Timeout) Millis() (int64, bool) {
	if !t.set || t.unbounded {
		return 0, false
	}
	return t.millis, true
}

// Resolve returns the bound t asks for on a serving side whose default
// is def and whose cap is limit. A def of zero or less means
// [DefaultTimeout]; a limit of zero or less, or above
// [MaxSupportedTimeout], means MaxSupportedTimeout. An absent t is def,
// a null t is limit, and a number is itself; every result is capped at
// limit.
func (t Timeout) Resolve(def, limit time.Duration) time.Duration {
	if limit <= 0 || limit > MaxSupportedTimeout {
		limit = MaxSupportedTimeout
	}
	if def <= 0 {
		def = DefaultTimeout
	}
	switch {
	case !t.set:
		return min(def, limit)
	case t.unbounded:
		return limit
	case t.millis > limit.Milliseconds():
		return limit
	}
	return time.Duration(t.millis) * time.Millisecond
}

// String renders t for logs: "default", "unbounded" or the duration.
func (t Timeout) String() string {
	switch {
	case !t.set:
		return "default"
	case t.unbounded:
		return "unbounded"
	}
	return (time.Duration(t.millis) * time.Millisecond).String()
}

func (t Timeout) validate() error {
	if t.set && !t.unbounded && t.millis <= 0 {
		return errors.New("timeout must be a positive whole number of milliseconds, or null")
	}
	return nil
}

// MarshalJSON encodes t as null or its milliseconds. The absent Timeout
// encodes as null too; a struct field omits it with omitzero.
func (t Timeout) MarshalJSON() ([]byte, error) {
	if err := t.validate(); err != nil {
		return nil, err
	}
	if !t.set || t.unbounded {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, t.millis, 10), nil
}

// UnmarshalJSON decodes null as the unbounded Timeout and a positive
// whole number, in any JSON notation (1000, 1e3, 1000.0), as
// milliseconds.
func (t *Timeout) UnmarshalJSON(data []byte) error {
	data = bytes.Trim(data, " \t\r\n")
	if string(data) == "null" {
		*t = UnboundedTimeout()
		return nil
	}
	bad := errors.New("timeout must be a positive whole number of milliseconds, or null")
	if jsonKind(data) != "a number" {
		return bad
	}
	if n, err := strconv.ParseInt(string(data), 10, 64); err == nil {
		if n <= 0 {
			return bad
		}
		*t = TimeoutMillis(n)
		return nil
	}
	f, err := strconv.ParseFloat(string(data), 64)
	if err != nil || f != math.Trunc(f) || f <= 0 || f >= math.MaxInt64 {
		return bad
	}
	*t = TimeoutMillis(int64(f))
	return nil
}
