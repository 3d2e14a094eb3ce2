package web_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// responseCases are programs over Response, each run on engine "ast",
// on engine "vm", and on "vm" saving and restoring the run at every job
// boundary (so that every Response a case makes passes through a
// snapshot). Messages are undici's; where codemode differs (no streams,
// no ArrayBuffer or Blob, the boundary) the case says so.
var responseCases = []struct{ name, code, want string }{
	{"defaults", `const r = new Response();
const a = [r.status, r.statusText, r.ok, r.type, r.url, r.redirected, r.bodyUsed, [...r.headers]];
// A null body reads as empty, as often as asked, and is never "used".
return [...a, await r.text(), r.bodyUsed, await r.text(), (await r.bytes()).length, new Response(undefined).status, new Response(null, {}).status];`,
		`[200,"",true,"default","",false,false,[],"",false,"",0,200,200]`},
	{"bodies", `const u = new Uint8Array([104, 105]);
const fromU8 = new Response(u); u[0] = 0; // the body is a copy
const kinds = [new Response("héllo"), fromU8, new Response(new URLSearchParams({ q: "a b", x: "é" })), new Response(12.5), new Response({}), new Response(true)];
const out = [];
for (const r of kinds) out.push([r.headers.get("content-type"), await r.text()]);
const own = new Response("x", { headers: { "Content-Type": "text/csv" } });
out.push([...own.headers]);
out.push(t(() => new Response(Symbol.iterator)));
return out;`,
		`[["text/plain;charset=UTF-8","héllo"],[null,"hi"],["application/x-www-form-urlencoded;charset=UTF-8","q=a+b&x=%C3%A9"],["text/plain;charset=UTF-8","12.5"],["text/plain;charset=UTF-8","[object Object]"],["text/plain;charset=UTF-8","true"],[["content-type","text/csv"]],"TypeError: Cannot convert a Symbol value to a string"]`},
	{"init", `const s = (init) => t(() => new Response(null, init).status);
return [s({ status: 201 }), s({ status: "202" }), s({ status: 599.9 }), s({ status: 65736 }), s({ status: 199 }), s({ status: 600 }), s({ status: null }), s({ status: "x" }), s({ status: -1 }),
 new Response(null, { statusText: "Teapot \t\u00e9" }).statusText, t(() => new Response(null, { statusText: "a\nb" })), t(() => new Response(null, { statusText: "\u20ac" })),
 t(() => new Response(null, 5)), t(() => new Response(null, "x")), t(() => new Response(null, { headers: 5 })), t(() => new Response(null, { headers: null })),
 [...new Response(null, { headers: [["B", "2"], ["a", "1"]] }).headers], [...new Response(null, { headers: new Headers({ c: "3" }) }).headers],
 t(() => new Response(null, { headers: { "bad name": "1" } })),
 t(() => new Response("body", { status: 204 })), t(() => new Response("", { status: 205 })), t(() => new Response("x", { status: 304 })), new Response(null, { status: 204 }).status,
 new Response(null, { status: 404 }).ok, new Response(null, { status: 299 }).ok, new Response(null, { status: 300 }).ok];`,
		`[201,202,599,200,"RangeError: init[\"status\"] must be in the range of 200 to 599, inclusive.","RangeError: init[\"status\"] must be in the range of 200 to 599, inclusive.","RangeError: init[\"status\"] must be in the range of 200 to 599, inclusive.","RangeError: init[\"status\"] must be in the range of 200 to 599, inclusive.","RangeError: init[\"status\"] must be in the range of 200 to 599, inclusive.",
 "Teapot \té","TypeError: Invalid statusText","TypeError: Cannot convert argument to a ByteString because the character at index 0 has a value of 8364 which is greater than 255.",
 "TypeError: Response constructor: Expected 5 to be one of: Null, Undefined, Object.","TypeError: Response constructor: Expected x to be one of: Null, Undefined, Object.","TypeError: Headers constructor: Argument 1 could not be converted to one of: sequence<sequence<ByteString>>, record<ByteString, ByteString>.","TypeError: Headers constructor: Argument 1 could not be converted to one of: sequence<sequence<ByteString>>, record<ByteString, ByteString>.",
 [["a","1"],["b","2"]],[["c","3"]],"TypeError: Headers.append: \"bad name\" is an invalid header name.",
 "TypeError: Response constructor: Invalid response status code 204","TypeError: Response constructor: Invalid response status code 205","TypeError: Response constructor: Invalid response status code 304",204,
 false,true,false]`},
	{"read_once", `const out = [];
const rej = async (p) => { try { await p; return "resolved"; } catch (e) { return e.name + ": " + e.message; } };
const r = new Response("abc");
out.push(await r.text(), r.bodyUsed, await rej(r.text()), await rej(r.json()), await rej(r.bytes()), await rej(r.arrayBuffer()));
const r2 = new Response("abc");
const p1 = r2.text(), p2 = r2.text(); // the first call uses the body up at once
out.push(await p1, await rej(p2));
const b = await new Response(new Uint8Array([1, 2, 255])).bytes();
const ab = await new Response("AB").arrayBuffer();
out.push(b instanceof Uint8Array, Array.from(b), ab instanceof Uint8Array, Array.from(new Uint8Array(ab)));
const c = new Response("twice", { status: 201, headers: { a: "1" } });
const d = c.clone();
d.headers.set("a", "2");
out.push(await c.text(), await d.text(), d.status, c.headers.get("a"), d.headers.get("a"), t(() => c.clone()), d.bodyUsed);
const q = new Response("x").text();
out.push(q instanceof Promise);
return out;`,
		`["abc",true,"TypeError: Body is unusable: Body has already been read","TypeError: Body is unusable: Body has already been read","TypeError: Body is unusable: Body has already been read","TypeError: Body is unusable: Body has already been read",
 "abc","TypeError: Body is unusable: Body has already been read",
 true,[1,2,255],true,[65,66],
 "twice","twice",201,"1","2","TypeError: Response.clone: Body has already been consumed.",true,true]`},
	{"json_and_text", `const rej = async (p) => { try { return await p; } catch (e) { return [e.name, e.message, e instanceof SyntaxError]; } };
const parseMsg = (s) => { try { JSON.parse(s); } catch (e) { return e.message; } };
const bad = await rej(new Response("{bad").json());
return [await new Response('{"a":[1,2],"b":"\u00e9"}').json(), await new Response("\ufeff[1]").json(), await new Response("\ufeffBOM").text(),
 bad, bad[1] === parseMsg("{bad"), await rej(new Response("").json()), await rej(new Response().json()),
 await new Response(new Uint8Array([0x61, 0xff, 0x62, 0xe2, 0x82])).text(), (await new Response(new Uint8Array([0xf0, 0x9f, 0x98, 0x80])).text()).length];`,
		`[{"a":[1,2],"b":"é"},[1],"BOM",["SyntaxError","Expected property name or '}' in JSON at position 1 (line 1 column 2)",true],true,["SyntaxError","Unexpected end of JSON input",true],["SyntaxError","Unexpected end of JSON input",true],"a\ufffdb\ufffd",2]`},
	{"statics", `const j = Response.json({ a: 1 }, { status: 201, headers: { "x-y": "z" } });
const k = Response.json([1], { headers: { "content-type": "application/vnd+json" } });
const e = Response.error();
const rd = Response.redirect("https://e.example/a b?q=1#f");
const rd2 = Response.redirect("http://x.test", 308);
return [j.status, [...j.headers], await j.json(), k.headers.get("content-type"), await Response.json("s", null).text(),
 t(() => Response.json()), t(() => Response.json(undefined)), t(() => Response.json(() => 1)), t(() => Response.json({}, { status: 204 })), t(() => Response.json({}, 5)),
 e.type, e.status, e.statusText, e.ok, e.url, [...e.headers], await e.text(),
 rd.status, rd.headers.get("location"), rd.type, rd2.status, rd2.headers.get("location"),
 t(() => Response.redirect()), t(() => Response.redirect("nope")), t(() => Response.redirect("http://x", 200)), t(() => Response.redirect("http://x", "abc"))];`,
		`[201,[["content-type","application/json"],["x-y","z"]],{"a":1},"application/vnd+json","\"s\"",
 "TypeError: Response.json: 1 argument required, but 0 found.","TypeError: Value is not JSON serializable","TypeError: Value is not JSON serializable","TypeError: Response constructor: Invalid response status code 204","TypeError: Response constructor: Expected 5 to be one of: Null, Undefined, Object.",
 "error",0,"",false,"",[],"",
 302,"https://e.example/a%20b?q=1#f","default",308,"http://x.test/",
 "TypeError: Response.redirect: 1 argument required, but 0 found.","TypeError: Failed to parse URL from nope","RangeError: Invalid status code 200","RangeError: Invalid status code 0"]`},
	{"immutable_headers", `const e = Response.error();
const rd = Response.redirect("http://x.test/");
const made = new Response("x");
made.headers.append("a", "1");
const cl = rd.clone();
return [t(() => e.headers.append("a", "1")), t(() => e.headers.set("a", "1")), t(() => e.headers.delete("a")), t(() => rd.headers.set("location", "/")),
 t(() => cl.headers.append("a", "1")), t(() => e.headers.append("bad name", "1")), made.headers.get("a"), rd.headers.get("location")];`,
		`["TypeError: immutable","TypeError: immutable","TypeError: immutable","TypeError: immutable","TypeError: immutable","TypeError: Headers.append: \"bad name\" is an invalid header name.","1","http://x.test/"]`},
	{"class_shape", `const P = Response.prototype;
const d = (k) => Object.getOwnPropertyDescriptor(P, k);
class Mine extends Response { hello() { return "hi " + this.status; } }
const m = new Mine("x", { status: 203 });
return [typeof Response, Response.name, Response.length, Response.json.length, Response.redirect.length, Response.error.length,
 Object.getOwnPropertyNames(Response), Object.keys(P), P[Symbol.toStringTag], Object.prototype.toString.call(new Response()),
 typeof d("status").get, d("status").get.name, d("status").enumerable, d("status").set, P.text.name, P.text.length,
 P.constructor === Response, new Response() instanceof Response, m.hello(), m instanceof Response, m instanceof Mine, await m.text(),
 t(() => Response()), t(() => d("status").get.call({})), t(() => P.clone.call(new Headers())), t(() => P.status),
 await P.text.call({}).catch((e) => e.name + ": " + e.message + " " + e.code)];`,
		`["function","Response",0,1,1,0,["length","name","prototype","error","json","redirect"],["type","url","status","ok","redirected","statusText","headers","body","bodyUsed","clone","blob","arrayBuffer","text","json","formData","bytes"],"Response","[object Response]",
 "function","get status",true,null,"text",0,
 true,true,"hi 203",true,true,"x",
 "TypeError: Class constructor Response cannot be invoked without 'new'","TypeError: Illegal invocation","TypeError: Illegal invocation","TypeError: Illegal invocation",
 "TypeError: Illegal invocation ERR_INVALID_THIS"]`},
	// codemode has no streams, Blob or FormData: each says what to use.
	{"unsupported", `const r = new Response("x");
const rej = async (p) => { try { await p; return "resolved"; } catch (e) { return e.name + ": " + e.message; } };
return [t(() => r.body), await rej(r.blob()), await rej(r.formData()), r.bodyUsed, await r.text()];`,
		`["TypeError: Response.body is not supported: codemode has no streams; read the body with text(), json() or bytes()","TypeError: Response.blob() is not supported: codemode has no Blob; read the body with bytes(), text() or json()","TypeError: Response.formData() is not supported; read the body with text() and parse it with new URLSearchParams(text)",false,"x"]`},
	// Inside the program a Response serializes as undici's does ({}), and
	// structuredClone refuses it like the other platform objects.
	{"serialize_clone", `const r = new Response("x", { headers: { a: "1" } });
return [JSON.stringify(r), JSON.stringify({ r }), { ...r }, t(() => structuredClone(r)), t(() => structuredClone({ nested: [r] })), Object.keys(r)];`,
		`["{}","{\"r\":{}}",{},"TypeError: DataCloneError: Cannot clone object of unsupported type.","TypeError: DataCloneError: Cannot clone object of unsupported type.",[]]`},
	// A Response kept across awaits (snapshots, in round-trip mode) keeps
	// its body, headers, state and identity.
	{"across_awaits", `const r = new Response('{"n":1}', { status: 202, headers: { "x-k": "v" } });
const c = r.clone();
const R = Response;
await null;
const first = await r.json();
await Promise.resolve();
return [first, r.bodyUsed, c.bodyUsed, c.status, c.headers.get("x-k"), await c.text(), Object.getPrototypeOf(c) === R.prototype, r instanceof Response];`,
		`[{"n":1},true,false,202,"v","{\"n\":1}",true,true]`},
}

