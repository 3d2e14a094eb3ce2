// Package demo is a small built-in tool namespace, `demo`, for trying
// code mode without a real backend: a shop's customers, orders and
// inventory in memory, with tools to list, look up, search and update
// them.
//
//	rt, _ := codemode.New(codemode.Options{Tools: demo.Tools()})
//	res := rt.Execute(ctx, `return await tools.demo.getCustomer({id: 1})`)
//
// The data is the same every time (no clocks, no randomness), so programs
// give the same results on every run. Each call of Tools makes a fresh
// store; updates made through its tools are seen by later calls to the
// same tools and by nothing else. The lookups sleep a few milliseconds
// (returning early when the context ends), so that calls made in
// parallel visibly overlap.
package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-codemode/codemode/tools"
)

// Latency is how long the lookup tools take.
const Latency = 5 * time.Millisecond

// customer is a shop customer.
type customer struct {
	ID    int    `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
	Tier  string `json:"tier"`
	City  string `json:"city"`
	Since string `json:"since"`
}

// item is one line of an order.
type item struct {
	SKU   string  `json:"sku"`
	Qty   int     `json:"qty"`
	Price float64 `json:"price"`
}

// order is a customer's order.
type order struct {
	ID         int     `json:"id"`
	CustomerID int     `json:"customerId"`
	Status     string  `json:"status"`
	Placed     string  `json:"placed"`
	Items      []item  `json:"items"`
	Total      float64 `json:"total"`
}

// product is an entry of the catalogue with its stock.
type product struct {
	SKU          string  `json:"sku"`
	Name         string  `json:"name"`
	Category     string  `json:"category"`
	Price        float64 `json:"price"`
	Stock        int     `json:"stock"`
	ReorderLevel int     `json:"reorderLevel"`
}

// The order statuses, in the order an order goes through them, and the
// customer tiers.
const (
	statuses = "pending, paid, shipped, delivered, cancelled"
	tiers    = "gold, silver, bronze"
)

// store is one Tools() call's data.
type store struct {
	mu        sync.Mutex
	customers []customer
	orders    []order
	products  []product
}

func newStore() *store {
	s := &store{
		customers: []customer{
			{1, "Ada Lovelace", "ada@example.com", "gold", "London", "2021-03-14"},
			{2, "Bola Okafor", "bola@example.com", "silver", "Lagos", "2022-07-01"},
			{3, "Chen Wei", "chen@example.com", "gold", "Shanghai", "2020-11-23"},
			{4, "Dana Schmidt", "dana@example.com", "bronze", "Berlin", "2024-01-09"},
			{5, "Emil Novak", "emil@example.com", "silver", "Prague", "2023-05-30"},
			{6, "Farah Haddad", "farah@example.com", "bronze", "Amman", "2025-02-17"},
		},
		products: []product{
			{"KB-101", "Mechanical keyboard", "peripherals", 89, 14, 10},
			{"MS-202", "Wireless mouse", "peripherals", 25.5, 3, 15},
			{"MN-303", "27-inch monitor", "displays", 279, 6, 5},
			{"CB-404", "USB-C cable", "accessories", 9.99, 120, 50},
			{"HP-505", "Noise-cancelling headphones", "audio", 149, 2, 8},
			{"DK-606", "Laptop dock", "accessories", 119, 0, 4},
			{"WC-707", "HD webcam", "peripherals", 59, 22, 10},
			{"SP-808", "Desk speaker", "audio", 45, 9, 12},
		},
	}
	type line struct {
		sku string
		qty int
	}
	orders := []struct {
		id, customer int
		status       string
		placed       string
		lines        []line
	}{
		{1001, 1, "delivered", "2026-10-02T09:12:00Z", []line{{"KB-101", 1}, {"MS-202", 1}}},
		{1002, 2, "shipped", "2026-10-05T14:40:00Z", []line{{"MN-303", 2}}},
		{1003, 1, "paid", "2026-10-11T08:03:00Z", []line{{"CB-404", 4}, {"DK-606", 1}}},
		{1004, 3, "pending", "2026-10-12T19:25:00Z", []line{{"HP-505", 1}}},
		{1005, 4, "cancelled", "2026-10-15T11:00:00Z", []line{{"WC-707", 1}}},
		{1006, 3, "paid", "2026-10-18T16:45:00Z", []line{{"SP-808", 2}, {"CB-404", 2}}},
		{1007, 5, "pending", "2026-10-21T10:30:00Z", []line{{"KB-101", 2}}},
		{1008, 2, "delivered", "2026-10-22T13:15:00Z", []line{{"MS-202", 3}, {"WC-707", 1}}},
		{1009, 1, "pending", "2026-10-27T07:50:00Z", []line{{"MN-303", 1}, {"HP-505", 1}}},
		{1010, 5, "shipped", "2026-10-30T18:05:00Z", []line{{"DK-606", 1}}},
	}
	for _, def := range orders {
		o := order{ID: def.id, CustomerID: def.customer, Status: def.status, Placed: def.placed}
		cents := 0
		for _, l := range def.lines {
			p, _ := s.findProduct(l.sku)
			o.Items = append(o.Items, item{SKU: l.sku, Qty: l.qty, Price: p.Price})
			cents += l.qty * int(math.Round(p.Price*100))
		}
		o.Total = float64(cents) / 100
		s.orders = append(s.orders, o)
	}
	return s
}

func (s *store) findCustomer(id int) (customer, error) {
	for _, c := range s.customers {
		if c.ID == id {
			return c, nil
		}
	}
	return customer{}, fmt.Errorf("customer %d not found", id)
}

func (s *store) findOrder(id int) (*order, error) {
	for i := range s.orders {
		if s.orders[i].ID == id {
			return &s.orders[i], nil
		}
	}
	return nil, fmt.Errorf("order %d not found", id)
}

func (s *store) findProduct(sku string) (*product, error) {
	for i := range s.products {
		if strings.EqualFold(s.products[i].SKU, sku) {
			return &s.products[i], nil
		}
	}
	return nil, fmt.Errorf("product %q not found", sku)
}

// copyOrder copies an order so that the result shares nothing with the
// store.
func copyOrder(o order) order {
	o.Items = slices.Clone(o.Items)
	return o
}

// Tools returns the demo namespace, ready for codemode.Options.Tools:
// {"demo": *tools.Namespace}. Every call makes a fresh store.
func Tools() map[string]any {
	s := newStore()
	return map[string]any{
		"demo": &tools.Namespace{
			Description: "A demo shop: customers, their orders, and the product inventory.",
			Tools: map[string]any{
				"listCustomers": &tools.Tool{
					Description: "List customers, optionally only one tier, at most limit of them (all by default), in id order.",
					Input:       schema(`{"type":"object","properties":{"limit":{"type":"integer","minimum":1},"tier":{"type":"string","enum":["gold","silver","bronze"]}}}`),
					Output:      schema(`{"type":"object","properties":{"customers":{"type":"array","items":` + customerSchema + `},"total":{"type":"integer","description":"how many customers match, before the limit"}},"required":["customers","total"]}`),
					Func:        s.listCustomers,
				},
				"getCustomer": &tools.Tool{
					Description: "Get one customer by id.",
					Input:       schema(`{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}`),
					Output:      schema(customerSchema),
					Func:        s.getCustomer,
				},
				"listOrders": &tools.Tool{
					Description: "List orders, optionally only one customer's and only one status, in id order.",
					Input:       schema(`{"type":"object","properties":{"customerId":{"type":"integer"},"status":{"type":"string","enum":["pending","paid","shipped","delivered","cancelled"]}}}`),
					Output:      schema(`{"type":"object","properties":{"orders":{"type":"array","items":` + orderSchema + `}},"required":["orders"]}`),
					Func:        s.listOrders,
				},
				"getOrder": &tools.Tool{
					Description: "Get one order by id.",
					Input:       schema(`{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}`),
					Output:      schema(orderSchema),
					Func:        s.getOrder,
				},
				"updateOrderStatus": &tools.Tool{
					Description: "Set an order's status and return the updated order. Delivered and cancelled orders cannot change.",
					Input:       schema(`{"type":"object","properties":{"id":{"type":"integer"},"status":{"type":"string","enum":["pending","paid","shipped","delivered","cancelled"]}},"required":["id","status"]}`),
					Output:      schema(orderSchema),
					Func:        s.updateOrderStatus,
				},
				"getInventory": &tools.Tool{
					Description: "Get a product and its stock by SKU.",
					Input:       schema(`{"type":"object","properties":{"sku":{"type":"string"}},"required":["sku"]}`),
					Output:      schema(productSchema),
					Func:        s.getInventory,
				},
				"listInventory": &tools.Tool{
					Description: "List every product with its stock, in SKU order; with lowStock, only those at or below their reorder level.",
					Input:       schema(`{"type":"object","properties":{"lowStock":{"type":"boolean"}}}`),
					Output:      schema(`{"type":"object","properties":{"items":{"type":"array","items":` + productSchema + `}},"required":["items"]}`),
					Func:        s.listInventory,
				},
				"restock": &tools.Tool{
					Description: "Add quantity units to a product's stock and return the product.",
					Input:       schema(`{"type":"object","properties":{"sku":{"type":"string"},"quantity":{"type":"integer","minimum":1}},"required":["sku","quantity"]}`),
					Output:      schema(productSchema),
					Func:        s.restock,
				},
				"searchProducts": &tools.Tool{
					Description: "Search products by words of their name, category or SKU (case-insensitive; every word must match), best matches first.",
					Input:       schema(`{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer","minimum":1}},"required":["query"]}`),
					Output:      schema(`{"type":"object","properties":{"products":{"type":"array","items":` + productSchema + `}},"required":["products"]}`),
					Func:        s.searchProducts,
				},
			},
		},
	}
}

