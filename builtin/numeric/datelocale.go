package numeric

import (
	"math"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // timeZone options must not depend on the host's zoneinfo

	"github.com/go-codemode/codemode/internal/jsdate"
	"github.com/go-codemode/codemode/value"
)

// Date.prototype.toLocaleString, toLocaleDateString and
// toLocaleTimeString: always en-US, in UTC unless a timeZone option names
// another zone. With no options they are jsdate's fixed formats; with
// options they follow Intl.DateTimeFormat for en-US: the component
// options (weekday, era, year, month, day, hour, minute, second,
// fractionalSecondDigits, timeZoneName), hour12/hourCycle, dateStyle and
// timeStyle, laid out with the patterns ICU uses for en-US. Options are
// read and checked in ECMA-402's order with V8's messages.

// localeKind says which components a method requires and shows by
// default (ToDateTimeOptions' required and defaults).
type localeKind int

const (
	localeDateTime localeKind = iota
	localeDate
	localeTime
)

// localeStringer makes Date.prototype.toLocaleString and its date and
// time forms.
func localeStringer(name string, plain func(float64) string, kind localeKind) *value.Native {
	return native("Date.prototype."+name, 0, func(r *value.Realm, c *value.Call) value.Value {
		t := thisDateMethod(r, c, name).t
		locales, options := c.Arg(0), c.Arg(1)
		checkLocales(r, locales)
		if options.IsUndefined() {
			return value.StrOf(plain(t))
		}
		f := readDateOptions(r, "Date.prototype."+name, options, kind)
		if math.IsNaN(t) {
			return value.StrOf(jsdate.InvalidDate)
		}
		return value.StrOf(f.format(t))
	})
}

// dateFormat holds resolved Intl.DateTimeFormat options.
type dateFormat struct {
	weekday, era, year, month, day string
	hour, minute, second           string
	fractional                     int
	zoneName                       string
	hour12                         bool
	dateStyle, timeStyle           string
	zone                           *time.Location // nil for UTC
}

func readDateOptions(r *value.Realm, owner string, options value.Value, kind localeKind) *dateFormat {
	if options.IsNull() {
		r.ThrowType("%s called on null or undefined", owner)
	}
	opts := value.Obj(r.ToObject(options))
	get := func(name string, allowed ...string) string {
		v := r.Get(opts, name)
		if v.IsUndefined() {
			return ""
		}
		s := r.ToString(v).String()
		if len(allowed) > 0 && !contains(allowed, s) {
			r.ThrowRange("Value %s out of range for %s options property %s", s, owner, name)
		}
		return s
	}
	f := &dateFormat{hour12: true}
	get("localeMatcher", "lookup", "best fit")
	if cal := get("calendar"); cal != "" && cal != "gregory" && cal != "iso8601" {
		checkLanguageTag(r, "en-"+cal)
	}
	if nu := get("numberingSystem"); nu != "" && nu != "latn" {
		checkLanguageTag(r, "en-"+nu)
	}
	hour12 := r.Get(opts, "hour12")
	cycle := get("hourCycle", "h11", "h12", "h23", "h24")
	switch {
	case !hour12.IsUndefined():
		f.hour12 = hour12.ToBoolean()
	case cycle != "":
		f.hour12 = cycle == "h11" || cycle == "h12"
	}
	if tz := r.Get(opts, "timeZone"); !tz.IsUndefined() {
		f.zone = loadZone(r, r.ToString(tz).String())
	}
	f.weekday = get("weekday", "narrow", "short", "long")
	f.era = get("era", "narrow", "short", "long")
	f.year = get("year", "2-digit", "numeric")
	f.month = get("month", "2-digit", "numeric", "narrow", "short", "long")
	f.day = get("day", "2-digit", "numeric")
	if get("dayPeriod", "narrow", "short", "long") != "" {
		r.ThrowType("%s: the dayPeriod option is not supported.", owner)
	}
	f.hour = get("hour", "2-digit", "numeric")
	f.minute = get("minute", "2-digit", "numeric")
	f.second = get("second", "2-digit", "numeric")
	f.fractional = defaultNumberOption(r, r.Get(opts, "fractionalSecondDigits"), "fractionalSecondDigits", 1, 3, 0)
	f.zoneName = get("timeZoneName", "short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric")
	get("formatMatcher", "basic", "best fit")
	f.dateStyle = get("dateStyle", "full", "long", "medium", "short")
	f.timeStyle = get("timeStyle", "full", "long", "medium", "short")
	hasDate := f.weekday != "" || f.year != "" || f.month != "" || f.day != ""
	hasTime := f.hour != "" || f.minute != "" || f.second != "" || f.fractional != 0
	if f.dateStyle != "" || f.timeStyle != "" {
		if hasDate || hasTime || f.era != "" || f.zoneName != "" {
			r.ThrowType("Invalid option : option")
		}
		if kind == localeDate && f.timeStyle != "" {
			r.ThrowType("Invalid option : timeStyle")
		}
		if kind == localeTime && f.dateStyle != "" {
			r.ThrowType("Invalid option : dateStyle")
		}
		return f
	}
	needDefaults := true
	if kind != localeTime && hasDate {
		needDefaults = false
	}
	if kind != localeDate && hasTime {
		needDefaults = false
	}
	if needDefaults {
		if kind != localeTime {
			f.year, f.month, f.day = "numeric", "numeric", "numeric"
		}
		if kind != localeDate {
			f.hour, f.minute, f.second = "numeric", "numeric", "numeric"
		}
	}
	return f
}

