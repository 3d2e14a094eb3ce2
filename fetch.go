package codemode

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/go-codemode/codemode/builtin/web"
	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/protocol"
	"github.com/go-codemode/codemode/value"
)

// fetch: a run given a performer (Options.Fetch or WithFetch) has a
// `fetch` global that resolves to a Response, as the web's fetch does.
// The performer does the network part: outbound.Client's Fetch for the
// executor seed's native mode (the host performs the request, guarded),
// a host function for its stub mode. WithFetch(nil) is its disabled mode:
// fetch exists and throws. A fetch is a host call like an asynchronous
// extension's: it runs on a worker, its context ends with the run, the
// extension hooks see it (Extension "fetch"), and it does not count as a
// tool call.

// WithFetch gives this execution a `fetch` global that performs its
// requests through f: outbound.New(cfg).Fetch() reaches the network from
// this process, safely; any other protocol.FetchFunc answers them itself.
// WithFetch(nil) makes fetch throw, saying the run has no network. It
// replaces Options.Fetch.
func WithFetch(f protocol.FetchFunc) ExecOption {
	return func(c *execConfig) { c.fetch, c.fetchSet = f, true }
}

// fetchDisabledMessage is fetch's error in a run without a network.
const fetchDisabledMessage = "fetch is disabled: this run has no network access. Get the data through the tools instead."

// fetchNative is the `fetch` global.
var fetchNative = &value.Native{Name: "fetch", Length: 1, Fn: func(r *value.Realm, c *value.Call) value.Value {
	h := c.Callee.Internal.(*value.Bound).Data.(*host)
	return h.fetch(r, c.Arg(0), c.Arg(1))
}}

// fetch starts a request: its promise settles with a Response, or
// rejects with a TypeError saying why the request failed.
func (h *host) fetch(r *value.Realm, input, init value.Value) value.Value {
	p := r.NewPromise()
	if h.fetcher == nil {
		r.RejectPromise(p, value.Obj(r.NewError(value.TypeError, fetchDisabledMessage)))
		return value.Obj(p)
	}
	var req protocol.OutboundRequest
	if exc := r.Try(func() { req = fetchRequest(r, input, init) }); exc != nil {
		r.RejectPromise(p, exc.Value)
		return value.Obj(p)
	}
	th := h.tools
	id, seq := th.callID()
	info := ExtensionCallInfo{Extension: "fetch", Name: "fetch", Args: []any{req.Method, req.URL}, ID: id, Seq: seq}
	fc := &fetchCall{ctx: th.ctx, host: h, info: info, req: req}
	fc.ended = th.started("extension", "fetch", id, seq, nil)
	fc.call = engine.HostCall{Seq: seq, Kind: engine.CallExtension, Path: "fetch", Promise: p, Pos: r.Agent.Pos(), Settler: fc}
	th.run.Begin(&fc.call)
	fc.hc.interrupted = func() { fc.finished(CallOutcome{Status: CallInterrupted}, false) }
	th.trackCall(&fc.hc)
	th.spawn(fc)
	return value.Obj(p)
}

// fetchRequest reads fetch's arguments as the web's fetch does: a URL
// (a string or a URL object) and an init of method, headers and body.
func fetchRequest(r *value.Realm, input, init value.Value) protocol.OutboundRequest {
	raw := r.ToString(input).String()
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() {
		r.ThrowType("Failed to parse URL from %s", raw)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		r.ThrowType("fetch failed: only http and https URLs can be fetched, not %s", raw)
	}
	if u.Host == "" {
		r.ThrowType("Failed to parse URL from %s", raw)
	}
	req := protocol.OutboundRequest{Method: "GET", URL: u.String()}
	o := init.AsObject()
	if o == nil {
		return req
	}
	if m := r.Get(init, "method"); !m.IsUndefined() {
		req.Method = strings.ToUpper(r.ToString(m).String())
	}
	if hv := r.Get(init, "headers"); !hv.IsNullish() {
		req.Headers = web.HeaderList(r, hv)
	}
	if bv := r.Get(init, "body"); !bv.IsNullish() {
		if req.Method == "GET" || req.Method == "HEAD" {
			r.ThrowType("Request with GET/HEAD method cannot have body.")
		}
		body, contentType := web.ExtractBody(r, bv)
		req.Body = body
		if contentType != "" {
			if _, ok := protocol.HeaderValue(req.Headers, "content-type"); !ok {
				req.Headers = append(req.Headers, [2]string{"content-type", contentType})
			}
		}
	}
	return req
}

