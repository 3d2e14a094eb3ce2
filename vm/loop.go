package vm

// The run loop: one switch over the opcodes of the current frame, in the
// style of go.starlark.net's interpreter loop. The loop keeps the
// current frame, its code and its pc in locals and writes pc back to the
// frame at every instruction, so that Pos (for errors a built-in raises)
// and a handler search always see where the frame is. A call to a
// program function pushes a frame and goes on with it; RETURN pops it
// and goes on with the caller, until the frame the loop was entered for
// returns.

import (
	"slices"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/value"
)

func (run *Run) loop(base int) {
	r := run.realm
	consts := run.prog.vals
	fr := run.frames[len(run.frames)-1]
	code := fr.fc.Code
	pc := fr.pc
	for {
		fr.pc = pc
		op := Opcode(code[pc])
		pc++
		var a, b int
		if op >= OpcodeArgMin {
			a = int(arg(code, pc))
			pc += 4
			if op >= OpcodeArg2Min {
				b = int(arg(code, pc))
				pc += 4
			}
		}
		st := run.stack
		sp := len(st)
		switch op {
		case NOP:
		case POP:
			st[sp-1] = value.Undefined
			run.stack = st[:sp-1]
		case DUP:
			run.stack = append(st, st[sp-1])
		case DUP2:
			run.stack = append(st, st[sp-2], st[sp-1])
		case SWAP:
			st[sp-2], st[sp-1] = st[sp-1], st[sp-2]
		case UNDEFINED:
			run.stack = append(st, value.Undefined)
		case NULL:
			run.stack = append(st, value.Null)
		case TRUE:
			run.stack = append(st, value.True)
		case FALSE:
			run.stack = append(st, value.False)
		case HOLE:
			run.stack = append(st, value.Hole)

		case ADD:
			x, y := st[sp-2], st[sp-1]
			var v value.Value
			if x.IsNumber() && y.IsNumber() {
				v = value.Number(x.Num() + y.Num())
			} else {
				if x.IsObject() || y.IsObject() {
					r.RequireData(x, y)
				}
				v = r.Add(x, y)
			}
			st[sp-2] = v
			run.stack = st[:sp-1]
		case SUB:
			x, y := st[sp-2], st[sp-1]
			if x.IsNumber() && y.IsNumber() {
				st[sp-2] = value.Number(x.Num() - y.Num())
			} else {
				st[sp-2] = binaryOp(r, ast.OpSub, x, y)
			}
			run.stack = st[:sp-1]
		case LT:
			x, y := st[sp-2], st[sp-1]
			if x.IsNumber() && y.IsNumber() {
				st[sp-2] = value.Bool(x.Num() < y.Num())
			} else {
				st[sp-2] = binaryOp(r, ast.OpLt, x, y)
			}
			run.stack = st[:sp-1]
		case SEQ:
			st[sp-2] = value.Bool(r.StrictEquals(st[sp-2], st[sp-1]))
			run.stack = st[:sp-1]
		case SNE:
			st[sp-2] = value.Bool(!r.StrictEquals(st[sp-2], st[sp-1]))
			run.stack = st[:sp-1]
		case MUL, DIV, MOD, EXP, EQ, NE, GT, LE, GE, BITOR, BITXOR, BITAND, SHL, SHR, USHR, INSTANCEOF, IN:
			v := binaryOp(r, opBinary[op], st[sp-2], st[sp-1])
			st = run.stack
			st[sp-2] = v
			run.stack = st[:sp-1]

		case NOT:
			st[sp-1] = value.Bool(!st[sp-1].ToBoolean())
		case NEG:
			if x := st[sp-1]; x.IsNumber() {
				st[sp-1] = value.Number(-x.Num())
			} else {
				v := negate(r, x)
				run.stack[sp-1] = v
			}
		case POS, TONUMBER:
			if x := st[sp-1]; !x.IsNumber() {
				v := value.Number(r.ToNumber(x))
				run.stack[sp-1] = v
			}
		case BITNOT:
			v := bitNot(r, st[sp-1])
			run.stack[sp-1] = v
		case TYPEOF:
			st[sp-1] = typeofString(st[sp-1])

		case NEWOBJECT:
			run.stack = append(st, value.Obj(r.NewPlainObject()))
		case DEFINDEX:
			o := st[sp-3].AsObject()
			key := r.ToPropertyKey(st[sp-2])
			r.DefineProperty(o, value.Property{Key: key, Value: run.stack[sp-1], Flags: value.DefaultFlags})
			run.stack = run.stack[:sp-2]
		case DEFPROP:
			o := st[sp-2].AsObject()
			r.DefineProperty(o, value.Property{Key: consts[a].AsString().Key(), Value: st[sp-1], Flags: value.DefaultFlags})
			run.stack = run.stack[:sp-1]
		case SETPROTO:
			o, v := st[sp-2].AsObject(), st[sp-1]
			if v.IsObject() {
				o.Proto = v.AsObject()
			} else if v.IsNull() {
				o.Proto = nil
			}
			run.stack = st[:sp-1]
		case GETPROP:
			v := getProp(r, st[sp-1], consts[a].AsString().Key())
			run.stack[sp-1] = v
		case SETPROP:
			setProp(r, st[sp-2], consts[a].AsString().Key(), st[sp-1])
			st = run.stack
			st[sp-2] = st[sp-1]
			run.stack = st[:sp-1]
		case GETINDEX:
			v := getIndex(r, st[sp-2], st[sp-1])
			st = run.stack
			st[sp-2] = v
			run.stack = st[:sp-1]
		case SETINDEX:
			setIndex(r, st[sp-3], st[sp-2], st[sp-1])
			st = run.stack
			st[sp-3] = st[sp-1]
			run.stack = st[:sp-2]
		case TOPROPKEY:
			o, k := st[sp-2], st[sp-1]
			if o.IsNullish() {
				throwNullishBase(r, o, k, "read", "reading")
			}
			v := toKeyValue(r, k)
			run.stack[sp-1] = v
		case DELPROP:
			v := deleteProp(r, st[sp-1], consts[a].AsString().Key())
			run.stack[sp-1] = v
		case DELINDEX:
			o := st[sp-2]
			key := r.ToPropertyKey(st[sp-1])
			v := deleteProp(r, o, key)
			st = run.stack
			st[sp-2] = v
			run.stack = st[:sp-1]
		case METHOD:
			o := st[sp-1]
			fn := getProp(r, o, consts[a].AsString().Key())
			st = run.stack
			st[sp-1] = fn
			run.stack = append(st, o)
		case METHODINDEX:
			o := st[sp-2]
			fn := getIndex(r, o, st[sp-1])
			st = run.stack
			st[sp-2], st[sp-1] = fn, o
		case MAKEARRAY:
			vals := slices.Clone(st[sp-a : sp])
			arr := r.NewArrayValue(vals)
			st = run.stack
			clear(st[sp-a : sp])
			run.stack = append(st[:sp-a], value.Obj(arr))
		case TEMPLATE:
			n := 2*a + 1
			v := templateString(r, st[sp-n:sp])
			st = run.stack
			clear(st[sp-n : sp])
			run.stack = append(st[:sp-n], v)
		case REGEXP:
			v := r.Construct(value.Obj(r.Intrinsic(value.RegExpCtor)), []value.Value{st[sp-2], st[sp-1]}, nil)
			st = run.stack
			st[sp-2] = v
			run.stack = st[:sp-1]

		case CONSTANT:
			run.stack = append(st, consts[a])
		case LOCAL:
			run.stack = append(st, st[fr.bp+a])
		case LOCALCHECK:
			v := st[fr.bp+a]
			if v.IsHole() {
				tdzError(r, consts[b])
			}
			run.stack = append(st, v)
		case SETLOCAL:
			st[fr.bp+a] = st[sp-1]
			st[sp-1] = value.Undefined
			run.stack = st[:sp-1]
		case SETLOCALCHECK:
			if st[fr.bp+a].IsHole() {
				tdzError(r, consts[b])
			}
			st[fr.bp+a] = st[sp-1]
			run.stack = st[:sp-1]
		case CELL:
			run.stack = append(st, fr.cells[a].v)
		case CELLCHECK:
			v := fr.cells[a].v
			if v.IsHole() {
				tdzError(r, consts[b])
			}
			run.stack = append(st, v)
		case SETCELL:
			fr.cells[a].v = st[sp-1]
			run.stack = st[:sp-1]
		case SETCELLCHECK:
			cl := fr.cells[a]
			if cl.v.IsHole() {
				tdzError(r, consts[b])
			}
			cl.v = st[sp-1]
			run.stack = st[:sp-1]
		case INITCELL:
			fr.cells[a] = &cell{v: st[sp-1]}
			run.stack = st[:sp-1]
		case FREE:
			run.stack = append(st, fr.cl.free[a].v)
		case FREECHECK:
			v := fr.cl.free[a].v
			if v.IsHole() {
				tdzError(r, consts[b])
			}
			run.stack = append(st, v)
		case SETFREE:
			fr.cl.free[a].v = st[sp-1]
			run.stack = st[:sp-1]
		case SETFREECHECK:
			cl := fr.cl.free[a]
			if cl.v.IsHole() {
				tdzError(r, consts[b])
			}
			cl.v = st[sp-1]
			run.stack = st[:sp-1]
		case GLOBAL:
			v := run.global(a)
			run.stack = append(run.stack, v)
		case TYPEOFGLOBAL:
			v, _ := run.lookupGlobal(a)
			run.stack = append(run.stack, v)
		case SETGLOBAL:
			run.setGlobal(a, st[sp-1])
			run.stack = run.stack[:sp-1]
		case CONSTASSIGN:
			r.ThrowType("Assignment to constant variable.")

		case MAKEFUNC:
			v := run.makeFunc(run.prog.Funcs[a], fr)
			run.stack = append(run.stack, v)

		case JMP:
			pc = a
		case LOOP:
			r.Poll()
			pc = a
		case JMPFALSE:
			if !st[sp-1].ToBoolean() {
				pc = a
			}
			run.stack = st[:sp-1]
		case JMPTRUE:
			if st[sp-1].ToBoolean() {
				pc = a
			}
			run.stack = st[:sp-1]
		case ANDJMP:
			if !st[sp-1].ToBoolean() {
				pc = a
			} else {
				run.stack = st[:sp-1]
			}
		case ORJMP:
			if st[sp-1].ToBoolean() {
				pc = a
			} else {
				run.stack = st[:sp-1]
			}
		case NULLISHJMP:
			if !st[sp-1].IsNullish() {
				pc = a
			} else {
				run.stack = st[:sp-1]
			}

		case TRY, TRYFINALLY:
			fr.handlers = append(fr.handlers, handler{pc: a, finally: op == TRYFINALLY, sp: sp,
				depth: r.Depth, goDepth: r.GoDepth, argHeight: len(r.ArgStack)})
		case POPHANDLER:
			fr.handlers = fr.handlers[:len(fr.handlers)-1]
		case NORMAL:
			run.stack = append(st, value.Number(complNormal), value.Undefined, value.Undefined)
		case THROW:
			panic(&value.Exception{Value: st[sp-1]})
		case ENDFINALLY:
			kind, v, aux := int(st[sp-3].Num()), st[sp-2], st[sp-1]
			run.stack = st[:sp-3]
			switch kind {
			case complThrow:
				panic(&value.Exception{Value: v})
			case complReturn:
				if run.doReturn(fr, v) {
					goto returned
				}
				pc = fr.pc
			case complJump:
				pc = run.jumpOut(fr, int(v.Num()), int(aux.Num()))
			}
		case JUMPOUT:
			pc = run.jumpOut(fr, a, b)
		case RETURN:
			v := st[sp-1]
			run.stack = st[:sp-1]
			if run.doReturn(fr, v) {
				goto returned
			}
			pc = fr.pc

		case THISARG:
			run.stack = append(st, fr.this)
		case CALLEE:
			run.stack = append(st, value.Obj(fr.fobj))

		case CALL:
			argsStart := sp - a
			fn, this := st[argsStart-2], st[argsStart-1]
			o := fn.AsObject()
			if o == nil || !o.Callable() {
				r.ThrowType("%s is not a function", consts[b].AsString().String())
			}
			if cl, ok := o.Internal.(*closure); ok {
				caller := fr
				fr = run.pushFrame(cl, o, this, argsStart, 0)
				caller.pc = pc // the return address
				code, pc = fr.fc.Code, 0
				continue
			}
			v := r.CallObject(o, this, slices.Clone(st[argsStart:sp]))
			st = run.stack
			clear(st[argsStart-1 : sp])
			st[argsStart-2] = v
			run.stack = st[:argsStart-1]
		case NEW:
			argsStart := sp - a
			fn := st[argsStart-1]
			if !value.IsConstructor(fn) {
				r.ThrowType("%s is not a constructor", consts[b].AsString().String())
			}
			o := fn.AsObject()
			if cl, ok := o.Internal.(*closure); ok {
				obj := value.Obj(run.newThis(o))
				// The frame expects callee and this below the arguments.
				run.stack = slices.Insert(run.stack, argsStart, obj)
				caller := fr
				fr = run.pushFrame(cl, o, obj, argsStart+1, 0)
				caller.pc = pc
				fr.construct = true
				code, pc = fr.fc.Code, 0
				continue
			}
			v := r.Construct(fn, slices.Clone(st[argsStart:sp]), nil)
			st = run.stack
			clear(st[argsStart:sp])
			st[argsStart-1] = v
			run.stack = st[:argsStart]
		default:
			panic("vm: illegal opcode " + op.String())
		}
		continue

	returned:
		if len(run.frames) == base {
			return
		}
		fr = run.frames[len(run.frames)-1]
		code, pc = fr.fc.Code, fr.pc
	}
}

