package partition

import (
	"math/big"
	"testing"

	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// Tests of report.go written against the mutants that lived (issue 21,
// docs/mutation-partition.md).

// TestReportCrossoverRange: the crossover search runs from 8 to 4096,
// or to eight times the value given for the symbol when that is more
// (N = 1000: to 8000; N = 513: 4104; N = 512: 8 × 512 is 4096 itself),
// for values up to 2^40.
func TestReportCrossoverRange(t *testing.T) {
	f, u := parseExample(t, "redblack.f")
	loop := firstLoop(t, u, 13, f)
	for _, c := range []struct {
		n, hi int64
	}{
		{1000, 8000},
		{513, 4104},
		{512, 4096},
		{100, 4096},
		{1 << 40, 1 << 43},
		{1<<40 + 1, 4096},
	} {
		opt := Options{Machine: machine.DefaultMachine(), Procs: 16, Values: map[string]*big.Rat{"N": big.NewRat(c.n, 1)}}
		r, err := NewReport(f, parser.Loop{Unit: u, Do: loop}, opt, ReportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Symbol != "N" || r.Lo != 8 || r.Hi != c.hi {
			t.Errorf("N = %d: crossovers searched in %q from %d to %d, want N from 8 to %d", c.n, r.Symbol, r.Lo, r.Hi, c.hi)
		}
	}
}
