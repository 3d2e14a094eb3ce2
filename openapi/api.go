package openapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/go-codemode/codemode/tools"
)

// DefaultMaxResponseBytes is the response size cap when
// Options.MaxResponseBytes is zero: 50 MiB, as in the reference.
const DefaultMaxResponseBytes = 50 << 20

// Options configure the conversion and the calls the tools make. The zero
// value works for a document whose servers give an absolute URL.
type Options struct {
	// BaseURL replaces every servers entry of the document (document, path
	// item and operation level): an absolute http or https URL without a
	// query string or fragment. Trailing slashes are dropped.
	BaseURL string
	// ServerVariables give values to the {variables} of a server URL,
	// ahead of the variables' declared defaults.
	ServerVariables map[string]string
	// Client sends the requests; nil means a client of its own with no
	// timeout and Go's default transport. The client owns the redirect
	// policy.
	Client *http.Client
	// Headers are sent with every request. Declared header parameters
	// replace them, authentication replaces both. The model never sees
	// them. Setting Headers takes charge of authentication: an operation
	// whose security requirements Auth cannot satisfy (or with no Auth)
	// is sent anyway, with these headers, rather than failing, since
	// documents often declare schemes their deployment does not use. See
	// HideParameters to keep a header parameter they fill from the model.
	Headers map[string]string
	// Auth resolves credentials for the operations' security
	// requirements at call time (see AuthResolver). It may answer any
	// scheme with any kind of credential (an apiKey credential for an
	// oauth2 scheme, a bearer token for an apiKey scheme), and the request
	// carries what it answered. Without Headers or Decorate, a call whose
	// requirements it cannot satisfy fails.
	Auth AuthResolver
	// Decorate, when set, sees every request last, after authentication,
	// just before it is sent: a place to sign it or add a token the
	// document does not declare. An error fails the call without the
	// error's text reaching the program (errors.Unwrap gives it back).
	// Setting Decorate takes charge of authentication, as Headers does: a
	// credential Auth cannot give is then no error.
	Decorate func(*http.Request) error
	// HideParameters names parameters the host fills, through Headers or
	// Decorate, and the model never sees (a credential declared as a
	// header parameter, say): they leave the tools' input schemas, and so
	// their signatures, and a call whose input holds one fails. An entry
	// is "in:name", in being query, header or cookie ("header:api_key"),
	// or a bare "name" for that name in any of these locations; header
	// names match in any case. Path parameters cannot be hidden. An entry
	// that matches no parameter of the document is an error.
	HideParameters []string
	// MaxResponseBytes caps a response body (DefaultMaxResponseBytes when
	// zero; a negative value means no cap).
	MaxResponseBytes int64
	// Timeout bounds each call, from building the request to reading the
	// response (0: none beyond the program's context).
	Timeout time.Duration
	// Description replaces the namespace description (by default the
	// document's info.description, or else its info.title).
	Description string
	// SkipValidation leaves out kin-openapi's validation of the document:
	// no Warnings, no Document, and a faster load.
	SkipValidation bool
}

// API is a converted document: the tools, the operations that could not
// become tools and why, and what kin-openapi found wrong with the
// document.
type API struct {
	// Title, Version and Description come from the document's info.
	Title, Version, Description string
	// OpenAPI is the document's version ("3.0.4", "3.1.0").
	OpenAPI string
	// Tools are the generated tools in document order.
	Tools []Tool
	// Skipped are the operations left out, in document order.
	Skipped []Skipped
	// Warnings are the document's problems as kin-openapi's validator
	// reports them. A document with warnings still converts: the
	// reference takes what it can, and so do we.
	Warnings []string
	// Document is the document as kin-openapi loaded it, nil when it
	// could not (see Warnings) or with SkipValidation.
	Document *openapi3.T

	description string
}

// Tool is one generated tool.
type Tool struct {
	// Name is the tool's dotted path inside the namespace ("users.get").
	Name string
	// Operation is the operation the tool calls.
	Operation Operation
	// Tool is the callable tool.
	Tool *tools.Tool
}

// Operation identifies an operation; the auth resolver and errors see it.
type Operation struct {
	OperationID string
	Method      string // upper case: "GET"
	Path        string // the path template as declared: "/users/{id}"
	Summary     string
	Description string
}

// Skipped is an operation that did not become a tool.
type Skipped struct {
	Method string // upper case
	Path   string
	Reason string
}

func (s Skipped) String() string { return s.Method + " " + s.Path + ": " + s.Reason }

// Namespace returns the tools as a namespace to put under a name of the
// host's choosing, Options.Tools["github"] = api.Namespace(): tool names
// with dots become nested namespaces.
func (a *API) Namespace() *tools.Namespace {
	root := map[string]any{}
	for _, t := range a.Tools {
		segs := strings.Split(t.Name, ".")
		m := root
		for _, s := range segs[:len(segs)-1] {
			next, ok := m[s].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[s] = next
			}
			m = next
		}
		m[segs[len(segs)-1]] = t.Tool
	}
	return &tools.Namespace{Description: a.description, Tools: root}
}

