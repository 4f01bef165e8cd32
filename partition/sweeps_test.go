package partition

import (
	"math"
	"testing"

	"github.com/pfls/pfls/machine"
)

// TestSweepsEveryCandidate: a plot's sweeps hold one series per
// candidate (the legend shows them all, not a shortlist), each sampled
// over the whole range, and over a range of more than a decade the
// samples are spaced geometrically (even on the plot's log axis).
func TestSweepsEveryCandidate(t *testing.T) {
	src := `      PROGRAM JAC
      PARAMETER (N = 256)
      REAL A(N,N), B(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A, B WITH D
      DISTRIBUTE D(BLOCK,*)
      DO 10 J = 2, N-1
      DO 10 I = 2, N-1
         A(I,J) = (B(I-1,J) + B(I+1,J) + B(I,J-1) + B(I,J+1)) / 4
   10 CONTINUE
      END
`
	f, _ := parseOne(t, "jac.fd", src)
	rs, err := ReportsAt(f, 7, Options{Machine: machine.DefaultMachine(), Procs: 4}, ReportOptions{Vary: "N"})
	if err != nil || len(rs) != 1 {
		t.Fatal(rs, err)
	}
	r := rs[0]
	if len(r.Ranked) <= shortlistLen {
		t.Fatalf("%d candidates %v: the test wants more than the shortlist's %d", len(r.Ranked), r.Names(), shortlistLen)
	}
	sw := r.Sweeps(r.Hi)
	want := len(r.Ranked)
	if !containsDist(rankedDists(r), r.Current) {
		want++
	}
	if len(sw) != want {
		t.Fatalf("%d series, want one per candidate (%d: %v)", len(sw), want, r.Names())
	}
	seen := map[string]bool{}
	for _, s := range sw {
		seen[s.Name] = true
		if len(s.X) < 2 || s.X[0] != float64(r.Lo) || s.X[len(s.X)-1] != float64(r.Hi) {
			t.Errorf("%s sampled at %v, want %d to %d", s.Name, s.X, r.Lo, r.Hi)
		}
	}
	for _, n := range r.Names() {
		if !seen[n] {
			t.Errorf("candidate %s has no series", n)
		}
	}
	// Lo = 8, Hi = 4096: three decades, so the ratio of neighbours is
	// about the same everywhere (up to rounding to integers at small N)
	// and a decade holds about as many samples at the bottom as at the top.
	x := sw[0].X
	if r.Hi <= 10*r.Lo {
		t.Fatalf("range %d..%d spans less than a decade", r.Lo, r.Hi)
	}
	step := math.Pow(float64(r.Hi)/float64(r.Lo), 1.0/float64(sweepPoints-1))
	for i := 1; i < len(x); i++ {
		if x[i] <= x[i-1] {
			t.Fatalf("samples %v not increasing", x)
		}
		if x[i] > 100 && math.Abs(x[i]/x[i-1]-step) > 0.02 {
			t.Errorf("samples %g, %g: ratio %g, want %g (geometric)", x[i-1], x[i], x[i]/x[i-1], step)
		}
	}
	below := 0
	for _, v := range x {
		if v < 80 {
			below++
		}
	}
	if below < 15 {
		t.Errorf("%d of %d samples in the first decade (8 to 80), want about a third: %v", below, len(x), x)
	}
}

// TestSweepValuesNarrow: within a decade the samples are evenly spaced,
// from lo to hi.
func TestSweepValuesNarrow(t *testing.T) {
	x := sweepValues(100, 740)
	if x[0] != 100 || x[len(x)-1] != 740 {
		t.Fatalf("%v: want 100 to 740", x)
	}
	for i := 2; i < len(x)-1; i++ {
		if x[i]-x[i-1] != x[1]-x[0] {
			t.Fatalf("%v not evenly spaced", x)
		}
	}
	if len(x) > sweepPoints+1 {
		t.Errorf("%d samples, at most %d wanted", len(x), sweepPoints+1)
	}
}

func rankedDists(r *LoopReport) []*Distribution {
	var out []*Distribution
	for _, c := range r.Ranked {
		out = append(out, c.Dist)
	}
	return out
}
