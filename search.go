package codemode

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/go-codemode/codemode/tools"
	"github.com/go-codemode/codemode/value"
)

// search(...) finds tools from inside a program (reference 3.9). It is
// synchronous: the result is a plain data object, which also answers
// then, catch and finally so that `await search(...)` and
// `search(...).then(...)` work as models expect.

// searchPageDefault is how many items a page holds when limit is not
// given.
const searchPageDefault = 10

// searchInput is search's argument after validation.
type searchInput struct {
	query, namespace string
	limit, offset    int
}

// parseSearchInput validates {query?, namespace?, limit?, offset?}
// against search's input schema, as a tool's input is validated.
func (h *toolHost) parseSearchInput(r *value.Realm, v value.Value) (searchInput, []byte, error) {
	in := searchInput{limit: searchPageDefault}
	input := []byte("{}")
	if !v.IsUndefined() {
		input = argumentJSON(r, v)
	}
	if err := h.searchSchema.Validate(input); err != nil {
		return in, input, err
	}
	var raw struct {
		Query     string
		Namespace string
		Limit     *float64
		Offset    *float64
	}
	if err := json.Unmarshal(input, &raw); err != nil {
		return in, input, err
	}
	in.query, in.namespace = raw.Query, raw.Namespace
	// Limits are safe integers, as the reference's schema says.
	for _, f := range []struct {
		name string
		v    *float64
	}{{"limit", raw.Limit}, {"offset", raw.Offset}} {
		if f.v != nil && *f.v > maxSafeInteger {
			return in, input, fmt.Errorf("at '/%s': maximum: got %s, want %d", f.name, value.NumberToString(*f.v), int64(maxSafeInteger))
		}
	}
	if raw.Limit != nil {
		in.limit = int(math.Min(*raw.Limit, 1<<31))
	}
	if raw.Offset != nil {
		in.offset = int(math.Min(*raw.Offset, 1<<31))
	}
	return in, input, nil
}

// searchResult is one page of results.
type searchResult struct {
	items     []*tools.Node
	remaining int
	next      int // -1: none
	// exact: the query named the one tool, whose full signature the
	// program gets even when the catalog's budget cuts signatures.
	exact bool
}

// runSearch applies the reference's algorithm: namespace scope, exact
// path or expression lookup, then ranking and a page.
func runSearch(tree *tools.Tree, in searchInput) searchResult {
	ns := in.namespace
	anyToolsPrefix := false
	for _, n := range tree.Tools() {
		if strings.HasPrefix(n.Path, "tools.") {
			anyToolsPrefix = true
			break
		}
	}
	if !anyToolsPrefix {
		if ns == "tools" {
			ns = ""
		}
		ns = strings.TrimPrefix(ns, "tools.")
	}
	trimmed := strings.TrimSpace(in.query)
	pathQuery := strings.TrimPrefix(trimmed, "tools.")
	if trimmed != "" {
		for _, n := range tree.Tools() {
			if ns != "" && n.Path != ns && !strings.HasPrefix(n.Path, ns+".") {
				continue
			}
			if n.Path == pathQuery || tools.Expression(n.Segments) == trimmed {
				return searchResult{items: []*tools.Node{n}, next: -1, exact: true}
			}
		}
	}
	ranked := tree.Rank(in.query, ns)
	start := min(in.offset, len(ranked))
	end := min(start+in.limit, len(ranked))
	res := searchResult{next: -1}
	for _, s := range ranked[start:end] {
		res.items = append(res.items, s.Node)
	}
	res.remaining = max(0, len(ranked)-start-len(res.items))
	if res.remaining > 0 {
		res.next = start + len(res.items)
	}
	return res
}

// searchNative is the program's `search`.
var searchNative = &value.Native{Name: "search", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	h := c.Callee.Internal.(*value.Bound).Data.(*toolHost)
	return h.search(r, c.Arg(0))
}}

