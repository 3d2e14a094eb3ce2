package protocol

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Base64 is a byte slice that crosses the wire as one standard base64
// string (RFC 4648 section 4, with padding): request and response bodies
// and saved states. A nil Base64 is null, and so absent where the field
// is omitzero.
type Base64 []byte

// MarshalJSON encodes b as a base64 string, or null when b is nil.
func (b Base64) MarshalJSON() ([]byte, error) {
	if b == nil {
		return []byte("null"), nil
	}
	out := make([]byte, 0, base64.StdEncoding.EncodedLen(len(b))+2)
	out = append(out, '"')
	out = base64.StdEncoding.AppendEncode(out, b)
	return append(out, '"'), nil
}

// UnmarshalJSON decodes a base64 string, or null, into b.
func (b *Base64) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if string(data) == "null" {
		*b = nil
		return nil
	}
	var s string
	if jsonKind(data) != "a string" || json.Unmarshal(data, &s) != nil {
		return fmt.Errorf("a base64 value must be a string, not %s", jsonKind(data))
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return errors.New("a base64 value is not valid: " + err.Error())
	}
	*b = raw
	if *b == nil {
		*b = []byte{}
	}
	return nil
}

// OutboundRequest is one HTTP request a program's fetch makes, as plain
// data: what a stub performer receives, and what the wire's fetch
// message carries. Header names keep the case and order the program gave
// them; a name may repeat.
type OutboundRequest struct {
	// Method is the HTTP method, upper case ("GET", "POST").
	Method string `json:"method" proto:"required,nonempty"`
	// URL is the absolute http or https URL.
	URL string `json:"url" proto:"required,nonempty"`
	// Headers are the request's header fields, each [name, value].
	Headers [][2]string `json:"headers,omitzero"`
	// Body is the request body; nil for none.
	Body Base64 `json:"body,omitzero"`
}

// OutboundResponse is the answer to an [OutboundRequest], as plain data.
type OutboundResponse struct {
	// Status is the HTTP status code, 200 to 599.
	Status int `json:"status" proto:"required"`
	// StatusText is the reason phrase ("OK"); empty for the standard
	// one of Status.
	StatusText string `json:"statusText,omitempty"`
	// Headers are the response's header fields, each [name, value].
	Headers [][2]string `json:"headers,omitzero"`
	// Body is the whole response body.
	Body Base64 `json:"body,omitzero"`
	// URL is the URL that answered, after redirects; empty for the
	// request's.
	URL string `json:"url,omitempty"`
}

func (r OutboundResponse) validate() error {
	if r.Status < 200 || r.Status > 599 {
		return fmt.Errorf(`"status" is %d; an HTTP status is 200 to 599`, r.Status)
	}
	return nil
}

// FetchFunc performs one outbound request for a program (the stub
// outbound mode): the seed's OutboundFetchFn. Its error rejects the
// program's fetch with the error's text, as a network failure does.
type FetchFunc func(ctx context.Context, req OutboundRequest) (OutboundResponse, error)

// HeaderValue returns the first value of the header name (case
// insensitive) in headers, and whether there was one.
func HeaderValue(headers [][2]string, name string) (string, bool) {
	for _, h := range headers {
		if strings.EqualFold(h[0], name) {
			return h[1], true
		}
	}
	return "", false
}

// IsToken reports whether s is an HTTP token (RFC 9110 section 5.6.2): a
// valid method or header name.
func IsToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}
