package vm

// This file declares the instruction set and the program format.
//
// An instruction is one opcode byte followed by zero, one or two
// operands, each a 4-byte little-endian unsigned integer: opcodes below
// OpcodeArgMin take none, those from OpcodeArgMin one, those from
// OpcodeArg2Min two. Fixed-width operands keep jump patching trivial and
// decoding cheap, and the bytes are the same on every machine.
//
// The VM is a stack machine. A frame's region of the VM's value stack
// holds its locals (the resolver's slots, then the compiler's
// temporaries) and, above them, its operand stack. The comment on each
// opcode shows the operand stack before and after it, top on the right,
// in the style of go.starlark.net's internal/compile; <k> is an operand.

import (
	"encoding/binary"
	"math"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/value"
)

// Version is the version of the program format. It changes whenever the
// instruction set or the meaning of a Program field changes, so that a
// saved run is never resumed against bytecode it was not compiled for.
const Version = 2

// Opcode is a VM instruction.
type Opcode uint8

// The instruction set.
const (
	NOP Opcode = iota // - NOP -

	// stack operations
	POP  //   x POP -
	DUP  //   x DUP x x
	DUP2 // x y DUP2 x y x y
	SWAP // x y SWAP y x

	// constants
	UNDEFINED // - UNDEFINED undefined
	NULL      // - NULL null
	TRUE      // - TRUE true
	FALSE     // - FALSE false
	HOLE      // - HOLE hole (an array literal's elision)

	// binary operators, with value.Realm's semantics as on engine "ast"
	ADD        // x y ADD x+y
	SUB        // x y SUB x-y
	MUL        // x y MUL x*y
	DIV        // x y DIV x/y
	MOD        // x y MOD x%y
	EXP        // x y EXP x**y
	EQ         // x y EQ x==y
	NE         // x y NE x!=y
	SEQ        // x y SEQ x===y
	SNE        // x y SNE x!==y
	LT         // x y LT x<y
	GT         // x y GT x>y
	LE         // x y LE x<=y
	GE         // x y GE x>=y
	BITOR      // x y BITOR x|y
	BITXOR     // x y BITXOR x^y
	BITAND     // x y BITAND x&y
	SHL        // x y SHL x<<y
	SHR        // x y SHR x>>y
	USHR       // x y USHR x>>>y
	INSTANCEOF // x y INSTANCEOF (x instanceof y)
	IN         // x y IN (x in y)

	// unary operators
	NOT      // x NOT !x
	NEG      // x NEG -x
	POS      // x POS +x
	BITNOT   // x BITNOT ~x
	TYPEOF   // x TYPEOF typeof x
	TONUMBER // x TONUMBER ToNumber(x) (the old value of x++)

	// objects and arrays
	NEWOBJECT   //           - NEWOBJECT obj
	DEFINDEX    // obj key val DEFINDEX obj (a computed key: value)
	DEFMETHOD   //  obj key fn DEFMETHOD obj (a computed key: function, named by the key)
	SETPROTO    //     obj val SETPROTO obj (__proto__: val)
	GETINDEX    //     obj key GETINDEX obj[key]
	SETINDEX    // obj key val SETINDEX val
	DELINDEX    //     obj key DELINDEX true
	METHODINDEX //     obj key METHODINDEX fn obj
	TOPROPKEY   //     obj key TOPROPKEY obj key' (checks obj, converts key once for get and set)
	REGEXP      // pattern flags REGEXP regexp
	APPEND      //       arr x APPEND arr (an array literal's element after a spread)
	GETITER     //    iterable GETITER iter (an internal object holding the iterator record)
	ARRAYITER   //    iterable ARRAYITER iter (GETITER for an array pattern)
	FORIN       //         obj FORIN state (the keys a for-in visits, in an internal object)
	SPREADOBJ   //     obj src SPREADOBJ obj (...src in an object literal)
	OBJREST     //   obj keys OBJREST rest (a copy of obj's own enumerable properties but keys)

	// exceptions and completions
	THROW      //            x THROW -
	POPHANDLER //            - POPHANDLER - (leaves the innermost try region)
	NORMAL     //            - NORMAL kind val aux (a normal completion, entering finally)
	ENDFINALLY // kind val aux ENDFINALLY - (goes on as the completion says)
	RETURN     //            x RETURN - (through the finally blocks in the way)

	// implicit bindings, pushed on entry
	THISARG   // - THISARG this (the this value the frame was called with)
	CALLEE    // - CALLEE fn (the function object being run)
	ARGUMENTS // - ARGUMENTS arguments (the arguments object)

	// classes and super
	SUPERGET    //      this key SUPERGET v (super[key], read with this as the receiver)
	SUPERSET    //    this key v SUPERSET v
	SUPERMETHOD //      this key SUPERMETHOD fn this
	SUPERDELETE //             - SUPERDELETE - (throws: delete of a super reference)
	SUPERBIND   //    res thisv SUPERBIND res (throws when this is already bound: super() twice)
	INITFIELDS  //           obj INITFIELDS obj (the fields of the class being constructed, after super())
	NEWTARGET   //             - NEWTARGET new.target
	TOKEY       //           key TOKEY key' (ToPropertyKey, kept as a value)
	DEFACCESSOR //    obj key fn DEFACCESSOR obj (get [key]() {} or set [key](v) {} in a literal; fn's name says which)

	// generators and async functions
	GENSTART  //             - GENSTART - (the call returns the generator object; the body runs on next())
	YIELD     //             x YIELD v (suspends; v is what next() sends)
	AWAIT     //             x AWAIT v (suspends until x settles)
	YIELDSTAR //             x YIELDSTAR v mode (suspends with an inner result of yield*; resumes with any mode)
	ASYNCITER //      iterable ASYNCITER iter (the iterator record of for await)

	// modules
	IMPORTCALL // spec IMPORTCALL promise (import(spec): the module's namespace)

	// opcodes with one operand

	CONSTANT        //     - CONSTANT<k> consts[k]
	LOCAL           //     - LOCAL<i> locals[i]
	SETLOCAL        //     x SETLOCAL<i> -
	INCLOCAL        //     - INCLOCAL<i> - (locals[i] = ToNumber(locals[i]) + 1: a statement i++)
	DECLOCAL        //     - DECLOCAL<i> - (locals[i] = ToNumber(locals[i]) - 1)
	ADDLOCAL        //     x ADDLOCAL<i> - (locals[i] += x: a statement)
	CELL            //     - CELL<i> cells[i].v
	SETCELL         //     x SETCELL<i> -
	INITCELL        //     x INITCELL<i> - (cells[i] = a fresh cell holding x)
	FREE            //     - FREE<i> free[i].v
	SETFREE         //     x SETFREE<i> -
	GLOBAL          //     - GLOBAL<g> globals[g] (ReferenceError when undeclared)
	TYPEOFGLOBAL    //     - TYPEOFGLOBAL<g> globals[g] (undefined when undeclared)
	SETGLOBAL       //     x SETGLOBAL<g> -
	CONSTASSIGN     //     - CONSTASSIGN<name> - (throws: assignment to a constant)
	GETPROP         //   obj GETPROP<k> obj.k
	SETPROP         // obj x SETPROP<k> x
	DEFPROP         // obj x DEFPROP<k> obj (k: x in a literal)
	DELPROP         //   obj DELPROP<k> true
	METHOD          //   obj METHOD<k> fn obj (a method call's callee and this)
	MAKEARRAY       // x1 ... xn MAKEARRAY<n> array
	TEMPLATE        // q0 x1 q1 ... xn qn TEMPLATE<n> string
	TEMPLATEOBJ     //     - TEMPLATEOBJ<site> strings (a tagged template's frozen strings array)
	MAKEFUNC        //     - MAKEFUNC<f> fn (a closure over funcs[f])
	JMP             //     - JMP<addr> -
	JMPFALSE        //     x JMPFALSE<addr> -
	JMPTRUE         //     x JMPTRUE<addr> -
	ANDJMP          //     x ANDJMP<addr> x (jumps when x is falsy, else pops it)
	ORJMP           //     x ORJMP<addr> x (jumps when x is truthy, else pops it)
	NULLISHJMP      //     x NULLISHJMP<addr> x (jumps unless x is null or undefined, else pops it)
	OPTJMP          //     x OPTJMP<addr> x, or undefined and a jump to addr when x is null or undefined (x?.)
	OPTCALLJMP      // fn this OPTCALLJMP<addr> fn this, or undefined and a jump when fn is null or undefined (f?.())
	LOOP            //     - LOOP<addr> - (a back-edge: counts one unit of work, then jumps)
	TRY             //     - TRY<addr> - (enters a try region whose catch is at addr)
	TRYFINALLY      //     - TRYFINALLY<addr> - (enters a try region whose finally is at addr)
	SPREAD          // arr x SPREAD<args> arr (appends x's elements; args: an argument list's limit)
	REST            //     - REST<n> array (the arguments from the n-th on)
	ITERCLOSE       // kind val aux ITERCLOSE<t> kind val aux (closes the iterator in locals[t] unless it is done)
	ITERVALUE       //     - ITERVALUE<t> x (the iterator's next value, or undefined when done)
	ITERREST        //     - ITERREST<t> array (the iterator's remaining values)
	OBJCHECK        //     x OBJCHECK<k> x (throws when x is null or undefined; k-1 names the first key)
	CLASS           //      [parent] CLASS<k> ctor proto (classes[k]: heritage when it has extends)
	UNSUPPORTED     //             - UNSUPPORTED<what> - (throws the SyntaxError for syntax codemode does not run)
	IMPORT          //             - IMPORT<name> module (the module the host provides)
	SETHOME         //     obj ... fn SETHOME<n> obj ... fn (fn's home object, for super, is the value n below it)
	CLASSINIT       //          ctor CLASSINIT<k> ctor (static fields and blocks; leaves the private scope)
	SUPERCALL       //   x1 ... xn SUPERCALL<n> res (super(x1, ..., xn))
	SUPERCALLARRAY  //         arr SUPERCALLARRAY<_> res
	YIELDSTARINIT   //     iterable YIELDSTARINIT<async> state (the inner iterator of yield*)
	YIELDSTARSTEP   //       v mode YIELDSTARSTEP<t> res (calls next, throw or return of the iterator in locals[t])
	ASYNCITERCLOSE  // kind val aux ASYNCITERCLOSE<t> kind val aux x (x: the result of return() to await, or hole)
	ASYNCITERCLOSED // kind val aux x ASYNCITERCLOSED<t> kind val aux (checks return()'s result)
	DEFGETTER       // obj fn DEFGETTER<k> obj (get k() {} in a literal)
	DEFSETTER       // obj fn DEFSETTER<k> obj (set k(v) {} in a literal)

	// opcodes with two operands

	LOCALCHECK     //          - LOCALCHECK<i,name> locals[i] (ReferenceError in the TDZ)
	SETLOCALCHECK  //          x SETLOCALCHECK<i,name> -
	CELLCHECK      //          - CELLCHECK<i,name> cells[i].v
	SETCELLCHECK   //          x SETCELLCHECK<i,name> -
	FREECHECK      //          - FREECHECK<i,name> free[i].v
	SETFREECHECK   //          x SETFREECHECK<i,name> -
	CALL           // fn this x1 ... xn CALL<n,text> result (text names the callee in errors)
	NEW            // fn x1 ... xn NEW<n,text> object
	JUMPOUT        //          - JUMPOUT<addr,depth> - (break or continue leaving try regions)
	CMPJMP         //        x y CMPJMP<addr,op> - (jumps unless x op y: op is LT, LE, GT, GE, SEQ or SNE)
	ITERNEXT       //          - ITERNEXT<addr,t> x (the next value of the iterator in locals[t], or a jump to addr when done)
	FORINNEXT      //          - FORINNEXT<addr,t> key (the next key of the for-in state in locals[t], or a jump to addr)
	CALLARRAY      //   fn this arr CALLARRAY<_,text> result (a call with spread arguments)
	NEWARRAY       //        fn arr NEWARRAY<_,text> object
	CLASSMEMBER    // ctor proto [key] fn CLASSMEMBER<k,i> ctor proto (member i of classes[k]; key when computed)
	PRIVGET        //        obj PRIVGET<name,depth> v (obj.#name, the class depth levels out)
	PRIVSET        //      obj v PRIVSET<name,depth> v
	PRIVIN         //        obj PRIVIN<name,depth> bool (#name in obj)
	YIELDSTARDONE  //        res YIELDSTARDONE<addr,t> x (done: the value and a jump; else what to yield)
	ASYNCITERSTEP  //          - ASYNCITERSTEP<addr,t> x (the next value or result to await, or a jump when done)
	ASYNCITERVALUE //         x ASYNCITERVALUE<addr,t> v (async: checks the result, jumps when done)

	opcodeEnd

	// OpcodeArgMin is the first opcode with an operand.
	OpcodeArgMin = CONSTANT
	// OpcodeArg2Min is the first opcode with two operands.
	OpcodeArg2Min = LOCALCHECK
)

