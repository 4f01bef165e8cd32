package train

import (
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
)

// fitSizes are the message sizes of the tests: 0, the powers of two from
// 8 B to top, and dense points around the small-message step (192-640 B
// every 32 B) and the eager/rendezvous switch (2-8 KiB every 512 B), as
// the training set measures them.
func fitSizes(top int64) []int64 {
	sizes := []int64{0}
	for n := int64(8); n <= top; n *= 2 {
		sizes = append(sizes, n)
	}
	for n := int64(192); n <= 640; n += 32 {
		sizes = append(sizes, n)
	}
	for n := int64(2048); n <= 8192; n += 512 {
		sizes = append(sizes, n)
	}
	slices.Sort(sizes)
	return slices.Compact(sizes)
}

// fitOpenMPI is an Open-MPI-like shared-memory curve: a small step at
// 320 B and the eager/rendezvous switch at 4032 B.
func fitOpenMPI(bytes float64) float64 {
	switch {
	case bytes < 320:
		return 0.3e-6 + 0.5e-9*bytes
	case bytes < 4032:
		return 0.55e-6 + 0.43e-9*bytes
	}
	return 8e-6 + 0.2e-9*bytes
}

// fitSamples measures f at the sizes with uniform relative noise of ±amp
// from a fixed seed (amp = 0: exact).
func fitSamples(sizes []int64, f func(float64) float64, amp float64, seed int64) []Sample {
	rng := rand.New(rand.NewSource(seed))
	out := make([]Sample, len(sizes))
	for i, b := range sizes {
		out[i] = Sample{Bytes: b, Seconds: f(float64(b)) * (1 + amp*(2*rng.Float64()-1))}
	}
	return out
}

func fitLineOf(a, b float64) func(float64) float64 {
	return func(x float64) float64 { return a + b*x }
}

// checkFit asserts what every fit must satisfy: the curve validates,
// and the report agrees with the curve and with FitQuality.
func checkFit(t *testing.T, c machine.Curve, rep FitReport, samples []Sample) {
	t.Helper()
	if err := c.Validate(); err != nil {
		t.Fatalf("fitted curve does not validate: %v\n%+v", err, c)
	}
	if rep.Segments != len(c) || len(rep.Breaks) != len(c)-1 || len(rep.Steps) != len(c)-1 {
		t.Fatalf("report %+v does not match the curve's %d segments", rep, len(c))
	}
	for i, b := range rep.Breaks {
		st := rep.Steps[i]
		if c[i+1].From != b || st.Bytes != b {
			t.Errorf("break %d at %d B, segment starts at %d B, step at %d B", i, b, c[i+1].From, st.Bytes)
		}
		if st.After < st.Before*(1-1e-9) {
			t.Errorf("step %d goes down: %+v", i, st)
		}
		if want := c.Time(float64(b)); math.Abs(st.After-want) > 1e-12*want {
			t.Errorf("step %d: After = %g, curve gives %g", i, st.After, want)
		}
	}
	rms, mx := FitQuality(c, samples)
	if rms != rep.RMSRel || mx != rep.MaxRel {
		t.Errorf("report says rms %g max %g, FitQuality %g %g", rep.RMSRel, rep.MaxRel, rms, mx)
	}
	if rep.RMSRel > rep.MaxRel {
		t.Errorf("rms %g above max %g", rep.RMSRel, rep.MaxRel)
	}
}

func within(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)
}

