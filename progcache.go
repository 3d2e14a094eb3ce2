package codemode

import "sync"

// A Runtime keeps the programs it last compiled for engine "vm", by
// source, so that running or resuming the same program again skips
// parsing and compiling it (a third of a resume's time). A compiled
// program is immutable once made (runs keep their state in their own
// frames and realm), so runs may share one. Engine "ast" compiles to
// closures, which are not shared.

// Bounds of the cache: entries, and the source bytes they hold.
const (
	maxCompiled      = 64
	maxCompiledBytes = 4 << 20
)

type compiledCache struct {
	mu    sync.Mutex
	runs  map[string]newRunFunc
	order []string // oldest first
	bytes int
}

func (c *compiledCache) get(code string) newRunFunc {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.runs[code]
}

func (c *compiledCache) put(code string, f newRunFunc) {
	if len(code) > maxCompiledBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.runs == nil {
		c.runs = map[string]newRunFunc{}
	}
	if _, ok := c.runs[code]; ok {
		return
	}
	for len(c.order) > 0 && (len(c.order) >= maxCompiled || c.bytes+len(code) > maxCompiledBytes) {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= len(old)
		delete(c.runs, old)
	}
	c.runs[code] = f
	c.order = append(c.order, code)
	c.bytes += len(code)
}

// clear empties the cache (for benchmarks of a cold resume).
func (c *compiledCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.runs, c.order, c.bytes = nil, nil, 0
}