var opcodeNames = [...]string{
	NOP: "nop", POP: "pop", DUP: "dup", DUP2: "dup2", SWAP: "swap",
	UNDEFINED: "undefined", NULL: "null", TRUE: "true", FALSE: "false", HOLE: "hole",
	ADD: "add", SUB: "sub", MUL: "mul", DIV: "div", MOD: "mod", EXP: "exp",
	EQ: "eq", NE: "ne", SEQ: "seq", SNE: "sne", LT: "lt", GT: "gt", LE: "le", GE: "ge",
	BITOR: "bitor", BITXOR: "bitxor", BITAND: "bitand", SHL: "shl", SHR: "shr", USHR: "ushr",
	INSTANCEOF: "instanceof", IN: "in",
	NOT: "not", NEG: "neg", POS: "pos", BITNOT: "bitnot", TYPEOF: "typeof", TONUMBER: "tonumber",
	NEWOBJECT: "newobject", DEFINDEX: "defindex", DEFMETHOD: "defmethod", SETPROTO: "setproto", GETINDEX: "getindex",
	SETINDEX: "setindex", DELINDEX: "delindex", METHODINDEX: "methodindex", TOPROPKEY: "topropkey", REGEXP: "regexp", APPEND: "append", GETITER: "getiter", ARRAYITER: "arrayiter", FORIN: "forin", SPREADOBJ: "spreadobj", OBJREST: "objrest",
	THROW: "throw", POPHANDLER: "pophandler", NORMAL: "normal", ENDFINALLY: "endfinally", RETURN: "return",
	THISARG: "thisarg", CALLEE: "callee", ARGUMENTS: "arguments", REST: "rest", ITERCLOSE: "iterclose", ITERVALUE: "itervalue", ITERREST: "iterrest", OBJCHECK: "objcheck", ITERNEXT: "iternext", CMPJMP: "cmpjmp", FORINNEXT: "forinnext", OPTJMP: "optjmp", OPTCALLJMP: "optcalljmp",
	CONSTANT: "constant", LOCAL: "local", SETLOCAL: "setlocal", INCLOCAL: "inclocal", DECLOCAL: "declocal", ADDLOCAL: "addlocal", CELL: "cell", SETCELL: "setcell",
	INITCELL: "initcell", FREE: "free", SETFREE: "setfree", GLOBAL: "global",
	TYPEOFGLOBAL: "typeofglobal", SETGLOBAL: "setglobal", CONSTASSIGN: "constassign",
	GETPROP: "getprop", SETPROP: "setprop", DEFPROP: "defprop", DELPROP: "delprop", METHOD: "method",
	MAKEARRAY: "makearray", TEMPLATE: "template", TEMPLATEOBJ: "templateobj", MAKEFUNC: "makefunc",
	JMP: "jmp", JMPFALSE: "jmpfalse", JMPTRUE: "jmptrue", ANDJMP: "andjmp", ORJMP: "orjmp",
	NULLISHJMP: "nullishjmp", LOOP: "loop", TRY: "try", TRYFINALLY: "tryfinally", SPREAD: "spread", DEFGETTER: "defgetter", DEFSETTER: "defsetter",
	LOCALCHECK: "localcheck", SETLOCALCHECK: "setlocalcheck", CELLCHECK: "cellcheck",
	SETCELLCHECK: "setcellcheck", FREECHECK: "freecheck", SETFREECHECK: "setfreecheck",
	SUPERGET: "superget", SUPERSET: "superset", SUPERMETHOD: "supermethod", SUPERDELETE: "superdelete", SUPERBIND: "superbind",
	INITFIELDS: "initfields", NEWTARGET: "newtarget", TOKEY: "tokey", SETHOME: "sethome", DEFACCESSOR: "defaccessor",
	GENSTART: "genstart", YIELD: "yield", AWAIT: "await", YIELDSTAR: "yieldstar", ASYNCITER: "asynciter",
	IMPORTCALL: "importcall", UNSUPPORTED: "unsupported", IMPORT: "import",
	CLASS: "class", CLASSINIT: "classinit", SUPERCALL: "supercall", SUPERCALLARRAY: "supercallarray",
	YIELDSTARINIT: "yieldstarinit", YIELDSTARSTEP: "yieldstarstep", ASYNCITERCLOSE: "asynciterclose", ASYNCITERCLOSED: "asynciterclosed",
	CLASSMEMBER: "classmember", PRIVGET: "privget", PRIVSET: "privset", PRIVIN: "privin", YIELDSTARDONE: "yieldstardone",
	ASYNCITERSTEP: "asynciterstep", ASYNCITERVALUE: "asyncitervalue",
	CALL: "call", NEW: "new", JUMPOUT: "jumpout", CALLARRAY: "callarray", NEWARRAY: "newarray",
}