// doReturn returns v from fr: through the innermost finally block still
// open (which then carries the return on), or out of the frame. It
// reports whether the frame is gone; otherwise fr.pc is where to go on.
func (run *Run) doReturn(fr *frame, v value.Value) bool {
	for k := len(fr.handlers); k > 0; k-- {
		h := fr.handlers[k-1]
		fr.handlers = fr.handlers[:k-1]
		if h.finally {
			clear(run.stack[h.sp:])
			run.stack = append(run.stack[:h.sp], value.Number(complReturn), v, value.Undefined)
			fr.pc = h.pc
			return false
		}
	}
	if fr.construct && !v.IsObject() {
		v = fr.this
	}
	run.popFrame(v)
	return true
}

// jumpOut leaves try regions down to depth on the way to addr, going
// through the first finally block in the way, which carries the jump
// on. It returns where to go on.
func (run *Run) jumpOut(fr *frame, addr, depth int) int {
	for len(fr.handlers) > depth {
		h := fr.handlers[len(fr.handlers)-1]
		fr.handlers = fr.handlers[:len(fr.handlers)-1]
		if h.finally {
			run.stack = append(run.stack, value.Number(complJump), value.Number(float64(addr)), value.Number(float64(depth)))
			return h.pc
		}
	}
	return addr
}

