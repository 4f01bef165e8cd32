package complexity

import (
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Piece is one chamber of a piecewise count: the polynomial that holds
// where every condition holds.
type Piece struct {
	When []Cond
	Cost Poly
}

// Cond is one condition of a piece: an affine inequality G ≥ 0, or a
// congruence Mod | G.
type Cond struct {
	G   Poly
	Mod int64
}

// String prints the condition in ASCII ("M <= 9", "M + 1 >= 2*N",
// "M even").
func (c Cond) String() string { return conditionString(atom{c.G, c.Mod}, false) }

// Unicode prints the condition with ≤ and ≥.
func (c Cond) Unicode() string { return conditionString(atom{c.G, c.Mod}, true) }

// Holds reports whether the condition holds at a point that binds all its
// variables.
func (c Cond) Holds(env map[string]*big.Rat) bool {
	env = bindFloors(env, c.G)
	_, decided, truth := normAtom(atom{c.G.Eval(env), c.Mod})
	return decided && truth
}

// WhenString joins the conditions of a piece with ", ", writing a lower
// and an upper bound of one variable as "1 <= M <= 9" (or "M = 0").
func WhenString(cs []Cond, uni bool) string {
	if len(cs) == 0 {
		return "always"
	}
	le := " <= "
	if uni {
		le = " ≤ "
	}
	// Bounds x ≥ lo and x ≤ hi of single variables.
	type bounds struct {
		lo, hi     *big.Rat
		loAt, hiAt int
	}
	single := map[string]*bounds{}
	for i, c := range cs {
		vs := c.G.Vars()
		if c.Mod != 0 || len(vs) != 1 || c.G.Len() > 2 {
			continue
		}
		k, ok1 := c.G.Coeff(vs[0], 1).Value()
		if !ok1 || k.Abs(k).Cmp(big.NewRat(1, 1)) != 0 {
			continue
		}
		k, _ = c.G.Coeff(vs[0], 1).Value()
		b := single[vs[0]]
		if b == nil {
			b = &bounds{loAt: -1, hiAt: -1}
			single[vs[0]] = b
		}
		c0 := constPart(c.G)
		if k.Sign() > 0 {
			b.lo, b.loAt = new(big.Rat).Neg(c0), i
		} else {
			b.hi, b.hiAt = c0, i
		}
	}
	skip := map[int]bool{}
	joined := map[int]string{}
	fixed := map[string]bool{}
	for v, b := range single {
		if b.loAt < 0 || b.hiAt < 0 {
			continue
		}
		first, second := b.loAt, b.hiAt
		if second < first {
			first, second = second, first
		}
		skip[second] = true
		if b.lo.Cmp(b.hi) == 0 {
			joined[first] = v + " = " + b.lo.RatString()
			fixed[v] = true
		} else {
			joined[first] = b.lo.RatString() + le + v + le + b.hi.RatString()
		}
	}
	var parts []string
	for i, c := range cs {
		if vs := c.G.Vars(); c.Mod != 0 && len(vs) == 1 && fixed[vs[0]] {
			continue // "N = 2" says "N even" and "N mod 3 = 2" too
		}
		switch {
		case skip[i]:
		case joined[i] != "":
			parts = append(parts, joined[i])
		case uni:
			parts = append(parts, c.Unicode())
		default:
			parts = append(parts, c.String())
		}
	}
	return strings.Join(parts, ", ")
}

// conditionString prints an atom: positive terms on the left, negative
// ones on the right, a lone constant on the right.
func conditionString(a atom, uni bool) string {
	if s, ok := floorCondString(a, uni); ok {
		return s
	}
	format := func(p Poly) string {
		if uni {
			return p.Unicode()
		}
		return p.String()
	}
	if a.mod != 0 {
		c := constPart(a.g)
		h := a.g.Sub(Rat(c))
		r := new(big.Int).Mod(new(big.Int).Neg(c.Num()), big.NewInt(a.mod))
		if a.mod == 2 && len(h.Terms()) == 1 && len(h.Vars()) == 1 && h.Terms()[0].Coef.Cmp(big.NewRat(1, 1)) == 0 {
			if r.Sign() == 0 {
				return format(h) + " even"
			}
			return format(h) + " odd"
		}
		return format(h) + " mod " + strconv.FormatInt(a.mod, 10) + " = " + r.String()
	}
	// Variables all on one side: the constant goes to the other.
	c := constPart(a.g)
	v := a.g.Sub(Rat(c))
	sign := 0
	for _, t := range v.Terms() {
		if sign == 0 {
			sign = t.Coef.Sign()
		} else if t.Coef.Sign() != sign {
			sign = 2
		}
	}
	ge, le := " >= ", " <= "
	if uni {
		ge, le = " ≥ ", " ≤ "
	}
	switch sign {
	case 1:
		return format(v) + ge + format(Rat(c).Neg())
	case -1:
		return format(v.Neg()) + le + format(Rat(c))
	}
	var pos, neg []Term
	for _, t := range a.g.Terms() {
		if t.Coef.Sign() > 0 {
			pos = append(pos, t)
		} else {
			neg = append(neg, Term{Coef: new(big.Rat).Neg(t.Coef), Factors: t.Factors})
		}
	}
	l, r := FromTerms(pos), FromTerms(neg)
	// Keep constants on the side without variables when one side is only
	// a constant: "M >= 10", not "M - 10 >= 0".
	if _, ok := l.Value(); ok && !r.IsZero() {
		return format(r) + le + format(l)
	}
	if c := constPart(l); c.Sign() != 0 && !r.IsZero() {
		if _, ok := r.Value(); ok {
			// M + 1 >= 10 → M >= 9
			return format(l.Sub(Rat(c))) + ge + format(r.Sub(Rat(c)))
		}
	}
	return format(l) + ge + format(r)
}

// MaxPieces bounds the pieces shown for one count; past it the count is
// too large to analyse into pieces.
const MaxPieces = 24

// maxCells bounds the chambers tried before merging, maxCoords the
// distinct conditions.
const (
	maxCells  = 1024
	maxCoords = 12
)

type coord struct {
	g     Poly  // inequality coordinate: g ≥ 0 or −g − 1 ≥ 0
	mod   int64 // congruence family: mod | h + k, k one residue
	h     Poly
	keys  map[string]int // congruence: constant residue → index
	nvals int
}

// Pieces returns the chambers of a guarded count: disjoint conditions
// over the variables of its guards and the polynomial in each, merged
// where neighbours agree. A count without guards is one piece with no
// condition. ok is false when there are more than MaxPieces pieces.
func Pieces(p Poly) ([]Piece, bool) {
	if !isGuarded(p) {
		return []Piece{{Cost: p}}, true
	}
	terms := splitGuarded(p)
	if vs := guardVars(terms); len(vs) == 1 {
		if ps, ok := pieces1(terms, vs[0]); ok {
			if len(ps) > MaxPieces {
				return nil, false
			}
			return ps, true
		}
	}
	// Coordinates: one per inequality up to complement, one per
	// congruence family.
	var coords []*coord
	ineqAt := map[string][2]int{} // key → coord, sign (1: g ≥ 0 true)
	congAt := map[string]int{}
	type ref struct{ coord, val int }
	termRefs := make([][]ref, len(terms))
	for i, t := range terms {
		for _, a := range t.atoms {
			if a.a.mod == 0 {
				k := a.a.g.String()
				if at, ok := ineqAt[k]; ok {
					termRefs[i] = append(termRefs[i], ref{at[0], at[1]})
					continue
				}
				comp := a.a.g.Neg().Sub(Int(1)).String()
				if at, ok := ineqAt[comp]; ok {
					termRefs[i] = append(termRefs[i], ref{at[0], 1 - at[1]})
					continue
				}
				coords = append(coords, &coord{g: a.a.g, nvals: 2})
				ineqAt[k] = [2]int{len(coords) - 1, 1}
				termRefs[i] = append(termRefs[i], ref{len(coords) - 1, 1})
				continue
			}
			c := constPart(a.a.g)
			h := a.a.g.Sub(Rat(c))
			fk := strconv.FormatInt(a.a.mod, 10) + "|" + h.String()
			ci, ok := congAt[fk]
			if !ok {
				coords = append(coords, &coord{mod: a.a.mod, h: h, keys: map[string]int{}, nvals: int(a.a.mod)})
				ci = len(coords) - 1
				congAt[fk] = ci
				for r := int64(0); r < a.a.mod; r++ {
					coords[ci].keys[strconv.FormatInt(r, 10)] = int(r)
				}
			}
			r := new(big.Int).Mod(c.Num(), big.NewInt(a.a.mod))
			termRefs[i] = append(termRefs[i], ref{ci, int(r.Int64())})
		}
	}
	if len(coords) > maxCoords {
		return nil, false
	}
	cb := coordBoundsOf(coords)
	// Enumerate the chambers depth first, pruning empty ones.
	type cell struct {
		vals []int // per coordinate: ineq 1 true / 0 false; cong the residue k of h + k
		cost Poly
	}
	var cells []cell
	vals := make([]int, len(coords))
	var gs []Poly
	tooMany := false
	var walk func(i int)
	walk = func(i int) {
		if tooMany {
			return
		}
		if i == len(coords) {
			if len(cells) >= maxCells {
				tooMany = true
				return
			}
			if !congruencesFit(coords, cb, vals) {
				return // IL = 2 with IL odd: no value holds
			}
			cost := Zero()
			for ti, t := range terms {
				holds := true
				for _, r := range termRefs[ti] {
					if vals[r.coord] != r.val {
						holds = false
						break
					}
				}
				if holds {
					cost = cost.Add(t.p)
				}
			}
			cells = append(cells, cell{append([]int(nil), vals...), cost})
			return
		}
		c := coords[i]
		for v := 0; v < c.nvals; v++ {
			vals[i] = v
			if c.mod == 0 {
				g := c.g
				if v == 0 {
					g = g.Neg().Sub(Int(1))
				}
				gs = append(gs, g)
				if feasible(gs) {
					walk(i + 1)
				}
				gs = gs[:len(gs)-1]
				continue
			}
			walk(i + 1)
		}
	}
	walk(0)
	if tooMany {
		return nil, false
	}
	// Merge: a piece is a set of allowed values per coordinate.
	type piece struct {
		allow [][]bool
		cost  Poly
	}
	var ps []piece
	for _, c := range cells {
		allow := make([][]bool, len(coords))
		for i, co := range coords {
			allow[i] = make([]bool, co.nvals)
			allow[i][c.vals[i]] = true
		}
		ps = append(ps, piece{allow, c.cost})
	}
	same := func(a, b []bool) bool {
		for i := range a {
			if a[i] != b[i] {
				return false
			}
		}
		return true
	}
	keys := make([]string, len(ps))
	for i := range ps {
		keys[i] = ps[i].cost.String()
	}
	// differ returns the one coordinate where two pieces differ (-1: none,
	// -2: more than one).
	differ := func(a, b piece) int {
		diff := -1
		for k := range coords {
			if !same(a.allow[k], b.allow[k]) {
				if diff >= 0 {
					return -2
				}
				diff = k
			}
		}
		return diff
	}
	join := func(i, j, diff int) {
		if diff >= 0 {
			for v := range ps[i].allow[diff] {
				ps[i].allow[diff][v] = ps[i].allow[diff][v] || ps[j].allow[diff][v]
			}
		}
		ps = append(ps[:j], ps[j+1:]...)
		keys = append(keys[:j], keys[j+1:]...)
	}
	for merged := true; merged; {
		merged = false
		for i := 0; i < len(ps) && !merged; i++ {
			for j := i + 1; j < len(ps) && !merged; j++ {
				if keys[i] != keys[j] {
					continue
				}
				if diff := differ(ps[i], ps[j]); diff != -2 {
					join(i, j, diff)
					merged = true
				}
			}
		}
		// A piece that holds for a few values of one variable joins a
		// neighbour whose polynomial gives the same values there (COLLC's
		// IL = 2 joins IL ≥ 3: the polynomials differ, not their values).
		if merged {
			continue
		}
		smalls := make([][]smallRange, len(ps))
		for j := range ps {
			smalls[j] = variableRanges(cb, ps[j].allow, maxAbsorbed)
		}
		for j := 0; j < len(ps) && !merged; j++ {
			for i := 0; i < len(ps) && !merged && len(smalls[j]) > 0; i++ {
				if i == j {
					continue
				}
				diff := differ(ps[i], ps[j])
				if diff == -2 || !absorbsPiece(ps[i].cost, ps[j].cost, smalls[j]) {
					continue
				}
				join(i, j, diff)
				merged = true
			}
		}
	}
	if len(ps) > MaxPieces {
		return nil, false
	}
	var out []Piece
	for _, p := range ps {
		// Inequalities are one condition each; a congruence family with
		// several of its residues allowed gives one piece per residue.
		variants := [][]Cond{nil}
		for k, co := range coords {
			all := true
			for _, a := range p.allow[k] {
				all = all && a
			}
			if all {
				continue
			}
			var opts []Cond
			if co.mod == 0 {
				if p.allow[k][1] {
					opts = []Cond{{G: co.g}}
				} else {
					opts = []Cond{{G: co.g.Neg().Sub(Int(1))}}
				}
			} else {
				for r, a := range p.allow[k] {
					if a {
						opts = append(opts, Cond{G: co.h.Add(Int(int64(r))), Mod: co.mod})
					}
				}
			}
			var next [][]Cond
			for _, v := range variants {
				for _, o := range opts {
					next = append(next, append(append([]Cond(nil), v...), o))
				}
			}
			variants = next
		}
		for _, conds := range variants {
			out = append(out, Piece{When: simplifyConds(conds), Cost: p.cost})
		}
	}
	if len(out) > MaxPieces {
		return nil, false
	}
	for i := range out {
		out[i] = exactFloors(out[i])
	}
	sortPieces(out)
	return out, true
}

// coordBound is what an inequality coordinate says of one variable x
// when it holds (A·x + B ≥ 0) and when it fails; x is "" when the
// coordinate is not an affine condition on one variable. For a
// congruence in one variable, x and the coefficient A of h = A·x.
type coordBound struct {
	x      string
	a, b   int64 // holds: a·x + b ≥ 0; fails: −a·x − b − 1 ≥ 0
	isCong bool
}

// coordBoundsOf reads the coordinates once for variableRanges and
// congruencesFit.
func coordBoundsOf(coords []*coord) []coordBound {
	out := make([]coordBound, len(coords))
	for k, co := range coords {
		g := co.g
		if co.mod != 0 {
			g = co.h
		}
		vs := g.Vars()
		if len(vs) != 1 {
			continue
		}
		a, ok1 := g.Coeff(vs[0], 1).Value()
		b, ok2 := g.Coeff(vs[0], 0).Value()
		if _, hi := g.Degree(vs[0]); hi != 1 || !ok1 || !ok2 || !a.IsInt() || !b.IsInt() || !a.Num().IsInt64() || !b.Num().IsInt64() {
			continue
		}
		out[k] = coordBound{x: vs[0], a: a.Num().Int64(), b: b.Num().Int64(), isCong: co.mod != 0}
	}
	return out
}

// congruencesFit reports whether each congruence of a cell in one
// variable has a value in the range the cell's inequalities give that
// variable (when it is finite and short): IL = 2 and IL odd do not fit.
func congruencesFit(coords []*coord, cb []coordBound, vals []int) bool {
	var rs map[string]smallRange
	for k, co := range coords {
		if co.mod == 0 || cb[k].x == "" {
			continue
		}
		if rs == nil {
			allow := make([][]bool, len(coords))
			for i, c := range coords {
				allow[i] = make([]bool, c.nvals)
				allow[i][vals[i]] = true
			}
			rs = map[string]smallRange{}
			for _, r := range variableRanges(cb, allow, 64) {
				rs[r.x] = r
			}
		}
		r, ok := rs[cb[k].x]
		if !ok {
			continue
		}
		fits := false
		for v := r.lo; v <= r.hi && !fits; v++ {
			fits = ((cb[k].a*v+int64(vals[k]))%co.mod+co.mod)%co.mod == 0
		}
		if !fits {
			return false
		}
	}
	return true
}

// smallRange is a variable that a cell allows a few values of.
type smallRange struct {
	x      string
	lo, hi int64
}

// variableRanges returns the variables whose inequalities in a cell
// allow fewer than limit values, with their ranges.
func variableRanges(cb []coordBound, allow [][]bool, limit int64) []smallRange {
	type rng struct {
		lo, hi       int64
		hasLo, hasHi bool
	}
	var rs map[string]*rng
	for k, c := range cb {
		if c.x == "" || c.isCong || allow[k][0] == allow[k][1] {
			continue
		}
		A, B := c.a, c.b
		if !allow[k][1] {
			A, B = -A, -B-1
		}
		if rs == nil {
			rs = map[string]*rng{}
		}
		r := rs[c.x]
		if r == nil {
			r = &rng{}
			rs[c.x] = r
		}
		if A > 0 { // x ≥ ⌈−B/A⌉
			if v := ceilDiv(-B, A); !r.hasLo || v > r.lo {
				r.lo, r.hasLo = v, true
			}
		} else if v := floorDiv(B, -A); !r.hasHi || v < r.hi {
			r.hi, r.hasHi = v, true
		}
	}
	var out []smallRange
	for x, r := range rs {
		if r.hasLo && r.hasHi && r.hi >= r.lo && r.hi-r.lo < limit {
			out = append(out, smallRange{x, r.lo, r.hi})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].x < out[j].x })
	return out
}