func TestFitCurveLine(t *testing.T) {
	const a, b = 1e-6, 0.3e-9
	sizes := fitSizes(1 << 20)
	for _, tc := range []struct {
		name    string
		amp     float64
		tol     float64 // on A and B
		maxRMS  float64
		samples func() []Sample
	}{
		{"clean", 0, 0.01, 1e-9, nil},
		{"noise 20%", 0.2, 0.1, 0.15, nil},
		{"noise 30%", 0.3, 0.15, 0.22, nil},
		{"clean with duplicates", 0, 0.01, 1e-9, func() []Sample {
			s := fitSamples(sizes, fitLineOf(a, b), 0, 1)
			return append(s, s...)
		}},
		{"noise 20%, three passes per size", 0.2, 0.1, 0.15, func() []Sample {
			var s []Sample
			for seed := int64(1); seed <= 3; seed++ {
				s = append(s, fitSamples(sizes, fitLineOf(a, b), 0.2, seed)...)
			}
			return s
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			samples := fitSamples(sizes, fitLineOf(a, b), tc.amp, 1)
			if tc.samples != nil {
				samples = tc.samples()
			}
			c, rep, err := FitCurve(samples, FitOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkFit(t, c, rep, samples)
			if len(c) != 1 {
				t.Fatalf("%d segments, want 1: %+v", len(c), c)
			}
			if !within(c[0].A, a, tc.tol) || !within(c[0].B, b, tc.tol) {
				t.Errorf("A = %g, B = %g, want %g, %g within %g%%", c[0].A, c[0].B, a, b, 100*tc.tol)
			}
			if rep.RMSRel > tc.maxRMS {
				t.Errorf("RMSRel = %g, want at most %g", rep.RMSRel, tc.maxRMS)
			}
		})
	}
}

// TestFitCurveNoiseRarelyBreaks: over many noise draws around one line,
// the segment-count rule rarely takes noise for a step.
func TestFitCurveNoiseRarelyBreaks(t *testing.T) {
	sizes := fitSizes(1 << 20)
	const draws = 200
	extra := 0
	for seed := int64(1); seed <= draws; seed++ {
		samples := fitSamples(sizes, fitLineOf(1e-6, 0.3e-9), 0.2, seed)
		c, rep, err := FitCurve(samples, FitOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkFit(t, c, rep, samples)
		if len(c) > 1 {
			extra++
		}
	}
	if extra > draws/10 {
		t.Errorf("%d of %d noisy lines got more than one segment", extra, draws)
	}
	t.Logf("%d of %d noisy lines got more than one segment", extra, draws)
}

func TestFitCurveOpenMPI(t *testing.T) {
	sizes := fitSizes(1 << 20)
	// The sizes around the eager limit: the break must lie after the
	// last size below 4032 and at or before the first one above.
	below, above := int64(0), int64(0)
	for _, s := range sizes {
		if s < 4032 {
			below = s
		} else if above == 0 {
			above = s
		}
	}
	if below != 3584 || above != 4096 {
		t.Fatalf("sizes around 4032: %d %d", below, above)
	}
	for _, tc := range []struct {
		name   string
		amp    float64
		seed   int64
		maxRMS float64
		exact  bool // expect the three segments recovered within 1%
	}{
		{"clean", 0, 1, 1e-9, true},
		{"noise 10%", 0.1, 1, 0.07, false},
		{"noise 10% again", 0.1, 2, 0.07, false},
		{"noise 20%", 0.2, 3, 0.13, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			samples := fitSamples(sizes, fitOpenMPI, tc.amp, tc.seed)
			c, rep, err := FitCurve(samples, FitOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkFit(t, c, rep, samples)
			t.Logf("%+v", rep)
			found := false
			for _, st := range rep.Steps {
				if st.Bytes > below && st.Bytes <= above {
					found = true
					if r := st.After / st.Before; r < 3 || r > 5.5 {
						t.Errorf("step at %d B is x%.2f, want about x3.9", st.Bytes, r)
					}
				}
			}
			if !found {
				t.Errorf("no break in (%d, %d]: breaks %v", below, above, rep.Breaks)
			}
			if rep.RMSRel > tc.maxRMS {
				t.Errorf("RMSRel = %g, want at most %g", rep.RMSRel, tc.maxRMS)
			}
			if !tc.exact {
				return
			}
			want := machine.Curve{
				{From: 0, To: 320, A: 0.3e-6, B: 0.5e-9},
				{From: 320, To: 4096, A: 0.55e-6, B: 0.43e-9},
				{From: 4096, To: 0, A: 8e-6, B: 0.2e-9},
			}
			if len(c) != len(want) {
				t.Fatalf("got %+v, want %+v", c, want)
			}
			for i, w := range want {
				if c[i].From != w.From || c[i].To != w.To || !within(c[i].A, w.A, 0.01) || !within(c[i].B, w.B, 0.01) {
					t.Errorf("segment %d = %+v, want %+v", i, c[i], w)
				}
			}
		})
	}
}

// TestFitCurveStepsDown: data that really falls at a size, and data
// whose independent segment fits would step down, still give valid
// curves.
func TestFitCurveStepsDown(t *testing.T) {
	var fall []int64
	for x := int64(0); x < 1024; x += 64 {
		fall = append(fall, x)
	}
	for x := int64(1024); x <= 8192; x += 512 {
		fall = append(fall, x)
	}
	for _, tc := range []struct {
		name    string
		samples []Sample
	}{
		{"falls at 1 KiB", fitSamples(fall, func(x float64) float64 {
			if x < 1024 {
				return 1e-6 + 2e-9*x
			}
			return 1.2e-6 + 0.05e-9*x
		}, 0, 1)},
		{"falls at 1 KiB, noise 10%", fitSamples(fall, func(x float64) float64 {
			if x < 1024 {
				return 1e-6 + 2e-9*x
			}
			return 1.2e-6 + 0.05e-9*x
		}, 0.1, 1)},
		{"concave", fitSamples(fitSizes(4<<20), func(x float64) float64 { return 1e-6 * math.Sqrt(1+x/64) }, 0, 1)},
		{"concave, noise 10%", fitSamples(fitSizes(4<<20), func(x float64) float64 { return 1e-6 * math.Sqrt(1+x/64) }, 0.1, 5)},
		{"sawtooth", fitSamples(fitSizes(1<<20), func(x float64) float64 { return 1e-6 * (1 + math.Mod(math.Log2(1+x), 4)) }, 0, 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, rep, err := FitCurve(tc.samples, FitOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkFit(t, c, rep, tc.samples)
			t.Logf("%d segments, rms %.3f: %+v", len(c), rep.RMSRel, c)
		})
	}
}

// TestFitRepairIsOptimal forces a break where the independent fits step
// down and checks the repair: the curve validates, the two segments
// meet, and its error is no worse than either simple repair (raising the
// later segment's A, or one line through both).
func TestFitRepairIsOptimal(t *testing.T) {
	var sizes []int64
	for x := int64(0); x < 1024; x += 64 {
		sizes = append(sizes, x)
	}
	for x := int64(1024); x <= 8192; x += 512 {
		sizes = append(sizes, x)
	}
	for _, amp := range []float64{0, 0.1} {
		samples := fitSamples(sizes, func(x float64) float64 {
			if x < 1024 {
				return 1e-6 + 2e-9*x
			}
			return 1.2e-6 + 0.05e-9*x
		}, amp, 3)
		f, err := newFitData(samples)
		if err != nil {
			t.Fatal(err)
		}
		cut := slices.IndexFunc(f.groups, func(g fitGroup) bool { return g.bytes == 1024 })
		cuts := []int{0, cut, len(f.groups)}

		// The independent fits step down at 1 KiB.
		var s0, s1 fitSums
		for _, g := range f.groups[:cut] {
			s0.merge(g.sums)
		}
		for _, g := range f.groups[cut:] {
			s1.merge(g.sums)
		}
		a0, b0, r0 := fitLine(s0)
		a1, b1, r1 := fitLine(s1)
		xb := f.groups[cut].x
		if a1+b1*xb >= a0+b0*xb {
			t.Fatalf("amp %g: the independent fits do not step down", amp)
		}

		fit := f.fitCuts(cuts)
		c := f.curve(fit)
		if err := c.Validate(); err != nil {
			t.Fatalf("amp %g: repaired curve: %v", amp, err)
		}
		before, at := fit.a[0]+fit.b[0]*xb, fit.a[1]+fit.b[1]*xb
		if !within(at, before, 1e-6) {
			t.Errorf("amp %g: repaired segments do not meet at the break: %g, %g", amp, before, at)
		}
		raised := r0 + s1.rss(a1+(a0+b0*xb)-(a1+b1*xb), b1)
		all := s0
		all.merge(s1)
		_, _, merged := fitLine(all)
		if fit.rss > raised*(1+1e-9) || fit.rss > merged*(1+1e-9) {
			t.Errorf("amp %g: repaired error %g, raising A gives %g, merging %g", amp, fit.rss, raised, merged)
		}
		if fit.rss < r0+r1 {
			t.Errorf("amp %g: repaired error %g below the unconstrained %g", amp, fit.rss, r0+r1)
		}
		t.Logf("amp %g: unconstrained %.4g, repaired %.4g, raise A %.4g, merge %.4g", amp, r0+r1, fit.rss, raised, merged)
	}
}

// TestQPSolveSmall checks qpSolve against problems whose answer is known.
func TestQPSolveSmall(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    [][]float64
		g    []float64
		ineq [][]float64
		want []float64
	}{
		// minimise (x-1)² + (y+2)²: x = 1, y = 0 with y ≥ 0.
		{"bound", [][]float64{{1, 0}, {0, 1}}, []float64{1, -2}, [][]float64{{1, 0}, {0, 1}}, []float64{1, 0}},
		// minimise (x-2)² + (y-0)² with y ≥ x: x = y = 1.
		{"diagonal", [][]float64{{1, 0}, {0, 1}}, []float64{2, 0}, [][]float64{{-1, 1}}, []float64{1, 1}},
		// inside: nothing active.
		{"interior", [][]float64{{2, 1}, {1, 2}}, []float64{3, 3}, [][]float64{{1, 0}, {0, 1}}, []float64{1, 1}},
		// everything pulls below 0: the origin.
		{"origin", [][]float64{{1, 0}, {0, 1}}, []float64{-1, -1}, [][]float64{{1, 0}, {0, 1}, {-1, 1}}, []float64{0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := qpSolve(tc.h, tc.g, tc.ineq)
			if !ok {
				t.Fatal("no solution")
			}
			for i := range got {
				if math.Abs(got[i]-tc.want[i]) > 1e-9 {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestFitCurveNonNegative(t *testing.T) {
	sizes := fitSizes(64 << 10)
	t.Run("decreasing", func(t *testing.T) {
		samples := fitSamples(sizes, func(x float64) float64 { return 100e-6 - 1e-9*x }, 0, 1)
		c, rep, err := FitCurve(samples, FitOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkFit(t, c, rep, samples)
		for i, s := range c {
			if s.B != 0 {
				t.Errorf("segment %d: B = %g, want 0: %+v", i, s.B, c)
			}
		}
	})
	t.Run("negative intercept", func(t *testing.T) {
		var sizes []int64
		for x := int64(2048); x <= 16384; x += 1024 {
			sizes = append(sizes, x)
		}
		samples := fitSamples(sizes, func(x float64) float64 { return -1e-6 + 1e-9*x }, 0, 1)
		c, rep, err := FitCurve(samples, FitOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkFit(t, c, rep, samples)
		if c[0].A != 0 || c[0].B <= 0 {
			t.Errorf("want A = 0 and B > 0, got %+v", c)
		}
	})
}

func TestFitCurveErrors(t *testing.T) {
	good := Sample{Bytes: 8, Seconds: 1e-6}
	for _, tc := range []struct {
		name    string
		samples []Sample
		want    string
	}{
		{"none", nil, "no samples"},
		{"empty", []Sample{}, "no samples"},
		{"negative size", []Sample{good, {Bytes: -1, Seconds: 1e-6}}, "negative"},
		{"negative time", []Sample{good, {Bytes: 16, Seconds: -1e-6}}, "non-negative"},
		{"NaN", []Sample{good, {Bytes: 16, Seconds: math.NaN()}}, "non-negative"},
		{"+Inf", []Sample{{Bytes: 16, Seconds: math.Inf(1)}, good}, "non-negative"},
		{"-Inf", []Sample{{Bytes: 16, Seconds: math.Inf(-1)}}, "non-negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, err := FitCurve(tc.samples, FitOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one saying %q", err, tc.want)
			}
			if c != nil {
				t.Errorf("curve %+v returned with an error", c)
			}
		})
	}
}

func TestFitCurveEdgeCases(t *testing.T) {
	step := func(x float64) float64 {
		if x < 4096 {
			return 1e-6
		}
		return 5e-6
	}
	for _, tc := range []struct {
		name     string
		samples  []Sample
		opt      FitOptions
		segments int
		check    func(t *testing.T, c machine.Curve, rep FitReport)
	}{
		{"all zero", []Sample{{0, 0, 0}, {8, 0, 0}, {1024, 0, 0}}, FitOptions{}, 1, func(t *testing.T, c machine.Curve, rep FitReport) {
			if c[0] != (machine.Segment{}) || rep.RMSRel != 0 || rep.MaxRel != 0 {
				t.Errorf("want the zero curve with no error, got %+v %+v", c, rep)
			}
		}},
		{"one sample", []Sample{{100, 2e-6, 0}}, FitOptions{}, 1, func(t *testing.T, c machine.Curve, rep FitReport) {
			if c.Time(100) != 2e-6 || rep.MaxRel > 1e-12 {
				t.Errorf("got %+v %+v", c, rep)
			}
		}},
		{"one sample at 0 B", []Sample{{0, 2e-6, 0}}, FitOptions{}, 1, func(t *testing.T, c machine.Curve, rep FitReport) {
			if c[0].A != 2e-6 || c[0].B != 0 {
				t.Errorf("got %+v", c)
			}
		}},
		{"one size, several samples", []Sample{{64, 1e-6, 0}, {64, 2e-6, 0}, {64, 1.5e-6, 0}}, FitOptions{}, 1, func(t *testing.T, c machine.Curve, rep FitReport) {
			if c[0].B != 0 || c[0].A < 1e-6 || c[0].A > 2e-6 {
				t.Errorf("want a constant between the samples, got %+v", c)
			}
		}},
		{"zero time at 0 B", append([]Sample{{0, 0, 0}}, fitSamples([]int64{8, 64, 512, 4096, 32768}, fitLineOf(1e-6, 1e-10), 0, 1)...), FitOptions{}, 1, func(t *testing.T, c machine.Curve, rep FitReport) {
			if math.IsInf(rep.MaxRel, 0) || math.IsNaN(rep.RMSRel) {
				t.Errorf("error not finite: %+v", rep)
			}
		}},
		{"fewer sizes than 2·MinPoints", fitSamples([]int64{1024, 2048, 3072, 4096, 5120}, step, 0, 1), FitOptions{}, 1, nil},
		{"step, MinPoints 2", fitSamples([]int64{1024, 2048, 3072, 4096, 5120}, step, 0, 1), FitOptions{MinPoints: 2}, 2, func(t *testing.T, c machine.Curve, rep FitReport) {
			if !slices.Equal(rep.Breaks, []int64{4096}) {
				t.Errorf("breaks %v, want [4096]", rep.Breaks)
			}
		}},
		{"step, MinPoints 1 counts as 2", fitSamples([]int64{1024, 2048, 3072, 4096, 5120}, step, 0, 1), FitOptions{MinPoints: 1}, 2, nil},
		{"step near the end, MinPoints 3", fitSamples([]int64{0, 1024, 2048, 3072, 4096, 5120}, func(x float64) float64 {
			if x < 5000 {
				return 1e-6
			}
			return 5e-6
		}, 0, 1), FitOptions{}, 1, nil},
		{"MaxSegments 1", fitSamples(fitSizes(1<<20), fitOpenMPI, 0, 1), FitOptions{MaxSegments: 1}, 1, nil},
		{"MaxSegments 2", fitSamples(fitSizes(1<<20), fitOpenMPI, 0, 1), FitOptions{MaxSegments: 2}, 2, func(t *testing.T, c machine.Curve, rep FitReport) {
			if !slices.Equal(rep.Breaks, []int64{4096}) {
				t.Errorf("breaks %v, want the big step [4096]", rep.Breaks)
			}
		}},
		{"duplicates stay together", func() []Sample {
			s := fitSamples(fitSizes(64<<10), fitOpenMPI, 0.1, 1)
			return append(s, fitSamples(fitSizes(64<<10), fitOpenMPI, 0.1, 2)...)
		}(), FitOptions{}, 0, func(t *testing.T, c machine.Curve, rep FitReport) {
			sizes := fitSizes(64 << 10)
			for _, b := range rep.Breaks {
				if !slices.Contains(sizes, b) {
					t.Errorf("break at %d B, not a measured size", b)
				}
			}
			if !slices.Contains(rep.Breaks, 4096) {
				t.Errorf("breaks %v miss 4096", rep.Breaks)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, rep, err := FitCurve(tc.samples, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			checkFit(t, c, rep, tc.samples)
			if tc.segments > 0 && len(c) != tc.segments {
				t.Errorf("%d segments, want %d: %+v", len(c), tc.segments, c)
			}
			if tc.check != nil {
				tc.check(t, c, rep)
			}
		})
	}
}

// TestFitCurveOrderFree: the order of the samples does not matter, and
// the input is not changed.
func TestFitCurveOrderFree(t *testing.T) {
	samples := fitSamples(fitSizes(1<<20), fitOpenMPI, 0.1, 4)
	c1, rep1, err := FitCurve(samples, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	shuffled := slices.Clone(samples)
	rand.New(rand.NewSource(9)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	keep := slices.Clone(shuffled)
	c2, rep2, err := FitCurve(shuffled, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(shuffled, keep) {
		t.Error("FitCurve changed its input")
	}
	if len(c1) != len(c2) || !slices.Equal(rep1.Breaks, rep2.Breaks) {
		t.Fatalf("sorted %+v, shuffled %+v", c1, c2)
	}
	for i := range c1 {
		if !within(c2[i].A, c1[i].A, 1e-9) || !within(c2[i].B, c1[i].B, 1e-9) {
			t.Errorf("segment %d: sorted %+v, shuffled %+v", i, c1[i], c2[i])
		}
	}
}

func TestFitQuality(t *testing.T) {
	flat := machine.Curve{{From: 0, To: 0, A: 1e-6}}
	for _, tc := range []struct {
		name     string
		c        machine.Curve
		samples  []Sample
		rms, max float64
	}{
		{"exact", flat, []Sample{{0, 1e-6, 0}, {100, 1e-6, 0}}, 0, 0},
		{"half off", flat, []Sample{{0, 1e-6, 0}, {100, 2e-6, 0}}, math.Sqrt(0.125), 0.5},
		{"zero sample uses the smallest time", flat, []Sample{{0, 0, 0}, {100, 0.5e-6, 0}}, math.Sqrt((4 + 1) / 2.0), 2},
		{"all zero, zero curve", machine.Curve{{}}, []Sample{{0, 0, 0}}, 0, 0},
		{"all zero, curve above", flat, []Sample{{0, 0, 0}}, math.Inf(1), math.Inf(1)},
		{"no samples", flat, nil, 0, 0},
		{"segments", machine.Curve{{From: 0, To: 100, A: 1e-6}, {From: 100, To: 0, A: 2e-6, B: 1e-8}}, []Sample{{99, 1e-6, 0}, {100, 3e-6, 0}}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rms, mx := FitQuality(tc.c, tc.samples)
			same := func(a, b float64) bool { return a == b || math.Abs(a-b) < 1e-12 }
			if !same(rms, tc.rms) || !same(mx, tc.max) {
				t.Errorf("got %g, %g, want %g, %g", rms, mx, tc.rms, tc.max)
			}
		})
	}
}

// benchSamples are 100 samples: the Open-MPI-like curve with 20% noise
// at 100 distinct sizes from 0 to 4 MiB.
func benchSamples() []Sample {
	sizes := fitSizes(4 << 20)
	for n := int64(704); len(sizes) < 100; n += 64 {
		if !slices.Contains(sizes, n) {
			sizes = append(sizes, n)
		}
	}
	slices.Sort(sizes)
	return fitSamples(sizes, fitOpenMPI, 0.2, 1)
}

func TestBenchSamples(t *testing.T) {
	s := benchSamples()
	if len(s) != 100 {
		t.Fatalf("%d samples", len(s))
	}
	c, rep, err := FitCurve(s, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkFit(t, c, rep, s)
}

func BenchmarkFitCurve(b *testing.B) {
	samples := benchSamples()
	for b.Loop() {
		if _, _, err := FitCurve(samples, FitOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
