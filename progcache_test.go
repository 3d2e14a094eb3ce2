package codemode

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// TestCompiledCacheBounds: the cache keeps at most maxCompiled programs
// and maxCompiledBytes of source, dropping the oldest first.
func TestCompiledCacheBounds(t *testing.T) {
	var c compiledCache
	for i := range 3 * maxCompiled {
		c.put(fmt.Sprintf("program %d", i), nil)
	}
	if len(c.runs) != maxCompiled || len(c.order) != maxCompiled {
		t.Fatalf("%d programs kept, want %d", len(c.runs), maxCompiled)
	}
	if _, ok := c.runs[fmt.Sprintf("program %d", 3*maxCompiled-1)]; !ok {
		t.Fatal("the newest program was dropped")
	}
	big := string(make([]byte, maxCompiledBytes/4))
	for i := range 5 {
		c.put(big+fmt.Sprint(i), nil)
	}
	if c.bytes > maxCompiledBytes {
		t.Fatalf("%d bytes of source kept, over %d", c.bytes, maxCompiledBytes)
	}
	c.put(string(make([]byte, maxCompiledBytes/4+1)), nil)
	if _, ok := c.runs[string(make([]byte, maxCompiledBytes/4+1))]; ok {
		t.Fatal("a program over a quarter of the bound was kept")
	}
}

// TestCompiledProgramsAreShared: runs of one program on engine "vm"
// share its compiled form, at the same time, each with its own state
// (run under -race in CI).
func TestCompiledProgramsAreShared(t *testing.T) {
	rt, err := New(Options{Engine: EngineVM})
	if err != nil {
		t.Fatal(err)
	}
	const prog = `
class Counter { #n = 0; inc() { return ++this.#n } }
function* gen(n) { for (let i = 0; i < n; i++) yield i }
const c = new Counter();
const tag = (s, ...v) => s.raw.join("|") + v.join(",");
let out = [];
for (const i of gen(50)) out.push(c.inc() * i);
const re = /(\d+)-(\d+)/g;
re.lastIndex = 0;
const m = re.exec("10-20 30-40");
return tag` + "`a${out.length}b${m[2]}`" + ` + ":" + out.reduce((a, b) => a + b, 0) + ":" + re.lastIndex`
	want := rt.Execute(context.Background(), prog)
	if !want.OK {
		t.Fatal(want.Error)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				if got := rt.Execute(context.Background(), prog); string(got.Value) != string(want.Value) {
					t.Errorf("got %s, want %s", got.Value, want.Value)
				}
			}
		})
	}
	wg.Wait()
	if rt.compiled.get(prog) == nil {
		t.Fatal("the program is not in the cache")
	}
}
