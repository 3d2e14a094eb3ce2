package jsdate

import "math"

// UTC is §21.4.3.4 Date.UTC(year, month, date, hours, minutes, seconds,
// ms), which is also the time value of new Date(year, month, ...) with two
// or more arguments, since local time is UTC (§21.4.2.1 step 4).
//
// The arguments are the results of ToNumber on the first argc arguments of
// the call; arguments at positions argc and beyond are ignored and take
// their defaults (month 0, date 1, the rest 0). With argc < 1 the year is
// undefined and the result is NaN. A year whose integer part is 0 to 99
// means 1900 to 1999. The components may overflow (month 12, date 0,
// hours -1); the result is TimeClip(MakeDate(MakeDay(...), MakeTime(...))).
//
// The engine's Date constructor should pass argc ≥ 2 (one argument is a
// time value or a string, zero arguments is the current time).
func UTC(year, month, date, hours, minutes, seconds, ms float64, argc int) float64 {
	if argc < 1 {
		return math.NaN()
	}
	if argc < 2 {
		month = 0
	}
	if argc < 3 {
		date = 1
	}
	if argc < 4 {
		hours = 0
	}
	if argc < 5 {
		minutes = 0
	}
	if argc < 6 {
		seconds = 0
	}
	if argc < 7 {
		ms = 0
	}
	year = makeFullYear(year)
	return TimeClip(MakeDate(MakeDay(year, month, date), MakeTime(hours, minutes, seconds, ms)))
}

// makeFullYear is §21.4.1.32 MakeFullYear(year): years whose integer part
// is 0..99 become 1900..1999; other values (including NaN) are unchanged.
func makeFullYear(year float64) float64 {
	if year != year {
		return year
	}
	if y := toIntegerOrInfinity(year); 0 <= y && y <= 99 {
		return 1900 + y
	}
	return year
}

// arg returns args[i], or def when the argument was not supplied.
func arg(args []float64, i int, def float64) float64 {
	if i < len(args) {
		return args[i]
	}
	return def
}

// first returns args[0], or NaN (ToNumber(undefined)) when args is empty.
func first(args []float64) float64 {
	return arg(args, 0, math.NaN())
}

// The setters below implement the arithmetic of Date.prototype's setters
// (§21.4.4.20 to §21.4.4.31 and Annex B §B.2.3.2 setYear). Each takes the
// Date's current time value t and the ToNumber results of the arguments the
// script supplied, in order (the caller performs the conversions first, as
// the specification does, even when t is NaN), and returns the new time
// value that the caller stores in the Date and returns from the call. With
// no arguments the first one is undefined, i.e. NaN, and the result is NaN.
// Arguments beyond the method's length are ignored.
//
// Because local time is UTC, each function serves both the local and the
// UTC method: SetHours implements setHours and setUTCHours.

// SetMilliseconds is setMilliseconds(ms) / setUTCMilliseconds(ms).
func SetMilliseconds(t float64, args ...float64) float64 {
	if t != t {
		return t
	}
	ms := first(args)
	return TimeClip(MakeDate(Day(t), MakeTime(HourFromTime(t), MinFromTime(t), SecFromTime(t), ms)))
}

// SetSeconds is setSeconds(sec [, ms]) / setUTCSeconds(sec [, ms]).
func SetSeconds(t float64, args ...float64) float64 {
	if t != t {
		return t
	}
	s := first(args)
	ms := arg(args, 1, MsFromTime(t))
	return TimeClip(MakeDate(Day(t), MakeTime(HourFromTime(t), MinFromTime(t), s, ms)))
}

// SetMinutes is setMinutes(min [, sec [, ms]]) / setUTCMinutes(...).
func SetMinutes(t float64, args ...float64) float64 {
	if t != t {
		return t
	}
	m := first(args)
	s := arg(args, 1, SecFromTime(t))
	ms := arg(args, 2, MsFromTime(t))
	return TimeClip(MakeDate(Day(t), MakeTime(HourFromTime(t), m, s, ms)))
}

// SetHours is setHours(hour [, min [, sec [, ms]]]) / setUTCHours(...).
func SetHours(t float64, args ...float64) float64 {
	if t != t {
		return t
	}
	h := first(args)
	m := arg(args, 1, MinFromTime(t))
	s := arg(args, 2, SecFromTime(t))
	ms := arg(args, 3, MsFromTime(t))
	return TimeClip(MakeDate(Day(t), MakeTime(h, m, s, ms)))
}

// SetDate is setDate(date) / setUTCDate(date).
func SetDate(t float64, args ...float64) float64 {
	if t != t {
		return t
	}
	dt := first(args)
	day := MakeDay(YearFromTime(t), MonthFromTime(t), dt)
	return TimeClip(MakeDate(day, TimeWithinDay(t)))
}

// SetMonth is setMonth(month [, date]) / setUTCMonth(month [, date]).
func SetMonth(t float64, args ...float64) float64 {
	if t != t {
		return t
	}
	m := first(args)
	dt := arg(args, 1, DateFromTime(t))
	return TimeClip(MakeDate(MakeDay(YearFromTime(t), m, dt), TimeWithinDay(t)))
}

// SetFullYear is setFullYear(year [, month [, date]]) /
// setUTCFullYear(...). Unlike the other setters it works on an invalid
// date, which counts as +0 (1970-01-01T00:00:00Z).
func SetFullYear(t float64, args ...float64) float64 {
	if t != t {
		t = 0
	}
	y := first(args)
	m := arg(args, 1, MonthFromTime(t))
	dt := arg(args, 2, DateFromTime(t))
	return TimeClip(MakeDate(MakeDay(y, m, dt), TimeWithinDay(t)))
}

// SetYear is Annex B's setYear(year): like setFullYear(year), except that
// a year whose integer part is 0 to 99 means 1900 to 1999, and a NaN year
// makes the date invalid. An invalid date counts as +0.
func SetYear(t float64, year float64) float64 {
	if t != t {
		t = 0
	}
	if year != year {
		return year
	}
	y := makeFullYear(year)
	day := MakeDay(y, MonthFromTime(t), DateFromTime(t))
	return TimeClip(MakeDate(day, TimeWithinDay(t)))
}

// GetYear is Annex B's getYear(): YearFromTime(t) - 1900, or NaN for an
// invalid date.
func GetYear(t float64) float64 {
	return YearFromTime(t) - 1900
}
