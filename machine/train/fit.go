package train

// Fitting a communication curve to the times the training set measures.
//
// The trainer gives, per pattern and processor count, the median time of
// one call at many message sizes. FitCurve turns these samples into a
// Curve: a few linear segments time = A + B·bytes, with A, B ≥ 0 and
// steps that only go up, as machine.Curve.Validate demands.
//
// Error measure. Times span three orders of magnitude (0.3 µs to
// 500 µs) and the noise is relative (15-30% run to run), so everything
// is fitted in relative error: a sample measured at t seconds weighs
// 1/t², and the residual that counts is (fit-t)/t. A sample measured at
// 0 s (below the timer's resolution) takes the smallest positive time of
// the samples as its denominator instead, so it counts like the fastest
// real measurement and not infinitely. When every time is 0 the curve is
// the zero curve. Weighting by the measured time biases the fit low by
// about 2σ² under relative noise σ (a point measured high weighs less
// than one measured low): about 5% at ±20% uniform noise, well inside
// the run-to-run spread.
//
// Segments. Each segment is a weighted least-squares line with A ≥ 0 and
// B ≥ 0, solved exactly (fitLine): the unconstrained solution when both
// coefficients are non-negative, otherwise the better of the best line
// with A = 0 and the best line with B = 0 (the optimum of a convex
// quadratic over the quadrant lies on one of its edges when it is not
// inside).
//
// Breaks. The samples are sorted by size and grouped by distinct size
// (several samples at one size stay in one segment). For every number of
// segments K up to MaxSegments, dynamic programming over the split
// positions between consecutive distinct sizes finds the splits with the
// least total weighted squared error, each segment holding at least
// MinPoints distinct sizes. The step lies somewhere between the last
// measured size of one segment and the first of the next; the boundary
// is put at the first size of the new segment (machine.Segment.From of the new
// segment = its smallest measured size), so every measured size is
// priced by the segment fitted to it, and the sizes in the gap, which
// nobody measured, by the earlier segment.
//
// Number of segments. K is chosen by the Bayesian information criterion
// on the relative residuals:
//
//	BIC(K) = n·ln(max(RSS_K/n, ε²)) + (3K−1)·ln n
//
// with n the number of samples, RSS_K the sum of squared relative
// residuals of the (repaired, valid) K-segment curve, and 3K−1 its
// parameters (A and B per segment, and each break position). The
// smallest K with the least BIC wins. Each extra segment must therefore
// cut the weighted error by the factor exp(3·ln n / n) — about 19% at
// n = 60, 29% at n = 30 — which noise around one line rarely does (the
// best of all split positions of pure noise gains about as much as a
// likelihood-ratio statistic with a few degrees of freedom, mostly below
// 3·ln n: in the tests about 3% of draws of ±20% noise around a line at
// the trainer's 42 sizes get a second segment), while a real step of
// 1.5× or more over several sizes cuts the error by far more. ε = 0.1% is the noise
// floor: no timing reproduces better than that, and without the floor a
// noise-free line (RSS ≈ rounding) would gain arbitrarily many segments
// from rounding errors. BIC rather than a fixed percentage because its
// threshold falls as the number of samples grows, as the evidence a
// break needs should.
//
// Steps down. Segments fitted independently may step down at a boundary:
// the earlier segment's line extrapolated over the unmeasured gap ends
// above the later one's start (concave data, or noise). Such a curve is
// not valid. Neither the simple repairs — raising the later segment's A
// (shifts a whole well-fitted segment away from its data) nor merging
// the two segments (loses a break the data asked for) — is used: the
// curve is refitted with the step-up constraints as part of the least-
// squares problem (repairSteps): one small quadratic program over all
// the A and B, with A, B ≥ 0 and "no step down" at every boundary,
// solved exactly (qpSolve). At a boundary where the independent fits
// stepped down the optimum typically makes the two segments meet there
// (a continuous kink), moving both lines as little as the data allows.
// This is the least-squares optimum among all valid curves with these
// breaks, so it is never worse than either simple repair, both of which
// are valid curves with these breaks.
//
// MinPoints counts distinct sizes, not samples: a line needs two sizes,
// and three samples at one size do not make a segment. It applies to
// every segment, the last one included: a two-size last segment fits
// its points exactly whatever the noise, so a "step" between the two
// largest sizes cannot be told from noise. With fewer than 2·MinPoints
// distinct sizes the curve has one segment.
//
// Cost: O(m²) segment fits for m distinct sizes, O(K·m²) for the dynamic
// programming, plus a small quadratic program when a fit steps down.
//
// Sample.Spread is not used by the fit. Weighting by it was considered
// and rejected: a spread from a handful of passes is itself too noisy to
// weigh by (a size whose few passes happen to agree would dominate the
// fit). BuildMachine reports it next to the fit error instead.

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/pfls/pfls/machine"
)

