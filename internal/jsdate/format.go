package jsdate

import "strconv"

// InvalidDate is what the string conversions of an invalid date (NaN time
// value) return, except ToISOString, which reports failure instead.
const InvalidDate = "Invalid Date"

var (
	weekDayNames = [7]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	monthNames   = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
)

// fields is a time value broken down into its UTC calendar fields.
type fields struct {
	year                     int64
	month                    int // 1..12
	day                      int // 1..31
	hour, min, sec, ms, wday int
}

// split breaks t down. ok is false when TimeClip(t) is NaN: the formatting
// functions treat anything that is not a storable time value as an invalid
// date.
func split(t float64) (f fields, ok bool) {
	t = TimeClip(t)
	if t != t {
		return f, false
	}
	ms := int64(t)
	days := ms / 86400000
	rem := ms % 86400000
	if rem < 0 {
		rem += 86400000
		days--
	}
	f.year, f.month, f.day = civil(days)
	f.wday = int((days%7 + 11) % 7) // 1970-01-01 was a Thursday (4)
	r := int(rem)
	f.hour = r / 3600000
	f.min = r / 60000 % 60
	f.sec = r / 1000 % 60
	f.ms = r % 1000
	return f, true
}

// pad appends n (≥ 0) in decimal, zero-padded to width digits.
func pad(b []byte, n int64, width int) []byte {
	var buf [20]byte
	s := strconv.AppendInt(buf[:0], n, 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// appendYear appends a year as toUTCString and toDateString print it:
// at least four digits, with a '-' before negative years ("-0001").
func appendYear(b []byte, y int64) []byte {
	if y < 0 {
		return pad(append(b, '-'), -y, 4)
	}
	return pad(b, y, 4)
}

// appendHMS appends "HH:mm:ss".
func appendHMS(b []byte, f *fields) []byte {
	b = pad(b, int64(f.hour), 2)
	b = append(b, ':')
	b = pad(b, int64(f.min), 2)
	b = append(b, ':')
	return pad(b, int64(f.sec), 2)
}

// ToISOString is §21.4.4.36 Date.prototype.toISOString: the date time
// string format in UTC, "YYYY-MM-DDTHH:mm:ss.sssZ", with the expanded form
// "±YYYYYY" for years before 0 or after 9999 ("-000001-01-01T00:00:00.000Z",
// "+275760-09-13T00:00:00.000Z"). ok is false for an invalid date, where
// the caller throws a RangeError "Invalid time value".
func ToISOString(t float64) (s string, ok bool) {
	f, ok := split(t)
	if !ok {
		return "", false
	}
	b := make([]byte, 0, 27)
	switch {
	case f.year < 0:
		b = pad(append(b, '-'), -f.year, 6)
	case f.year > 9999:
		b = pad(append(b, '+'), f.year, 6)
	default:
		b = pad(b, f.year, 4)
	}
	b = append(b, '-')
	b = pad(b, int64(f.month), 2)
	b = append(b, '-')
	b = pad(b, int64(f.day), 2)
	b = append(b, 'T')
	b = appendHMS(b, &f)
	b = append(b, '.')
	b = pad(b, int64(f.ms), 3)
	b = append(b, 'Z')
	return string(b), true
}

// ToString is the codemode runtime's Date.prototype.toString (and the
// string a Date converts to): the ToISOString form, or "Invalid Date".
// This deliberately differs from V8, whose toString prints "Mon Jan 15 2024
// 10:00:00 GMT+0000 (Coordinated Universal Time)".
func ToString(t float64) string {
	if s, ok := ToISOString(t); ok {
		return s
	}
	return InvalidDate
}

// ToUTCString is §21.4.4.43 Date.prototype.toUTCString (also
// toGMTString): "Mon, 15 Jan 2024 10:00:00 GMT", the year printed with at
// least four digits and a '-' if negative ("Fri, 01 Jan -0001 ...").
func ToUTCString(t float64) string {
	f, ok := split(t)
	if !ok {
		return InvalidDate
	}
	b := make([]byte, 0, 32)
	b = append(b, weekDayNames[f.wday]...)
	b = append(b, ", "...)
	b = pad(b, int64(f.day), 2)
	b = append(b, ' ')
	b = append(b, monthNames[f.month-1]...)
	b = append(b, ' ')
	b = appendYear(b, f.year)
	b = append(b, ' ')
	b = appendHMS(b, &f)
	b = append(b, " GMT"...)
	return string(b)
}

// ToDateString is §21.4.4.35 Date.prototype.toDateString in the UTC time
// zone: "Mon Jan 15 2024".
func ToDateString(t float64) string {
	f, ok := split(t)
	if !ok {
		return InvalidDate
	}
	b := make([]byte, 0, 20)
	b = append(b, weekDayNames[f.wday]...)
	b = append(b, ' ')
	b = append(b, monthNames[f.month-1]...)
	b = append(b, ' ')
	b = pad(b, int64(f.day), 2)
	b = append(b, ' ')
	b = appendYear(b, f.year)
	return string(b)
}

// utcZone is the time zone part of toTimeString as node prints it with
// TZ=UTC.
const utcZone = " GMT+0000 (Coordinated Universal Time)"

// ToTimeString is §21.4.4.42 Date.prototype.toTimeString in the UTC time
// zone: "10:00:00 GMT+0000 (Coordinated Universal Time)".
func ToTimeString(t float64) string {
	f, ok := split(t)
	if !ok {
		return InvalidDate
	}
	b := make([]byte, 0, 8+len(utcZone))
	b = appendHMS(b, &f)
	b = append(b, utcZone...)
	return string(b)
}

// appendLocaleDate appends the en-US numeric date "1/15/2024". Like ICU,
// it prints the year of the era without an era name, so 1 BC (year 0) is
// "1" and year -1 is "2".
func appendLocaleDate(b []byte, f *fields) []byte {
	b = strconv.AppendInt(b, int64(f.month), 10)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(f.day), 10)
	b = append(b, '/')
	y := f.year
	if y <= 0 {
		y = 1 - y
	}
	return strconv.AppendInt(b, y, 10)
}

// appendLocaleTime appends the en-US 12-hour time "10:00:00 AM". Node 26
// (ICU 78) separates AM/PM with a plain U+0020 SPACE, not the U+202F
// NARROW NO-BREAK SPACE of stock ICU 72+ data.
func appendLocaleTime(b []byte, f *fields) []byte {
	h := f.hour % 12
	if h == 0 {
		h = 12
	}
	b = strconv.AppendInt(b, int64(h), 10)
	b = append(b, ':')
	b = pad(b, int64(f.min), 2)
	b = append(b, ':')
	b = pad(b, int64(f.sec), 2)
	if f.hour < 12 {
		return append(b, " AM"...)
	}
	return append(b, " PM"...)
}

// ToLocaleString is Date.prototype.toLocaleString() as the runtime defines
// it: always en-US in UTC, "1/15/2024, 10:00:00 AM" (locale and options
// arguments are not consulted).
func ToLocaleString(t float64) string {
	f, ok := split(t)
	if !ok {
		return InvalidDate
	}
	b := make([]byte, 0, 24)
	b = appendLocaleDate(b, &f)
	b = append(b, ", "...)
	b = appendLocaleTime(b, &f)
	return string(b)
}

// ToLocaleDateString is Date.prototype.toLocaleDateString() in en-US and
// UTC: "1/15/2024".
func ToLocaleDateString(t float64) string {
	f, ok := split(t)
	if !ok {
		return InvalidDate
	}
	return string(appendLocaleDate(make([]byte, 0, 12), &f))
}

// ToLocaleTimeString is Date.prototype.toLocaleTimeString() in en-US and
// UTC: "10:00:00 AM".
func ToLocaleTimeString(t float64) string {
	f, ok := split(t)
	if !ok {
		return InvalidDate
	}
	return string(appendLocaleTime(make([]byte, 0, 12), &f))
}
