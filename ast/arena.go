package ast

// Nodes are allocated from slabs: a parse makes tens of thousands of small
// nodes, and allocating them one by one made malloc and the garbage
// collector the largest part of parsing. A slab hands out pointers to the
// elements of one larger array, so a tree costs a few hundred allocations
// instead; the nodes are ordinary values whose pointers stay valid, and
// the arrays are freed with the tree.

// slab hands out zeroed *T from arrays that grow from slabMin to slabMax
// elements, so that a small program does not pay for a large array.
type slab[T any] struct {
	free []T
	n    int
}

const (
	slabMin = 1
	slabMax = 256
)

func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.n = min(max(2*s.n, slabMin), slabMax)
		s.free = make([]T, s.n)
	}
	x := &s.free[0]
	s.free = s.free[1:]
	return x
}

// sliceSlab copies short lists (statement lists, arguments) into shared
// arrays. A list it returns has no spare capacity, so appending to it
// copies rather than overwriting its neighbour's elements. An empty list
// is nil, as a list built by append from nil would be.
type sliceSlab[T any] struct {
	free []T
	n    int
}

func (s *sliceSlab[T]) copy(items []T) []T {
	k := len(items)
	if k == 0 {
		return nil
	}
	if k > len(s.free) {
		if k > slabMax/4 {
			out := make([]T, k)
			copy(out, items)
			return out
		}
		s.n = min(max(2*s.n, 4*k, slabMin), slabMax)
		s.free = make([]T, s.n)
	}
	out := s.free[:k:k]
	copy(out, items)
	s.free = s.free[k:]
	return out
}

// memberName is a member access and its property name, allocated
// together: member accesses are the most common node in code-mode
// programs.
type memberName struct {
	m Member
	n Name
}

// nodeArena holds the parser's slabs, one for each common node type, and
// the scratch stacks that lists are collected on before they are copied
// to their final size.
type nodeArena struct {
	idents      slab[Ident]
	members     slab[memberName]
	names       slab[Name]
	binaries    slab[Binary]
	numbers     slab[NumberLit]
	strings     slab[StringLit]
	varDecls    slab[VarDecl]
	declarators slab[Declarator]
	calls       slab[Call]
	indexes     slab[Index]
	blocks      slab[Block]
	exprStmts   slab[ExprStmt]
	properties  slab[Property]
	assigns     slab[Assign]
	returns     slab[Return]
	funcLits    slab[FuncLit]
	functions   slab[Function]
	funcDecls   slab[FuncDecl]
	objects     slab[ObjectLit]
	arrays      slab[ArrayLit]
	ifs         slab[If]
	templElems  slab[TemplateElement]
	cooked      slab[string]
	covers      slab[coverErrors]
	funcs       slab[funcContext]
	updates     slab[Update]
	fors        slab[For]
	unaries     slab[Unary]
	conds       slab[Cond]
	news        slab[New]
	patProps    slab[PatternProp]
	assignPats  slab[AssignPattern]
	templates   slab[TemplateLit]

	stmts    listBuilder[Stmt]
	exprs    listBuilder[Expr]
	decls    listBuilder[*Declarator]
	props    listBuilder[*Property]
	patterns listBuilder[Pattern]
	quasis   listBuilder[*TemplateElement]
}

// alloc returns a pointer to a copy of v in slab s.
func alloc[T any](s *slab[T], v T) *T {
	x := s.new()
	*x = v
	return x
}

// listBuilder collects lists on one stack shared by every list being
// built (nested lists push above their parent's elements), then copies
// each finished list into a sliceSlab, so that a list costs no growing
// appends. A failed speculative parse truncates the stack back (see
// restore).
type listBuilder[T any] struct {
	stack []T
	slab  sliceSlab[T]
}

func (l *listBuilder[T]) mark() int      { return len(l.stack) }
func (l *listBuilder[T]) push(x T)       { l.stack = append(l.stack, x) }
func (l *listBuilder[T]) truncate(m int) { l.stack = l.stack[:m] }

// finish returns the elements pushed since mark m and pops them.
func (l *listBuilder[T]) finish(m int) []T {
	out := l.slab.copy(l.stack[m:])
	clear(l.stack[m:])
	l.stack = l.stack[:m]
	return out
}