func (op Opcode) String() string {
	if op < opcodeEnd {
		if s := opcodeNames[op]; s != "" {
			return s
		}
	}
	return "illegal"
}

// nargs is how many operands op takes.
func (op Opcode) nargs() int {
	switch {
	case op >= OpcodeArg2Min:
		return 2
	case op >= OpcodeArgMin:
		return 1
	}
	return 0
}

// isJump reports whether op's first operand is a code address.
func (op Opcode) isJump() bool {
	switch op {
	case JMP, JMPFALSE, JMPTRUE, ANDJMP, ORJMP, NULLISHJMP, LOOP, TRY, TRYFINALLY, JUMPOUT, ITERNEXT,
		FORINNEXT, OPTJMP, OPTCALLJMP, CMPJMP, YIELDSTARDONE, ASYNCITERSTEP, ASYNCITERVALUE:
		return true
	}
	return false
}

// Completion kinds, the first value of a completion record on the
// operand stack while a finally block runs.
const (
	complNormal = iota // fell off the end of the try or catch block
	complThrow         // val is the exception
	complReturn        // val is the return value
	complJump          // val is the target address, aux the handler depth there
)

// ConstKind says what a constant is.
type ConstKind uint8

// Constant kinds.
const (
	ConstNumber ConstKind = iota
	ConstString           // WTF-8, as ast.StringLit.Value
)

