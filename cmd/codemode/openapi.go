package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/go-codemode/codemode/openapi"
)

// openapiFlags are the flags that turn an OpenAPI document into tools,
// shared by run and catalog.
type openapiFlags struct {
	spec      string
	baseURL   string
	headers   headerList
	bearerEnv string
}

func (o *openapiFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&o.spec, "openapi", "", "")
	fs.StringVar(&o.baseURL, "base-url", "", "")
	fs.Var(&o.headers, "header", "")
	fs.StringVar(&o.bearerEnv, "bearer-env", "", "")
}

// openapiUsage documents the flags.
const openapiUsage = `  --openapi SPEC           an OpenAPI 3.0 or 3.1 document (JSON or YAML): its operations
                           become tools, next to the --tools manifest's (or instead of the demo)
  --base-url URL           the API's base URL (default: the document's first server)
  --header 'K: V'          a header sent with every request (repeatable)
  --bearer-env VAR         a bearer token, read from the environment variable VAR, for the
                           operations that ask for one (the token never reaches the program)
`

// load adds the document's tools to def. It reports whether a document
// was given; the operations it skipped are reported on warn.
func (o *openapiFlags) load(def map[string]any, warn io.Writer) (bool, error) {
	if o.spec == "" {
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
	api, err := openapi.LoadFile(o.spec, opts)
	if err != nil {
		return false, fmt.Errorf("--openapi: %v", err)
	}
	for _, sk := range api.Skipped {
		fmt.Fprintf(warn, "codemode: skipped %s\n", sk)
	}
	for name, t := range api.Namespace().Tools {
		def[name] = t
	}
	return true, nil
}

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
