package codemode_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

func TestResultErr(t *testing.T) {
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Execute(context.Background(), `return 1`).Err(); err != nil {
		t.Errorf("ok run: Err() = %v, want nil", err)
	}
	for _, tt := range []struct {
		code string
		kind codemode.Kind
		text string
	}{
		{`throw new TypeError("no")`, codemode.ExecutionFailure, "ExecutionFailure: TypeError: no"},
		{`let x = ;`, codemode.ParseError, "ParseError: Unexpected token ';' (1:8)"},
	} {
		err := rt.Execute(context.Background(), tt.code).Err()
		var d *codemode.Diagnostic
		if !errors.As(err, &d) || d.Kind != tt.kind || err.Error() != tt.text {
			t.Errorf("%s: Err() = %v (%T), want a %s Diagnostic %q", tt.code, err, err, tt.kind, tt.text)
		}
		if !errors.Is(err, &codemode.Diagnostic{Kind: tt.kind}) || errors.Is(err, &codemode.Diagnostic{Kind: codemode.Cancelled}) {
			t.Errorf("%s: errors.Is by kind does not hold", tt.code)
		}
		if wrapped := fmt.Errorf("agent step 3: %w", err); !errors.As(wrapped, &d) || d.Kind != tt.kind {
			t.Errorf("%s: a wrapped Err() loses its Diagnostic", tt.code)
		}
	}
}

func TestDefaultLimits(t *testing.T) {
	l := codemode.DefaultLimits()
	if l.Timeout != 30*time.Second || l.MaxMemoryBytes != 256<<20 || l.MaxToolCalls == nil || *l.MaxToolCalls != 100 || l.MaxOutputBytes == nil || *l.MaxOutputBytes != 1<<20 {
		t.Fatalf("DefaultLimits() = %+v", l)
	}
	*l.MaxToolCalls = 1 // each call gets its own pointers
	if again := codemode.DefaultLimits(); *again.MaxToolCalls != 100 {
		t.Fatal("DefaultLimits shares its MaxToolCalls pointer between calls")
	}
	rt, err := codemode.New(codemode.Options{Limits: codemode.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	if res := rt.Execute(context.Background(), `const a = []; for (;;) a.push("x".repeat(1000) + a.length)`); res.Error == nil || res.Error.Kind != codemode.MemoryLimitExceeded {
		t.Fatalf("a memory bomb under DefaultLimits: %v", res)
	}
}

// fieldsError is a tool error with data, as openapi's HTTP errors are.
type fieldsError struct{ status int }

func (e *fieldsError) Error() string {
	return fmt.Sprintf("GET /pets/7 failed with HTTP %d: not found", e.status)
}
func (e *fieldsError) ErrorFields() map[string]any {
	return map[string]any{"status": e.status, "body": map[string]any{"code": "missing"}, "name": "ignored", "message": "ignored"}
}

func TestToolErrorFields(t *testing.T) {
	fail := func(err error) *tools.Tool {
		return &tools.Tool{Func: func(context.Context, json.RawMessage) (any, error) { return nil, err }}
	}
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{
		"pets.get":  fail(fmt.Errorf("calling the API: %w", &fieldsError{status: 404})),
		"fs.read":   fail(&codemode.HostError{Message: "no such file", Fields: map[string]any{"code": "ENOENT"}}),
		"plain.err": fail(errors.New("boom")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	res := rt.Execute(context.Background(), `
const out = [];
for (const call of [() => tools.pets.get({}), () => tools.fs.read({}), () => tools.plain.err({})]) {
  try { await call() } catch (e) { out.push([e.name, e.message, e.status ?? null, e.body ?? null, e.code ?? null]) }
}
return out`)
	want := `[["Error","calling the API: GET /pets/7 failed with HTTP 404: not found",404,{"code":"missing"},null],["Error","no such file",null,null,"ENOENT"],["Error","boom",null,null,null]]`
	if !res.OK || string(res.Value) != want {
		t.Fatalf("got %v\nwant value %s", res, want)
	}
	// Uncaught, the failure keeps the reference's ToolFailure message.
	res = rt.Execute(context.Background(), `await tools.pets.get({})`)
	if res.Error == nil || res.Error.Kind != codemode.ToolFailure || res.Error.Message != "calling the API: GET /pets/7 failed with HTTP 404: not found" {
		t.Fatalf("uncaught: %v", res)
	}
}