// Constant is one entry of a program's constant table: plain data, so
// that the table encodes deterministically.
type Constant struct {
	Kind ConstKind
	Num  float64
	Str  string
}

// Program is a compiled program: immutable data, which may be run any
// number of times, concurrently. Funcs[0] is the program body.
type Program struct {
	Version int
	Funcs   []*Funcode
	Consts  []Constant
	// Globals are the free names the program reads or writes, in order
	// of first use; GLOBAL's operand indexes them.
	Globals []string
	// Templates are the tagged template sites, in order.
	Templates []Template
	// Classes are the class definitions, in order; CLASS's operand
	// indexes them.
	Classes []ClassInfo

	src  *ast.Source
	vals []value.Value // Consts as values, made once at compile time
}

// Template is a tagged template site: its strings, cooked (absent where
// an escape is invalid) and raw.
type Template struct {
	Cooked    []string
	HasCooked []bool
	Raw       []string
}

// ClassInfo is what a class definition's evaluation needs beyond its
// code: plain data, encoded with the program.
type ClassInfo struct {
	Name  string // the constructor's name property
	Brand string // the class in "Receiver must be an instance of class X"
	// Derived says the class has extends (the heritage is on the stack).
	Derived bool
	// Ctor is the Funcs index of the explicit constructor, or -1.
	Ctor int
	// Private are the private names the class declares, in order;
	// PrivMethod[i] says Private[i] is a method or accessor.
	Private    []string
	PrivMethod []bool
	Members    []ClassMember
}

