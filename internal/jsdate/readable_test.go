package jsdate

import (
	"math"
	"testing"
)

// These hand-written cases double as documentation. Every expectation that
// JavaScript can observe was checked against node 26 with TZ=UTC and
// LANG=en_US; the rest follow ECMA-262's definitions.

var (
	nan    = math.NaN()
	inf    = math.Inf(1)
	negInf = math.Inf(-1)
	negZ   = math.Copysign(0, -1)
)

func TestAbstractOperationExamples(t *testing.T) {
	const jan15 = 1705312800123 // 2024-01-15T10:00:00.123Z, a Monday
	for _, c := range []struct {
		name string
		got  float64
		want float64
	}{
		{"Day(0)", Day(0), 0},
		{"Day(-1)", Day(-1), -1},
		{"Day(-0)", Day(negZ), 0}, // never -0
		{"Day(jan15)", Day(jan15), 19737},
		{"Day(NaN)", Day(nan), nan},
		{"Day(8.64e15)", Day(MaxTime), 1e8},
		{"TimeWithinDay(-1)", TimeWithinDay(-1), MsPerDay - 1},
		{"TimeWithinDay(-0.5)", TimeWithinDay(-0.5), MsPerDay - 0.5},
		{"TimeWithinDay(jan15)", TimeWithinDay(jan15), 36000123},
		{"DaysInYear(2024)", DaysInYear(2024), 366},
		{"DaysInYear(2023)", DaysInYear(2023), 365},
		{"DaysInYear(1900)", DaysInYear(1900), 365},
		{"DaysInYear(2000)", DaysInYear(2000), 366},
		{"DaysInYear(0)", DaysInYear(0), 366},
		{"DaysInYear(-4)", DaysInYear(-4), 366},
		{"DaysInYear(-100)", DaysInYear(-100), 365},
		{"DayFromYear(1970)", DayFromYear(1970), 0},
		{"DayFromYear(1971)", DayFromYear(1971), 365},
		{"DayFromYear(1969)", DayFromYear(1969), -365},
		{"DayFromYear(2000)", DayFromYear(2000), 10957},
		{"DayFromYear(0)", DayFromYear(0), -719528},
		{"TimeFromYear(2024)", TimeFromYear(2024), 1704067200000},
		{"YearFromTime(jan15)", YearFromTime(jan15), 2024},
		{"YearFromTime(-1)", YearFromTime(-1), 1969},
		{"YearFromTime(-8.64e15)", YearFromTime(-MaxTime), -271821},
		{"YearFromTime(8.64e15)", YearFromTime(MaxTime), 275760},
		{"YearFromTime(Infinity)", YearFromTime(inf), nan},
		{"DayWithinYear(jan15)", DayWithinYear(jan15), 14},
		{"DayWithinYear(Dec 31 2024)", DayWithinYear(1735603200000), 365},
		{"InLeapYear(jan15)", InLeapYear(jan15), 1},
		{"InLeapYear(0)", InLeapYear(0), 0},
		{"MonthFromTime(jan15)", MonthFromTime(jan15), 0},
		{"MonthFromTime(-1)", MonthFromTime(-1), 11},
		{"DateFromTime(jan15)", DateFromTime(jan15), 15},
		{"DateFromTime(Feb 29 2024)", DateFromTime(1709164800000), 29},
		{"WeekDay(0)", WeekDay(0), 4}, // Thursday
		{"WeekDay(jan15)", WeekDay(jan15), 1},
		{"WeekDay(-1)", WeekDay(-1), 3},
		{"HourFromTime(jan15)", HourFromTime(jan15), 10},
		{"HourFromTime(-1)", HourFromTime(-1), 23},
		{"MinFromTime(-1)", MinFromTime(-1), 59},
		{"SecFromTime(-1)", SecFromTime(-1), 59},
		{"MsFromTime(-1)", MsFromTime(-1), 999},
		{"MsFromTime(jan15)", MsFromTime(jan15), 123},
		{"MsFromTime(1.5)", MsFromTime(1.5), 1.5},
		{"MsFromTime(-0)", MsFromTime(negZ), 0},
		{"MakeTime(10, 0, 0, 123)", MakeTime(10, 0, 0, 123), 36000123},
		{"MakeTime(25, -1, 0.9, -0.9)", MakeTime(25, -1, 0.9, -0.9), 89940000},
		{"MakeTime(NaN, 0, 0, 0)", MakeTime(nan, 0, 0, 0), nan},
		{"MakeTime(0, Infinity, 0, 0)", MakeTime(0, inf, 0, 0), nan},
		{"MakeDay(2024, 0, 15)", MakeDay(2024, 0, 15), 19737},
		{"MakeDay(2024, 12, 1)", MakeDay(2024, 12, 1), 20089}, // 2025-01-01
		{"MakeDay(2024, -1, 1)", MakeDay(2024, -1, 1), 19692}, // 2023-12-01
		{"MakeDay(2024, 1, 30)", MakeDay(2024, 1, 30), 19783}, // 2024-03-01
		{"MakeDay(2024, 0, 0)", MakeDay(2024, 0, 0), 19722},   // 2023-12-31
		{"MakeDay(2024.9, 0.9, 1.9)", MakeDay(2024.9, 0.9, 1.9), 19723},
		{"MakeDay(2024, 0, -Infinity)", MakeDay(2024, 0, negInf), nan},
		{"MakeDay(1e6, 0, 1)", MakeDay(1e6, 0, 1), 364522972},
		{"MakeDay(1e6+1, 0, 1)", MakeDay(1e6+1, 0, 1), nan},      // V8's bound
		{"MakeDay(-1e6, 0, 1)", MakeDay(-1e6, 0, 1), -365962027}, // V8's arithmetic; exact is -365962028
		{"MakeDate(19737, 36000123)", MakeDate(19737, 36000123), 1705312800123},
		{"MakeDate(1e305, 0)", MakeDate(1e305, 0), nan},
		{"MakeDate(NaN, 0)", MakeDate(nan, 0), nan},
		{"TimeClip(1.9)", TimeClip(1.9), 1},
		{"TimeClip(-1.9)", TimeClip(-1.9), -1},
		{"TimeClip(-0)", TimeClip(negZ), 0},
		{"TimeClip(-0.5)", TimeClip(-0.5), 0},
		{"TimeClip(8.64e15)", TimeClip(MaxTime), MaxTime},
		{"TimeClip(8.64e15+1)", TimeClip(MaxTime + 1), nan},
		{"TimeClip(-Infinity)", TimeClip(negInf), nan},
		{"TimezoneOffset(0)", TimezoneOffset(0), 0},
		{"TimezoneOffset(NaN)", TimezoneOffset(nan), nan},
		{"GetYear(jan15)", GetYear(jan15), 124},
	} {
		if !same(c.got, c.want) {
			t.Errorf("%s = %s, want %s", c.name, fmtNum(c.got), fmtNum(c.want))
		}
	}
}

