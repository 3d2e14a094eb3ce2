package demo_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools"
	"github.com/go-codemode/codemode/tools/demo"
)

// call runs one demo tool directly and returns its result as JSON.
func call(t *testing.T, def map[string]any, name, input string) (string, error) {
	t.Helper()
	tool, ok := def["demo"].(*tools.Namespace).Tools[name].(*tools.Tool)
	if !ok {
		t.Fatalf("no tool demo.%s", name)
	}
	res, err := tool.Func(context.Background(), json.RawMessage(input))
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatalf("demo.%s: result does not marshal: %v", name, err)
	}
	return string(b), nil
}

func TestTools(t *testing.T) {
	tests := []struct {
		tool, input, want, err string
	}{
		{"getCustomer", `{"id":1}`, `{"id":1,"name":"Ada Lovelace","email":"ada@example.com","tier":"gold","city":"London","since":"2021-03-14"}`, ""},
		{"getCustomer", `{"id":99}`, "", "customer 99 not found"},
		{"getCustomer", `{}`, "", "id is required"},
		{"getCustomer", ``, "", "id is required"},
		{"getCustomer", `{"id":"1"}`, "", "id must be an integer"},
		{"getCustomer", `{"id":1.5}`, "", "id must be an integer"},
		{"getCustomer", `{"id":1,"ID":2}`, "", `unexpected field "ID"; the fields are id`},
		{"getCustomer", `[1]`, "", "the input must be an object"},
		{"listOrders", `{"customerid":1}`, "", `unexpected field "customerid"; the fields are customerId, status`},
		{"listCustomers", `{"limit":2}`, `{"customers":[{"id":1,"name":"Ada Lovelace","email":"ada@example.com","tier":"gold","city":"London","since":"2021-03-14"},{"id":2,"name":"Bola Okafor","email":"bola@example.com","tier":"silver","city":"Lagos","since":"2022-07-01"}],"total":6}`, ""},
		{"listCustomers", `{"tier":"gold","limit":1}`, `{"customers":[{"id":1,"name":"Ada Lovelace","email":"ada@example.com","tier":"gold","city":"London","since":"2021-03-14"}],"total":2}`, ""},
		{"listCustomers", `{"tier":"platinum"}`, "", `tier must be one of gold, silver, bronze, not "platinum"`},
		{"listCustomers", `{"limit":0}`, "", "limit must be at least 1"},
		{"listOrders", `{"customerId":1,"status":"pending"}`, `{"orders":[{"id":1009,"customerId":1,"status":"pending","placed":"2026-10-27T07:50:00Z","items":[{"sku":"MN-303","qty":1,"price":279},{"sku":"HP-505","qty":1,"price":149}],"total":428}]}`, ""},
		{"listOrders", `{"customerId":6}`, `{"orders":[]}`, ""},
		{"listOrders", `{"customerId":99}`, "", "customer 99 not found"},
		{"listOrders", `{"status":"lost"}`, "", `status must be one of pending, paid, shipped, delivered, cancelled, not "lost"`},
		{"getOrder", `{"id":1006}`, `{"id":1006,"customerId":3,"status":"paid","placed":"2026-10-18T16:45:00Z","items":[{"sku":"SP-808","qty":2,"price":45},{"sku":"CB-404","qty":2,"price":9.99}],"total":109.98}`, ""},
		{"getOrder", `{"id":7}`, "", "order 7 not found"},
		{"updateOrderStatus", `{"id":1004,"status":"paid"}`, `{"id":1004,"customerId":3,"status":"paid","placed":"2026-10-12T19:25:00Z","items":[{"sku":"HP-505","qty":1,"price":149}],"total":149}`, ""},
		{"updateOrderStatus", `{"id":1001,"status":"pending"}`, "", "order 1001 is delivered; its status cannot change"},
		{"updateOrderStatus", `{"id":1004}`, "", "status is required"},
		{"updateOrderStatus", `{"id":1004,"status":"done"}`, "", `status must be one of pending, paid, shipped, delivered, cancelled, not "done"`},
		{"getInventory", `{"sku":"ms-202"}`, `{"sku":"MS-202","name":"Wireless mouse","category":"peripherals","price":25.5,"stock":3,"reorderLevel":15}`, ""},
		{"getInventory", `{"sku":"XX-000"}`, "", `product "XX-000" not found`},
		{"listInventory", `{"lowStock":true}`, `{"items":[{"sku":"DK-606","name":"Laptop dock","category":"accessories","price":119,"stock":0,"reorderLevel":4},{"sku":"HP-505","name":"Noise-cancelling headphones","category":"audio","price":149,"stock":2,"reorderLevel":8},{"sku":"MS-202","name":"Wireless mouse","category":"peripherals","price":25.5,"stock":3,"reorderLevel":15},{"sku":"SP-808","name":"Desk speaker","category":"audio","price":45,"stock":9,"reorderLevel":12}]}`, ""},
		{"restock", `{"sku":"DK-606","quantity":10}`, `{"sku":"DK-606","name":"Laptop dock","category":"accessories","price":119,"stock":10,"reorderLevel":4}`, ""},
		{"restock", `{"sku":"DK-606","quantity":0}`, "", "quantity must be at least 1"},
		{"searchProducts", `{"query":"audio"}`, `{"products":[{"sku":"HP-505","name":"Noise-cancelling headphones","category":"audio","price":149,"stock":2,"reorderLevel":8},{"sku":"SP-808","name":"Desk speaker","category":"audio","price":45,"stock":9,"reorderLevel":12}]}`, ""},
		{"searchProducts", `{"query":"Mouse","limit":5}`, `{"products":[{"sku":"MS-202","name":"Wireless mouse","category":"peripherals","price":25.5,"stock":3,"reorderLevel":15}]}`, ""},
		{"searchProducts", `{"query":"peripherals key"}`, `{"products":[{"sku":"KB-101","name":"Mechanical keyboard","category":"peripherals","price":89,"stock":14,"reorderLevel":10}]}`, ""},
		{"searchProducts", `{"query":"e","limit":2}`, `{"products":[{"sku":"KB-101","name":"Mechanical keyboard","category":"peripherals","price":89,"stock":14,"reorderLevel":10},{"sku":"MS-202","name":"Wireless mouse","category":"peripherals","price":25.5,"stock":3,"reorderLevel":15}]}`, ""},
		{"searchProducts", `{"query":"submarine"}`, `{"products":[]}`, ""},
		{"searchProducts", `{"query":"  "}`, "", "query must have at least one word"},
	}
	for _, tt := range tests {
		got, err := call(t, demo.Tools(), tt.tool, tt.input)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s(%s): error %v, want %q", tt.tool, tt.input, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s(%s) = %s, %v\nwant %s", tt.tool, tt.input, got, err, tt.want)
		}
	}
}

