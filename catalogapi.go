package codemode

import (
	"github.com/go-codemode/codemode/catalog"
	"github.com/go-codemode/codemode/tools"
)

// CatalogEntry describes one tool the way a model sees it.
type CatalogEntry struct {
	// Path is the dotted path ("github.listIssues").
	Path string `json:"path"`
	// Description is the tool's description.
	Description string `json:"description"`
	// Signature is its TypeScript signature:
	// tools.github.listIssues({ ... }): Promise<...>.
	Signature string `json:"signature"`
}

// Catalog lists every tool, sorted by path, with its signature.
func (rt *Runtime) Catalog() []CatalogEntry {
	out := make([]CatalogEntry, 0, rt.tools.Len())
	for _, n := range rt.tools.Tools() {
		out = append(out, CatalogEntry{Path: n.Path, Description: n.Tool.Description, Signature: rt.signature(n)})
	}
	return out
}

// fullSignature renders a tool's signature without the Runtime's budget,
// once per Runtime: search by a tool's exact path answers with it, so a
// model can drill into a tool the catalog cut short.
func (rt *Runtime) fullSignature(n *tools.Node) string {
	if rt.opts.Signatures == (catalog.Options{}) {
		return rt.signature(n)
	}
	if s, ok := rt.fullSignatures.Load(n); ok {
		return s.(string)
	}
	s := catalog.Signature(n.Segments, n.Tool.InputForModel(), n.Tool.OutputForModel())
	rt.fullSignatures.Store(n, s)
	return s
}

// signature renders a tool's signature once per Runtime.
func (rt *Runtime) signature(n *tools.Node) string {
	if s, ok := rt.signatures.Load(n); ok {
		return s.(string)
	}
	s := catalog.SignatureWithOptions(n.Segments, n.Tool.InputForModel(), n.Tool.OutputForModel(), rt.opts.Signatures)
	rt.signatures.Store(n, s)
	return s
}

// runTree is the tree a run sees: the Runtime's, with WithTools'
// overlays laid over it in order.
func (rt *Runtime) runTree(overlays []map[string]any) (*tools.Tree, error) {
	tree := rt.tools
	for _, def := range overlays {
		var err error
		if tree, err = tree.Overlay(def, rt.overlaySchemas); err != nil {
			return nil, err
		}
	}
	return tree, nil
}

// runSignatures render signatures for a run with overlay tools: the
// Runtime's tools from its caches, the overlay's into maps that live as
// long as the run, so that per-run tools never accumulate in the
// Runtime.
func (rt *Runtime) runSignatures() (signature, full func(*tools.Node) string) {
	own := map[*tools.Node]string{}
	ownFull := map[*tools.Node]string{}
	shared := func(n *tools.Node) bool { return rt.tools.Lookup(n.Segments) == n }
	signature = func(n *tools.Node) string {
		if shared(n) {
			return rt.signature(n)
		}
		s, ok := own[n]
		if !ok {
			s = catalog.SignatureWithOptions(n.Segments, n.Tool.InputForModel(), n.Tool.OutputForModel(), rt.opts.Signatures)
			own[n] = s
		}
		return s
	}
	full = func(n *tools.Node) string {
		if rt.opts.Signatures == (catalog.Options{}) {
			return signature(n)
		}
		if shared(n) {
			return rt.fullSignature(n)
		}
		s, ok := ownFull[n]
		if !ok {
			s = catalog.Signature(n.Segments, n.Tool.InputForModel(), n.Tool.OutputForModel())
			ownFull[n] = s
		}
		return s
	}
	return signature, full
}
