package complexity

import (
	"fmt"
	"math/big"
	"strings"
	"sync/atomic"
)

// This file is exact counting over affine loop nests: the sum of a
// guarded polynomial over a loop index whose range may be empty, whose
// bounds may be MIN or MAX of affine expressions and whose step is a
// constant. It follows the idea of isl's and barvinok's counting,
// specialised to the nests of Fortran programs: the range of the index
// in each guarded term is [max of its lower bounds, min of its upper
// bounds]; the sum splits into chambers, one per choice of the largest
// lower and the smallest upper bound, each guarded by the conditions that
// make that choice and the range non-empty, and valued by Faulhaber's
// formula. A bound with a coefficient other than ±1 on the index (a step
// of 2, a condition 2·I ≤ M + 9) becomes exact through its residue: under
// the congruence A | b − r, ⌊b/A⌋ is (b − r)/A. Chambers that
// Fourier–Motzkin elimination proves empty are dropped.

// MaxGuardTerms bounds the guarded terms of one count. Past it the count
// is too large to analyse exactly, and the loop falls back on the
// report's convention (ranges assumed non-empty) with a note.
const MaxGuardTerms = 2000

// boundAlt is one alternative of a loop bound: the bound is val where the
// guard holds.
type boundAlt struct {
	guard []gatom
	val   Poly
}

// exactSum sums guarded polynomials over loop indices.
type exactSum struct {
	notes    []string
	assumed  map[string]bool
	tooLarge bool
	hard     bool // some condition was assumed rather than counted
	terms    int
	calls    int
}

// maxSumCalls bounds the work of one loop's count (the splits by
// residue and by chamber); past it the count is too large to analyse.
const maxSumCalls = 4000

// freshCounter numbers fresh names; analyses of different documents run
// at once in the server, so it is shared atomically.
var freshCounter atomic.Int64

// fresh returns a new variable name that is not a Fortran name.
func (x *exactSum) fresh(v string, avoid ...Poly) string {
	for {
		name := fmt.Sprintf("$%s%d", v, freshCounter.Add(1)%100000)
		used := false
		for _, p := range avoid {
			if p.Has(name) {
				used = true
			}
		}
		if !used {
			return name
		}
	}
}

func (x *exactSum) assume(a gatom) {
	if x.assumed == nil {
		x.assumed = map[string]bool{}
	}
	x.hard = true
	s := conditionString(a.a, false)
	if !a.main {
		s = "not (" + s + ")"
	}
	if !x.assumed[s] {
		x.assumed[s] = true
		x.notes = append(x.notes, "assumes "+s+" (exact counting out of reach)")
	}
}

// loop returns Σ body over DO v = lo, hi, step for each pair of bound
// alternatives, step a nonzero integer constant. ok is false when the
// count is too large to analyse.
func (x *exactSum) loop(body Poly, v string, los, his []boundAlt, step int64) (Poly, bool) {
	var out []gterm
	for _, lo := range los {
		for _, hi := range his {
			guard := append(append([]gatom(nil), lo.guard...), hi.guard...)
			for _, t := range splitGuarded(body) {
				atoms := append([]gatom(nil), guard...)
				p := t.p
				w := v
				if step == 1 {
					// The loop's own bounds first: they are the ones the
					// report's convention takes.
					var ok bool
					if atoms, ok = addAtom(atoms, atom{g: Var(v).Sub(lo.val)}, true); !ok {
						continue
					}
					if atoms, ok = addAtom(atoms, atom{g: hi.val.Sub(Var(v))}, true); !ok {
						continue
					}
					atoms = append(atoms, t.atoms...)
				} else {
					atoms = append(atoms, t.atoms...)
					// v = lo + step·w, w = 0, 1, … while v stays in range.
					w = x.fresh("W", body, lo.val, hi.val)
					nv := lo.val.Add(Int(step).Mul(Var(w)))
					var ok bool
					if p, ok = p.Subst(v, nv); !ok {
						return Poly{}, false
					}
					var sub []gatom
					alive := true
					for _, a := range atoms {
						g, ok := a.a.g.Subst(v, nv)
						if !ok {
							return Poly{}, false
						}
						if sub, alive = addAtom(sub, atom{g: g, mod: a.a.mod}, a.main); !alive {
							break
						}
					}
					if !alive {
						continue
					}
					span := hi.val.Sub(lo.val)
					if step < 0 {
						span = span.Neg()
					}
					a := step
					if a < 0 {
						a = -a
					}
					var own []gatom
					if own, ok = addAtom(nil, atom{g: Var(w)}, true); !ok {
						continue
					}
					if own, ok = addAtom(own, atom{g: span.Sub(Int(a).Mul(Var(w)))}, true); !ok {
						continue
					}
					atoms = append(own, sub...)
				}
				out = append(out, x.sumVar(w, gterm{atoms, p})...)
				if x.tooLarge {
					return Poly{}, false
				}
			}
		}
	}
	return joinGuarded(out), true
}

// bound is one lower or upper bound of an index: v ≥ val or v ≤ val.
type bound struct {
	val  Poly
	main bool
}

