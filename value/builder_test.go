package value

import "testing"

func TestBuilder(t *testing.T) {
	tests := []struct {
		parts []any
		want  string
		len   int
	}{
		{[]any{"<", 12.0, ":", 2.0, ">"}, "<12:2>", 6},
		{[]any{"x", 0.5, "y", -3.0, 1e21}, "x0.5y-31e+21", 12},
		{[]any{"é", 7.0}, "é7", 2},
		{[]any{"a", 1.0, "\U0001F600", 2.0}, "a1\U0001F6002", 5},
		{[]any{string([]byte{0xed, 0xa0, 0x80}) + "x"}, "\ufffdx", 2},
	}
	for _, tt := range tests {
		var b Builder
		for _, p := range tt.parts {
			switch p := p.(type) {
			case string:
				b.WriteString(NewString(p))
			case float64:
				b.WriteNumber(p)
			}
		}
		s := b.String()
		if s.String() != tt.want || s.Len() != tt.len || b.Len() != tt.len {
			t.Errorf("%v: got %q (len %d, builder %d), want %q (len %d)", tt.parts, s.String(), s.Len(), b.Len(), tt.want, tt.len)
		}
	}
}