// ClassMember is one element of a class other than its constructor.
type ClassMember struct {
	Kind     uint8 // ast.MemberKind
	Static   bool
	Computed bool   // the key is on the stack
	Key      string // a static key
	// Private is the index in ClassInfo.Private plus one, or 0.
	Private int
	Pos     int // the member's source offset
}

// Function flags.
const (
	FlagAsync     = 1 << iota // an async function or async generator
	FlagGenerator             // a generator
	FlagDerived               // the constructor of a class with extends
)

// Funcode is the code of one function.
type Funcode struct {
	Name string
	Pos  int // the source offset of the function
	// Kind is the ast.FuncKind.
	Kind  uint8
	Flags uint8
	// This is the slot of the function's own this binding plus one (0:
	// none), a cell when ThisCell: a derived constructor's result.
	This     int
	ThisCell bool
	// ReturnStub is the pc of the code a generator's return() resumes
	// at: (AWAIT in an async generator) RETURN.
	ReturnStub int
	Length     int // the function's length property
	// NumParams are the plain parameters, bound to locals 0..NumParams-1.
	NumParams int
	// NumLocals is the frame's slot count: the resolver's locals, then
	// the compiler's temporaries.
	NumLocals int
	// MaxStack bounds the operand stack's depth.
	MaxStack int
	// NeedArgs says whether the frame keeps its arguments (for the
	// arguments object or a rest parameter).
	NeedArgs bool
	// HasCells says whether any local is captured (the frame then has a
	// cell table).
	HasCells bool
	// Free says where each captured cell of a closure comes from, in the
	// frame that creates it.
	Free []FreeVar
	Code []byte
	// Pcs maps code to source: pairs of (pc, source offset), ascending
	// by pc; an instruction's position is that of the last pair at or
	// before it.
	Pcs []uint32

	// insns is Code decoded for the loop, with jump operands as
	// instruction indexes; insns[i].off is instruction i's offset in Code.
	insns    []instr
	returnPC int // ReturnStub as an instruction index
	// members are the property reads (GETPROP of x.name) by code offset,
	// for the warning about reading a property of a promise, which names
	// the expression. Not encoded: a run resumes against a program
	// recompiled from its source, which makes them again.
	members map[int32]*ast.Member
}

