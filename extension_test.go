package codemode_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-codemode/codemode"
)

func testExtensions(log *hookLog) []codemode.Extension {
	files := map[string]string{"/a.txt": "hello"}
	readFile := codemode.HostFunc(func(_ context.Context, args []any) (any, error) {
		p, _ := args[0].(string)
		log.add("called " + p)
		body, ok := files[p]
		if !ok {
			return nil, &codemode.HostError{Name: "Error", Message: "ENOENT: no such file, open '" + p + "'", Fields: map[string]any{"code": "ENOENT"}}
		}
		return body, nil
	})
	return []codemode.Extension{{
		Name: "web",
		Globals: map[string]any{
			"fetch": codemode.AsyncHostFunc(func(_ context.Context, args []any) (any, error) {
				url, _ := args[0].(string)
				if strings.Contains(url, "forbidden") {
					return nil, fmt.Errorf("request failed: %w", errors.New("403"))
				}
				return map[string]any{"status": 200.0, "url": url,
					"json": codemode.HostFunc(func(context.Context, []any) (any, error) { return map[string]any{"ok": true}, nil })}, nil
			}),
		},
	}, {
		Name: "files",
		Globals: map[string]any{
			"fs": map[string]any{
				"readFile": readFile,
				"promises": map[string]any{"readFile": codemode.AsyncHostFunc(readFile)},
			},
			"echoArgs": codemode.HostFunc(func(_ context.Context, args []any) (any, error) { return args, nil }),
			"bytes":    codemode.HostFunc(func(context.Context, []any) (any, error) { return []byte{1, 2, 255}, nil }),
		},
	}}
}

