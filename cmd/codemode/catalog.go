package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/tools/command"
	"github.com/go-codemode/codemode/tools/demo"
)

const catalogUsage = `usage: codemode catalog [--tools FILE] [--openapi [NAME=]SPEC]... [--format text|json|instructions] [--budget N]

Prints the tools a program gets: the demo namespace (tools.demo.*), or the
tools of a manifest (--tools FILE).

  --tools FILE      a manifest of command tools (.json, .yaml or .yml) instead of
                    the demo namespace
  --openapi [NAME=]SPEC
                    an OpenAPI 3.0 or 3.1 document whose operations become tools,
                    under tools.NAME or at the root; repeatable (--base-url,
                    --header and --bearer-env as for run)
  --format F        text: each tool's signature, its description as a comment
                    above it (the default); json: the catalog as a JSON array of
                    {"path","description","signature"}; instructions: the text a
                    host puts in its "execute code" tool description, stating
                    the limits codemode run applies by default (30s, 256MiB)
  --budget N        with --format instructions: at most N characters; when every
                    signature does not fit, the tools are listed a line each, or
                    summarised per namespace (default 0: no bound)
`

// loadTools returns the tools of a manifest, or the demo namespace when
// file is "". The manifest's warnings go to stderr, each prefixed by
// "codemode NAME: warning: ".
func loadTools(file, name string, stderr io.Writer) (map[string]any, error) {
	if file == "" {
		return demo.Tools(), nil
	}
	m, err := command.LoadManifest(file)
	if err != nil {
		return nil, fmt.Errorf("--tools: %w", err)
	}
	printWarnings(stderr, name, m.Warnings)
	return m.Tools, nil
}

// withOpenAPI adds the --openapi documents' tools to def, the tools
// loadTools gave; without --tools the documents replace the demo.
func withOpenAPI(def map[string]any, toolsFile string, oa *openapiFlags, stderr io.Writer) (map[string]any, error) {
	if oa.given() && toolsFile == "" {
		def = map[string]any{}
	}
	_, err := oa.load(def, stderr)
	return def, err
}

// printWarnings writes a manifest's warnings on stderr: they do not stop
// the command, and stdout stays one JSON value.
func printWarnings(stderr io.Writer, name string, warnings []string) {
	for _, w := range warnings {
		fmt.Fprintf(stderr, "codemode %s: warning: %s\n", name, w)
	}
}

// runCatalog prints the catalog as text, JSON or instructions.
func runCatalog(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("catalog", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	toolsFile := fs.String("tools", "", "")
	var oa openapiFlags
	oa.register(fs)
	format := fs.String("format", "text", "")
	budget := -1
	fs.Func("budget", "", func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return errors.New("a number of characters, 0 (no bound) or more")
		}
		budget = n
		return nil
	})
	fail := func(msg string) int {
		fmt.Fprintf(stderr, "codemode catalog: %s\nusage: codemode catalog [--tools FILE] [--format text|json|instructions] [--budget N]   (codemode catalog -h says more)\n", msg)
		return 2
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, catalogUsage)
			return 0
		}
		return fail(err.Error())
	}
	if fs.NArg() > 0 {
		return fail("unexpected arguments: " + strings.Join(fs.Args(), " "))
	}
	switch *format {
	case "text", "json", "instructions":
	default:
		return fail(fmt.Sprintf("invalid value %q for flag -format: text, json or instructions", *format))
	}
	if budget >= 0 && *format != "instructions" {
		return fail("--budget applies to --format instructions only")
	}
	def, err := loadTools(*toolsFile, "catalog", stderr)
	if err != nil {
		fmt.Fprintf(stderr, "codemode catalog: %v\n", err)
		return 2
	}
	if def, err = withOpenAPI(def, *toolsFile, &oa, stderr); err != nil {
		fmt.Fprintf(stderr, "codemode catalog: %v\n", err)
		return 2
	}
	rt, err := codemode.New(codemode.Options{Tools: def, Limits: codemode.Limits{Timeout: 30 * time.Second, MaxMemoryBytes: defaultMaxMemory}})
	if err != nil {
		fmt.Fprintf(stderr, "codemode catalog: %v\n", err)
		return 2
	}
	switch *format {
	case "json":
		writeJSON(stdout, rt.Catalog())
	case "instructions":
		fmt.Fprintln(stdout, rt.Instructions(max(budget, 0)))
	default:
		fmt.Fprint(stdout, catalogText(rt.Catalog()))
	}
	return 0
}

// catalogText lists each signature with its description as a comment
// above it, a blank line between tools.
func catalogText(entries []codemode.CatalogEntry) string {
	var b strings.Builder
	for i, e := range entries {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(docComment(e.Description))
		b.WriteString(e.Signature + "\n")
	}
	return b.String()
}

// docComment is a description as a JSDoc comment: /** one line */, or a
// block for several lines; "" for none.
func docComment(desc string) string {
	desc = strings.ReplaceAll(strings.TrimSpace(desc), "*/", "* /")
	if desc == "" {
		return ""
	}
	lines := strings.Split(desc, "\n")
	if len(lines) == 1 {
		return "/** " + desc + " */\n"
	}
	var b strings.Builder
	b.WriteString("/**\n")
	for _, l := range lines {
		if l = strings.TrimRight(l, " \t\r"); l == "" {
			b.WriteString(" *\n")
		} else {
			b.WriteString(" * " + l + "\n")
		}
	}
	b.WriteString(" */\n")
	return b.String()
}
