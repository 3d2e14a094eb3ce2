package protocol_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-codemode/codemode/protocol"
)

func sampleMessages() []protocol.Message {
	f := false
	return []protocol.Message{
		&protocol.HelloMessage{ID: "h1", Version: 1, Token: "secret"},
		&protocol.HelloMessage{ID: "h2", Version: 1},
		&protocol.HelloAckMessage{ID: "h1", Version: 1},
		&protocol.ExecuteMessage{ID: "e1", Code: "async () => 1"},
		&protocol.ExecuteMessage{
			ID:   "e2",
			Code: "import cfg from \"cfg\"\nasync () => store.get(cfg.key)",
			Providers: []protocol.ProviderDescriptor{
				{Name: "store", Tools: []string{"get", "put"}, PositionalArgs: &f,
					Schemas:      map[string]json.RawMessage{"get": json.RawMessage(`{"type":"object"}`)},
					Descriptions: map[string]string{"put": "Writes <a> key & value."}},
				{Name: "empty", Tools: []string{}},
				{Name: "none"},
			},
			Modules: protocol.ModuleMap{
				"cfg":  protocol.JSONModule(json.RawMessage(`{"key":"k"}`)),
				"util": protocol.JSModule("export const x = 1"),
				"old":  protocol.CJSModule("module.exports = 2"),
				"txt":  protocol.TextModule("hello"),
			},
			Options: protocol.ExecuteOptions{
				Timeout: protocol.TimeoutMillis(1500), CountHostWaits: true, RetainHandles: true,
				Outbound: protocol.OutboundDisabled,
			},
		},
		&protocol.ExecuteMessage{ID: "e3", Code: "x", Options: protocol.ExecuteOptions{Timeout: protocol.UnboundedTimeout()}},
		&protocol.ResultMessage{ID: "e1", ResultJSON: json.RawMessage(`{"a":[1,null,"<"]}`),
			Logs: []protocol.LogLine{{Level: "log", Text: "hi"}, {Level: "warn", Text: protocol.ConsoleCaptureMessage}}},
		&protocol.ResultMessage{ID: "e1", ResultJSON: json.RawMessage(`null`)},
		&protocol.ResultMessage{ID: "e1"},
		&protocol.ResultMessage{ID: "e1", Error: &protocol.Error{Code: protocol.CodeTimeout, Message: protocol.TimeoutMessage}},
		&protocol.ResultMessage{ID: "e1", Error: &protocol.Error{Message: "TypeError: x is not a function"}, Logs: []protocol.LogLine{}},
		&protocol.ResultMessage{ID: "e1", ResultJSON: json.RawMessage(`1`), ExecutionID: "x1", Handles: []string{"fetch"}},
		&protocol.DispatchMessage{ID: "e1", CallID: "c1", Provider: "store", Tool: "get", Args: `[{"id":1}]`},
		&protocol.DispatchMessage{ID: "e1", CallID: "c2", Provider: "store", Tool: "get"},
		&protocol.DispatchResultMessage{ID: "e1", CallID: "c1", Envelope: `{"result":null}`},
		&protocol.DispatchResultMessage{ID: "e1", CallID: "c1", Envelope: protocol.ExecutionCompletedEnvelope},
		&protocol.InvokeHandleMessage{ID: "i1", ExecutionID: "x1", Handle: "fetch", Args: `[1]`},
		&protocol.InvokeHandleMessage{ID: "i2", ExecutionID: "x1", Handle: "fetch"},
		&protocol.CloseHandlesMessage{ID: "c1", ExecutionID: "x1"},
		&protocol.CancelMessage{ID: "e1"},
		&protocol.ErrorMessage{ID: "e1", Code: protocol.CodeUnknownExecution, Message: "no execution x9"},
		&protocol.ErrorMessage{Code: protocol.CodeMalformedMessage, Message: "bad frame"},
		&protocol.ErrorMessage{Code: "FUTURE_CODE", Message: "a code this version does not know"},
		&protocol.FetchMessage{ID: "e1", CallID: "f1", Request: protocol.OutboundRequest{Method: "POST", URL: "https://api.example/x",
			Headers: [][2]string{{"Content-Type", "application/json"}, {"X-A", "1"}, {"x-a", "2"}}, Body: protocol.Base64(`{"a":1}`)}},
		&protocol.FetchMessage{ID: "e1", CallID: "f2", Request: protocol.OutboundRequest{Method: "GET", URL: "https://api.example/"}},
		&protocol.FetchResultMessage{ID: "e1", CallID: "f1", Response: &protocol.OutboundResponse{Status: 201, StatusText: "Created",
			Headers: [][2]string{{"content-type", "text/plain"}}, Body: protocol.Base64("\x00\xffok"), URL: "https://api.example/y"}},
		&protocol.FetchResultMessage{ID: "e1", CallID: "f2", Response: &protocol.OutboundResponse{Status: 204, Body: protocol.Base64{}}},
		&protocol.FetchResultMessage{ID: "e1", CallID: "f3", Error: "connection refused"},
		&protocol.ResultMessage{ID: "e1", Error: &protocol.Error{Code: protocol.CodeSuspended, Message: "saved"}, State: protocol.Base64("CMST\x01\x02")},
		&protocol.ResumeMessage{ID: "r1", State: protocol.Base64("CMST\x01\x02"), Providers: []protocol.ProviderDescriptor{{Name: "store", Tools: []string{"get"}}},
			Options: protocol.ExecuteOptions{Timeout: protocol.TimeoutMillis(5000)}},
	}
}

