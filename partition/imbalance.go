package partition

import (
	"math"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
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
	rec := &stepShares{outer: loops[oi].do, index: name, array: array, dim: dim}
	// Every processor's share at every step, for the schedule of a
	// broadcast sent at each step (bcastSchedule): the counts' arguments,
	// or the shares where the body is weighted iteration by iteration
	// (within a budget).
	rec.format, rec.blk, rec.nprocs, rec.lower = f, (int64(ext)+p-1)/p, p, lower
	kept, keep := 0.0, true
	share := func(sh stepShare, k int64) {
		kept += float64(len(sh.values))
		keep = keep && kept <= maxWeightedIterations
		if !keep {
			rec.procs = nil
			return
		}
		rec.procs = append(rec.procs, sh)
		rec.root = append(rec.root, int(ownerIndex(k-lower, f, rec.blk, p)))
	}
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
			rec.k = append(rec.k, float64(int64(ol)+i*int64(os)))
			rec.all, rec.most, rec.owner = append(rec.all, 0), append(rec.most, 0), append(rec.owner, 0)
			share(stepShare{}, int64(ol)+i*int64(os))
			continue
		}
		w, sw := 1.0, 0.0 // the body's time at this step, where it is a number (sw: for the schedule, in seconds)
		if b, ok := body.Subst(name, kv); ok {
			if v, ok := complexity.Seconds(b); ok && v > 0 {
				w, sw = v, v
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
			all := 0.0
			for _, v := range step {
				all += v
			}
			rec.k = append(rec.k, k)
			rec.all = append(rec.all, all)
			rec.most = append(rec.most, maxFloat(step))
			rec.owner = append(rec.owner, step[ownerIndex(int64(k)+int64(os)-lower, f, b, p)])
			share(stepShare{values: step}, int64(k))
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
		k := int64(ol) + i*int64(os)
		rec.k = append(rec.k, float64(k))
		rec.all = append(rec.all, float64(n)*w)
		most := int64(0)
		for _, c := range counts {
			most = max(most, c)
		}
		rec.most = append(rec.most, float64(most)*w)
		rec.owner = append(rec.owner, float64(counts[ownerIndex(k+int64(os)-lower, f, (int64(ext)+p-1)/p, p)])*w)
		share(stepShare{first: l, stride: s, n: n, w: sw}, k)
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
	if len(rec.k) == int(steps) {
		if e.shares == nil {
			e.shares = map[*parser.DoConstruct]*stepShares{}
		}
		rec.fraction = busiest / total
		e.shares[rec.outer] = rec
	}
	return ratOf(busiest / total), true
}

// stepShares are an imbalance's shares step by step (for the enclosing
// loop's overlap): at each value k of the enclosing index, the inner
// loop's work at that step (all processors'), the busiest processor's
// share and the share of the
// processor that owns the next step's position k+step along the
// distributed dimension (the owner of DGEFA's column K+1), in the inner
// body's seconds; the inner loop's estimate is the work times fraction
// (the busiest's part), step by step.
type stepShares struct {
	outer      *parser.DoConstruct
	index      string
	array      string
	dim        int
	k          []float64
	all, owner []float64
	most       []float64 // the busiest processor's share at each step
	fraction   float64
	inner      *parser.DoConstruct
	innerTotal Poly // the inner loop's time at one step (a polynomial in index)
	// procs holds every processor's share at each step (nil past a
	// budget), root the processor that owns position k at each step,
	// and work the owner's work at each step besides the inner loop
	// (ownerOverlap sets it; nil when the body does more).
	procs []stepShare
	root  []int
	work  []float64
	// The distribution of the shares: format, block, processors and the
	// dimension's lower bound.
	format             DimFormat
	blk, nprocs, lower int64
}

// stepShare is every processor's share of the inner loop at one step:
// values where they were weighed iteration by iteration, else the loop's
// n iterations from first by stride, each taking w seconds.
type stepShare struct {
	values        []float64
	first, stride int64
	n             int64
	w             float64
}

// shareAt is every processor's share at step i, in buf (of nprocs).
func (r *stepShares) shareAt(i int, buf []float64) []float64 {
	sh := r.procs[i]
	if sh.values != nil {
		return sh.values
	}
	clear(buf)
	if sh.n <= 0 {
		return buf
	}
	var counts []int64
	if r.format.Kind == "CYCLIC" {
		counts = cyclicCounts(sh.first-r.lower, sh.stride, sh.n, max(int64(r.format.K), 1), r.nprocs)
	} else {
		counts = blockCounts(sh.first-r.lower, sh.stride, sh.n, r.blk, r.nprocs)
	}
	for q, c := range counts {
		buf[q] = float64(c) * sh.w
	}
	return buf
}

// ownerOverlap is the time the steps of the loop c save when the work
// its body does besides the inner partitioned loop (rec.inner) is all the
// owner's of position k (DGEFA's pivot search and factors of column K).
// The estimate adds that work to the busiest processor's share at every
// step; but the owner of step k+1's position starts its work once it has
// done its own share of step k, while the others go on with theirs: a
// step takes the larger of the busiest share and the next owner's share
// plus the next owner's work, and only the first step's work comes
// before all. Under CYCLIC the next owner holds the busiest share (its
// column K+1 comes first): nothing hides. Under BLOCK it holds few of the
// columns right of K while the last processor holds a full block: the
// owners' work hides behind the last processor's. (On a simulated
// NCUBE/2 with free communication, the kit's DGEFA at P = 16, N = 32 to
// 256: this gives 2.3, 10.9, 62.9, 453 ms under BLOCK and 2.4, 11.9,
// 66.2, 411 under CYCLIC, as measured; the sum was 20% high under
// BLOCK.) body is c's body's time at one step. ok is false when the
// body does anything but the owner's work besides the inner loop.
func (e *est) ownerOverlap(c *parser.DoConstruct, body Poly) (float64, bool) {
	rec := e.shares[c]
	if rec == nil || rec.inner == nil || len(rec.k) == 0 {
		return 0, false
	}
	l := e.d.Arrays[rec.array]
	if l == nil {
		return 0, false
	}
	// Besides the inner loop: assignments to scalars, to arrays not
	// distributed, and to elements of position k (the index itself)
	// along the inner loop's distributed dimension of the same
	// template; nothing else distributed, no calls.
	ok := true
	for _, s := range c.Body {
		if s == parser.Stmt(rec.inner) {
			continue
		}
		parser.Inspect(s, func(n parser.Node) bool {
			switch x := n.(type) {
			case *parser.CallStmt:
				ok = false
			case *parser.DoConstruct:
				// A loop that touches nothing of the template is every
				// processor's work (replicated data), the busiest
				// one's too: it hides behind nothing.
				if !e.touches(x, l.Template) {
					ok = false
				}
			case *parser.AssignStmt:
				w, isRef := refOf(x.LHS, e.sc)
				lw := e.d.Arrays[w.name]
				if !isRef || lw == nil || !lw.Distributed() {
					return ok
				}
				if lw.Template != l.Template || !w.ok {
					ok = false
					return false
				}
				for i, f := range lw.Dims {
					if f.Procs <= 1 {
						continue
					}
					if i >= len(w.subs) || i >= len(lw.TemplateDim) || rec.dim >= len(l.TemplateDim) ||
						lw.TemplateDim[i] != l.TemplateDim[rec.dim] || linearKey(w.subs[i], int64(lw.Offset[i])) != linearKey(linear{coef: map[string]int64{rec.index: 1}}, int64(l.Offset[rec.dim])) {
						ok = false
					}
				}
			}
			return ok
		})
	}
	if !ok {
		return 0, false
	}
	own := body.Sub(rec.innerTotal)
	work := make([]float64, len(rec.k)+1) // the owner's work at each step (0 past the last)
	for i, k := range rec.k {
		w, okW := own.Subst(rec.index, complexity.Int(int64(k)))
		v, okV := complexity.Seconds(w)
		if !okW || !okV {
			return 0, false
		}
		work[i] = math.Max(v, 0)
	}
	rec.work = work[:len(rec.k)]
	sum, path := 0.0, work[0]
	for i := range rec.k {
		sum += rec.all[i]*rec.fraction + work[i]
		path += math.Max(rec.most[i], rec.owner[i]+work[i+1])
	}
	return sum - path, true
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

// touches reports whether n refers to an array distributed on the
// template tmpl.
func (e *est) touches(n parser.Node, tmpl string) bool {
	found := false
	parser.Inspect(n, func(m parser.Node) bool {
		if id, ok := m.(*parser.Ident); ok {
			if l := e.d.Arrays[id.Name]; l != nil && l.Distributed() && l.Template == tmpl {
				found = true
			}
		}
		return !found
	})
	return found
}
