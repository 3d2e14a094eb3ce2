package codemode_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
)

// corpusTools are the tools the TypeScript corpus calls: fixed data, so
// that a program and its stripped twin must give the same Result.
func corpusTools() map[string]any {
	customers := []map[string]any{
		{"id": 1, "name": "Ada", "tier": "gold", "spend": 1200, "tags": []string{"vip", "early"}},
		{"id": 2, "name": "Bo", "tier": "silver", "spend": 300},
		{"id": 3, "name": "Cy", "tier": "gold", "spend": 800, "tags": []string{}},
		{"id": 4, "name": "Di", "tier": "bronze", "spend": 50},
	}
	orders := []map[string]any{
		{"id": "o-1", "customerId": 1, "total": 120, "status": "paid", "items": []map[string]any{{"sku": "A", "qty": 2, "price": 50}, {"sku": "B", "qty": 1, "price": 20}}},
		{"id": "o-2", "customerId": 2, "total": 40, "status": "open", "items": []map[string]any{{"sku": "B", "qty": 2, "price": 20}}},
		{"id": "o-3", "customerId": 1, "total": 75, "status": "paid", "items": []map[string]any{{"sku": "C", "qty": 3, "price": 25}}},
	}
	issues := map[string]any{"items": []map[string]any{
		{"number": 10, "title": "Crash on start", "state": "open", "labels": []map[string]any{{"name": "bug"}}},
		{"number": 11, "title": "Docs typo", "state": "closed", "labels": []map[string]any{{"name": "docs"}}},
		{"number": 12, "title": "Leak", "state": "open", "labels": []map[string]any{{"name": "bug"}, {"name": "p1"}}},
	}}
	anyOut := json.RawMessage(`{}`)
	fixed := func(v any) *tools.Tool {
		return &tools.Tool{Output: anyOut, Func: func(context.Context, json.RawMessage) (any, error) { return v, nil }}
	}
	return map[string]any{
		"crm.listCustomers": fixed(customers),
		"crm.getCustomer": &tools.Tool{Output: anyOut, Func: func(_ context.Context, in json.RawMessage) (any, error) {
			var arg struct{ ID int }
			if err := json.Unmarshal(in, &arg); err != nil {
				return nil, err
			}
			for _, c := range customers {
				if c["id"] == arg.ID {
					return c, nil
				}
			}
			return nil, errors.New("customer not found")
		}},
		"orders.list":         fixed(orders),
		"github.searchIssues": fixed(issues),
		"echo": &tools.Tool{Output: anyOut, Func: func(_ context.Context, in json.RawMessage) (any, error) {
			return in, nil
		}},
	}
}

// TestTypeScriptCorpus runs each model-style TypeScript program of
// testdata/typescript and its hand-stripped JavaScript: the Results must be
// identical (and successful), and with TypeScriptReject the TypeScript
// must be a ParseError.
func TestTypeScriptCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "typescript", "*.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 30 {
		t.Fatalf("the corpus has %d programs, want at least 30", len(files))
	}
	opts := codemode.Options{Tools: corpusTools(), Limits: codemode.Limits{Timeout: 10 * time.Second}}
	rt, err := codemode.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.TypeScript = codemode.TypeScriptReject
	strict, err := codemode.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".ts")
		t.Run(name, func(t *testing.T) {
			ts, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			js, err := os.ReadFile(strings.TrimSuffix(file, ".ts") + ".js")
			if err != nil {
				t.Fatal(err)
			}
			got := rt.Execute(context.Background(), string(ts))
			want := rt.Execute(context.Background(), string(js))
			gotJSON, _ := got.MarshalJSON()
			wantJSON, _ := want.MarshalJSON()
			if !want.OK {
				t.Fatalf("the JavaScript fails: %s", wantJSON)
			}
			if string(gotJSON) != string(wantJSON) {
				t.Fatalf("TypeScript gives\n%s\nits JavaScript\n%s", gotJSON, wantJSON)
			}
			if r := strict.Execute(context.Background(), string(ts)); r.OK || r.Error.Kind != codemode.ParseError {
				t.Errorf("with TypeScriptReject the program does not fail to parse: %+v", r.Error)
			}
		})
	}
}

// TestTypeScriptPositions checks that diagnostics of TypeScript programs
// point into the text as sent, and that Scan erases TypeScript too.
func TestTypeScriptPositions(t *testing.T) {
	rt, err := codemode.New(codemode.Options{Tools: corpusTools()})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, program string
		kind          codemode.Kind
		line, column  int
	}{
		{"runtime error after erased types", "const o: { x: number } | null = null as any;\nreturn (o as any)!.x as number;", codemode.ExecutionFailure, 2, 20},
		{"enum", "interface A { a: string }\nenum Color { Red }", codemode.ParseError, 2, 1},
		{"error inside a type", "const xs: Array<string = [];", codemode.ParseError, 1, 24},
		{"parameter property", "class A {\n  constructor(private x: number) {}\n}", codemode.ParseError, 2, 15},
	}
	for _, tt := range tests {
		r := rt.Execute(context.Background(), tt.program)
		if r.OK || r.Error.Kind != tt.kind || r.Error.Location == nil ||
			r.Error.Location.Line != tt.line || r.Error.Location.Column != tt.column {
			j, _ := r.MarshalJSON()
			t.Errorf("%s: %s, want %s at %d:%d", tt.name, j, tt.kind, tt.line, tt.column)
		}
	}
	scan, err := rt.Scan("const c: Customer = await tools.crm.getCustomer({ id: 1 } satisfies Args)")
	if err != nil || len(scan.Tools) != 1 || scan.Tools[0].Path != "crm.getCustomer" || scan.Tools[0].Location.Column != 27 {
		t.Errorf("Scan of TypeScript: %+v, %v", scan, err)
	}
}
