// Package tools declares the tools a program can call: a tree of
// namespaces and tools, each tool a description, an input JSON Schema, an
// optional output JSON Schema, and a Go function. It knows nothing about
// engines: the runtime walks the Tree to answer `tools.a.b(...)`.
//
// New compiles every schema once; Node.ValidateInput and
// Node.ValidateOutput check a call's input and a tool's result against
// them, failures coming back as a *ValidationError whose text follows
// the reference's "Invalid input for tool '<path>': ". Func builds a
// typed tool from a Go function, its schemas reflected from the Go types.
package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/go-codemode/codemode/value"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Handler is a tool's implementation, the type of Tool.Func. It gets the
// call's input as JSON (the program's argument copied out with JSON
// semantics, `{}` when called with none) and returns a value that
// marshals to JSON, or an error that the program sees as a ToolFailure.
// ctx ends when the run does. (The generic function Func builds a Tool
// whose Handler decodes the input into a Go type.)
type Handler func(ctx context.Context, input json.RawMessage) (any, error)

// Tool is one callable tool. Build one as a literal (a "raw" tool, JSON
// in and out) or with Func (a typed tool, its schemas reflected from Go
// types). A Tool must not change once it is given to New.
type Tool struct {
	// Description says what the tool does, for the model.
	Description string
	// Input is the JSON Schema of the tool's argument. nil means any
	// input (the reference's "any object"): nothing is validated. New
	// compiles it (see Node.ValidateInput).
	Input json.RawMessage
	// Output is the JSON Schema of the result. Without one the program
	// receives undefined whatever the tool returns, as in the reference
	// (its signature is Promise<void>). New compiles it (see
	// Node.ValidateOutput).
	Output json.RawMessage
	// Func runs the tool.
	Func Handler
	// ValidateOutputs asks the runtime to check each result against
	// Output (when there is one) before the program sees it, a failure
	// being an InvalidToolOutput. Func sets it; it is off by default for
	// raw tools.
	ValidateOutputs bool

	// Set by Func (and kept by copies of the Tool value):
	err      error              // why the typed tool could not be built
	check    func([]byte) error // strict decode into the Go input type
	compiled *compiledSchemas   // Input and Output compiled when reflected
}

// Err reports why Func could not build the tool (a Go type that has no
// JSON Schema, a tag that makes an invalid schema, ...), or nil. New
// reports the same error naming the tool's path; Err lets a caller check
// earlier.
func (t *Tool) Err() error {
	if t == nil {
		return nil
	}
	return t.err
}

// InputForModel is Input without its top-level "$schema" keyword, the
// form to show a model (in a prompt or a signature): the draft matters to
// the validator, not to the model. Property order is kept. It is nil when
// Input is.
func (t *Tool) InputForModel() json.RawMessage { return forModel(t.Input) }

// OutputForModel is Output without its top-level "$schema" keyword (see
// InputForModel).
func (t *Tool) OutputForModel() json.RawMessage { return forModel(t.Output) }

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
	// The Tool's schemas, compiled by New (nil: no schema), or on first
	// use for an overlay's tools (lazy set).
	input, output *jsonschema.Schema
	// quickInput checks the common flat inputs without the validator
	// (nil: the input schema is not one it can check).
	quickInput *quickSchema
	lazy       *lazySchemas
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

	indexOnce sync.Once
	rank      *rankIndex // what Rank matches against, prepared once

	over *overlay // set for a tree made by Overlay
}

// New builds a tree from a definition: keys are names or dotted paths
// ("github.listIssues"), values are *Tool, Tool, *Namespace, Namespace or
// nested maps. When two definitions give the same path, the last one in
// key order wins (Go maps have no order of their own, so keys are taken
// sorted). A name with an empty segment ("", "a..b", ".a", "a.") is an
// error.
//
// New compiles every tool's Input and Output schema (see ValidateInput).
// A schema that does not compile is an error naming the tool:
//
//	tools: tool "github.listIssues": input schema: not a valid JSON Schema: at '/properties/q/pattern': '(' is not valid regex: error parsing regexp: missing closing ) in `(`
//
// and so is a tool Func could not build (see Tool.Err).
func New(def map[string]any) (*Tree, error) {
	t := &Tree{root: &Node{children: map[string]*Node{}}}
	if err := t.add(t.root, def); err != nil {
		return nil, err
	}
	t.collect(t.root)
	sort.Slice(t.tools, func(i, j int) bool { return t.tools[i].Path < t.tools[j].Path })
	if err := t.compile(); err != nil {
		return nil, err
	}
	return t, nil
}

// compile compiles every tool's schemas, on up to GOMAXPROCS goroutines
// (a schema takes about half a millisecond), and reports the first
// failure in path order.
func (t *Tree) compile() error {
	errs := make([]error, len(t.tools))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(t.tools)) {
		wg.Go(func() {
			for i := range next {
				errs[i] = t.tools[i].compile()
			}
		})
	}
	for i := range t.tools {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("tools: tool %q: %w", t.tools[i].Path, err)
		}
	}
	return nil
}

// compile compiles the node's tool's schemas, reusing those Func
// compiled when the schema is still the one it reflected.
func (n *Node) compile() error {
	return n.compileWith(func(which string, doc []byte) (*jsonschema.Schema, error) {
		return compileSchema(schemaURL(n.Path, which), doc)
	})
}

// compileWith compiles the node's schemas with compile, reusing Func's.
func (n *Node) compileWith(compile func(which string, doc []byte) (*jsonschema.Schema, error)) error {
	tool := n.Tool
	if tool.err != nil {
		return tool.err
	}
	c := tool.compiled
	if c == nil {
		c = &compiledSchemas{}
	}
	var err error
	if n.input, err = reuseOrCompile("input", tool.Input, c.inputSrc, c.input, compile); err != nil {
		return err
	}
	if n.input != nil {
		n.quickInput = compileQuick(tool.Input)
	}
	n.output, err = reuseOrCompile("output", tool.Output, c.outputSrc, c.output, compile)
	return err
}

// reuseOrCompile is the compiled form of doc (nil for no schema): the one
// Func made when doc is still what it reflected, else compiled now.
func reuseOrCompile(which string, doc, reflected []byte, pre *jsonschema.Schema, compile func(string, []byte) (*jsonschema.Schema, error)) (*jsonschema.Schema, error) {
	if len(doc) == 0 {
		return nil, nil
	}
	if pre != nil && bytes.Equal(reflected, doc) {
		return pre, nil
	}
	sch, err := compile(which, doc)
	if err != nil {
		return nil, fmt.Errorf("%s schema: %w", which, err)
	}
	return sch, nil
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
func (t *Tree) Tools() []*Node {
	if t.over != nil {
		return t.over.allTools()
	}
	return t.tools
}

// Len is the number of tools.
func (t *Tree) Len() int { return len(t.Tools()) }

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
			b.WriteByte('[')
			value.QuoteKey(&b, s) // as JSON.stringify quotes: no HTML escapes
			b.WriteByte(']')
		}
	}
	return b.String()
}
