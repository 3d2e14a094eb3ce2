package vm

// The run loop: one switch over the instructions of the current frame,
// in the style of go.starlark.net's interpreter loop. It runs the
// decoded form of Funcode.Code (decode.go), where a pc is an
// instruction index. The loop keeps the
// current frame, its code and its pc in locals and writes pc back to the
// frame at every instruction, so that Pos (for errors a built-in raises)
// and a handler search always see where the frame is. A call to a
// program function pushes a frame and goes on with it; RETURN pops it
// and goes on with the caller, until the frame the loop was entered for
// returns.

import (
	"math"
	"slices"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/internal/engine"
	"github.com/go-codemode/codemode/internal/jsops"
	"github.com/go-codemode/codemode/value"
)

// compareNumbers is CMPJMP's comparison cmp of two numbers.
func compareNumbers(cmp Opcode, n, m float64) bool {
	switch cmp {
	case LT:
		return n < m
	case LE:
		return n <= m
	case GT:
		return n > m
	case GE:
		return n >= m
	case SEQ:
		return n == m
	}
	return n != m
}

// numberOp is op on two numbers, as jsops.Binary computes it, when it
// is one of the common cases; ok is false otherwise.
func numberOp(op Opcode, n, m float64) (v value.Value, ok bool) {
	switch op {
	case MUL:
		return value.Number(n * m), true
	case DIV:
		return value.Number(n / m), true
	case MOD:
		// A non-negative integer (not -0) by a positive integer, both
		// exact in an int64: the remainder of the integers.
		if n >= 0 && m > 0 && n <= maxExact && m <= maxExact && !math.Signbit(n) &&
			n == math.Trunc(n) && m == math.Trunc(m) {
			return value.Number(float64(int64(n) % int64(m))), true
		}
		return value.Value{}, false
	case LT:
		return value.Bool(n < m), true
	case GT:
		return value.Bool(n > m), true
	case LE:
		return value.Bool(n <= m), true
	case GE:
		return value.Bool(n >= m), true
	case SEQ, EQ:
		return value.Bool(n == m), true
	case SNE, NE:
		return value.Bool(n != m), true
	}
	return value.Value{}, false
}

// maxExact is 2^53, the largest of the integers a float64 holds all of.
const maxExact = 1 << 53

