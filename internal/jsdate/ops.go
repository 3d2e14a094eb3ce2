package jsdate

import "math"

// Time constants of ECMA-262 §21.4.1.3 and §21.4.1.1, as Numbers.
const (
	// MsPerSecond is msPerSecond, 1000.
	MsPerSecond = 1000.0
	// MsPerMinute is msPerMinute, 60000.
	MsPerMinute = 60000.0
	// MsPerHour is msPerHour, 3600000.
	MsPerHour = 3600000.0
	// MsPerDay is msPerDay, 86400000.
	MsPerDay = 86400000.0
	// HoursPerDay is HoursPerDay, 24.
	HoursPerDay = 24.0
	// MinutesPerHour is MinutesPerHour, 60.
	MinutesPerHour = 60.0
	// SecondsPerMinute is SecondsPerMinute, 60.
	SecondsPerMinute = 60.0
	// MaxTime is the largest magnitude of a time value, 8.64e15 ms
	// (100,000,000 days either side of the epoch). TimeClip turns anything
	// beyond it into NaN.
	MaxTime = 8.64e15
)

// V8's bounds for MakeDay. The specification returns NaN from MakeDay "if
// this is not possible (because some argument is out of range)"; V8 draws
// that line at a year argument outside ±1,000,000 and a month argument
// outside ±10,000,000, compared before they are truncated to integers.
const (
	minMakeDayYear  = -1000000.0
	maxMakeDayYear  = 1000000.0
	minMakeDayMonth = -10000000.0
	maxMakeDayMonth = 10000000.0
)

