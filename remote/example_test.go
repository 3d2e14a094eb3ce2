package remote_test

import (
	"context"
	"fmt"
	"log"
	"net/http/httptest"
	"strings"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/protocol"
	"github.com/go-codemode/codemode/remote"
	"github.com/go-codemode/codemode/server"
)

// A program runs on a server (here in process, as `codemode serve`
// would run it) and its tool calls come back to this process.
func ExampleDial() {
	rt, err := codemode.New(codemode.Options{Engine: codemode.EngineVM})
	if err != nil {
		log.Fatal(err)
	}
	srv, err := server.New(server.Config{Token: "s3cret"}, rt.Executor(codemode.ExecutorOptions{}))
	if err != nil {
		log.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	defer srv.Shutdown(context.Background())

	ctx := context.Background()
	ex, err := remote.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http"), remote.Options{Token: "s3cret"})
	if err != nil {
		log.Fatal(err)
	}
	defer ex.Close()

	users := map[float64]string{1: "Ada Lovelace", 2: "Alan Turing"}
	tools := protocol.NewEnvelopeDispatch(func(ctx context.Context, provider, tool string, args []any) (any, error) {
		id, _ := args[0].(float64)
		name, ok := users[id]
		if !ok {
			return nil, fmt.Errorf("no user %v", args[0])
		}
		return map[string]any{"id": id, "name": name}, nil
	})
	defer tools.Close()

	res, err := ex.Execute(ctx, protocol.ExecuteRequest{
		Code: `async () => {
  const [a, b] = await Promise.all([store.getUser(1), store.getUser(2)])
  console.log("found", a.name, "and", b.name)
  try { await store.getUser(3) } catch (e) { console.warn(e.message) }
  return [a.name, b.name].map(n => n.split(" ")[1])
}`,
		Providers: []protocol.ProviderDescriptor{{Name: "store", Tools: []string{"getUser"}}},
		Dispatch:  tools.Dispatch,
	})
	if err != nil {
		log.Fatal(err) // the executor failed: the program's own failures are in res.Error
	}
	fmt.Println(string(res.Result))
	for _, l := range res.Logs {
		fmt.Printf("[%s] %s\n", l.Level, l.Text)
	}
	// Output:
	// ["Lovelace","Turing"]
	// [log] found Ada Lovelace and Alan Turing
	// [warn] no user 3
}