func (run *Run) loop(base int) {
	r := run.realm
	consts := run.prog.vals
	fr := run.frames[len(run.frames)-1]
	code, pc := fr.fc.insns, fr.pc
	st, sp, bp := fr.seg, fr.sp, fr.bp
	for {
		in := &code[pc]
		pc++
		op, a, b := in.op, int(in.a), int(in.b)
		// The common instructions that neither throw nor call out run
		// here, without saving pc in the frame; the others, and these
		// when their fast path does not apply, go on to the switch below.
		switch op {
		case LOCAL:
			st[sp] = st[bp+a]
			sp++
			continue
		case CONSTANT:
			st[sp] = consts[a]
			sp++
			continue
		case SETLOCAL:
			sp--
			st[bp+a] = st[sp]
			st[sp] = value.Undefined
			continue
		case CELL:
			st[sp] = fr.cells[a].v
			sp++
			continue
		case FREE:
			st[sp] = fr.cl.free[a].v
			sp++
			continue
		case POP:
			sp--
			st[sp] = value.Undefined
			continue
		case DUP:
			st[sp] = st[sp-1]
			sp++
			continue
		case UNDEFINED:
			st[sp] = value.Undefined
			sp++
			continue
		case JMP:
			pc = a
			continue
		case JMPFALSE:
			sp--
			if !st[sp].ToBoolean() {
				pc = a
			}
			continue
		case JMPTRUE:
			sp--
			if st[sp].ToBoolean() {
				pc = a
			}
			continue
		case ADD:
			if x, y := st[sp-2], st[sp-1]; x.IsNumber() && y.IsNumber() {
				st[sp-2] = value.Number(x.Num() + y.Num())
				sp--
				continue
			}
		case SUB:
			if x, y := st[sp-2], st[sp-1]; x.IsNumber() && y.IsNumber() {
				st[sp-2] = value.Number(x.Num() - y.Num())
				sp--
				continue
			}
		case MUL, DIV, MOD, LT, GT, LE, GE, SEQ, SNE, EQ, NE:
			if x, y := st[sp-2], st[sp-1]; x.IsNumber() && y.IsNumber() {
				if v, ok := numberOp(op, x.Num(), y.Num()); ok {
					st[sp-2] = v
					sp--
					st[sp] = value.Undefined
					continue
				}
			}
		case LOCALCHECK:
			if v := st[bp+a]; !v.IsHole() {
				st[sp] = v
				sp++
				continue
			}
		case INCLOCAL:
			if x := st[bp+a]; x.IsNumber() {
				st[bp+a] = value.Number(x.Num() + 1)
				continue
			}
		case ADDLOCAL:
			if x, y := st[bp+a], st[sp-1]; x.IsNumber() && y.IsNumber() {
				sp--
				st[bp+a] = value.Number(x.Num() + y.Num())
				st[sp] = value.Undefined
				continue
			}
		case CMPJMP:
			if x, y := st[sp-2], st[sp-1]; x.IsNumber() && y.IsNumber() {
				var ok bool
				switch n, m := x.Num(), y.Num(); Opcode(b) {
				case LT:
					ok = n < m
				case LE:
					ok = n <= m
				case GT:
					ok = n > m
				case GE:
					ok = n >= m
				case SEQ:
					ok = n == m
				default:
					ok = n != m
				}
				sp -= 2
				st[sp], st[sp+1] = value.Undefined, value.Undefined
				if !ok {
					pc = a
				}
				continue
			}
		case LOOP:
			fr.pc = pc - 1
			r.Poll()
			pc = a
			continue

		case fuseLocalConstCmpJmp:
			if x, y := st[bp+a], consts[in.c]; x.IsNumber() && y.IsNumber() {
				if compareNumbers(in.cmp, x.Num(), y.Num()) {
					pc += 2
				} else {
					pc = int(in.d)
				}
				continue
			}
			op = in.orig
		case fuseLocalAddLocal:
			if x, y := st[bp+int(in.c)], st[bp+a]; x.IsNumber() && y.IsNumber() {
				st[bp+int(in.c)] = value.Number(x.Num() + y.Num())
				pc++
				continue
			}
			op = in.orig
		case fuseIncLoop:
			if x := st[bp+a]; x.IsNumber() {
				st[bp+a] = value.Number(x.Num() + 1)
				fr.pc = pc // the LOOP
				r.Poll()
				pc = int(in.c)
				continue
			}
			op = in.orig
		case fuseLocalConstAdd:
			if x, y := st[bp+a], consts[in.c]; x.IsNumber() && y.IsNumber() {
				st[sp] = value.Number(x.Num() + y.Num())
				sp++
				pc += 2
				continue
			}
			op = in.orig
		case fuseLocalConstSub:
			if x, y := st[bp+a], consts[in.c]; x.IsNumber() && y.IsNumber() {
				st[sp] = value.Number(x.Num() - y.Num())
				sp++
				pc += 2
				continue
			}
			op = in.orig
		case fuseLocalLocal:
			st[sp], st[sp+1] = st[bp+a], st[bp+int(in.c)]
			sp += 2
			pc++
			continue
		case CALL:
			// A call of a plain program function that fits in the
			// segment and needs no arguments object or cells: the frame
			// is a reused one, set up here.
			argsStart := sp - a
			o := st[argsStart-2].AsObject()
			if o == nil {
				break
			}
			cl, ok := o.Internal.(*closure)
			if !ok || !cl.plain || cl.class != nil {
				break
			}
			fc := cl.fc
			slot := argsStart - 2
			if slot+regionSize(fc, a) > len(st) || fc.NeedArgs || fc.HasCells || len(run.free) == 0 {
				break
			}
			fr.pc, fr.sp = pc-1, sp
			r.EnterFrame(0)
			r.Poll()
			clearSmall(st[argsStart+min(a, fc.NumParams) : argsStart+max(a, fc.NumLocals)])
			k := len(run.free) - 1
			nf := run.free[k]
			run.free = run.free[:k]
			nf.fc, nf.cl, nf.fobj, nf.pc, nf.seg, nf.bp, nf.sp, nf.ret = fc, cl, o, 0, st, argsStart, argsStart+fc.NumLocals, slot
			nf.this, nf.cost, nf.construct, nf.ownSeg = st[argsStart-1], 0, false, false
			nf.priv, nf.newTarget = cl.priv, cl.newTarget
			run.frames = append(run.frames, nf)
			fr.pc = pc // the return address
			fr = nf
			code, pc = fc.insns, 0
			sp, bp = nf.sp, argsStart
			continue
		case fuseFreeUndefined:
			st[sp], st[sp+1] = fr.cl.free[a].v, value.Undefined
			sp += 2
			pc++
			continue
		case fuseCellUndefined:
			st[sp], st[sp+1] = fr.cells[a].v, value.Undefined
			sp += 2
			pc++
			continue
		case RETURN:
			// A plain return to a caller in this loop: no finally block,
			// constructor, coroutine or derived class in the way.
			if len(fr.handlers) == 0 && fr.ret >= 0 && !fr.construct && fr.co == nil &&
				fr.fc.Flags&FlagDerived == 0 && len(run.frames)-1 > base {
				sp--
				fr.sp = sp
				fr.pc = pc - 1
				run.popFrame(st[sp])
				fr = run.frames[len(run.frames)-1]
				code, pc = fr.fc.insns, fr.pc
				st, sp, bp = fr.seg, fr.sp, fr.bp
				continue
			}
		case fuseLocalGetProp:
			// The LOCAL, then the GETPROP as the switch below runs it.
			st[sp] = st[bp+a]
			sp++
			pc++
			op, a = GETPROP, int(in.c)
		}
		fr.pc = pc - 1
		switch op {
		case NOP:
		case POP:
			sp--
			st[sp] = value.Undefined
		case DUP:
			st[sp] = st[sp-1]
			sp++
		case DUP2:
			st[sp], st[sp+1] = st[sp-2], st[sp-1]
			sp += 2
		case SWAP:
			st[sp-2], st[sp-1] = st[sp-1], st[sp-2]
		case UNDEFINED:
			st[sp] = value.Undefined
			sp++
		case NULL:
			st[sp] = value.Null
			sp++
		case TRUE:
			st[sp] = value.True
			sp++
		case FALSE:
			st[sp] = value.False
			sp++
		case HOLE:
			st[sp] = value.Hole
			sp++

		case ADD:
			x, y := st[sp-2], st[sp-1]
			if x.IsNumber() && y.IsNumber() {
				st[sp-2] = value.Number(x.Num() + y.Num())
			} else {
				if x.IsObject() || y.IsObject() {
					r.RequireData(x, y)
				}
				st[sp-2] = r.Add(x, y)
			}
			sp--
		case SUB:
			x, y := st[sp-2], st[sp-1]
			if x.IsNumber() && y.IsNumber() {
				st[sp-2] = value.Number(x.Num() - y.Num())
			} else {
				st[sp-2] = jsops.Binary(r, ast.OpSub, x, y)
			}
			sp--
		case LT:
			x, y := st[sp-2], st[sp-1]
			if x.IsNumber() && y.IsNumber() {
				st[sp-2] = value.Bool(x.Num() < y.Num())
			} else {
				st[sp-2] = jsops.Binary(r, ast.OpLt, x, y)
			}
			sp--
		case SEQ:
			st[sp-2] = value.Bool(r.StrictEquals(st[sp-2], st[sp-1]))
			sp--
		case SNE:
			st[sp-2] = value.Bool(!r.StrictEquals(st[sp-2], st[sp-1]))
			sp--
		case MUL, DIV, MOD, EXP, EQ, NE, GT, LE, GE, BITOR, BITXOR, BITAND, SHL, SHR, USHR, INSTANCEOF, IN:
			st[sp-2] = jsops.Binary(r, opBinary[op], st[sp-2], st[sp-1])
			sp--

		case NOT:
			st[sp-1] = value.Bool(!st[sp-1].ToBoolean())
		case NEG:
			if x := st[sp-1]; x.IsNumber() {
				st[sp-1] = value.Number(-x.Num())
			} else {
				st[sp-1] = jsops.Negate(r, x)
			}
		case POS, TONUMBER:
			if x := st[sp-1]; !x.IsNumber() {
				st[sp-1] = value.Number(r.ToNumber(x))
			}
		case BITNOT:
			st[sp-1] = jsops.BitNot(r, st[sp-1])
		case TYPEOF:
			st[sp-1] = jsops.TypeOf(st[sp-1])

		case NEWOBJECT:
			st[sp] = value.Obj(r.NewPlainObject())
			sp++
		case DEFINDEX:
			key := r.ToPropertyKey(st[sp-2])
			r.DefineProperty(st[sp-3].AsObject(), value.Property{Key: key, Value: st[sp-1], Flags: value.DefaultFlags})
			sp -= 2
		case DEFMETHOD:
			key := r.ToPropertyKey(st[sp-2])
			fn := st[sp-1].AsObject()
			fn.Define("name", value.StrOf(value.FunctionNameOfKey(key)), value.Configurable)
			r.DefineProperty(st[sp-3].AsObject(), value.Property{Key: key, Value: st[sp-1], Flags: value.DefaultFlags})
			st[sp-2], st[sp-1] = value.Undefined, value.Undefined
			sp -= 2
		case DEFPROP:
			r.DefineProperty(st[sp-2].AsObject(), value.Property{Key: consts[a].AsString().Key(), Value: st[sp-1], Flags: value.DefaultFlags})
			sp--
		case SETPROTO:
			o, v := st[sp-2].AsObject(), st[sp-1]
			if v.IsObject() {
				o.Proto = v.AsObject()
			} else if v.IsNull() {
				o.Proto = nil
			}
			sp--
		case GETPROP:
			o := st[sp-1]
			st[sp-1] = getProp(r, o, consts[a].AsString().Key())
			if st[sp-1].IsUndefined() && o.IsObject() && o.AsObject().Class == value.ClassPromise {
				run.promiseMiss(fr, o.AsObject(), consts[a].AsString().Key())
			}
		case SETPROP:
			setProp(r, st[sp-2], consts[a].AsString().Key(), st[sp-1])
			st[sp-2] = st[sp-1]
			sp--
		case GETINDEX:
			st[sp-2] = getIndex(r, st[sp-2], st[sp-1])
			sp--
		case SETINDEX:
			setIndex(r, st[sp-3], st[sp-2], st[sp-1])
			st[sp-3] = st[sp-1]
			sp -= 2
		case TOPROPKEY:
			o, k := st[sp-2], st[sp-1]
			if o.IsNullish() {
				jsops.ThrowNullishBase(r, o, k, "read", "reading")
			}
			st[sp-1] = jsops.ToKeyValue(r, k)
		case DELPROP:
			st[sp-1] = jsops.DeleteProperty(r, st[sp-1], consts[a].AsString().Key())
		case DELINDEX:
			key := r.ToPropertyKey(st[sp-1])
			st[sp-2] = jsops.DeleteProperty(r, st[sp-2], key)
			sp--
		case METHOD:
			o := st[sp-1]
			st[sp-1] = getProp(r, o, consts[a].AsString().Key())
			st[sp] = o
			sp++
		case METHODINDEX:
			o := st[sp-2]
			st[sp-2] = getIndex(r, o, st[sp-1])
			st[sp-1] = o
		case MAKEARRAY:
			arr := r.NewArrayValue(slices.Clone(st[sp-a : sp]))
			clear(st[sp-a : sp])
			sp -= a
			st[sp] = value.Obj(arr)
			sp++
		case TEMPLATE:
			n := 2*a + 1
			v := templateString(r, st[sp-n:sp])
			clear(st[sp-n : sp])
			sp -= n
			st[sp] = v
			sp++
		case TEMPLATEOBJ:
			st[sp] = value.Obj(run.templateObject(a))
			sp++
		case REGEXP:
			st[sp-2] = r.Construct(value.Obj(r.Intrinsic(value.RegExpCtor)), []value.Value{st[sp-2], st[sp-1]}, nil)
			sp--

		case APPEND:
			if err := st[sp-2].AsObject().Internal.(*value.ArrayData).Push(st[sp-1]); err != nil {
				r.ThrowRange(value.ArrayLengthMessage)
			}
			sp--
			st[sp] = value.Undefined
		case SPREAD:
			vals := r.IterateToSlice(st[sp-1])
			arr := st[sp-2].AsObject().Internal.(*value.ArrayData)
			if a == 1 && arr.Len()+len(vals) > maxSpreadArgs {
				r.ThrowRange("Maximum call stack size exceeded")
			}
			if err := arr.Push(vals...); err != nil {
				r.ThrowRange(value.ArrayLengthMessage)
			}
			sp--
			st[sp] = value.Undefined
		case DEFGETTER, DEFSETTER:
			o, fn := st[sp-2].AsObject(), st[sp-1].AsObject()
			key := consts[a].AsString().Key()
			cur, _ := r.GetOwnProperty(o, key)
			get, set := cur.Get, cur.Set
			if !cur.IsAccessor() {
				get, set = nil, nil
			}
			if op == DEFGETTER {
				get = fn
			} else {
				set = fn
			}
			o.DefineAccessor(key, get, set, value.Enumerable|value.Configurable)
			sp--
			st[sp] = value.Undefined

		case CONSTANT:
			st[sp] = consts[a]
			sp++
		case LOCAL:
			st[sp] = st[bp+a]
			sp++
		case LOCALCHECK:
			v := st[bp+a]
			if v.IsHole() {
				tdzError(r, consts[b])
			}
			st[sp] = v
			sp++
		case SETLOCAL:
			sp--
			st[bp+a] = st[sp]
			st[sp] = value.Undefined
		case INCLOCAL, DECLOCAL:
			x := st[bp+a]
			if !x.IsNumber() {
				x = value.Number(r.ToNumber(x))
			}
			if op == INCLOCAL {
				st[bp+a] = value.Number(x.Num() + 1)
			} else {
				st[bp+a] = value.Number(x.Num() - 1)
			}
		case ADDLOCAL:
			sp--
			x, y := st[bp+a], st[sp]
			if x.IsNumber() && y.IsNumber() {
				st[bp+a] = value.Number(x.Num() + y.Num())
			} else {
				if x.IsObject() || y.IsObject() {
					r.RequireData(x, y)
				}
				st[bp+a] = r.Add(x, y)
			}
			st[sp] = value.Undefined
		case SETLOCALCHECK:
			if st[bp+a].IsHole() {
				tdzError(r, consts[b])
			}
			sp--
			st[bp+a] = st[sp]
		case CELL:
			st[sp] = fr.cells[a].v
			sp++
		case CELLCHECK:
			v := fr.cells[a].v
			if v.IsHole() {
				tdzError(r, consts[b])
			}
			st[sp] = v
			sp++
		case SETCELL:
			sp--
			fr.cells[a].v = st[sp]
		case SETCELLCHECK:
			cl := fr.cells[a]
			if cl.v.IsHole() {
				tdzError(r, consts[b])
			}
			sp--
			cl.v = st[sp]
		case INITCELL:
			sp--
			fr.cells[a] = &cell{v: st[sp]}
		case FREE:
			st[sp] = fr.cl.free[a].v
			sp++
		case FREECHECK:
			v := fr.cl.free[a].v
			if v.IsHole() {
				tdzError(r, consts[b])
			}
			st[sp] = v
			sp++
		case SETFREE:
			sp--
			fr.cl.free[a].v = st[sp]
		case SETFREECHECK:
			cl := fr.cl.free[a]
			if cl.v.IsHole() {
				tdzError(r, consts[b])
			}
			sp--
			cl.v = st[sp]
		case GLOBAL:
			st[sp] = run.global(a)
			sp++
		case TYPEOFGLOBAL:
			st[sp], _ = run.lookupGlobal(a)
			sp++
		case SETGLOBAL:
			run.setGlobal(a, st[sp-1])
			sp--
		case CONSTASSIGN:
			r.ThrowType("Assignment to constant variable.")

		case MAKEFUNC:
			st[sp] = run.makeFunc(run.prog.Funcs[a], fr)
			sp++

		case CMPJMP:
			x, y := st[sp-2], st[sp-1]
			sp -= 2
			var ok bool
			if x.IsNumber() && y.IsNumber() {
				switch n, m := x.Num(), y.Num(); Opcode(b) {
				case LT:
					ok = n < m
				case LE:
					ok = n <= m
				case GT:
					ok = n > m
				case GE:
					ok = n >= m
				case SEQ:
					ok = n == m
				default:
					ok = n != m
				}
			} else {
				ok = jsops.Binary(r, opBinary[b], x, y).ToBoolean()
			}
			st[sp], st[sp+1] = value.Undefined, value.Undefined
			if !ok {
				pc = a
			}
		case JMP:
			pc = a
		case LOOP:
			r.Poll()
			pc = a
		case JMPFALSE:
			sp--
			if !st[sp].ToBoolean() {
				pc = a
			}
		case JMPTRUE:
			sp--
			if st[sp].ToBoolean() {
				pc = a
			}
		case ANDJMP:
			if !st[sp-1].ToBoolean() {
				pc = a
			} else {
				sp--
			}
		case ORJMP:
			if st[sp-1].ToBoolean() {
				pc = a
			} else {
				sp--
			}
		case NULLISHJMP:
			if !st[sp-1].IsNullish() {
				pc = a
			} else {
				sp--
			}

		case TRY, TRYFINALLY:
			fr.handlers = append(fr.handlers, handler{pc: a, finally: op == TRYFINALLY, sp: sp,
				depth: r.Depth, goDepth: r.GoDepth, argHeight: len(r.ArgStack), priv: fr.priv})
		case POPHANDLER:
			fr.handlers = fr.handlers[:len(fr.handlers)-1]
		case NORMAL:
			st[sp], st[sp+1], st[sp+2] = value.Number(complNormal), value.Undefined, value.Undefined
			sp += 3
		case THROW:
			fr.sp = sp
			panic(&value.Exception{Value: st[sp-1]})
		case ENDFINALLY:
			sp -= 3
			kind, v, aux := int(st[sp].Num()), st[sp+1], st[sp+2]
			switch kind {
			case complThrow:
				panic(&value.Exception{Value: v})
			case complReturn:
				fr.sp = sp
				if run.doReturn(fr, v) {
					goto returned
				}
				pc, sp = fr.pc, fr.sp
			case complJump:
				fr.sp = sp
				pc = run.jumpOut(fr, int(v.Num()), int(aux.Num()))
				sp = fr.sp
			}
		case JUMPOUT:
			fr.sp = sp
			pc = run.jumpOut(fr, a, b)
			sp = fr.sp
		case RETURN:
			sp--
			fr.sp = sp
			if run.doReturn(fr, st[sp]) {
				goto returned
			}
			pc, sp = fr.pc, fr.sp

		case THISARG:
			st[sp] = fr.this
			sp++
		case CALLEE:
			st[sp] = value.Obj(fr.fobj)
			sp++
		case ARGUMENTS:
			st[sp] = value.Obj(r.NewArguments(fr.args, r.GetObj(r.Intrinsic(value.ArrayPrototype), "values", value.Undefined)))
			sp++
		case REST:
			var tail []value.Value
			if len(fr.args) > a {
				tail = append(tail, fr.args[a:]...)
			}
			st[sp] = value.Obj(r.NewArrayValue(tail))
			sp++

		case CALL:
			argsStart := sp - a
			fn, this := st[argsStart-2], st[argsStart-1]
			o := fn.AsObject()
			if o == nil || !o.Callable() {
				r.ThrowType("%s is not a function", consts[b].AsString().String())
			}
			if cl, ok := o.Internal.(*closure); ok && cl.class == nil {
				caller := fr
				caller.sp = sp
				if cl.plain {
					fr = run.pushCall(cl, o, this, st, argsStart-2, a, 0)
				} else {
					fr = run.pushCoCall(cl, o, this, st, argsStart-2, a)
				}
				caller.pc = pc // the return address
				code, pc = fr.fc.insns, 0
				st, sp, bp = fr.seg, fr.sp, fr.bp
				continue
			}
			v := r.CallObject(o, this, slices.Clone(st[argsStart:sp]))
			clear(st[argsStart-1 : sp])
			st[argsStart-2] = v
			sp = argsStart - 1
		case GETITER:
			it := r.GetIterator(st[sp-1])
			holder := value.NewObject(nil) // never reaches the program
			holder.Internal = it
			st[sp-1] = value.Obj(holder)
		case ITERNEXT:
			it := st[bp+b].AsObject().Internal.(*value.IteratorRecord)
			v, ok := it.Step(r)
			if !ok {
				pc = a
			} else {
				st[sp] = v
				sp++
			}
		case ITERCLOSE:
			// A loop that ran out leaves its iterator done: Close does
			// nothing then.
			it := st[bp+a].AsObject().Internal.(*value.IteratorRecord)
			if int(st[sp-3].Num()) == complThrow {
				it.CloseQuietly(r)
			} else {
				it.Close(r)
			}
		case FORIN:
			obj := st[sp-1]
			fi := &forIn{obj: obj}
			if !obj.IsNullish() {
				fi.o = r.ProtoOf(obj)
				fi.keys = jsops.ForInKeys(r, obj, fi.o)
			}
			holder := value.NewObject(nil)
			holder.Internal = fi
			st[sp-1] = value.Obj(holder)
		case FORINNEXT:
			fi := st[bp+b].AsObject().Internal.(*forIn)
			found := false
			for !found && fi.next < len(fi.keys) {
				k := fi.keys[fi.next]
				fi.next++
				// A key deleted during the loop is skipped.
				if fi.obj.IsString() || r.HasProperty(fi.o, k) {
					st[sp] = value.StrOf(k)
					sp++
					found = true
				}
			}
			if !found {
				pc = a
			}
		case SPREADOBJ:
			jsops.CopyDataProperties(r, st[sp-2].AsObject(), st[sp-1], nil)
			sp--
			st[sp] = value.Undefined
		case OPTJMP:
			if st[sp-1].IsNullish() {
				st[sp-1] = value.Undefined
				pc = a
			}
		case OPTCALLJMP:
			if st[sp-2].IsNullish() {
				st[sp-2], st[sp-1] = value.Undefined, value.Undefined
				sp--
				pc = a
			}
		case ARRAYITER:
			if x := st[sp-1]; x.IsNullish() {
				r.ThrowType("%s is not iterable", x.TypeOfNullish())
			}
			it := r.GetIterator(st[sp-1])
			holder := value.NewObject(nil)
			holder.Internal = it
			st[sp-1] = value.Obj(holder)
		case ITERVALUE:
			it := st[bp+a].AsObject().Internal.(*value.IteratorRecord)
			v, ok := it.Step(r)
			if !ok {
				v = value.Undefined
			}
			st[sp] = v
			sp++
		case ITERREST:
			it := st[bp+a].AsObject().Internal.(*value.IteratorRecord)
			var tail []value.Value
			for {
				v, ok := it.Step(r)
				if !ok {
					break
				}
				tail = append(tail, v)
			}
			st[sp] = value.Obj(r.NewArrayValue(tail))
			sp++
		case OBJCHECK:
			if x := st[sp-1]; x.IsNullish() {
				if a > 0 {
					r.ThrowType("Cannot destructure property '%s' of '%s' as it is %s.", value.KeyString(consts[a-1].AsString().Key()), x.TypeOfNullish(), x.TypeOfNullish())
				}
				r.ThrowType("Cannot destructure '%s' as it is %s.", x.TypeOfNullish(), x.TypeOfNullish())
			}
		case OBJREST:
			keys := arrayElements(st[sp-1])
			exclude := make(map[string]bool, len(keys))
			for _, k := range keys {
				exclude[r.ToPropertyKey(k)] = true
			}
			o := r.NewPlainObject()
			jsops.CopyDataProperties(r, o, st[sp-2], exclude)
			st[sp-2], st[sp-1] = value.Obj(o), value.Undefined
			sp--
		case CALLARRAY:
			fn, this := st[sp-3], st[sp-2]
			args := arrayElements(st[sp-1])
			o := fn.AsObject()
			if o == nil || !o.Callable() {
				r.ThrowType("%s is not a function", consts[b].AsString().String())
			}
			if cl, ok := o.Internal.(*closure); ok && cl.plain {
				slot := sp - 3
				caller := fr
				caller.sp = sp
				fr = run.pushCallArgs(cl, o, this, st, slot, args)
				caller.pc = pc
				code, pc = fr.fc.insns, 0
				st, sp, bp = fr.seg, fr.sp, fr.bp
				continue
			}
			v := r.CallObject(o, this, args)
			st[sp-3], st[sp-2], st[sp-1] = v, value.Undefined, value.Undefined
			sp -= 2
		case NEWARRAY:
			fn := st[sp-2]
			if !value.IsConstructor(fn) {
				r.ThrowType("%s is not a constructor", consts[b].AsString().String())
			}
			// A program constructor runs in a loop of its own here.
			st[sp-2] = r.Construct(fn, arrayElements(st[sp-1]), nil)
			sp--
			st[sp] = value.Undefined
		case NEW:
			argsStart := sp - a
			fn := st[argsStart-1]
			if !value.IsConstructor(fn) {
				r.ThrowType("%s is not a constructor", consts[b].AsString().String())
			}
			o := fn.AsObject()
			if cl, ok := o.Internal.(*closure); ok && (cl.plain || cl.class != nil && cl.fc != nil) {
				// A derived class's this is bound by super(); a class's
				// fields are installed before its constructor runs.
				obj := value.Hole
				if cl.class == nil || !cl.class.derived {
					nt := run.newThis(o)
					run.initFields(cl, nt)
					obj = value.Obj(nt)
				}
				// The frame expects callee and this below the arguments:
				// the arguments move up one (into the slack above MaxStack).
				copy(st[argsStart+1:sp+1], st[argsStart:sp])
				st[argsStart] = obj
				sp++
				caller := fr
				caller.sp = sp
				fr = run.pushCall(cl, o, obj, st, argsStart-1, a, 0)
				caller.pc = pc
				fr.construct, fr.newTarget = !obj.IsHole(), o
				code, pc = fr.fc.insns, 0
				st, sp, bp = fr.seg, fr.sp, fr.bp
				continue
			}
			v := r.Construct(fn, slices.Clone(st[argsStart:sp]), nil)
			clear(st[argsStart:sp])
			st[argsStart-1] = v
			sp = argsStart

		case CLASS:
			parent := value.Undefined
			if run.prog.Classes[a].Derived {
				sp--
				parent = st[sp]
			}
			ctor, proto := run.classEval(a, fr, parent)
			st[sp], st[sp+1] = value.Obj(ctor), value.Obj(proto)
			sp += 2
		case CLASSMEMBER:
			keyv := value.Undefined
			n := 3
			if run.prog.Classes[a].Members[b].Computed {
				keyv = st[sp-2]
				n = 4
			}
			run.classMember(a, b, fr, st[sp-n].AsObject(), st[sp-n+1].AsObject(), keyv, st[sp-1])
			clear(st[sp-n+2 : sp])
			sp -= n - 2
		case CLASSINIT:
			run.classInit(fr, st[sp-1].AsObject())
		case PRIVGET:
			st[sp-1] = jsops.PrivateGet(r, st[sp-1], fr.priv.key(consts[a].AsString().String(), b), consts[a].AsString().String())
		case PRIVSET:
			jsops.PrivateSet(r, st[sp-2], fr.priv.key(consts[a].AsString().String(), b), consts[a].AsString().String(), st[sp-1])
			st[sp-2] = st[sp-1]
			sp--
			st[sp] = value.Undefined
		case PRIVIN:
			name := consts[a].AsString().String()
			oo := st[sp-1].AsObject()
			if oo == nil {
				r.ThrowType("Cannot use 'in' operator to search for '#%s' in %s", name, jsops.DescribeIn(r, st[sp-1]))
			}
			st[sp-1] = value.Bool(oo.GetOwn(fr.priv.key(name, b)) != nil)
		case SUPERGET:
			k := r.ToPropertyKey(st[sp-1])
			st[sp-2] = r.GetObj(superBase(r, fr, jsops.KeyValue(k), "read", "reading"), k, st[sp-2])
			sp--
			st[sp] = value.Undefined
		case SUPERMETHOD:
			k := r.ToPropertyKey(st[sp-1])
			this := st[sp-2]
			st[sp-2], st[sp-1] = r.GetObj(superBase(r, fr, jsops.KeyValue(k), "read", "reading"), k, this), this
		case SUPERSET:
			base := superBase(r, fr, st[sp-2], "set", "setting")
			key := r.ToPropertyKey(st[sp-2])
			if !r.SetObj(base, key, st[sp-1], st[sp-3]) {
				r.ThrowType("Cannot assign to read only property '%s' of object", value.KeyString(key))
			}
			st[sp-3] = st[sp-1]
			st[sp-2], st[sp-1] = value.Undefined, value.Undefined
			sp -= 2
		case SUPERDELETE:
			r.ThrowError(value.ReferenceError, "Unsupported reference to 'super'")
		case SUPERCALL:
			res := run.superCall(fr, slices.Clone(st[sp-a:sp]))
			clear(st[sp-a : sp])
			sp -= a
			st[sp] = res
			sp++
		case SUPERCALLARRAY:
			st[sp-1] = run.superCall(fr, arrayElements(st[sp-1]))
		case SUPERBIND:
			if !st[sp-1].IsHole() {
				r.ThrowError(value.ReferenceError, "Super constructor may only be called once")
			}
			sp--
			st[sp] = value.Undefined
		case INITFIELDS:
			_, cl := fr.ctorOf()
			run.initFields(cl, st[sp-1].AsObject())
		case NEWTARGET:
			st[sp] = value.Undefined
			if fr.newTarget != nil {
				st[sp] = value.Obj(fr.newTarget)
			}
			sp++
		case TOKEY:
			st[sp-1] = jsops.ToKeyValue(r, st[sp-1])
		case SETHOME:
			st[sp-1].AsObject().Internal.(*closure).home = st[sp-1-a].AsObject()
		case DEFACCESSOR:
			o, fn := st[sp-3].AsObject(), st[sp-1].AsObject()
			key := r.ToPropertyKey(st[sp-2])
			getter := ast.FuncKind(fn.Internal.(*closure).fc.Kind) == ast.FuncGetter
			prefix := "set "
			if getter {
				prefix = "get "
			}
			fn.Define("name", value.StrOf(prefix+value.FunctionNameOfKey(key)), value.Configurable)
			cur, _ := r.GetOwnProperty(o, key)
			get, set := cur.Get, cur.Set
			if !cur.IsAccessor() {
				get, set = nil, nil
			}
			if getter {
				get = fn
			} else {
				set = fn
			}
			o.DefineAccessor(key, get, set, value.Enumerable|value.Configurable)
			st[sp-2], st[sp-1] = value.Undefined, value.Undefined
			sp -= 2

		case GENSTART:
			fr.pc, fr.sp = pc, sp
			run.park(fr, stopStart, run.genStart(fr))
			goto returned
		case YIELD, YIELDSTAR:
			sp--
			v := st[sp]
			st[sp] = value.Undefined
			fr.pc, fr.sp = pc, sp
			why := stopYield
			if op == YIELDSTAR {
				why = stopDelegate
			}
			run.park(fr, why, v)
			goto returned
		case AWAIT:
			sp--
			v := st[sp]
			st[sp] = value.Undefined
			// Registered while the frame still runs: a failure (a
			// thenable's then getter) throws at the await.
			r.Await(v, fr.co)
			fr.pc, fr.sp = pc, sp
			// Resumed by a job, with its own resumption the only job
			// left: the job loop would resume it next, so it goes on
			// here without parking. Nothing synchronous waits below it.
			// A run saved at job boundaries parks: the await is one.
			if fr.co == run.jobCo && !run.stopJobs && run.saveEvery == 0 && !run.Loop.SuspendPending() {
				if x, ok := r.TakeLoneJob(fr.co); ok {
					st[sp] = x
					sp++
					continue
				}
			}
			run.park(fr, stopAwait, promiseOf(fr.co))
			goto returned
		case YIELDSTARINIT:
			st[sp-1] = value.Obj(run.yieldStarInit(st[sp-1], a != 0))
		case YIELDSTARSTEP:
			ys := st[bp+a].AsObject().Internal.(*yieldStar)
			res, ret := run.yieldStarStep(ys, st[sp-2], value.ResumeMode(st[sp-1].Num()))
			sp--
			st[sp] = value.Undefined
			if ret {
				sp--
				fr.sp = sp
				if run.doReturn(fr, res) {
					goto returned
				}
				pc, sp = fr.pc, fr.sp
				continue
			}
			st[sp-1] = res
		case YIELDSTARDONE:
			ys := st[bp+b].AsObject().Internal.(*yieldStar)
			res := st[sp-1]
			if !res.IsObject() {
				r.ThrowType("Iterator result %s is not an object", r.Describe(res))
			}
			if r.Get(res, "done").ToBoolean() {
				v := r.Get(res, "value")
				if ys.mode == value.ResumeReturn {
					sp--
					fr.sp = sp
					if run.doReturn(fr, v) {
						goto returned
					}
					pc, sp = fr.pc, fr.sp
					continue
				}
				st[sp-1] = v
				pc = a
			} else if fr.fc.Flags&FlagAsync != 0 {
				st[sp-1] = r.Get(res, "value")
			}
		case ASYNCITER:
			st[sp-1] = value.Obj(run.asyncIterStart(st[sp-1]))
		case ASYNCITERSTEP:
			ai := st[bp+b].AsObject().Internal.(*asyncIter)
			v, ok := run.asyncIterStep(ai)
			if !ok {
				pc = a
			} else {
				st[sp] = v
				sp++
			}
		case ASYNCITERVALUE:
			ai := st[bp+b].AsObject().Internal.(*asyncIter)
			if ai.async {
				v, ok := iterValue(r, st[sp-1])
				if !ok {
					sp--
					st[sp] = value.Undefined
					pc = a
					continue
				}
				st[sp-1] = v
			}
			ai.inBody = true
		case ASYNCITERCLOSE:
			ai := st[bp+a].AsObject().Internal.(*asyncIter)
			kind := int(st[sp-3].Num())
			res, wait := run.asyncIterClose(ai, kind)
			if wait {
				r.Await(res, fr.co)
				fr.pc, fr.sp = pc, sp
				run.park(fr, stopAwaitClose, promiseOf(fr.co))
				goto returned
			}
			st[sp] = res
			sp++
		case ASYNCITERCLOSED:
			sp--
			asyncIterClosed(r, st[sp], int(st[sp-3].Num()))
			st[sp] = value.Undefined
		case UNSUPPORTED:
			throwUnsupported(r, consts[a].AsString().String())
		case IMPORT:
			st[sp] = run.module(consts[a].AsString().String())
			sp++
		case IMPORTCALL:
			st[sp-1] = run.importCall(st[sp-1])
		default:
			panic("vm: illegal opcode " + op.String())
		}
		continue

	returned:
		if len(run.frames) == base {
			return
		}
		fr = run.frames[len(run.frames)-1]
		code, pc = fr.fc.insns, fr.pc
		st, sp, bp = fr.seg, fr.sp, fr.bp
	}
}

