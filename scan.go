package codemode

import (
	"strings"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/tools"
	"github.com/go-codemode/codemode/value"
)

// ToolReference is one place where a program calls a tool, found without
// running it.
type ToolReference struct {
	// Path is the tool's dotted path ("github.listIssues").
	Path string `json:"path"`
	// Expression is the path as a program writes it
	// (tools.context7["resolve-library-id"]).
	Expression string `json:"expression"`
	// Location is where the call is.
	Location Location `json:"location"`
	// Known reports whether this Runtime has the tool.
	Known bool `json:"known"`
	// Suggestion is, for an unknown path, the tool the program probably
	// meant, as an expression; empty when nothing comes close.
	Suggestion string `json:"suggestion,omitempty"`
}

// ScanResult is what Scan finds in a program.
type ScanResult struct {
	// Tools are the literal tool calls, in source order.
	Tools []ToolReference `json:"tools"`
	// Search are the calls of the built-in search().
	Search []Location `json:"search"`
	// Dynamic are tool accesses whose path is computed at run time
	// (tools[name](...)), which Scan cannot name.
	Dynamic []Location `json:"dynamic"`
}

// Scan parses a program without running it and lists the tools it calls:
// tools.a.b(...), tools.a["x-y"](...), a namespace or tool first kept in
// a const (`const gh = tools.github; gh.listIssues()`, `const { get } =
// tools.db`), and search(...). A host can show or approve the calls
// before the run starts. A program that does not parse is an *ast.Error.
func (rt *Runtime) Scan(code string) (*ScanResult, error) {
	prog, err := ast.ParseWith(code, rt.parseOptions())
	if err != nil {
		return nil, err
	}
	s := &scanner{rt: rt, src: prog.Source, aliases: map[*ast.Binding][]string{}}
	s.collectAliases(prog.Func)
	ast.Inspect(prog.Func, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok {
			s.call(c)
		}
		return true
	})
	res := &ScanResult{Tools: s.refs, Search: s.search, Dynamic: s.dynamic}
	if res.Tools == nil {
		res.Tools = []ToolReference{}
	}
	if res.Search == nil {
		res.Search = []Location{}
	}
	if res.Dynamic == nil {
		res.Dynamic = []Location{}
	}
	return res, nil
}

type scanner struct {
	rt      *Runtime
	src     *ast.Source
	aliases map[*ast.Binding][]string // const bindings that hold a tools path
	refs    []ToolReference
	search  []Location
	dynamic []Location
}

// collectAliases finds const declarations whose value is a tools path,
// including destructured ones; a const never changes, so every use of
// the binding is that path.
func (s *scanner) collectAliases(root ast.Node) {
	// Repeat until nothing new: an alias may be built from another.
	for changed := true; changed; {
		changed = false
		ast.Inspect(root, func(n ast.Node) bool {
			d, ok := n.(*ast.VarDecl)
			if !ok || d.Kind != ast.DeclConst {
				return true
			}
			for _, dc := range d.Decls {
				path, ok := s.pathOf(dc.Init)
				if !ok {
					continue
				}
				switch t := dc.Target.(type) {
				case *ast.Ident:
					if _, seen := s.aliases[t.Binding]; !seen && t.Binding != nil {
						s.aliases[t.Binding] = path
						changed = true
					}
				case *ast.ObjectPattern:
					for _, p := range t.Props {
						id, ok := p.Value.(*ast.Ident)
						if !ok || p.Computed || id.Binding == nil {
							continue
						}
						key, ok := literalKey(p.Key)
						if _, seen := s.aliases[id.Binding]; ok && !seen {
							s.aliases[id.Binding] = append(append([]string(nil), path...), key)
							changed = true
						}
					}
				}
			}
			return true
		})
	}
}

// pathOf resolves an expression to a tools path: the global `tools`
// (the root, an empty path), an alias, or members of one with literal
// names.
func (s *scanner) pathOf(x ast.Expr) ([]string, bool) {
	switch x := x.(type) {
	case *ast.Ident:
		if x.Binding == nil {
			return nil, false
		}
		if x.Binding.Storage == ast.Global && x.Name == "tools" {
			return []string{}, true
		}
		if p, ok := s.aliases[x.Binding]; ok {
			return p, true
		}
		// A captured alias is seen through the binding it captures.
		for b := x.Binding; b != nil; b = b.Outer {
			if p, ok := s.aliases[b]; ok {
				return p, true
			}
		}
	case *ast.Member:
		if x.Private != nil {
			return nil, false
		}
		if base, ok := s.pathOf(x.X); ok {
			return append(append([]string(nil), base...), x.Prop.Name), true
		}
	case *ast.Index:
		base, ok := s.pathOf(x.X)
		if !ok {
			return nil, false
		}
		if key, ok := literalKey(x.Index); ok {
			return append(append([]string(nil), base...), key), true
		}
		s.dynamic = append(s.dynamic, s.location(x.Index.Pos()))
	case *ast.Chain:
		return s.pathOf(x.X)
	}
	return nil, false
}

// literalKey is the name a literal key gives.
func literalKey(x ast.Expr) (string, bool) {
	switch k := x.(type) {
	case *ast.Name:
		return k.Name, true
	case *ast.StringLit:
		return k.Value, true
	case *ast.NumberLit:
		return value.NumberToString(k.Value).String(), true
	}
	return "", false
}

func (s *scanner) call(c *ast.Call) {
	if id, ok := c.Callee.(*ast.Ident); ok && id.Name == "search" && id.Binding != nil && id.Binding.Storage == ast.Global {
		s.search = append(s.search, s.location(c.Start))
		return
	}
	path, ok := s.pathOf(c.Callee)
	if !ok || len(path) == 0 {
		return
	}
	if len(path) == 1 && path[0] == "search" && s.rt.tools.Lookup(path) == nil {
		s.search = append(s.search, s.location(c.Start))
		return
	}
	ref := ToolReference{Path: strings.Join(path, "."), Expression: tools.Expression(path), Location: s.location(c.Start)}
	if n := s.rt.tools.Lookup(path); n != nil && n.Tool != nil {
		ref.Known = true
	} else if best, ok := s.rt.tools.Closest(path); ok {
		ref.Suggestion = tools.Expression(best.Segments)
	}
	s.refs = append(s.refs, ref)
}

func (s *scanner) location(p ast.Pos) Location {
	l := s.src.Location(p)
	return Location{Line: l.Line, Column: l.Column}
}
