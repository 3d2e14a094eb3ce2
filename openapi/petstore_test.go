package openapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/catalog"
	"github.com/go-codemode/codemode/openapi"
)

// pet is the Petstore's Pet.
type pet struct {
	ID        int64    `json:"id"`
	Name      string   `json:"name"`
	PhotoUrls []string `json:"photoUrls"`
	Status    string   `json:"status,omitempty"`
	Tags      []tag    `json:"tags,omitempty"`
}

type tag struct {
	ID   int64  `json:"id,omitempty"`
	Name string `json:"name"`
}

// petstore is an in-memory implementation of the Swagger Petstore's pet
// and store endpoints, checking credentials as the document declares
// them.
type petstore struct {
	mu     sync.Mutex
	pets   map[int64]*pet
	nextID int64
}

func (s *petstore) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	reply := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
	notFound := func() { reply(404, map[string]any{"code": 404, "message": "Pet not found"}) }
	path := strings.TrimPrefix(r.URL.Path, "/api/v3")
	if path == "/store/inventory" {
		if r.Header.Get("api_key") != "special-key" {
			reply(401, map[string]any{"message": "bad api key"})
			return
		}
		counts := map[string]int{}
		for _, p := range s.pets {
			counts[p.Status]++
		}
		reply(200, counts)
		return
	}
	if r.Header.Get("Authorization") != "Bearer pet-token" && r.Header.Get("api_key") != "special-key" {
		reply(401, map[string]any{"message": "unauthorized"})
		return
	}
	switch {
	case path == "/pet" && (r.Method == "POST" || r.Method == "PUT"):
		var p pet
		if err := json.NewDecoder(r.Body).Decode(&p); err != nil || p.Name == "" {
			reply(400, map[string]any{"message": "Invalid input"})
			return
		}
		if r.Method == "PUT" && s.pets[p.ID] == nil {
			notFound()
			return
		}
		if r.Method == "POST" {
			s.nextID++
			p.ID = s.nextID
		}
		s.pets[p.ID] = &p
		reply(200, p)
	case path == "/pet/findByStatus":
		out := []*pet{}
		for _, id := range s.ids() {
			if s.pets[id].Status == r.URL.Query().Get("status") {
				out = append(out, s.pets[id])
			}
		}
		reply(200, out)
	case path == "/pet/findByTags":
		out := []*pet{}
		for _, id := range s.ids() {
			for _, t := range s.pets[id].Tags {
				if slices.Contains(r.URL.Query()["tags"], t.Name) {
					out = append(out, s.pets[id])
					break
				}
			}
		}
		reply(200, out)
	case strings.HasPrefix(path, "/pet/"):
		id, err := strconv.ParseInt(strings.TrimPrefix(path, "/pet/"), 10, 64)
		p := s.pets[id]
		if err != nil || p == nil {
			notFound()
			return
		}
		switch r.Method {
		case "GET":
			reply(200, p)
		case "POST":
			if n := r.URL.Query().Get("name"); n != "" {
				p.Name = n
			}
			if st := r.URL.Query().Get("status"); st != "" {
				p.Status = st
			}
			reply(200, p)
		case "DELETE":
			delete(s.pets, id)
			w.WriteHeader(200)
		}
	default:
		reply(405, map[string]any{"message": "no such operation"})
	}
}