// search runs one search call: validated, admitted (it counts as a tool
// call named "search"), hooked, answered.
func (h *toolHost) search(r *value.Realm, arg value.Value) value.Value {
	in, input, err := h.parseSearchInput(r, arg)
	if err != nil {
		throwToolError(r, InvalidToolInput, "Invalid input for tool 'search': "+err.Error())
	}
	if h.limit >= 0 && len(h.calls) >= h.limit {
		throwToolError(r, ToolCallLimitExceeded, fmt.Sprintf("Execution exceeded its tool-call limit of %d.", h.limit))
	}
	h.calls = append(h.calls, ToolCall{Name: "search"})
	id, seq := h.callID()
	info := ToolCallInfo{Name: "search", Input: input, ID: id, Seq: seq}
	ended := h.started("tool", "search", id, seq, input)
	if h.hooks.ToolBefore != nil {
		if err := runBefore(func() error { return h.hooks.ToolBefore(h.ctx, info) }); err != nil {
			ended(CallOutcome{Status: CallFailure, Err: err})
			panic(&value.Exception{Value: value.Obj(toolError(r, ToolFailure, err.Error()))})
		}
	}
	res := runSearch(h.tree, in)
	out := h.searchValue(r, res)
	outcome := CallOutcome{Status: CallSuccess, Value: len(res.items)}
	if h.hooks.ToolAfter != nil {
		runAfter(func() { h.hooks.ToolAfter(h.ctx, info, outcome) })
	}
	ended(outcome)
	return out
}

// searchValue builds {items, remaining, next}, with then/catch/finally
// as non-enumerable methods (they do not show in JSON or Object.keys).
func (h *toolHost) searchValue(r *value.Realm, res searchResult) value.Value {
	items := make([]value.Value, len(res.items))
	for i, n := range res.items {
		o := r.NewPlainObject()
		o.Define("path", value.StrOf(tools.Expression(n.Segments)), value.DefaultFlags)
		o.Define("description", value.StrOf(n.Tool.Description), value.DefaultFlags)
		sig := h.signature
		if res.exact {
			sig = h.fullSignature
		}
		o.Define("signature", value.StrOf(sig(n)), value.DefaultFlags)
		items[i] = value.Obj(o)
	}
	o := r.NewPlainObject()
	o.Define("items", value.Obj(r.NewArrayValue(items)), value.DefaultFlags)
	o.Define("remaining", value.Number(float64(res.remaining)), value.DefaultFlags)
	next := value.Null
	if res.next >= 0 {
		n := r.NewPlainObject()
		n.Define("offset", value.Number(float64(res.next)), value.DefaultFlags)
		next = value.Obj(n)
	}
	o.Define("next", next, value.DefaultFlags)
	plain := value.Obj(o)
	answer := r.NewPlainObject()
	for _, k := range []string{"items", "remaining", "next"} {
		answer.Define(k, r.Get(plain, k), value.DefaultFlags)
	}
	answer.Define("then", value.Obj(r.NewBound(searchThen, plain, "then", 2)), value.Writable|value.Configurable)
	answer.Define("catch", value.Obj(r.NewBound(searchCatch, plain, "catch", 1)), value.Writable|value.Configurable)
	answer.Define("finally", value.Obj(r.NewBound(searchFinally, plain, "finally", 1)), value.Writable|value.Configurable)
	return value.Obj(answer)
}

// settledSearch is a promise already fulfilled with the plain result.
func settledSearch(r *value.Realm, c *value.Call) value.Value {
	plain := c.Callee.Internal.(*value.Bound).Data.(value.Value)
	p := r.NewPromise()
	r.ResolvePromise(p, plain)
	return value.Obj(p)
}

var (
	searchThen = &value.Native{Name: "search result then", Length: 2, Fn: func(r *value.Realm, c *value.Call) value.Value {
		p := settledSearch(r, c)
		return r.Call(r.Get(p, "then"), p, []value.Value{c.Arg(0), c.Arg(1)})
	}}
	searchCatch = &value.Native{Name: "search result catch", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
		return settledSearch(r, c)
	}}
	searchFinally = &value.Native{Name: "search result finally", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
		p := settledSearch(r, c)
		return r.Call(r.Get(p, "finally"), p, []value.Value{c.Arg(0)})
	}}
)
