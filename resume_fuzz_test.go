package codemode_test

import (
	"context"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
)

// resumeSeeds are real states: runs held for approval at different
// points, with closures, classes, generators, maps and promises alive.
var resumeSeeds = []string{
	approvalProgram,
	`const m = new Map([[1, {a: [1, 2]}]]); const s = new Set(["x"]);
class A { #p = 1; get p() { return this.#p } }
function* g() { yield 1; yield 2 }
const it = g(); it.next();
const r = await tools.orders.update({ id: 1, status: "x" }).catch(e => e.message);
return { m: [...m], s: [...s], p: new A().p, n: it.next().value, r, d: new Date(0).toISOString(), re: /a+/g.lastIndex }`,
	`const ps = [1, 2, 3].map(id => tools.orders.get({ id }));
const all = Promise.all(ps);
const u = tools.orders.update({ id: 9, status: "y" });
return [(await all).length, await u.then(x => x.status, e => "denied")]`,
}

// FuzzResume resumes hostile states: real ones, truncated and with bits
// flipped. A state may be refused or may run (an unsealed state is only
// checked to be well formed), but it never crashes or hangs the host.
func FuzzResume(f *testing.F) {
	ctx := context.Background()
	rt := approvalRuntime(f)
	for _, src := range resumeSeeds {
		out, err := rt.Program(src).Run(ctx)
		if err != nil || !out.IsSuspended() {
			f.Fatalf("seed did not suspend: %v %s", err, out.Result)
		}
		s := out.Suspended.State
		f.Add(s)
		f.Add(s[:len(s)/2])
		for _, i := range []int{len(s) / 3, len(s) - 20, len(s) - 1} {
			b := append([]byte(nil), s...)
			b[i] ^= 0x11
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, state []byte) {
		rt := approvalRuntime(t, func(o *codemode.Options) {
			o.Limits.Timeout = time.Second
			o.Limits.MaxMemoryBytes = 64 << 20
		})
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _ = rt.Resume(state, codemode.Approve("call-4"), codemode.Deny("call-5", "no")).Run(ctx)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("a resumed state hung the host")
		}
	})
}
