package protocol_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-codemode/codemode/protocol"
)

func TestParseDispatchArguments(t *testing.T) {
	cases := []struct {
		in   string
		want []any
	}{
		{"", []any{}},
		{"  \t\r\n", []any{}},
		{"[]", []any{}},
		{" [ ] ", []any{}},
		{"[1,\"a\",null,true]", []any{1.0, "a", nil, true}},
		{`[[1,2]]`, []any{[]any{1.0, 2.0}}},
		{`{"id":7}`, []any{map[string]any{"id": 7.0}}},
		{`"text"`, []any{"text"}},
		{`42`, []any{42.0}},
		{`null`, []any{nil}},
		{`false`, []any{false}},
		{`[{"$binary":"aGk="}]`, []any{[]byte("hi")}},
		{`{"$binary":"aGk="}`, []any{[]byte("hi")}},
		{`[{"$binary":"aGk=","x":1}]`, []any{map[string]any{"$binary": "aGk=", "x": 1.0}}},
		{`[{"$binary":"not base64!"}]`, []any{map[string]any{"$binary": "not base64!"}}},
		{`[{"$binary":5}]`, []any{map[string]any{"$binary": 5.0}}},
		{`[{"$binary":""}]`, []any{[]byte{}}},
		{`[9007199254740993]`, []any{9007199254740992.0}},
	}
	for _, c := range cases {
		got, err := protocol.ParseDispatchArguments(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q = %#v, want %#v", c.in, got, c.want)
		}
	}
	for _, bad := range []string{"[", "{", "1 2", "[1] [2]", "[1,]", "undefined", "'a'", "\u00a0", "nul", "{\"a\":1}x"} {
		_, err := protocol.ParseDispatchArguments(bad)
		if protocol.CodeOf(err) != protocol.CodeMalformedMessage {
			t.Errorf("%q: err = %v", bad, err)
		} else if !strings.HasPrefix(err.Error(), "tool arguments are not valid JSON: ") {
			t.Errorf("%q: text = %q", bad, err)
		}
	}
	// Valid JSON that no float64 holds.
	_, err := protocol.ParseDispatchArguments("[1e1000]")
	if protocol.CodeOf(err) != protocol.CodeMalformedMessage || !strings.HasPrefix(err.Error(), "tool arguments cannot be decoded: ") {
		t.Errorf("1e1000: %v", err)
	}
}

func TestParseDispatchArgumentsRaw(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"", []string{}},
		{" ", []string{}},
		{"[]", []string{}},
		{`[1, {"a":2}]`, []string{"1", `{"a":2}`}},
		{` {"a": 1} `, []string{`{"a": 1}`}},
		{`"s"`, []string{`"s"`}},
		{`[{"$binary":"aGk="}]`, []string{`{"$binary":"aGk="}`}},
	}
	for _, c := range cases {
		got, err := protocol.ParseDispatchArgumentsRaw(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		var strs []string
		for _, r := range got {
			strs = append(strs, string(r))
		}
		if len(got) != len(c.want) || (len(got) > 0 && !reflect.DeepEqual(strs, c.want)) {
			t.Errorf("%q = %q, want %q", c.in, strs, c.want)
		}
	}
	if _, err := protocol.ParseDispatchArgumentsRaw("[1,"); protocol.CodeOf(err) != protocol.CodeMalformedMessage {
		t.Errorf("bad JSON: %v", err)
	}
	// A Binary field decodes a tag.
	args, _ := protocol.ParseDispatchArgumentsRaw(`[{"name":"a.txt","data":{"$binary":"AAEC"}}]`)
	var file struct {
		Name string
		Data protocol.Binary
	}
	if err := json.Unmarshal(args[0], &file); err != nil || file.Name != "a.txt" || !reflect.DeepEqual([]byte(file.Data), []byte{0, 1, 2}) {
		t.Errorf("Binary field = %+v, %v", file, err)
	}
}

