package partition

import (
	"math"

	"github.com/pfls/pfls/complexity"
)

// maxImbalanceSteps bounds the iterations of the enclosing loop that
// imbalance walks.
const maxImbalanceSteps = 100000

// imbalance is the busiest processor's share of a partitioned loop whose
// bounds depend on the index of one enclosing loop (LU's J = K+1, N under
// the K loop), as a fraction of the loop's iterations: each processor's
// work is summed over all the enclosing loop's iterations, each weighted
// by the body's time there, and the processor with the most work in total
// is the busiest. Under BLOCK the owner of the last columns works at every
// step, so a triangular loop costs it about 1.5 times the balanced share;
// CYCLIC deals the shrinking range out evenly. ok is false when the bounds
// depend on no enclosing index, or on several, or the ranges are not
// numbers; the caller then uses localTrips.
func (e *est) imbalance(idx string, lo, hi, step, body Poly, loops []loopInfo, array string, dim int, f DimFormat) (Poly, bool) {
	if e.opt.Even {
		return Poly{}, false
	}
	oi := -1
	for i, l := range loops {
		if lo.Has(l.index) || hi.Has(l.index) || step.Has(l.index) {
			if oi >= 0 {
				return Poly{}, false
			}
			oi = i
		}
	}
	if oi < 0 {
		return Poly{}, false
	}
	name, d := loops[oi].index, loops[oi].do.Do
	num := func(x Poly, ok bool) (float64, bool) {
		if !ok {
			return 0, false
		}
		return complexity.Seconds(x)
	}
	ol, ok1 := num(e.value(d.Lo, loops[:oi], 0))
	oh, ok2 := num(e.value(d.Hi, loops[:oi], 0))
	os := 1.0
	ok3 := true
	if d.Step != nil {
		os, ok3 = num(e.value(d.Step, loops[:oi], 0))
	}
	if !ok1 || !ok2 || !ok3 || os == 0 || os != math.Trunc(os) || ol != math.Trunc(ol) {
		return Poly{}, false
	}
	steps := math.Floor((oh-ol)/os) + 1
	if steps <= 0 || steps > maxImbalanceSteps {
		return Poly{}, false
	}
	ext, ok := num(e.extent(array, dim))
	if !ok || ext < 1 || ext > 1e15 {
		return Poly{}, false
	}
	lower := int64(1)
	if sym := e.sc.Lookup(array); sym != nil && dim < len(sym.Dims) && sym.Dims[dim].Lower != nil {
		if v, ok := num(e.value(sym.Dims[dim].Lower, nil, 0)); ok {
			lower = int64(v)
		}
	}
	p := int64(f.Procs)
	if p < 1 || p > MaxProcs {
		return Poly{}, false
	}
	per := make([]float64, p)
	total, stepped := 0.0, 0.0
	// A body whose time depends on the partitioned index (Cholesky's
	// column J = K+1, N updating rows J to N) weighs each iteration by
	// its own time: the processor holding the long columns is the busy
	// one. Counted iteration by iteration, within a budget.
	wj, weighted := compileBody(body, name, idx)
	weighted = weighted && body.Has(idx)
	budget := int64(maxWeightedIterations)
	for i := int64(0); i < int64(steps); i++ {
		kv := complexity.Int(int64(ol) + i*int64(os))
		at := func(x Poly) (int64, bool) {
			y, ok := x.Subst(name, kv)
			v, ok2 := num(y, ok)
			if !ok2 || v != math.Trunc(v) || math.Abs(v) > 1e15 {
				return 0, false
			}
			return int64(v), true
		}
		l, ok1 := at(lo)
		h, ok2 := at(hi)
		s, ok3 := at(step)
		if !ok1 || !ok2 || !ok3 || s == 0 {
			return Poly{}, false
		}
		n := (h - l + s) / s
		if n <= 0 {
			continue
		}
		w := 1.0 // the body's time at this step, where it is a number
		if b, ok := body.Subst(name, kv); ok {
			if v, ok := complexity.Seconds(b); ok && v > 0 {
				w = v
			}
		}
		if weighted && budget >= n {
			budget -= n
			k := float64(int64(ol) + i*int64(os))
			step := make([]float64, p)
			b := (int64(ext) + p - 1) / p
			for t := int64(0); t < n; t++ {
				j := l + t*s
				q := ownerIndex(j-lower, f, b, p)
				v := wj(k, float64(j))
				step[q] += v
				per[q] += v
				total += v
			}
			stepped += maxFloat(step)
			continue
		}
		weighted = false
		var counts []int64
		if f.Kind == "CYCLIC" {
			counts = cyclicCounts(l-lower, s, n, max(int64(f.K), 1), p)
		} else {
			counts = blockCounts(l-lower, s, n, (int64(ext)+p-1)/p, p)
		}
		for q, c := range counts {
			per[q] += float64(c) * w
		}
		total += float64(n) * w
	}
	if total <= 0 {
		return Poly{}, false
	}
	busiest := maxFloat(per)
	if weighted {
		// Each step waits for the messages its predecessor's owner
		// sends (the broadcast of column K): the busiest processor of
		// each step sets its time (seed 003's ESTIMATE takes the loop's
		// local iterations on the busiest processor per iteration of
		// the enclosing loop).
		busiest = stepped
	}
	return ratOf(busiest / total), true
}

// maxWeightedIterations bounds the iterations imbalance weighs one by one.
const maxWeightedIterations = 1 << 22

func maxFloat(xs []float64) float64 {
	best := 0.0
	for _, v := range xs {
		best = max(best, v)
	}
	return best
}

// ownerIndex is the processor that owns position x (from 0) along a
// dimension distributed as f over p processors with blocks of b.
func ownerIndex(x int64, f DimFormat, b, p int64) int64 {
	if x < 0 {
		return 0
	}
	if f.Kind == "CYCLIC" {
		return (x / max(int64(f.K), 1)) % p
	}
	return min(x/max(b, 1), p-1)
}

// compileBody turns a time that is a polynomial in the enclosing index
// k and the loop's index j (and nothing else) into a float function.
func compileBody(body Poly, k, j string) (func(kv, jv float64) float64, bool) {
	type term struct {
		c      float64
		ek, ej int
	}
	var ts []term
	for _, t := range body.Terms() {
		c, _ := t.Coef.Float64()
		tt := term{c: c}
		for _, fct := range t.Factors {
			switch fct.Name {
			case k:
				tt.ek = fct.Exp
			case j:
				tt.ej = fct.Exp
			default:
				return nil, false
			}
		}
		ts = append(ts, tt)
	}
	return func(kv, jv float64) float64 {
		v := 0.0
		for _, t := range ts {
			v += t.c * math.Pow(kv, float64(t.ek)) * math.Pow(jv, float64(t.ej))
		}
		return v
	}, true
}