// Sample is one measured point: the median time of a call at a message
// size.
type Sample struct {
	Bytes   int64
	Seconds float64
	// Spread is the relative spread (max-min)/median of the passes, 0 if
	// unknown. FitCurve does not use it.
	Spread float64
}

// FitOptions tune FitCurve; the zero value is usable.
type FitOptions struct {
	// MaxSegments is the largest number of segments; 0 or less means 4,
	// more than 6 means 6.
	MaxSegments int
	// MinPoints is the least number of distinct sizes a segment holds,
	// the last one included; 0 or less means 3, and 1 is taken as 2 (a
	// line needs two sizes).
	MinPoints int
}

// FitReport says how well a curve fits its samples.
type FitReport struct {
	Segments int
	// Breaks holds the From of each segment after the first: the first
	// measured size of the segment.
	Breaks []int64
	// RMSRel is the root mean square of (fit-measured)/measured over the
	// samples, MaxRel the largest |fit-measured|/measured (see
	// FitQuality for samples measured at 0 s).
	RMSRel float64
	MaxRel float64
	// Steps holds one entry per break, continuous ones included (there
	// After = Before).
	Steps []machine.Step
}

// Segment limits of FitCurve. The protocol switches of today's MPI
// libraries give a few breaks (eager, rendezvous, a pipelined
// large-message protocol, cache sizes): the default model, trained with
// Open MPI 4.1.4 on 2026-11-22, uses 3 or 4 segments per curve at the
// default limit of 4; 6 is the most a caller may ask for. 3 distinct
// sizes per segment is the least that tells a line from noise (see
// MinPoints above).
const (
	fitDefaultMaxSegments = 4
	fitMaxSegments        = 6
	fitDefaultMinPoints   = 3
	// fitNoiseFloor is ε of the segment-count rule: the relative rms
	// error below which a fit counts as exact.
	fitNoiseFloor = 1e-3
)

// FitCurve fits a piecewise-linear curve to measured times (see the
// comment at the top of fit.go for the method). The samples need not be
// sorted; several may have the same size. Errors: no samples, a negative
// size, a time that is negative, NaN or infinite.
func FitCurve(samples []Sample, opt FitOptions) (machine.Curve, FitReport, error) {
	f, err := newFitData(samples)
	if err != nil {
		return nil, FitReport{}, err
	}
	if f.ymax == 0 {
		return machine.Curve{{From: 0, To: 0}}, FitReport{Segments: 1}, nil
	}
	maxSeg := opt.MaxSegments
	if maxSeg <= 0 {
		maxSeg = fitDefaultMaxSegments
	}
	// The repair of steps down solves its constrained problem over the
	// subsets of 3K-1 constraints: beyond 6 segments that takes seconds.
	maxSeg = min(maxSeg, fitMaxSegments)
	minPts := opt.MinPoints
	if minPts <= 0 {
		minPts = fitDefaultMinPoints
	}
	minPts = max(minPts, 2)

	m := len(f.groups)
	kmax := min(maxSeg, m/minPts)
	if m < 2*minPts {
		kmax = 1
	}
	n := float64(len(f.x))
	var best fitCurveN
	bestBIC := math.Inf(1)
	for _, cuts := range f.segmentations(kmax, minPts) {
		c := f.fitCuts(cuts)
		k := len(cuts) - 1
		bic := n*math.Log(max(c.rss/n, fitNoiseFloor*fitNoiseFloor)) + float64(3*k-1)*math.Log(n)
		if bic < bestBIC {
			best, bestBIC = c, bic
		}
	}

	curve := f.curve(best)
	rep := FitReport{Segments: len(curve)}
	for s := 1; s < len(curve); s++ {
		x := curve[s].From
		rep.Breaks = append(rep.Breaks, x)
		rep.Steps = append(rep.Steps, machine.Step{Bytes: x,
			Before: curve[s-1].A + curve[s-1].B*float64(x),
			After:  curve[s].A + curve[s].B*float64(x)})
	}
	rep.RMSRel, rep.MaxRel = FitQuality(curve, samples)
	return curve, rep, nil
}

