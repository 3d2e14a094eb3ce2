package codemode_test

import (
	"context"
	"testing"

	"github.com/go-codemode/codemode"
)

// BenchmarkExecuteTrivial is the fixed cost of one execution on an
// existing Runtime: parse, compile, run and marshal `1 + 1`.
func BenchmarkExecuteTrivial(b *testing.B) {
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := rt.Execute(ctx, "1 + 1"); !res.OK {
			b.Fatal(res)
		}
	}
}