// Load converts an OpenAPI 3.0 or 3.1 document, JSON or YAML, into tools.
// One operation gives one tool, named and shaped as the reference does
// (see the package documentation); an operation that cannot be called
// faithfully is listed in API.Skipped with the reason. The error is for a
// document that is not one at all: not JSON or YAML, not an object, not
// OpenAPI 3, or an invalid option.
func Load(data []byte, opts Options) (*API, error) {
	root, err := parseDocument(data)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	doc, err := checkRoot(root)
	if err != nil {
		return nil, err
	}
	var validate func() (*openapi3.T, []string)
	if !opts.SkipValidation {
		validate = func() (*openapi3.T, []string) { return kinLoad(data, doc) }
	}
	return convert(doc, len(data), opts, validate)
}

// LoadFile reads a document from a file and converts it (see Load).
func LoadFile(path string, opts Options) (*API, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	return Load(data, opts)
}

// FromDocument converts a document kin-openapi has already loaded (see
// Load). kin-openapi keeps properties in maps, so their order is lost:
// they come out sorted by name.
func FromDocument(doc *openapi3.T, opts Options) (*API, error) {
	if doc == nil {
		return nil, errors.New("openapi: the document is nil")
	}
	data, err := marshalKin(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi: the document does not marshal: %w", err)
	}
	root, err := parseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	o, err := checkRoot(root)
	if err != nil {
		return nil, err
	}
	var validate func() (*openapi3.T, []string)
	if !opts.SkipValidation {
		validate = func() (*openapi3.T, []string) {
			return doc, kinValidate(doc, openapi3.NewLoader())
		}
	}
	return convert(o, len(data), opts, validate)
}

func marshalKin(doc *openapi3.T) (data []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("kin-openapi panicked: %v", r)
		}
	}()
	return json.Marshal(doc)
}

func looksLikeJSON(data []byte) bool {
	for _, c := range data {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '{':
			return json.Valid(data)
		}
		return false
	}
	return false
}

// checkRoot accepts an OpenAPI 3 document's root object.
func checkRoot(root any) (*object, error) {
	doc := asObject(root)
	if doc == nil {
		return nil, errors.New("openapi: the document is not an object")
	}
	version, present := doc.get("openapi")
	if !present {
		if _, ok := doc.get("swagger"); ok {
			return nil, errors.New("openapi: Swagger 2.0 documents are not supported; convert the document to OpenAPI 3 first")
		}
		return nil, errors.New(`openapi: the document has no "openapi" version field; is it an OpenAPI 3 description?`)
	}
	s, ok := version.(string)
	if !ok {
		return nil, fmt.Errorf(`openapi: the "openapi" field is %s, not a version string such as "3.1.0"`, appendJSON(nil, version))
	}
	if !strings.HasPrefix(s, "3.") {
		return nil, fmt.Errorf("openapi: OpenAPI %q is not supported; want 3.0 or 3.1", s)
	}
	return doc, nil
}

// kinLoad loads the document with kin-openapi, resolves its references
// and validates it. Problems become warnings; a panic inside kin-openapi
// is one too. kin-openapi decodes the tree we parsed (see kinDecode), or,
// where its two decoders could disagree, the document's JSON with
// encoding/json (far lighter than kin's own loader, which parses the text
// again): the original text when it is JSON, else the tree written as
// JSON.
func kinLoad(data []byte, root *object) (doc *openapi3.T, warnings []string) {
	defer func() {
		if r := recover(); r != nil {
			doc, warnings = nil, append(warnings, fmt.Sprintf("kin-openapi could not load the document: panic: %v", r))
		}
	}()
	doc, ok := kinDecode(root)
	if !ok {
		if !looksLikeJSON(data) {
			data = appendJSON(nil, root)
		}
		doc = &openapi3.T{}
		if err := json.Unmarshal(data, doc); err != nil {
			return nil, []string{"kin-openapi could not load the document: " + err.Error()}
		}
	}
	loader := openapi3.NewLoader()
	if err := loader.ResolveRefsIn(doc, nil); err != nil {
		return nil, []string{"kin-openapi could not resolve the document's references: " + err.Error()}
	}
	return doc, kinValidate(doc, loader)
}

func kinValidate(doc *openapi3.T, loader *openapi3.Loader) (warnings []string) {
	defer func() {
		if r := recover(); r != nil {
			warnings = append(warnings, fmt.Sprintf("kin-openapi could not validate the document: panic: %v", r))
		}
	}()
	ctx := loader.Context
	if ctx == nil {
		ctx = context.Background()
	}
	err := doc.Validate(ctx, openapi3.EnableMultiError())
	var flatten func(err error)
	flatten = func(err error) {
		var me openapi3.MultiError
		if errors.As(err, &me) && len(me) > 0 {
			if _, direct := err.(openapi3.MultiError); direct {
				for _, e := range me {
					flatten(e)
				}
				return
			}
		}
		warnings = append(warnings, err.Error())
	}
	if err != nil {
		flatten(err)
	}
	return warnings
}