// absorbsPiece reports whether the polynomial p gives the values of q on
// a cell where a variable takes a few values only (smalls): at each, p
// and q are the same polynomial in the other variables.
func absorbsPiece(p, q Poly, smalls []smallRange) bool {
	for _, r := range smalls {
		agree := true
		for v := r.lo; v <= r.hi && agree; v++ {
			env := bindFloors(map[string]*big.Rat{r.x: big.NewRat(v, 1)}, p, q)
			agree = p.Eval(env).Equal(q.Eval(env))
		}
		if agree {
			return true
		}
	}
	return false
}

// maxAbsorbed bounds the values of a variable on a cell that another
// piece's polynomial may take over.
const maxAbsorbed = 8

// simplifyConds drops inequalities the others imply.
func simplifyConds(cs []Cond) []Cond {
	for i := 0; i < len(cs); i++ {
		if cs[i].Mod != 0 {
			continue
		}
		var gs []Poly
		for j, c := range cs {
			if j != i && c.Mod == 0 {
				gs = append(gs, c.G)
			}
		}
		gs = append(gs, cs[i].G.Neg().Sub(Int(1)))
		if !feasible(gs) {
			cs = append(cs[:i], cs[i+1:]...)
			i--
		}
	}
	return cs
}

// sortPieces orders pieces by where they hold, from small values of the
// variables to large: by the smallest value of the first variable
// bounded below, then by the text of the conditions.
func sortPieces(ps []Piece) {
	key := func(p Piece) string {
		return WhenString(p.When, false)
	}
	sort.SliceStable(ps, func(i, j int) bool {
		li, lj := largeRank(ps[i]), largeRank(ps[j])
		if li != lj {
			return li < lj
		}
		return key(ps[i]) < key(ps[j])
	})
}

