package partition

import (
	"math/big"
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
// distributions of its main template (the current one among them).
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
	for _, fs := range CandidateFormats(rank) {
		cands = append(cands, WithFormats(u, procs, current.Template, fs, fileDialect))
	}
	return current, cands
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
// the candidates changes, each point found exactly by bisection. Shares
// are priced evenly (Options.Even): a crossover is where one layout's
// message costs overtake the other's, not a load-imbalance step.
func Crossovers(f *parser.File, u *parser.Unit, loop *parser.DoConstruct, cands []*Distribution, symbol string, lo, hi int64, opt Options) []Crossover {
	best := func(n int64) string {
		o := opt
		o.Even = true
		o.Values = withValue(opt.Values, symbol, n)
		name, bestT := "", 0.0
		for _, d := range cands {
			// The distribution depends on extents, which depend on the symbol.
			dd := WithFormats(u, d.Procs, d.Template, d.Formats, f.Dialect)
			t, ok := complexity.Seconds(EstimateLoop(f, u, loop, dd, o).Time)
			if ok && (name == "" || t < bestT) {
				name, bestT = d.Name(), t
			}
		}
		return name
	}
	var out []Crossover
	prevN := lo
	prev := best(lo)
	for n := lo; n < hi; {
		next := n + n/8 + 1
		if next > hi {
			next = hi
		}
		cur := best(next)
		if cur != prev && cur != "" && prev != "" {
			// Bisect in (n, next] for the first value where cur wins.
			a, b := n, next
			for b-a > 1 {
				mid := (a + b) / 2
				if best(mid) == prev {
					a = mid
				} else {
					b = mid
				}
			}
			out = append(out, Crossover{Symbol: symbol, Value: b, Below: prev, Above: best(b)})
			prev = best(b)
			if prev != cur {
				prev = cur
			}
		}
		prevN = n
		n = next
		_ = prevN
	}
	return out
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
