package numeric

import "testing"

var sink float64

func BenchmarkPow(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Pow(1.0001+float64(i%100)*0.01, 3.7)
	}
}

func BenchmarkSinHuge(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = sin(1e22 + float64(i%100)*1e7)
	}
}

func BenchmarkSin(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = sin(1.5 + float64(i%100)*0.01)
	}
}