func TestStringifyForDispatch(t *testing.T) {
	type named []byte
	type withBinary struct {
		Name string          `json:"name"`
		Data protocol.Binary `json:"data"`
		Raw  []byte          `json:"raw"`
	}
	cases := []struct {
		in   any
		want string
	}{
		{nil, "null"},
		{1, "1"},
		{"<&>", `"<&>"`},
		{[]byte("hi"), `{"$binary":"aGk="}`},
		{[]byte{}, `{"$binary":""}`},
		{[]byte(nil), `null`},
		{named("hi"), `{"$binary":"aGk="}`},
		{[]any{1, []byte{1, 2}, "x"}, `[1,{"$binary":"AQI="},"x"]`},
		{map[string]any{"a": map[string]any{"b": []any{[]byte{255}}}}, `{"a":{"b":[{"$binary":"/w=="}]}}`},
		{map[string][]byte{"k": {0}}, `{"k":{"$binary":"AA=="}}`},
		{map[int]any{2: []byte{1}}, `{"2":{"$binary":"AQ=="}}`},
		{[][]byte{{1}, nil}, `[{"$binary":"AQ=="},null]`},
		{[2]int{1, 2}, `[1,2]`},
		{&[]byte{7}, `{"$binary":"Bw=="}`},
		{withBinary{"f", protocol.Binary{1}, []byte{1}}, `{"name":"f","data":{"$binary":"AQ=="},"raw":"AQ=="}`},
		{json.RawMessage(`{"a": [1, 2]}`), `{"a":[1,2]}`},
		{map[string]any{"$binary": "aGk=", "x": 1}, `{"$binary":"aGk=","x":1}`},
		{time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), `"2024-01-02T03:04:05Z"`},
		{protocol.Binary(nil), `null`},
	}
	for _, c := range cases {
		got, err := protocol.StringifyForDispatch(c.in)
		if err != nil || got != c.want {
			t.Errorf("%#v = %s, %v; want %s", c.in, got, err, c.want)
		}
	}
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	if _, err := protocol.StringifyForDispatch(cyclic); err == nil {
		t.Error("cyclic value encoded")
	}
	if _, err := protocol.StringifyForDispatch(make(chan int)); err == nil {
		t.Error("channel encoded")
	}
}

func TestDispatchCodecRoundTrip(t *testing.T) {
	values := []any{
		nil, true, 1.5, "s", []byte{}, []byte{0, 1, 2, 254, 255},
		[]any{[]byte("a"), []any{[]byte("b"), map[string]any{"c": []byte("c")}}},
		map[string]any{"file": map[string]any{"name": "x", "data": []byte("body")}, "n": 2.0},
		map[string]any{"$binary": "aGk=", "other": true},
	}
	for _, v := range values {
		s, err := protocol.StringifyForDispatch(v)
		if err != nil {
			t.Fatalf("%#v: %v", v, err)
		}
		back, err := protocol.ParseForDispatch(s)
		if err != nil || !reflect.DeepEqual(back, v) {
			t.Errorf("%#v -> %s -> %#v, %v", v, s, back, err)
		}
	}
	if _, err := protocol.ParseForDispatch(""); err == nil {
		t.Error("empty text parsed")
	}
}

func TestDecodeDispatchValue(t *testing.T) {
	v := []any{map[string]any{"$binary": "AQ=="}, "x"}
	got := protocol.DecodeDispatchValue(v)
	if !reflect.DeepEqual(got, []any{[]byte{1}, "x"}) {
		t.Errorf("got %#v", got)
	}
	if got := protocol.DecodeDispatchValue(map[string]any{"$binary": "AQ=="}); !reflect.DeepEqual(got, []byte{1}) {
		t.Errorf("top-level tag = %#v", got)
	}
}

func TestBinaryJSON(t *testing.T) {
	var b protocol.Binary
	for _, bad := range []string{`"aGk="`, `{"$binary":1}`, `{"$binary":"!"}`, `{"$binary":"aGk=","x":1}`, `{"x":"aGk="}`, `[]`} {
		if err := json.Unmarshal([]byte(bad), &b); err == nil {
			t.Errorf("%s decoded as %v", bad, b)
		}
	}
	b = protocol.Binary{1}
	if err := json.Unmarshal([]byte(`null`), &b); err != nil || b != nil {
		t.Errorf("null = %v, %v", b, err)
	}
}