func TestUTCExamples(t *testing.T) {
	for _, c := range []struct {
		args []float64
		want float64
	}{
		{nil, nan},
		{[]float64{2024}, 1704067200000},
		{[]float64{2024, 0, 15, 10}, 1705312800000},
		{[]float64{2024, 12, 1}, 1735689600000},     // month 12 is next January
		{[]float64{2024, 0, 0}, 1703980800000},      // date 0 is the last day of December
		{[]float64{2023, 1, 29}, 1677628800000},     // 2023-03-01
		{[]float64{2024, 0, 15, -1}, 1705273200000}, // 23:00 the day before
		{[]float64{99, 0, 1}, 915148800000},         // 1999
		{[]float64{100, 0, 1}, -59011459200000},     // year 100
		{[]float64{-1, 0, 1}, -62198755200000},      // 2 BC
		{[]float64{2024, 0, 15, 10, 0, 0, 1.9}, 1705312800001},
		{[]float64{2024, nan}, nan},
		{[]float64{2024, inf}, nan},
		{[]float64{275760, 8, 13}, MaxTime},
		{[]float64{275760, 8, 13, 0, 0, 0, 1}, nan},
		{[]float64{1e6, 0, 1}, nan},
		{[]float64{2e6, 0, -7.3e8}, nan},             // V8's MakeDay bound
		{[]float64{-1e6, 0, 3e8}, -5699119219200000}, // V8's MakeDay arithmetic
	} {
		var v [7]float64
		copy(v[:], c.args)
		if got := UTC(v[0], v[1], v[2], v[3], v[4], v[5], v[6], len(c.args)); !same(got, c.want) {
			t.Errorf("UTC(%v) = %s, want %s", c.args, fmtNum(got), fmtNum(c.want))
		}
	}
}

