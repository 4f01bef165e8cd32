package complexity

import (
	"math/big"
	"strings"
)

// linear is an inequality Σ c_k·x_k + c0 ≥ 0 over monomials x_k (a
// monomial that is not a single variable, such as I.J, counts as a
// variable of its own: the relaxation can only find fewer contradictions).
type linear struct {
	c  map[string]*big.Rat
	c0 *big.Rat
}

func monoKey(fs []Factor) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.Name)
		b.WriteByte('^')
		b.WriteString(big.NewInt(int64(f.Exp)).String())
		b.WriteByte('.')
	}
	return b.String()
}

func linearOf(g Poly) linear {
	l := linear{c: map[string]*big.Rat{}, c0: new(big.Rat)}
	for _, t := range g.Terms() {
		if len(t.Factors) == 0 {
			l.c0 = t.Coef
			continue
		}
		l.c[monoKey(t.Factors)] = t.Coef
	}
	return l
}

// maxFMRows bounds the work of one feasibility test: past it the
// conditions are taken as feasible (never a wrong count, only a piece
// that could have been dropped).
const maxFMRows = 200

// feasible reports whether the inequalities g ≥ 0 may hold together over
// the rationals, by Fourier–Motzkin elimination. It answers true when it
// cannot tell.
func feasible(gs []Poly) bool {
	rows := make([]linear, 0, len(gs))
	for _, g := range gs {
		rows = append(rows, linearOf(g))
	}
	for {
		// Constant rows decide at once.
		var live []linear
		for _, r := range rows {
			if len(r.c) == 0 {
				if r.c0.Sign() < 0 {
					return false
				}
				continue
			}
			live = append(live, r)
		}
		rows = live
		if len(rows) == 0 {
			return true
		}
		// Eliminate the variable with the fewest pairs.
		best, bestCost := "", -1
		count := map[string][2]int{}
		for _, r := range rows {
			for k, v := range r.c {
				n := count[k]
				if v.Sign() > 0 {
					n[0]++
				} else {
					n[1]++
				}
				count[k] = n
			}
		}
		for k, n := range count {
			cost := n[0] * n[1]
			if bestCost < 0 || cost < bestCost || cost == bestCost && k < best {
				best, bestCost = k, cost
			}
		}
		var pos, neg, rest []linear
		for _, r := range rows {
			v, ok := r.c[best]
			switch {
			case !ok:
				rest = append(rest, r)
			case v.Sign() > 0:
				pos = append(pos, r)
			default:
				neg = append(neg, r)
			}
		}
		if len(rest)+len(pos)*len(neg) > maxFMRows {
			return true
		}
		for _, p := range pos {
			for _, n := range neg {
				a := p.c[best]                   // > 0
				b := new(big.Rat).Neg(n.c[best]) // > 0
				// b·p + a·n eliminates best.
				r := linear{c: map[string]*big.Rat{}, c0: new(big.Rat).Add(new(big.Rat).Mul(b, p.c0), new(big.Rat).Mul(a, n.c0))}
				for k, v := range p.c {
					if k != best {
						r.c[k] = new(big.Rat).Mul(b, v)
					}
				}
				for k, v := range n.c {
					if k == best {
						continue
					}
					w := new(big.Rat).Mul(a, v)
					if old, ok := r.c[k]; ok {
						w.Add(w, old)
					}
					if w.Sign() == 0 {
						delete(r.c, k)
					} else {
						r.c[k] = w
					}
				}
				rest = append(rest, r)
			}
		}
		rows = rest
	}
}

// guardFeasible reports whether the inequalities of a guard may hold
// together.
func guardFeasible(atoms []gatom) bool {
	var gs []Poly
	for _, a := range atoms {
		if a.a.mod == 0 {
			gs = append(gs, a.a.g)
		}
	}
	return feasible(gs)
}
