// Package jsdate implements JavaScript's Date algorithms on time values,
// following ECMAScript 2025 (ECMA-262 §21.4) and, where the specification
// leaves a choice to the implementation, the behaviour of V8 as shipped in
// node 26.
//
// A time value is a float64 holding milliseconds since 1970-01-01T00:00:00Z,
// integral and within ±8.64e15 ([MaxTime]), or NaN for an invalid date. It
// is exactly the [[DateValue]] slot of a JavaScript Date object.
//
// # Determinism
//
// Nothing in this package reads the host's clock, time zone or locale:
//
//   - The "local" time zone is always UTC. LocalTZA is 0, LocalTime(t) and
//     UTC(t) of the specification are the identity, so the local and UTC
//     getters and setters of Date.prototype share one implementation (for
//     example getHours and getUTCHours are both [HourFromTime]), and a
//     date-time string without an offset, which ECMAScript reads as local
//     time, is read as UTC.
//   - Locale formatting is always en-US in UTC, as node prints it with
//     TZ=UTC and LANG=en_US ([ToLocaleString], [ToLocaleDateString],
//     [ToLocaleTimeString]).
//
// # Contents
//
//   - §21.4.1 abstract operations: [Day], [TimeWithinDay], [DaysInYear],
//     [DayFromYear], [TimeFromYear], [YearFromTime], [DayWithinYear],
//     [InLeapYear], [MonthFromTime], [DateFromTime], [WeekDay],
//     [HourFromTime], [MinFromTime], [SecFromTime], [MsFromTime], [MakeTime],
//     [MakeDay], [MakeDate], [TimeClip].
//   - §21.4.3.4 Date.UTC and the component form of the Date constructor:
//     [UTC].
//   - §21.4.3.2 Date.parse: [Parse], the ECMAScript date time string format
//     plus the legacy formats V8 accepts, with V8's exact parser.
//   - Formatting: [ToISOString], [ToString], [ToUTCString], [ToDateString],
//     [ToTimeString], [ToLocaleString], [ToLocaleDateString],
//     [ToLocaleTimeString].
//   - The arithmetic of the Date.prototype setters: [SetMilliseconds],
//     [SetSeconds], [SetMinutes], [SetHours], [SetDate], [SetMonth],
//     [SetFullYear] and Annex B's [SetYear]. With local time being UTC each
//     serves both the local and the UTC form (setHours and setUTCHours).
//
// # Deliberate differences from V8
//
// The codemode runtime makes Date.prototype.toString return the ISO form
// ([ToString]) instead of V8's "Mon Jan 15 2024 10:00:00 GMT+0000
// (Coordinated Universal Time)", and makes Date() called as a function
// return a deterministic ISO string (the caller supplies the time).
// Everything else in this package matches node run with TZ=UTC.
//
// # Callers' responsibilities
//
// The functions here take Numbers that have already been converted with
// ToNumber, in the order the specification evaluates them; they never call
// back into the engine. Errors are reported as NaN results, or with ok=false
// from [ToISOString] (the caller throws RangeError "Invalid time value").
//
// The reference tables in testdata were produced by node (see
// testdata/gen.js) and are compared case by case by the tests.
package jsdate