// loadZone resolves a timeZone option: UTC and its aliases, IANA names
// and ±hh:mm offsets.
func loadZone(r *value.Realm, name string) *time.Location {
	switch strings.ToUpper(name) {
	case "UTC", "ETC/UTC", "GMT", "ETC/GMT", "Z", "ETC/ZULU", "ZULU", "UCT", "ETC/UCT", "UNIVERSAL", "ETC/UNIVERSAL":
		return nil
	}
	if len(name) == 6 && (name[0] == '+' || name[0] == '-') && name[3] == ':' {
		h, err1 := strconv.Atoi(name[1:3])
		m, err2 := strconv.Atoi(name[4:6])
		if err1 == nil && err2 == nil && h <= 23 && m <= 59 {
			off := h*3600 + m*60
			if name[0] == '-' {
				off = -off
			}
			return time.FixedZone(name, off)
		}
	}
	if name != "" && !strings.Contains(name, "..") && name[0] != '/' {
		if loc, err := time.LoadLocation(name); err == nil {
			return loc
		}
	}
	r.ThrowRange("Invalid time zone specified: %s", name)
	return nil
}

// localFields are the calendar fields of t in the format's zone.
type localFields struct {
	year                     int64
	month, day               int // 1-based month
	hour, min, sec, ms, wday int
	offset                   int // seconds east of UTC
	abbr                     string
}

func (f *dateFormat) fields(t float64) localFields {
	var lf localFields
	if f.zone != nil {
		tt := time.UnixMilli(int64(t)).In(f.zone)
		lf.abbr, lf.offset = tt.Zone()
		t += float64(lf.offset) * 1000
	}
	lf.year = int64(jsdate.YearFromTime(t))
	lf.month = int(jsdate.MonthFromTime(t)) + 1
	lf.day = int(jsdate.DateFromTime(t))
	lf.hour = int(jsdate.HourFromTime(t))
	lf.min = int(jsdate.MinFromTime(t))
	lf.sec = int(jsdate.SecFromTime(t))
	lf.ms = int(jsdate.MsFromTime(t))
	lf.wday = int(jsdate.WeekDay(t))
	return lf
}