// pushCall pushes the frame of a call from program code: the callee,
// this and nargs arguments are at seg[slot:]. The frame stays in the
// caller's segment when its region fits, or moves to a new one.
func (run *Run) pushCall(cl *closure, fobj *value.Object, this value.Value, seg []value.Value, slot, nargs, cost int) *frame {
	need := regionSize(cl.fc, nargs)
	if slot+need <= len(seg) {
		return run.pushFrame(cl, fobj, this, seg, slot+2, nargs, slot, cost)
	}
	nseg := run.newSegment(need, len(seg))
	copy(nseg, seg[slot:slot+2+nargs])
	fr := run.pushFrame(cl, fobj, this, nseg, 2, nargs, slot, cost)
	fr.ownSeg = true
	return fr
}

// maxSpreadArgs is the most arguments a spread call may pass, as on
// engine "ast".
const maxSpreadArgs = 65535

// arrayElements copies the elements of an array the compiler built.
func arrayElements(v value.Value) []value.Value {
	a := v.AsObject().Internal.(*value.ArrayData)
	out := make([]value.Value, a.Len())
	for i := range out {
		out[i], _ = a.Get(i)
	}
	return out
}

// pushCallArgs pushes the frame of a call whose callee and this are at
// seg[slot:] and whose arguments are args (a spread call).
func (run *Run) pushCallArgs(cl *closure, fobj *value.Object, this value.Value, seg []value.Value, slot int, args []value.Value) *frame {
	need := regionSize(cl.fc, len(args))
	if slot+need > len(seg) {
		nseg := run.newSegment(need, len(seg))
		nseg[0], nseg[1] = seg[slot], seg[slot+1]
		copy(nseg[2:], args)
		fr := run.pushFrame(cl, fobj, this, nseg, 2, len(args), slot, 0)
		fr.ownSeg = true
		return fr
	}
	copy(seg[slot+2:], args)
	return run.pushFrame(cl, fobj, this, seg, slot+2, len(args), slot, 0)
}