func (s *petstore) ids() []int64 {
	var ids []int64
	for id := range s.pets {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func petstoreRuntime(t *testing.T) *codemode.Runtime {
	t.Helper()
	srv := httptest.NewServer(&petstore{pets: map[int64]*pet{}})
	t.Cleanup(srv.Close)
	api, err := openapi.LoadFile(sharedSpec(t, "petstore3.yaml"), openapi.Options{
		BaseURL: srv.URL + "/api/v3",
		Auth: openapi.Credentials(map[string]*openapi.Credential{
			"petstore_auth": openapi.Bearer("pet-token"),
			"api_key":       openapi.APIKey("special-key"),
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := codemode.New(codemode.Options{
		Tools:  map[string]any{"petstore": api.Namespace()},
		Limits: codemode.Limits{Timeout: 10 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

func TestPetstoreProgram(t *testing.T) {
	rt := petstoreRuntime(t)
	res := rt.Execute(context.Background(), `
const rex = await tools.petstore.addPet({ body: { name: "Rex", photoUrls: [], status: "available" } });
await tools.petstore.addPet({ body: { name: "Tom", photoUrls: ["tom.png"], status: "available", tags: [{ name: "cat" }] } });
const listed = await tools.petstore.findPetsByStatus({ status: "available" });
const cats = await tools.petstore.findPetsByTags({ tags: ["cat", "lynx"] });
await tools.petstore.updatePet({ body: { ...rex, status: "sold" } });
await tools.petstore.updatePetWithForm({ petId: rex.id, name: "Rex II" });
const updated = await tools.petstore.getPetById({ petId: rex.id });
const inventory = await tools.petstore.getInventory();
const removed = await tools.petstore.deletePet({ petId: rex.id });
let gone;
try {
  await tools.petstore.getPetById({ petId: rex.id });
} catch (e) {
  gone = e.message;
}
return { listed: listed.map((p) => p.name), cats: cats.map((p) => p.name), updated, inventory, removed, gone };
`)
	want := `{"ok":true,"value":{"listed":["Rex","Tom"],"cats":["Tom"],"updated":{"id":1,"name":"Rex II","photoUrls":[],"status":"sold"},` +
		`"inventory":{"available":1,"sold":1},"removed":null,"gone":"GET /pet/{petId} failed with HTTP 404: {\"code\":404,\"message\":\"Pet not found\"}"},` +
		`"toolCalls":[{"name":"petstore.addPet"},{"name":"petstore.addPet"},{"name":"petstore.findPetsByStatus"},{"name":"petstore.findPetsByTags"},` +
		`{"name":"petstore.updatePet"},{"name":"petstore.updatePetWithForm"},{"name":"petstore.getPetById"},{"name":"petstore.getInventory"},` +
		`{"name":"petstore.deletePet"},{"name":"petstore.getPetById"}]}`
	if got := res.String(); got != want {
		t.Errorf("result\n got %s\nwant %s", got, want)
	}
}

func TestPetstoreBadInputs(t *testing.T) {
	rt := petstoreRuntime(t)
	cases := []struct{ code, kind, message string }{
		{`return await tools.petstore.getPetById({})`, "InvalidToolInput", "Invalid input for tool 'petstore.getPetById': at '': missing property 'petId'"},
		{`return await tools.petstore.getPetById({ petId: "seven" })`, "InvalidToolInput", "Invalid input for tool 'petstore.getPetById': at '/petId': got string, want integer"},
		{`return await tools.petstore.addPet({ body: { photoUrls: [] } })`, "InvalidToolInput", "Invalid input for tool 'petstore.addPet': at '/body': missing property 'name'"},
		{`return await tools.petstore.findPetsByStatus({ status: "lost" })`, "InvalidToolInput", "Invalid input for tool 'petstore.findPetsByStatus': at '/status': value must be one of"},
		{`return await tools.petstore.updatePet({ body: { id: 99, name: "Nobody", photoUrls: [] } })`, "ToolFailure", `PUT /pet failed with HTTP 404: {"code":404,"message":"Pet not found"}`},
		{`return await tools.petstore.uploadFile({ petId: 1 })`, "UnknownTool", "Unknown tool 'petstore.uploadFile'"},
	}
	for _, c := range cases {
		res := rt.Execute(context.Background(), c.code)
		if res.OK || res.Error == nil || string(res.Error.Kind) != c.kind || !strings.HasPrefix(res.Error.Message, c.message) {
			t.Errorf("%s\n got %s\nwant %s: %s", c.code, res, c.kind, c.message)
		}
	}
}

func TestHideParameters(t *testing.T) {
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		w.WriteHeader(200)
	}))
	defer srv.Close()
	for _, entry := range []string{"header:api_key", "api_key", "header:API_KEY"} {
		t.Run(entry, func(t *testing.T) {
			api, err := openapi.LoadFile(sharedSpec(t, "petstore3.yaml"), openapi.Options{
				BaseURL:        srv.URL,
				Headers:        map[string]string{"api_key": "special-key"},
				HideParameters: []string{entry},
			})
			if err != nil {
				t.Fatal(err)
			}
			del := mustFind(t, api, "deletePet")
			sig := catalog.Signature([]string{"petstore", "deletePet"}, del.Input, del.Output)
			if strings.Contains(sig, "api_key") || !strings.Contains(sig, "petId: number") {
				t.Errorf("signature %s, want petId and no api_key", sig)
			}
			if strings.Contains(string(del.Input), "api_key") {
				t.Errorf("input schema shows api_key: %s", del.Input)
			}
			got = nil
			if _, err := del.Func(context.Background(), json.RawMessage(`{"petId":1}`)); err != nil || got.Get("api_key") != "special-key" {
				t.Errorf("call: %v, header %q", err, got.Get("api_key"))
			}
			got = nil
			_, err = del.Func(context.Background(), json.RawMessage(`{"petId":1,"api_key":"from the model"}`))
			if err == nil || err.Error() != "Parameter 'api_key' is supplied by the host; remove it from the input." || got != nil {
				t.Errorf("passing a hidden parameter: %v, %v", err, got)
			}
		})
	}
	// Without it, the model sees the parameter.
	api, err := openapi.LoadFile(sharedSpec(t, "petstore3.yaml"), openapi.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if del := mustFind(t, api, "deletePet"); !strings.Contains(string(del.Input), "api_key") {
		t.Errorf("input schema hides api_key: %s", del.Input)
	}
	for entry, want := range map[string]string{
		"path:petId":    `openapi: Options.HideParameters: "path:petId": the location before ':' must be query, header or cookie (path parameters cannot be hidden)`,
		"petId":         `openapi: Options.HideParameters: "petId" matches no query, header or cookie parameter of any operation`,
		"query:api_key": `openapi: Options.HideParameters: "query:api_key" matches no query, header or cookie parameter of any operation`,
		"header:":       `openapi: Options.HideParameters: "header:" names no parameter`,
	} {
		_, err := openapi.LoadFile(sharedSpec(t, "petstore3.yaml"), openapi.Options{BaseURL: srv.URL, HideParameters: []string{entry}})
		if err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %s", entry, err, want)
		}
	}
}