func TestEnvelopes(t *testing.T) {
	s, err := protocol.ResultEnvelope(map[string]any{"a": []byte{1}, "b": []any{1, nil}})
	if err != nil || s != `{"result":{"a":{"$binary":"AQ=="},"b":[1,null]}}` {
		t.Errorf("ResultEnvelope = %s, %v", s, err)
	}
	if s, _ := protocol.ResultEnvelope(nil); s != `{"result":null}` {
		t.Errorf("ResultEnvelope(nil) = %s", s)
	}
	if _, err := protocol.ResultEnvelope(func() {}); err == nil {
		t.Error("a func encoded")
	}
	if s := protocol.ErrorEnvelope(`bad "thing" <here>`); s != `{"error":"bad \"thing\" <here>"}` {
		t.Errorf("ErrorEnvelope = %s", s)
	}

	good := []struct {
		in     string
		result string
		errMsg string
		isErr  bool
	}{
		{`{"result":null}`, `null`, "", false},
		{`{"result":[1,{"$binary":"AQ=="}]}`, `[1,{"$binary":"AQ=="}]`, "", false},
		{` { "result" : 5 } `, `5`, "", false},
		{`{"error":"boom"}`, ``, "boom", true},
		{`{"error":""}`, ``, "", true},
	}
	for _, c := range good {
		r, msg, isErr, err := protocol.ParseEnvelope(c.in)
		if err != nil || string(r) != c.result || msg != c.errMsg || isErr != c.isErr {
			t.Errorf("%s = %s %q %v %v", c.in, r, msg, isErr, err)
		}
	}
	bad := map[string]string{
		``:                         "malformed envelope: not valid JSON: unexpected end of input",
		`{}`:                       "malformed envelope: it has neither a result nor an error",
		`{"result":1,"error":"x"}`: "malformed envelope: it has both a result and an error",
		`{"error":5}`:              `malformed envelope: "error" must be a string`,
		`{"error":null}`:           `malformed envelope: "error" must be a string`,
		`{"result":1,"extra":2}`:   `malformed envelope: unknown field "extra"`,
		`{"result":1,"result":2}`:  `malformed envelope: key "result" appears twice`,
		`[1]`:                      "malformed envelope: not a JSON object",
		`{"result":1} {}`:          "malformed envelope: trailing data after the JSON value",
		`{"Result":1}`:             `malformed envelope: unknown field "Result"`,
		`{"result":}`:              "",
		`null`:                     "malformed envelope: not a JSON object",
	}
	for in, want := range bad {
		_, _, _, err := protocol.ParseEnvelope(in)
		if protocol.CodeOf(err) != protocol.CodeMalformedMessage {
			t.Errorf("%q: err = %v", in, err)
		} else if want != "" && err.Error() != want {
			t.Errorf("%q: text = %q, want %q", in, err, want)
		}
	}
}

func TestEnvelopeType(t *testing.T) {
	msg := "boom"
	for _, c := range []struct {
		env  protocol.Envelope
		json string
	}{
		{protocol.Envelope{Result: json.RawMessage(`null`)}, `{"result":null}`},
		{protocol.Envelope{Result: json.RawMessage(`{"a":1}`)}, `{"result":{"a":1}}`},
		{protocol.Envelope{Error: &msg}, `{"error":"boom"}`},
	} {
		b, err := json.Marshal(c.env)
		if err != nil || string(b) != c.json {
			t.Errorf("%+v = %s, %v", c.env, b, err)
		}
		var back protocol.Envelope
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, c.env) {
			t.Errorf("%s -> %+v, %v", b, back, err)
		}
	}
	for _, bad := range []protocol.Envelope{{}, {Result: json.RawMessage(`1`), Error: &msg}, {Result: json.RawMessage(`{`)}} {
		if _, err := json.Marshal(bad); err == nil {
			t.Errorf("%+v encoded", bad)
		}
	}
	var e protocol.Envelope
	if err := json.Unmarshal([]byte(`{"result":1,"x":2}`), &e); err == nil {
		t.Error("extra key decoded")
	}
}