// FitQuality returns the root mean square and the largest of the
// relative errors |c(bytes)-measured|/measured over the samples. A
// sample measured at 0 s is divided by the smallest positive time of the
// samples instead, as FitCurve does; when every sample is 0 s an error
// is 0 where the curve gives 0 and +Inf elsewhere. No samples: 0, 0.
func FitQuality(c machine.Curve, samples []Sample) (rmsRel, maxRel float64) {
	if len(samples) == 0 {
		return 0, 0
	}
	var floor float64
	for _, s := range samples {
		if s.Seconds > 0 && (floor == 0 || s.Seconds < floor) {
			floor = s.Seconds
		}
	}
	var sum float64
	for _, s := range samples {
		fit := c.Time(float64(s.Bytes))
		d := max(s.Seconds, floor)
		e := 0.0
		switch {
		case d > 0:
			e = math.Abs(fit-s.Seconds) / d
		case fit != 0:
			e = math.Inf(1)
		}
		sum += e * e
		maxRel = max(maxRel, e)
	}
	return math.Sqrt(sum / float64(len(samples))), maxRel
}

// fitSums are the weighted sums a least-squares line needs.
type fitSums struct{ w, wx, wxx, wy, wxy, wyy float64 }

func (s *fitSums) add(x, y, w float64) {
	s.w += w
	s.wx += w * x
	s.wxx += w * x * x
	s.wy += w * y
	s.wxy += w * x * y
	s.wyy += w * y * y
}

func (s *fitSums) merge(o fitSums) {
	s.w += o.w
	s.wx += o.wx
	s.wxx += o.wxx
	s.wy += o.wy
	s.wxy += o.wxy
	s.wyy += o.wyy
}

// rss is Σ w·(a + b·x − y)² from the sums.
func (s fitSums) rss(a, b float64) float64 {
	r := s.wyy - 2*a*s.wy - 2*b*s.wxy + a*a*s.w + 2*a*b*s.wx + b*b*s.wxx
	return max(r, 0)
}

// fitLine is the weighted least-squares line with a ≥ 0 and b ≥ 0, and
// its weighted squared error. When the unconstrained optimum has a
// negative coefficient, the constrained optimum lies on an edge of the
// quadrant: the better of the best line through the origin (a = 0) and
// the best constant (b = 0). With one distinct size the slope is
// undetermined and the fit is the best constant.
func fitLine(s fitSums) (a, b, rss float64) {
	if s.w <= 0 {
		return 0, 0, 0
	}
	a, b, ok := s.line()
	if !ok {
		// One distinct size: the slope is undetermined; a constant.
		a = max(s.wy/s.w, 0)
		return a, 0, s.rss(a, 0)
	}
	if a >= 0 && b >= 0 {
		return a, b, s.rss(a, b)
	}
	a, b = max(s.wy/s.w, 0), 0
	rss = s.rss(a, b)
	if s.wxx > 0 {
		b0 := max(s.wxy/s.wxx, 0)
		if r := s.rss(0, b0); r < rss {
			a, b, rss = 0, b0, r
		}
	}
	return a, b, rss
}

// line is the weighted least-squares line y = a + b·x of the sums,
// unconstrained; ok is false without points or with one distinct x.
func (s fitSums) line() (a, b float64, ok bool) {
	det := s.w*s.wxx - s.wx*s.wx
	if s.w <= 0 || det <= 1e-13*s.w*s.wxx {
		return 0, 0, false
	}
	a = (s.wxx*s.wy - s.wx*s.wxy) / det
	b = (s.w*s.wxy - s.wx*s.wy) / det
	return a, b, true
}

// fitGroup is the samples at one distinct size.
type fitGroup struct {
	bytes int64
	x     float64 // normalised size
	sums  fitSums
}

// fitData is the samples in normalised units — sizes over the largest
// size xs, times over the largest time ymax — so the sums stay near 1
// whatever the machine; sorted by size.
type fitData struct {
	x, y, w  []float64
	groups   []fitGroup
	xs, ymax float64
}

