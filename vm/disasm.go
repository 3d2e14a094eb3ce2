package vm

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-codemode/codemode/ast"
)

// Disassemble prints the program's bytecode: every function with its
// layout, then each instruction with its address, the source line:col
// it maps to, its operands, and what a constant or global operand is.
func (p *Program) Disassemble() string {
	var b strings.Builder
	fmt.Fprintf(&b, "; program format version %d\n", p.Version)
	for i, fc := range p.Funcs {
		if i > 0 {
			b.WriteByte('\n')
		}
		name := fc.Name
		if name == "" {
			name = "<anonymous>"
		}
		if i == 0 {
			name = "<program>"
		}
		loc := p.src.Location(ast.Pos(fc.Pos))
		fmt.Fprintf(&b, "func %d %s (%d:%d) params=%d locals=%d", i, name, loc.Line, loc.Column, fc.NumParams, fc.NumLocals)
		if len(fc.Free) > 0 {
			b.WriteString(" free=")
			for j, fv := range fc.Free {
				if j > 0 {
					b.WriteByte(',')
				}
				if fv.FromFree {
					fmt.Fprintf(&b, "free%d", fv.Index)
				} else {
					fmt.Fprintf(&b, "cell%d", fv.Index)
				}
			}
		}
		b.WriteByte('\n')
		p.disasmCode(&b, fc)
	}
	return b.String()
}

func (p *Program) disasmCode(b *strings.Builder, fc *Funcode) {
	code := fc.Code
	for pc := 0; pc < len(code); {
		op := Opcode(code[pc])
		loc := p.src.Location(ast.Pos(fc.pos(pc)))
		fmt.Fprintf(b, "  %4d %4d:%-3d %-13s", pc, loc.Line, loc.Column, op)
		n := op.nargs()
		if pc+1+4*n > len(code) {
			b.WriteString(" <truncated>\n")
			return
		}
		args := make([]int, n)
		for i := range args {
			args[i] = int(arg(code, pc+1+4*i))
		}
		for _, a := range args {
			fmt.Fprintf(b, " %d", a)
		}
		if note := p.operandNote(op, args); note != "" {
			b.WriteString("\t; " + note)
		}
		b.WriteByte('\n')
		pc += 1 + 4*n
	}
}

// operandNote says what an operand stands for.
func (p *Program) operandNote(op Opcode, args []int) string {
	constant := func(i int) string {
		if i >= len(p.Consts) {
			return "?"
		}
		k := p.Consts[i]
		if k.Kind == ConstNumber {
			return strconv.FormatFloat(k.Num, 'g', -1, 64)
		}
		return strconv.Quote(k.Str)
	}
	switch op {
	case CONSTANT, GETPROP, SETPROP, DEFPROP, DELPROP, METHOD, CONSTASSIGN:
		return constant(args[0])
	case LOCALCHECK, SETLOCALCHECK, CELLCHECK, SETCELLCHECK, FREECHECK, SETFREECHECK, CALL, NEW:
		return constant(args[1])
	case PRIVGET, PRIVSET, PRIVIN:
		return "#" + strings.Trim(constant(args[0]), `"`) + " depth " + strconv.Itoa(args[1])
	case CLASS, CLASSINIT, CLASSMEMBER:
		if args[0] < len(p.Classes) {
			return "class " + strconv.Quote(p.Classes[args[0]].Name)
		}
	case GLOBAL, TYPEOFGLOBAL, SETGLOBAL:
		if args[0] < len(p.Globals) {
			return p.Globals[args[0]]
		}
	case MAKEFUNC:
		if args[0] < len(p.Funcs) {
			return "func " + strconv.Itoa(args[0])
		}
	}
	if op.isJump() {
		return "-> " + strconv.Itoa(args[0])
	}
	return ""
}