func TestResponse(t *testing.T) {
	for _, c := range responseCases {
		runEngines(t, c.name, prelude+c.code, `{"ok":true,"value":`+c.want+`,"toolCalls":[]}`)
	}
}

// TestResponseBoundary: a Response returned to the host is refused with
// a hint to return its body.
func TestResponseBoundary(t *testing.T) {
	const msg = "TypeError: A Response cannot cross to the host; return its body instead, e.g. `return await res.json()` or `return await res.text()`."
	runEngines(t, "top", `const res = new Response("x");
return res;`, `{"ok":false,"error":{"kind":"InvalidDataValue","message":"`+msg+` (line 2, col 1)","location":{"line":2,"column":1}},"toolCalls":[]}`)
	runEngines(t, "nested", `return { data: [new Response("x")] };`,
		`{"ok":false,"error":{"kind":"InvalidDataValue","message":"`+msg+` (line 1, col 1)","location":{"line":1,"column":1}},"toolCalls":[]}`)
	runEngines(t, "body", `const res = new Response('{"a":1}');
return await res.json();`, `{"ok":true,"value":{"a":1},"toolCalls":[]}`)
}

// runEngines runs code on engine "ast", on "vm", and on "vm" in
// round-trip mode, and compares each Result's JSON with want.
func runEngines(t *testing.T, name, code, want string) {
	t.Helper()
	for _, e := range []struct {
		name, engine string
		roundTrip    bool
	}{{"ast", codemode.EngineAST, false}, {"vm", codemode.EngineVM, false}, {"roundtrip", codemode.EngineVM, true}} {
		t.Run(name+"/"+e.name, func(t *testing.T) {
			if e.roundTrip {
				t.Setenv(codemode.RoundTripEnv, "1")
			} else {
				t.Setenv(codemode.RoundTripEnv, "")
			}
			rt, err := codemode.New(codemode.Options{Engine: e.engine, Limits: codemode.Limits{Timeout: 20 * time.Second}})
			if err != nil {
				t.Fatal(err)
			}
			res := rt.Execute(context.Background(), code)
			got, _ := res.MarshalJSON()
			if !sameJSON(got, []byte(want)) {
				t.Errorf("program:\n%s\ngot:  %s\nwant: %s", code, got, want)
			}
		})
	}
}

