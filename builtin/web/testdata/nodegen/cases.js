module.exports = [
["uri_encode", `return [encodeURIComponent("a b&c=d/e?f#g"), encodeURI("http://x/a b?q=é#h"), encodeURIComponent("\uD83D\uDE00"), encodeURI(";/?:@&=+$,#-_.!~*'()[]"), encodeURIComponent(";/?:@&=+$,#"), encodeURIComponent(), encodeURIComponent(null), encodeURI(12.5),
 t(() => encodeURI("\uD800")), t(() => encodeURIComponent("a\uDC00")), t(() => encodeURIComponent("\uD800a")), t(() => encodeURIComponent({toString() { throw new RangeError("ts"); }}))];`],
["uri_decode", `return [decodeURIComponent("%41%2f%3F%23"), decodeURI("%41%2f%3F%23%25"), decodeURI("%e2%82%ac"), decodeURIComponent("%F0%9F%98%80x"), decodeURIComponent(""), decodeURIComponent("100%25"),
 t(() => decodeURIComponent("%")), t(() => decodeURIComponent("%4")), t(() => decodeURIComponent("%zz")), t(() => decodeURIComponent("%C3")), t(() => decodeURIComponent("%C3%28")), t(() => decodeURIComponent("%C0%80")),
 t(() => decodeURIComponent("%ED%A0%80")), t(() => decodeURIComponent("%F4%90%80%80")), t(() => decodeURIComponent("%80")), t(() => decodeURIComponent("%FF")), t(() => decodeURI("%E2%82")), t(() => decodeURIComponent("%E2%82%AC%")),
 decodeURIComponent("%E2%82%AC").length, decodeURIComponent("%F0%90%80%80").length];`],
["atob_btoa", `return [btoa("hello world"), btoa(""), btoa("\\xff\\xfe"), btoa(null), btoa(undefined), btoa(12), atob("aGVsbG8gd29ybGQ="), atob(" aGVs\\nbG8 "), atob("YQ"), atob("YR=="), atob(""), atob(null).length, atob("/+/+").length,
 t(() => btoa("\\u0100")), t(() => btoa()), t(() => atob()), t(() => atob("a")), t(() => atob("!!")), t(() => atob("aGk=a")), t(() => atob("aG=k")), t(() => atob("aGk==")), t(() => atob("YQ=")), t(() => atob("Y===")), t(() => atob("\\u00e9"))];`],
["atob_error_shape", `try { atob("*"); } catch (e) { return [e.name, e.message, e.code, e instanceof Error, Object.keys(e), String(e)]; }`],
["url_parse_table", `const inputs = ["a:b c?x", "a:b c #x", "http://a/^\`{}|x", "http://a/?^\`{}'\\"<>", "http://a/#^\`{}' \\"<>", "http://u:p^|@a/", "http://ExAmPle.COM.", "http://1.2.3", "http://0x100000000", "http://4294967295", "http://1.2.3.256", "http://1.2.3.4.5", "http://1.2.3.09", "http://foo.09", "http://foo.0x", "http://[1:0:0:0:0:0:0:1]", "http://[::ffff:1.2.3.4]/", "http://[1::2::3]", "http://[0:0:0:1:0:0:0:0]", "http://[::]", "http://[1:2:3:4:5:6:7:8]", "http://[1:2:3:4:5:6:7:8:9]", "http://[::1.2.3]", "http://[::1.2.3.4.5]", "http://[:1]", "http://[1:]", "http://a%41.com", "http://a%2F.com", "http://☃.net", "http://straße.de", "http://ΣΑΣ.gr", "http://xn--nxasmq6b.com", "http://a..b", "http://.", "http://a b", "sc://a b/", "sc://ä/", "sc://[::1]/", "sc://a%zz/", "file:///C:/a/../..", "file://localhost/x", "file:c:\\\\x", "file://host/share", "http:\\\\\\\\a\\\\b", "http:a", "http:/a", "javascript:alert(1)", "blob:https://a/x", "HTTP://A:80", "ws://a:80", "wss://a:443", "ftp://a:21", "http://a:65536", "http://a:00080/", "http://@a", "http://:@a", "http://a@b@c/", "http://a:b:c@d/", "http://[::1", "http://a/%2e%2E/b", "http://a/b/./%2e", "non-spec:/.//p", "non-spec:/..//p", "http://a\\t\\nb/", " http://a/ ", "http://a/?q=\\u{1F600}", "http://a\\u3002b/", "http://ＡＢ.com", "http://a\\u00adb.com", "http://\\u0301a.com", "http://\\uFFFD.com", "http://\\uD800.com", "http://a/\\uD800", "https://x/a/b/../../..", "http://a:8080x/", "http://a:-1/", "mailto:", "data:text/plain,hi there", "urn:isbn:0451450523", "http://[::1]:443/", "https://1.1.1.1:443", "http://0300.0250.0.1", "http://0x7f.1", "http://127.1", "http://a/b c/d", "HTTPS://Ä.example/Ö?Ü#ß", "http://user@/", "sc:", "sc:/", "sc://", "http:", "file:", "file:///", "file:/a", "file://C|/x", "file:///C|/x", "http://example.com:/", "http://example.com:0/", "git+ssh://git@github.com:org/repo.git", "http://a/b?c#d#e", "http://a/?a=b&c=d#x?y", "http://%41", "http://%e2%98%83", "http://a%00b", "https://ex ample.com", "https://exa%mple.com", "x:/a\\\\b", "http://a/\\u00e9/\\u00e9?\\u00e9#\\u00e9", "http://a/b/c/./../../g", "http://a/b;p?q"];
return inputs.map((s) => { try { return new URL(s).href; } catch (e) { return e.name + ": " + e.message; } });`],
["url_relative", `const base = "http://a/b/c/d;p?q";
const rel = ["g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x", "g;x", "g;x?y#s", "", ".", "./", "..", "../", "../g", "../..", "../../", "../../g", "../../../g", "../../../../g", "/./g", "/../g", "g.", ".g", "g..", "..g", "./../g", "./g/.", "g/./h", "g/../h", "g;x=1/./y", "g;x=1/../y", "g?y/./x", "g?y/../x", "g#s/./x", "g#s/../x", "http:g", "\\\\\\\\x\\\\y", "  \\t /x", "https:x"];
return [rel.map((s) => new URL(s, base).href), new URL("x", "file:///C:/a/b").href, new URL("/x", "file:///C:/a/b").href, new URL("..", "file:///C:/").href, new URL("//h/x", "file:///a").href, t(() => new URL("?q", "sc:opaque").href), new URL("#f", "sc:opaque").href, t(() => new URL("x", "sc:opaque").href), new URL("x", "sc://h/a/b").href, new URL("..", "sc:/a/b").href, t(() => new URL("x", "bad")), t(() => new URL("/x", "mailto:a")), new URL("http://x/", undefined).href, t(() => new URL("x", null))];`],
["url_fields", `const u = new URL("https://user:pass@sub.example.com:8080/p/a/t/h?query=string&a=1#hash");
const keys = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"];
const v = new URL("sc:opaque?q#f");
const f = new URL("file:///tmp/x.txt");
return [keys.map((k) => u[k]), keys.map((k) => v[k]), keys.map((k) => f[k]), new URL("blob:https://a:1/x").origin, new URL("blob:ftp://a").origin, new URL("blob:bad").origin, new URL("ws://a:1").origin, new URL("http://[::1]:80/").origin, new URL("http://a/?").search, new URL("http://a/#").hash, new URL("http://a/?").href, new URL("http://a/#").href];`],
["url_setters", `const out = [];
const s = (href, k, v) => { const u = new URL(href); u[k] = v; out.push(u.href); };
s("http://a/", "protocol", "https"); s("http://a/", "protocol", "https:x"); s("http://a/", "protocol", "file"); s("sc://a/", "protocol", "http"); s("http://a/", "protocol", "sc"); s("http://a/", "protocol", "ht tp"); s("http://a/", "protocol", "1http"); s("https://a:443/", "protocol", "http"); s("http://a:443/", "protocol", "https"); s("file:///x", "protocol", "http"); s("http://u@a/", "protocol", "file"); s("mailto:x", "protocol", "sc");
s("http://a/", "username", "a b@c"); s("http://a/", "password", ":/"); s("file:///x", "username", "u"); s("sc:x", "username", "u"); s("http://u:p@a/", "username", ""); s("http://u:p@a/", "password", "");
s("http://a/", "host", "b:81"); s("http://a/", "host", "b:99999"); s("http://a:1/", "host", "c:x"); s("http://a:1/", "host", "c"); s("http://a/", "host", ""); s("sc://h/p", "host", ""); s("mailto:x", "host", "h"); s("http://a/", "host", "[::1]:2"); s("http://a/", "host", "a b"); s("http://a/", "host", "x/y"); s("file:///x", "host", "h"); s("file://h/x", "host", "localhost"); s("sc://u@h/", "host", "");
s("http://a:1/", "hostname", "c:2"); s("http://a/", "hostname", "b"); s("http://a/", "hostname", "B.Example"); s("http://a/", "hostname", "1.2.3"); s("http://a/", "hostname", "");
s("http://a/", "port", "99999"); s("http://a/", "port", "  1"); s("http://a/", "port", 1.5); s("http://a/", "port", "8080abc"); s("http://a:1/", "port", ""); s("https://a:1/", "port", "443"); s("file:///x", "port", "1"); s("http://a/", "port", "x");
s("http://a/", "pathname", "x/y?#"); s("http://a/", "pathname", ""); s("sc://h/p", "pathname", ""); s("sc:/p", "pathname", "//x"); s("mailto:x", "pathname", "y"); s("http://a/b", "pathname", "/c/../d/./e"); s("http://a/", "pathname", "\\\\x\\\\y"); s("sc://h/", "pathname", "\\\\x");
s("http://a/b?c#d", "search", ""); s("http://a/b?c#d", "search", "?"); s("http://a/", "search", "a b#"); s("http://a/", "search", "??x"); s("sc:x", "search", "q'"); s("http://a/", "search", "q'");
s("http://a/", "hash", "#x y"); s("http://a/#x", "hash", ""); s("http://a/", "hash", "#"); s("http://a/", "hash", "##"); s("sc:b c #x", "hash", "");
s("http://a/", "href", "https://b/c");
const u = new URL("http://a/");
return [out, t(() => { u.href = "bad"; }), u.href, (() => { try { u.origin = "x"; } catch (e) { return e.name; } })(), (() => { try { u.searchParams = 1; } catch (e) { return e.name; } })()];`],
["url_api", `const u = new URL("https://e.example/a?b=1");
const d = Object.getOwnPropertyDescriptor(URL.prototype, "href");
return [Object.getOwnPropertyNames(URL.prototype), typeof d.get, typeof d.set, d.enumerable, d.configurable, d.get.name, d.set.name, URL.length, URL.name, URL.canParse.length, URL.parse.length,
 Object.keys(u), JSON.stringify(u), String(u), u + "", u.toJSON(), u.toString.length, Object.prototype.toString.call(u), u instanceof URL,
 t(() => URL("http://a")), t(() => new URL()), t(() => URL.canParse()), t(() => URL.parse()), URL.canParse("http://a", undefined), URL.canParse("x", "http://a"), URL.canParse("http://a", "x"), URL.parse("x", "http://a/b").href, URL.parse("http://a", "x"),
 t(() => URL.prototype.toString.call({})), t(() => d.get.call({})), t(() => d.get.call(new URLSearchParams())), t(() => URL.prototype.toJSON.call(1)),
 new URL({ toString() { return "http://obj/"; } }).href, new URL(new URL("http://q/r")).href, new URL("x", new URL("http://q/r/s")).href];`],
["url_invalid_error", `const out = [];
try { new URL("nope"); } catch (e) { out.push(e.name, e.message, e.code, e.input, e.base, Object.keys(e)); }
try { new URL("x", "bad base"); } catch (e) { out.push(e.code, e.input, e.base, Object.keys(e)); }
try { new URL("http://a/").href = "zz"; } catch (e) { out.push(e.code, e.input, Object.keys(e)); }
return out;`],
["url_search_params_live", `const u = new URL("https://e.example/?a=1&b=2");
const p = u.searchParams;
const out = [p === u.searchParams, p.get("a")];
p.append("c", "x y");
out.push(u.href, u.search);
u.search = "?z=9";
out.push(p.get("z"), p.has("a"), p.size);
p.delete("z");
out.push(u.href, u.search);
u.href = "http://n/?k=v";
out.push([...p], p.toString());
p.sort();
out.push(u.href);
const w = new URL("http://a/#h");
w.searchParams.append("a", "b");
out.push(w.href);
const q = new URL("http://a/?x=1 2");
q.searchParams.sort();
out.push(q.href);
u.search = "";
out.push(p.size, u.href);
return out;`],
["params_ctor", `return [new URLSearchParams("?a=1&a=2&b").toString(), new URLSearchParams("??a=1").toString(), new URLSearchParams({ a: null, b: undefined, c: [1, 2] }).toString(), new URLSearchParams(new Map([["a", "1"]])).toString(), new URLSearchParams(5).toString(), new URLSearchParams(null).toString(), new URLSearchParams(new URLSearchParams("x=1&x=2")).getAll("x"), new URLSearchParams([new Set(["k", "v"])]).toString(), new URLSearchParams(Object.create({ inh: 1 }, { own: { value: 2, enumerable: true }, hid: { value: 3 } })).toString(),
 t(() => URLSearchParams("a")), t(() => new URLSearchParams([["a"]])), t(() => new URLSearchParams([1])), t(() => new URLSearchParams([["a", "b", "c"]])), t(() => new URLSearchParams({ [Symbol.iterator]: 5 })),
 new URLSearchParams("a=\\uD800").toString(), new URLSearchParams("\\uD800=1").toString(), new URLSearchParams("a=%ED%A0%80&b=%FF").get("b"), new URLSearchParams("a=%ED%A0%80").get("a").length, new URLSearchParams("a=b=c&=&=x&y=").toString(), new URLSearchParams("a%20b=c%2Bd+e").get("a b"), new URLSearchParams({ "é": "ü" }).toString()];`],
["params_methods", `const p = new URLSearchParams("b=2&a=1&b=3");
const out = [p.get("b"), p.getAll("b"), p.getAll("zz"), p.get("zz"), p.has("b"), p.has("b", "3"), p.has("b", "4"), p.has("b", undefined), p.size];
p.set("b", "x"); out.push(p.toString());
p.set("new", "y"); out.push(p.toString());
p.append("a", "0"); p.delete("a", "1"); out.push(p.toString());
p.delete("a", undefined); out.push(p.toString());
const s = new URLSearchParams("z=1&\\u00e9=2&a=3&\\uD83D\\uDE00=4&\\uFB01=5&a=0");
s.sort(); out.push([...s.keys()]);
out.push(t(() => p.get()), t(() => p.append("a")), t(() => p.set("a")), t(() => p.has()), t(() => p.delete()), t(() => p.getAll()), t(() => URLSearchParams.prototype.get.call({}, "a")),
 t(() => p.forEach(1)), t(() => p.forEach("abcdefghijklmnopqrstuvwxyzabcdef")), t(() => p.forEach({})), t(() => p.forEach(null)), t(() => p.forEach([])), t(() => p.forEach(true)), t(() => p.forEach(new Map())), t(() => p.forEach(Object.create(null))), t(() => p.forEach(-0)), t(() => p.forEach()));
const q = new URLSearchParams("b=1&c=2"); const seen = [];
q.forEach(function (v, k, o) { seen.push(k, v, o === q, this.x); if (k === "b") q.append("a", "x"); }, { x: 7 });
out.push(seen);
return out;`],
["params_iter", `const p = new URLSearchParams("b=1&c=2");
const it = p.keys();
p.append("a", "3");
const proto = Object.getPrototypeOf(it);
return [[...it], [...p.entries()], [...p.values()], [...p], Object.fromEntries(p), Object.prototype.toString.call(it), Object.getOwnPropertyNames(proto), Object.getPrototypeOf(proto) === Object.getPrototypeOf(Object.getPrototypeOf([].keys())), t(() => it.next.call({})), it.next(), p[Symbol.iterator] === p.entries, p.keys().map((k) => k + "!").toArray(),
 Object.getOwnPropertyNames(URLSearchParams.prototype), URLSearchParams.length, [p.get.length, p.has.length, p.delete.length, p.append.length, p.set.length, p.getAll.length, p.sort.length, p.forEach.length], Object.prototype.toString.call(p), JSON.stringify(p), Object.keys(p)];`],
["headers_basic", `const h = new Headers({ "Content-Type": "text/plain", A: "  padded \\t" });
h.append("X-Trace", "a"); h.append("x-trace", "b");
const out = [h.get("content-type"), h.get("A"), h.get("X-TRACE"), h.has("x-trace"), h.has("nope"), h.get("nope"), [...h.keys()], [...h.values()], [...h.entries()], [...h]];
h.set("X-TRACE", "c"); out.push(h.get("x-trace"));
h.delete("A"); out.push([...h.keys()]);
h.append("Set-Cookie", "a=1"); h.append("set-cookie", "b=2");
out.push(h.getSetCookie(), h.get("set-cookie"), [...h]);
const seen = []; h.forEach(function (v, k, o) { seen.push(k, v, o === h, this.t); }, { t: 1 });
out.push(seen);
return out;`],
["headers_ctor", `return [[...new Headers()], [...new Headers(undefined)], [...new Headers([["b", "2"], ["a", "1"]])], [...new Headers(new Headers({ x: "1" }))], [...new Headers(new Map([["m", "1"]]))], [...new Headers({ a: 1, b: null, c: undefined })], [...new Headers(() => 1)], new Headers([new Set(["a", "b"])]).get("a"), new Headers({ "a": "é" }).get("a"), new Headers({ "a": "" }).get("a"), new Headers({ "a": "x\\ty" }).get("a"), new Headers({ "a": "\\r\\n x \\r\\n" }).get("a"), new Headers({ toString: "x" }).get("tostring"),
 t(() => Headers()), t(() => new Headers(null)), t(() => new Headers(5)), t(() => new Headers("")), t(() => new Headers([1])), t(() => new Headers(["ab"])), t(() => new Headers([["a"]])), t(() => new Headers([["a", "1", "2"]])), t(() => new Headers({ "bad name": "x" })), t(() => new Headers({ a: "x\\ny" })), t(() => new Headers({ a: "\\u0000" })), t(() => new Headers({ [Symbol.iterator]: 5 })), t(() => new Headers([["a\\u0100", "1"]])), t(() => new Headers({ a: "\\uD83D\\uDE00" }))];`],
["headers_methods_errors", `const h = new Headers({ a: "1" });
return [t(() => h.get()), t(() => h.append("a")), t(() => h.set("a")), t(() => h.has()), t(() => h.delete()), t(() => h.get("bad name")), t(() => h.set("a b", "c")), t(() => h.has("\\u00e9")), t(() => h.delete("a:b")), t(() => h.append("", "v")), t(() => h.append("a", "x\\ry")), t(() => h.set("a", "x\\u0000")), t(() => Headers.prototype.get.call({}, "a")), t(() => h.forEach()), t(() => h.forEach(1)), t(() => h.keys().next.call({})),
 h.append("!#$%&'*+-.^_\`|~09azAZ", "v"), h.get("!#$%&'*+-.^_\`|~09azaz"), h.delete("A"), h.has("a"), h.getSetCookie(), new Headers({ "set-cookie": "a, b" }).getSetCookie(),
 Object.getOwnPropertyNames(Headers.prototype), Headers.length, [h.forEach.length, h.append.length, h.entries.length, h.get.length, h.set.length], Object.prototype.toString.call(h), Object.prototype.toString.call(h.keys()), JSON.stringify(Object.keys(h))];`],
["headers_live_iteration", `const h = new Headers({ b: "1" });
const it = h.keys();
h.append("a", "2");
const out = [[...it]];
const g = new Headers({ b: "1", c: "2" });
g.forEach((v, k) => { out.push(k); if (k === "b") g.append("a", "x"); });
const z = new Headers({ Z: "1" }); z.append("z", "2"); z.set("Z", "3"); out.push([...z]);
return out;`],
["u8_ctor", `const A = (u) => Array.from(u);
return [A(new Uint8Array(3)), A(new Uint8Array("3")), A(new Uint8Array(2.5)), A(new Uint8Array(null)), A(new Uint8Array(undefined)), A(new Uint8Array()), A(new Uint8Array({ length: 2, 0: 5 })), A(new Uint8Array(new Set([1, 2]))), A(new Uint8Array([NaN, Infinity, -Infinity, 255.9, -0.5, "7", 256, -256, 1e20, -1, 257, "0x10", null, true, [3], {}])), A(new Uint8Array(true)), A(new Uint8Array("abc")), A(new Uint8Array(-0.5)), A(new Uint8Array(NaN)), A(new Uint8Array(new Uint8Array([9, 8]))), A(new Uint8Array("12".split(""))),
 t(() => new Uint8Array(-1)), t(() => Uint8Array(2)), t(() => new Uint8Array(Symbol.iterator)), t(() => new Uint8Array(2 ** 53)), t(() => new Uint8Array(Infinity)), t(() => new Uint8Array(-Infinity)), t(() => new Uint8Array([{ valueOf() { throw new Error("vo"); } }])), t(() => new Uint8Array(2 ** 40)), t(() => new Uint8Array({ length: 2 ** 40 })),
 Uint8Array.name, Uint8Array.length, Uint8Array.BYTES_PER_ELEMENT, new Uint8Array(1).BYTES_PER_ELEMENT, Object.prototype.toString.call(new Uint8Array(1)), Array.isArray(new Uint8Array(1))];`],
["u8_index", `const u = new Uint8Array(3);
u[0] = 300; u[1] = -1; u[2] = "7"; u[5] = 9;
const v = new Uint8Array(2);
v[0] = { valueOf() { return 513; } };
v[1] = NaN;
return [Array.from(u), u[5], u.length, Object.keys(u), Object.getOwnPropertyNames(new Uint8Array(2)), "0" in u, "3" in u, Array.from(v), JSON.stringify(u), (() => { let s = 0; for (const k in u) s += u[k]; return s; })(), Object.entries(new Uint8Array([4, 5])), u.length];`],
["u8_statics", `const A = (u) => Array.from(u);
return [A(Uint8Array.from([1, 2, 300])), A(Uint8Array.from("123")), A(Uint8Array.from({ length: 2, 0: 7 })), A(Uint8Array.from([1, 2], function (x, i) { return x * 10 + i + this.k; }, { k: 1 })), A(Uint8Array.from(new Set([5]))), A(Uint8Array.from(5)), A(Uint8Array.of(1, 300, "x", -1)), A(Uint8Array.of()),
 t(() => Uint8Array.from()), t(() => Uint8Array.from(null)), t(() => Uint8Array.from([1], 5)), t(() => Uint8Array.from([1], "x")), t(() => Uint8Array.from([1], {})), t(() => Uint8Array.from([1], null)),
 ["fromBase64", "fromHex", "BYTES_PER_ELEMENT", "from", "of"].map((k) => k in Uint8Array), Uint8Array.from.length, Uint8Array.of.length];`],
["u8_base64", `const A = (u) => Array.from(u);
const e = new TextEncoder().encode("hi!");
return [e.toBase64(), e.toHex(), new Uint8Array([251, 255]).toBase64(), new Uint8Array([251, 255]).toBase64({ alphabet: "base64url" }), new Uint8Array([255, 254]).toBase64({ omitPadding: 1, alphabet: "base64url" }), new Uint8Array([1]).toBase64({ omitPadding: true }), new Uint8Array().toBase64(), new Uint8Array([1]).toHex(), new Uint8Array([255, 16, 0]).toHex(),
 A(Uint8Array.fromBase64("aGkh")), A(Uint8Array.fromBase64("aGk")), A(Uint8Array.fromBase64(" a G k ")), A(Uint8Array.fromBase64("aGk=")), A(Uint8Array.fromBase64("aGk=", { lastChunkHandling: "strict" })), A(Uint8Array.fromBase64("aGl", { lastChunkHandling: "loose" })), A(Uint8Array.fromBase64("aGk=", { lastChunkHandling: "stop-before-partial" })), A(Uint8Array.fromBase64("aGk", { lastChunkHandling: "stop-before-partial" })), A(Uint8Array.fromBase64("aG=", { lastChunkHandling: "stop-before-partial" })), A(Uint8Array.fromBase64("-_8=", { alphabet: "base64url" })), A(Uint8Array.fromBase64("")), A(Uint8Array.fromBase64("aGk=", { alphabet: undefined, lastChunkHandling: undefined })), A(Uint8Array.fromBase64("aG==")),
 t(() => Uint8Array.fromBase64("@@")), t(() => Uint8Array.fromBase64(5)), t(() => Uint8Array.fromBase64("a")), t(() => Uint8Array.fromBase64("aGk", { lastChunkHandling: "strict" })), t(() => Uint8Array.fromBase64("aGl=", { lastChunkHandling: "strict" })), t(() => Uint8Array.fromBase64("aG", { lastChunkHandling: "strict" })), t(() => Uint8Array.fromBase64("aG=")), t(() => Uint8Array.fromBase64("a===")), t(() => Uint8Array.fromBase64("aG==x")), t(() => Uint8Array.fromBase64("aG===")), t(() => Uint8Array.fromBase64("+/", { alphabet: "base64url" })), t(() => Uint8Array.fromBase64("-_")), t(() => Uint8Array.fromBase64("aGk\\u00a0")), t(() => Uint8Array.fromBase64("aGk", 5)), t(() => Uint8Array.fromBase64("aGk", null)), t(() => Uint8Array.fromBase64("-_8=", { alphabet: "x" })), t(() => Uint8Array.fromBase64("aGk=", { lastChunkHandling: "bad" })), t(() => new Uint8Array([1]).toBase64({ alphabet: 5 })), t(() => new Uint8Array([1]).toBase64(5)),
 A(Uint8Array.fromHex("ff00a1")), A(Uint8Array.fromHex("AbCd")), A(Uint8Array.fromHex("")), t(() => Uint8Array.fromHex("abc")), t(() => Uint8Array.fromHex("zz")), t(() => Uint8Array.fromHex("0g")), t(() => Uint8Array.fromHex(1))];`],
["u8_set_from", `const A = (u) => Array.from(u);
const a = new Uint8Array(4), b = new Uint8Array(1), c = new Uint8Array(2), d = new Uint8Array(8), e = new Uint8Array(3);
const r = [a.setFromHex("aabbcc"), b.setFromHex("aabbcc"), c.setFromBase64("aGkh"), d.setFromBase64("aGkh aGk"), e.setFromBase64("aGk=")];
const f = new Uint8Array(3);
return [r, A(a), A(b), A(c), A(d), A(e), t(() => new Uint8Array(2).setFromHex("zz")), t(() => new Uint8Array(2).setFromHex("a")), t(() => f.setFromHex("aazz")), A(f), t(() => new Uint8Array(2).setFromBase64(1)), t(() => new Uint8Array(2).setFromHex(1))];`],
["u8_methods", `const A = (u) => Array.from(u);
const u = new Uint8Array([5, 1, 4, 2, 3]);
return [u.at(0), u.at(-1), u.at(9), u.at("1"), u.indexOf(4), u.indexOf(4, 3), u.indexOf(4, -3), u.indexOf("4"), u.indexOf(4.5), u.lastIndexOf(1), new Uint8Array([1, 2, 1]).lastIndexOf(1, -2), new Uint8Array([1, 2, 1]).lastIndexOf(1, undefined), new Uint8Array([1, 2, 1]).lastIndexOf(1, -9), u.includes(1), u.includes(1, 2), u.includes(NaN), u.includes("1"), u.join(), u.join(undefined), u.join(" - "), u.join(null), String(u), u.toString(), u.toLocaleString(), new Uint8Array().join(),
 A(u.slice(1, 3)), A(u.slice(-2)), A(u.slice(3, 1)), A(u.subarray(-2, -1)), u.subarray(1).byteOffset, u.subarray(1, 3).byteLength, u.subarray(9).length, A(new Uint8Array([3, 1, 2]).toSorted()), A(new Uint8Array([1, 2, 3]).toReversed()), A(u.with(-1, 300)), t(() => u.with(5, 1)),
 A(new Uint8Array([1, 2, 3]).fill(300)), new Uint8Array(3).fill(1, 1, 2).join(), new Uint8Array(3).fill(1, -2).join(), new Uint8Array(2).fill("x").join(), A(new Uint8Array([1, 2, 3, 4, 5]).copyWithin(0, 3)), A(new Uint8Array([1, 2, 3, 4, 5]).copyWithin(1, 0, 3)), A(new Uint8Array([1, 2, 3]).copyWithin(-1, 0)), A(new Uint8Array([1, 2]).reverse()),
 A(new Uint8Array([10, 9, 1]).sort()), A(new Uint8Array([3, 1, 2]).sort((a, b) => b - a)), t(() => new Uint8Array([3, 1, 2]).sort(5)), t(() => new Uint8Array([1]).toSorted("x")), (() => { const v = new Uint8Array([3, 1, 2]); const r = t(() => v.sort(() => { throw new Error("cmp"); })); return [r, A(v)]; })(),
 A(new Uint8Array([1, 2, 3, 4]).sort(() => 0)), A(new Uint8Array([1, 2]).entries().next().value), Object.prototype.toString.call(u.keys()), [...u.keys()], [...u.entries()].length, [...u.values()], u[Symbol.iterator] === u.values];`],
["u8_set", `const A = (u) => Array.from(u);
const u = new Uint8Array(5);
u.set([7, 8], 1); const a = A(u);
u.set(new Uint8Array([9, 9]), 3); const b = A(u);
const w = new Uint8Array([1, 2, 3, 4]); w.set(w.subarray(0, 3), 1);
const x = new Uint8Array(3); x.set("12");
const y = new Uint8Array(2); y.set({ length: 1, 0: 300 });
return [a, b, A(w), A(x), A(y), new Uint8Array(2).set(5), t(() => new Uint8Array([1, 2]).set([1, 2, 3])), t(() => new Uint8Array([1, 2]).set([1], -1)), t(() => new Uint8Array(2).set([5], 2)), t(() => new Uint8Array(2).set(null)), t(() => new Uint8Array(2).set([1], Infinity)), t(() => new Uint8Array(2).set(new Uint8Array(3)))];`],
["u8_callbacks", `const A = (u) => Array.from(u);
const u = new Uint8Array([100, 200, 250]);
const m = u.map((x) => x * 2);
const f = u.filter((x) => x > 150);
const calls = [];
u.forEach(function (v, i, o) { calls.push(v, i, o === u, this.k); }, { k: 3 });
return [m instanceof Uint8Array, A(m), f instanceof Uint8Array, A(f), calls, u.reduce((a, b) => a + b), u.reduce((a, b) => a + b, 1), u.reduceRight((a, b) => a + "" + b), u.every((x) => x > 50), u.every((x) => x > 150), u.some((x) => x > 240), u.some((x) => x > 250), u.find((x) => x > 150), u.find((x) => x > 255), u.findIndex((x) => x > 150), u.findIndex((x) => x > 255), u.findLast((x) => x > 150), u.findLastIndex((x) => x < 150), u.findLastIndex((x) => x > 255),
 t(() => new Uint8Array([]).reduce((a, b) => a)), t(() => new Uint8Array([]).reduceRight((a, b) => a)), Uint8Array.prototype.map.call(new Uint8Array([1]), function () { return this; }, 5)[0],
 t(() => u.map(5)), t(() => u.map({})), t(() => u.map("x")), t(() => u.map()), t(() => u.map(null)), t(() => u.map([])), t(() => u.filter(5)), t(() => u.forEach({})), t(() => u.every("x")), t(() => u.some(null)), t(() => u.find(true)), t(() => u.findIndex()), t(() => u.findLast(5)), t(() => u.findLastIndex(5)), t(() => u.reduce(5)), t(() => u.reduceRight({}))];`],
["u8_receivers", `const P = Uint8Array.prototype;
const g = (k) => (Object.getOwnPropertyDescriptor(P, k) || Object.getOwnPropertyDescriptor(Object.getPrototypeOf(P), k)).get;
return [t(() => P.at.call([1], 0)), t(() => P.at.call({}, 0)), t(() => P.at.call("s", 0)), t(() => P.at.call(null, 0)), t(() => P.slice.call(5)), t(() => P.toLocaleString.call({})), t(() => P.join.call(new Map())), t(() => g("length").call([1])), t(() => g("byteLength").call({})), t(() => g("byteOffset").call(1)), g(Symbol.toStringTag).call(1), P.toString.call({ join() { return "j"; } }), P.toString.call([1, 2]), typeof g("length"), g("length").name];`],
["text_encoder", `const enc = new TextEncoder();
const A = (u) => Array.from(u);
return [A(enc.encode("aé😀")), enc.encoding, enc.encode().length, enc.encode(undefined).length, A(enc.encode(null)), A(enc.encode("\\uD800")), A(enc.encode(12)), enc.encode("x") instanceof Uint8Array,
 enc.encodeInto("a😀", new Uint8Array(4)), enc.encodeInto("\\u00e9\\u00e9\\u00e9", new Uint8Array(5)), enc.encodeInto("😀", new Uint8Array(5).subarray(0, 3)), enc.encodeInto("a\\uD800b", new Uint8Array(10)), enc.encodeInto("", new Uint8Array(1)),
 t(() => enc.encodeInto("x")), t(() => enc.encodeInto("x", [1])), t(() => enc.encodeInto("x", {})), t(() => enc.encodeInto("x", null)), t(() => enc.encodeInto("x", "s")), t(() => TextEncoder()), t(() => TextEncoder.prototype.encode.call({}, "a")), t(() => Object.getOwnPropertyDescriptor(TextEncoder.prototype, "encoding").get.call({})),
 Object.prototype.toString.call(enc), Object.getOwnPropertyNames(TextEncoder.prototype), TextEncoder.length, enc.encode.length, enc.encodeInto.length];`],
["text_decoder", `const d = new TextDecoder();
const U = (a) => new Uint8Array(a);
const codes = (s) => Array.from(s).map((c) => c.codePointAt(0));
return [d.decode(U([104, 105])), d.encoding, d.fatal, d.ignoreBOM, d.decode(U([0xe2, 0x82, 0xac])), d.decode(), d.decode(undefined), codes(d.decode(U([0x61, 0xff, 0x62, 0xc3]))), codes(d.decode(U([0xf0, 0x9f, 0x41, 0xed, 0xa0, 0x80, 0xc0, 0x80]))), codes(d.decode(U([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x41]))), d.decode(U([0xf0, 0x9f, 0x98])).length, codes(d.decode(U([0xe0, 0x80, 0xf4, 0x90, 0x80, 0x80, 0xf8, 0x41]))), d.decode(U([0xf0, 0x9f, 0x98, 0x80])), d.decode(U([0xef, 0xbb, 0xbf]).subarray(1)).length,
 new TextDecoder("UTF8").encoding, new TextDecoder(" unicode-1-1-utf-8 ").encoding, new TextDecoder(undefined).encoding, new TextDecoder("utf-8", { fatal: 1, ignoreBOM: "x" }).fatal, new TextDecoder("utf-8", null).fatal, new TextDecoder("utf-8", () => 1).fatal, new TextDecoder("utf-8", { ignoreBOM: true }).decode(U([0xef, 0xbb, 0xbf, 0x41])).length, d.decode(U([0x41]), { stream: true }),
 t(() => new TextDecoder("foo")), t(() => new TextDecoder(" FOO ")), t(() => new TextDecoder(null)), t(() => new TextDecoder("utf-8", 5)), t(() => new TextDecoder("utf-8", "x")), t(() => new TextDecoder("utf-8", { fatal: true }).decode(U([0xff]))), t(() => new TextDecoder("utf-8", { fatal: true }).decode(U([0xe2, 0x82]))), t(() => d.decode([1, 2])), t(() => d.decode("ab")), t(() => d.decode(null)), t(() => d.decode(U([0x41]), 5)), t(() => TextDecoder()), t(() => TextDecoder.prototype.decode.call({}, U([1]))),
 Object.prototype.toString.call(d), Object.getOwnPropertyNames(TextDecoder.prototype), TextDecoder.length, d.decode.length];`],
["crypto", `const u = new Uint8Array(16);
const r = crypto.getRandomValues(u);
const id = crypto.randomUUID();
const big = new Uint8Array(65536);
return [r === u, u.length, typeof id, id.length, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id), crypto.randomUUID() !== id, crypto.getRandomValues(big).length, crypto.getRandomValues(new Uint8Array(0)).length,
 t(() => crypto.getRandomValues(new Uint8Array(65537))), t(() => crypto.getRandomValues([1])), t(() => crypto.getRandomValues()), t(() => crypto.randomUUID.call(null)), t(() => crypto.getRandomValues.call({}, new Uint8Array(1))),
 Object.prototype.toString.call(crypto), Object.keys(crypto), typeof crypto.subtle === "undefined" || true, crypto.randomUUID.length, crypto.getRandomValues.length];`],
["crypto_quota_shape", `try { crypto.getRandomValues(new Uint8Array(70000)); } catch (e) { return [e.name, e.message, e.code, e instanceof Error, Object.keys(e)]; }`],
["clone_data", `const A = (u) => Array.from(u);
const shared = { s: 1 };
const orig = { a: [1, { b: 2 }], d: new Date(0), m: new Map([["k", { v: 1 }], [shared, shared]]), s: new Set([1, shared]), r: /x/gi, u: new Uint8Array([1, 2]), n: null, un: undefined, neg: -0, x: shared, y: shared };
orig.self = orig;
const c = structuredClone(orig);
c.a[1].b = 99;
return [orig.a[1].b, c.d instanceof Date, c.d.getTime(), c.m instanceof Map, c.m.get("k").v, c.s.has(1), c.r.flags, c.r.source, c.r instanceof RegExp, A(c.u), c.u instanceof Uint8Array, c.n, "un" in c, Object.is(c.neg, -0), c.x === c.y, c.x !== shared, c.self === c, [...c.m.keys()][1] === c.x, [...c.s][1] === c.x, Object.keys(c)];`],
["clone_details", `const A = (u) => Array.from(u);
const arr = [1, , 3]; arr.x = 5;
const ca = structuredClone(arr);
const u = new Uint8Array([1, 2, 3]); const s = u.subarray(1);
const cu = structuredClone([u, s]); cu[0][1] = 9;
const st = new Set(); st.add(st);
const cs = structuredClone(st);
class K { constructor() { this.x = 1; } get y() { return 2; } }
const ck = structuredClone(new K());
const getter = structuredClone({ get a() { return 5; } });
const inh = structuredClone(Object.create({ inh: 1 }, { own: { value: 2, enumerable: true }, hid: { value: 3 } }));
const d = new Date(NaN);
const rx = /a/y; rx.lastIndex = 3;
return [ca.length, 1 in ca, ca.x, A(cu[1]), cs.has(cs), ck.constructor === Object, ck.x, ck.y, getter, inh, Object.keys(structuredClone({ b: 1, a: 2, 1: 3 })), structuredClone(d).getTime(), structuredClone(rx).lastIndex, structuredClone(1), structuredClone("s"), structuredClone(null), structuredClone(undefined), structuredClone([undefined]).length, structuredClone(true), structuredClone(Math), structuredClone(new TextEncoder()), structuredClone(1, {transfer: []}), structuredClone(1, null), structuredClone(crypto)];`],
["clone_errors", `const e = new TypeError("m", { cause: 5 }); e.extra = 1;
const c = structuredClone(e);
const f = new Error("m"); f.name = "Foo";
const g = new Error("m"); g.name = "TypeError";
const h = new Error("m"); delete h.message;
const k = new Error("m"); k.message = 5;
const ag = structuredClone(new AggregateError([1], "x"));
return [c.name, c.message, c.cause, c.extra, Object.keys(c), c instanceof TypeError, structuredClone(f).name, structuredClone(g).name, structuredClone(g) instanceof TypeError, "message" in structuredClone(h), typeof structuredClone(k).message, ag.name, ag.errors, ag.message, ag instanceof Error, structuredClone(new RangeError("cloned")) instanceof RangeError];`],
];
