package complexity

import (
	"math/big"
	"sort"
	"strings"
	"sync"
)

// This file holds floors of symbolic quotients, ⌊num/den⌋, which exact
// counting needs for a loop whose step is a symbol: DO JJ = 1, N, BS runs
// ⌊(N − 1)/BS⌋ + 1 times. Like a guard, a floor is carried inside a
// Poly as a variable of its own, named FLOOR((N - 1)/BS) in the results,
// whose definition is kept aside: evaluation (EvalGuarded, Cond.Holds)
// computes it once its num and den are numbers, and substitution of
// actual arguments rewrites its definition.

type floorDef struct {
	num, den Poly
}

var floorNames sync.Map // variable name → floorDef

// floorPrefix begins the name of every floor variable.
const floorPrefix = "FLOOR("

// isFloor reports whether a variable is a floor.
func isFloor(name string) bool { return strings.HasPrefix(name, floorPrefix) }

// floorVar returns ⌊num/den⌋: a number when both are numbers, else the
// floor variable.
func floorVar(num, den Poly) Poly {
	if n, ok := num.Value(); ok {
		if d, ok := den.Value(); ok && d.Sign() != 0 {
			return Rat(ratFloor(new(big.Rat).Quo(n, d)))
		}
	}
	paren := func(p Poly) string {
		if _, isNum := p.Value(); isNum {
			return p.String()
		}
		if vs := p.Vars(); p.IsMonomial() && len(vs) == 1 && p.Equal(Var(vs[0])) {
			return p.String()
		}
		return "(" + p.String() + ")"
	}
	name := floorPrefix + paren(num) + "/" + paren(den) + ")"
	floorNames.LoadOrStore(name, floorDef{num, den})
	return Var(name)
}

func ratFloor(r *big.Rat) *big.Rat {
	q := new(big.Int).Div(r.Num(), r.Denom()) // Euclidean: the floor for a positive divisor
	return new(big.Rat).SetInt(q)
}

func floorOf(name string) (floorDef, bool) {
	v, ok := floorNames.Load(name)
	if !ok {
		return floorDef{}, false
	}
	return v.(floorDef), true
}

// floorsIn returns the floor variables of p, in its terms and guards.
func floorsIn(p Poly) []string {
	// Quick: a floor's name, or a guard's with a floor inside, shows it.
	hit := false
	for _, v := range p.Vars() {
		if strings.Contains(v, floorPrefix) {
			hit = true
			break
		}
	}
	if !hit {
		return nil
	}
	var out []string
	for _, v := range plainVars(p) {
		if isFloor(v) {
			out = append(out, v)
		}
	}
	return out
}

// bindFloors returns env with the value of every floor of ps whose
// definition env makes a pair of numbers (env itself when there is none).
func bindFloors(env map[string]*big.Rat, ps ...Poly) map[string]*big.Rat {
	var out map[string]*big.Rat
	for _, p := range ps {
		vars := p.Vars()
		if isGuarded(p) {
			vars = plainVars(p)
		}
		for _, v := range vars {
			if !isFloor(v) {
				continue
			}
			if _, bound := env[v]; bound {
				continue
			}
			def, ok := floorOf(v)
			if !ok {
				continue
			}
			n, ok1 := def.num.Eval(env).Value()
			d, ok2 := def.den.Eval(env).Value()
			if !ok1 || !ok2 || d.Sign() == 0 {
				continue
			}
			if out == nil {
				out = make(map[string]*big.Rat, len(env)+1)
				for k, x := range env {
					out[k] = x
				}
			}
			out[v] = ratFloor(new(big.Rat).Quo(n, d))
		}
	}
	if out == nil {
		return env
	}
	return out
}