// fetchCall is one fetch on its way: a worker's task, and the run's
// settler of its outcome.
type fetchCall struct {
	ctx   context.Context // the context of the run's phase it began in
	host  *host
	info  ExtensionCallInfo
	req   protocol.OutboundRequest
	resp  protocol.OutboundResponse
	ended func(CallOutcome)
	hc    hostCall
	call  engine.HostCall
}

func (fc *fetchCall) finished(out CallOutcome, denied bool) {
	th := fc.host.tools
	if after := th.hooks.ExtensionAfter; after != nil && !denied {
		runAfter(func() { after(context.WithoutCancel(fc.ctx), fc.info, out) })
	}
	fc.ended(out)
}

// run is the call's task on a worker: the before-hook, the request, the
// after-hook.
func (fc *fetchCall) run() *engine.HostCall {
	th, hc, ctx := fc.host.tools, &fc.hc, fc.ctx
	if before := th.hooks.ExtensionBefore; before != nil {
		var err error
		if !th.hook(hc, func() { err = runBefore(func() error { return before(ctx, fc.info) }) }) {
			return nil
		}
		if err != nil {
			if th.complete(hc, func() { fc.finished(CallOutcome{Status: CallFailure, Err: err}, true) }) {
				fc.call.Err = err
				return &fc.call
			}
			return nil
		}
	}
	if !hc.begin() {
		return nil
	}
	resp, err := safeFetch(ctx, fc.host.fetcher, fc.req)
	outcome := outcomeOf(ctx, nil, err)
	if !th.complete(hc, func() { fc.finished(outcome, false) }) {
		return nil
	}
	fc.resp, fc.call.Err = resp, err
	return &fc.call
}

// safeFetch calls the performer, turning a panic into an error and
// checking the response it gives.
func safeFetch(ctx context.Context, f protocol.FetchFunc, req protocol.OutboundRequest) (resp protocol.OutboundResponse, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the host's fetch panicked: %v", p)
		}
	}()
	resp, err = f(ctx, req)
	if err == nil && (resp.Status < 200 || resp.Status > 599) {
		err = fmt.Errorf("the host's fetch answered with status %d; an HTTP status is 200 to 599", resp.Status)
	}
	if err == nil && len(resp.Body) > MaxResultBytes {
		err = fmt.Errorf("the response body is %d bytes, more than the %d a run accepts", len(resp.Body), MaxResultBytes)
	}
	return resp, err
}

// Settle implements engine.Settler: a Response, or a TypeError.
func (fc *fetchCall) Settle(r *value.Realm, c *engine.HostCall) {
	fc.host.tools.run.CheckInterrupts()
	if c.Err != nil {
		msg := c.Err.Error()
		if errors.Is(c.Err, context.Canceled) || errors.Is(c.Err, context.DeadlineExceeded) {
			msg = "the request was cancelled"
		}
		r.RejectPromise(c.Promise, value.Obj(r.NewError(value.TypeError, "fetch failed: "+msg)))
		return
	}
	var res *value.Object
	if exc := r.Try(func() { res = web.NewResponse(r, fc.req.URL, fc.resp) }); exc != nil {
		r.RejectPromise(c.Promise, exc.Value)
		return
	}
	fc.resp = protocol.OutboundResponse{} // the Response holds the body now
	r.ResolvePromise(c.Promise, value.Obj(res))
}
