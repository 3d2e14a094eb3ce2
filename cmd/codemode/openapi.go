package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/go-codemode/codemode/openapi"
)

// openapiFlags are the flags that turn OpenAPI documents into tools,
// shared by run, check, catalog and search.
type openapiFlags struct {
	specs     specList
	baseURL   string
	headers   headerList
	bearerEnv string
}

func (o *openapiFlags) register(fs *flag.FlagSet) {
	fs.Var(&o.specs, "openapi", "")
	fs.StringVar(&o.baseURL, "base-url", "", "")
	fs.Var(&o.headers, "header", "")
	fs.StringVar(&o.bearerEnv, "bearer-env", "", "")
}

// given reports whether any document was named.
func (o *openapiFlags) given() bool { return len(o.specs) > 0 }

// openapiUsage documents the flags.
const openapiUsage = `  --openapi [NAME=]SPEC    an OpenAPI 3.0 or 3.1 document (JSON or YAML): its operations
                           become tools, under the namespace NAME (tools.NAME.op) or at the
                           root, next to the --tools manifest's (or instead of the demo);
                           repeatable, one namespace per document
  --base-url URL           the API's base URL (default: the document's first server)
  --header 'K: V'          a header sent with every request (repeatable)
  --bearer-env VAR         a bearer token, read from the environment variable VAR, for the
                           operations that ask for one (the token never reaches the program)
`

// load adds the documents' tools to def. It reports whether a document
// was given; the operations it skipped are reported on warn.
func (o *openapiFlags) load(def map[string]any, warn io.Writer) (bool, error) {
	if !o.given() {
		if o.baseURL != "" || len(o.headers) > 0 || o.bearerEnv != "" {
			return false, fmt.Errorf("--base-url, --header and --bearer-env need --openapi")
		}
		return false, nil
	}
	opts := openapi.Options{BaseURL: o.baseURL, Headers: map[string]string{}}
	for _, h := range o.headers {
		k, v, _ := strings.Cut(h, ":")
		opts.Headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	if o.bearerEnv != "" {
		token, ok := os.LookupEnv(o.bearerEnv)
		if !ok || token == "" {
			return false, fmt.Errorf("--bearer-env: the environment variable %s is not set", o.bearerEnv)
		}
		opts.Auth = openapi.BearerToken(token)
	}
	for _, sp := range o.specs {
		api, err := openapi.LoadFile(sp.path, opts)
		if err != nil {
			return false, fmt.Errorf("--openapi %s: %v", sp.path, err)
		}
		for _, sk := range api.Skipped {
			fmt.Fprintf(warn, "codemode: %s: skipped %s\n", sp.path, sk)
		}
		if sp.name != "" {
			if _, taken := def[sp.name]; taken {
				return false, fmt.Errorf("--openapi %s=%s: the namespace %s is already taken; give each document its own name", sp.name, sp.path, sp.name)
			}
			def[sp.name] = api.Namespace()
			continue
		}
		for name, t := range api.Namespace().Tools {
			def[name] = t
		}
	}
	return true, nil
}

// spec is one --openapi value: a document, and the namespace it goes
// under ("" for the root).
type spec struct{ name, path string }

// specList is the repeatable --openapi flag: SPEC or NAME=SPEC, where NAME
// is a dotted path of identifiers (so a file name with "=" in it still
// works as a plain SPEC).
type specList []spec

func (l *specList) String() string {
	var parts []string
	for _, s := range *l {
		parts = append(parts, s.name+"="+s.path)
	}
	return strings.Join(parts, ", ")
}

func (l *specList) Set(v string) error {
	sp := spec{path: v}
	if name, path, ok := strings.Cut(v, "="); ok && namespacePattern.MatchString(name) {
		sp = spec{name: name, path: path}
	}
	if sp.path == "" {
		return fmt.Errorf("want SPEC or NAME=SPEC, got %q", v)
	}
	*l = append(*l, sp)
	return nil
}

var namespacePattern = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$`)

// headerList is a repeatable "Name: value" flag.
type headerList []string

func (h *headerList) String() string { return strings.Join(*h, ", ") }

func (h *headerList) Set(v string) error {
	k, _, ok := strings.Cut(v, ":")
	if !ok || strings.TrimSpace(k) == "" {
		return fmt.Errorf("want 'Name: value', got %q", v)
	}
	*h = append(*h, v)
	return nil
}
