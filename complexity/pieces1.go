package complexity

import (
	"math/big"
	"sort"
)

// pieces1 splits a guarded count whose guards are in one variable x into
// intervals of x and, where the guards have congruences, residue classes:
// every guard is constant on each, so each has one polynomial. Intervals
// with few values whose values a neighbour's polynomial also gives are
// joined to it, then neighbours with equal polynomials are joined, so
// that SUB2 reads "M <= 0: 1; 1 <= M <= 9: ...; M >= 10, M even: ...".
// ok is false when the guards are not affine in x alone.
func pieces1(terms []gterm, x string) ([]Piece, bool) {
	var changes []int64
	mod := int64(1)
	for _, t := range terms {
		for _, a := range t.atoms {
			vs := a.a.g.Vars()
			if len(vs) != 1 || vs[0] != x {
				return nil, false
			}
			lo, hi := a.a.g.Degree(x)
			ca, ok1 := a.a.g.Coeff(x, 1).Value()
			cb, ok2 := a.a.g.Coeff(x, 0).Value()
			if lo < 0 || hi != 1 || !ok1 || !ok2 || !ca.IsInt() || !cb.IsInt() || !ca.Num().IsInt64() || !cb.Num().IsInt64() {
				return nil, false
			}
			A, B := ca.Num().Int64(), cb.Num().Int64()
			if a.a.mod != 0 {
				mod = lcm(mod, a.a.mod)
				if mod > 12 {
					return nil, false
				}
				continue
			}
			if A > 0 {
				changes = append(changes, ceilDiv(-B, A)) // x ≥ c from c on
			} else {
				changes = append(changes, floorDiv(B, -A)+1) // x ≤ c up to c
			}
		}
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i] < changes[j] })
	var pts []int64
	for i, c := range changes {
		if i == 0 || c != changes[i-1] {
			pts = append(pts, c)
		}
	}
	var ivs []*interval
	if len(pts) == 0 {
		ivs = append(ivs, &interval{noLo: true, noHi: true})
	} else {
		ivs = append(ivs, &interval{noLo: true, hi: pts[0] - 1})
		for i := 0; i+1 < len(pts); i++ {
			ivs = append(ivs, &interval{lo: pts[i], hi: pts[i+1] - 1})
		}
		ivs = append(ivs, &interval{lo: pts[len(pts)-1], noHi: true})
	}
	value := func(v int64) Poly {
		env := map[string]*big.Rat{x: big.NewRat(v, 1)}
		total := Zero()
		for _, t := range terms {
			holds := true
			for _, a := range t.atoms {
				_, decided, truth := normAtom(atom{a.a.g.Eval(env), a.a.mod})
				if !decided || !truth {
					holds = false
					break
				}
			}
			if holds {
				total = total.Add(t.p)
			}
		}
		return total
	}
	// A point of the interval with residue r, if any.
	point := func(iv *interval, r int64) (int64, bool) {
		base := iv.lo
		if iv.noLo {
			base = iv.hi - 3*mod
		}
		for k := int64(0); k < mod; k++ {
			v := base + k
			if ((v%mod)+mod)%mod == r {
				if !iv.noHi && v > iv.hi {
					return 0, false
				}
				return v, true
			}
		}
		return 0, false
	}
	for _, iv := range ivs {
		iv.polys = make([]Poly, mod)
		iv.present = make([]bool, mod)
		for r := int64(0); r < mod; r++ {
			if v, ok := point(iv, r); ok {
				iv.polys[r] = value(v)
				iv.present[r] = true
			}
		}
	}
	// agrees reports whether poly q gives the values of iv at residue r.
	agrees := func(iv *interval, r int64, q Poly) bool {
		if iv.noLo || iv.noHi || iv.hi-iv.lo > 64 {
			return false
		}
		for v := iv.lo; v <= iv.hi; v++ {
			if ((v%mod)+mod)%mod != r {
				continue
			}
			env := map[string]*big.Rat{x: big.NewRat(v, 1)}
			if !q.Eval(env).Equal(iv.polys[r].Eval(env)) {
				return false
			}
		}
		return true
	}
	sameAll := func(a, b *interval) bool {
		for r := range a.polys {
			if a.present[r] && b.present[r] && !a.polys[r].Equal(b.polys[r]) {
				return false
			}
		}
		return true
	}
	join := func(i int, take *interval) {
		a, b := ivs[i], ivs[i+1]
		n := &interval{lo: a.lo, noLo: a.noLo, hi: b.hi, noHi: b.noHi, polys: make([]Poly, mod), present: make([]bool, mod)}
		for r := range n.polys {
			src := take
			if !take.present[r] {
				src = a
				if !a.present[r] {
					src = b
				}
			}
			n.polys[r], n.present[r] = src.polys[r], src.present[r]
		}
		ivs = append(ivs[:i], append([]*interval{n}, ivs[i+2:]...)...)
	}
	for changed := true; changed; {
		changed = false
		for i := 0; i+1 < len(ivs) && !changed; i++ {
			a, b := ivs[i], ivs[i+1]
			switch {
			case sameAll(a, b):
				take := a
				if b.noHi || b.noLo {
					take = b
				}
				join(i, take)
				changed = true
			case absorbs(a, b, mod, agrees):
				join(i, b)
				changed = true
			case absorbs(b, a, mod, agrees):
				join(i, a)
				changed = true
			}
		}
	}
	var out []Piece
	for _, iv := range ivs {
		var when []Cond
		if !iv.noLo {
			when = append(when, Cond{G: Var(x).Sub(Int(iv.lo))})
		}
		if !iv.noHi {
			when = append(when, Cond{G: Int(iv.hi).Sub(Var(x))})
		}
		all := true
		var first Poly
		firstSet := false
		for r := range iv.polys {
			if !iv.present[r] {
				continue
			}
			if !firstSet {
				first, firstSet = iv.polys[r], true
			} else if !iv.polys[r].Equal(first) {
				all = false
			}
		}
		if !firstSet {
			continue
		}
		if all {
			out = append(out, Piece{When: when, Cost: first})
			continue
		}
		for r := range iv.polys {
			if iv.present[r] {
				w := append(append([]Cond(nil), when...), Cond{G: Var(x).Sub(Int(int64(r))), Mod: mod})
				out = append(out, Piece{When: w, Cost: iv.polys[r]})
			}
		}
	}
	return out, true
}

// interval is a range [lo, hi] of one variable (unbounded where marked)
// with the polynomial of each residue class of the variable.
type interval struct {
	lo, hi     int64
	noLo, noHi bool
	polys      []Poly // per residue
	present    []bool // the residue has a value in the interval
}

// absorbs reports whether interval b's polynomials give every value of
// the small interval a, residue by residue.
func absorbs(a, b *interval, mod int64, agrees func(*interval, int64, Poly) bool) bool {
	for r := int64(0); r < mod; r++ {
		if !a.present[r] {
			continue
		}
		if !b.present[r] || !agrees(a, r, b.polys[r]) {
			return false
		}
	}
	return true
}

func lcm(a, b int64) int64 {
	return a / gcd(a, b) * b
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 {
	return -floorDiv(-a, b)
}
