package partition

import (
	"math"
	"math/big"
	"slices"
	"sort"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
)

// CandidateFormats enumerates the distributions of a template of the given
// rank that the estimator compares: each dimension BLOCK, CYCLIC or ":"
// (not distributed), with one or two distributed dimensions.
func CandidateFormats(rank int) [][]string {
	var out [][]string
	var rec func(prefix []string, dist int)
	rec = func(prefix []string, dist int) {
		if len(prefix) == rank {
			if dist >= 1 {
				out = append(out, append([]string(nil), prefix...))
			}
			return
		}
		for _, f := range []string{":", "BLOCK", "CYCLIC"} {
			n := dist
			if f != ":" {
				n++
			}
			if n > 2 {
				continue
			}
			rec(append(prefix, f), n)
		}
	}
	rec(nil, 0)
	return out
}

// Candidates returns the current distribution of a unit and the candidate
// distributions of its main template (the current one among them): every
// format combination of CandidateFormats on the grid WithFormats gives it
// (the ONTO arrangement, else the even factorization), and each with two
// distributed dimensions also on the other grids of GridChoices (2x8 and
// 8x2 besides 4x4 at P = 16), named after their grid.
func Candidates(u *parser.Unit, procs int, fileDialect string) (current *Distribution, cands []*Distribution) {
	current = FromUnit(u, procs, fileDialect)
	if current.Template == "" {
		return current, nil
	}
	sym := u.Scope.Lookup(current.Template)
	rank := len(current.Formats)
	if sym != nil && sym.Rank() > 0 {
		rank = sym.Rank()
	}
	grids := GridChoices(procs)
	for _, fs := range CandidateFormats(rank) {
		d := WithFormats(u, procs, current.Template, fs, fileDialect)
		cands = append(cands, d)
		if len(d.Grid) != 2 {
			continue
		}
		for _, g := range grids {
			if !slices.Equal(g, d.Grid) {
				cands = append(cands, WithGrid(u, procs, current.Template, fs, g, fileDialect))
			}
		}
	}
	return current, cands
}

// squareGrids is how many of the squarest factorizations GridChoices
// keeps, each in both orientations.
const squareGrids = 2