// tdzError is V8's ReferenceError for a read before initialization.
func tdzError(r *value.Realm, name value.Value) {
	r.ThrowError(value.ReferenceError, "Cannot access '%s' before initialization", name.AsString().String())
}

// makeFunc makes a closure over fc in frame fr.
func (run *Run) makeFunc(fc *Funcode, fr *frame) value.Value {
	r := run.realm
	cl := &closure{fc: fc}
	if len(fc.Free) > 0 {
		cl.free = make([]*cell, len(fc.Free))
		for i, fv := range fc.Free {
			if fv.FromFree {
				cl.free[i] = fr.cl.free[fv.Index]
			} else {
				cl.free[i] = fr.cells[fv.Index]
			}
		}
	}
	o := value.NewFunctionObject(r.Intrinsic(value.FunctionPrototype), cl)
	r.Charge(160)
	o.Define("length", value.Number(float64(fc.Length)), value.Configurable)
	o.Define("name", value.StrOf(fc.Name), value.Configurable)
	if cl.IsConstructor() {
		p := value.NewObject(r.Intrinsic(value.ObjectPrototype))
		p.Define("constructor", value.Obj(o), value.Writable|value.Configurable)
		o.Define("prototype", value.Obj(p), value.Writable)
	}
	return value.Obj(o)
}

