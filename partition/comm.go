package partition

import (
	"fmt"
	"strings"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// The communication analysis: under the owner-computes rule the processor
// that owns the element an assignment writes computes it, and every
// element it reads from another processor must arrive first. For each
// distributed array reference the analysis compares the subscripts of the
// read with those of the written element, dimension by dimension on the
// shared template:
//
//   - equal subscripts: local;
//   - subscripts that differ by a constant c along a distributed
//     dimension: a shift of |c| planes from the neighbour (every element
//     when the dimension is CYCLIC);
//   - a read whose subscript in a distributed dimension does not vary
//     with the loop that the written element's subscript follows (A(I,K)
//     read while A(I,J) is written, columns distributed): the owner of that
//     slice broadcasts it;
//   - a scalar accumulated over a distributed loop (S = S + A(I)): a
//     reduction followed by a broadcast;
//   - SUM, PRODUCT, MAXVAL, MINVAL, COUNT, ANY, ALL, MAXLOC, MINLOC and
//     DOT_PRODUCT of distributed data: a local partial result on every
//     processor and a log P combining tree (reduction-broadcast), never a
//     broadcast from one owner; the argument is computed by the owners;
//   - array sections are references whose triplets run together: the
//     k-th triplet lo:hi:s is lo + s*$k, so U(1:N-2) read for V(2:N-1)
//     is a shift of one, like U(I-1) for V(I);
//   - anything else (a transpose, arrays laid out differently): all-to-all.
//
// Message vectorization: a message is hoisted out of every enclosing loop
// in which no assignment may write an element the read could see (a
// dependence test on affine subscripts that also knows loop steps, so the
// red points of REDBLACK never read what the red sweep writes), and then
// carries all the elements the hoisted loops read.

// linear is an affine form: sum of coef*var plus a constant.
type linear struct {
	coef  map[string]int64
	konst int64
}

func (l linear) onlyConst() bool { return len(l.coef) == 0 }

// affine converts an integer subscript to a linear form in loop indices
// and other names; PARAMETERs become constants.
func affine(x parser.Expr, sc *parser.Scope) (linear, bool) {
	switch v := x.(type) {
	case *parser.Lit:
		if v.Kind != parser.IntLit {
			return linear{}, false
		}
		var n int64
		fmt.Sscan(v.Value, &n)
		return linear{konst: n}, true
	case *parser.Ident:
		if n, ok := parser.EvalInt(v, sc); ok {
			return linear{konst: n}, true
		}
		return linear{coef: map[string]int64{v.Name: 1}}, true
	case *parser.Paren:
		return affine(v.X, sc)
	case *parser.Unary:
		l, ok := affine(v.X, sc)
		if !ok {
			return l, false
		}
		if v.Op == "-" {
			return l.scale(-1), true
		}
		return l, true
	case *parser.Binary:
		a, ok1 := affine(v.X, sc)
		b, ok2 := affine(v.Y, sc)
		if !ok1 || !ok2 {
			return linear{}, false
		}
		switch v.Op {
		case "+":
			return a.add(b, 1), true
		case "-":
			return a.add(b, -1), true
		case "*":
			if a.onlyConst() {
				return b.scale(a.konst), true
			}
			if b.onlyConst() {
				return a.scale(b.konst), true
			}
		}
	}
	return linear{}, false
}

func (l linear) scale(k int64) linear {
	out := linear{coef: map[string]int64{}, konst: l.konst * k}
	for v, c := range l.coef {
		if c*k != 0 {
			out.coef[v] = c * k
		}
	}
	return out
}

func (l linear) add(m linear, sign int64) linear {
	out := linear{coef: map[string]int64{}, konst: l.konst + sign*m.konst}
	for v, c := range l.coef {
		out.coef[v] += c
	}
	for v, c := range m.coef {
		out.coef[v] += sign * c
	}
	for v, c := range out.coef {
		if c == 0 {
			delete(out.coef, v)
		}
	}
	return out
}

// sameVars reports whether two forms have the same coefficients, so that
// they differ by a constant.
func sameVars(a, b linear) bool {
	if len(a.coef) != len(b.coef) {
		return false
	}
	for v, c := range a.coef {
		if b.coef[v] != c {
			return false
		}
	}
	return true
}

// ref is an array element reference with its affine subscripts. A
// section subscript lo:hi:s is the affine form lo + s*$k in a section
// variable $k, the k-th triplet of the reference (counted from 1): the
// k-th triplets of conformable sections run together, so U(1:N-2) read
// for V(2:N-1) differs from it by the constant -1, a shift.
type ref struct {
	name string
	subs []linear
	ok   bool // every subscript affine
	x    parser.Expr
	pos  parser.Pos // where the statement holding it starts
	// sections[v] is the triplet of section variable v, with its
	// dimension; empty for an element reference.
	sections map[string]section
}

// section is a triplet subscript of a reference, along array dimension dim.
type section struct {
	t   *parser.Triplet
	dim int
}

// sectionVar names the section variable of the k-th triplet (from 1).
func sectionVar(k int) string { return fmt.Sprintf("$%d", k) }

// isSectionVar reports whether a variable of an affine form is a section
// variable: it ranges over the whole triplet, never fixed.
func isSectionVar(v string) bool {
	return len(v) > 1 && v[0] == '$' && strings.Trim(v[1:], "0123456789") == ""
}

func refOf(x parser.Expr, sc *parser.Scope) (ref, bool) {
	c, ok := x.(*parser.Call)
	if !ok {
		return ref{}, false
	}
	id, ok := c.Fun.(*parser.Ident)
	if !ok {
		return ref{}, false
	}
	sym := sc.Lookup(id.Name)
	if sym == nil || sym.Rank() == 0 || len(c.Args) != sym.Rank() {
		return ref{}, false
	}
	r := ref{name: id.Name, ok: true, x: x}
	for i, a := range c.Args {
		if t, isT := a.(*parser.Triplet); isT {
			k := len(r.sections) + 1
			if r.sections == nil {
				r.sections = map[string]section{}
			}
			r.sections[sectionVar(k)] = section{t, i}
			l, ok := tripletForm(t, sym.Dims[i], sectionVar(k), sc)
			if !ok {
				r.ok = false
			}
			r.subs = append(r.subs, l)
			continue
		}
		l, ok := affine(a, sc)
		if !ok {
			r.ok = false
		}
		r.subs = append(r.subs, l)
	}
	return r, true
}

// componentRef is refOf for an element of an array component of a
// structure variable, G%U(I, J): named "G%U", its subscripts affine
// where they are. The memory model (innermost's streams, dataOf) walks
// such references as it walks an array's; the communication analysis
// does not (a structure is not distributed). Sections are not taken.
func componentRef(x parser.Expr, sc *parser.Scope) (ref, bool) {
	c, ok := x.(*parser.Call)
	if !ok || len(c.Args) == 0 {
		return ref{}, false
	}
	name := componentLHS(c)
	if name == "" {
		return ref{}, false
	}
	if sym := sc.Lookup(complexity.RootOf(name)); sym == nil || sym.Rank() > 0 {
		return ref{}, false
	}
	r := ref{name: name, ok: true, x: x}
	for _, a := range c.Args {
		if _, isT := a.(*parser.Triplet); isT {
			return ref{}, false
		}
		l, ok := affine(a, sc)
		if !ok {
			r.ok = false
		}
		r.subs = append(r.subs, l)
	}
	return r, true
}

// memRef is refOf, or componentRef for an element of an array component.
func memRef(x parser.Expr, sc *parser.Scope) (ref, bool) {
	if r, ok := refOf(x, sc); ok {
		return r, true
	}
	return componentRef(x, sc)
}

// tripletForm is lo + s*v for the triplet lo:hi:s of a dimension
// declared as dim (an omitted lower bound is the declared one).
func tripletForm(t *parser.Triplet, dim *parser.DimSpec, v string, sc *parser.Scope) (linear, bool) {
	lo := linear{konst: 1}
	switch {
	case t.Lo != nil:
		l, ok := affine(t.Lo, sc)
		if !ok {
			return linear{}, false
		}
		lo = l
	case dim != nil && dim.Lower != nil:
		l, ok := affine(dim.Lower, sc)
		if !ok {
			return linear{}, false
		}
		lo = l
	}
	stride := int64(1)
	if t.Stride != nil {
		st, ok := parser.EvalInt(t.Stride, sc)
		if !ok || st == 0 {
			return linear{}, false
		}
		stride = st
	}
	return lo.add(linear{coef: map[string]int64{v: stride}}, 1), true
}

// wholeRef is a whole array named without subscripts (U in U = V + 1.0)
// as the section of all its elements, or false when name is no array.
func wholeRef(x *parser.Ident, sc *parser.Scope) (ref, bool) {
	sym := sc.Lookup(x.Name)
	if sym == nil || sym.Kind != parser.SymVariable || sym.Rank() == 0 {
		return ref{}, false
	}
	r := ref{name: x.Name, ok: true, x: x, sections: map[string]section{}}
	for i, d := range sym.Dims {
		t := &parser.Triplet{From: x.Pos(), To: x.End()}
		v := sectionVar(i + 1)
		r.sections[v] = section{t, i}
		l, ok := tripletForm(t, d, v, sc)
		if !ok {
			r.ok = false
		}
		r.subs = append(r.subs, l)
	}
	return r, true
}

// elementalFns are intrinsics applied element by element: a whole array
// in their arguments is read like one in the expression itself.
var elementalFns = map[string]bool{"ABS": true, "SQRT": true, "EXP": true, "LOG": true, "SIN": true,
	"COS": true, "TAN": true, "REAL": true, "DBLE": true, "INT": true, "NINT": true, "MAX": true,
	"MIN": true, "MOD": true, "SIGN": true, "FLOAT": true, "AIMAG": true, "CONJG": true, "CMPLX": true}

// wholeReads lists the whole arrays an expression reads element by
// element (not those passed to other functions: CSHIFT(U, 1) moves them).
func wholeReads(x parser.Expr, sc *parser.Scope) []ref {
	var out []ref
	parser.Inspect(x, func(n parser.Node) bool {
		switch v := n.(type) {
		case *parser.Call:
			if _, ok := refOf(v, sc); ok {
				return false
			}
			fn, ok := v.Fun.(*parser.Ident)
			if !ok || !elementalFns[fn.Name] {
				return false
			}
			for _, a := range v.Args {
				out = append(out, wholeReads(a, sc)...)
			}
			return false
		case *parser.Ident:
			if r, ok := wholeRef(v, sc); ok {
				out = append(out, r)
			}
		}
		return true
	})
	return out
}

// movesData reports whether an expression calls a function that is
// neither elemental nor a reduction (SPREAD, CSHIFT, TRANSPOSE, a user
// function): its elements do not follow those of the assignment.
func movesData(x parser.Expr, sc *parser.Scope) bool {
	found := false
	parser.Inspect(x, func(n parser.Node) bool {
		c, ok := n.(*parser.Call)
		if !ok || found {
			return !found
		}
		if _, isRef := refOf(c, sc); isRef {
			return true
		}
		if fn, ok := c.Fun.(*parser.Ident); ok && (elementalFns[fn.Name] || reductionFns[fn.Name]) {
			return true
		}
		found = true
		return false
	})
	return found
}

// reads lists the array element references an expression reads.
func reads(x parser.Expr, sc *parser.Scope) []ref {
	var out []ref
	parser.Inspect(x, func(n parser.Node) bool {
		if e, ok := n.(parser.Expr); ok {
			if r, ok := refOf(e, sc); ok {
				out = append(out, r)
				// Subscripts may read arrays too.
				for _, a := range e.(*parser.Call).Args {
					out = append(out, reads(a, sc)...)
				}
				return false
			}
		}
		return true
	})
	return out
}

// loopInfo is an enclosing loop during the analysis.
type loopInfo struct {
	do          *parser.DoConstruct
	index       string
	step        int64 // 0 when not a constant
	lo, hi      linear
	bounds      bool // lo and hi are affine
	partitioned bool // iterations are divided among the owners
	// home is the distributed element whose owner runs an iteration of
	// a partitioned loop (the write that partitions it).
	home *ref
	// forall marks the loops a FORALL stands for: every right-hand side
	// is evaluated before any element is assigned (HPF 2.0, Fortran 95
	// §7.5.4), so no read depends on a write of the same FORALL.
	forall bool
}

// outside reports whether r can never equal the index of loop l: r is
// always below l's lower bound or above its upper bound.
func outside(r linear, l loopInfo) bool {
	if !l.bounds || l.step <= 0 {
		return false
	}
	if d := r.add(l.lo, -1); d.onlyConst() && d.konst < 0 {
		return true
	}
	if d := r.add(l.hi, -1); d.onlyConst() && d.konst > 0 {
		return true
	}
	return false
}

// usesAny reports whether an affine form uses the index of one of the loops.
func usesAny(x linear, loops []loopInfo) bool {
	for _, l := range loops {
		if x.coef[l.index] != 0 {
			return true
		}
	}
	return false
}

// mayDepend reports whether, inside the loops inner, the write w may
// produce an element the read r uses: some dimension must prove the two
// never meet. all are every enclosing loop, with their bounds.
func mayDepend(w, r ref, inner, all []loopInfo) bool {
	if !w.ok || !r.ok || len(w.subs) != len(r.subs) {
		return true
	}
	for d := range w.subs {
		a, b := w.subs[d], r.subs[d]
		if !sameVars(a, b) {
			// The write walks a loop index V (V + c) that the read's
			// subscript never reaches: W(V) with V from K+1 against R(K).
			// Only while K is the same for both: not across the
			// iterations of a loop over K considered here (Cholesky
			// writes column J > K at step K and reads it at step J).
			if len(a.coef) == 1 {
				for v, c := range a.coef {
					if c != 1 {
						continue
					}
					for _, l := range all {
						if l.index == v && !usesAny(b, inner) && !usesAny(l.lo, inner) && !usesAny(l.hi, inner) &&
							outside(b.add(linear{konst: a.konst}, -1), l) {
							return false
						}
					}
				}
			}
			continue // unknown relation in this dimension
		}
		diff := b.konst - a.konst
		if len(a.coef) == 0 {
			if diff != 0 {
				return false // distinct constant subscripts
			}
			continue
		}
		// w(v1) = r(v2) needs c*(v1 - v2) = diff along the one loop index
		// of this dimension; both iterations step by s from the same start.
		if len(a.coef) == 1 {
			for v, c := range a.coef {
				step := int64(1)
				found := false
				for _, l := range inner {
					if l.index == v {
						step, found = l.step, true
					}
				}
				if !found && isSectionVar(v) {
					// A section runs over its whole triplet (its stride is
					// in the coefficient).
					step, found = 1, true
				}
				if !found {
					// An index fixed inside the loops considered: the
					// subscripts meet only if the difference is zero.
					if diff != 0 {
						return false
					}
					continue
				}
				if step == 0 {
					continue
				}
				if diff%(c*step) != 0 {
					return false
				}
			}
		}
	}
	return true
}

// writes lists the array assignments inside a statement list.
func writes(list []parser.Stmt, sc *parser.Scope) []ref {
	var out []ref
	for _, s := range list {
		parser.Inspect(s, func(n parser.Node) bool {
			if a, ok := n.(*parser.AssignStmt); ok {
				if r, ok := refOf(a.LHS, sc); ok {
					r.pos = a.Pos()
					out = append(out, r)
				} else if id, ok := a.LHS.(*parser.Ident); ok {
					out = append(out, ref{name: id.Name, pos: a.Pos()})
				}
			}
			return true
		})
	}
	return out
}

// gridDim is the dimension (1 or 2) of the processor grid that a shift
// along array dimension dim of layout l goes along, when l distributes
// exactly two dimensions over the grid pfls makes of procs (factor: px ×
// py, px ≥ py as equal as possible, the first distributed dimension over
// px); else 0. The grid's ranks are numbered as MPI_Cart_create numbers
// them, the second dimension fastest, as in the validation kit.
func gridDim(l *Layout, dim, procs int) int {
	if l == nil || dim < 0 || dim >= len(l.Dims) || l.Dims[dim].Procs < 2 {
		return 0
	}
	var dist []int
	for i, f := range l.Dims {
		if f.Procs > 1 {
			dist = append(dist, i)
		}
	}
	if len(dist) != 2 {
		return 0
	}
	g := factor(procs, 2)
	if l.Dims[dist[0]].Procs != g[0] || l.Dims[dist[1]].Procs != g[1] {
		return 0
	}
	if dim == dist[0] {
		return 1
	}
	return 2
}

// gridPattern is the trained pattern of msg's shift along its processor
// grid dimension (grid-shift-1 or -2), or "" where msg is no open shift
// on the grid or the model has no curve for it at this processor count
// (the grid of another count has other pairs; its open shift then
// prices it, as before).
func (e *est) gridPattern(msg *Message) string {
	if msg.grid == 0 || (msg.Pattern != machine.PatternOpenShift && msg.Pattern != machine.PatternOpenShiftStrided) {
		return ""
	}
	g := machine.PatternGridShift1
	if msg.grid == 2 {
		g = machine.PatternGridShift2
	}
	if _, ok := e.opt.Machine.Comm[e.d.Procs][g]; !ok {
		return ""
	}
	return g
}