// largeRank is 1 when a piece holds for large values of its variables
// (every inequality holds when they all grow together), else 0.
func largeRank(p Piece) int {
	if holdsLarge(p) {
		return 1
	}
	return 0
}

func holdsLarge(p Piece) bool { return holdsAlong(p, "") }

// holdsAlong reports whether every inequality of a piece holds when its
// variables are all equal to a large X, twice (the one named twice) X.
func holdsAlong(p Piece, twice string) bool {
	for _, c := range p.When {
		if c.Mod != 0 || len(floorsIn(c.G)) > 0 {
			// Congruences, and conditions on the remainder of a floor
			// ("BS divides N"), hold for some large values and not others.
			continue
		}
		// Take every variable equal to a large X: the inequality holds for
		// large X when its leading coefficient in X is positive (or it is
		// constant and non-negative).
		x := "$X"
		g := c.G
		for _, v := range g.Vars() {
			if v == twice {
				g, _ = g.Subst(v, Var(x).Scale(big.NewRat(2, 1)))
			} else {
				g, _ = g.Subst(v, Var(x))
			}
		}
		_, hi := g.Degree(x)
		lead, _ := g.Coeff(x, hi).Value()
		if lead == nil || lead.Sign() < 0 {
			return false
		}
	}
	return true
}