// GridChoices are the two-dimensional processor grids a candidate with
// two distributed dimensions is tried on: factorizations a x b of procs
// with both a, b >= 2 (1 x P is the one-dimensional layout, a candidate
// of its own). They are bounded: P = 65,536 has 15, and each grid is one
// more estimate per format and per point of the crossover search. Kept
// are the two squarest pairs {a, b} (the least communication for a square
// array, and for one about four times longer one way) and the extreme
// pair {2, P/2} (an array much longer one way, or a sweep along one
// dimension: the fewest cuts across it), each both ways round: 3 grids
// at P = 16 (4x4, 2x8, 8x2), 5 at 1,024 and 65,536, never more than 6.
// Increasing a.
func GridChoices(procs int) [][]int {
	type pair struct{ a, b int } // a <= b
	var pairs []pair
	for a := 2; a*a <= procs; a++ {
		if procs%a == 0 {
			pairs = append(pairs, pair{a, procs / a})
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	// The squarest last; keep them and the first (the extreme).
	keep := map[pair]bool{pairs[0]: true}
	for _, p := range pairs[max(0, len(pairs)-squareGrids):] {
		keep[p] = true
	}
	var out [][]int
	for p := range keep {
		out = append(out, []int{p.a, p.b})
		if p.a != p.b {
			out = append(out, []int{p.b, p.a})
		}
	}
	slices.SortFunc(out, func(x, y []int) int { return x[0] - y[0] })
	return out
}

// WithGrid is WithFormats on a given processor grid: grid[i] processors
// along the i-th distributed dimension of the template, for the template
// and every array aligned with it.
func WithGrid(u *parser.Unit, procs int, template string, formats []string, grid []int, fileDialect string) *Distribution {
	d := WithFormats(u, procs, template, formats, fileDialect)
	if len(grid) != len(d.Grid) {
		return d
	}
	// The grid's processors by template dimension.
	along := make([]int, len(formats))
	gi := 0
	for i, f := range formats {
		along[i] = 1
		if f != ":" {
			along[i] = grid[gi]
			gi++
		}
	}
	for _, l := range d.Arrays {
		if l.Template != template {
			continue
		}
		for i := range l.Dims {
			if i < len(l.TemplateDim) && l.TemplateDim[i] >= 0 && l.TemplateDim[i] < len(along) && l.Dims[i].Kind != "*" {
				l.Dims[i].Procs = along[l.TemplateDim[i]]
			}
		}
	}
	d.Grid = append([]int(nil), grid...)
	return d
}

// formatsIn reports whether ds holds a distribution of d's formats (on
// any grid). The crossover search compares the fastest formats, each on
// its fastest grid: the grids of one format (4x4, 2x8, 8x2) are close,
// and would otherwise crowd out the layouts a crossover is about (seed
// 003's strips against blocks).
func formatsIn(ds []*Distribution, d *Distribution) bool {
	for _, x := range ds {
		if x.Template == d.Template && slices.Equal(x.Formats, d.Formats) {
			return true
		}
	}
	return false
}

// Ranked is an estimate with its distribution.
type Ranked struct {
	Dist *Distribution
	Est  *Estimate
}

// Rank estimates the loop under each candidate and sorts them fastest
// first; estimates that still depend on a symbol come last, in order.
func Rank(f *parser.File, u *parser.Unit, loop *parser.DoConstruct, cands []*Distribution, opt Options) []Ranked {
	out := make([]Ranked, 0, len(cands))
	for _, d := range cands {
		out = append(out, Ranked{d, EstimateLoop(f, u, loop, d, opt)})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, okA := complexity.Seconds(out[i].Est.Time)
		b, okB := complexity.Seconds(out[j].Est.Time)
		switch {
		case okA && okB:
			return a < b
		case okA:
			return true
		}
		return false
	})
	return out
}

// Crossover is a value of a symbol where the fastest distribution changes:
// Below is fastest just under Value, Above from Value on.
type Crossover struct {
	Symbol string
	Value  int64
	Below  string
	Above  string
}

// Crossovers scans symbol from lo to hi and reports where the fastest of
// the candidates changes, each point found exactly by bisection.
//
// Every point is priced as EstimateLoop prices it at that value (no
// Options.Even): the crossover must agree with the ranking shown at a
// given N. Even pricing also drops what makes some layouts differ at all:
// the busiest processor's share of a triangular loop and DGEFA's
// broadcasts scheduled step by step (bcastSchedule needs the shares
// recorded step by step, which even pricing skips), under which column
// BLOCK and CYCLIC cost exactly the same and no crossover was ever found.
//
// A crossover is still where one layout's message costs overtake the
// other's, not a load-imbalance step: where N is not a multiple of the
// processors along a dimension, the busiest processor's share rounds up,
// and two curves that rounding moves apart in turn would make the
// fastest flicker. So the scan samples the lattice of values congruent
// modulo the processor count (to the symbol's given value, else to lo):
// there every dimension's share rounds alike (every dimension's
// processors divide P), the curves are smooth, and the estimate at the
// given value is one of the points compared. Only between two adjacent
// lattice points with different winners is every value tried, for the
// exact first one where the fastest changes. Where the range holds too
// few lattice points (P comparable to N, where the rounding is the
// layout's real cost), every value is a point.
func Crossovers(f *parser.File, u *parser.Unit, loop *parser.DoConstruct, cands []*Distribution, symbol string, lo, hi int64, opt Options) []Crossover {
	// fastest names the candidates fastest at n: more than one when
	// their times agree to 1e-9 (at N <= P column BLOCK and CYCLIC are
	// the same layout, and a tie is no crossover).
	fastest := func(n int64) []string {
		o := opt
		o.Values = withValue(opt.Values, symbol, n)
		var names []string
		var times []float64
		bestT := math.Inf(1)
		for _, d := range cands {
			// The distribution depends on extents, which depend on the symbol.
			t, ok := complexity.Seconds(EstimateLoop(f, u, loop, d.at(u, f.Dialect), o).Time)
			if ok {
				names, times = append(names, d.Name()), append(times, t)
				bestT = min(bestT, t)
			}
		}
		var out []string
		for i, t := range times {
			if t <= bestT+1e-9*math.Abs(bestT) {
				out = append(out, names[i])
			}
		}
		return out
	}
	// shares reports whether two sets of fastest candidates meet: the
	// fastest has not changed from one to the other.
	shares := func(a, b []string) bool {
		for _, x := range a {
			if slices.Contains(b, x) {
				return true
			}
		}
		return false
	}
	step, base := crossoverLattice(cands, opt.Values[symbol], lo, hi)
	var out []Crossover
	prev := fastest(base)
	for n := base; n < hi; {
		// Geometric steps (an eighth of n) on the lattice.
		next := n + max(step, (n/8+step)/step*step)
		if next > hi {
			next = n + (hi-n)/step*step
			if next == n {
				break
			}
		}
		curs := fastest(next)
		if len(curs) > 0 && len(prev) > 0 && !shares(curs, prev) {
			// Bisect on the lattice in (n, next] for adjacent points
			// whose winners differ, then on every value between them
			// for the first where prev no longer wins.
			a, b := n, next
			for _, s := range []int64{step, 1} {
				for b-a > s {
					mid := a + (b-a)/s/2*s
					if shares(fastest(mid), prev) {
						a = mid
					} else {
						b = mid
					}
				}
			}
			above := fastest(b)
			if len(above) == 0 {
				above = curs
			}
			out = append(out, Crossover{Symbol: symbol, Value: b, Below: common(fastest(a), prev), Above: above[0]})
		}
		if len(curs) > 0 {
			prev = curs
		}
		n = next
	}
	return out
}

// common is the first of a that b holds too, else b's first.
func common(a, b []string) string {
	for _, x := range a {
		if slices.Contains(b, x) {
			return x
		}
	}
	return b[0]
}

// minLatticePoints is how many lattice points the crossover search needs
// in its range to sample the lattice instead of every value: 32, about
// as many as the geometric scan from 8 to 4096 visits.
const minLatticePoints = 32

// crossoverLattice is the step and the first point of the values the
// crossover search samples: the processor count (the largest of the
// candidates'), from the first value at or above lo congruent to the
// symbol's given value (else lo); step 1 from lo where fewer than
// minLatticePoints lattice points fit below hi.
func crossoverLattice(cands []*Distribution, given *big.Rat, lo, hi int64) (step, base int64) {
	p := int64(1)
	for _, d := range cands {
		p = max(p, int64(d.Procs))
	}
	if p <= 1 || (hi-lo)/p < minLatticePoints {
		return 1, lo
	}
	r := lo
	if given != nil && given.IsInt() && given.Num().IsInt64() {
		r = given.Num().Int64()
	}
	return p, lo + ((r-lo)%p+p)%p
}

func withValue(m map[string]*big.Rat, name string, v int64) map[string]*big.Rat {
	out := make(map[string]*big.Rat, len(m)+1)
	for k, x := range m {
		out[k] = x
	}
	out[name] = big.NewRat(v, 1)
	return out
}

// ExtentSymbol returns the symbol the extents of the main template depend
// on (N in G(0:N+1,0:N+1)), the default symbol to vary.
func ExtentSymbol(u *parser.Unit, d *Distribution) string {
	sym := u.Scope.Lookup(d.Template)
	if sym == nil {
		return ""
	}
	for _, ds := range sym.Dims {
		for _, x := range []parser.Expr{ds.Upper, ds.Lower} {
			name := ""
			parser.Inspect(x, func(n parser.Node) bool {
				if id, ok := n.(*parser.Ident); ok && name == "" {
					name = id.Name
				}
				return name == ""
			})
			if name != "" {
				return name
			}
		}
	}
	return ""
}

// at rebuilds a candidate for the unit's current extents (they depend on
// the symbols' values), with the same formats on the same grid.
func (d *Distribution) at(u *parser.Unit, dialect string) *Distribution {
	if len(d.Grid) >= 2 {
		return WithGrid(u, d.Procs, d.Template, d.Formats, d.Grid, dialect)
	}
	return WithFormats(u, d.Procs, d.Template, d.Formats, dialect)
}
