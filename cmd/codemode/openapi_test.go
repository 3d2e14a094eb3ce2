package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// petSpec is a small OpenAPI document whose server is set per test.
const petSpec = `openapi: 3.0.3
info: {title: Pets, version: "1"}
paths:
  /pets/{id}:
    get:
      operationId: getPet
      summary: Get a pet by id
      security: [{bearer: []}]
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        "200":
          description: the pet
          content:
            application/json:
              schema: {type: object, properties: {id: {type: integer}, name: {type: string}}}
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer}
`

func TestRunOpenAPI(t *testing.T) {
	var gotAuth, gotHeader, gotPath string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth, gotHeader, gotPath = r.Header.Get("Authorization"), r.Header.Get("X-Team"), r.URL.Path
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": 7, "name": "Rex"})
	}))
	defer srv.Close()
	spec := filepath.Join(t.TempDir(), "pets.yaml")
	if err := os.WriteFile(spec, []byte(petSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PETS_TOKEN", "s3cret")
	var stdout, stderr bytes.Buffer
	status := run([]string{"run", "--openapi", spec, "--base-url", srv.URL, "--header", "X-Team: blue", "--bearer-env", "PETS_TOKEN", "-"},
		strings.NewReader(`const p = await tools.getPet({id: 7}); return p.name`), &stdout, &stderr)
	if status != 0 || strings.TrimSpace(stdout.String()) != `{"ok":true,"value":"Rex","toolCalls":[{"name":"getPet"}]}` {
		t.Fatalf("status %d: %s %s", status, stdout.String(), stderr.String())
	}
	if gotAuth != "Bearer s3cret" || gotHeader != "blue" || gotPath != "/pets/7" {
		t.Errorf("the API saw Authorization %q, X-Team %q, path %q", gotAuth, gotHeader, gotPath)
	}
	if strings.Contains(stdout.String(), "s3cret") {
		t.Error("the token reached the Result")
	}

	stdout.Reset()
	if status := run([]string{"catalog", "--openapi", spec, "--base-url", srv.URL}, nil, &stdout, &stderr); status != 0 || !strings.Contains(stdout.String(), "tools.getPet({") {
		t.Errorf("catalog: status %d: %s", status, stdout.String())
	}
	for _, args := range [][]string{
		{"run", "--openapi", "/nope.yaml", "-"},
		{"run", "--base-url", "http://x", "-"},
		{"run", "--openapi", spec, "--bearer-env", "NO_SUCH_VARIABLE_SET", "-"},
		{"run", "--header", "no colon", "-"},
		{"catalog", "--openapi", "/nope.yaml"},
		{"catalog", "--bearer-env", "X"},
	} {
		stderr.Reset()
		if status := run(args, strings.NewReader("1"), &stdout, &stderr); status != 2 || stderr.Len() == 0 {
			t.Errorf("%v: status %d, stderr %q", args, status, stderr.String())
		}
	}
}

// TestOpenAPINamespaces: --openapi NAME=SPEC is repeatable, each document
// under its namespace, and search and check take it too.
func TestOpenAPINamespaces(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": 1, "name": "from " + r.Host})
	}))
	defer srv.Close()
	dir := t.TempDir()
	spec := filepath.Join(dir, "pets.yaml")
	if err := os.WriteFile(spec, []byte(petSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	two := []string{"--openapi", "cats=" + spec, "--openapi", "dogs=" + spec, "--base-url", srv.URL, "--header", "Authorization: Bearer x"}
	for _, tt := range []struct {
		args   []string
		stdin  string
		status int
		out    string // a substring of stdout
	}{
		{append(append([]string{"run"}, two...), "-"), `return [(await tools.cats.getPet({id: 1})).id, (await tools.dogs.getPet({id: 2})).id]`, 0,
			`{"ok":true,"value":[1,1],"toolCalls":[{"name":"cats.getPet"},{"name":"dogs.getPet"}]}`},
		{append(append([]string{"search"}, two...), "pet"), "", 0, `"path":"tools.cats.getPet"`},
		{append(append([]string{"check", "--strict"}, two...), "-"), `await tools.dogs.getPet({id: 1}); await tools.birds.getPet({})`, 1, `"known":false`},
		{[]string{"catalog", "--openapi", "cats=" + spec, "--base-url", srv.URL}, "", 0, "tools.cats.getPet("},
		{[]string{"run", "--openapi", "cats=" + spec, "--openapi", "cats=" + spec, "-"}, `1`, 2, ""},
	} {
		var stdout, stderr bytes.Buffer
		status := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
		if status != tt.status || !strings.Contains(stdout.String(), tt.out) {
			t.Errorf("%v: status %d, stdout %s, stderr %s", tt.args, status, stdout.String(), stderr.String())
		}
		if tt.status == 2 && !strings.Contains(stderr.String(), "the namespace cats is already taken") {
			t.Errorf("%v: stderr %s", tt.args, stderr.String())
		}
	}
}

// TestOpenAPIErrorData: an HTTP failure reaches the program with its
// status, status text, parsed body and headers, besides the message.
func TestOpenAPIErrorData(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "r-1")
		w.Header().Set("Set-Cookie", "session=secret")
		w.WriteHeader(http.StatusNotFound)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": "no such pet"})
	}))
	defer srv.Close()
	spec := filepath.Join(t.TempDir(), "pets.yaml")
	if err := os.WriteFile(spec, []byte(petSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	status := run([]string{"run", "--openapi", spec, "--base-url", srv.URL, "--header", "Authorization: Bearer x", "-"}, strings.NewReader(`
try { await tools.getPet({id: 9}) } catch (e) {
  if (e.status === 404) return [e.statusText, e.body.error, e.headers["x-request-id"], "set-cookie" in e.headers, e.message]
}`), &stdout, &stderr)
	want := `{"ok":true,"value":["Not Found","no such pet","r-1",false,"GET /pets/{id} failed with HTTP 404: {\"error\":\"no such pet\"}"],"toolCalls":[{"name":"getPet"}]}`
	if status != 0 || strings.TrimSpace(stdout.String()) != want {
		t.Fatalf("status %d:\n%s\nwant\n%s\n%s", status, stdout.String(), want, stderr.String())
	}
}
