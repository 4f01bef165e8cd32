package complexity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pfls/pfls/parser"
)

// This file joins exact counting (exact.go), work and span, MOD sets of
// routines and the numbered unknowns to the model of model.go.

// exactLoop is the sum of body over DO v = lo, hi, step with the true
// trip count max(0, ⌊(hi − lo + step)/step⌋): a guarded count where the
// range may be empty or the bounds are MIN or MAX of affine expressions.
// ok is false under the report's convention (Options.Pips), when the
// bounds are not polynomial, or when the count is too large to analyse;
// the caller then applies the report's formula.
func (m *unitModel) exactLoop(d *parser.DoStmt, body Poly, e env, st *Stats, notes *[]string) (Poly, bool) {
	if m.pips {
		return Poly{}, false
	}
	los, ok1 := m.boundAlts(d.Lo, e)
	his, ok2 := m.boundAlts(d.Hi, e)
	if !ok1 || !ok2 {
		return Poly{}, false
	}
	// A body or a bound that is already TooLarge (a construct nested too
	// deep, a literal or PARAMETER past the budgets) or Unbounded is left
	// to the report's formula, whose sums absorb it into TooLarge with the
	// notes of limits.go: guarded sums would keep it as a factor.
	if spoilt(body) {
		return Poly{}, false
	}
	for _, a := range append(append([]boundAlt(nil), los...), his...) {
		if spoilt(a.val) {
			return Poly{}, false
		}
	}
	idx := d.Var.Name
	stepVal := int64(1)
	if d.Step != nil {
		sp, okS := m.value(d.Step, e, nil)
		if !okS {
			return Poly{}, false
		}
		if spoilt(sp) {
			return Poly{}, false
		}
		v, isConst := sp.Value()
		if !isConst {
			return m.symbolicStep(idx, body, los, his, sp, st, notes)
		}
		if !v.IsInt() || v.Sign() == 0 || !v.Num().IsInt64() {
			return Poly{}, false
		}
		stepVal = v.Num().Int64()
	}
	sum, ok, sumNotes := m.memo.loop(body, idx, los, his, stepVal)
	if !ok {
		*notes = append(*notes, fmt.Sprintf("too large to analyse exactly (more than %d pieces): ranges assumed non-empty", MaxGuardTerms))
		return Poly{}, false
	}
	if spoilt(sum) {
		// A sum past the budgets of limits.go: the report's formula meets
		// them too and gives TooLarge with its note.
		return Poly{}, false
	}
	st.RangeGuessed++
	*notes = append(*notes, sumNotes...)
	return sum, true
}

// symbolicStep sums over DO v = lo, hi, S with S a symbol (a blocked
// loop). Where the bounds and the step are parameters of the unit, the
// count is exact (blockedSum). Otherwise v = lo + S·t for t = 0 … T − 1
// with T = (hi − lo + 1)/S, exact when S divides the number of values
// hi − lo + 1; conditions on v that this makes non-affine are assumed as
// the report does.
func (m *unitModel) symbolicStep(idx string, body Poly, los, his []boundAlt, step Poly, st *Stats, notes *[]string) (Poly, bool) {
	if !step.IsMonomial() || len(los) != 1 || len(his) != 1 {
		return Poly{}, false
	}
	if sum, ok := m.blockedSum(idx, body, los[0], his[0], step, notes); ok {
		st.RangeGuessed++
		return sum, true
	}
	lo, hi := los[0].val, his[0].val
	trips, ok := hi.Sub(lo).Add(Int(1)).Div(step)
	if !ok {
		return Poly{}, false
	}
	x := &exactSum{}
	t := x.fresh("T", body, lo, hi, step)
	b, ok := substGuarded(body, idx, lo.Add(step.Mul(Var(t))))
	if !ok {
		return Poly{}, false
	}
	var out []gterm
	for _, term := range splitGuarded(b) {
		atoms := append(append(append([]gatom(nil), los[0].guard...), his[0].guard...), term.atoms...)
		atoms = append(atoms, gatom{atom{g: Var(t)}, true}, gatom{atom{g: trips.Sub(Int(1)).Sub(Var(t))}, true})
		out = append(out, x.sumVar(t, gterm{atoms, term.p})...)
		if x.tooLarge {
			return Poly{}, false
		}
	}
	// Conditions on the step itself (a block not empty) are assumed.
	sum := joinGuarded(out)
	var keep []gterm
	for _, term := range splitGuarded(sum) {
		var atoms []gatom
		alive := true
		for _, a := range term.atoms {
			if hasAny(a.a.g, step.Vars()) {
				if !a.main {
					alive = false
				}
				continue
			}
			atoms = append(atoms, a)
		}
		if alive {
			keep = append(keep, gterm{atoms, term.p})
		}
	}
	if spoilt(joinGuarded(keep)) {
		return Poly{}, false
	}
	st.RangeGuessed++
	*notes = append(*notes, "assumes the step "+step.String()+" divides the number of values "+hi.Sub(lo).Add(Int(1)).String()+" and every block is full")
	return joinGuarded(keep), true
}