const customerSchema = `{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"},"email":{"type":"string"},"tier":{"type":"string","enum":["gold","silver","bronze"]},"city":{"type":"string"},"since":{"type":"string","description":"the date the customer joined, YYYY-MM-DD"}},"required":["id","name","email","tier","city","since"]}`

const orderSchema = `{"type":"object","properties":{"id":{"type":"integer"},"customerId":{"type":"integer"},"status":{"type":"string","enum":["pending","paid","shipped","delivered","cancelled"]},"placed":{"type":"string","description":"when the order was placed, RFC 3339"},"items":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer"},"price":{"type":"number","description":"unit price"}},"required":["sku","qty","price"]}},"total":{"type":"number"}},"required":["id","customerId","status","placed","items","total"]}`

const productSchema = `{"type":"object","properties":{"sku":{"type":"string"},"name":{"type":"string"},"category":{"type":"string"},"price":{"type":"number"},"stock":{"type":"integer"},"reorderLevel":{"type":"integer","description":"restock when stock is at or below this"}},"required":["sku","name","category","price","stock","reorderLevel"]}`

// schema checks a schema literal and returns it.
func schema(s string) json.RawMessage {
	if !json.Valid([]byte(s)) {
		panic("demo: invalid schema " + s)
	}
	return json.RawMessage(s)
}

