package complexity

import (
	"math/big"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// This file holds the guards of exact counting. A count that depends on
// whether a range is empty, or on which argument of a MIN or MAX bound is
// smaller, is a sum of guarded polynomials Σ [C_k]·P_k, where each guard
// C_k is a conjunction of atoms: affine inequalities g ≥ 0 and
// congruences c | g over integer variables (the parameters, outer loop
// indices). Each atom is carried inside the polynomial as a variable of
// its own whose value is 1 where the atom holds and 0 elsewhere, so the
// model's polynomial arithmetic (sums, probabilities, substitution of
// actual arguments) works on guarded counts unchanged; the names of
// these variables begin with "[" and never reach a user: Pieces turns a
// guarded count into chambers (disjoint conditions, one polynomial each).

// atom is one condition: g ≥ 0 when mod is 0, else mod | g. g has integer
// coefficients.
type atom struct {
	g   Poly
	mod int64
}

// gatom is an atom in a guard. main marks the atoms that hold under the
// report's convention (ranges not empty, the first argument of MIN or MAX
// the one taken): where exact counting is out of reach, main atoms are
// assumed true and the others false.
type gatom struct {
	a    atom
	main bool
}

var atomNames sync.Map // variable name → gatom

func (a gatom) name() string {
	var s string
	if a.a.mod == 0 {
		s = "[" + a.a.g.String() + " >= 0]"
	} else {
		s = "[" + strconv.FormatInt(a.a.mod, 10) + " | " + a.a.g.String() + "]"
	}
	if !a.main {
		s += "?"
	}
	return s
}

// guardVar returns the indicator variable of an atom.
func guardVar(a gatom) Poly {
	n := a.name()
	atomNames.LoadOrStore(n, a)
	return Var(n)
}

// guardOf returns the atom an indicator variable stands for.
func guardOf(name string) (gatom, bool) {
	if !strings.HasPrefix(name, "[") {
		return gatom{}, false
	}
	v, ok := atomNames.Load(name)
	if !ok {
		return gatom{}, false
	}
	return v.(gatom), true
}

// isGuarded reports whether p holds any guard.
func isGuarded(p Poly) bool {
	for _, t := range p.terms {
		for _, f := range t.mono {
			if strings.HasPrefix(f.Name, "[") {
				return true
			}
		}
	}
	return false
}

// ratLCMDen returns the least common multiple of the denominators of the
// coefficients of p.
func ratLCMDen(p Poly) *big.Int {
	l := big.NewInt(1)
	for _, t := range p.Terms() {
		d := t.Coef.Denom()
		g := new(big.Int).GCD(nil, nil, l, d)
		l.Mul(l, new(big.Int).Quo(d, g))
	}
	return l
}

// constPart returns the constant term of p.
func constPart(p Poly) *big.Rat {
	for _, t := range p.Terms() {
		if len(t.Factors) == 0 {
			return t.Coef
		}
	}
	return new(big.Rat)
}

// normAtom puts an atom in canonical form. decided is true when the atom
// is a constant, and then truth is its value.
func normAtom(a atom) (out atom, decided, truth bool) {
	g := a.g
	if a.mod < 0 {
		a.mod = -a.mod
	}
	if a.mod == 1 {
		return atom{}, true, true
	}
	if l := ratLCMDen(g); l.Cmp(big.NewInt(1)) != 0 {
		g = g.Scale(new(big.Rat).SetInt(l))
		if a.mod != 0 {
			if !l.IsInt64() || l.Int64() > 1<<20 {
				return atom{}, true, true // unreachable in practice: keep the term
			}
			a.mod *= l.Int64()
		}
	}
	if a.mod == 0 {
		// g ≥ 0 over the integers: divide the variable part by the gcd of
		// its coefficients, rounding the constant down.
		c := constPart(g)
		rest := g.Sub(Rat(c))
		if rest.IsZero() {
			return atom{}, true, c.Sign() >= 0
		}
		d := new(big.Int)
		for _, t := range rest.Terms() {
			d.GCD(nil, nil, d, new(big.Int).Abs(t.Coef.Num()))
		}
		if d.Cmp(big.NewInt(1)) != 0 {
			q := new(big.Int).Div(c.Num(), d) // floor (c is an integer)
			rest = rest.Scale(new(big.Rat).SetFrac(big.NewInt(1), d))
			g = rest.Add(Rat(new(big.Rat).SetInt(q)))
		}
		return atom{g: g}, false, false
	}
	// mod | g: reduce every coefficient modulo mod.
	m := big.NewInt(a.mod)
	var ts []Term
	gc := new(big.Int).Set(m)
	for _, t := range g.Terms() {
		r := new(big.Int).Mod(t.Coef.Num(), m)
		if r.Sign() == 0 {
			continue
		}
		ts = append(ts, Term{Coef: new(big.Rat).SetInt(r), Factors: t.Factors})
		gc.GCD(nil, nil, gc, r)
	}
	g = FromTerms(ts)
	if g.IsZero() {
		return atom{}, true, true
	}
	if v, ok := g.Value(); ok {
		return atom{}, true, v.Sign() == 0
	}
	if gc.Cmp(big.NewInt(1)) != 0 {
		// k·h ≡ 0 (mod k·m') ⟺ h ≡ 0 (mod m').
		g = g.Scale(new(big.Rat).SetFrac(big.NewInt(1), gc))
		mod := new(big.Int).Quo(m, gc).Int64()
		return normAtom(atom{g: g, mod: mod})
	}
	return atom{g: g, mod: a.mod}, false, false
}

// gterm is one guarded polynomial [atoms]·p, p free of guards.
type gterm struct {
	atoms []gatom
	p     Poly
}

// splitGuarded writes p as a sum of guarded terms, grouping the terms of
// p by their guards.
func splitGuarded(p Poly) []gterm {
	idx := map[string]int{}
	var out []gterm
	var groups [][]Term
	for _, t := range p.Terms() {
		var plain []Factor
		var atoms []gatom
		var names []string
		for _, f := range t.Factors {
			if a, ok := guardOf(f.Name); ok {
				// An indicator is 0 or 1: any positive power is itself.
				atoms = append(atoms, a)
				names = append(names, f.Name)
				continue
			}
			plain = append(plain, f)
		}
		key := strings.Join(names, "\x00")
		i, ok := idx[key]
		if !ok {
			i = len(out)
			idx[key] = i
			out = append(out, gterm{atoms: atoms})
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], Term{Coef: t.Coef, Factors: plain})
	}
	for i := range out {
		out[i].p = FromTerms(groups[i])
	}
	return out
}

