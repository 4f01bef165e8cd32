package parser

// slab hands out nodes of one type from chunks allocated together, so
// that parsing an expression costs a few large allocations instead of one
// per node. A chunk stays alive while any of its nodes does; chunks are
// small (slabChunk nodes) so that a tree kept after a reparse holds little
// more than its own nodes. The first chunk of a parse is smaller still
// (firstSlabChunk), and each next one twice the last, up to slabChunk: a
// small file (most of a workspace) does not pay for a full chunk of each
// node type, most of them unused.
type slab[T any] struct{ buf []T }

const (
	firstSlabChunk = 4
	slabChunk      = 128
)

func (s *slab[T]) new() *T {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, min(max(2*cap(s.buf), firstSlabChunk), slabChunk))
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// nodes holds the slabs of the most frequent nodes, and the backing
// stores of their lists.
type nodes struct {
	idents    slab[Ident]
	lits      slab[Lit]
	binaries  slab[Binary]
	calls     slab[Call]
	symbols   slab[Symbol]
	assigns   slab[AssignStmt]
	dos       slab[DoConstruct]
	ifs       slab[IfConstruct]
	arms      slab[IfArm]
	simples   slab[SimpleStmt]
	ends      slab[EndStmt]
	doStmts   slab[DoStmt]
	ifThens   slab[IfThenStmt]
	entities  slab[Entity]
	parens    slab[Paren]
	unaries   slab[Unary]
	callStmts slab[CallStmt]
	types     slab[TypeSpec]
	dims      slab[DimSpec]
	typeDecls slab[TypeDecl]
	attrs     slab[Attr]
	ifStmts   slab[IfStmt]
	gotos     slab[GotoStmt]
	ios       slab[IOStmt]
	kwArgs    slab[KeywordArg]
	nameLists slab[NameListStmt]
	armLists  lists[*IfArm]   // backing store of the arms of IF constructs
	stmts     lists[Stmt]     // backing store of construct bodies
	entLists  lists[*Entity]  // backing store of entity lists
	dimLists  lists[*DimSpec] // backing store of dimension lists
	exprLists lists[Expr]     // backing store of name lists (POINTER, SAVE, ...) and dummy arguments
	attrLists lists[*Attr]    // backing store of the attributes of type declarations
	exprs     []Expr          // backing store for argument lists
	scratch   []Expr          // argument lists being parsed, innermost last
}

func (n *nodes) ident(pos Pos, name string) *Ident {
	x := n.idents.new()
	x.NamePos, x.Name = pos, name
	return x
}

// exprList copies list into the shared backing store; the result has no
// spare capacity, so appending to it copies.
func (n *nodes) exprList(list []Expr) []Expr {
	if len(list) > cap(n.exprs)-len(n.exprs) {
		size := max(min(2*cap(n.exprs), exprChunk), firstListChunk, len(list))
		n.exprs = make([]Expr, 0, size)
	}
	start := len(n.exprs)
	n.exprs = append(n.exprs, list...)
	return n.exprs[start:len(n.exprs):len(n.exprs)]
}

func (n *nodes) arm(head Stmt) *IfArm {
	a := n.arms.new()
	a.Head = head
	return a
}

// firstArm gives an IF construct's list of arms with its first arm; the
// list has no spare capacity, so adding the ELSE arms copies it.
func (n *nodes) firstArm(head Stmt) []*IfArm {
	var arms []*IfArm
	n.armLists.add(&arms, n.arm(head))
	return arms
}

// lists hands out the backing arrays of small growing slices (bodies of
// constructs, arms) from shared chunks: a list that is full moves to a
// new array of twice its capacity carved from the chunk, so a body of n
// statements costs no allocation of its own, at the price of the arrays
// it outgrew, which stay in the chunk (less than its final size). Each
// carved array belongs to one list alone (its capacity ends where the
// next one begins), so appending to it elsewhere copies, never
// overwrites. Lists past maxCarved grow on the heap as usual.
type lists[T any] struct{ chunk []T }

// A list's first array holds firstCarved elements: most bodies and arms
// of constructs hold one or two statements, most dimension lists one or
// two bounds.
//
// Chunks grow like slabs: the first of a parse holds firstListChunk
// elements, each next one twice the last, up to listChunk (exprChunk for
// argument lists).
const (
	firstListChunk = 32
	listChunk      = 2048
	exprChunk      = 1024
	maxCarved      = 256
	firstCarved    = 2
)

func (l *lists[T]) add(list *[]T, x T) {
	s := *list
	if len(s) < cap(s) || cap(s) >= maxCarved {
		*list = append(s, x)
		return
	}
	c := max(2*cap(s), firstCarved)
	if cap(l.chunk)-len(l.chunk) < c {
		l.chunk = make([]T, 0, max(min(2*cap(l.chunk), listChunk), firstListChunk, c))
	}
	k := len(l.chunk)
	l.chunk = l.chunk[:k+c]
	grown := append(l.chunk[k:k:k+c], s...)
	*list = append(grown, x)
}