// newFitData checks the samples and normalises them. ymax = 0 means
// every time is 0 (and nothing else is set).
func newFitData(samples []Sample) (*fitData, error) {
	if len(samples) == 0 {
		return nil, errors.New("fit: no samples")
	}
	var xmax int64
	var ymax, ypos float64 // largest time, smallest positive time
	for i, s := range samples {
		switch {
		case s.Bytes < 0:
			return nil, fmt.Errorf("fit: sample %d: size %d bytes is negative", i, s.Bytes)
		case math.IsNaN(s.Seconds) || math.IsInf(s.Seconds, 0) || s.Seconds < 0:
			return nil, fmt.Errorf("fit: sample %d (%d bytes): time %g must be a non-negative number of seconds", i, s.Bytes, s.Seconds)
		}
		xmax = max(xmax, s.Bytes)
		ymax = max(ymax, s.Seconds)
		if s.Seconds > 0 && (ypos == 0 || s.Seconds < ypos) {
			ypos = s.Seconds
		}
	}
	f := &fitData{xs: float64(max(xmax, 1)), ymax: ymax}
	if ymax == 0 {
		return f, nil
	}
	floor := ypos / ymax // the denominator of a sample measured at 0 s
	sorted := append([]Sample(nil), samples...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Bytes < sorted[j].Bytes })
	for _, s := range sorted {
		x, y := float64(s.Bytes)/f.xs, s.Seconds/ymax
		d := max(y, floor)
		w := 1 / (d * d)
		f.x, f.y, f.w = append(f.x, x), append(f.y, y), append(f.w, w)
		if len(f.groups) == 0 || f.groups[len(f.groups)-1].bytes != s.Bytes {
			f.groups = append(f.groups, fitGroup{bytes: s.Bytes, x: x})
		}
		f.groups[len(f.groups)-1].sums.add(x, y, w)
	}
	return f, nil
}

// curve turns a fit back into seconds and bytes. The first segment
// starts at 0 whatever the smallest size measured, every other one at
// its first measured size. The pass also removes what rounding may have
// left: a coefficient a hair below 0 becomes 0, and a step down of a few
// ulps is closed by raising the later segment's A.
func (f *fitData) curve(c fitCurveN) machine.Curve {
	k := len(c.cuts) - 1
	curve := make(machine.Curve, k)
	for s := range k {
		seg := machine.Segment{From: f.groups[c.cuts[s]].bytes, A: max(c.a[s], 0) * f.ymax, B: max(c.b[s], 0) * f.ymax / f.xs}
		if s == 0 {
			seg.From = 0
		}
		if s+1 < k {
			seg.To = f.groups[c.cuts[s+1]].bytes
		}
		if s > 0 {
			x := float64(seg.From)
			prev := curve[s-1].A + curve[s-1].B*x
			if at := seg.A + seg.B*x; at < prev {
				seg.A += prev - at
			}
		}
		curve[s] = seg
	}
	return curve
}

// segmentations returns, for K = 1 … kmax, the split of the groups into K
// segments of at least minPts groups each with the least total weighted
// squared error (segments fitted independently), as cut positions:
// segment s holds groups cuts[s] … cuts[s+1]-1. K = 1 is always there,
// whatever the number of groups.
func (f *fitData) segmentations(kmax, minPts int) [][]int {
	m := len(f.groups)
	out := [][]int{{0, m}}
	if kmax < 2 {
		return out
	}
	inf := math.Inf(1)
	// dp[k][j]: least error of groups 0 … j-1 in k segments; arg[k][j]:
	// where its last segment starts.
	dp := make([][]float64, kmax+1)
	arg := make([][]int, kmax+1)
	for k := range dp {
		dp[k] = make([]float64, m+1)
		arg[k] = make([]int, m+1)
		for j := range dp[k] {
			dp[k][j] = inf
		}
	}
	dp[0][0] = 0
	for j := minPts; j <= m; j++ {
		var acc fitSums
		for i := j - 1; i >= 0; i-- {
			acc.merge(f.groups[i].sums)
			if j-i < minPts {
				continue
			}
			_, _, c := fitLine(acc)
			for k := 1; k <= kmax; k++ {
				if v := dp[k-1][i] + c; v < dp[k][j] {
					dp[k][j], arg[k][j] = v, i
				}
			}
		}
	}
	for k := 2; k <= kmax; k++ {
		if math.IsInf(dp[k][m], 1) {
			continue
		}
		cuts := make([]int, k+1)
		cuts[k] = m
		for s, j := k, m; s > 0; s-- {
			j = arg[s][j]
			cuts[s-1] = j
		}
		out = append(out, cuts)
	}
	return out
}

// fitCurveN is a fitted curve in normalised units: segment s holds
// groups cuts[s] … cuts[s+1]-1 and is a[s] + b[s]·x; rss is the weighted
// squared error over all samples.
type fitCurveN struct {
	cuts []int
	a, b []float64
	rss  float64
}