// doReturn returns v from fr: through the innermost finally block still
// open (which then carries the return on), or out of the frame. It
// reports whether the frame is gone; otherwise fr.pc and fr.sp are where
// to go on.
func (run *Run) doReturn(fr *frame, v value.Value) bool {
	for k := len(fr.handlers); k > 0; k-- {
		h := fr.handlers[k-1]
		fr.handlers = fr.handlers[:k-1]
		if h.finally {
			clear(fr.seg[h.sp:fr.sp])
			fr.sp = h.sp
			fr.push(value.Number(complReturn), v, value.Undefined)
			fr.pc = h.pc
			return false
		}
	}
	if fr.construct && !v.IsObject() {
		v = fr.this
	} else if fr.co != nil && fr.ret >= 0 {
		v = run.asyncReturned(fr, v)
	} else if fr.fc.Flags&FlagDerived != 0 {
		run.derivedThis = derivedThis(fr)
		if ret := fr.ret; ret >= 0 {
			// new in the loop: the result is checked in the caller, at
			// its NEW, as on engine "ast".
			run.popFrame(v)
			caller := run.frames[len(run.frames)-1]
			caller.pc--
			caller.seg[ret] = run.derivedResult(caller.seg[ret])
			caller.pc++
			return true
		}
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
			fr.push(value.Number(complJump), value.Number(float64(addr)), value.Number(float64(depth)))
			return h.pc
		}
	}
	return addr
}