func TestEnvelopeDispatch(t *testing.T) {
	var got []string
	d := protocol.NewEnvelopeDispatch(func(ctx context.Context, provider, tool string, args []any) (any, error) {
		got = append(got, fmt.Sprintf("%s.%s%v", provider, tool, args))
		switch tool {
		case "fail":
			return nil, errors.New("not found: user 7")
		case "failEmpty":
			return nil, errors.New("")
		case "coded":
			return nil, protocol.NewError(protocol.CodeTimeout, "upstream timed out")
		case "panic":
			panic("kaboom")
		case "chan":
			return make(chan int), nil
		case "bytes":
			return []byte("hi"), nil
		}
		return map[string]any{"n": len(args)}, nil
	})
	ctx := context.Background()
	cases := []struct{ tool, args, want string }{
		{"get", `[1,2]`, `{"result":{"n":2}}`},
		{"get", ``, `{"result":{"n":0}}`},
		{"get", `{"id":1}`, `{"result":{"n":1}}`},
		{"bytes", ``, `{"result":{"$binary":"aGk="}}`},
		{"fail", `[]`, `{"error":"not found: user 7"}`},
		{"failEmpty", `[]`, `{"error":"tool store.failEmpty failed"}`},
		{"coded", `[]`, `{"error":"upstream timed out"}`},
		{"panic", `[]`, `{"error":"tool store.panic panicked: kaboom"}`},
		{"chan", `[]`, `{"error":"tool store.chan returned a value that cannot cross as JSON: json: unsupported type: chan int"}`},
		{"get", `[1,`, `{"error":"tool store.get: tool arguments are not valid JSON: unexpected end of JSON input"}`},
	}
	for _, c := range cases {
		if env := d.Dispatch(ctx, "store", c.tool, c.args); env != c.want {
			t.Errorf("%s(%s) = %s\nwant %s", c.tool, c.args, env, c.want)
		}
	}
	if len(got) != len(cases)-1 {
		t.Errorf("responder called %d times: %v", len(got), got)
	}
	if d.Closed() {
		t.Error("Closed before Close")
	}
	d.Close()
	d.Close()
	if !d.Closed() {
		t.Error("not Closed after Close")
	}
	before := len(got)
	for _, args := range []string{`[]`, `[1,`} {
		if env := d.Dispatch(ctx, "store", "get", args); env != protocol.ExecutionCompletedEnvelope {
			t.Errorf("after Close: %s", env)
		}
	}
	if len(got) != before {
		t.Error("responder called after Close")
	}
}

func TestNewEnvelopeDispatchNil(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	protocol.NewEnvelopeDispatch(nil)
}

// Close under concurrent dispatches: no call begun after Close returns
// reaches the responder, and the calls in flight see their contexts
// cancelled with the completed cause.
func TestEnvelopeDispatchCloseConcurrent(t *testing.T) {
	var closed atomic.Bool
	var lateCalls, calls atomic.Int64 // late: begun after Close returned
	inFlight := make(chan struct{})
	var once sync.Once
	d := protocol.NewEnvelopeDispatch(func(ctx context.Context, provider, tool string, args []any) (any, error) {
		calls.Add(1)
		if len(args) > 1 && args[1] == true {
			lateCalls.Add(1)
		}
		if tool == "block" {
			once.Do(func() { close(inFlight) })
			<-ctx.Done()
			return nil, context.Cause(ctx)
		}
		return args[0], nil
	})

	blocked := make(chan string)
	go func() { blocked <- d.Dispatch(context.Background(), "p", "block", "") }()
	<-inFlight

	var wg sync.WaitGroup
	stop := make(chan struct{})
	var completed atomic.Int64
	for w := range 8 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				afterClose := closed.Load()
				env := d.Dispatch(context.Background(), "p", "echo", fmt.Sprintf("[%d,%v]", w*1000+i, afterClose))
				switch {
				case env == protocol.ExecutionCompletedEnvelope:
					completed.Add(1)
				case afterClose:
					t.Errorf("dispatch begun after Close answered %s", env)
					return
				case env != fmt.Sprintf(`{"result":%d}`, w*1000+i):
					t.Errorf("dispatch answered %s", env)
					return
				}
			}
		})
	}
	time.Sleep(5 * time.Millisecond)
	d.Close()
	closed.Store(true)
	if env := <-blocked; env != `{"error":"Execution has already completed."}` {
		t.Errorf("in-flight call answered %s", env)
	}
	time.Sleep(5 * time.Millisecond)
	close(stop)
	wg.Wait()
	if lateCalls.Load() != 0 {
		t.Errorf("%d calls begun after Close returned reached the responder", lateCalls.Load())
	}
	if completed.Load() == 0 || calls.Load() < 2 {
		t.Errorf("calls %d, completed answers %d", calls.Load(), completed.Load())
	}
}

// A caller's own cancellation reaches the responder.
func TestEnvelopeDispatchCallerContext(t *testing.T) {
	d := protocol.NewEnvelopeDispatch(func(ctx context.Context, provider, tool string, args []any) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if env := d.Dispatch(ctx, "p", "t", ""); env != `{"error":"context canceled"}` {
		t.Errorf("got %s", env)
	}
}