func TestMessagesRoundTrip(t *testing.T) {
	for _, m := range sampleMessages() {
		b, err := protocol.Encode(m)
		if err != nil {
			t.Errorf("Encode(%+v): %v", m, err)
			continue
		}
		if !strings.HasPrefix(string(b), `{"type":"`+string(m.Type())+`"`) {
			t.Errorf("frame does not lead with its type: %s", b)
		}
		back, err := protocol.Decode(b)
		if err != nil {
			t.Errorf("Decode(%s): %v", b, err)
			continue
		}
		if !reflect.DeepEqual(back, m) {
			t.Errorf("round trip of %s\n got %#v\nwant %#v", b, back, m)
		}
		if back.CorrelationID() != m.CorrelationID() || back.Type() != m.Type() {
			t.Errorf("methods differ for %s", b)
		}
		// json.Marshal and json.Unmarshal go through the same methods.
		// (json.Marshal escapes HTML characters inside raw JSON values,
		// so the frames compare, not the messages.)
		jb, err := json.Marshal(m)
		if err != nil {
			t.Errorf("json.Marshal: %v", err)
			continue
		}
		fresh := reflect.New(reflect.TypeOf(m).Elem()).Interface()
		if err := json.Unmarshal(jb, fresh); err != nil {
			t.Errorf("json.Unmarshal(%s): %v", jb, err)
			continue
		}
		if again, err := json.Marshal(fresh); err != nil || string(again) != string(jb) {
			t.Errorf("json round trip of %s = %s, %v", jb, again, err)
		}
	}
}