var (
	weekdayLong = [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	monthLong   = [12]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

func two(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func (f *dateFormat) format(t float64) string {
	lf := f.fields(t)
	if f.dateStyle != "" || f.timeStyle != "" {
		return f.styled(&lf)
	}
	date := f.datePart(&lf)
	tm := f.timePart(&lf)
	switch {
	case tm == "":
		if f.zoneName != "" {
			return date + ", " + f.zoneString(&lf)
		}
		return date
	case date == "":
		return tm
	case f.weekday != "" && f.year == "" && f.month == "" && f.day == "" && f.era == "":
		return date + " " + tm // "Friday 3:07 PM"
	case f.month == "long":
		return date + " at " + tm
	}
	return date + ", " + tm
}

// styled lays out dateStyle/timeStyle.
func (f *dateFormat) styled(lf *localFields) string {
	var date, tm string
	switch f.dateStyle {
	case "full":
		date = weekdayLong[lf.wday] + ", " + monthLong[lf.month-1] + " " + strconv.Itoa(lf.day) + ", " + f.yearString(lf, "numeric")
	case "long":
		date = monthLong[lf.month-1] + " " + strconv.Itoa(lf.day) + ", " + f.yearString(lf, "numeric")
	case "medium":
		date = monthLong[lf.month-1][:3] + " " + strconv.Itoa(lf.day) + ", " + f.yearString(lf, "numeric")
	case "short":
		date = strconv.Itoa(lf.month) + "/" + strconv.Itoa(lf.day) + "/" + f.yearString(lf, "2-digit")
	}
	if f.timeStyle != "" {
		g := *f
		g.hour, g.minute, g.second = "numeric", "2-digit", "2-digit"
		g.zoneName = ""
		switch f.timeStyle {
		case "full":
			g.zoneName = "long"
		case "long":
			g.zoneName = "short"
		case "short":
			g.second = ""
		}
		tm = g.timePart(lf)
	}
	switch {
	case tm == "":
		return date
	case date == "":
		return tm
	case f.dateStyle == "full" || f.dateStyle == "long":
		return date + " at " + tm
	}
	return date + ", " + tm
}

// yearString is the year of the era (1 BC is year 1), as ICU prints it.
func (f *dateFormat) yearString(lf *localFields, width string) string {
	y := lf.year
	if y <= 0 {
		y = 1 - y
	}
	if width == "2-digit" {
		return two(int(y % 100))
	}
	return strconv.FormatInt(y, 10)
}

func (f *dateFormat) eraString(lf *localFields) string {
	bc := lf.year <= 0
	switch f.era {
	case "long":
		if bc {
			return "Before Christ"
		}
		return "Anno Domini"
	case "narrow":
		if bc {
			return "B"
		}
		return "A"
	}
	if bc {
		return "BC"
	}
	return "AD"
}

func (f *dateFormat) weekdayString(lf *localFields) string {
	w := weekdayLong[lf.wday]
	switch f.weekday {
	case "short":
		return w[:3]
	case "narrow":
		return w[:1]
	}
	return w
}

func (f *dateFormat) monthText(lf *localFields) string {
	m := monthLong[lf.month-1]
	switch f.month {
	case "short":
		return m[:3]
	case "narrow":
		return m[:1]
	}
	return m
}

func (f *dateFormat) numField(n int, width string) string {
	if width == "2-digit" {
		return two(n)
	}
	return strconv.Itoa(n)
}

// datePart is the date half of the pattern (en-US availableFormats).
func (f *dateFormat) datePart(lf *localFields) string {
	var s string
	y := ""
	if f.year != "" {
		y = f.yearString(lf, f.year)
		if f.era != "" {
			y += " " + f.eraString(lf)
		}
	} else if f.era != "" && f.month == "" && f.day == "" && f.weekday == "" {
		return f.eraString(lf)
	}
	d := ""
	if f.day != "" {
		d = f.numField(lf.day, f.day)
	}
	switch f.month {
	case "narrow", "short", "long":
		m := f.monthText(lf)
		switch {
		case d != "" && y != "":
			s = m + " " + d + ", " + y
		case d != "":
			s = m + " " + d
		case y != "":
			s = m + " " + y
		default:
			s = m
		}
		if f.weekday != "" {
			s = f.weekdayString(lf) + ", " + s
		}
		return s
	case "numeric", "2-digit":
		parts := []string{f.numField(lf.month, f.month)}
		if d != "" {
			parts = append(parts, d)
		}
		if y != "" {
			parts = append(parts, y)
		}
		s = strings.Join(parts, "/")
		if f.weekday != "" {
			s = f.weekdayString(lf) + ", " + s
		}
		return s
	}
	switch {
	case d != "" && y != "":
		s = y + " (day: " + d + ")"
	case d != "":
		s = d
		if f.weekday != "" {
			return d + " " + f.weekdayString(lf)
		}
	case y != "":
		s = y
	}
	if f.weekday != "" {
		if s == "" {
			return f.weekdayString(lf)
		}
		return f.weekdayString(lf) + ", " + s
	}
	return s
}

// timePart is the time half of the pattern.
func (f *dateFormat) timePart(lf *localFields) string {
	if f.hour == "" && f.minute == "" && f.second == "" && f.fractional == 0 {
		return ""
	}
	var b strings.Builder
	frac := func() {
		if f.fractional > 0 {
			b.WriteByte('.')
			ms := strconv.Itoa(1000 + lf.ms)[1:]
			b.WriteString(ms[:f.fractional])
		}
	}
	if f.hour == "" {
		switch {
		case f.minute != "" && (f.second != "" || f.fractional > 0):
			b.WriteString(two(lf.min) + ":" + two(lf.sec))
			frac()
		case f.minute != "":
			b.WriteString(strconv.Itoa(lf.min))
		case f.second != "":
			b.WriteString(strconv.Itoa(lf.sec))
			frac()
		default:
			b.WriteString(strconv.Itoa(1000 + lf.ms)[1 : 1+f.fractional])
		}
	} else {
		h := lf.hour
		if f.hour12 {
			h %= 12
			if h == 0 {
				h = 12
			}
			b.WriteString(f.numField(h, f.hour))
		} else {
			b.WriteString(two(h))
		}
		if f.minute != "" {
			b.WriteString(":" + two(lf.min))
			if f.second != "" {
				b.WriteString(":" + two(lf.sec))
				frac()
			}
		}
		if f.hour12 {
			if lf.hour < 12 {
				b.WriteString(" AM")
			} else {
				b.WriteString(" PM")
			}
		}
		if f.minute == "" && f.second != "" {
			return b.String() + " (second: " + strconv.Itoa(lf.sec) + ")"
		}
	}
	if f.zoneName != "" {
		b.WriteString(" " + f.zoneString(lf))
	}
	return b.String()
}

// usZones are the zones en-US names by abbreviation, with their long
// names.
var usZones = map[string]string{
	"EST": "Eastern Standard Time", "EDT": "Eastern Daylight Time",
	"CST": "Central Standard Time", "CDT": "Central Daylight Time",
	"MST": "Mountain Standard Time", "MDT": "Mountain Daylight Time",
	"PST": "Pacific Standard Time", "PDT": "Pacific Daylight Time",
	"AKST": "Alaska Standard Time", "AKDT": "Alaska Daylight Time",
	"HST": "Hawaii-Aleutian Standard Time",
}

// longZoneNames are the long names of other common zones, by their tz
// abbreviation.
var longZoneNames = map[string]string{
	"GMT": "Greenwich Mean Time", "BST": "British Summer Time",
	"CET": "Central European Standard Time", "CEST": "Central European Summer Time",
	"EET": "Eastern European Standard Time", "EEST": "Eastern European Summer Time",
	"WET": "Western European Standard Time", "WEST": "Western European Summer Time",
	"IST": "India Standard Time", "JST": "Japan Standard Time",
}

// zoneString is the timeZoneName part.
func (f *dateFormat) zoneString(lf *localFields) string {
	utc := f.zone == nil
	switch f.zoneName {
	case "short":
		if utc {
			return "UTC"
		}
		if _, ok := usZones[lf.abbr]; ok {
			return lf.abbr
		}
		if lf.abbr == "GMT" && lf.offset == 0 {
			return "GMT"
		}
	case "long":
		if utc {
			return "Coordinated Universal Time"
		}
		if n, ok := usZones[lf.abbr]; ok {
			return n
		}
		if n, ok := longZoneNames[lf.abbr]; ok && !(lf.abbr == "IST" && lf.offset != 19800) {
			return n
		}
		return offsetString(lf.offset, true)
	case "longOffset":
		return offsetString(lf.offset, true)
	case "shortGeneric", "longGeneric":
		if n, ok := usZones[lf.abbr]; ok {
			if f.zoneName == "shortGeneric" {
				return lf.abbr[:1] + "T"
			}
			return strings.Replace(strings.Replace(n, " Standard", "", 1), " Daylight", "", 1)
		}
	}
	return offsetString(lf.offset, false)
}

// offsetString is "GMT+5:30" (short) or "GMT+05:30" (long); "GMT+0" and
// "GMT+00:00" for UTC.
func offsetString(off int, long bool) string {
	sign := "+"
	if off < 0 {
		sign = "-"
		off = -off
	}
	h, m, sec := off/3600, off/60%60, off%60
	var s string
	if long {
		s = "GMT" + sign + two(h) + ":" + two(m)
	} else {
		s = "GMT" + sign + strconv.Itoa(h)
		if m != 0 || sec != 0 {
			s += ":" + two(m)
		}
	}
	if sec != 0 { // local mean time offsets of old dates
		s += ":" + two(sec)
	}
	return s
}