// decode reads a tool's input into v, with messages for the model:
// "id is required", "id must be an integer", "unexpected field \"ID\"".
func decode(input json.RawMessage, v any, required ...string) error {
	if len(bytes.TrimSpace(input)) == 0 {
		input = json.RawMessage("{}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(input, &fields); err != nil || fields == nil {
		return errors.New("the input must be an object")
	}
	known := fieldNames(v)
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if !slices.Contains(known, k) {
			return fmt.Errorf("unexpected field %q; the fields are %s", k, strings.Join(known, ", "))
		}
	}
	for _, r := range required {
		if raw, ok := fields[r]; !ok || string(raw) == "null" {
			return fmt.Errorf("%s is required", r)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(input))
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			want := map[string]string{"int": "an integer", "string": "a string", "bool": "a boolean"}[te.Type.Kind().String()]
			if want == "" {
				want = "a " + te.Type.String()
			}
			return fmt.Errorf("%s must be %s", te.Field, want)
		}
		return err
	}
	return nil
}

// fieldNames lists the JSON names of the fields of the struct v points
// to (encoding/json matches names case-insensitively; tools do not).
func fieldNames(v any) []string {
	t := reflect.TypeOf(v).Elem()
	names := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		names = append(names, name)
	}
	return names
}

// wait is a lookup's latency: it returns early with the context's error.
func wait(ctx context.Context) error {
	t := time.NewTimer(Latency)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// oneOf checks that v is one of a comma-separated list of values.
func oneOf(name, v, allowed string) error {
	if !slices.Contains(strings.Split(allowed, ", "), v) {
		return fmt.Errorf("%s must be one of %s, not %q", name, allowed, v)
	}
	return nil
}

func (s *store) listCustomers(ctx context.Context, input json.RawMessage) (any, error) {
	var in struct {
		Limit *int   `json:"limit"`
		Tier  string `json:"tier"`
	}
	if err := decode(input, &in); err != nil {
		return nil, err
	}
	if in.Limit != nil && *in.Limit < 1 {
		return nil, fmt.Errorf("limit must be at least 1")
	}
	if in.Tier != "" {
		if err := oneOf("tier", in.Tier, tiers); err != nil {
			return nil, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := struct {
		Customers []customer `json:"customers"`
		Total     int        `json:"total"`
	}{Customers: []customer{}}
	for _, c := range s.customers {
		if in.Tier != "" && c.Tier != in.Tier {
			continue
		}
		out.Total++
		if in.Limit == nil || len(out.Customers) < *in.Limit {
			out.Customers = append(out.Customers, c)
		}
	}
	return out, nil
}

func (s *store) getCustomer(ctx context.Context, input json.RawMessage) (any, error) {
	var in struct {
		ID int `json:"id"`
	}
	if err := decode(input, &in, "id"); err != nil {
		return nil, err
	}
	if err := wait(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.findCustomer(in.ID)
}

func (s *store) listOrders(ctx context.Context, input json.RawMessage) (any, error) {
	var in struct {
		CustomerID *int   `json:"customerId"`
		Status     string `json:"status"`
	}
	if err := decode(input, &in); err != nil {
		return nil, err
	}
	if in.Status != "" {
		if err := oneOf("status", in.Status, statuses); err != nil {
			return nil, err
		}
	}
	if err := wait(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if in.CustomerID != nil {
		if _, err := s.findCustomer(*in.CustomerID); err != nil {
			return nil, err
		}
	}
	out := struct {
		Orders []order `json:"orders"`
	}{Orders: []order{}}
	for _, o := range s.orders {
		if in.CustomerID != nil && o.CustomerID != *in.CustomerID || in.Status != "" && o.Status != in.Status {
			continue
		}
		out.Orders = append(out.Orders, copyOrder(o))
	}
	return out, nil
}

func (s *store) getOrder(ctx context.Context, input json.RawMessage) (any, error) {
	var in struct {
		ID int `json:"id"`
	}
	if err := decode(input, &in, "id"); err != nil {
		return nil, err
	}
	if err := wait(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o, err := s.findOrder(in.ID)
	if err != nil {
		return nil, err
	}
	return copyOrder(*o), nil
}

func (s *store) updateOrderStatus(ctx context.Context, input json.RawMessage) (any, error) {
	var in struct {
		ID     int    `json:"id"`
		Status string `json:"status"`
	}
	if err := decode(input, &in, "id", "status"); err != nil {
		return nil, err
	}
	if err := oneOf("status", in.Status, statuses); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o, err := s.findOrder(in.ID)
	if err != nil {
		return nil, err
	}
	if o.Status != in.Status && (o.Status == "delivered" || o.Status == "cancelled") {
		return nil, fmt.Errorf("order %d is %s; its status cannot change", o.ID, o.Status)
	}
	o.Status = in.Status
	return copyOrder(*o), nil
}

func (s *store) getInventory(ctx context.Context, input json.RawMessage) (any, error) {
	var in struct {
		SKU string `json:"sku"`
	}
	if err := decode(input, &in, "sku"); err != nil {
		return nil, err
	}
	if err := wait(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.findProduct(in.SKU)
	if err != nil {
		return nil, err
	}
	return *p, nil
}

func (s *store) listInventory(ctx context.Context, input json.RawMessage) (any, error) {
	var in struct {
		LowStock bool `json:"lowStock"`
	}
	if err := decode(input, &in); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := struct {
		Items []product `json:"items"`
	}{Items: []product{}}
	for _, p := range s.products {
		if !in.LowStock || p.Stock <= p.ReorderLevel {
			out.Items = append(out.Items, p)
		}
	}
	sort.Slice(out.Items, func(i, j int) bool { return out.Items[i].SKU < out.Items[j].SKU })
	return out, nil
}

func (s *store) restock(ctx context.Context, input json.RawMessage) (any, error) {
	var in struct {
		SKU      string `json:"sku"`
		Quantity int    `json:"quantity"`
	}
	if err := decode(input, &in, "sku", "quantity"); err != nil {
		return nil, err
	}
	if in.Quantity < 1 {
		return nil, fmt.Errorf("quantity must be at least 1")
	}
	if err := wait(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.findProduct(in.SKU)
	if err != nil {
		return nil, err
	}
	p.Stock += in.Quantity
	return *p, nil
}

func (s *store) searchProducts(ctx context.Context, input json.RawMessage) (any, error) {
	var in struct {
		Query string `json:"query"`
		Limit *int   `json:"limit"`
	}
	if err := decode(input, &in, "query"); err != nil {
		return nil, err
	}
	if in.Limit != nil && *in.Limit < 1 {
		return nil, fmt.Errorf("limit must be at least 1")
	}
	words := strings.Fields(strings.ToLower(in.Query))
	if len(words) == 0 {
		return nil, fmt.Errorf("query must have at least one word")
	}
	if err := wait(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	type hit struct {
		p     product
		score int
	}
	var hits []hit
	for _, p := range s.products {
		name, cat, sku := strings.ToLower(p.Name), strings.ToLower(p.Category), strings.ToLower(p.SKU)
		score := 0
		for _, w := range words {
			switch {
			case sku == w:
				score += 4
			case slices.Contains(strings.Fields(name), w):
				score += 3
			case strings.Contains(name, w):
				score += 2
			case strings.Contains(cat, w), strings.Contains(sku, w):
				score++
			default:
				score = -1
			}
			if score < 0 {
				break
			}
		}
		if score > 0 {
			hits = append(hits, hit{p, score})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	out := struct {
		Products []product `json:"products"`
	}{Products: []product{}}
	for _, h := range hits {
		if in.Limit != nil && len(out.Products) == *in.Limit {
			break
		}
		out.Products = append(out.Products, h.p)
	}
	return out, nil
}