// blockedSum is the exact sum of body over DO v = lo, hi, S for a
// symbolic step S ≥ 1 and bounds in the unit's parameters: with
// Q = ⌊(hi − lo)/S⌋ (the floor variable FLOOR((hi - lo)/S)) the loop runs
// Q + 1 times where hi ≥ lo, v = lo + S·t for t = 0 … Q. Writing
// hi − lo = S·Q + R with 0 ≤ R ≤ S − 1, a condition of the body in t is
// decided over the blocks t = 0 … Q − 1 at both ends (it is affine in t)
// and at the last block t = Q by Fourier–Motzkin over the monomials
// (S·Q among them); one the facts cannot decide is assumed over the
// first blocks, with a note, and kept as a condition at the last.
func (m *unitModel) blockedSum(idx string, body Poly, lo, hi boundAlt, step Poly, notes *[]string) (Poly, bool) {
	if len(lo.guard) > 0 || len(hi.guard) > 0 || step.Terms()[0].Coef.Sign() <= 0 {
		return Poly{}, false
	}
	for _, p := range []Poly{lo.val, hi.val, step} {
		for _, v := range plainVars(p) {
			if !m.isParam(v) {
				return Poly{}, false
			}
		}
	}
	d := hi.val.Sub(lo.val)
	q := floorVar(d, step)
	if _, isNum := q.Value(); isNum {
		return Poly{}, false
	}
	sq := step.Mul(q)
	one := Int(1)
	// R = d − S·Q in [0, S − 1]; S ≥ 1; the loop not empty; Q ≥ 0.
	facts := []Poly{d.Sub(sq), step.Sub(one).Sub(d).Add(sq), step.Sub(one), d, q, sq}
	// Over the blocks 0 … Q − 1 (none when Q = 0): Q ≥ 1, S·Q ≥ S.
	factsA := append(append([]Poly(nil), facts...), q.Sub(one), sq.Sub(step))
	x := &exactSum{}
	t := x.fresh("T", body, lo.val, hi.val, step)
	b, ok := substGuarded(body, idx, lo.val.Add(step.Mul(Var(t))))
	if !ok {
		return Poly{}, false
	}
	var out []gterm
	for _, term := range splitGuarded(b) {
		if atoms, alive, ok := decideAtoms(term.atoms, t, factsA, []Poly{Int(0), q.Sub(one)}, x); !ok {
			return Poly{}, false
		} else if alive {
			s, ok := Sum(term.p, t, Int(0), q.Sub(one))
			if !ok {
				return Poly{}, false
			}
			out = append(out, gterm{atoms, s})
		}
		if atoms, alive, ok := decideAtoms(term.atoms, t, facts, []Poly{q}, nil); !ok {
			return Poly{}, false
		} else if alive {
			p, ok := term.p.Subst(t, q)
			if !ok {
				return Poly{}, false
			}
			out = append(out, gterm{atoms, p})
		}
	}
	sum := indicator(d, true).Mul(joinGuarded(out))
	if spoilt(sum) || len(splitGuarded(sum)) > MaxGuardTerms {
		return Poly{}, false
	}
	*notes = append(*notes, x.notes...)
	*notes = append(*notes, q.String()+" is ⌊("+d.String()+")/"+step.String()+"⌋: the loop over "+idx+" runs it + 1 times where "+hi.val.String()+" ≥ "+lo.val.String()+" (assumes the step "+step.String()+" ≥ 1)")
	return sum, true
}

// decideAtoms decides the conditions of a guard that name t, affine in
// t, at the points pts (both ends of a range of t, or one point) from
// facts (polynomials ≥ 0, their monomials taken as unknowns): a
// condition true at every point is dropped, one false at every point
// kills the term (alive false). An undecided one is kept with t at the
// point when there is one point; over a range it is assumed through x
// (main true, the others false), or ok is false when x is nil.
func decideAtoms(atoms []gatom, t string, facts, pts []Poly, x *exactSum) (out []gatom, alive, ok bool) {
	for _, a := range atoms {
		if !a.a.g.Has(t) {
			// Conditions on the parameters alone that the facts decide
			// (a block not empty: S ≥ 1) go too.
			if a.a.mod == 0 {
				rows := append(append([]Poly(nil), facts...), a.a.g.Neg().Sub(Int(1)))
				if !feasible(rows) {
					continue
				}
				rows[len(rows)-1] = a.a.g
				if !feasible(rows) {
					return nil, false, true
				}
			}
			out = append(out, a)
			continue
		}
		_, hi := a.a.g.Degree(t)
		allTrue, allFalse := a.a.mod == 0 && hi <= 1, a.a.mod == 0 && hi <= 1
		var at Poly
		for _, pt := range pts {
			g, ok := a.a.g.Subst(t, pt)
			if !ok {
				return nil, false, false
			}
			at = g
			if !allTrue && !allFalse {
				break
			}
			rows := append(append([]Poly(nil), facts...), g.Neg().Sub(Int(1)))
			allTrue = allTrue && !feasible(rows)
			rows[len(rows)-1] = g
			allFalse = allFalse && !feasible(rows)
		}
		switch {
		case allTrue:
		case allFalse:
			return nil, false, true
		case len(pts) == 1:
			var live bool
			if out, live = addAtom(out, atom{g: at, mod: a.a.mod}, a.main); !live {
				return nil, false, true
			}
		case x == nil:
			return nil, false, false
		default:
			x.assume(a)
			if !a.main {
				return nil, false, true
			}
		}
	}
	return out, true, true
}

// spoilt reports whether p holds TooLarge or Unbounded, which only the
// report's formula absorbs.
func spoilt(p Poly) bool { return p.Has(TooLarge) || p.Has(Unbounded) }

func hasAny(p Poly, vars []string) bool {
	for _, v := range vars {
		if p.Has(v) {
			return true
		}
	}
	return false
}

// boundAlts returns the alternatives of a loop bound: one for a
// polynomial bound, one per argument for MIN and MAX (guarded by the
// conditions that make it the smallest or the largest; the first argument
// is the one the report's convention takes).
func (m *unitModel) boundAlts(x parser.Expr, e env) ([]boundAlt, bool) {
	if p, ok := x.(*parser.Paren); ok {
		return m.boundAlts(p.X, e)
	}
	if c, ok := x.(*parser.Call); ok {
		if id, ok := c.Fun.(*parser.Ident); ok && len(c.Args) >= 2 {
			sym := m.sc.Lookup(id.Name)
			isMin := id.Name == "MIN" || id.Name == "MIN0"
			isMax := id.Name == "MAX" || id.Name == "MAX0"
			if (isMin || isMax) && (sym == nil || sym.Rank() == 0 && (sym.Intrinsic || sym.Kind != parser.SymVariable || !sym.Declared)) {
				return m.minMaxAlts(c.Args, isMin, e)
			}
		}
	}
	v, ok := m.value(x, e, nil)
	if !ok {
		return nil, false
	}
	return []boundAlt{{val: v}}, true
}