// joinGuarded is the inverse of splitGuarded.
func joinGuarded(ts []gterm) Poly { return FromTerms(joinTerms(ts)) }

// joinTerms is joinGuarded before the terms are added up.
func joinTerms(ts []gterm) []Term {
	var all []Term
	for _, t := range ts {
		var gf []Factor
		seen := map[string]bool{}
		for _, a := range t.atoms {
			n := a.name()
			if !seen[n] {
				seen[n] = true
				guardVar(a)
				gf = append(gf, Factor{Name: n, Exp: 1})
			}
		}
		for _, pt := range t.p.Terms() {
			all = append(all, Term{Coef: pt.Coef, Factors: append(pt.Factors, gf...)})
		}
	}
	return all
}

// addAtom adds an atom to a guard, normalised; ok is false when the
// atom is false, so the guarded term vanishes.
func addAtom(atoms []gatom, a atom, main bool) ([]gatom, bool) {
	n, decided, truth := normAtom(a)
	if decided {
		return atoms, truth
	}
	return append(atoms, gatom{n, main}), true
}

// Indicator returns the guard [g ≥ 0] as a polynomial: 1 or 0 when g is
// a constant. main marks the condition the report's convention assumes.
func indicator(g Poly, main bool) Poly {
	atoms, ok := addAtom(nil, atom{g: g}, main)
	if !ok {
		return Zero()
	}
	if len(atoms) == 0 {
		return Int(1)
	}
	return guardVar(atoms[0])
}

// substGuarded replaces the variable name by q in p, inside the guards
// and the definitions of floors too. ok is false where Subst fails (a
// negative power of name and q not a monomial).
func substGuarded(p Poly, name string, q Poly) (Poly, bool) {
	p, ok := substFloors(p, name, q)
	if !ok {
		return Poly{}, false
	}
	return substPlain(p, name, q)
}

