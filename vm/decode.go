package vm

import (
	"cmp"
	"fmt"
	"slices"
)

// instr is one decoded instruction. The loop runs these rather than the
// bytes of Funcode.Code, which stay the program's portable form: a
// saved run keeps pcs as instruction indexes, which decoding the same
// bytes always reproduces.
//
// Decoding also fuses common sequences into one superinstruction (the
// fused opcodes below), in place of the sequence's first instruction:
// the others stay where they are, so indexes do not change, a jump into
// the middle of the sequence still lands on its own instruction, and a
// fused instruction whose fast path does not apply runs as orig, its
// first instruction, whose operands a and b keep.
type instr struct {
	op   Opcode
	orig Opcode // the first instruction of a fused sequence
	cmp  Opcode // the comparison of a fused compare-and-jump
	a, b int32
	c, d int32 // the operands of a fused sequence's later instructions
	off  int32 // the byte offset of the instruction in Funcode.Code
}

// The fused opcodes, which exist only in decoded code (never in
// Funcode.Code, the format the version covers).
const (
	// LOCAL<x> CONSTANT<k> CMPJMP<addr,op>
	fuseLocalConstCmpJmp Opcode = opcodeEnd + 1 + iota
	// LOCAL<x> ADDLOCAL<y>
	fuseLocalAddLocal
	// INCLOCAL<x> LOOP<addr>
	fuseIncLoop
	// LOCAL<x> CONSTANT<k> ADD
	fuseLocalConstAdd
	// LOCAL<x> CONSTANT<k> SUB
	fuseLocalConstSub
	// LOCAL<x> GETPROP<k>
	fuseLocalGetProp
	// LOCAL<x> LOCAL<y>
	fuseLocalLocal
	// FREE<x> UNDEFINED (the callee and this of a call)
	fuseFreeUndefined
	// CELL<x> UNDEFINED
	fuseCellUndefined
)

// decode fills fc.insns from fc.Code, turning jump
// operands from byte offsets into instruction indexes. It reports
// malformed code (a truncated instruction, an illegal opcode, a jump
// that does not land on an instruction).
func (fc *Funcode) decode() error {
	code := fc.Code
	n := 0
	for pc := 0; pc < len(code); n++ {
		op := Opcode(code[pc])
		if op >= opcodeEnd {
			return fmt.Errorf("vm: illegal opcode %d at %d", op, pc)
		}
		pc += 1 + 4*op.nargs()
		if pc > len(code) {
			return fmt.Errorf("vm: truncated instruction at %d", pc-1-4*op.nargs())
		}
	}
	insns := make([]instr, 0, n)
	for pc := 0; pc < len(code); {
		op := Opcode(code[pc])
		k := op.nargs()
		in := instr{op: op, off: int32(pc)}
		if k > 0 {
			in.a = int32(arg(code, pc+1))
		}
		if k > 1 {
			in.b = int32(arg(code, pc+5))
		}
		insns = append(insns, in)
		pc += 1 + 4*k
	}
	// The offsets are sorted: a jump target is found by binary search.
	index := func(off int) (int32, bool) {
		i, ok := slices.BinarySearchFunc(insns, int32(off), func(in instr, off int32) int { return cmp.Compare(in.off, off) })
		return int32(i), ok && off == int(int32(off))
	}
	for i := range insns {
		if insns[i].op.isJump() {
			to, ok := index(int(insns[i].a))
			if !ok {
				return fmt.Errorf("vm: jump to %d is not an instruction", insns[i].a)
			}
			insns[i].a = to
		}
	}
	if fc.Flags&FlagGenerator != 0 {
		to, ok := index(fc.ReturnStub)
		if !ok {
			return fmt.Errorf("vm: return stub at %d is not an instruction", fc.ReturnStub)
		}
		fc.returnPC = int(to)
	}
	fuse(insns)
	fc.insns = insns
	return nil
}

// fuse replaces the first instruction of each common sequence by its
// superinstruction.
func fuse(insns []instr) {
	for i := range insns {
		in := &insns[i]
		next := func(k int) instr {
			if i+k < len(insns) {
				return insns[i+k]
			}
			return instr{op: NOP}
		}
		switch in.op {
		case LOCAL:
			switch n1, n2 := next(1), next(2); {
			case n1.op == CONSTANT && n2.op == CMPJMP:
				in.op, in.c, in.d, in.cmp = fuseLocalConstCmpJmp, n1.a, n2.a, Opcode(n2.b)
			case n1.op == CONSTANT && n2.op == ADD:
				in.op, in.c = fuseLocalConstAdd, n1.a
			case n1.op == CONSTANT && n2.op == SUB:
				in.op, in.c = fuseLocalConstSub, n1.a
			case n1.op == ADDLOCAL:
				in.op, in.c = fuseLocalAddLocal, n1.a
			case n1.op == GETPROP:
				in.op, in.c = fuseLocalGetProp, n1.a
			case n1.op == LOCAL:
				in.op, in.c = fuseLocalLocal, n1.a
			default:
				continue
			}
			in.orig = LOCAL
		case FREE, CELL:
			if next(1).op == UNDEFINED {
				in.orig = in.op
				in.op = fuseFreeUndefined
				if in.orig == CELL {
					in.op = fuseCellUndefined
				}
			}
		case INCLOCAL:
			if n1 := next(1); n1.op == LOOP {
				in.op, in.orig, in.c = fuseIncLoop, INCLOCAL, n1.a
			}
		}
	}
}
