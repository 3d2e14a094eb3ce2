package codemode

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-codemode/codemode/protocol"
	"github.com/go-codemode/codemode/tools"
	"github.com/go-codemode/codemode/value"
)

// Providers are the executor seed's dialect of tools: a provider is a
// global named after it (`await store.listUsers()`), its tools take
// positional arguments, and every call reaches one dispatch function as
// (provider, tool, arguments as JSON) and is answered with an envelope,
// {"result": ...} or {"error": "..."}. The same tools are also in the
// run's tool tree (`tools.store.listUsers(...)`, with the schemas the
// provider declares), so that search, hooks, limits and ToolCalls treat
// them as every other tool.

// WithProviders gives this execution the providers, whose calls dispatch
// answers. Their names are checked as the seed's validateProviders does
// (not reserved, an identifier, not a reserved word, not repeated), and
// must not be an extension global or a binding; a failure fails the
// execution with ExecutionFailure and runs nothing. A nil dispatch
// answers every call with the seed's not-found error.
func WithProviders(providers []protocol.ProviderDescriptor, dispatch protocol.DispatchFunc) ExecOption {
	return func(c *execConfig) {
		c.providers = append(c.providers, providers...)
		if dispatch != nil {
			c.dispatch = dispatch
		}
	}
}

// providerSet is one run's providers.
type providerSet struct {
	byName map[string]*protocol.ProviderDescriptor
	// globals are the tools the provider globals call: no input schema
	// (their input is the dispatch's argument text) and results passed
	// through. The run's tree has the same paths with the schemas.
	globals *tools.Tree
}

// providerOverlay checks the providers and builds their two views: the
// overlay of the run's tool tree and the tree of the globals.
func providerOverlay(descs []protocol.ProviderDescriptor, dispatch protocol.DispatchFunc, taken func(string) bool) (map[string]any, *providerSet, error) {
	if msg := protocol.ValidateProviders(descs); msg != "" {
		return nil, nil, errors.New(msg)
	}
	if dispatch == nil {
		dispatch = notFoundDispatch
	}
	set := &providerSet{byName: map[string]*protocol.ProviderDescriptor{}}
	overlay := map[string]any{}
	raw := map[string]any{}
	for i := range descs {
		d := &descs[i]
		if taken(d.Name) {
			return nil, nil, fmt.Errorf("Provider name %q is already a global of this run (an extension or a binding)", d.Name)
		}
		set.byName[d.Name] = d
		positional := d.PositionalArgs == nil || *d.PositionalArgs
		ns := map[string]any{}
		rawNS := map[string]any{}
		for _, name := range d.Tools {
			provider, tool := d.Name, name
			ns[name] = &tools.Tool{
				Description: d.Descriptions[name],
				Input:       d.Schemas[name],
				Output:      anyOutput,
				Func: func(ctx context.Context, input json.RawMessage) (any, error) {
					args := string(input)
					if positional {
						args = "[" + args + "]" // tools.p.t(input) is the call p.t(input)
					}
					return callDispatch(ctx, dispatch, provider, tool, args)
				},
			}
			rawNS[name] = &tools.Tool{
				Description: d.Descriptions[name],
				Output:      anyOutput,
				Func: func(ctx context.Context, input json.RawMessage) (any, error) {
					return callDispatch(ctx, dispatch, provider, tool, string(input))
				},
			}
		}
		overlay[d.Name] = ns
		raw[d.Name] = rawNS
	}
	var err error
	if set.globals, err = tools.New(raw); err != nil {
		return nil, nil, err
	}
	return overlay, set, nil
}

// anyOutput is the output schema of a provider's tools: any JSON value,
// passed to the program as it is.
var anyOutput = json.RawMessage(`{}`)

// notFoundDispatch answers for a run given providers without a dispatch.
func notFoundDispatch(_ context.Context, provider, tool, _ string) string {
	return protocol.ErrorEnvelope(fmt.Sprintf("Tool %q not found", provider+"."+tool))
}

// callDispatch makes one call through dispatch and reads its envelope: a
// result is the call's value (binary values, tagged {"$binary": ...},
// become Uint8Arrays), an error its failure, as the seed's proxy throws
// new Error(data.error).
func callDispatch(ctx context.Context, dispatch protocol.DispatchFunc, provider, tool, args string) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("the dispatch of %s.%s panicked: %v", provider, tool, p)
		}
	}()
	env := dispatch(ctx, provider, tool, args)
	result, msg, isErr, perr := protocol.ParseEnvelope(env)
	switch {
	case perr != nil:
		return nil, fmt.Errorf("the dispatch of %s.%s answered with a %v; answer {\"result\": value} or {\"error\": \"text\"}", provider, tool, perr)
	case isErr:
		return nil, errors.New(msg)
	case len(result) == 0:
		return nil, nil
	case !bytes.Contains(result, []byte(protocol.BinaryTag)):
		return result, nil
	}
	v, perr := protocol.ParseForDispatch(string(result))
	if perr != nil {
		return nil, fmt.Errorf("the dispatch of %s.%s answered with a result that is not JSON: %v", provider, tool, perr)
	}
	return markBinary(v), nil
}