func TestSetterExamples(t *testing.T) {
	const jan15 = 1705312800123 // 2024-01-15T10:00:00.123Z
	for _, c := range []struct {
		name string
		got  float64
		want float64
	}{
		{"setUTCHours(25)", SetHours(jan15, 25), 1705366800123},
		{"setUTCMonth(1, 31)", SetMonth(jan15, 1, 31), 1709373600123}, // March 2
		{"setUTCFullYear(2024) on NaN", SetFullYear(nan, 2024), 1704067200000},
		{"setUTCHours(1) on NaN", SetHours(nan, 1), nan},
		{"setYear(99)", SetYear(jan15, 99), 916394400123},
		{"setYear(NaN)", SetYear(jan15, nan), nan},
		{"setUTCDate(0)", SetDate(jan15, 0), 1704016800123},
		{"setUTCMinutes(-1, 61)", SetMinutes(jan15, -1, 61), 1705312801123},
		{"setUTCMilliseconds()", SetMilliseconds(jan15), nan},
		{"setUTCFullYear(2024, 1, 30)", SetFullYear(jan15, 2024, 1, 30), 1709287200123},
		{"setUTCSeconds(0, 0, 99) (extra argument)", SetSeconds(jan15, 0, 0, 99), 1705312800000},
	} {
		if !same(c.got, c.want) {
			t.Errorf("%s = %s, want %s", c.name, fmtNum(c.got), fmtNum(c.want))
		}
	}
}

func TestFormatExamples(t *testing.T) {
	for _, c := range []struct {
		t                                       float64
		iso, utc, date, time, loc, ldate, ltime string
	}{
		{1705312800123, "2024-01-15T10:00:00.123Z", "Mon, 15 Jan 2024 10:00:00 GMT", "Mon Jan 15 2024",
			"10:00:00 GMT+0000 (Coordinated Universal Time)", "1/15/2024, 10:00:00 AM", "1/15/2024", "10:00:00 AM"},
		{1705356000000, "2024-01-15T22:00:00.000Z", "Mon, 15 Jan 2024 22:00:00 GMT", "Mon Jan 15 2024",
			"22:00:00 GMT+0000 (Coordinated Universal Time)", "1/15/2024, 10:00:00 PM", "1/15/2024", "10:00:00 PM"},
		{0, "1970-01-01T00:00:00.000Z", "Thu, 01 Jan 1970 00:00:00 GMT", "Thu Jan 01 1970",
			"00:00:00 GMT+0000 (Coordinated Universal Time)", "1/1/1970, 12:00:00 AM", "1/1/1970", "12:00:00 AM"},
		{-1, "1969-12-31T23:59:59.999Z", "Wed, 31 Dec 1969 23:59:59 GMT", "Wed Dec 31 1969",
			"23:59:59 GMT+0000 (Coordinated Universal Time)", "12/31/1969, 11:59:59 PM", "12/31/1969", "11:59:59 PM"},
		// Year -1 is 2 BC; en-US prints the era year without the era.
		{-62198755200000, "-000001-01-01T00:00:00.000Z", "Fri, 01 Jan -0001 00:00:00 GMT", "Fri Jan 01 -0001",
			"00:00:00 GMT+0000 (Coordinated Universal Time)", "1/1/2, 12:00:00 AM", "1/1/2", "12:00:00 AM"},
		{MaxTime, "+275760-09-13T00:00:00.000Z", "Sat, 13 Sep 275760 00:00:00 GMT", "Sat Sep 13 275760",
			"00:00:00 GMT+0000 (Coordinated Universal Time)", "9/13/275760, 12:00:00 AM", "9/13/275760", "12:00:00 AM"},
		{253402300800000, "+010000-01-01T00:00:00.000Z", "Sat, 01 Jan 10000 00:00:00 GMT", "Sat Jan 01 10000",
			"00:00:00 GMT+0000 (Coordinated Universal Time)", "1/1/10000, 12:00:00 AM", "1/1/10000", "12:00:00 AM"},
	} {
		iso, ok := ToISOString(c.t)
		got := []string{iso, ToUTCString(c.t), ToDateString(c.t), ToTimeString(c.t), ToLocaleString(c.t),
			ToLocaleDateString(c.t), ToLocaleTimeString(c.t), ToString(c.t)}
		want := []string{c.iso, c.utc, c.date, c.time, c.loc, c.ldate, c.ltime, c.iso}
		if !ok {
			t.Errorf("ToISOString(%s) failed", fmtNum(c.t))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("format %d of %s = %q, want %q", i, fmtNum(c.t), got[i], want[i])
			}
		}
	}
	for _, x := range []float64{nan, inf, MaxTime + 1} {
		if s, ok := ToISOString(x); ok {
			t.Errorf("ToISOString(%s) = %q, want failure", fmtNum(x), s)
		}
		for _, f := range []func(float64) string{ToString, ToUTCString, ToDateString, ToTimeString,
			ToLocaleString, ToLocaleDateString, ToLocaleTimeString} {
			if s := f(x); s != InvalidDate {
				t.Errorf("formatting %s gave %q, want %q", fmtNum(x), s, InvalidDate)
			}
		}
	}
}

