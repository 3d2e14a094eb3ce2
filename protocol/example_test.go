package protocol_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-codemode/codemode/protocol"
)

func ExampleNewEnvelopeDispatch() {
	users := map[float64]string{1: "Ada", 2: "Grace"}
	d := protocol.NewEnvelopeDispatch(func(ctx context.Context, provider, tool string, args []any) (any, error) {
		if provider != "store" || tool != "getUser" {
			return nil, fmt.Errorf("unknown tool %s.%s", provider, tool)
		}
		id, _ := args[0].(float64)
		name, ok := users[id]
		if !ok {
			return nil, errors.New("no such user")
		}
		return map[string]any{"id": id, "name": name}, nil
	})

	ctx := context.Background()
	fmt.Println(d.Dispatch(ctx, "store", "getUser", `[1]`))
	fmt.Println(d.Dispatch(ctx, "store", "getUser", `7`))
	fmt.Println(d.Dispatch(ctx, "store", "deleteUser", `[1]`))

	// The execution has ended: no call reaches the responder any more.
	d.Close()
	fmt.Println(d.Dispatch(ctx, "store", "getUser", `[2]`))
	// Output:
	// {"result":{"id":1,"name":"Ada"}}
	// {"error":"no such user"}
	// {"error":"unknown tool store.deleteUser"}
	// {"error":"Execution has already completed."}
}

func ExampleDecode() {
	m, err := protocol.Decode([]byte(`{"type":"execute","id":"e1","code":"async () => store.count()",` +
		`"providers":[{"name":"store","tools":["count"]}],"options":{"timeout":null}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	switch m := m.(type) {
	case *protocol.ExecuteMessage:
		fmt.Println(m.ID, m.Providers[0].Name, m.Options.Timeout.Resolve(0, 0) == protocol.MaxSupportedTimeout)
		fmt.Println(protocol.ValidateProviders(m.Providers) == "")
	}

	_, err = protocol.Decode([]byte(`{"type":"execute","id":"e2"}`))
	fmt.Println(protocol.CodeOf(err), err)
	// Output:
	// e1 store true
	// true
	// MALFORMED_MESSAGE malformed message: "code" is missing
}

func ExampleSeparateImports() {
	imports, body := protocol.SeparateImports("import cfg from \"cfg\"\nimport {get} from 'util'\n\nasync () => get(cfg)")
	fmt.Printf("%q\n%q\n", imports, body)
	// Output:
	// "import cfg from \"cfg\"\nimport {get} from 'util'"
	// "async () => get(cfg)"
}

func ExampleValidateProviders() {
	fmt.Println(protocol.ValidateProviders([]protocol.ProviderDescriptor{
		{Name: "store", Tools: []string{"get"}},
		{Name: "my-store"},
	}))
	// Output:
	// Provider name "my-store" is not a valid JavaScript identifier
}