// TestStore checks that updates last within one Tools() and no further.
func TestStore(t *testing.T) {
	def := demo.Tools()
	if _, err := call(t, def, "updateOrderStatus", `{"id":1003,"status":"shipped"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, def, "restock", `{"sku":"MS-202","quantity":20}`); err != nil {
		t.Fatal(err)
	}
	if got, _ := call(t, def, "getOrder", `{"id":1003}`); !strings.Contains(got, `"status":"shipped"`) {
		t.Errorf("the update is lost: %s", got)
	}
	if got, _ := call(t, def, "listInventory", `{"lowStock":true}`); strings.Contains(got, "MS-202") {
		t.Errorf("the restock is lost: %s", got)
	}
	fresh := demo.Tools()
	if got, _ := call(t, fresh, "getOrder", `{"id":1003}`); !strings.Contains(got, `"status":"paid"`) {
		t.Errorf("a fresh Tools() sees another's update: %s", got)
	}
	if got, _ := call(t, fresh, "getInventory", `{"sku":"MS-202"}`); !strings.Contains(got, `"stock":3`) {
		t.Errorf("a fresh Tools() sees another's restock: %s", got)
	}
}

// TestSchemas checks that every tool is described and has object schemas
// that parse, and that every result has the fields its output schema
// requires.
func TestSchemas(t *testing.T) {
	def := demo.Tools()
	tree, err := tools.New(def)
	if err != nil {
		t.Fatal(err)
	}
	if tree.Len() != 9 {
		t.Errorf("%d tools", tree.Len())
	}
	ns := def["demo"].(*tools.Namespace)
	if ns.Description == "" {
		t.Error("the namespace has no description")
	}
	sample := map[string]string{
		"listCustomers": `{}`, "getCustomer": `{"id":2}`, "listOrders": `{}`, "getOrder": `{"id":1001}`,
		"updateOrderStatus": `{"id":1007,"status":"paid"}`, "getInventory": `{"sku":"KB-101"}`,
		"listInventory": `{}`, "restock": `{"sku":"KB-101","quantity":1}`, "searchProducts": `{"query":"cable"}`,
	}
	for _, n := range tree.Tools() {
		name := n.Segments[1]
		tool := n.Tool
		if tool.Description == "" {
			t.Errorf("%s has no description", n.Path)
		}
		for what, s := range map[string]json.RawMessage{"input": tool.Input, "output": tool.Output} {
			var sch struct {
				Type       string                     `json:"type"`
				Properties map[string]json.RawMessage `json:"properties"`
			}
			if err := json.Unmarshal(s, &sch); err != nil || sch.Type != "object" || sch.Properties == nil {
				t.Errorf("%s: %s schema %s (%v)", n.Path, what, s, err)
			}
		}
		in, ok := sample[name]
		if !ok {
			t.Errorf("%s has no sample input", n.Path)
			continue
		}
		got, err := call(t, def, name, in)
		if err != nil {
			t.Errorf("%s(%s): %v", n.Path, in, err)
			continue
		}
		var out struct {
			Required []string `json:"required"`
		}
		_ = json.Unmarshal(tool.Output, &out)
		var res map[string]json.RawMessage
		if err := json.Unmarshal([]byte(got), &res); err != nil {
			t.Errorf("%s: result %s is not an object", n.Path, got)
		}
		for _, r := range out.Required {
			if _, ok := res[r]; !ok {
				t.Errorf("%s: result %s lacks the required %q", n.Path, got, r)
			}
		}
	}
}

func TestCancelled(t *testing.T) {
	tool := demo.Tools()["demo"].(*tools.Namespace).Tools["getCustomer"].(*tools.Tool)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tool.Func(ctx, json.RawMessage(`{"id":1}`)); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v", err)
	}
}

// TestPrograms runs programs against the demo tools through the runtime.
func TestPrograms(t *testing.T) {
	tests := []struct{ code, want string }{
		{`return await tools.demo.getCustomer({id: 3})`,
			`{"ok":true,"value":{"id":3,"name":"Chen Wei","email":"chen@example.com","tier":"gold","city":"Shanghai","since":"2020-11-23"},"toolCalls":[{"name":"demo.getCustomer"}]}`},
		{`const ids = [1, 2, 3]
const orders = await Promise.all(ids.map((customerId) => tools.demo.listOrders({customerId})))
return orders.map((r, i) => ({id: ids[i], n: r.orders.length, total: r.orders.reduce((s, o) => s + o.total, 0)}))`,
			`{"ok":true,"value":[{"id":1,"n":3,"total":701.46},{"id":2,"n":2,"total":693.5},{"id":3,"n":2,"total":258.98}],"toolCalls":[{"name":"demo.listOrders"},{"name":"demo.listOrders"},{"name":"demo.listOrders"}]}`},
		{`try { await tools.demo.getCustomer({id: 99}) } catch (e) { return e.message }`,
			`{"ok":true,"value":"customer 99 not found","toolCalls":[{"name":"demo.getCustomer"}]}`},
		{`await tools.demo.updateOrderStatus({id: 1005, status: "paid"})`,
			`{"ok":false,"error":{"kind":"ToolFailure","message":"order 1005 is cancelled; its status cannot change"},"toolCalls":[{"name":"demo.updateOrderStatus"}]}`},
	}
	for _, tt := range tests {
		rt, err := codemode.New(codemode.Options{Tools: demo.Tools()})
		if err != nil {
			t.Fatal(err)
		}
		if got := rt.Execute(context.Background(), tt.code).String(); got != tt.want {
			t.Errorf("%s\ngot  %s\nwant %s", tt.code, got, tt.want)
		}
	}
}
