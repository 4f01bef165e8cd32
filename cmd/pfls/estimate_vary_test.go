package main

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestEstimateVaryAgreesAtN: pfls estimate --vary N with N set shows the
// candidates ranked at that N and the crossovers in N; the layout the
// crossovers say is fastest at N is the ranking's first. On the kit's
// DGEFA (column BLOCK against CYCLIC, their difference the step-by-step
// broadcast schedule) the crossovers were priced with even shares, where
// that schedule is never reached and BLOCK and CYCLIC cost the same: no
// crossover, while the ranking at N = 64 put BLOCK first at P = 4 and 16.
func TestEstimateVaryAgreesAtN(t *testing.T) {
	type doc struct {
		Loops []struct {
			Candidates []struct {
				Distribution string
				Time         float64
			}
			Crossovers []struct {
				Value        int64
				Below, Above string
			}
		}
	}
	for _, p := range []int{4, 16} {
		throughout := "" // the fastest at every N where no crossover is found
		for _, n := range []int{64, 128, 256} {
			code, out, errOut := runCmd("estimate", "--json", "--procs", fmt.Sprint(p), "--vary", "N", "--set", fmt.Sprintf("N=%d", n),
				"../../validation/fortrand/dgefa.f")
			if code != 0 {
				t.Fatalf("P = %d, N = %d: exit %d: %s", p, n, code, errOut)
			}
			var d doc
			if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Loops) != 1 || len(d.Loops[0].Candidates) < 2 {
				t.Fatalf("P = %d, N = %d: %v\n%s", p, n, err, out)
			}
			l := d.Loops[0]
			first := l.Candidates[0]
			// The fastest at N by the crossovers: the Below of the first
			// crossover past N, else the Above of the last; with none,
			// the search found one fastest throughout, which must be
			// the ranking's first at every N (checked across the loop).
			sweep := ""
			for _, c := range l.Crossovers {
				if int64(n) < c.Value {
					sweep = c.Below
					break
				}
				sweep = c.Above
			}
			if sweep == "" {
				if throughout == "" {
					throughout = first.Distribution
				}
				sweep = throughout
			}
			tied := false
			for _, c := range l.Candidates {
				if c.Distribution == sweep && c.Time <= first.Time*(1+1e-9) {
					tied = true
				}
			}
			if !tied {
				t.Errorf("P = %d, N = %d: the crossovers %+v have %s fastest, the ranking %s (%g s)", p, n, l.Crossovers, sweep, first.Distribution, first.Time)
			}
		}
	}
}
