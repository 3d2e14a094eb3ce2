package openapi

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
)

// AuthResolver answers a credential for one security scheme of one call.
// It runs at call time, after the input has been checked (so a refresh is
// never spent on a call that would fail anyway), once per scheme of the
// security requirement being tried. A nil credential means "not
// available": the next alternative requirement is tried, and when none is
// left the call fails with
//
//	GET /pets requires authentication; no credential available for: petstore_auth, api_key.
//
// unless the host set Options.Headers or Options.Decorate: it has then
// taken charge of authentication, and the request goes out without a
// resolved credential.
//
// Documents often declare schemes their deployment does not use (Petstore
// declares oauth2 on addPet; the server wants its api_key header), so a
// resolver may answer any scheme with any kind of credential and the
// request carries what it answered: a bearer or basic credential goes in
// Authorization, a header credential in its header, and an apiKey
// credential where the scheme says, for an apiKey scheme, or else in the
// header its Name gives, or else where the document's only apiKey scheme
// says.
//
// An error fails the call at once; its text does not reach the program
// (errors.Unwrap on the call's error gives it back). Credentials are never
// part of the tools' schemas, the catalog, a Result or an error message.
type AuthResolver func(ctx context.Context, req AuthRequest) (*Credential, error)

// AuthRequest is what an AuthResolver is asked for.
type AuthRequest struct {
	// Name is the security scheme's name in components.securitySchemes.
	Name string
	// Scheme is its definition.
	Scheme SecurityScheme
	// Scopes are the scopes the requirement lists (never nil).
	Scopes []string
	// Operation is the operation being called.
	Operation Operation
}

// CredentialType says how a Credential is sent.
type CredentialType int

const (
	// BearerCredential sends "Authorization: Bearer <Token>".
	BearerCredential CredentialType = iota + 1
	// BasicCredential sends "Authorization: Basic <base64(Username:Password)>"
	// (UTF-8).
	BasicCredential
	// APIKeyCredential sends Value where the apiKey scheme says: the
	// header or query parameter it names. For another kind of scheme it
	// goes in the header Name, when set, or else where the document's
	// only apiKey scheme says.
	APIKeyCredential
	// HeaderCredential sends Value in the header Name, for schemes the
	// document cannot describe.
	HeaderCredential
)

// Credential is one secret and how to send it. Build one with Bearer,
// Basic, APIKey or Header. Its String method never shows the secret.
type Credential struct {
	Type     CredentialType
	Token    string // BearerCredential
	Username string // BasicCredential
	Password string // BasicCredential
	Name     string // HeaderCredential: the header's name; APIKeyCredential: see APIKeyCredential
	Value    string // APIKeyCredential and HeaderCredential
}

// Bearer is a bearer token credential.
func Bearer(token string) *Credential { return &Credential{Type: BearerCredential, Token: token} }

// Basic is an HTTP basic credential.
func Basic(username, password string) *Credential {
	return &Credential{Type: BasicCredential, Username: username, Password: password}
}

// APIKey is the value of an apiKey scheme.
func APIKey(value string) *Credential { return &Credential{Type: APIKeyCredential, Value: value} }

// Header is a header to send as is.
func Header(name, value string) *Credential {
	return &Credential{Type: HeaderCredential, Name: name, Value: value}
}

// String describes the credential without its secret.
func (c Credential) String() string {
	switch c.Type {
	case BearerCredential:
		return "bearer credential (redacted)"
	case BasicCredential:
		return fmt.Sprintf("basic credential for %q (redacted)", c.Username)
	case APIKeyCredential:
		return "apiKey credential (redacted)"
	case HeaderCredential:
		return fmt.Sprintf("header credential %q (redacted)", c.Name)
	}
	return "invalid credential"
}

// GoString keeps %#v from printing the secret too.
func (c Credential) GoString() string { return c.String() }

// BearerToken is an AuthResolver that answers token for every scheme that
// takes a bearer token: http bearer, oauth2 and openIdConnect. Other
// schemes get no credential.
func BearerToken(token string) AuthResolver {
	return func(_ context.Context, req AuthRequest) (*Credential, error) {
		s := req.Scheme
		if (s.Type == "http" && s.Scheme == "bearer") || s.Type == "oauth2" || s.Type == "openIdConnect" {
			return Bearer(token), nil
		}
		return nil, nil
	}
}

// Credentials is an AuthResolver that answers from a fixed map of scheme
// names to credentials.
func Credentials(byScheme map[string]*Credential) AuthResolver {
	return func(_ context.Context, req AuthRequest) (*Credential, error) {
		return byScheme[req.Name], nil
	}
}

// applied is what the credentials of one requirement add to a request.
type applied struct {
	headers map[string]string // lower-case names
	query   [][2]string
}