// toIntegerOrInfinity is §7.1.5 ToIntegerOrInfinity on a Number that has
// already been through ToNumber: NaN becomes 0, the infinities stay, and
// everything else is truncated toward zero. The result is never -0.
func toIntegerOrInfinity(x float64) float64 {
	if x != x {
		return 0
	}
	return math.Trunc(x) + 0 // + 0 turns -0 into +0
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// floorDiv returns floor(x / d) for d > 0, correcting the rounding of the
// floating-point quotient so that the result is exact whenever q×d is
// exactly representable (always the case for time values).
func floorDiv(x, d float64) float64 {
	q := math.Floor(x / d)
	if float64(q*d) > x {
		q--
	} else if float64((q+1)*d) <= x {
		q++
	}
	return q + 0
}

// modulo returns x modulo d (the result has the sign of d, d > 0), exact
// for the operands this package uses.
func modulo(x, d float64) float64 {
	return x - float64(floorDiv(x, d)*d) + 0
}

// Day is §21.4.1.3 Day(t): the number of the day containing t, counted
// from 1970-01-01 (which is day 0); floor(t / msPerDay). It returns NaN
// when t is not finite.
func Day(t float64) float64 {
	if !isFinite(t) {
		return math.NaN()
	}
	return floorDiv(t, MsPerDay)
}

// TimeWithinDay is §21.4.1.3 TimeWithinDay(t): the milliseconds elapsed
// since the start of t's day, t modulo msPerDay, in [0, msPerDay). It
// returns NaN when t is not finite.
func TimeWithinDay(t float64) float64 {
	if !isFinite(t) {
		return math.NaN()
	}
	return modulo(t, MsPerDay)
}

// DaysInYear is §21.4.1.5 DaysInYear(y): 366 for a leap year of the
// proleptic Gregorian calendar (divisible by 4, and by 400 if divisible by
// 100), 365 otherwise. y must be an integral Number; NaN or an infinity
// gives NaN.
func DaysInYear(y float64) float64 {
	if !isFinite(y) {
		return math.NaN()
	}
	if math.Mod(y, 4) != 0 {
		return 365
	}
	if math.Mod(y, 100) != 0 {
		return 366
	}
	if math.Mod(y, 400) != 0 {
		return 365
	}
	return 366
}

// DayFromYear is §21.4.1.6 DayFromYear(y): the day number of January 1 of
// year y,
//
//	365 × (y - 1970) + floor((y - 1969) / 4) - floor((y - 1901) / 100) + floor((y - 1601) / 400).
//
// y must be an integral Number; NaN or an infinity gives NaN.
func DayFromYear(y float64) float64 {
	if !isFinite(y) {
		return math.NaN()
	}
	return float64(365*(y-1970)) + math.Floor((y-1969)/4) - math.Floor((y-1901)/100) + math.Floor((y-1601)/400) + 0
}

// TimeFromYear is §21.4.1.7 TimeFromYear(y): the time value of the start
// of year y, msPerDay × DayFromYear(y).
func TimeFromYear(y float64) float64 {
	return MsPerDay * DayFromYear(y)
}

// maxCivilDays bounds the day numbers the calendar conversion handles with
// integer arithmetic: every day number below 2^53 in magnitude, which
// covers Day(t) for every t up to about ±7.7e23 ms, far beyond MaxTime.
const maxCivilDays = 1 << 53

// civil converts a day number (days since 1970-01-01) to a proleptic
// Gregorian year, month (1..12) and day of month (1..31). The algorithm is
// Howard Hinnant's civil_from_days, on March-based 400-year eras.
func civil(days int64) (year int64, month, day int) {
	z := days + 719468 // days since 0000-03-01
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097                                  // [0, 146096]
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // [0, 399]
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // [0, 365]
	mp := (5*doy + 2) / 153                                // [0, 11], March = 0
	day = int(doy - (153*mp+2)/5 + 1)
	if mp < 10 {
		month = int(mp + 3)
	} else {
		month = int(mp - 9)
	}
	year = yoe + era*400
	if month <= 2 {
		year++
	}
	return year, month, day
}

// civilOf is civil(Day(t)) with the validity checks shared by the date
// field operations; ok is false when t is not finite or too far out.
func civilOf(t float64) (year int64, month, day int, ok bool) {
	d := Day(t)
	if d != d || math.Abs(d) >= maxCivilDays {
		return 0, 0, 0, false
	}
	year, month, day = civil(int64(d))
	return year, month, day, true
}

// YearFromTime is §21.4.1.8 YearFromTime(t): the largest integral y such
// that TimeFromYear(y) ≤ t, i.e. the proleptic Gregorian year containing t
// (year 0 is 1 BC, negative years are earlier). It returns NaN when t is not
// finite (and, beyond any time value, when |Day(t)| ≥ 2^53).
func YearFromTime(t float64) float64 {
	y, _, _, ok := civilOf(t)
	if !ok {
		return math.NaN()
	}
	return float64(y)
}

// DayWithinYear is §21.4.1.9 DayWithinYear(t): Day(t) -
// DayFromYear(YearFromTime(t)), from 0 (January 1) to 365.
func DayWithinYear(t float64) float64 {
	y, _, _, ok := civilOf(t)
	if !ok {
		return math.NaN()
	}
	return Day(t) - DayFromYear(float64(y))
}

// InLeapYear is §21.4.1.10 InLeapYear(t): 1 if t falls within a leap year
// (DaysInYear(YearFromTime(t)) is 366), +0 otherwise, and NaN when t is not
// finite.
func InLeapYear(t float64) float64 {
	y := YearFromTime(t)
	if y != y {
		return y
	}
	if DaysInYear(y) == 366 {
		return 1
	}
	return 0
}

// MonthFromTime is §21.4.1.11 MonthFromTime(t): the month containing t,
// from 0 (January) to 11 (December). It returns NaN when t is not finite.
func MonthFromTime(t float64) float64 {
	_, m, _, ok := civilOf(t)
	if !ok {
		return math.NaN()
	}
	return float64(m - 1)
}

// DateFromTime is §21.4.1.12 DateFromTime(t): the day of the month of t,
// from 1 to 31. It returns NaN when t is not finite.
func DateFromTime(t float64) float64 {
	_, _, d, ok := civilOf(t)
	if !ok {
		return math.NaN()
	}
	return float64(d)
}

// WeekDay is §21.4.1.13 WeekDay(t): the day of the week of t, (Day(t) + 4)
// modulo 7, from 0 (Sunday) to 6 (Saturday); 1970-01-01 was a Thursday. It
// returns NaN when t is not finite.
func WeekDay(t float64) float64 {
	d := Day(t)
	if d != d {
		return d
	}
	return modulo(d+4, 7)
}

// HourFromTime is §21.4.1.14 HourFromTime(t): floor(t / msPerHour) modulo
// HoursPerDay, from 0 to 23. It returns NaN when t is not finite.
func HourFromTime(t float64) float64 {
	return floorDiv(TimeWithinDay(t), MsPerHour)
}

// MinFromTime is §21.4.1.14 MinFromTime(t): floor(t / msPerMinute) modulo
// MinutesPerHour, from 0 to 59. It returns NaN when t is not finite.
func MinFromTime(t float64) float64 {
	return modulo(floorDiv(TimeWithinDay(t), MsPerMinute), MinutesPerHour)
}

// SecFromTime is §21.4.1.14 SecFromTime(t): floor(t / msPerSecond) modulo
// SecondsPerMinute, from 0 to 59. It returns NaN when t is not finite.
func SecFromTime(t float64) float64 {
	return modulo(floorDiv(TimeWithinDay(t), MsPerSecond), SecondsPerMinute)
}

// MsFromTime is §21.4.1.14 MsFromTime(t): t modulo msPerSecond, in [0,
// 1000); a non-integral t keeps its fraction. It returns NaN when t is not
// finite.
func MsFromTime(t float64) float64 {
	return modulo(TimeWithinDay(t), MsPerSecond)
}

// MakeTime is §21.4.1.28 MakeTime(hour, min, sec, ms): the milliseconds
// of the given time of day. Any non-finite argument gives NaN; the others
// are truncated with ToIntegerOrInfinity and combined as
// ((h × msPerHour + m × msPerMinute) + s × msPerSecond) + milli with
// IEEE-754 double arithmetic, so out-of-range components carry over (hour
// 25 is one hour into the next day, minute -1 is a minute earlier).
func MakeTime(hour, min, sec, ms float64) float64 {
	if !isFinite(hour) || !isFinite(min) || !isFinite(sec) || !isFinite(ms) {
		return math.NaN()
	}
	h := toIntegerOrInfinity(hour)
	m := toIntegerOrInfinity(min)
	s := toIntegerOrInfinity(sec)
	milli := toIntegerOrInfinity(ms)
	// The explicit conversions forbid fused multiply-adds, which would
	// round differently from JavaScript's separate * and +.
	t := float64(h*MsPerHour) + float64(m*MsPerMinute)
	t += float64(s * MsPerSecond)
	return t + milli
}

// MakeDay is §21.4.1.29 MakeDay(year, month, date): the day number of the
// given date. Any non-finite argument gives NaN. The arguments are
// truncated with ToIntegerOrInfinity; month is taken modulo 12 with the
// excess carried into the year, and date counts from the first of that
// month, so month 12 is January of the next year and date 0 is the last day
// of the previous month.
//
// Two details follow V8 rather than the letter of the specification; both
// only concern years that no time value reaches, unless a huge date pulls
// the result back into range:
//
//   - The specification returns NaN "if this is not possible (because some
//     argument is out of range)". As in V8, that is the case when year is
//     outside ±1,000,000 or month outside ±10,000,000 (compared before
//     truncation): MakeDay(2e6, 0, -7.3e8) is NaN.
//   - V8 counts the days before year y with truncating integer division on
//     y + 399,999, which miscounts leap days for years (after carrying the
//     month) below -399,999: there the result can be one day later than the
//     mathematically exact value. MakeDay(-1e6, 0, 1) is -365962027 here and
//     in node, where the exact value is -365962028.
func MakeDay(year, month, date float64) float64 {
	if !(minMakeDayYear <= year && year <= maxMakeDayYear) ||
		!(minMakeDayMonth <= month && month <= maxMakeDayMonth) ||
		!isFinite(date) {
		return math.NaN()
	}
	y := int64(year)  // truncates, as ToIntegerOrInfinity does
	m := int64(month) // likewise
	y += m / 12
	m %= 12
	if m < 0 {
		m += 12
		y--
	}
	return float64(dayFromYearV8(y)+firstDayOfMonth(y, m)-1) + toIntegerOrInfinity(date)
}

// yearDelta shifts years so that V8's integer divisions see positive
// numbers (for years above -399,999); it is -1 modulo 400, so the shift does
// not change which years are leap years.
const yearDelta = 399999

// dayFromYearV8 is DayFromYear as V8's MakeDay computes it (exact for years
// from -399,999 on).
func dayFromYearV8(y int64) int64 {
	const b = 1970 + yearDelta
	const base = 365*b + b/4 - b/100 + b/400
	s := y + yearDelta
	return 365*s + s/4 - s/100 + s/400 - base
}

// daysBeforeMonth[leap][m] is the day within the year on which month m
// (0..11) starts.
var daysBeforeMonth = [2][12]int64{
	{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334},
	{0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335},
}

func firstDayOfMonth(y, m int64) int64 {
	leap := 0
	if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		leap = 1
	}
	return daysBeforeMonth[leap][m]
}

// MakeDate is §21.4.1.30 MakeDate(day, time): day × msPerDay + time, or
// NaN if either argument or the result is not finite. The result is not
// clipped; see TimeClip.
func MakeDate(day, time float64) float64 {
	if !isFinite(day) || !isFinite(time) {
		return math.NaN()
	}
	tv := float64(day*MsPerDay) + time
	if !isFinite(tv) {
		return math.NaN()
	}
	return tv
}

// TimeClip is §21.4.1.31 TimeClip(time): NaN if time is not finite or its
// magnitude exceeds MaxTime (8.64e15), otherwise time truncated toward zero
// (and never -0). Every value stored in a Date goes through it.
func TimeClip(time float64) float64 {
	if !isFinite(time) || math.Abs(time) > MaxTime {
		return math.NaN()
	}
	return toIntegerOrInfinity(time)
}

// TimezoneOffset is Date.prototype.getTimezoneOffset: the local time
// zone's offset from UTC in minutes, which is always 0 here, or NaN for an
// invalid date.
func TimezoneOffset(t float64) float64 {
	if t != t {
		return t
	}
	return 0
}
