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
func (e *est) imbalance(lo, hi, step, body Poly, loops []loopInfo, array string, dim int, f DimFormat) (Poly, bool) {
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
	total := 0.0
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
	if total == 0 {
		return Poly{}, false
	}
	busiest := 0.0
	for _, v := range per {
		busiest = max(busiest, v)
	}
	return ratOf(busiest / total), true
}