func TestParseExamples(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
	}{
		// The ECMAScript format. Date-only forms are UTC; date-times
		// without an offset are local time, which is UTC.
		{"2024", 1704067200000},
		{"2024-01", 1704067200000},
		{"2024-01-15", 1705276800000},
		{"2024-01-15T10:00", 1705312800000},
		{"2024-01-15T10:00:00", 1705312800000},
		{"2024-01-15T10:00:00.5Z", 1705312800500},
		{"2024-01-15T10:00:00.123456Z", 1705312800123}, // extra digits ignored
		{"2024-01-15T10:00:00+02:00", 1705305600000},
		{"2024-01-15T10:00:00-0530", 1705332600000},
		{"2024-01-15T24:00:00Z", 1705363200000},
		{"2024-01-15T24:00:01Z", nan},
		{"2024-02-30", 1709251200000}, // days up to 31 are accepted and overflow
		{"2024-13-01", nan},
		{"+275760-09-13T00:00:00.000Z", MaxTime},
		{"+275760-09-13T00:00:00.001Z", nan},
		{"-271821-04-20T00:00:00.000Z", -MaxTime},
		{"-000001-01-01T00:00:00Z", -62198755200000},
		{"-000000-01-01T00:00:00Z", nan},
		{"2024-01-15T10:00:00Z junk", nan},
		{"2024-01-15T10:00:00 GMT", nan},
		// Legacy formats.
		{"Jan 15, 2024", 1705276800000},
		{"January 15, 2024 10:00:00", 1705312800000},
		{"15 Jan 2024", 1705276800000},
		{"Mon, 15 Jan 2024 10:00:00 GMT", 1705312800000},
		{"Mon Jan 15 2024 10:00:00 GMT+0200 (Eastern European Standard Time)", 1705305600000},
		{"2024/01/15", 1705276800000},
		{"1/15/2024", 1705276800000},
		{"2024-01-15 10:00:00", 1705312800000},
		{"2024-01-15\u00a010:00", 1705312800000},
		{"Jan 15 2024 10:00 PM", 1705356000000},
		{"Jan 15 2024 12:00 AM", 1705276800000},
		{"Jan 15 2024 10:00:00 UTC+5", 1705294800000},
		{"Jan 15 2024 10:00:00 EST", 1705330800000},
		{"Jan 15 2024 10:00:00 +05:30", 1705293000000},
		{"Jan 15 2024 (a (nested) comment) 10:00", 1705312800000},
		{"Sept 5, 2024", 1725494400000},
		{"Feb 30 2024", 1709251200000},
		{"Jan 15", 979516800000},   // no year: 2001
		{"1/15/49", 2494281600000}, // 2049
		{"1/15/50", -629942400000}, // 1950
		{"Jan 15 2024 Mon", nan},   // words after a number
		{"Jan 15th, 2024", nan},
		{"10:00", nan},
		{"20240115", nan},
		{"1e3", nan},
		{"garbage", nan},
		{"", nan},
	} {
		if got := Parse(c.in); !same(got, c.want) {
			t.Errorf("Parse(%q) = %s, want %s", c.in, fmtNum(got), fmtNum(c.want))
		}
	}
}
