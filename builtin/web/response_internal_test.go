package web

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/builtin"
	"github.com/go-codemode/codemode/builtin/array"
	"github.com/go-codemode/codemode/builtin/collections"
	"github.com/go-codemode/codemode/builtin/json"
	"github.com/go-codemode/codemode/builtin/numeric"
	"github.com/go-codemode/codemode/builtin/text"
	"github.com/go-codemode/codemode/interp"
	"github.com/go-codemode/codemode/protocol"
	"github.com/go-codemode/codemode/value"
	"github.com/go-codemode/codemode/vm"
)

// fetchedResponses are what the test global fetched(i) turns into a
// Response with NewResponse, as fetch will.
var fetchedResponses = []protocol.OutboundResponse{
	{Status: 200, Headers: [][2]string{{"Content-Type", "application/json"}, {"Set-Cookie", "a=1"}, {"set-cookie", "b=2"}, {"X-Multi", "one"}, {"x-multi", " two "}},
		Body: []byte(`{"items":[1,2,3],"name":"caf\u00e9"}`)},
	{Status: 404, StatusText: "Nothing Here", Body: []byte("missing")},
	{Status: 201, URL: "https://api.test/final#frag", Body: []byte("\xef\xbb\xbfmoved")},
	{Status: 204},
	{Status: 599, URL: "http://api.test/x?q=1#frag"},
}

// fetchedNative is fetched(i): NewResponse of fetchedResponses[i], as if
// the program had fetched http://api.test/x?q=1#frag.
var fetchedNative = native("fetched", 1, func(r *value.Realm, c *value.Call) value.Value {
	return value.Obj(NewResponse(r, "http://api.test/x?q=1", fetchedResponses[int(r.ToNumber(c.Arg(0)))]))
})

// requestPartsNative is requestParts(body, headers): what ExtractBody
// and HeaderList make of a fetch init's body and headers, as a string.
var requestPartsNative = native("requestParts", 2, func(r *value.Realm, c *value.Call) value.Value {
	body, ctype := ExtractBody(r, c.Arg(0))
	return value.StrOf(fmt.Sprintf("%q %q %q", body, ctype, HeaderList(r, c.Arg(1))))
})

func testLibrary() *value.Library {
	return builtin.New(array.Install, text.Install, json.Install, numeric.Install, collections.Install, Install,
		func(l *value.Library) { globalFunc(l, fetchedNative); globalFunc(l, requestPartsNative) })
}

// runBoth runs a program on both engines over lib and returns what it
// returned (a string) on each, or its failure.
func runBoth(t *testing.T, lib *value.Library, src string) map[string]string {
	t.Helper()
	prog, err := ast.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	result := func(r *value.Realm, v value.Value, p *value.Object, fail *interp.Failure, settle func(*value.Object) *interp.Failure) string {
		if fail == nil && p != nil {
			fail = settle(p)
			v = value.PromiseOf(value.Obj(p)).Result
		}
		if fail != nil {
			if fail.Exception != nil {
				return "uncaught: " + builtin.ErrorString(r, fail.Exception.Value).String()
			}
			if fail.Interrupt != nil {
				return "interrupt: " + fail.Interrupt.Kind
			}
			t.Fatalf("run failed: %+v", fail)
		}
		if !v.IsString() {
			t.Fatalf("the program returned %v, want a string", v)
		}
		return v.AsString().String()
	}
	ic, err := interp.Compile(prog)
	if err != nil {
		t.Fatal(err)
	}
	ir := interp.NewRun(context.Background(), ic, interp.Options{Library: lib})
	v, p, fail := ir.Start()
	out["ast"] = result(ir.Realm(), v, p, fail, ir.Settle)
	ir.Close()
	vc, err := vm.Compile(prog)
	if err != nil {
		t.Fatal(err)
	}
	vr := vm.NewRun(context.Background(), vc, vm.Options{Library: lib})
	v, p, fail = vr.Start()
	out["vm"] = result(vr.Realm(), v, p, fail, vr.Settle)
	vr.Close()
	return out
}