type resolved struct {
	name   string
	scheme SecurityScheme
	cred   *Credential
}

// authenticate tries the plan's security requirements in order (see
// AuthResolver) and returns what the first satisfiable one adds.
func (p *plan) authenticate(ctx context.Context) (*applied, error) {
	if len(p.security) == 0 {
		return nil, nil
	}
	var unavailable []string
	resolver := p.call.auth
alternatives:
	for _, r := range p.security {
		if len(r.names) == 0 {
			return nil, nil
		}
		var creds []resolved
		for i, name := range r.names {
			scheme, ok := p.schemes[name]
			if !ok || resolver == nil {
				unavailable = append(unavailable, name)
				continue alternatives
			}
			scopes := r.scopes[i]
			if scopes == nil {
				scopes = []string{}
			}
			cred, err := resolver(ctx, AuthRequest{Name: name, Scheme: scheme, Scopes: scopes, Operation: p.op})
			if err != nil {
				return nil, p.fail(err, "%s %s failed: no credential could be resolved for '%s'.", p.op.Method, p.op.Path, name)
			}
			if cred == nil {
				unavailable = append(unavailable, name)
				continue alternatives
			}
			creds = append(creds, resolved{name, scheme, cred})
		}
		return p.apply(creds)
	}
	if p.call.hostAuth() {
		return nil, nil // the host's headers or Decorate authenticate
	}
	var names []string
	for _, n := range unavailable {
		if !contains(names, n) {
			names = append(names, n)
		}
	}
	return nil, p.fail(nil, "%s %s requires authentication; no credential available for: %s.", p.op.Method, p.op.Path, strings.Join(names, ", "))
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func (p *plan) apply(creds []resolved) (*applied, error) {
	a := &applied{headers: map[string]string{}}
	add := func(carrier, name, value string) error {
		dup := false
		if carrier == "header" {
			_, dup = a.headers[name]
		} else {
			for _, q := range a.query {
				dup = dup || q[0] == name
			}
		}
		if dup {
			return p.fail(nil, "Authentication resolves multiple credentials for %s '%s'.", carrier, name)
		}
		if carrier == "header" && !validHeaderValue(value) {
			return p.fail(nil, "%s %s failed: the credential for '%s' is not a valid HTTP value.", p.op.Method, p.op.Path, name)
		}
		if carrier == "header" {
			a.headers[name] = value
		} else {
			a.query = append(a.query, [2]string{name, value})
		}
		return nil
	}
	for _, c := range creds {
		var err error
		switch c.cred.Type {
		case BearerCredential:
			err = add("header", "authorization", "Bearer "+c.cred.Token)
		case BasicCredential:
			err = add("header", "authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(c.cred.Username+":"+c.cred.Password)))
		case HeaderCredential:
			if !validHeaderName(c.cred.Name) {
				return nil, p.fail(nil, "%s %s failed: the credential for '%s' names an invalid header.", p.op.Method, p.op.Path, c.name)
			}
			err = add("header", strings.ToLower(c.cred.Name), c.cred.Value)
		case APIKeyCredential:
			scheme, ok := p.apiKeyScheme(c)
			switch {
			case !ok && c.cred.Name != "":
				if !validHeaderName(c.cred.Name) {
					return nil, p.fail(nil, "%s %s failed: the credential for '%s' names an invalid header.", p.op.Method, p.op.Path, c.name)
				}
				err = add("header", strings.ToLower(c.cred.Name), c.cred.Value)
			case !ok:
				return nil, p.fail(nil, "Security scheme '%s' is not an apiKey scheme and the document declares no single apiKey scheme to send the key as; give the apiKey credential a header Name, or resolve a bearer, basic, or header credential.", c.name)
			case scheme.In == "cookie":
				return nil, p.fail(nil, "Cookie authentication '%s' is not supported.", c.name)
			case scheme.In == "header":
				err = add("header", strings.ToLower(scheme.Name), c.cred.Value)
			default:
				err = add("query", scheme.Name, c.cred.Value)
			}
		default:
			return nil, p.fail(nil, "%s %s failed: the credential for '%s' has no type.", p.op.Method, p.op.Path, c.name)
		}
		if err != nil {
			return nil, err
		}
	}
	return a, nil
}

// apiKeyScheme says where an apiKey credential goes: its own scheme when
// that is an apiKey scheme; else, unless the credential names a header,
// the document's only apiKey scheme.
func (p *plan) apiKeyScheme(c resolved) (SecurityScheme, bool) {
	if c.scheme.Type == "apiKey" {
		return c.scheme, true
	}
	if c.cred.Name != "" {
		return SecurityScheme{}, false
	}
	var only SecurityScheme
	n := 0
	for _, s := range p.schemes {
		if s.Type == "apiKey" {
			only, n = s, n+1
		}
	}
	return only, n == 1
}