// fitCuts fits one segment per range of groups, with no step down at a
// boundary.
func (f *fitData) fitCuts(cuts []int) fitCurveN {
	k := len(cuts) - 1
	c := fitCurveN{cuts: cuts, a: make([]float64, k), b: make([]float64, k)}
	sums := make([]fitSums, k)
	xb := make([]float64, k-1) // boundary s lies at the first size of segment s+1
	valid := true
	for s := range k {
		for _, g := range f.groups[cuts[s]:cuts[s+1]] {
			sums[s].merge(g.sums)
		}
		c.a[s], c.b[s], _ = fitLine(sums[s])
		if s > 0 {
			xb[s-1] = f.groups[cuts[s]].x
			x := xb[s-1]
			valid = valid && c.a[s]+c.b[s]*x >= c.a[s-1]+c.b[s-1]*x
		}
	}
	if !valid {
		repairSteps(sums, xb, c.a, c.b)
	}
	// The error over the samples themselves, not from the sums, so it
	// does not lose digits to cancellation when the fit is close.
	s := 0
	for i, x := range f.x {
		for s+1 < k && x >= f.groups[cuts[s+1]].x {
			s++
		}
		r := c.a[s] + c.b[s]*x - f.y[i]
		c.rss += f.w[i] * r * r
	}
	return c
}

// repairSteps refits segments whose independent fits step down at a
// boundary: the least-squares curve with a, b ≥ 0 and no step down at
// any boundary (see the comment at the top of fit.go), one quadratic
// program over all the coefficients. Boundary s lies at xb[s], between
// segments s and s+1. a and b hold the independent fits on entry and the
// repaired ones on return.
func repairSteps(sums []fitSums, xb []float64, a, b []float64) {
	k := len(sums)
	n := 2 * k // variables a0 b0 a1 b1 …
	h := make([][]float64, n)
	g := make([]float64, n)
	for i := range h {
		h[i] = make([]float64, n)
	}
	for s, sm := range sums {
		h[2*s][2*s], h[2*s][2*s+1], h[2*s+1][2*s], h[2*s+1][2*s+1] = sm.w, sm.wx, sm.wx, sm.wxx
		g[2*s], g[2*s+1] = sm.wy, sm.wxy
	}
	var ineq [][]float64
	for i := range n { // a_s ≥ 0, b_s ≥ 0
		row := make([]float64, n)
		row[i] = 1
		ineq = append(ineq, row)
	}
	for s, x := range xb { // a_{s+1} + b_{s+1}·x ≥ a_s + b_s·x
		row := make([]float64, n)
		row[2*s], row[2*s+1], row[2*s+2], row[2*s+3] = -1, -x, 1, x
		ineq = append(ineq, row)
	}
	theta, ok := qpSolve(h, g, ineq)
	if !ok {
		// Cannot happen (θ = 0 is feasible, so qpSolve has a candidate),
		// but never return a curve that steps down: one line through
		// everything.
		var all fitSums
		for _, s := range sums {
			all.merge(s)
		}
		l, m, _ := fitLine(all)
		for s := range k {
			a[s], b[s] = l, m
		}
		return
	}
	for s := range k {
		a[s], b[s] = max(theta[2*s], 0), max(theta[2*s+1], 0)
	}
}