// FreeVar is where a closure's captured cell comes from when it is made:
// the creating frame's cell table, or its own closure's free cells.
type FreeVar struct {
	FromFree bool
	Index    int
}

// pos is the source offset of the instruction at pc.
func (fc *Funcode) pos(pc int) int {
	lo, hi := 0, len(fc.Pcs)/2
	for lo < hi {
		m := (lo + hi) / 2
		if int(fc.Pcs[2*m]) <= pc {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return fc.Pos
	}
	return int(fc.Pcs[2*(lo-1)+1])
}

// Encode returns the program's bytes: a header ("cmvm" and the format
// version), then the constants, the globals and every function. The
// same source always compiles to the same bytes.
func (p *Program) Encode() []byte {
	var e encoder
	e.b = append(e.b, "cmvm"...)
	e.uint(uint64(p.Version))
	e.uint(uint64(len(p.Consts)))
	for _, k := range p.Consts {
		e.b = append(e.b, byte(k.Kind))
		if k.Kind == ConstNumber {
			e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(k.Num))
		} else {
			e.str(k.Str)
		}
	}
	e.uint(uint64(len(p.Globals)))
	for _, g := range p.Globals {
		e.str(g)
	}
	e.uint(uint64(len(p.Templates)))
	for _, t := range p.Templates {
		e.uint(uint64(len(t.Raw)))
		for i := range t.Raw {
			e.bool(t.HasCooked[i])
			e.str(t.Cooked[i])
			e.str(t.Raw[i])
		}
	}
	e.uint(uint64(len(p.Classes)))
	for _, k := range p.Classes {
		e.str(k.Name)
		e.str(k.Brand)
		e.bool(k.Derived)
		e.uint(uint64(k.Ctor + 1))
		e.uint(uint64(len(k.Private)))
		for i, n := range k.Private {
			e.str(n)
			e.bool(k.PrivMethod[i])
		}
		e.uint(uint64(len(k.Members)))
		for _, m := range k.Members {
			e.b = append(e.b, m.Kind)
			e.bool(m.Static)
			e.bool(m.Computed)
			e.str(m.Key)
			e.uint(uint64(m.Private))
			e.uint(uint64(m.Pos))
		}
	}
	e.uint(uint64(len(p.Funcs)))
	for _, fc := range p.Funcs {
		e.str(fc.Name)
		e.uint(uint64(fc.Pos))
		e.b = append(e.b, fc.Kind, fc.Flags)
		e.uint(uint64(fc.This))
		e.bool(fc.ThisCell)
		e.uint(uint64(fc.ReturnStub))
		e.uint(uint64(fc.Length))
		e.uint(uint64(fc.NumParams))
		e.uint(uint64(fc.NumLocals))
		e.uint(uint64(fc.MaxStack))
		e.bool(fc.HasCells)
		e.bool(fc.NeedArgs)
		e.uint(uint64(len(fc.Free)))
		for _, fv := range fc.Free {
			e.bool(fv.FromFree)
			e.uint(uint64(fv.Index))
		}
		e.uint(uint64(len(fc.Code)))
		e.b = append(e.b, fc.Code...)
		e.uint(uint64(len(fc.Pcs)))
		for _, x := range fc.Pcs {
			e.uint(uint64(x))
		}
	}
	return e.b
}

type encoder struct{ b []byte }

func (e *encoder) uint(x uint64) { e.b = binary.AppendUvarint(e.b, x) }
func (e *encoder) str(s string)  { e.uint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *encoder) bool(x bool) {
	if x {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

// arg reads the 4-byte operand at code[i:].
func arg(code []byte, i int) uint32 {
	return uint32(code[i]) | uint32(code[i+1])<<8 | uint32(code[i+2])<<16 | uint32(code[i+3])<<24
}
