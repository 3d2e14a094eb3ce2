package main

import (
	"fmt"
	"io"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/vm"
)

const disasmUsage = `usage: codemode disasm FILE|-

Compiles a program (from FILE, or standard input with -) for engine "vm"
and prints its bytecode: each function with its layout, then each
instruction with its address, the source line:col it maps to, and its
operands. A program that does not parse prints its ParseError (exit 1).
`

// runDisasm prints a program's bytecode.
func runDisasm(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help"):
		fmt.Fprint(stdout, disasmUsage)
		return 0
	case len(args) != 1:
		fmt.Fprint(stderr, "codemode disasm: one program, FILE or -\n"+disasmUsage)
		return 2
	}
	text, err := readProgram(args[0], stdin)
	if err != nil {
		fmt.Fprintf(stderr, "codemode disasm: %v\n", err)
		return 2
	}
	prog, err := ast.Parse(text)
	if err != nil {
		fmt.Fprintf(stderr, "codemode disasm: %v\n", err)
		return 1
	}
	code, err := vm.Compile(prog)
	if err != nil {
		fmt.Fprintf(stderr, "codemode disasm: %v\n", err)
		return 1
	}
	fmt.Fprint(stdout, code.Disassemble())
	return 0
}