// TestResponseSuspendResume: Responses in every state (unread, read,
// cloned, immutable, subclassed) are saved in a suspended run's state
// and work in a brand-new Runtime that resumes it.
func TestResponseSuspendResume(t *testing.T) {
	newRuntime := func() *codemode.Runtime {
		wait := &tools.Tool{Description: "Wait for approval", Output: json.RawMessage(`{"type":"object"}`),
			Func: func(context.Context, json.RawMessage) (any, error) { return map[string]any{}, nil }}
		rt, err := codemode.New(codemode.Options{Engine: codemode.EngineVM, Tools: map[string]any{"wait": wait},
			Hooks: codemode.Hooks{ToolBefore: func(context.Context, codemode.ToolCallInfo) error { return codemode.ErrSuspend }}})
		if err != nil {
			t.Fatal(err)
		}
		return rt
	}
	const src = `class Mine extends Response { kind() { return "mine " + this.status; } }
const unread = new Response('{"n":1}', { status: 201, statusText: "Made", headers: { "x-k": "v" } });
const read = new Response("gone");
await read.text();
const twin = unread.clone();
const err = Response.error();
const mine = new Mine(new Uint8Array([104, 105]));
await tools.wait({});
const rej = async (p) => { try { return await p; } catch (e) { return e.message; } };
return [await unread.json(), unread.bodyUsed, twin.bodyUsed, twin.statusText, twin.headers.get("x-k"), await twin.text(),
 read.bodyUsed, await rej(read.text()), err.type, (() => { try { err.headers.set("a", "b"); } catch (e) { return e.message; } })(),
 mine.kind(), mine instanceof Response, await mine.text(), Object.getPrototypeOf(twin) === Response.prototype];`
	out, err := newRuntime().Program(src).Run(context.Background())
	if err != nil || !out.IsSuspended() {
		t.Fatalf("not suspended: %v %s", err, out.Result)
	}
	res, err := newRuntime().Resume(out.Suspended.State, codemode.Approve(out.Suspended.Pending[0].Key)).Run(context.Background())
	if err != nil || res.IsSuspended() {
		t.Fatalf("resume: %v %+v", err, res)
	}
	got, _ := res.Result.MarshalJSON()
	want := `{"ok":true,"value":[{"n":1},true,false,"Made","v","{\"n\":1}",true,"Body is unusable: Body has already been read","error","immutable","mine 200",true,"hi",true],"toolCalls":[{"name":"wait"}]}`
	if !sameJSON(got, []byte(want)) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