// tdzError is V8's ReferenceError for a read before initialization.
func tdzError(r *value.Realm, name value.Value) {
	if name.AsString().String() == "this" {
		r.ThrowError(value.ReferenceError, "Must call super constructor in derived class before accessing 'this' or returning from derived constructor")
	}
	r.ThrowError(value.ReferenceError, "Cannot access '%s' before initialization", name.AsString().String())
}

// makeFunc makes a closure over fc in frame fr.
func (run *Run) makeFunc(fc *Funcode, fr *frame) value.Value {
	r := run.realm
	cl := &closure{fc: fc, priv: fr.priv, plain: fc.Flags&(FlagAsync|FlagGenerator) == 0}
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
	if ast.FuncKind(fc.Kind) == ast.FuncArrow {
		cl.home = fr.cl.home
		if ast.FuncKind(fr.fc.Kind) == ast.FuncArrow {
			cl.newTarget, cl.outerFobj, cl.outerCl = fr.cl.newTarget, fr.cl.outerFobj, fr.cl.outerCl
		} else {
			cl.newTarget, cl.outerFobj, cl.outerCl = fr.newTarget, fr.fobj, fr.cl
		}
	}
	o := value.NewFunctionObject(r.Intrinsic(functionProto(fc)), cl)
	r.Charge(160)
	o.Define("length", value.Number(float64(fc.Length)), value.Configurable)
	o.Define("name", value.StrOf(fc.Name), value.Configurable)
	if fc.Flags&FlagGenerator != 0 {
		pid := value.GeneratorPrototype
		if fc.Flags&FlagAsync != 0 {
			pid = value.AsyncGeneratorPrototype
		}
		o.Define("prototype", value.Obj(value.NewObject(r.Intrinsic(pid))), value.Writable)
	} else if cl.IsConstructor() {
		p := value.NewObject(r.Intrinsic(value.ObjectPrototype))
		p.Define("constructor", value.Obj(o), value.Writable|value.Configurable)
		o.Define("prototype", value.Obj(p), value.Writable)
	}
	return value.Obj(o)
}

// functionProto is the prototype of the functions fc makes.
func functionProto(fc *Funcode) value.Intrinsic {
	switch fc.Flags & (FlagAsync | FlagGenerator) {
	case FlagAsync | FlagGenerator:
		return value.AsyncGeneratorFunctionPrototype
	case FlagGenerator:
		return value.GeneratorFunctionPrototype
	case FlagAsync:
		return value.AsyncFunctionPrototype
	}
	return value.FunctionPrototype
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
	v, ok := engine.ResolveGlobal(run.realm, run.host, run.prog.Globals[slot])
	if ok {
		run.globals[slot] = v
	}
	return v, ok
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

// promiseOf is what an awaiting frame's call gives in its first run.
func promiseOf(co *coroutine) value.Value {
	if co.promise != nil && co.kind == coAsync {
		return value.Obj(co.promise)
	}
	return value.Undefined
}
