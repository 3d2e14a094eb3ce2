// Package tools declares the tools a program can call: a tree of
// namespaces and tools, each tool a description, an input JSON Schema, an
// optional output JSON Schema, and a Go function. It knows nothing about
// engines: the runtime walks the Tree to answer `tools.a.b(...)`.
package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Func is a tool's implementation. It gets the call's input as JSON (the
// program's argument copied out with JSON semantics, `{}` when called with
// none) and returns a value that marshals to JSON, or an error that the
// program sees as a ToolFailure. ctx ends when the run does.
type Func func(ctx context.Context, input json.RawMessage) (any, error)

// Tool is one callable tool.
type Tool struct {
	// Description says what the tool does, for the model.
	Description string
	// Input is the JSON Schema of the tool's argument; nil means an
	// object with no declared properties.
	Input json.RawMessage
	// Output is the JSON Schema of the result. Without one the program
	// receives undefined whatever the tool returns, as in the reference
	// (its signature is Promise<void>).
	Output json.RawMessage
	// Func runs the tool.
	Func Func
}

// Namespace groups tools under a description. It adds no path segment of
// its own: the key it is stored under does.
type Namespace struct {
	Description string
	// Tools maps names to *Tool, Tool, *Namespace, Namespace or a nested
	// map[string]any (a namespace without a description).
	Tools map[string]any
}

// Node is one point of the tree: a tool, a namespace, or both.
type Node struct {
	// Path is the dotted path from the root ("github.listIssues").
	Path string
	// Segments is Path split into its names.
	Segments []string
	// Tool is set when the path is callable.
	Tool *Tool
	// Description is the namespace's description, if any.
	Description string
	children    map[string]*Node
	parent      *Node
}

// Children returns the names below this node, sorted.
func (n *Node) Children() []string {
	names := make([]string, 0, len(n.children))
	for k := range n.children {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// Child returns the node below this one named name, or nil.
func (n *Node) Child(name string) *Node { return n.children[name] }

// Parent returns the enclosing node (nil for the root).
func (n *Node) Parent() *Node { return n.parent }

// Tree is a compiled tool tree. It is immutable and safe for concurrent
// use.
type Tree struct {
	root  *Node
	tools []*Node // every callable node, sorted by path
}

// New builds a tree from a definition: keys are names or dotted paths
// ("github.listIssues"), values are *Tool, Tool, *Namespace, Namespace or
// nested maps. When two definitions give the same path, the last one in
// key order wins (Go maps have no order of their own, so keys are taken
// sorted). A name with an empty segment ("", "a..b", ".a", "a.") is an
// error.
func New(def map[string]any) (*Tree, error) {
	t := &Tree{root: &Node{children: map[string]*Node{}}}
	if err := t.add(t.root, def); err != nil {
		return nil, err
	}
	t.collect(t.root)
	sort.Slice(t.tools, func(i, j int) bool { return t.tools[i].Path < t.tools[j].Path })
	return t, nil
}

func (t *Tree) add(at *Node, def map[string]any) error {
	keys := make([]string, 0, len(def))
	for k := range def {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		segs := strings.Split(key, ".")
		for _, s := range segs {
			if s == "" {
				return fmt.Errorf("Tool name '%s' contains an empty segment.", key)
			}
		}
		n := at
		for _, s := range segs {
			n = n.child(s)
		}
		switch v := def[key].(type) {
		case *Tool:
			if v == nil || v.Func == nil {
				return fmt.Errorf("tools: tool %q has no Func; give it the function that runs it", n.Path)
			}
			n.Tool = v
		case Tool:
			if v.Func == nil {
				return fmt.Errorf("tools: tool %q has no Func; give it the function that runs it", n.Path)
			}
			tool := v
			n.Tool = &tool
		case *Namespace:
			if v == nil {
				return fmt.Errorf("tools: namespace %q is nil", n.Path)
			}
			n.Description = v.Description
			if err := t.add(n, v.Tools); err != nil {
				return err
			}
		case Namespace:
			n.Description = v.Description
			if err := t.add(n, v.Tools); err != nil {
				return err
			}
		case map[string]any:
			if err := t.add(n, v); err != nil {
				return err
			}
		default:
			return fmt.Errorf("tools: %q is a %T; a tool tree holds *tools.Tool, *tools.Namespace and map[string]any values", n.Path, v)
		}
	}
	return nil
}

func (n *Node) child(name string) *Node {
	c := n.children[name]
	if c == nil {
		segs := append(append([]string(nil), n.Segments...), name)
		c = &Node{Path: strings.Join(segs, "."), Segments: segs, children: map[string]*Node{}, parent: n}
		n.children[name] = c
	}
	return c
}

func (t *Tree) collect(n *Node) {
	if n.Tool != nil {
		t.tools = append(t.tools, n)
	}
	for _, c := range n.children {
		t.collect(c)
	}
}

// Root is the tree's root node (the `tools` object of a program).
func (t *Tree) Root() *Node { return t.root }

// Lookup returns the node at a path of segments, or nil.
func (t *Tree) Lookup(segs []string) *Node {
	n := t.root
	for _, s := range segs {
		if n = n.children[s]; n == nil {
			return nil
		}
	}
	return n
}

// Tools returns every callable node, sorted by path.
func (t *Tree) Tools() []*Node { return t.tools }

// Len is the number of tools.
func (t *Tree) Len() int { return len(t.tools) }

var identRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// Expression renders a path the way a program writes it:
// tools.context7["resolve-library-id"].
func Expression(segs []string) string {
	var b strings.Builder
	b.WriteString("tools")
	for _, s := range segs {
		if identRE.MatchString(s) {
			b.WriteString("." + s)
		} else {
			q, _ := json.Marshal(s)
			b.WriteString("[" + string(q) + "]")
		}
	}
	return b.String()
}