// TestNewResponse: what fetch's Response shows a program, on both
// engines: status and its standard text, immutable lower-cased headers,
// the URL without its fragment, redirected, type "basic", the body read
// once, and the run's own Response.prototype even when the program has
// replaced the global.
func TestNewResponse(t *testing.T) {
	src := `const R = Response;
Response = null;
const t = (f) => { try { return f(); } catch (e) { return e.name + ": " + e.message; } };
const a = fetched(0), b = fetched(1), c = fetched(2), d = fetched(3), e = fetched(4);
const out = [a.status, a.statusText, a.ok, a.type, a.url, a.redirected, [...a.headers], a.headers.get("x-multi"), a.headers.getSetCookie(),
 t(() => a.headers.set("x", "1")), t(() => a.headers.delete("content-type")), a instanceof R, Object.getPrototypeOf(a) === R.prototype];
out.push(await a.json(), a.bodyUsed);
try { await a.text(); } catch (err) { out.push(err.message); }
out.push(b.status, b.statusText, b.ok, await b.text());
out.push(c.url, c.redirected, c.statusText, await c.text());
out.push(d.status, d.statusText, await d.text(), d.bodyUsed);
out.push(e.status, e.statusText, e.url, e.redirected);
const k = e.clone();
out.push(t(() => k.headers.append("x", "1")));
return JSON.stringify(out);`
	want := `[200,"OK",true,"basic","http://api.test/x?q=1",false,[["content-type","application/json"],["set-cookie","a=1"],["set-cookie","b=2"],["x-multi","one, two"]],"one, two",["a=1","b=2"],` +
		`"TypeError: immutable","TypeError: immutable",true,true,` +
		`{"items":[1,2,3],"name":"café"},true,"Body is unusable: Body has already been read",` +
		`404,"Nothing Here",false,"missing",` +
		`"https://api.test/final",true,"Created","moved",` +
		`204,"No Content","",false,` +
		`599,"","http://api.test/x?q=1",false,` +
		`"TypeError: immutable"]`
	for eng, got := range runBoth(t, testLibrary(), src) {
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", eng, got, want)
		}
	}
}

// TestNewResponseCharges: the body and headers count against the run's
// memory budget, and past it NewResponse ends the run.
func TestNewResponseCharges(t *testing.T) {
	lib := testLibrary()
	r := value.NewRealm(lib, nil)
	body := make([]byte, 1<<20)
	before := r.Allocated()
	NewResponse(r, "http://x.test/", protocol.OutboundResponse{Status: 200, Body: body, Headers: [][2]string{{"a", "b"}}})
	if n := r.Allocated() - before; n < int64(len(body)) || n > int64(len(body))+4096 {
		t.Fatalf("a 1 MiB response charged %d bytes", n)
	}
	r.Budget = r.Allocated() + 1000
	var got any
	func() {
		defer func() { got = recover() }()
		NewResponse(r, "http://x.test/", protocol.OutboundResponse{Status: 200, Body: body})
	}()
	if in, ok := got.(*value.Interrupt); !ok || in.Kind != "MemoryLimitExceeded" {
		t.Fatalf("over budget: %v", got)
	}
}

// TestResponseSnapshotShape: Response's natives are all registered by
// stable names (what lets a snapshot name them), and the constructor is
// kept where programs cannot see it.
func TestResponseSnapshotShape(t *testing.T) {
	lib := testLibrary()
	for _, n := range append(append(append([]*value.Native{responseCtorNative}, responseGetters...), responseMethods...), responseStatics...) {
		if lib.Native(n.Name) != n {
			t.Errorf("%s is not registered", n.Name)
		}
	}
	r := value.NewRealm(lib, nil)
	ctor := responseCtor(r)
	if responseCtor(r) != ctor || !value.IsPrivateKey(responseKey) {
		t.Fatal("the run's Response is not kept")
	}
	for _, k := range r.OwnKeys(r.Intrinsic(value.HeadersCtor), false, true) {
		if strings.Contains(k, "Response") {
			t.Errorf("Headers shows the key %q", k)
		}
	}
}

// TestRequestParts: the helpers fetch's wiring converts init.body and
// init.headers with.
func TestRequestParts(t *testing.T) {
	src := `const t = (f) => { try { return f(); } catch (e) { return e.name + ": " + e.message; } };
const h = new Headers([["X-B", "2"], ["x-a", " 1 "]]); h.append("x-b", "3");
return [requestParts("h\u00e9", { "Content-Type": "a/b", B: "x" }), requestParts(new Uint8Array([1, 2]), h), requestParts(new URLSearchParams("a=1&b=2"), [["k", "v"], ["k", "w"]]),
 requestParts({}, {}), t(() => requestParts("", 5)), t(() => requestParts("", { "a b": "1" })), t(() => requestParts(Symbol.iterator, {}))].join("\n");`
	want := `"hé" "text/plain;charset=UTF-8" [["content-type" "a/b"] ["b" "x"]]
"\x01\x02" "" [["x-a" "1"] ["x-b" "2, 3"]]
"a=1&b=2" "application/x-www-form-urlencoded;charset=UTF-8" [["k" "v"] ["k" "w"]]
"[object Object]" "text/plain;charset=UTF-8" []
TypeError: Headers constructor: Argument 1 could not be converted to one of: sequence<sequence<ByteString>>, record<ByteString, ByteString>.
TypeError: Headers.append: "a b" is an invalid header name.
TypeError: Cannot convert a Symbol value to a string`
	for eng, got := range runBoth(t, testLibrary(), src) {
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", eng, got, want)
		}
	}
}