// dispatchBytes is a binary value a dispatch answered with: it becomes a
// Uint8Array (a tool's []byte is base64 text, as JSON has it).
type dispatchBytes []byte

// markBinary turns the []byte DecodeDispatchValue made into dispatchBytes.
func markBinary(v any) any {
	switch x := v.(type) {
	case []byte:
		return dispatchBytes(x)
	case map[string]any:
		for k, e := range x {
			x[k] = markBinary(e)
		}
	case []any:
		for i, e := range x {
			x[i] = markBinary(e)
		}
	}
	return v
}

// providerRef is the Internal of a provider global: every declared tool
// is a method; any other name is a method that fails as an unknown tool
// does, with a suggestion.
type providerRef struct {
	host    *toolHost
	name    string
	methods map[string]*value.Object // made on first use
}

// provider returns the global of provider name, the same object each time.
func (h *toolHost) provider(r *value.Realm, name string) (value.Value, bool) {
	if h.providers == nil || h.providers.byName[name] == nil {
		return value.Undefined, false
	}
	if o, ok := h.providerObjs[name]; ok {
		return value.Obj(o), true
	}
	o := value.NewObject(r.Intrinsic(value.ObjectPrototype))
	o.Class = value.ClassHost
	o.Internal = &providerRef{host: h, name: name}
	r.Charge(128)
	if h.providerObjs == nil {
		h.providerObjs = map[string]*value.Object{}
	}
	h.providerObjs[name] = o
	return value.Obj(o), true
}

// HostGet implements value.HostObject.
func (p *providerRef) HostGet(r *value.Realm, o *value.Object, key string) (value.Value, bool) {
	if key == "then" || key == "toJSON" || value.IsSymbolKey(key) || value.IsPrivateKey(key) {
		return value.Undefined, false
	}
	if m, ok := p.methods[key]; ok {
		return value.Obj(m), true
	}
	m := value.NewFunctionObject(r.Intrinsic(value.FunctionPrototype), &providerMethod{host: p.host, provider: p.name, tool: key})
	m.Class = value.ClassHost
	r.Charge(96 + len(key))
	if p.methods == nil {
		p.methods = map[string]*value.Object{}
	}
	p.methods[key] = m
	return value.Obj(m), true
}

// HostKeys implements value.HostObject: the provider's tools.
func (p *providerRef) HostKeys(r *value.Realm, o *value.Object) []string {
	if d := p.host.providers.byName[p.name]; d != nil {
		return slices.Clone(d.Tools)
	}
	return nil
}

// providerMethod is the Internal of a provider's method.
type providerMethod struct {
	host           *toolHost
	provider, tool string
}

// HostCall implements value.HostCallable: a tool call whose input is the
// arguments, as an array (positional, the default) or the first one.
func (m *providerMethod) HostCall(r *value.Realm, o *value.Object, c *value.Call) value.Value {
	h := m.host
	segs := []string{m.provider, m.tool}
	n := h.providers.globals.Lookup(segs)
	if n == nil || n.Tool == nil {
		msg := fmt.Sprintf("Unknown tool '%s.%s'.", m.provider, m.tool)
		if best, ok := h.providers.globals.Closest(segs); ok {
			msg = fmt.Sprintf("Unknown tool '%s.%s'. Did you mean %s?", m.provider, m.tool, strings.Join(best.Segments, "."))
		}
		throwToolError(r, UnknownTool, msg, "The provider's tools are: "+strings.Join(h.providers.byName[m.provider].Tools, ", ")+".")
	}
	d := h.providers.byName[m.provider]
	arg := value.Undefined
	if d.PositionalArgs == nil || *d.PositionalArgs {
		arg = value.Obj(r.NewArrayValue(slices.Clone(c.Args)))
	} else if len(c.Args) > 0 {
		arg = c.Args[0]
	}
	p := r.NewPromise()
	call := &pendingCall{host: h, node: n, arg: arg, promise: p, pos: r.Agent.Pos(), dispatched: true}
	call.start(r)
	return value.Obj(p)
}

// binaryJSON writes a Uint8Array's bytes as the dispatch grammar's
// {"$binary": "<base64>"}.
func binaryJSON(out *outBuf, b []byte) {
	out.writeString(`{"` + protocol.BinaryTag + `":"`)
	out.writeString(base64.StdEncoding.EncodeToString(b))
	out.writeString(`"}`)
}

// globalTaken reports whether name is already a global of a run with
// cfg: an extension's or a binding.
func (rt *Runtime) globalTaken(name string, cfg *execConfig) bool {
	if _, ok := cfg.bindings[name]; ok {
		return true
	}
	for _, exts := range [][]Extension{rt.opts.Extensions, cfg.extensions} {
		for _, e := range exts {
			if _, ok := e.Globals[name]; ok {
				return true
			}
		}
	}
	return false
}