func TestExtensions(t *testing.T) {
	log := &hookLog{}
	rt, err := codemode.New(codemode.Options{Extensions: testExtensions(log), Hooks: codemode.Hooks{
		ExtensionBefore: func(_ context.Context, c codemode.ExtensionCallInfo) error {
			log.add(fmt.Sprintf("before %s %s %v", c.Extension, c.Name, c.Args))
			if len(c.Args) > 0 && c.Args[0] == "/denied" {
				return errors.New("fs.readFile of /denied is not allowed")
			}
			return nil
		},
		ExtensionAfter: func(_ context.Context, c codemode.ExtensionCallInfo, o codemode.CallOutcome) {
			log.add(fmt.Sprintf("after %s %s", c.Name, o.Status))
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, src, want string }{
		{"sync", `return fs.readFile("/a.txt")`, `"hello"`},
		{"async", `const r = await fs.promises.readFile("/a.txt"); return r`, `"hello"`},
		{"async returns a promise", `return fs.promises.readFile("/a.txt") instanceof Promise`, `true`},
		{"error fields", `try { fs.readFile("/nope") } catch (e) { return [e.name, e.message, e.code, e instanceof Error] }`, `["Error","ENOENT: no such file, open '/nope'","ENOENT",true]`},
		{"async error with cause", `try { await fetch("https://x/forbidden") } catch (e) { return [e.message, e.cause.message] }`, `["request failed: 403","403"]`},
		{"function in result", `const res = await fetch("https://x/y"); return [res.status, res.url, await res.json()]`, `[200,"https://x/y",{"ok":true}]`},
		{"args copied", `const a = echoArgs({a: [1, "two"], u: undefined, d: new Date(0)}, new Set([1]), new Uint8Array([7])); return [a[0], a[1], a[2] instanceof Uint8Array, [...a[2]]]`,
			`[{"a":[1,"two"],"d":"1970-01-01T00:00:00.000Z"},[1],true,[7]]`},
		{"bytes become Uint8Array", `const b = bytes(); return [b instanceof Uint8Array, [...b]]`, `[true,[1,2,255]]`},
		{"function argument refused", `try { echoArgs({f() {}}) } catch (e) { return e.message }`, `"Argument 1 to echoArgs contains a function, which cannot be passed to an extension."`},
		{"promise argument refused", `try { echoArgs(1, Promise.resolve(1)) } catch (e) { return e.message }`, `"Argument 2 to echoArgs contains an un-awaited Promise, which cannot be passed to an extension; await it first."`},
		{"not constructible", `try { new fs.readFile("/a.txt") } catch (e) { return e.message }`, `"new fs.readFile(...) is not supported"`},
		{"denied sync throws", `try { fs.readFile("/denied") } catch (e) { return e.message }`, `"fs.readFile of /denied is not allowed"`},
		{"typeof", `return [typeof fetch, typeof fs, typeof fs.promises.readFile, fs.readFile.name]`, `["function","object","function","readFile"]`},
		{"not tool calls", `await fetch("https://x/y"); return 1`, `1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := rt.Execute(context.Background(), tt.src)
			if !res.OK || string(res.Value) != tt.want || len(res.ToolCalls) != 0 {
				t.Errorf("got  %s\nwant value %s", res, tt.want)
			}
		})
	}
	if got := log.sorted(); strings.Contains(got, "called /denied") {
		t.Errorf("a denied call reached the host function: %s", got)
	}
	res := rt.Execute(context.Background(), `fs.readFile("/denied")`)
	if want := `{"ok":false,"error":{"kind":"ExecutionFailure","message":"Error: fs.readFile of /denied is not allowed"},"toolCalls":[]}`; res.String() != want {
		t.Errorf("uncaught denial: %s", res)
	}
	if got := log.sorted(); !strings.Contains(got, "before files fs.readFile [/a.txt]") || !strings.Contains(got, "after fs.readFile success") ||
		strings.Contains(got, "after fs.readFile failure ") || strings.Count(got, "before web fetch") < 3 || strings.Contains(got, "json") {
		t.Errorf("hooks saw: %s", got)
	}
}

// TestExtensionSymbolsAndWrappers: symbols are not data, so none crosses
// to an extension (a Symbol object neither); wrapper objects cross as
// their primitive, as JSON writes them.
func TestExtensionSymbolsAndWrappers(t *testing.T) {
	rt, err := codemode.New(codemode.Options{Extensions: testExtensions(&hookLog{})})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, src, want string }{
		{"symbol refused", `try { echoArgs(Symbol("x")) } catch (e) { return e.message }`, `"Argument 1 to echoArgs contains a symbol, which cannot be passed to an extension."`},
		{"nested symbol refused", `try { echoArgs(1, { a: [Symbol()] }) } catch (e) { return e.message }`, `"Argument 2 to echoArgs contains a symbol, which cannot be passed to an extension."`},
		{"symbol object refused", `try { echoArgs(Object(Symbol("x"))) } catch (e) { return e.message }`, `"Argument 1 to echoArgs contains a symbol, which cannot be passed to an extension."`},
		{"symbol keys left out", `return echoArgs({ [Symbol("k")]: 1, a: 2 })`, `[{"a":2}]`},
		{"wrappers as primitives", `const a = echoArgs(new String("s"), new Number(2), { b: new Boolean(false) }); return [a, typeof a[0], typeof a[1]]`, `[["s",2,{"b":false}],"string","number"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := rt.Execute(context.Background(), tt.src)
			if !res.OK || string(res.Value) != tt.want {
				t.Errorf("got  %s\nwant value %s", res, tt.want)
			}
		})
	}
}

func TestExtensionErrorsFromNew(t *testing.T) {
	f := codemode.HostFunc(func(context.Context, []any) (any, error) { return nil, nil })
	for _, tt := range []struct {
		exts []codemode.Extension
		want string
	}{
		{[]codemode.Extension{{Name: "x", Globals: map[string]any{"JSON": f}}}, `Extension "x" global "JSON" is already defined.`},
		{[]codemode.Extension{{Name: "x", Globals: map[string]any{"a": f}}, {Name: "y", Globals: map[string]any{"a": f}}}, `Extension "y" global "a" is already defined.`},
		{[]codemode.Extension{{Name: "x", Globals: map[string]any{"tools": f}}}, `Extension "x" global "tools" is already defined.`},
		{[]codemode.Extension{{Name: "x", Globals: map[string]any{"n": 5}}}, `Extension "x" global "n" must be a function.`},
		{[]codemode.Extension{{Name: "x", Globals: map[string]any{"o": map[string]any{"k": "v"}}}}, `Extension "x" global "o" must be a function.`},
	} {
		if _, err := codemode.New(codemode.Options{Extensions: tt.exts}); err == nil || err.Error() != tt.want {
			t.Errorf("err = %v, want %q", err, tt.want)
		}
	}
}

func TestModules(t *testing.T) {
	rt, err := codemode.New(codemode.Options{Extensions: testExtensions(&hookLog{})})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, src, want string }{
		{"import default and named", `import fs, { readFile } from "node:fs";
return [fs.readFile("/a.txt"), readFile("/a.txt"), fs.readFile === readFile]`, `["hello","hello",true]`},
		{"import alias module", `import { URL } from "url";
return new URL("https://a.b/c").pathname`, `"/c"`},
		{"import namespace", `import * as u from "util";
return typeof u.TextEncoder`, `"function"`},
		{"fs/promises", `import { readFile } from "fs/promises";
return await readFile("/a.txt")`, `"hello"`},
		{"require", `const crypto = require("crypto"); const { readFile } = require("fs");
return [typeof crypto.randomUUID, readFile("/a.txt")]`, `["function","hello"]`},
		{"dynamic import", `const { default: same, readFile } = await import("fs");
return [same.readFile === readFile, readFile("/a.txt")]`, `[true,"hello"]`},
		{"unknown module", `try { require("lodash") } catch (e) { return e.message }`,
			`"Cannot find module 'lodash'. There are no packages; this host provides only these modules: buffer, bytes, crypto, echoArgs, fetch, fs, fs/promises, url, util."`},
		{"unknown module dynamic rejects", `try { await import("left-pad") } catch (e) { return e.name }`, `"Error"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := rt.Execute(context.Background(), tt.src)
			if !res.OK || string(res.Value) != tt.want {
				t.Errorf("got  %s\nwant value %s", res, tt.want)
			}
		})
	}
}