// sumVar returns Σ_v t over all integers v; the guard of t bounds v.
func (x *exactSum) sumVar(v string, t gterm) []gterm {
	if x.calls++; x.tooLarge || x.calls > maxSumCalls {
		x.tooLarge = true
		return nil
	}
	var free []gatom
	var cong *gatom
	type ineq struct {
		a    int64 // coefficient of v
		b    Poly  // the rest
		main bool
	}
	var ineqs []ineq
	for i := range t.atoms {
		a := t.atoms[i]
		if !a.a.g.Has(v) {
			free = append(free, a)
			continue
		}
		lo, hi := a.a.g.Degree(v)
		c, isConst := a.a.g.Coeff(v, 1).Value()
		if lo < 0 || hi > 1 || !isConst || !c.IsInt() || !c.Num().IsInt64() {
			// Not affine in v with a constant coefficient: assume.
			x.assume(a)
			if !a.main {
				return nil
			}
			continue
		}
		if a.a.mod != 0 {
			if cong == nil {
				cong = &t.atoms[i]
			} else {
				free = append(free, a) // handled after the first is solved
			}
			continue
		}
		ineqs = append(ineqs, ineq{c.Num().Int64(), a.a.g.Coeff(v, 0), a.main})
	}
	if cong != nil {
		// c | a·v + b: write v = c·w + s for each residue s.
		var out []gterm
		c := cong.a.mod
		for s := int64(0); s < c; s++ {
			w := x.fresh("W", t.p)
			nv := Int(c).Mul(Var(w)).Add(Int(s))
			p, ok := t.p.Subst(v, nv)
			if !ok {
				return nil
			}
			var atoms []gatom
			alive := true
			for _, a := range t.atoms {
				g, ok := a.a.g.Subst(v, nv)
				if !ok {
					return nil
				}
				if atoms, alive = addAtom(atoms, atom{g: g, mod: a.a.mod}, a.main); !alive {
					break
				}
			}
			if alive {
				out = append(out, x.sumVar(w, gterm{atoms, p})...)
			}
		}
		return out
	}
	// Bounds with a coefficient other than ±1: one alternative per residue.
	type choice struct {
		lows, ups []bound
		extra     []gatom
	}
	choices := []choice{{}}
	for _, in := range ineqs {
		A := in.a
		if A < 0 {
			A = -A
		}
		var next []choice
		for _, ch := range choices {
			for r := int64(0); r < A; r++ {
				if A == 1 && r > 0 {
					break
				}
				n := choice{lows: append([]bound(nil), ch.lows...), ups: append([]bound(nil), ch.ups...), extra: append([]gatom(nil), ch.extra...)}
				var ok bool
				if A > 1 {
					if n.extra, ok = addAtom(n.extra, atom{g: in.b.Sub(Int(r)), mod: A}, in.main && r == 0); !ok {
						continue
					}
				}
				q := in.b.Sub(Int(r)).Scale(big.NewRat(1, A))
				if in.a > 0 {
					// A·v + b ≥ 0: v ≥ (r − b)/A.
					n.lows = append(n.lows, bound{q.Neg(), in.main})
				} else {
					// −A·v + b ≥ 0: v ≤ (b − r)/A.
					n.ups = append(n.ups, bound{q, in.main})
				}
				next = append(next, n)
				if len(next) > 64 {
					break // too many: a step of a million, one per residue
				}
			}
			if len(next) > 64 {
				break
			}
		}
		choices = next
		if len(choices) > 64 {
			x.tooLarge = true
			return nil
		}
	}
	var out []gterm
	for _, ch := range choices {
		if len(ch.lows) == 0 || len(ch.ups) == 0 {
			// Unbounded: cannot happen for a loop; count nothing.
			x.hard = true
			x.notes = append(x.notes, "an index without both bounds was not counted")
			continue
		}
		base := append(append([]gatom(nil), free...), ch.extra...)
		am, bm := mainIndex(ch.lows), mainIndex(ch.ups)
		for a, L := range ch.lows {
			for b, U := range ch.ups {
				if x.calls++; x.calls > maxSumCalls {
					x.tooLarge = true
					return nil
				}
				main := a == am && b == bm
				atoms := append([]gatom(nil), base...)
				ok := true
				for k, Lk := range ch.lows {
					if k == a || !ok {
						continue
					}
					d := L.val.Sub(Lk.val) // L_a is the largest lower bound
					if k < a {
						d = d.Sub(Int(1))
					}
					atoms, ok = addAtom(atoms, atom{g: d}, main)
				}
				for k, Uk := range ch.ups {
					if k == b || !ok {
						continue
					}
					d := Uk.val.Sub(U.val) // U_b is the smallest upper bound
					if k < b {
						d = d.Sub(Int(1))
					}
					atoms, ok = addAtom(atoms, atom{g: d}, main)
				}
				if !ok {
					continue
				}
				if atoms, ok = addAtom(atoms, atom{g: U.val.Sub(L.val)}, main); !ok {
					continue
				}
				if !guardFeasible(atoms) {
					continue
				}
				s, ok := Sum(t.p, v, L.val, U.val)
				if !ok {
					x.hard = true
					x.notes = append(x.notes, "cost not polynomial in "+displayVar(v)+": multiplied by the trip count")
					s = t.p.Mul(U.val.Sub(L.val).Add(Int(1)))
				}
				out = append(out, gterm{dedupe(atoms), s})
				if x.terms++; x.terms > MaxGuardTerms {
					x.tooLarge = true
					return nil
				}
			}
		}
	}
	return out
}

func mainIndex(bs []bound) int {
	for i, b := range bs {
		if b.main {
			return i
		}
	}
	return 0
}

func dedupe(atoms []gatom) []gatom {
	seen := map[string]bool{}
	var out []gatom
	for _, a := range atoms {
		if n := a.name(); !seen[n] {
			seen[n] = true
			out = append(out, a)
		}
	}
	return out
}

func displayVar(v string) string {
	if strings.HasPrefix(v, "$") {
		return "a loop index"
	}
	return v
}
