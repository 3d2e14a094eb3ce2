package codemode

import (
	"sort"

	"github.com/go-codemode/codemode/catalog"
	"github.com/go-codemode/codemode/tools"
)

// Instructions renders the description of a host's "execute code" tool
// for this Runtime (see catalog.Instructions): how to write a program,
// how to call the tools and search(...), the Runtime's limits, and its
// tools (every signature when they fit in budget characters, a line per
// tool or a summary per namespace otherwise; budget ≤ 0 is no bound).
// The extension globals are named so that the text does not deny them.
func (rt *Runtime) Instructions(budget int) string {
	entries := rt.Catalog()
	in := catalog.InstructionsInput{
		Tools:      make([]catalog.Entry, len(entries)),
		Namespaces: map[string]string{},
		Limits: catalog.RunLimits{
			Timeout:        rt.opts.Limits.Timeout,
			MaxToolCalls:   rt.opts.Limits.MaxToolCalls,
			MaxOutputBytes: rt.opts.Limits.MaxOutputBytes,
			MaxMemoryBytes: rt.opts.Limits.MaxMemoryBytes,
		},
		Search:       true,
		MaxChars:     budget,
		NoTypeScript: rt.opts.TypeScript == TypeScriptReject,
	}
	for i, e := range entries {
		in.Tools[i] = catalog.Entry(e)
	}
	var walk func(n *tools.Node)
	walk = func(n *tools.Node) {
		if n.Description != "" && n.Path != "" {
			in.Namespaces[n.Path] = n.Description
		}
		for _, name := range n.Children() {
			walk(n.Child(name))
		}
	}
	walk(rt.tools.Root())
	for _, ext := range rt.opts.Extensions {
		for name := range ext.Globals {
			in.Globals = append(in.Globals, name)
		}
	}
	sort.Strings(in.Globals)
	return catalog.Instructions(in)
}