func (m *unitModel) minMaxAlts(args []parser.Expr, isMin bool, e env) ([]boundAlt, bool) {
	// Each argument a single polynomial (nested MIN/MAX are not taken).
	vals := make([]Poly, len(args))
	for i, a := range args {
		v, ok := m.value(a, e, nil)
		if !ok {
			return nil, false
		}
		vals[i] = v
	}
	var out []boundAlt
	for i := range vals {
		var guard []gatom
		ok := true
		for k := range vals {
			if k == i || !ok {
				continue
			}
			// MIN: vals[i] ≤ vals[k] (strictly for k < i); MAX: ≥.
			d := vals[k].Sub(vals[i])
			if !isMin {
				d = d.Neg()
			}
			if k < i {
				d = d.Sub(Int(1))
			}
			guard, ok = addAtom(guard, atom{g: d}, i == 0)
		}
		if ok {
			out = append(out, boundAlt{guard, vals[i]})
		}
	}
	return out, len(out) > 0
}

// nonEmpty is 1 where DO lo, hi, step runs at least once: the guard
// [hi ≥ lo] (or [lo ≥ hi] for a negative step), or 1 under the report's
// convention and for steps that are not constants.
func (m *unitModel) nonEmpty(lo, hi, step Poly) Poly {
	s, ok := step.Value()
	if m.pips || !ok {
		return Int(1)
	}
	if s.Sign() > 0 {
		return indicator(hi.Sub(lo), true)
	}
	return indicator(lo.Sub(hi), true)
}

// finish fills in the shown forms of an exact count: the polynomial shown
// with its condition, and every piece. Where the conditions are in the
// routine's parameters alone the polynomial shown is the piece that holds
// for large values; where they involve loop indices of enclosing loops
// it is the piece of the report's convention (ranges not empty).
func finish(count Poly, param func(string) bool) (cost Poly, pieces []Piece, when []Cond, note string) {
	if !isGuarded(count) {
		return count, nil, nil, ""
	}
	terms := splitGuarded(count)
	params := true
	for _, v := range guardVars(terms) {
		if param != nil && !param(v) {
			params = false
		}
	}
	if !params && distinctAtoms(terms) > maxIndexAtoms {
		// Conditions on the indices of enclosing loops, too many to list:
		// the piece of the report's convention, with its conditions.
		main, assumed := assumeGuards(count)
		var when []Cond
		for _, a := range assumed {
			when = append(when, Cond{G: a.g, Mod: a.mod})
		}
		return main, nil, simplifyConds(when), ""
	}
	ps, ok := Pieces(count)
	floors := false
	if !ok && len(terms) <= maxFloorTerms && hasCongruence(terms) {
		// Several parities multiply the pieces: the same count with its
		// congruences written through floors splits on inequalities alone.
		ps, ok = Pieces(congruencesAsFloors(count))
		floors = ok
	}
	if !ok {
		c, _ := assumeGuards(count)
		return c, nil, nil, fmt.Sprintf("too large to analyse into pieces (more than %d): ranges assumed non-empty", MaxPieces)
	}
	if len(ps) == 1 {
		return ps[0].Cost, nil, ps[0].When, ""
	}
	if params {
		lp := LargePiece(ps)
		if floors {
			// Shown as the report would: where every such floor divides
			// exactly ("IL even"), the floors are quotients.
			lp = evenFloors(lp)
		}
		return lp.Cost, ps, lp.When, ""
	}
	main, _ := assumeGuards(count)
	for _, p := range ps {
		if p.Cost.Equal(main) {
			return p.Cost, ps, p.When, ""
		}
	}
	return main, ps, nil, ""
}

// maxFloorTerms and maxFloorMod bound the counts whose congruences are
// written through floors for the pieces (a product of m − 1 factors per
// congruence of each term): past them the report's convention is shown.
const (
	maxFloorTerms = 64
	maxFloorMod   = 4
)

// hasCongruence reports whether a guarded count has a congruence, each
// of a modulus at most maxFloorMod.
func hasCongruence(terms []gterm) bool {
	found := false
	for _, t := range terms {
		for _, a := range t.atoms {
			if a.a.mod > maxFloorMod {
				return false
			}
			found = found || a.a.mod != 0
		}
	}
	return found
}

// maxIndexAtoms bounds the conditions of a count in the indices of
// enclosing loops that are split into pieces for the hover.
const maxIndexAtoms = 6

// distinctAtoms counts the conditions of guarded terms, a condition and
// its complement once.
func distinctAtoms(terms []gterm) int {
	seen := map[string]bool{}
	for _, t := range terms {
		for _, a := range t.atoms {
			k := a.a.g.String()
			if a.a.mod == 0 {
				if c := a.a.g.Neg().Sub(Int(1)).String(); seen[c] {
					continue
				}
			} else {
				k = a.a.g.Sub(Rat(constPart(a.a.g))).String()
			}
			seen[k] = true
		}
	}
	return len(seen)
}

// isParam reports whether a variable stays a symbol of the unit's
// results: a formal, a COMMON variable, a kept name or an unknown.
func (m *unitModel) isParam(v string) bool {
	return isUnknown(v) || isFloor(v) || m.symbolic(v)
}

// ---------------------------------------------------------------------------
// Work and span

