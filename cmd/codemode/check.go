package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/ast"
)

type checkResult struct {
	OK      bool        `json:"ok"`
	Globals []string    `json:"globals,omitempty"`
	Error   *diagnostic `json:"error,omitempty"`
}

type diagnostic struct {
	Kind     string        `json:"kind"`
	Message  string        `json:"message"`
	Location *ast.Location `json:"location,omitempty"`
}

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	toolsFile := fs.String("tools", "", "a tool manifest (.json, .yaml): tool calls are checked against it (default: the demo namespace)")
	var oa openapiFlags
	oa.register(fs)
	strict := fs.Bool("strict", false, "exit 1 (and report \"ok\":false) when the program calls a tool that does not exist")
	noTS := fs.Bool("no-typescript", false, "reject TypeScript syntax (ParseError) instead of erasing its types")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: codemode check [--strict] [--no-typescript] [--tools FILE] [--openapi [NAME=]SPEC]... FILE|-")
		fmt.Fprint(stderr, openapiUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	text, err := readProgram(fs.Arg(0), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "codemode check: %v\n", err)
		return 2
	}
	prog, err := ast.ParseWith(text, ast.Options{NoTypeScript: *noTS})
	if err != nil {
		var perr *ast.Error
		if !errors.As(err, &perr) {
			fmt.Fprintf(stderr, "codemode check: %v\n", err)
			return 2
		}
		loc := perr.Location
		writeJSON(stdout, checkResult{Error: &diagnostic{Kind: "ParseError", Message: perr.Msg, Location: &loc}})
		return 1
	}
	def, err := loadTools(*toolsFile, "check", stderr)
	if err == nil {
		def, err = withOpenAPI(def, *toolsFile, &oa, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "codemode check: %v\n", err)
		return 2
	}
	opts := codemode.Options{Tools: def}
	if *noTS {
		opts.TypeScript = codemode.TypeScriptReject
	}
	rt, err := codemode.New(opts)
	if err != nil {
		fmt.Fprintf(stderr, "codemode check: %v\n", err)
		return 2
	}
	scan, err := rt.Scan(text)
	if err != nil {
		fmt.Fprintf(stderr, "codemode check: %v\n", err)
		return 2
	}
	globals := prog.Globals
	if globals == nil {
		globals = []string{}
	}
	ok := true
	if *strict {
		ok = reportUnknown(scan.Tools, stderr) == 0
	}
	writeJSON(stdout, struct {
		OK      bool                     `json:"ok"`
		Globals []string                 `json:"globals"`
		Tools   []codemode.ToolReference `json:"tools"`
		Search  []codemode.Location      `json:"search"`
		Dynamic []codemode.Location      `json:"dynamic"`
	}{ok, globals, scan.Tools, scan.Search, scan.Dynamic})
	if !ok {
		return 1
	}
	return 0
}

// reportUnknown writes one line on w for each call of a tool that does not
// exist (with the likely intended tool, when there is one) and returns how
// many there are: under --strict they fail the check, so a CI step can
// reject a program before it runs.
func reportUnknown(refs []codemode.ToolReference, w io.Writer) int {
	n := 0
	for _, r := range refs {
		if r.Known {
			continue
		}
		n++
		fmt.Fprintf(w, "codemode check: %d:%d: unknown tool %s", r.Location.Line, r.Location.Column, r.Expression)
		if r.Suggestion != "" {
			fmt.Fprintf(w, " (did you mean %s?)", r.Suggestion)
		}
		fmt.Fprintln(w)
	}
	return n
}