// global reads a global, resolving it on first use.
func (run *Run) global(slot int) value.Value {
	if v := run.globals[slot]; !v.IsHole() {
		return v
	}
	v, ok := run.lookupGlobal(slot)
	if !ok {
		run.realm.ThrowError(value.ReferenceError, "%s is not defined", run.prog.Globals[slot])
	}
	return v
}

func (run *Run) lookupGlobal(slot int) (value.Value, bool) {
	if v := run.globals[slot]; !v.IsHole() {
		return v, true
	}
	name := run.prog.Globals[slot]
	if run.host != nil {
		if v, ok := run.host.Global(run.realm, name); ok {
			run.globals[slot] = v
			return v, true
		}
	}
	if v, ok := run.realm.Global(name); ok {
		run.globals[slot] = v
		return v, true
	}
	return value.Undefined, false
}

func (run *Run) setGlobal(slot int, v value.Value) {
	name := run.prog.Globals[slot]
	if _, ok := run.lookupGlobal(slot); !ok {
		run.realm.ThrowError(value.ReferenceError, "%s is not defined", name)
	}
	switch name {
	case "undefined", "NaN", "Infinity":
		run.realm.ThrowType("Cannot assign to read only property '%s' of object '#<Object>'", name)
	}
	run.globals[slot] = v
	run.realm.SetGlobal(name, v)
}