// needsSpan reports whether a unit has a parallel construct or calls a
// procedure, so that its span may differ from its work.
func needsSpan(u *parser.Unit) bool {
	found := false
	for _, s := range u.Body {
		parser.Inspect(s, func(n parser.Node) bool {
			switch x := n.(type) {
			case *parser.DoConstruct:
				if parallel(x) {
					found = true
				}
			case *parser.ForallStmt, *parser.WhereStmt, *parser.CallStmt, *parser.Call:
				found = true
			case *parser.AssignStmt:
				found = arraySyntax(u.Scope, x.LHS)
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// arrayElements is the number of elements an array expression (a whole
// array or a section) stands for; ok is false for a scalar or an element.
func (m *unitModel) arrayElements(x parser.Expr, e env) (Poly, bool, bool) {
	switch v := x.(type) {
	case *parser.Ident:
		sym := m.sc.Lookup(v.Name)
		if sym == nil || sym.Rank() == 0 {
			return Poly{}, false, true
		}
		total := Int(1)
		dims, de := m.dimsAt(sym, e)
		for i, d := range dims {
			lo := Int(1)
			if d.Lower != nil {
				l, ok := m.value(d.Lower, de, nil)
				if !ok {
					return Poly{}, true, false
				}
				lo = l
			}
			if d.Upper == nil {
				if u, isAssumed := m.assumedExtent(sym, i); isAssumed {
					total = total.Mul(u)
					continue
				}
				return Poly{}, true, false
			}
			hi, ok := m.value(d.Upper, de, nil)
			if !ok {
				return Poly{}, true, false
			}
			total = total.Mul(hi.Sub(lo).Add(Int(1)))
		}
		return total, true, true
	case *parser.Call:
		id, ok := v.Fun.(*parser.Ident)
		if !ok {
			return Poly{}, false, true
		}
		sym := m.sc.Lookup(id.Name)
		if sym == nil || sym.Rank() == 0 || len(v.Args) != sym.Rank() {
			return Poly{}, false, true
		}
		var counts []Poly
		section := false
		for i, a := range v.Args {
			t, ok := a.(*parser.Triplet)
			if !ok {
				continue
			}
			section = true
			dims, de := m.dimsAt(sym, e)
			d := dims[i]
			lo, hi, step := Int(1), Poly{}, Int(1)
			var los, his []boundAlt
			okAll := true
			if t.Lo != nil {
				los, okAll = m.sectionBound(t.Lo, e)
			} else if d.Lower != nil {
				lo, okAll = m.value(d.Lower, de, nil)
			}
			var ok2 bool
			if t.Hi != nil {
				his, ok2 = m.sectionBound(t.Hi, e)
			} else if d.Upper != nil {
				hi, ok2 = m.value(d.Upper, de, nil)
			} else if u, isAssumed := m.assumedExtent(sym, i); isAssumed {
				hi, ok2 = u, true // from a lower bound of 1
				if d.Lower != nil {
					var l Poly
					l, ok2 = m.value(d.Lower, de, nil)
					hi = l.Add(u).Sub(Int(1))
				}
			}
			ok3 := true
			if t.Stride != nil {
				step, ok3 = m.value(t.Stride, e, nil)
			}
			if !okAll || !ok2 || !ok3 {
				return Poly{}, true, false
			}
			if los == nil {
				los = []boundAlt{{val: lo}}
			}
			if his == nil {
				his = []boundAlt{{val: hi}}
			}
			n, ok := m.sectionCount(los, his, step)
			if !ok {
				return Poly{}, true, false
			}
			counts = append(counts, n)
		}
		return m.product(counts), section, true
	}
	return Poly{}, false, true
}

// sectionCount is the number of elements of a section's subscript
// triplet lo:hi:step, max(0, ⌊(hi − lo + step)/step⌋) (Fortran 2018
// 9.5.3.3.2): with a constant step, exactly, as a DO loop's count
// (exactLoop): X(M:N) has none where M > N, X(1:N:2) ⌈N/2⌉ elements. Under
// the report's convention (Options.Pips), with a symbolic step, and in
// the estimator's prices of one statement out of its unit's flow
// (elementReductions: ExprCost, StmtCost; partition sums the loops
// around it and takes no guards on their indices), (hi − lo + step)/step
// (TripCount).
//
// A bound is given by its alternatives (sectionBound: X(MAX(M,1):N:2)
// has lo = M where M ≥ 1, and 1 where M < 1), summed as a DO loop with
// those bounds is. A bound of several alternatives has no count under
// the report's convention, with a symbolic step or out of flow.
func (m *unitModel) sectionCount(los, his []boundAlt, step Poly) (Poly, bool) {
	sv, ok := step.Value()
	exact := ok && !m.pips && !m.elementReductions && sv.IsInt() && sv.Sign() != 0 && sv.Num().IsInt64()
	for _, a := range append(append([]boundAlt(nil), los...), his...) {
		exact = exact && !spoilt(a.val)
	}
	if exact {
		x := &exactSum{}
		if n, ok := x.loop(Int(1), sectionIndex, los, his, sv.Num().Int64()); ok && !spoilt(n) {
			return n, true
		}
	}
	if len(los) != 1 || len(his) != 1 {
		return Poly{}, false
	}
	return TripCount(los[0].val, his[0].val, step)
}

// sectionBound is the alternatives of a section's bound x, as a DO
// loop's (boundAlts), where sectionCount can sum them; elsewhere its
// one value.
func (m *unitModel) sectionBound(x parser.Expr, e env) ([]boundAlt, bool) {
	if m.pips || m.elementReductions {
		v, ok := m.value(x, e, nil)
		return []boundAlt{{val: v}}, ok
	}
	return m.boundAlts(x, e)
}

// product multiplies the element counts of a section's dimensions. Where
// their exact counts multiply past the budgets of limits.go (a strided
// section of many dimensions, each count with its parities), the
// product of each count's piece with its range non-empty, with a note.
func (m *unitModel) product(counts []Poly) Poly {
	total := Int(1)
	for _, n := range counts {
		total = total.Mul(n)
	}
	if !spoilt(total) {
		return total
	}
	plain := Int(1)
	for _, n := range counts {
		main, _ := assumeGuards(n)
		plain = plain.Mul(main)
	}
	if spoilt(plain) {
		return total
	}
	note := "too large to analyse exactly: a section's ranges assumed non-empty"
	if !slices.Contains(m.res.Notes, note) {
		m.res.Notes = append(m.res.Notes, note)
	}
	return plain
}

// sectionIndex is the index sectionCount sums over: no Fortran name.
const sectionIndex = "\x01section"

// arrayWork is the cost of an array assignment or WHERE over every
// element, from the cost of one element (the span); once is the part of
// it paid once, not per element (the transformational intrinsics of the
// right side, arrayexpr.go).
func (m *unitModel) arrayWork(lhs parser.Expr, perElement, once Poly, e env, notes *[]string) Poly {
	n, isArray, ok := m.arrayElements(lhs, e)
	if !isArray || m.spanMode {
		return perElement
	}
	m.spanDiffers = true
	perElement = perElement.Sub(once)
	if !ok {
		*notes = append(*notes, "array shape unknown: "+m.unknownName("the number of elements of an array assignment"))
		m.elements = Var(m.lastUnknown())
		return perElement.Mul(m.elements).Add(once)
	}
	m.elements = n
	return perElement.Mul(n).Add(once)
}

// ---------------------------------------------------------------------------
// Unknowns

// unknowns numbers the unknowns of one unit: UNKNOWN_1, UNKNOWN_2, ...,
// each with what it stands for (PIPS's UV0, UV1, ...). The span pass
// names its unknowns as the work pass did: prior holds the work pass's
// notes, and an unknown standing for the same thing (in the same order,
// for things said alike) takes that one's name; one of its own is
// numbered after them.
type unknowns struct {
	notes []string
	prior []string
	used  []bool
	last  string
}

// unknownName makes a new unknown and returns its note.
func (m *unitModel) unknownName(what string) string {
	if m.unknowns == nil {
		m.unknowns = &unknowns{}
	}
	k := m.unknowns
	for i, n := range k.prior {
		name, w, _ := strings.Cut(n, ": ")
		if w == what && !k.used[i] {
			k.used[i] = true
			k.last = name
			return n
		}
	}
	k.last = fmt.Sprintf("UNKNOWN_%d", len(k.prior)+len(k.notes)+1)
	note := k.last + ": " + what
	k.notes = append(k.notes, note)
	return note
}

// unknownsMade is the number of unknowns the work pass has made.
func (m *unitModel) unknownsMade() int {
	if m.unknowns == nil {
		return 0
	}
	return len(m.unknowns.notes)
}

func (m *unitModel) lastUnknown() string {
	return m.unknowns.last
}

// newUnknown returns a new unknown standing for what.
func (m *unitModel) newUnknown(what string) (Poly, string) {
	note := m.unknownName(what)
	return Var(m.lastUnknown()), note
}

// line is the 1-based line of a position of the unit, or 0.
func (m *unitModel) line(p parser.Pos) int {
	if m.f == nil || m.u == nil {
		return 0
	}
	return m.f.Lines.Line(m.u.Abs(p)) + 1
}

// isUnknown reports whether a variable is an unknown.
func isUnknown(name string) bool {
	return strings.HasPrefix(name, "UNKNOWN_")
}

// ---------------------------------------------------------------------------
// MOD sets

// modOf returns the names a statement may change, with calls resolved
// through the MOD sets of the callees whose bodies are in view.
func (m *unitModel) modOf(s parser.Stmt) map[string]bool {
	out := map[string]bool{}
	m.addModOf(s, out)
	return out
}

// addModOf adds the names of modOf(s) to out.
func (m *unitModel) addModOf(s parser.Stmt, out map[string]bool) {
	parser.Inspect(s, func(n parser.Node) bool {
		switch x := n.(type) {
		case *parser.AssignStmt:
			if id := modName(x.LHS); id != nil {
				out[id.Name] = true
			}
		case *parser.DoStmt:
			if x.Var != nil {
				out[x.Var.Name] = true
			}
		case *parser.CallStmt:
			for k := range m.callMod(x.Name.Name, x.Args) {
				out[k] = true
			}
			if obj := boundCallObject(x); obj != "" {
				out[obj] = true
			}
		case *parser.IOStmt:
			m.ioDefines(x, out)
		case parser.Expr:
			// Inside an expression, an implied DO's index changes, and the
			// arguments a user function changes.
			impliedDoVars(x, out)
			m.funcMods(x, out)
			return false
		}
		return true
	})
}

// ioDefines adds to out the variables an I/O statement defines (Fortran
// 2018 12.6.3, 12.11, 12.10.2): a READ's input items (readItems) or, for
// a namelist READ (NML=G, or G second in the list), the variables of the
// NAMELIST statements that name G; every statement's IOSTAT=, IOMSG=,
// SIZE= and NEWUNIT= variables; an INQUIRE's specifiers but UNIT=, FILE=
// and ID=.
func (m *unitModel) ioDefines(x *parser.IOStmt, out map[string]bool) {
	if x.Keyword == "READ" {
		readItems(x.Items, out)
	}
	for i, c := range x.Control {
		k, ok := c.(*parser.KeywordArg)
		if !ok || k.Name == nil {
			if id, ok := c.(*parser.Ident); ok && i == 1 && x.Keyword == "READ" {
				m.namelistVars(id.Name, out)
			}
			continue
		}
		switch name := k.Name.Name; {
		case name == "NML" && x.Keyword == "READ":
			if id, ok := k.Value.(*parser.Ident); ok {
				m.namelistVars(id.Name, out)
			}
		case name == "IOSTAT" || name == "IOMSG" || name == "SIZE" || name == "NEWUNIT",
			x.Keyword == "INQUIRE" && name != "UNIT" && name != "FILE" && name != "ID":
			if id := RootIdent(k.Value); id != nil {
				out[id.Name] = true
			}
		}
	}
}

// namelistVars adds to out the variables of the namelist group g
// (NamelistVars).
func (m *unitModel) namelistVars(g string, out map[string]bool) {
	for _, v := range NamelistVars(m.u, g) {
		out[v] = true
	}
}

// NamelistVars is the variables of the namelist group g in the NAMELIST
// statements of unit u and its hosts (all those of a statement that
// names several groups: it does not keep which is whose); nil when g is
// no namelist group there. A namelist READ sets them all (Fortran 2018
// 12.6.3).
func NamelistVars(u *parser.Unit, g string) []string {
	if u == nil || u.Scope == nil {
		return nil
	}
	if sym := u.Scope.Lookup(g); sym == nil || sym.Kind != parser.SymNamelist {
		return nil
	}
	var out []string
	for ; u != nil; u = u.Parent {
		for _, s := range u.Body {
			nl, ok := s.(*parser.NameListStmt)
			if !ok || nl.Keyword != "NAMELIST" || !slices.ContainsFunc(nl.Args, func(a parser.Expr) bool {
				id, ok := a.(*parser.Ident)
				return ok && id.Name == g
			}) {
				continue
			}
			for _, n := range nl.Names {
				if id := RootIdent(n); id != nil {
					out = append(out, id.Name)
				}
			}
		}
	}
	return out
}

// readItems adds to out the variables a READ's input items define: each
// item's variable, also inside implied DOs, READ (*,*) (B(M), M = 1, N)
// defining B (Fortran 2018 12.6.3); the implied DOs' indices come from
// the walk of the item expressions (impliedDoVars).
func readItems(items []parser.Expr, out map[string]bool) {
	for _, it := range items {
		if d, ok := it.(*parser.ImpliedDo); ok {
			readItems(d.Items, out)
			continue
		}
		if id := RootIdent(it); id != nil {
			out[id.Name] = true
		}
	}
}

// impliedDoVars adds to out the indices of the implied DOs inside x
// (an array constructor's). The usual operators and references are
// walked here, faster than parser.Inspect, which walks the rest.
func impliedDoVars(x parser.Expr, out map[string]bool) {
	switch v := x.(type) {
	case nil, *parser.Ident, *parser.Lit:
	case *parser.Binary:
		impliedDoVars(v.X, out)
		impliedDoVars(v.Y, out)
	case *parser.Unary:
		impliedDoVars(v.X, out)
	case *parser.Paren:
		impliedDoVars(v.X, out)
	case *parser.Call:
		impliedDoVars(v.Fun, out)
		for _, a := range v.Args {
			impliedDoVars(a, out)
		}
	default:
		parser.Inspect(x, func(n parser.Node) bool {
			if d, ok := n.(*parser.ImpliedDo); ok {
				out[d.Var.Name] = true
			}
			return true
		})
	}
}

// callMod returns the caller's names that CALL name(args) may change:
// the actual arguments the callee writes and, when it writes COMMON
// variables, those of the caller. Without the callee's body every
// argument and every COMMON variable may change.
func (m *unitModel) callMod(name string, args []parser.Expr) map[string]bool {
	out := map[string]bool{}
	var callee *UnitResult
	ok := false
	if m.procs != nil {
		callee, ok = m.procs.summary(name)
	}
	hdr := (*parser.SubprogramStmt)(nil)
	if ok {
		hdr, _ = callee.Unit.Header.(*parser.SubprogramStmt)
	}
	for i, a := range args {
		fi := i // the formal's index
		if k, isK := a.(*parser.KeywordArg); isK {
			// CALL DECR(M=N): the formal of that name.
			a, fi = k.Value, -1
			if hdr != nil && k.Name != nil {
				fi = slices.IndexFunc(hdr.Params, func(p parser.Expr) bool {
					f, isID := p.(*parser.Ident)
					return isID && strings.EqualFold(f.Name, k.Name.Name)
				})
			}
		}
		id := RootIdent(a)
		if id == nil {
			continue
		}
		if hdr != nil && callee.Mod != nil && fi >= 0 && fi < len(hdr.Params) {
			if f, isID := hdr.Params[fi].(*parser.Ident); isID && !callee.Mod[f.Name] {
				// Only components of the formal's, F%C: the same
				// components of a structure variable passed for it.
				comps := modComponents(callee.Mod, f.Name)
				if x, isVar := a.(*parser.Ident); isVar {
					for _, c := range comps {
						out[x.Name+"%"+c] = true
					}
				} else if len(comps) > 0 {
					out[id.Name] = true
				}
				continue
			}
		}
		out[id.Name] = true
	}
	if hdr == nil || callee.Mod == nil || callee.Mod[modCommon] {
		for name, sym := range m.sc.Syms {
			if sym.InCommon {
				out[name] = true
			}
		}
	}
	if callee != nil && callee.Unit != nil && callee.Unit.Scope != nil {
		for k := range callee.Mod {
			if name, host := strings.CutPrefix(k, modHost); host {
				if sym := callee.Unit.Scope.Lookup(name); sym != nil && m.sc.Lookup(name) == sym {
					out[name] = true // the same variable, by host association
				}
			}
		}
	}
	return out
}

// userFunctions calls visit for every reference in x to a user function
// whose body is in view (an ELEMENTAL or a recursive one too): name is
// the specific procedure it resolves to. Array elements, substrings and
// intrinsic functions are not visited, nor functions without a body in
// view, which pfls takes to leave their arguments alone. A unit that
// references none (most of them) is walked once, not at each statement.
func (m *unitModel) userFunctions(x parser.Expr, visit func(name string, c *parser.Call, callee *UnitResult)) {
	if m.procs == nil || x == nil || !m.anyUserFunction() {
		return
	}
	parser.Inspect(x, func(n parser.Node) bool {
		if c, ok := n.(*parser.Call); ok {
			if name, callee, ok := m.userFunction(c); ok {
				visit(name, c, callee)
			}
		}
		return true
	})
}

// anyUserFunction reports whether the unit references a user function in
// view anywhere (userFunction), found once.
func (m *unitModel) anyUserFunction() bool {
	if h, ok := m.procs.(interface{ hasFunctions() bool }); ok && !h.hasFunctions() {
		return false // no function anywhere: no walk
	}
	if m.userFuncs == 0 {
		m.userFuncs = 1
		for _, s := range m.u.Body {
			parser.Inspect(s, func(n parser.Node) bool {
				if c, ok := n.(*parser.Call); ok {
					if _, _, ok := m.userFunction(c); ok {
						m.userFuncs = 2
					}
				}
				return m.userFuncs != 2
			})
		}
	}
	return m.userFuncs == 2
}

// userFunction resolves a reference NAME(args) to a user function whose
// body is in view; ok is false for an array element, a substring, an
// intrinsic, a subroutine or a procedure not in view.
func (m *unitModel) userFunction(c *parser.Call) (string, *UnitResult, bool) {
	if r, ok := m.userFuncOf[c]; ok {
		return r.name, r.callee, r.callee != nil
	}
	name, callee, ok := m.resolveUserFunction(c)
	if m.userFuncOf == nil {
		m.userFuncOf = map[*parser.Call]userFuncRef{}
	}
	if !ok {
		callee = nil
	}
	m.userFuncOf[c] = userFuncRef{name, callee}
	return name, callee, ok
}

// userFuncRef is a reference's resolution by userFunction, remembered:
// the walks of a unit's MOD sets and preconditions meet each one many
// times.
type userFuncRef struct {
	name   string
	callee *UnitResult // nil: not a user function in view
}

func (m *unitModel) resolveUserFunction(c *parser.Call) (string, *UnitResult, bool) {
	id, ok := c.Fun.(*parser.Ident)
	if !ok || m.procs == nil {
		return "", nil, false
	}
	sym := m.sc.Lookup(id.Name)
	switch {
	case sym != nil && sym.Rank() > 0:
		return "", nil, false // an array element
	case (sym == nil || sym.Intrinsic) && parser.IsIntrinsic(id.Name):
		return "", nil, false
	case sym != nil && sym.Type == "CHARACTER" && sym.Kind == parser.SymVariable:
		return "", nil, false // a substring
	}
	name := m.procName(id.Name, c.Args)
	callee, ok := m.procs.summary(name)
	if !ok || callee == nil || callee.Unit == nil {
		return "", nil, false
	}
	if h, ok := callee.Unit.Header.(*parser.SubprogramStmt); !ok || !h.Function {
		return "", nil, false
	}
	return name, callee, true
}

// boundObjects calls visit with the structure variable of every
// reference in x to a type-bound function, G%WORK(5), whose passed
// object may change (Fortran 2018 15.5.2.4 lets it; pfls does not
// resolve the binding): a call through a component that is not one of
// the data components the file's type definitions give.
func (m *unitModel) boundObjects(x parser.Expr, visit func(name string)) {
	if x == nil || !m.hasStructures() {
		return
	}
	parser.Inspect(x, func(n parser.Node) bool {
		if c, ok := n.(*parser.Call); ok {
			if comp, ok := c.Fun.(*parser.Component); ok {
				if _, data := m.componentOf(comp); !data {
					if id := RootIdent(comp.X); id != nil {
						visit(id.Name)
					}
				}
			}
		}
		return true
	})
}

// hasStructures reports whether the unit sees a variable of derived type
// (its own, its hosts' or its modules'), without which no reference is
// a type-bound procedure's; found once.
func (m *unitModel) hasStructures() bool {
	if m.structs == 0 {
		m.structs = 1
		for sc := m.sc; sc != nil && m.structs == 1; sc = sc.Parent {
			for _, sym := range sc.Syms {
				if sym.TypeSpec != nil && (sym.TypeSpec.Name == "TYPE" || sym.TypeSpec.Name == "CLASS") {
					m.structs = 2
					break
				}
			}
		}
	}
	return m.structs == 2
}

// boundCallObject is the structure variable of a type-bound CALL,
// CALL G%INIT(N) (its passed object may change), or "".
func boundCallObject(c *parser.CallStmt) string {
	if c.Proc == nil {
		return ""
	}
	if id := RootIdent(c.Proc); id != nil {
		return id.Name
	}
	return ""
}

// hasUserFunctions reports whether x references a function whose
// effects funcEffects applies.
func (m *unitModel) hasUserFunctions(x parser.Expr) bool {
	found := false
	m.userFunctions(x, func(string, *parser.Call, *UnitResult) { found = true })
	if !found {
		m.boundObjects(x, func(string) { found = true })
	}
	return found
}

// funcMods adds to out the caller's names that the user functions
// referenced in x may change (callMod of each reference): a function may
// define its arguments (Fortran 2018 10.1.4 only forbids that to affect
// the rest of the statement), as K = HALF(N) with N = N / 2 in HALF;
// a type-bound function may change its object.
func (m *unitModel) funcMods(x parser.Expr, out map[string]bool) {
	m.userFunctions(x, func(name string, c *parser.Call, _ *UnitResult) {
		for k := range m.callMod(name, c.Args) {
			out[k] = true
		}
	})
	m.boundObjects(x, func(name string) { out[name] = true })
}

// funcEffects updates the preconditions after a statement's expressions
// xs are evaluated: the variables their user functions may change are
// forgotten, then those a function assigns a known value take it, in the
// caller's terms (outValues, as for CALL).
func (m *unitModel) funcEffects(e env, xs ...parser.Expr) {
	for _, x := range xs {
		m.userFunctions(x, func(name string, c *parser.Call, callee *UnitResult) {
			out := m.outValues(callee, true, c.Args, e)
			for k := range m.callMod(name, c.Args) {
				m.forget(e, k)
			}
			for k, v := range out {
				e[k] = v
			}
		})
		m.boundObjects(x, func(name string) { m.forget(e, name) })
	}
}

// modComponents lists the components of formal f that a MOD set names
// (f%C), without the structure's name.
func modComponents(mod map[string]bool, f string) []string {
	var out []string
	for k := range mod {
		if RootOf(k) == f && k != f {
			out = append(out, k[len(f)+1:])
		}
	}
	return out
}

// modHost starts the MOD set's names of the host's variables a routine
// may change (modHost + "NN" for a module variable NN set by a module
// procedure); no Fortran name starts with it.
const modHost = "/HOST/"

// modCommon is the MOD set's mark that a routine may write COMMON
// variables.
const modCommon = "/COMMON/"

// unitMod is the MOD set of a unit: its formals it may change (a
// structure's components apart: F%C when it changes only F's component
// C), and modCommon when it may change a COMMON variable.
// They are among the names it may assign (writtenSet, made once).
func (m *unitModel) unitMod() map[string]bool {
	out := map[string]bool{}
	for k := range m.writtenSet() {
		sym := m.sc.Lookup(RootOf(k)) // X%C = ... changes X's component C
		switch {
		case sym != nil && sym.Dummy:
			out[k] = true
		case sym != nil && sym.InCommon:
			out[modCommon] = true
		case sym != nil && sym.Kind == parser.SymVariable && m.sc.Syms[RootOf(k)] == nil:
			// A variable of the host (a module procedure's module, an
			// internal procedure's host): its callers that see it too
			// see it change (callMod).
			out[modHost+RootOf(k)] = true
		}
	}
	// An INTENT(OUT) dummy becomes undefined on entry, its components
	// default-initialized (Fortran 2018 8.5.10): it changes as a whole,
	// also where the unit assigns only some components or none.
	if hdr, ok := m.u.Header.(*parser.SubprogramStmt); ok {
		for _, p := range hdr.Params {
			if id, ok := p.(*parser.Ident); ok {
				if sym := m.sc.Syms[id.Name]; sym != nil && sym.Dummy && slices.Contains(sym.Attrs, "INTENT(OUT)") {
					out[id.Name] = true
				}
			}
		}
	}
	return out
}

// ---------------------------------------------------------------------------
// Substitution of actual arguments

// actualValue is the value of an actual argument for the callee's
// formal: its polynomial through the preconditions, else an unknown of
// the caller.
func (m *unitModel) actualValue(callee string, i int, arg parser.Expr, e env) Poly {
	if arg != nil {
		if v, ok := m.value(arg, e, nil); ok {
			return v
		}
	}
	p, note := m.newUnknown(fmt.Sprintf("argument %d of %s at line %d, whose value is not known", i+1, callee, m.lineOf(arg)))
	m.res.Notes = append(m.res.Notes, note)
	return p
}

func (m *unitModel) lineOf(x parser.Expr) int {
	if x == nil {
		return 0
	}
	return m.line(x.Pos())
}

// renameUnknowns gives the unknowns of a callee's count new numbers in
// the caller, with notes saying where they come from.
func (m *unitModel) renameUnknowns(p Poly, callee *UnitResult) Poly {
	var olds []string
	tmp := map[string]string{}
	for _, v := range plainVars(p) {
		if isUnknown(v) {
			olds = append(olds, v)
			tmp[v] = "\x00" + v
		}
	}
	if len(olds) == 0 {
		return p
	}
	p, _ = renameVars(p, tmp)
	fresh := map[string]string{}
	for _, v := range olds {
		what := v + " of " + callee.Unit.Name
		for _, n := range callee.Unknowns {
			if strings.HasPrefix(n, v+": ") {
				what += " (" + strings.TrimPrefix(n, v+": ") + ")"
			}
		}
		_, note := m.newUnknown(what)
		m.res.Notes = append(m.res.Notes, note)
		fresh["\x00"+v] = m.lastUnknown()
	}
	p, _ = renameVars(p, fresh)
	return p
}

// forallSum is the work of one FORALL index: the body summed over its
// values, exactly where the step is a constant.
func (m *unitModel) forallSum(body Poly, s *parser.ForallSpec, e env, lo, hi, step Poly, notes *[]string) Poly {
	if !m.pips {
		if sv, ok := step.Value(); ok && sv.IsInt() && sv.Sign() != 0 && sv.Num().IsInt64() {
			los, ok1 := m.boundAlts(s.Lo, e)
			his, ok2 := m.boundAlts(s.Hi, e)
			if ok1 && ok2 {
				x := &exactSum{}
				if sum, ok := x.loop(body, s.Var.Name, los, his, sv.Num().Int64()); ok {
					*notes = append(*notes, x.notes...)
					return sum
				}
			}
		}
	}
	if sum, ok := SumStep(body, s.Var.Name, lo, hi, step); ok {
		return sum
	}
	trip, _ := TripCount(lo, hi, step)
	*notes = append(*notes, "FORALL body not polynomial in "+s.Var.Name+": multiplied by the number of values")
	return body.Mul(trip)
}

// arraySyntax reports whether an assignment's left side is a whole array
// or a section.
func arraySyntax(sc *parser.Scope, lhs parser.Expr) bool {
	switch v := lhs.(type) {
	case *parser.Ident:
		sym := sc.Lookup(v.Name)
		return sym != nil && sym.Rank() > 0
	case *parser.Call:
		for _, a := range v.Args {
			if _, ok := a.(*parser.Triplet); ok {
				return true
			}
		}
	}
	return false
}
