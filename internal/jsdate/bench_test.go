package jsdate

import "testing"

var (
	sinkF float64
	sinkS string
)

func BenchmarkParse(b *testing.B) {
	for _, c := range []struct{ name, s string }{
		{"iso", "2024-01-15T10:00:00.123Z"},
		{"date-only", "2024-01-15"},
		{"legacy", "Mon, 15 Jan 2024 10:00:00 GMT"},
		{"legacy-words", "January 15, 2024 10:00:00 PM"},
		{"invalid", "not a date at all"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkF = Parse(c.s)
			}
		})
	}
}

func BenchmarkFormat(b *testing.B) {
	const t = 1705312800123
	for _, c := range []struct {
		name string
		f    func(float64) string
	}{
		{"ISO", func(t float64) string { s, _ := ToISOString(t); return s }},
		{"UTC", ToUTCString},
		{"Locale", ToLocaleString},
		{"Time", ToTimeString},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkS = c.f(t)
			}
		})
	}
}

func BenchmarkFields(b *testing.B) {
	b.ReportAllocs()
	t := 1705312800123.0
	for b.Loop() {
		sinkF = YearFromTime(t) + MonthFromTime(t) + DateFromTime(t) + HourFromTime(t) + MinFromTime(t)
	}
}

func BenchmarkUTC(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkF = UTC(2024, 0, 15, 10, 30, 0, 0, 7)
	}
}

func BenchmarkSetHours(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkF = SetHours(1705312800123, 8, 30)
	}
}