// substFloors rewrites the floors of p whose definitions name the
// variable name, as substGuarded replaces name by q; ok is false when a
// definition cannot take q.
func substFloors(p Poly, name string, q Poly) (Poly, bool) {
	for _, f := range floorsIn(p) {
		def, ok := floorOf(f)
		if !ok || !def.num.Has(name) && !def.den.Has(name) {
			continue
		}
		num, ok1 := def.num.Subst(name, q)
		den, ok2 := def.den.Subst(name, q)
		if !ok1 || !ok2 || den.IsZero() {
			return Poly{}, false
		}
		if p, ok = substPlain(p, f, floorVar(num, den)); !ok {
			return Poly{}, false
		}
	}
	return p, true
}

// floorVarsOf returns the variables the floors of p are defined in.
func floorVarsOf(p Poly) []string {
	seen := map[string]bool{}
	for _, f := range floorsIn(p) {
		if def, ok := floorOf(f); ok {
			for _, v := range append(def.num.Vars(), def.den.Vars()...) {
				seen[v] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for v := range seen {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// floorsDependOn reports whether a floor of p is defined in terms of v.
func floorsDependOn(p Poly, v string) bool {
	for _, w := range floorVarsOf(p) {
		if w == v {
			return true
		}
	}
	return false
}

// dropFloors replaces each floor of p defined in terms of v (a loop
// index about to be summed over) by its exact quotient num/den, which is
// the floor where den divides num; it returns the assumptions made.
func dropFloors(p Poly, v string) (Poly, []string, bool) {
	var notes []string
	for _, f := range floorsIn(p) {
		def, ok := floorOf(f)
		if !ok || !def.num.Has(v) && !def.den.Has(v) {
			continue
		}
		q, ok := def.num.Div(def.den)
		if !ok {
			return Poly{}, nil, false
		}
		if p, ok = substPlain(p, f, q); !ok {
			return Poly{}, nil, false
		}
		notes = append(notes, "assumes "+def.den.String()+" divides "+def.num.String()+" (a blocked loop inside a loop over "+displayVar(v)+")")
	}
	return p, notes, true
}

// remainderCond is a condition on a floor Q = ⌊d/S⌋ that is one on the
// remainder R = d − S·Q alone (0 ≤ R ≤ S − 1): R ≥ bound when ge, else
// R ≤ bound.
type remainderCond struct {
	floor string
	def   floorDef
	ge    bool
	bound Poly
}

// remainderOf recognises a condition on the remainder of a floor.
func remainderOf(a atom) (remainderCond, bool) {
	if a.mod != 0 {
		return remainderCond{}, false
	}
	for _, f := range floorsIn(a.g) {
		def, ok := floorOf(f)
		if !ok || !def.den.IsMonomial() {
			continue
		}
		const r = "$R"
		// Q = (d − R)/S.
		qv, ok := def.num.Sub(Var(r)).Div(def.den)
		if !ok {
			continue
		}
		g, ok := a.g.Subst(f, qv)
		if !ok || len(floorsIn(g)) > 0 {
			continue
		}
		lo, hi := g.Degree(r)
		if lo < 0 || hi != 1 {
			continue
		}
		c, isConst := g.Coeff(r, 1).Value()
		if !isConst || new(big.Rat).Abs(c).Cmp(big.NewRat(1, 1)) != 0 {
			continue
		}
		if rest := g.Coeff(r, 0); c.Sign() > 0 {
			return remainderCond{f, def, true, rest.Neg()}, true
		} else {
			return remainderCond{f, def, false, rest}, true
		}
	}
	return remainderCond{}, false
}

// exact returns the value of the floor where the condition fixes the
// remainder (S divides d: R = 0; S divides d + 1: R = S − 1).
func (rc remainderCond) exact() (Poly, bool) {
	s, d := rc.def.den, rc.def.num
	var r Poly
	switch {
	case rc.ge && rc.bound.Equal(s.Sub(Int(1))):
		r = s.Sub(Int(1))
	case !rc.ge && rc.bound.IsZero():
		r = Zero()
	default:
		return Poly{}, false
	}
	return d.Sub(r).Div(s)
}

// floorCondString prints a condition on the remainder of a floor:
// "S divides d + 1" for R ≥ S − 1, "S does not divide d" for R ≥ 1,
// their complements, else "(d) mod S >= k". ok is false for any other
// condition.
func floorCondString(a atom, uni bool) (string, bool) {
	rc, ok := remainderOf(a)
	if !ok {
		return "", false
	}
	s, d := rc.def.den, rc.def.num
	format := func(p Poly) string {
		if uni {
			return p.Unicode()
		}
		return p.String()
	}
	divides := func(x Poly, not bool) string {
		if not {
			return format(s) + " does not divide " + format(x)
		}
		return format(s) + " divides " + format(x)
	}
	ge, le := " >= ", " <= "
	if uni {
		ge, le = " ≥ ", " ≤ "
	}
	if rc.ge {
		switch {
		case rc.bound.Equal(s.Sub(Int(1))):
			return divides(d.Add(Int(1)), false), true
		case rc.bound.Equal(Int(1)):
			return divides(d, true), true
		}
		return "(" + format(d) + ") mod " + format(s) + ge + format(rc.bound), true
	}
	switch {
	case rc.bound.IsZero():
		return divides(d, false), true
	case rc.bound.Equal(s.Sub(Int(2))):
		return divides(d.Add(Int(1)), true), true
	}
	return "(" + format(d) + ") mod " + format(s) + le + format(rc.bound), true
}

// exactFloors writes, in a piece whose conditions fix the remainder of a
// floor ("BS divides N"), the floor as the exact quotient.
func exactFloors(p Piece) Piece {
	for _, c := range p.When {
		rc, ok := remainderOf(atom{c.G, c.Mod})
		if !ok {
			continue
		}
		q, ok := rc.exact()
		if !ok {
			continue
		}
		if cost, ok := substPlain(p.Cost, rc.floor, q); ok {
			p.Cost = cost
		}
	}
	return p
}

// congruencesAsFloors writes every congruence of a guarded count through
// a floor: with R = h − m·⌊h/m⌋ in 0 … m − 1, the guard [m | h + c] is
// the polynomial Π_{k ≠ r} (R − k)/(r − k), r = −c mod m, which is 1 where
// R = r and 0 at the other residues. The count is the same at every
// point; its pieces then split on inequalities alone, which keeps counts
// with several parities (COLLC's IL and JL) within MaxPieces.
func congruencesAsFloors(p Poly) Poly {
	if !isGuarded(p) {
		return p
	}
	var out []gterm
	for _, t := range splitGuarded(p) {
		var atoms []gatom
		q := t.p
		for _, a := range t.atoms {
			if a.a.mod == 0 {
				atoms = append(atoms, a)
				continue
			}
			m := a.a.mod
			c := constPart(a.a.g)
			h := a.a.g.Sub(Rat(c))
			r := new(big.Int).Mod(new(big.Int).Neg(c.Num()), big.NewInt(m)).Int64()
			rem := h.Sub(Int(m).Mul(floorVar(h, Int(m))))
			ind := Int(1)
			for k := int64(0); k < m; k++ {
				if k != r {
					ind = ind.Mul(rem.Sub(Int(k))).Scale(big.NewRat(1, r-k))
				}
			}
			q = q.Mul(ind)
		}
		out = append(out, gterm{atoms, q})
	}
	return joinGuarded(out)
}

// evenFloors is a piece with each floor ⌊h/m⌋ of a constant m written as
// the quotient h/m under the added condition m | h.
func evenFloors(p Piece) Piece {
	when := append([]Cond(nil), p.When...)
	cost := p.Cost
	for _, f := range floorsIn(cost) {
		def, ok := floorOf(f)
		if !ok {
			continue
		}
		m, isNum := def.den.Value()
		if !isNum || !m.IsInt() || !m.Num().IsInt64() || m.Sign() <= 0 {
			continue
		}
		q, ok := def.num.Div(def.den)
		if !ok {
			continue
		}
		c, ok := substPlain(cost, f, q)
		if !ok {
			continue
		}
		cost = c
		when = append(when, Cond{G: def.num, Mod: m.Num().Int64()})
	}
	return Piece{When: when, Cost: cost}
}