// substPlain is substGuarded but for the definitions of floors.
func substPlain(p Poly, name string, q Poly) (Poly, bool) {
	if !isGuarded(p) {
		return p.Subst(name, q)
	}
	// Only the terms that mention name are split, substituted and
	// joined again; the others keep their factors, each indicator to the
	// first power as joinGuarded writes it. On a long routine's guarded
	// count, renamed unknown by unknown at each call, splitting every
	// term was most of the engine's time.
	var hit, kept []term
	for _, t := range p.terms {
		if termMentions(t, name) {
			hit = append(hit, t)
		} else {
			kept = append(kept, t)
		}
	}
	if len(hit) == 0 && !guardPowers(kept) {
		return p, true
	}
	p = Poly{terms: hit}
	var out []gterm
	for _, t := range splitGuarded(p) {
		np, ok := t.p.Subst(name, q)
		if !ok {
			return Poly{}, false
		}
		var atoms []gatom
		alive := true
		for _, a := range t.atoms {
			g, ok := a.a.g.Subst(name, q)
			if !ok {
				return Poly{}, false
			}
			if atoms, alive = addAtom(atoms, atom{g: g, mod: a.a.mod}, a.main); !alive {
				break
			}
		}
		if alive {
			out = append(out, gterm{atoms, np})
		}
	}
	if !guardPowers(kept) {
		// The kept terms are terms of p already: added as they are.
		return normalize(append(FromTerms(joinTerms(out)).terms, kept...)), true
	}
	all := joinTerms(out)
	for _, t := range kept {
		pt := Term{Coef: t.coef.rat(), Factors: make([]Factor, len(t.mono))}
		for i, f := range t.mono {
			if strings.HasPrefix(f.Name, "[") {
				f.Exp = 1
			}
			pt.Factors[i] = f
		}
		all = append(all, pt)
	}
	return FromTerms(all), true
}

// termMentions reports whether the variable name occurs in t, in a plain
// factor or in the condition of a guard.
func termMentions(t term, name string) bool {
	for _, f := range t.mono {
		if f.Name == name {
			return true
		}
		if a, ok := guardOf(f.Name); ok && a.a.g.Has(name) {
			return true
		}
	}
	return false
}

// guardPowers reports whether an indicator occurs in ts to a power
// other than one.
func guardPowers(ts []term) bool {
	for _, t := range ts {
		for _, f := range t.mono {
			if f.Exp != 1 && strings.HasPrefix(f.Name, "[") {
				return true
			}
		}
	}
	return false
}

// EvalGuarded returns p with the variables env binds replaced by their
// values, guards included: a guard whose condition becomes constant is
// replaced by 1 or 0, so evaluating a piecewise count at a point gives
// the polynomial of the piece that holds there.
func EvalGuarded(p Poly, env map[string]*big.Rat) Poly {
	env = bindFloors(env, p)
	if !isGuarded(p) {
		return p.Eval(env)
	}
	var out []gterm
	for _, t := range splitGuarded(p) {
		var atoms []gatom
		alive := true
		for _, a := range t.atoms {
			if atoms, alive = addAtom(atoms, atom{g: a.a.g.Eval(env), mod: a.a.mod}, a.main); !alive {
				break
			}
		}
		if alive {
			out = append(out, gterm{atoms, t.p.Eval(env)})
		}
	}
	return joinGuarded(out)
}

// assumeGuards resolves every guard of p by the report's convention: main
// atoms true, the others false. It returns the conditions assumed.
func assumeGuards(p Poly) (Poly, []atom) {
	if !isGuarded(p) {
		return p, nil
	}
	total := Zero()
	var assumed []atom
	seen := map[string]bool{}
	for _, t := range splitGuarded(p) {
		keep := true
		for _, a := range t.atoms {
			if !a.main {
				keep = false
			}
		}
		if !keep {
			continue
		}
		for _, a := range t.atoms {
			if k := a.name(); !seen[k] {
				seen[k] = true
				assumed = append(assumed, a.a)
			}
		}
		total = total.Add(t.p)
	}
	sort.Slice(assumed, func(i, j int) bool { return assumed[i].g.String() < assumed[j].g.String() })
	return total, assumed
}

// plainVars returns the variables of p that are not guards, including
// those inside its guards and those its floors are defined in.
func plainVars(p Poly) []string {
	seen := map[string]bool{}
	var add func(v string)
	add = func(v string) {
		if seen[v] {
			return
		}
		seen[v] = true
		if def, ok := floorOf(v); ok {
			for _, w := range append(def.num.Vars(), def.den.Vars()...) {
				add(w)
			}
		}
	}
	for _, t := range splitGuarded(p) {
		for _, v := range t.p.Vars() {
			add(v)
		}
		for _, a := range t.atoms {
			for _, v := range a.a.g.Vars() {
				add(v)
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

// IsGuarded reports whether an exact count still has conditions: it is
// piecewise in the variables of its guards.
func IsGuarded(p Poly) bool { return isGuarded(p) }

// CountVars returns the variables of an exact count, those of its
// conditions included.
func CountVars(p Poly) []string { return plainVars(p) }
