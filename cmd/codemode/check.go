package main

import (
	"errors"
	"fmt"
	"io"

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
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: codemode check FILE|-")
		return 2
	}
	text, err := readProgram(args[0], stdin)
	if err != nil {
		fmt.Fprintf(stderr, "codemode check: %v\n", err)
		return 2
	}
	prog, err := ast.Parse(text)
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
	globals := prog.Globals
	if globals == nil {
		globals = []string{}
	}
	writeJSON(stdout, struct {
		OK      bool     `json:"ok"`
		Globals []string `json:"globals"`
	}{true, globals})
	return 0
}
