package partition

import (
	"fmt"
	"math/big"
	"os"
	"slices"
	"testing"

	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// ncube2Like is a machine model of p processors with the simulated
// NCUBE/2's curves (the ncube2 preset, as TestDgefaScheduleLayouts
// gives them: a broadcast level of 90 µs + 0.535 µs a byte, 35 µs of
// send overhead, 2.4 Mflop/s nodes). No model trained on ncube2 ships
// with the repository; these are the curves the schedule was checked
// against.
func ncube2Like(p int) *machine.Machine {
	m := dgefaMachine(p, 90e-6, 0.535e-6, 35e-6)
	for op := range m.Ops {
		m.Ops[op] = 0
	}
	for _, op := range []string{"add", "sub", "mul", "compare"} {
		m.Ops[op] = 1 / 2.4e6
	}
	m.Ops["div"] = 4 / 2.4e6
	return m
}

// fixedWinners names the distributions EstimateLoop gives the least time
// at n, more than one when they tie to 1e-9 (at N <= P column BLOCK and
// CYCLIC are the same layout).
func fixedWinners(t *testing.T, f *parser.File, u *parser.Unit, loop *parser.DoConstruct, cands []*Distribution, symbol string, n int64, opt Options) []string {
	t.Helper()
	o := opt
	o.Values = map[string]*big.Rat{symbol: big.NewRat(n, 1)}
	var names []string
	var times []float64
	for _, d := range cands {
		names = append(names, d.Name())
		times = append(times, secs(t, EstimateLoop(f, u, loop, d.at(u, f.Dialect), o).Time))
	}
	least := slices.Min(times)
	var out []string
	for i, x := range times {
		if x <= least*(1+1e-9) {
			out = append(out, names[i])
		}
	}
	return out
}

// sweepWinner is the distribution the crossovers say is fastest at n:
// the Below of the first crossover past n, else the Above of the last.
func sweepWinner(cross []Crossover, n int64) string {
	for _, c := range cross {
		if n < c.Value {
			return c.Below
		}
	}
	return cross[len(cross)-1].Above
}

// TestCrossoversAgreeWithEstimate: the crossover search (pfls estimate
// --vary) and the estimate at a given N name the same fastest layout.
// DGEFA's column BLOCK and CYCLIC differ only where the busiest share of
// the triangular update and the step-by-step broadcast schedule price
// them (the owner of step K+1 is on the broadcast's path under CYCLIC;
// under BLOCK the owner keeps the next steps). The search priced every
// point with even shares, which records no shares step by step, so the
// schedule was never reached and the two layouts cost the same: no
// crossover at all, while the estimate at N = 64 had BLOCK faster. On
// each side of every crossover, at N = 64, 128 and 256, and where the
// fixed-N winners change (found by bisection with EstimateLoop), the
// two must agree; the change point within one lattice period (P: the
// search samples N congruent modulo P, then every value between the two
// lattice points).
//
// SMPI on the ncube2 preset has BLOCK faster at P = 4, N = 48 and
// CYCLIC at N = 128 (TestDgefaScheduleLayouts): the crossover lies
// between. examples/dgefa.f guards the factors and the update with IF
// (A(L,K) .NE. 0): the estimate does not schedule those broadcasts at
// any N, CYCLIC wins at every N, and no crossover is the agreement.
func TestCrossoversAgreeWithEstimate(t *testing.T) {
	kitSrc, err := os.ReadFile("../validation/fortrand/dgefa.f")
	if err != nil {
		t.Fatal(err)
	}
	exSrc, err := os.ReadFile("../examples/dgefa.f")
	if err != nil {
		t.Fatal(err)
	}
	type want struct{ lo, hi int64 } // a BLOCK-to-CYCLIC crossover in [lo, hi]
	for _, c := range []struct {
		file, symbol string
		src          []byte
		p            int
		ncube        bool
		cross        *want
	}{
		{"validation/fortrand/dgefa.f", "N", kitSrc, 4, false, nil},
		{"validation/fortrand/dgefa.f", "N", kitSrc, 16, false, nil},
		{"validation/fortrand/dgefa.f", "N", kitSrc, 4, true, &want{49, 127}},
		{"validation/fortrand/dgefa.f", "N", kitSrc, 16, true, &want{193, 4096}},
		{"examples/dgefa.f", "NMAX", exSrc, 16, false, nil},
		{"examples/dgefa.f", "NMAX", exSrc, 16, true, nil},
	} {
		name := fmt.Sprintf("%s P=%d default", c.file, c.p)
		m := machine.DefaultMachine()
		if c.ncube {
			name, m = fmt.Sprintf("%s P=%d ncube2", c.file, c.p), ncube2Like(c.p)
		}
		t.Run(name, func(t *testing.T) {
			f := parser.Parse("dgefa.f", c.src, nil)
			u := f.Units[0]
			var loop *parser.DoConstruct
			for _, s := range u.Body {
				if d, ok := s.(*parser.DoConstruct); ok && loop == nil {
					loop = d
				}
			}
			opt := Options{Machine: m, Procs: c.p}
			cands := []*Distribution{
				WithFormats(u, c.p, "D", []string{":", "CYCLIC"}, f.Dialect),
				WithFormats(u, c.p, "D", []string{":", "BLOCK"}, f.Dialect),
			}
			cross := Crossovers(f, u, loop, cands, c.symbol, 8, 4096, opt)
			at := func(n int64) []string { return fixedWinners(t, f, u, loop, cands, c.symbol, n, opt) }
			for _, x := range cross {
				if below, above := at(x.Value-1), at(x.Value); !slices.Contains(below, x.Below) || !slices.Contains(above, x.Above) {
					t.Errorf("crossover %+v: the estimate has %v fastest at %d and %v at %d", x, below, x.Value-1, above, x.Value)
				}
			}
			samples := []int64{64, 128, 256}
			for i, n := range samples {
				w := at(n)
				if len(cross) > 0 && !slices.Contains(w, sweepWinner(cross, n)) {
					t.Errorf("N = %d: the sweep (%+v) has %s fastest, the estimate %v", n, cross, sweepWinner(cross, n), w)
				}
				if i == 0 {
					continue
				}
				lo, hi := samples[i-1], n
				if slices.Contains(w, at(lo)[0]) {
					continue
				}
				// Bisect with EstimateLoop for where the fastest at lo
				// stops winning.
				first := at(lo)[0]
				for hi-lo > 1 {
					mid := (lo + hi) / 2
					if slices.Contains(at(mid), first) {
						lo = mid
					} else {
						hi = mid
					}
				}
				found := false
				for _, x := range cross {
					if x.Value >= hi-int64(c.p) && x.Value <= hi+int64(c.p) {
						found = true
					}
				}
				if !found {
					t.Errorf("the estimate's fastest changes from %s at N = %d; the sweep's crossovers are %+v", first, hi, cross)
				}
			}
			if c.cross != nil {
				found := false
				for _, x := range cross {
					if x.Below == "D(:,BLOCK)" && x.Above == "D(:,CYCLIC)" && x.Value >= c.cross.lo && x.Value <= c.cross.hi {
						found = true
					}
				}
				if !found {
					t.Errorf("crossovers %+v: want BLOCK below and CYCLIC above, between N = %d and %d", cross, c.cross.lo, c.cross.hi)
				}
			}
			if len(cross) == 0 {
				if w := at(samples[0]); !slices.Contains(at(samples[1]), w[0]) || !slices.Contains(at(samples[2]), w[0]) {
					t.Errorf("no crossover, but the estimate's fastest is %v, %v, %v at N = 64, 128, 256", w, at(samples[1]), at(samples[2]))
				}
			}
		})
	}
}

// TestCrossoverLattice: the search samples N congruent modulo P to the
// given value (so the estimate at that value is one of the points), every
// value when the range holds fewer than minLatticePoints lattice points.
func TestCrossoverLattice(t *testing.T) {
	d := func(p int) []*Distribution { return []*Distribution{{Procs: p}} }
	for _, c := range []struct {
		p          int
		given      *big.Rat
		lo, hi     int64
		step, base int64
	}{
		{16, nil, 8, 4096, 16, 8},
		{16, big.NewRat(100, 1), 8, 4096, 16, 20},
		{16, big.NewRat(3, 1), 8, 4096, 16, 19},
		{16, big.NewRat(7, 2), 8, 4096, 16, 8}, // not an integer: from lo
		{1024, nil, 8, 4096, 1, 8},
		{1, nil, 8, 4096, 1, 8},
	} {
		step, base := crossoverLattice(d(c.p), c.given, c.lo, c.hi)
		if step != c.step || base != c.base {
			t.Errorf("P = %d, given %v: step %d from %d, want %d from %d", c.p, c.given, step, base, c.step, c.base)
		}
	}
}
