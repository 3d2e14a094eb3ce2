package jsdate

import (
	"math"
	"testing"
)

// FuzzParse checks that Parse never panics and only returns time values,
// and that every valid time value t survives Parse(ToISOString(t)) (and,
// to the second, Parse(ToUTCString(t)) for years from 100 on, which V8 can
// read back; it takes "-0001" for a stray sign and "0049" for 2049).
func FuzzParse(f *testing.F) {
	for i, s := range []string{
		"2024-01-15T10:00:00.000Z", "+275760-09-13T00:00:00.000Z", "-000001-01-01", "Jan 15, 2024 10:00 PM",
		"Mon, 15 Jan 2024 10:00:00 GMT+0200 (EET)", "1/15/2024", "2024-01-15 10:00:00", "(((", "10:00:00.123",
		"\x00", "\xff\xfe", "Jan\u00a015 2024", "😀 15 Jan 2024", "GMT+596523:00",
	} {
		tvs := []int64{1705312800123, -62198755200000, 8.64e15, -8.64e15, -1, 253402300800000}
		f.Add(s, tvs[i%len(tvs)])
	}
	f.Fuzz(func(t *testing.T, s string, tv int64) {
		v := Parse(s)
		if v == v && (v != math.Trunc(v) || math.Abs(v) > MaxTime || math.Signbit(v) && v == 0) {
			t.Fatalf("Parse(%q) = %v is not a time value", s, v)
		}
		x := float64(tv % (int64(MaxTime) + 1)) // a valid time value
		iso, ok := ToISOString(x)
		if !ok {
			t.Fatalf("ToISOString(%v) failed", x)
		}
		if back := Parse(iso); back != x {
			t.Fatalf("Parse(ToISOString(%v)) = Parse(%q) = %v", x, iso, back)
		}
		if YearFromTime(x) >= 100 {
			utc := ToUTCString(x)
			if back, want := Parse(utc), x-MsFromTime(x); back != want {
				t.Fatalf("Parse(%q) = %v, want %v", utc, back, want)
			}
		}
	})
}
