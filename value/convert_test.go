package value

import (
	"math"
	"testing"
)

func TestToNumber(t *testing.T) {
	tests := []struct {
		v    Value
		want float64
	}{
		{Null, 0},
		{True, 1},
		{False, 0},
		{Number(2.5), 2.5},
		{StrOf(""), 0},
		{StrOf("  42\n"), 42},
		{StrOf("0x1F"), 31},
		{StrOf("1e3"), 1000},
		{StrOf("-Infinity"), math.Inf(-1)},
	}
	for _, tt := range tests {
		if got, ok := tt.v.ToNumber(); !ok || got != tt.want {
			t.Errorf("ToNumber(%v) = %v, %v; want %v", tt.v, got, ok, tt.want)
		}
	}
	for _, v := range []Value{Undefined, StrOf("12px"), StrOf("1_000")} {
		if got, ok := v.ToNumber(); !ok || !math.IsNaN(got) {
			t.Errorf("ToNumber(%v) = %v, want NaN", v, got)
		}
	}
	if _, ok := Obj(NewObject(nil)).ToNumber(); ok {
		t.Error("an object needs ToPrimitive first")
	}
}

var point1, point2 = 0.1, 0.2

func TestToString(t *testing.T) {
	tests := []struct {
		v    Value
		want string
	}{
		{Undefined, "undefined"},
		{Null, "null"},
		{True, "true"},
		{Number(point1 + point2), "0.30000000000000004"}, // float64 arithmetic, not Go's exact constants
		{Number(1e21), "1e+21"},
		{Number(math.Copysign(0, -1)), "0"},
		{Number(255), "255"},
		{Number(-7), "-7"},
		{Number(math.NaN()), "NaN"},
		{StrOf("ok"), "ok"},
	}
	for _, tt := range tests {
		s, ok := tt.v.ToString()
		if !ok || s.String() != tt.want {
			t.Errorf("ToString(%v) = %q, want %q", tt.v, s.String(), tt.want)
		}
	}
}

func TestToPropertyKey(t *testing.T) {
	tests := []struct {
		v    Value
		want string
	}{
		{Number(0), "0"},
		{Number(math.Copysign(0, -1)), "0"},
		{Number(1234567), "1234567"},
		{Number(1.5), "1.5"},
		{Number(-1), "-1"},
		{Number(1e21), "1e+21"},
		{StrOf("k"), "k"},
		{Undefined, "undefined"},
		{Str(FromUTF16([]uint16{0xD800})), "\xed\xa0\x80"},
	}
	for _, tt := range tests {
		if got, ok := tt.v.ToPropertyKey(); !ok || got != tt.want {
			t.Errorf("ToPropertyKey(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
	allocs := testing.AllocsPerRun(100, func() {
		for i := 0; i < 200; i++ {
			if k, _ := Number(float64(i)).ToPropertyKey(); k == "" {
				panic("empty")
			}
		}
	})
	if allocs != 0 {
		t.Errorf("small integer keys allocate %v times", allocs)
	}
}
