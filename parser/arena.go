package parser

// slab hands out nodes of one type from chunks allocated together, so
// that parsing an expression costs a few large allocations instead of one
// per node. A chunk stays alive while any of its nodes does; chunks are
// small (slabChunk nodes) so that a tree kept after a reparse holds little
// more than its own nodes.
type slab[T any] struct{ buf []T }

const slabChunk = 128

func (s *slab[T]) new() *T {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, slabChunk)
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// nodes holds the slabs of the most frequent expression nodes.
type nodes struct {
	idents   slab[Ident]
	lits     slab[Lit]
	binaries slab[Binary]
	calls    slab[Call]
	symbols  slab[Symbol]
	assigns  slab[AssignStmt]
	dos      slab[DoConstruct]
	ifs      slab[IfConstruct]
	arms     slab[IfArm]
	armLists []*IfArm // backing store for the first arm of IF constructs
	exprs    []Expr   // backing store for argument lists
	scratch  []Expr   // argument lists being parsed, innermost last
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
		size := 1024
		if len(list) > size {
			size = len(list)
		}
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
	if len(n.armLists) == cap(n.armLists) {
		n.armLists = make([]*IfArm, 0, slabChunk)
	}
	n.armLists = append(n.armLists, n.arm(head))
	k := len(n.armLists)
	return n.armLists[k-1 : k : k]
}
