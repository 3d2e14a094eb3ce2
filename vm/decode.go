package vm

import "fmt"

// instr is one decoded instruction. The loop runs these rather than the
// bytes of Funcode.Code, which stay the program's portable form: a
// saved run keeps pcs as instruction indexes, which decoding the same
// bytes always reproduces.
type instr struct {
	op   Opcode
	a, b int32
}

// decode fills fc.insns and fc.offsets from fc.Code, turning jump
// operands from byte offsets into instruction indexes. It reports
// malformed code (a truncated instruction, an illegal opcode, a jump
// that does not land on an instruction).
func (fc *Funcode) decode() error {
	index := map[int]int32{}
	var insns []instr
	var offsets []int32
	code := fc.Code
	for pc := 0; pc < len(code); {
		op := Opcode(code[pc])
		if op >= opcodeEnd {
			return fmt.Errorf("vm: illegal opcode %d at %d", op, pc)
		}
		n := op.nargs()
		if pc+1+4*n > len(code) {
			return fmt.Errorf("vm: truncated instruction at %d", pc)
		}
		in := instr{op: op}
		if n > 0 {
			in.a = int32(arg(code, pc+1))
		}
		if n > 1 {
			in.b = int32(arg(code, pc+5))
		}
		index[pc] = int32(len(insns))
		insns = append(insns, in)
		offsets = append(offsets, int32(pc))
		pc += 1 + 4*n
	}
	for i := range insns {
		if insns[i].op.isJump() {
			to, ok := index[int(insns[i].a)]
			if !ok {
				return fmt.Errorf("vm: jump to %d is not an instruction", insns[i].a)
			}
			insns[i].a = to
		}
	}
	if fc.Flags&FlagGenerator != 0 {
		to, ok := index[fc.ReturnStub]
		if !ok {
			return fmt.Errorf("vm: return stub at %d is not an instruction", fc.ReturnStub)
		}
		fc.returnPC = int(to)
	}
	fc.insns, fc.offsets = insns, offsets
	return nil
}