// qpSolve minimises θᵀHθ − 2gᵀθ subject to C·θ ≥ 0 (the rows of ineq),
// for a small positive definite H: a handful of variables and
// constraints. It is an active-set enumeration: it tries subsets of the
// constraints as active (held with equality), smallest subsets first,
// solving each equality-constrained problem from its KKT system, and
// stops at the first solution that is feasible and whose multipliers say
// no active constraint pulls the wrong way. For a convex problem such a
// KKT point is the global optimum; the optimum is one (it solves the
// problem with a linearly independent subset of its active constraints
// as equalities), so the search is exact. Should rounding hide every KKT
// point, the feasible candidate with the least objective is returned,
// which after the full enumeration is the optimum too. The constraints
// are homogeneous, so θ = 0 is feasible and a solution exists. Variables
// are scaled so H has a unit diagonal and constraint rows to unit
// length, which makes the tolerances below scale-free. Usually the
// answer comes after a few dozen small solves (the independent fits
// with one or two constraints active).
func qpSolve(h [][]float64, g []float64, ineq [][]float64) ([]float64, bool) {
	n := len(g)
	d := make([]float64, n)
	for i := range d {
		d[i] = 1
		if h[i][i] > 0 {
			d[i] = 1 / math.Sqrt(h[i][i])
		}
	}
	hs := make([][]float64, n)
	gs := make([]float64, n)
	gmax := 0.0
	for i := range hs {
		hs[i] = make([]float64, n)
		for j := range hs[i] {
			hs[i][j] = d[i] * h[i][j] * d[j]
		}
		gs[i] = d[i] * g[i]
		gmax = max(gmax, math.Abs(gs[i]))
	}
	rows := make([][]float64, len(ineq))
	for k, row := range ineq {
		rows[k] = make([]float64, n)
		norm := 0.0
		for i, v := range row {
			rows[k][i] = v * d[i]
			norm += rows[k][i] * rows[k][i]
		}
		if norm = math.Sqrt(norm); norm > 0 {
			for i := range rows[k] {
				rows[k][i] /= norm
			}
		}
	}
	mtol := 1e-9 * (1 + gmax) // multiplier tolerance

	size := n + len(rows)
	kkt := make([][]float64, size)
	for i := range kkt {
		kkt[i] = make([]float64, size+1)
	}
	active := make([]int, 0, n)
	phi := make([]float64, n)
	var best []float64
	bestObj := math.Inf(1)
	full := uint(1)<<len(rows) - 1
	for p := 0; p <= min(n, len(rows)); p++ {
		// Every subset of p constraints, in Gosper's order.
		for mask := uint(1)<<p - 1; mask <= full; {
			active = active[:0]
			for k := range rows {
				if mask&(1<<k) != 0 {
					active = append(active, k)
				}
			}
			// [H Cᵀ; C 0] [φ; ν] = [g; 0]; then Hφ − g = −Cᵀν, and
			// the active constraints' multipliers are λ = −ν ≥ 0 at
			// the optimum.
			m := n + p
			for i := range m {
				clear(kkt[i][:m+1])
			}
			for i := range n {
				copy(kkt[i], hs[i])
				kkt[i][m] = gs[i]
			}
			for j, k := range active {
				for i, v := range rows[k] {
					kkt[n+j][i] = v
					kkt[i][n+j] = v
				}
			}
			if solveLinear(kkt[:m], m) {
				norm := 0.0
				for i := range n {
					phi[i] = kkt[i][m]
					norm += phi[i] * phi[i]
				}
				tol := 1e-9 * (1 + math.Sqrt(norm))
				feasible := true
				for _, row := range rows {
					v := 0.0
					for i, c := range row {
						v += c * phi[i]
					}
					if v < -tol {
						feasible = false
						break
					}
				}
				if feasible {
					kktOK := true
					for j := range active {
						kktOK = kktOK && kkt[n+j][m] <= mtol
					}
					obj := 0.0
					for i := range n {
						hp := 0.0
						for j := range n {
							hp += hs[i][j] * phi[j]
						}
						obj += phi[i]*hp - 2*gs[i]*phi[i]
					}
					if kktOK || obj < bestObj {
						bestObj = obj
						best = append(best[:0], phi...)
					}
					if kktOK {
						return qpUnscale(best, d), true
					}
				}
			}
			if mask == 0 {
				break
			}
			c := mask & -mask
			r := mask + c
			mask = (((r ^ mask) >> 2) / c) | r
		}
	}
	if best == nil {
		return nil, false
	}
	return qpUnscale(best, d), true
}

func qpUnscale(phi, d []float64) []float64 {
	for i := range phi {
		phi[i] *= d[i]
	}
	return phi
}

// solveLinear solves the m×m system whose augmented rows are a (column m
// holds the right-hand side) by Gaussian elimination with partial
// pivoting, leaving the solution in column m. It reports false for a
// (numerically) singular matrix. The matrices qpSolve builds have
// entries of order 1, so the pivot threshold is absolute.
func solveLinear(a [][]float64, m int) bool {
	for c := range m {
		p := c
		for r := c + 1; r < m; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-10 {
			return false
		}
		a[c], a[p] = a[p], a[c]
		for r := c + 1; r < m; r++ {
			if f := a[r][c] / a[c][c]; f != 0 {
				for j := c; j <= m; j++ {
					a[r][j] -= f * a[c][j]
				}
			}
		}
	}
	for c := m - 1; c >= 0; c-- {
		v := a[c][m]
		for j := c + 1; j < m; j++ {
			v -= a[c][j] * a[j][m]
		}
		a[c][m] = v / a[c][c]
	}
	return true
}