// band reports whether a piece holds only near a hyperplane: two of its
// inequalities add up to a constant, as M + 1 ≥ N and N ≥ M do (N − M is
// 0 or 1 there).
func band(p Piece) bool {
	for i, a := range p.When {
		if a.Mod != 0 {
			continue
		}
		for _, b := range p.When[i+1:] {
			if b.Mod != 0 {
				continue
			}
			if _, ok := a.G.Add(b.G).Value(); ok {
				return true
			}
		}
	}
	return false
}

// LargePiece returns the piece that holds for large values of the
// variables. Taking every variable equal and large puts a count of
// DO I = M + 1, N − 1 on the boundary where the loop is empty (N − M ≤
// 1), so the candidates are the pieces that hold for large values with
// every variable equal or with one of them twice the others, bands
// (band) left out: of those, the one of the highest degree, then the one
// whose count depends on the most variables (the loop running, N ≥ M +
// 2, where its count depends on both bounds, not empty, M + 1 ≥ N),
// then one that holds with every variable equal, then one whose
// congruence holds for even values, then the first of Pieces' order.
// None: the last piece.
func LargePiece(ps []Piece) Piece {
	var vars []string
	for _, p := range ps {
		for _, c := range p.When {
			for _, v := range c.G.Vars() {
				if !slices.Contains(vars, v) {
					vars = append(vars, v)
				}
			}
		}
	}
	better := func(a, b Piece) bool { // a before b
		if da, db := totalDegree(a.Cost), totalDegree(b.Cost); da != db {
			return da > db
		}
		if va, vb := len(a.Cost.Vars()), len(b.Cost.Vars()); va != vb {
			return va > vb
		}
		if ha, hb := holdsLarge(a), holdsLarge(b); ha != hb {
			return ha
		}
		return evenFirst(a) && !evenFirst(b)
	}
	var best *Piece
	for i := range ps {
		p := ps[i]
		if band(p) || !holdsLarge(p) && !slices.ContainsFunc(vars, func(v string) bool { return holdsAlong(p, v) }) {
			continue
		}
		if best == nil || better(p, *best) {
			best = &ps[i]
		}
	}
	if best == nil {
		return ps[len(ps)-1]
	}
	return *best
}

// totalDegree is the largest sum of a term's exponents.
func totalDegree(p Poly) int {
	d := 0
	for _, t := range p.terms {
		d = max(d, t.deg)
	}
	return d
}

// evenFirst reports whether every congruence of a piece holds when its
// variables are all 0 modulo the modulus.
func evenFirst(p Piece) bool {
	for _, c := range p.When {
		if s, ok := floorCondString(atom{c.G, c.Mod}, false); ok && !strings.Contains(s, " divides ") {
			return false
		}
		if c.Mod != 0 {
			if v := constPart(c.G); new(big.Int).Mod(v.Num(), big.NewInt(c.Mod)).Sign() != 0 {
				return false
			}
		}
	}
	return true
}

// guardVars returns the variables of the guards of terms.
func guardVars(terms []gterm) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range terms {
		for _, a := range t.atoms {
			for _, v := range a.a.g.Vars() {
				if !seen[v] {
					seen[v] = true
					out = append(out, v)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}
