package openapi_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/catalog"
	"github.com/go-codemode/codemode/openapi"
)

const petsSpec = `openapi: 3.1.0
info: {title: Pets, version: "1", description: A tiny pet shop.}
servers: [{url: "https://pets.example.com/v1"}]
security: [{token: []}]
components:
  securitySchemes:
    token: {type: http, scheme: bearer}
paths:
  /pets/{id}:
    get:
      operationId: pets.get
      summary: Get a pet
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200":
          description: The pet
          content:
            application/json:
              schema: {type: object, required: [name], properties: {name: {type: string}, tags: {type: array, items: {type: string}}}}
  /pets/{id}/photo:
    get:
      operationId: pets.photo
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses: {"200": {description: A JPEG, content: {image/jpeg: {}}}}
`

// A document becomes a namespace of tools; a program calls them, and the
// credentials stay with the host.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"name":"Rex","tags":["dog"]}`)
	}))
	defer srv.Close()

	api, err := openapi.Load([]byte(petsSpec), openapi.Options{
		BaseURL: srv.URL, // instead of the document's server
		Auth:    openapi.BearerToken("s3cret"),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	rt, err := codemode.New(codemode.Options{Tools: map[string]any{"shop": api.Namespace()}})
	if err != nil {
		fmt.Println(err)
		return
	}
	res := rt.Execute(context.Background(), `
const pet = await tools.shop.pets.get({ id: 7 });
return pet.name + " (" + pet.tags.join(", ") + ")";`)
	fmt.Println(res)
	// Output: {"ok":true,"value":"Rex (dog)","toolCalls":[{"name":"shop.pets.get"}]}
}

// Load reports the operations it cannot turn into tools, and the tools'
// schemas render as the signatures a model reads.
func ExampleLoad() {
	api, err := openapi.Load([]byte(petsSpec), openapi.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range api.Tools {
		fmt.Println(t.Name, "calls", t.Operation.Method, t.Operation.Path)
		fmt.Println(catalog.Signature(append([]string{"shop"}, strings.Split(t.Name, ".")...), t.Tool.Input, t.Tool.Output))
	}
	for _, s := range api.Skipped {
		fmt.Println("skipped:", s)
	}
	// Output:
	// pets.get calls GET /pets/{id}
	// tools.shop.pets.get({
	//   /** @integer */
	//   id: number,
	// }): Promise<{
	//   name: string,
	//   tags?: Array<string>,
	// }>
	// skipped: GET /pets/{id}/photo: binary responses are not supported
}
