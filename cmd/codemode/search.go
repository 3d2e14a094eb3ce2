package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/go-codemode/codemode"
)

const searchUsage = `usage: codemode search [flags] [QUERY]

Runs search({query, namespace, limit, offset}) in a program, as a program
would, over the demo namespace (tools.demo.*) or the tools of a manifest
(--tools FILE), and prints its result as one line of JSON:
{"items":[{"path","description","signature"}],"remaining":N,"next":{"offset":N}|null}.
A QUERY that is a tool's exact path gives that tool alone; without one (or
with "") every tool in scope is listed, a page at a time. Flags may come
before or after QUERY.

  --tools FILE      a manifest of command tools (.json, .yaml or .yml) instead of
                    the demo namespace
  --openapi [NAME=]SPEC
                    an OpenAPI document's operations as tools (repeatable; with
                    --base-url, --header, --bearer-env as for run)
  --namespace NS    search only the tools under NS (e.g. demo, or tools.demo)
  --limit N         results per page, 1 or more (default 10)
  --offset N        results to skip, 0 or more (next.offset of the previous page)
  --pretty          indent the JSON
`

// runSearch prints what search({...}) returns in a program.
func runSearch(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	toolsFile := fs.String("tools", "", "")
	var oa openapiFlags
	oa.register(fs)
	namespace := fs.String("namespace", "", "")
	var limit, offset *int
	fs.Func("limit", "", countFlag(&limit, 1))
	fs.Func("offset", "", countFlag(&offset, 0))
	pretty := fs.Bool("pretty", false, "")
	fail := func(msg string) int {
		fmt.Fprintf(stderr, "codemode search: %s\nusage: codemode search [flags] [QUERY]   (codemode search -h lists the flags)\n", msg)
		return 2
	}
	positional, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, searchUsage)
			return 0
		}
		return fail(err.Error())
	}
	if len(positional) > 1 {
		return fail(fmt.Sprintf("one query at a time (got %d arguments: %s); quote a query of several words", len(positional), strings.Join(positional, " ")))
	}
	input := map[string]any{}
	if len(positional) == 1 {
		input["query"] = positional[0]
	}
	if *namespace != "" {
		input["namespace"] = *namespace
	}
	if limit != nil {
		input["limit"] = *limit
	}
	if offset != nil {
		input["offset"] = *offset
	}
	def, err := loadTools(*toolsFile, "search", stderr)
	if err == nil {
		def, err = withOpenAPI(def, *toolsFile, &oa, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "codemode search: %v\n", err)
		return 2
	}
	rt, err := codemode.New(codemode.Options{Tools: def})
	if err != nil {
		fmt.Fprintf(stderr, "codemode search: %v\n", err)
		return 2
	}
	arg, err := json.Marshal(input)
	if err != nil {
		fmt.Fprintf(stderr, "codemode search: %v\n", err)
		return 2
	}
	res := rt.Execute(context.Background(), "return search("+string(arg)+")")
	out := []byte(res.Value)
	if !res.OK {
		// Not expected once the flags are checked; show the whole Result.
		if out, err = res.MarshalJSON(); err != nil {
			fmt.Fprintf(stderr, "codemode search: %v\n", err)
			return 2
		}
	}
	if *pretty {
		var b bytes.Buffer
		if err := json.Indent(&b, out, "", "  "); err == nil {
			out = b.Bytes()
		}
	}
	stdout.Write(append(out, '\n'))
	if !res.OK {
		return 1
	}
	return 0
}

// countFlag parses a whole number of at least least into *dst.
func countFlag(dst **int, least int) func(string) error {
	return func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n < least || n > 1<<31-1 {
			return fmt.Errorf("a whole number, %d or more", least)
		}
		*dst = &n
		return nil
	}
}

// parseInterspersed parses flags that may come before, between or after
// the positional arguments, which it returns; after "--" everything is
// positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if i := len(args) - len(rest); i > 0 && args[i-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}
