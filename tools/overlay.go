package tools

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// overlay is what a tree laid over another keeps: the base it shadows
// and a tree of its own tools, ranked apart and merged per query.
type overlay struct {
	base *Tree
	own  *Tree
	// shadowed are the paths where own defines a tool, hiding the base's.
	shadowed map[string]bool
	// all is every callable node, base and own, made on first use: a
	// run that never lists the tools never pays for the list.
	allOnce sync.Once
	all     []*Node
}

// lazySchemas compiles an overlay tool's schemas on first use.
type lazySchemas struct {
	once  sync.Once
	err   error
	cache *SchemaCache
}

// Overlay returns a tree that has def's tools and namespaces laid over
// t, for one run, say: def is read as New reads it; a tool at a path t
// also has replaces t's there, and a namespace adds to t's. t is not
// changed and is shared, not copied: the overlay costs what def costs,
// however large t is, and t's compiled schemas are used as they are.
//
// The overlay's own schemas are compiled on a tool's first use (its
// first call, or ValidateInput), through cache when it is not nil, so
// that the same schema given again in a later overlay is compiled once;
// a schema that does not compile then fails that call with an error
// naming the tool, where New would have failed. Every other error of
// New (an empty segment, a tool without Func, a value of the wrong
// type) is Overlay's too.
func (t *Tree) Overlay(def map[string]any, cache *SchemaCache) (*Tree, error) {
	own := &Tree{root: &Node{children: map[string]*Node{}}}
	if err := own.add(own.root, def); err != nil {
		return nil, err
	}
	own.collect(own.root)
	slices.SortFunc(own.tools, func(a, b *Node) int { return strings.Compare(a.Path, b.Path) })
	shadowed := make(map[string]bool, len(own.tools))
	for _, n := range own.tools {
		n.lazy = &lazySchemas{cache: cache}
		shadowed[n.Path] = true
	}
	graft(own.root, t.root)
	return &Tree{root: own.root, over: &overlay{base: t, own: own, shadowed: shadowed}}, nil
}

// graft hangs base's children below own where own has no node of that
// name, and merges the nodes both have. A namespace own declares
// without a description keeps base's; a path that is a tool in base and
// only a namespace in own stays base's tool.
func graft(own, base *Node) {
	if own.Tool == nil && base.Tool != nil {
		own.Tool, own.input, own.output, own.lazy = base.Tool, base.input, base.output, base.lazy
	}
	if own.Description == "" {
		own.Description = base.Description
	}
	for name, b := range base.children {
		if o := own.children[name]; o != nil {
			graft(o, b)
		} else {
			own.children[name] = b
		}
	}
}

// allTools merges the base's tools and the overlay's by path.
func (o *overlay) allTools() []*Node {
	o.allOnce.Do(func() {
		base, own := o.base.Tools(), o.own.tools
		all := make([]*Node, 0, len(base)+len(own))
		i, j := 0, 0
		for i < len(base) || j < len(own) {
			switch {
			case i < len(base) && o.shadowed[base[i].Path]:
				i++
			case j == len(own) || (i < len(base) && base[i].Path < own[j].Path):
				all = append(all, base[i])
				i++
			default:
				all = append(all, own[j])
				j++
			}
		}
		o.all = all
	})
	return o.all
}

// rank ranks base and overlay apart and merges the two orders: a tool's
// score depends on the tool alone, so the merge is the ranking of the
// merged tree, without indexing the base again.
func (o *overlay) rank(query, scope string) []Scored {
	if len(Tokenize(query)) == 0 { // every tool in scope, in path order
		var out []Scored
		for _, n := range o.allTools() {
			if scope == "" || n.Path == scope || strings.HasPrefix(n.Path, scope+".") {
				out = append(out, Scored{Node: n})
			}
		}
		return out
	}
	base := o.base.Rank(query, scope)
	own := o.own.Rank(query, scope)
	out := make([]Scored, 0, len(base)+len(own))
	i, j := 0, 0
	for i < len(base) || j < len(own) {
		switch {
		case i < len(base) && o.shadowed[base[i].Node.Path]:
			i++
		case j == len(own) || (i < len(base) && rankOrder(base[i], own[j]) < 0):
			out = append(out, base[i])
			i++
		default:
			out = append(out, own[j])
			j++
		}
	}
	return out
}

// rankOrder is Rank's order of two scored tools.
func rankOrder(a, b Scored) int {
	if a.Score != b.Score {
		return b.Score - a.Score
	}
	ia := indexed{pathLen: utf8.RuneCountInString(a.Node.Path), read: isRead(a.Node.Path)}
	ib := indexed{pathLen: utf8.RuneCountInString(b.Node.Path), read: isRead(b.Node.Path)}
	if c := tieBreak(&ia, &ib); c != 0 {
		return c
	}
	return strings.Compare(a.Node.Path, b.Node.Path)
}

// Prepare compiles the node's schemas if that has not happened yet, and
// reports a schema that does not compile, naming the tool. Only an
// overlay's tools (see Tree.Overlay) are compiled this late; for the
// others, and for nodes that are not callable, it returns nil at once.
// ValidateInput and ValidateOutput prepare the node themselves.
func (n *Node) Prepare() error {
	if n == nil || n.lazy == nil {
		return nil
	}
	l := n.lazy
	l.once.Do(func() {
		compile := func(which string, doc []byte) (*jsonschema.Schema, error) {
			return compileSchema(schemaURL(n.Path, which), doc)
		}
		if l.cache != nil {
			compile = func(which string, doc []byte) (*jsonschema.Schema, error) { return l.cache.compile(n.Path, which, doc) }
		}
		if err := n.compileWith(compile); err != nil {
			l.err = fmt.Errorf("tools: tool %q: %w", n.Path, err)
		}
	})
	return l.err
}

// SchemaCache keeps compiled schemas by their content, so that
// overlays built for many runs from the same schemas (the same per-user
// tools, say, each with its own Func) compile each schema once. It holds
// at most a fixed number of schemas, forgetting arbitrary ones beyond
// it. It is safe for concurrent use.
type SchemaCache struct {
	mu      sync.Mutex
	max     int
	entries map[[sha256.Size]byte]cachedSchema
}

type cachedSchema struct {
	sch *jsonschema.Schema
	err error
}

// NewSchemaCache makes a cache of at most size compiled schemas (at
// least one).
func NewSchemaCache(size int) *SchemaCache {
	return &SchemaCache{max: max(1, size), entries: map[[sha256.Size]byte]cachedSchema{}}
}

// Len is the number of schemas the cache holds.
func (c *SchemaCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// compile returns the compiled form of doc, compiling it on a miss. A
// compiled schema does not depend on where it was registered (errors
// name no location), so one entry serves every tool with that schema.
// Compiling happens outside the lock: two runs missing at once both
// compile, and the cache keeps one.
func (c *SchemaCache) compile(path, which string, doc []byte) (*jsonschema.Schema, error) {
	key := sha256.Sum256(doc)
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok {
		return e.sch, e.err
	}
	sch, err := compileSchema(schemaURL(path, which), doc)
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= c.max {
		for k := range c.entries {
			delete(c.entries, k)
			break
		}
	}
	c.entries[key] = cachedSchema{sch, err}
	return sch, err
}
