package jsdate_test

import (
	"fmt"

	"github.com/go-codemode/codemode/internal/jsdate"
)

func ExampleParse() {
	for _, s := range []string{
		"2024-01-15T10:00:00Z",
		"2024-01-15",
		"Jan 15, 2024",
		"Mon, 15 Jan 2024 10:00:00 GMT",
		"1/15/2024 10:00 PM",
		"2024-01-15 10:00:00 GMT+0200",
		"not a date",
	} {
		fmt.Println(jsdate.ToString(jsdate.Parse(s)))
	}
	// Output:
	// 2024-01-15T10:00:00.000Z
	// 2024-01-15T00:00:00.000Z
	// 2024-01-15T00:00:00.000Z
	// 2024-01-15T10:00:00.000Z
	// 2024-01-15T22:00:00.000Z
	// 2024-01-15T08:00:00.000Z
	// Invalid Date
}

func ExampleUTC() {
	// Date.UTC(2024, 0, 15, 10) and new Date(2024, 0, 15, 10): month 0 is
	// January.
	t := jsdate.UTC(2024, 0, 15, 10, 0, 0, 0, 4)
	fmt.Printf("%.0f\n", t)
	// Components overflow into the next unit: month 12 is January of the
	// next year, date 0 the last day of the previous month.
	fmt.Println(jsdate.ToString(jsdate.UTC(2024, 12, 0, 0, 0, 0, 0, 3)))
	// Years 0 to 99 mean 1900 to 1999.
	fmt.Println(jsdate.ToString(jsdate.UTC(99, 0, 1, 0, 0, 0, 0, 3)))
	// Output:
	// 1705312800000
	// 2024-12-31T00:00:00.000Z
	// 1999-01-01T00:00:00.000Z
}

func ExampleToISOString() {
	for _, t := range []float64{0, -1, 8.64e15, jsdate.Parse("-000001-01-01")} {
		s, _ := jsdate.ToISOString(t)
		fmt.Println(s)
	}
	_, ok := jsdate.ToISOString(jsdate.Parse("garbage"))
	fmt.Println(ok) // the caller throws RangeError: Invalid time value
	// Output:
	// 1970-01-01T00:00:00.000Z
	// 1969-12-31T23:59:59.999Z
	// +275760-09-13T00:00:00.000Z
	// -000001-01-01T00:00:00.000Z
	// false
}

func ExampleToLocaleString() {
	t := jsdate.Parse("2024-01-15T22:05:09Z")
	fmt.Println(jsdate.ToLocaleString(t))
	fmt.Println(jsdate.ToLocaleDateString(t))
	fmt.Println(jsdate.ToLocaleTimeString(t))
	fmt.Println(jsdate.ToUTCString(t))
	fmt.Println(jsdate.ToDateString(t))
	fmt.Println(jsdate.ToTimeString(t))
	// Output:
	// 1/15/2024, 10:05:09 PM
	// 1/15/2024
	// 10:05:09 PM
	// Mon, 15 Jan 2024 22:05:09 GMT
	// Mon Jan 15 2024
	// 22:05:09 GMT+0000 (Coordinated Universal Time)
}

func ExampleSetHours() {
	// d.setUTCHours(25) on 2024-01-15T10:00:00.123Z: the hour overflows
	// into the next day; minutes, seconds and milliseconds are kept.
	t := jsdate.Parse("2024-01-15T10:00:00.123Z")
	fmt.Println(jsdate.ToString(jsdate.SetHours(t, 25)))
	// d.setUTCHours(8, 30, 0, 0)
	fmt.Println(jsdate.ToString(jsdate.SetHours(t, 8, 30, 0, 0)))
	// Output:
	// 2024-01-16T01:00:00.123Z
	// 2024-01-15T08:30:00.000Z
}

func ExampleMakeDay() {
	day := jsdate.MakeDay(2024, 1, 29) // February 29, 2024
	t := jsdate.TimeClip(jsdate.MakeDate(day, jsdate.MakeTime(12, 0, 0, 0)))
	fmt.Println(jsdate.ToString(t), jsdate.WeekDay(t), jsdate.InLeapYear(t))
	// Output:
	// 2024-02-29T12:00:00.000Z 4 1
}