func TestMessageWireForm(t *testing.T) {
	for _, c := range []struct {
		m    protocol.Message
		want string
	}{
		{&protocol.HelloMessage{ID: "1", Version: 1}, `{"type":"hello","id":"1","version":1}`},
		{&protocol.ExecuteMessage{ID: "1", Code: "() => '<&>'", Options: protocol.ExecuteOptions{Timeout: protocol.UnboundedTimeout()}},
			`{"type":"execute","id":"1","code":"() => '<&>'","options":{"timeout":null}}`},
		{&protocol.ExecuteMessage{ID: "1", Code: "x", Modules: protocol.ModuleMap{"a": protocol.JSModule("y")}},
			`{"type":"execute","id":"1","code":"x","modules":{"a":{"js":"y"}}}`},
		{&protocol.ResultMessage{ID: "1", ResultJSON: json.RawMessage(`[1, 2]`)}, `{"type":"result","id":"1","resultJson":[1,2]}`},
		{&protocol.ResultMessage{ID: "1", Error: &protocol.Error{Message: "boom"}}, `{"type":"result","id":"1","error":{"message":"boom"}}`},
		{&protocol.DispatchMessage{ID: "1", CallID: "2", Provider: "p", Tool: "t"},
			`{"type":"dispatch","id":"1","callId":"2","provider":"p","tool":"t","args":""}`},
		{&protocol.ErrorMessage{Code: protocol.CodeInternal, Message: "x"}, `{"type":"error","code":"INTERNAL","message":"x"}`},
		{protocol.CancelMessage{ID: "9"}, `{"type":"cancel","id":"9"}`},
	} {
		b, err := protocol.Encode(c.m)
		if err != nil || string(b) != c.want {
			t.Errorf("Encode = %s, %v\nwant %s", b, err, c.want)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	cases := map[string]string{
		``:        "malformed message: not valid JSON: unexpected end of input",
		`[]`:      "malformed message: not a JSON object",
		`"hello"`: "malformed message: not a JSON object",
		`{"type":"hello","id":"1","version":1} {}`:                                                 "malformed message: trailing data after the JSON value",
		`{"type":"hello","id":"1","version":1}]`:                                                   "",
		`{"type":"hello","id":"1","version":1`:                                                     "malformed message: not valid JSON: unexpected end of input",
		`{"id":"1"}`:                                                                               `malformed message: "type" is missing`,
		`{"type":5,"id":"1"}`:                                                                      `malformed message: "type" must be a string, not a number`,
		`{"type":"nope","id":"1"}`:                                                                 `malformed message: unknown message type "nope"`,
		`{"type":"Hello","id":"1","version":1}`:                                                    `malformed message: unknown message type "Hello"`,
		`{"type":"hello","version":1}`:                                                             `malformed message: "id" is missing`,
		`{"type":"hello","id":"","version":1}`:                                                     `malformed message: "id" must not be empty`,
		`{"type":"hello","id":7,"version":1}`:                                                      `malformed message: "id" must be a string, not a number`,
		`{"type":"hello","id":null,"version":1}`:                                                   `malformed message: "id" must be a string, not null`,
		`{"type":"hello","id":"1"}`:                                                                `malformed message: "version" is missing`,
		`{"type":"hello","id":"1","version":"1"}`:                                                  `malformed message: "version" must be an integer, not a string`,
		`{"type":"hello","id":"1","version":1.5}`:                                                  `malformed message: "version" must be an integer, not 1.5`,
		`{"type":"hello","id":"1","version":1,"extra":true}`:                                       `malformed message: unknown field "extra"`,
		`{"type":"hello","ID":"1","version":1}`:                                                    `malformed message: unknown field "ID"`,
		`{"type":"hello","id":"1","id":"2","version":1}`:                                           `malformed message: key "id" appears twice`,
		`{"type":"hello","type":"hello","id":"1","version":1}`:                                     `malformed message: key "type" appears twice`,
		`{"type":"execute","id":"1"}`:                                                              `malformed message: "code" is missing`,
		`{"type":"execute","id":"1","code":"x","providers":{}}`:                                    `malformed message: "providers" must be an array, not an object`,
		`{"type":"execute","id":"1","code":"x","providers":[5]}`:                                   `malformed message: "providers[0]" must be an object, not a number`,
		`{"type":"execute","id":"1","code":"x","providers":[{}]}`:                                  `malformed message: "providers[0].name" is missing`,
		`{"type":"execute","id":"1","code":"x","providers":[{"name":"a","tools":"b"}]}`:            `malformed message: "providers[0].tools" must be an array, not a string`,
		`{"type":"execute","id":"1","code":"x","providers":[{"name":"a","tools":[1]}]}`:            `malformed message: "providers[0].tools[0]" must be a string, not a number`,
		`{"type":"execute","id":"1","code":"x","providers":[{"name":"a","positionalArgs":"yes"}]}`: `malformed message: "providers[0].positionalArgs" must be a boolean, not a string`,
		`{"type":"execute","id":"1","code":"x","providers":[{"name":"a","nick":"b"}]}`:             `malformed message: "providers[0]" has unknown field "nick"`,
		`{"type":"execute","id":"1","code":"x","modules":[]}`:                                      `malformed message: "modules" must be an object, not an array`,
		`{"type":"execute","id":"1","code":"x","modules":{"a":5}}`:                                 `malformed message: modules["a"]: module source must be a string or an object keyed js, cjs, json or text, not a number`,
		`{"type":"execute","id":"1","code":"x","modules":{"a":{"js":"x","text":"y"}}}`:             `malformed message: modules["a"]: module source names 2 kinds ("js" and "text"); name exactly one`,
		`{"type":"execute","id":"1","code":"x","modules":{"":"x"}}`:                                `malformed message: "modules": module map has an empty module name`,
		`{"type":"execute","id":"1","code":"x","modules":{"a":"x","a":"y"}}`:                       `malformed message: "modules": key "a" appears twice`,
		`{"type":"execute","id":"1","code":"x","options":null}`:                                    `malformed message: "options" must be an object, not null`,
		`{"type":"execute","id":"1","code":"x","options":{"timout":1}}`:                            `malformed message: "options" has unknown field "timout"`,
		`{"type":"execute","id":"1","code":"x","options":{"timeout":0}}`:                           `malformed message: "options.timeout": timeout must be a positive whole number of milliseconds, or null`,
		`{"type":"execute","id":"1","code":"x","options":{"timeout":-5}}`:                          `malformed message: "options.timeout": timeout must be a positive whole number of milliseconds, or null`,
		`{"type":"execute","id":"1","code":"x","options":{"timeout":1.5}}`:                         `malformed message: "options.timeout": timeout must be a positive whole number of milliseconds, or null`,
		`{"type":"execute","id":"1","code":"x","options":{"timeout":"5"}}`:                         `malformed message: "options.timeout": timeout must be a positive whole number of milliseconds, or null`,
		`{"type":"execute","id":"1","code":"x","options":{"timeout":1e30}}`:                        `malformed message: "options.timeout": timeout must be a positive whole number of milliseconds, or null`,
		`{"type":"execute","id":"1","code":"x","options":{"outbound":"proxy"}}`:                    `malformed message: "options.outbound" is "proxy"; the outbound modes are native, stub and disabled`,
		`{"type":"execute","id":"1","code":"x","options":{"countHostWaits":1}}`:                    `malformed message: "options.countHostWaits" must be a boolean, not a number`,
		`{"type":"result","id":"1","resultJson":1,"error":{"message":"x"}}`:                        `malformed message: a result has both "resultJson" and "error"`,
		`{"type":"result","id":"1","handles":["a"]}`:                                               `malformed message: a result has "handles" without an "executionId"`,
		`{"type":"result","id":"1","error":"boom"}`:                                                `malformed message: "error" must be an object, not a string`,
		`{"type":"result","id":"1","error":{"code":"TIMEOUT"}}`:                                    `malformed message: "error.message" is missing`,
		`{"type":"result","id":"1","logs":[{"level":"","text":"x"}]}`:                              `malformed message: "logs[0].level" must not be empty`,
		`{"type":"result","id":"1","logs":[{"level":"log"}]}`:                                      `malformed message: "logs[0].text" is missing`,
		`{"type":"dispatch","id":"1","callId":"2","provider":"p","tool":"t"}`:                      `malformed message: "args" is missing`,
		`{"type":"dispatch","id":"1","callId":"2","provider":"p","tool":"t","args":[]}`:            `malformed message: "args" must be a string, not an array`,
		`{"type":"dispatchResult","id":"1","callId":"2","envelope":"{}"}`:                          `malformed message: "envelope" is not an envelope: it has neither a result nor an error`,
		`{"type":"dispatchResult","id":"1","callId":"2","envelope":{"result":1}}`:                  `malformed message: "envelope" must be a string, not an object`,
		`{"type":"invokeHandle","id":"1","executionId":"x"}`:                                       `malformed message: "handle" is missing`,
		`{"type":"closeHandles","id":"1"}`:                                                         `malformed message: "executionId" is missing`,
		`{"type":"cancel"}`:                                                                        `malformed message: "id" is missing`,
		`{"type":"error","message":"x"}`:                                                           `malformed message: "code" is missing`,
		`{"type":"error","code":"","message":"x"}`:                                                 `malformed message: "code" must not be empty`,
		`{"type":"fetch","id":"1","callId":"2"}`:                                                   `malformed message: "request" is missing`,
		`{"type":"fetch","id":"1","callId":"2","request":{"method":"GET"}}`:                        `malformed message: "request.url" is missing`,
		`{"type":"fetch","id":"1","callId":"2","request":{"method":"GET","url":"u","body":"*"}}`:   `malformed message: "request.body": a base64 value is not valid: illegal base64 data at input byte 0`,
		`{"type":"fetch","id":"1","callId":"2","request":{"method":"GET","url":"u","body":[1]}}`:   `malformed message: "request.body": a base64 value must be a string, not an array`,
		`{"type":"fetchResult","id":"1","callId":"2"}`:                                             `malformed message: a fetch result has exactly one of "response" and "error"`,
		`{"type":"fetchResult","id":"1","callId":"2","response":{"status":200},"error":"x"}`:       `malformed message: a fetch result has exactly one of "response" and "error"`,
		`{"type":"fetchResult","id":"1","callId":"2","response":{"status":99}}`:                    `malformed message: "response": "status" is 99; an HTTP status is 200 to 599`,
		`{"type":"result","id":"1","state":"AAAA"}`:                                                `malformed message: a result has a "state" without an error of code SUSPENDED`,
		`{"type":"resume","id":"1"}`:                                                               `malformed message: "state" is missing`,
	}
	for in, want := range cases {
		m, err := protocol.Decode([]byte(in))
		if protocol.CodeOf(err) != protocol.CodeMalformedMessage {
			t.Errorf("%s: got %#v, %v", in, m, err)
			continue
		}
		if m != nil {
			t.Errorf("%s: a message beside the error", in)
		}
		if want != "" && !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s:\n got %s\nwant %s", in, err, want)
		}
	}
}

func TestDecodeLimit(t *testing.T) {
	frame := []byte(`{"type":"cancel","id":"1"}`)
	if _, err := protocol.DecodeLimit(frame, len(frame)); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	_, err := protocol.DecodeLimit(frame, len(frame)-1)
	if protocol.CodeOf(err) != protocol.CodePayloadTooLarge || err.Error() != "message of 26 bytes exceeds the limit of 25 bytes" {
		t.Errorf("over the limit: %v", err)
	}
	big := make([]byte, protocol.MaxFrameSize+1)
	if _, err := protocol.Decode(big); protocol.CodeOf(err) != protocol.CodePayloadTooLarge {
		t.Errorf("over MaxFrameSize: %v", err)
	}
}

func TestDecodeNormalizes(t *testing.T) {
	m, err := protocol.Decode([]byte(` { "type" : "result", "id":"\u0031", "resultJson" : [ 1 , { "a" : 2 } ] } `))
	if err != nil {
		t.Fatal(err)
	}
	r := m.(*protocol.ResultMessage)
	if r.ID != "1" || string(r.ResultJSON) != `[1,{"a":2}]` {
		t.Errorf("got %+v", r)
	}
	m, err = protocol.Decode([]byte(`{"type":"execute","id":"1","code":"x","options":{"timeout":1e3},"modules":{"a":"src"}}`))
	if err != nil {
		t.Fatal(err)
	}
	e := m.(*protocol.ExecuteMessage)
	if ms, ok := e.Options.Timeout.Millis(); !ok || ms != 1000 || !reflect.DeepEqual(e.Modules["a"], protocol.JSModule("src")) {
		t.Errorf("got %+v", e)
	}
}

func TestEncodeRejects(t *testing.T) {
	for _, c := range []struct {
		m    protocol.Message
		want string
	}{
		{&protocol.HelloMessage{Version: 1}, `message cannot be encoded: "id" must not be empty`},
		{(*protocol.HelloMessage)(nil), "message cannot be encoded: it is nil"},
		{nil, "message cannot be encoded: it is nil"},
		{&protocol.DispatchMessage{ID: "1", CallID: "2", Provider: "p"}, `message cannot be encoded: "tool" must not be empty`},
		{&protocol.ResultMessage{ID: "1", Logs: []protocol.LogLine{{Text: "x"}}}, `message cannot be encoded: "logs[0].level" must not be empty`},
		{&protocol.ResultMessage{ID: "1", ResultJSON: json.RawMessage(`1`), Error: &protocol.Error{Message: "x"}}, `message cannot be encoded: a result has both "resultJson" and "error"`},
		{&protocol.ResultMessage{ID: "1", ResultJSON: json.RawMessage(`{`)}, "message cannot be encoded: "},
		{&protocol.ExecuteMessage{ID: "1", Options: protocol.ExecuteOptions{Outbound: "proxy"}}, `message cannot be encoded: "options.outbound" is "proxy"`},
		{&protocol.ExecuteMessage{ID: "1", Options: protocol.ExecuteOptions{Timeout: protocol.TimeoutMillis(0)}}, `message cannot be encoded: "options.timeout": timeout must be`},
		{&protocol.ExecuteMessage{ID: "1", Modules: protocol.ModuleMap{"a": {}}}, `message cannot be encoded: modules["a"]: module source has no kind`},
		{&protocol.ExecuteMessage{ID: "1", Providers: []protocol.ProviderDescriptor{{Name: "a", Schemas: map[string]json.RawMessage{"t": json.RawMessage(`{`)}}}}, "message cannot be encoded: "},
		{&protocol.DispatchResultMessage{ID: "1", CallID: "2", Envelope: `{}`}, `message cannot be encoded: "envelope" is not an envelope`},
		{&protocol.ErrorMessage{Message: "x"}, `message cannot be encoded: "code" must not be empty`},
	} {
		b, err := protocol.Encode(c.m)
		if protocol.CodeOf(err) != protocol.CodeMalformedMessage || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Encode(%#v) = %s, %v\nwant %s", c.m, b, err, c.want)
		}
	}
}

func TestUnmarshalMessageType(t *testing.T) {
	var h protocol.HelloMessage
	err := json.Unmarshal([]byte(`{"type":"cancel","id":"1"}`), &h)
	if err == nil || !strings.Contains(err.Error(), `type "cancel" where "hello" was expected`) {
		t.Errorf("err = %v", err)
	}
}

func TestPeekID(t *testing.T) {
	for in, want := range map[string]string{
		`{"type":"nope","id":"abc"}`: "abc",
		`{"id":"x","version":"bad"}`: "x",
		`{"id":5}`:                   "",
		`{"type":"hello"}`:           "",
		`not json`:                   "",
		`[1]`:                        "",
		`{"ID":"x"}`:                 "",
	} {
		if got := protocol.PeekID([]byte(in)); got != want {
			t.Errorf("PeekID(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestNewErrorMessage(t *testing.T) {
	m := protocol.NewErrorMessage("7", protocol.NewError(protocol.CodeQueueOverflow, "queue full"))
	if *m != (protocol.ErrorMessage{ID: "7", Code: protocol.CodeQueueOverflow, Message: "queue full"}) {
		t.Errorf("got %+v", m)
	}
	if e := m.Err(); e.Code != protocol.CodeQueueOverflow || e.Message != "queue full" {
		t.Errorf("Err = %+v", e)
	}
	m = protocol.NewErrorMessage("", strings.NewReader("").UnreadByte())
	if m.Code != protocol.CodeInternal || m.Message == "" {
		t.Errorf("plain error: %+v", m)
	}
}

func TestTimeout(t *testing.T) {
	const minute = time.Minute
	cases := []struct {
		t          protocol.Timeout
		def, limit time.Duration
		want       time.Duration
		str        string
	}{
		{protocol.DefaultTimeoutValue(), 0, 0, protocol.DefaultTimeout, "default"},
		{protocol.DefaultTimeoutValue(), 10 * time.Second, 0, 10 * time.Second, "default"},
		{protocol.DefaultTimeoutValue(), 5 * minute, 2 * minute, 2 * minute, "default"},
		{protocol.UnboundedTimeout(), 0, 0, protocol.MaxSupportedTimeout, "unbounded"},
		{protocol.UnboundedTimeout(), 0, 2 * minute, 2 * minute, "unbounded"},
		{protocol.UnboundedTimeout(), 0, 100 * 24 * time.Hour, protocol.MaxSupportedTimeout, "unbounded"},
		{protocol.TimeoutMillis(1500), 0, 0, 1500 * time.Millisecond, "1.5s"},
		{protocol.TimeoutMillis(1 << 62), 0, 0, protocol.MaxSupportedTimeout, ""},
		{protocol.TimeoutMillis(5000), 0, time.Second, time.Second, "5s"},
		{protocol.TimeoutOf(1500 * time.Microsecond), 0, 0, 2 * time.Millisecond, "2ms"},
	}
	for _, c := range cases {
		if got := c.t.Resolve(c.def, c.limit); got != c.want {
			t.Errorf("%v.Resolve(%v, %v) = %v, want %v", c.t, c.def, c.limit, got, c.want)
		}
		if c.str != "" && c.t.String() != c.str {
			t.Errorf("String = %q, want %q", c.t.String(), c.str)
		}
	}
	if !protocol.DefaultTimeoutValue().IsZero() || protocol.UnboundedTimeout().IsZero() || !protocol.UnboundedTimeout().IsUnbounded() {
		t.Error("IsZero / IsUnbounded")
	}
	if _, ok := protocol.UnboundedTimeout().Millis(); ok {
		t.Error("unbounded has millis")
	}
	var tm protocol.Timeout
	for in, want := range map[string]int64{`1`: 1, `60000`: 60000, `1e3`: 1000, `2.0`: 2, `2147483647`: 2147483647} {
		if err := json.Unmarshal([]byte(in), &tm); err != nil {
			t.Errorf("%s: %v", in, err)
		} else if ms, _ := tm.Millis(); ms != want {
			t.Errorf("%s = %d", in, ms)
		}
	}
	if err := json.Unmarshal([]byte(`null`), &tm); err != nil || !tm.IsUnbounded() {
		t.Errorf("null = %v, %v", tm, err)
	}
	if b, err := json.Marshal(protocol.DefaultTimeoutValue()); err != nil || string(b) != "null" {
		t.Errorf("absent alone = %s, %v", b, err)
	}
}
