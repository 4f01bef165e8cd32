package train

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
)

// Tests written against the mutants gremlins found alive (issue 21,
// scripts/mutation.sh).

// TestFitTwoSegmentsOfMinPoints: six distinct sizes are enough for two
// segments of three (MinPoints' default): exact times of 1 µs up to 32 B
// and 3 µs from 1 KiB on give the two constant segments with the break
// at 1024 B, a step from 1 µs to 3 µs.
func TestFitTwoSegmentsOfMinPoints(t *testing.T) {
	var samples []Sample
	for _, b := range []int64{8, 16, 32} {
		samples = append(samples, Sample{Bytes: b, Seconds: 1e-6})
	}
	for _, b := range []int64{1024, 2048, 4096} {
		samples = append(samples, Sample{Bytes: b, Seconds: 3e-6})
	}
	c, rep, err := FitCurve(samples, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c) != 2 || len(rep.Breaks) != 1 || rep.Breaks[0] != 1024 {
		t.Fatalf("curve %+v, breaks %v: want two segments, the second from 1024 B", c, rep.Breaks)
	}
	st := rep.Steps[0]
	if !within(st.Before, 1e-6, 1e-6) || !within(st.After, 3e-6, 1e-6) || rep.MaxRel > 1e-6 {
		t.Errorf("step %+v, worst error %g: want 1 µs to 3 µs, exact", st, rep.MaxRel)
	}
}

// TestFitStepBelowTheNoiseFloor: a step of 0.05% (half the noise floor
// ε = 0.1% under which no timing reproduces) is no step: one segment.
// Without the floor the BIC would take it for one, so this pins the
// floor's place in the rule (the relative mean square RSS/n against ε²).
func TestFitStepBelowTheNoiseFloor(t *testing.T) {
	var samples []Sample
	for i := 0; i < 42; i++ {
		b := int64(8) << (i / 2) // 8 B to 8 MiB, two sizes per power of two
		if i%2 == 1 {
			b += b / 2
		}
		s := 1e-6 + 1e-10*float64(b)
		if i >= 21 {
			s *= 1.0005
		}
		samples = append(samples, Sample{Bytes: b, Seconds: s})
	}
	c, _, err := FitCurve(samples, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c) != 1 {
		t.Errorf("a 0.05%% step gave %d segments: %+v", len(c), c)
	}
}

// TestFitQualityZeroSample: a sample measured at 0 s is divided by the
// smallest positive time (1 µs), not another: the constant curve at 1 µs
// is off by 1 (100%) there, exact at 1 µs and off by 0.75 at 4 µs.
func TestFitQualityZeroSample(t *testing.T) {
	samples := []Sample{{Bytes: 0, Seconds: 0}, {Bytes: 8, Seconds: 4e-6}, {Bytes: 16, Seconds: 1e-6}}
	rms, worst := FitQuality(machine.Curve{{From: 0, To: 0, A: 1e-6}}, samples)
	if math.Abs(worst-1) > 1e-12 || math.Abs(rms-math.Sqrt((1+0.5625)/3)) > 1e-12 {
		t.Errorf("rms %g, worst %g; want %g, 1", rms, worst, math.Sqrt((1+0.5625)/3))
	}
}

// TestFitFallingTimesGiveAConstant: times that fall with the size (2,
// 1.5 and 1 µs at 8, 16 and 32 B) have a best line with a negative
// slope, which a curve may not have; of the lines with A, B ≥ 0 the best
// is then the constant minimising Σ((A − t)/t)², A = Σ(1/t) / Σ(1/t²) =
// (1/2 + 1/1.5 + 1) / (1/4 + 1/2.25 + 1) µs = 1.2787 µs (the best line
// through the origin errs five times as much).
func TestFitFallingTimesGiveAConstant(t *testing.T) {
	samples := []Sample{{Bytes: 8, Seconds: 2e-6}, {Bytes: 16, Seconds: 1.5e-6}, {Bytes: 32, Seconds: 1e-6}}
	c, _, err := FitCurve(samples, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := (1/2.0 + 1/1.5 + 1) / (1/4.0 + 1/2.25 + 1) * 1e-6
	if len(c) != 1 || c[0].B != 0 || !within(c[0].A, want, 1e-9) {
		t.Errorf("curve %+v, want the constant %g", c, want)
	}
}

// TestFitZeroTimeAnywhere: a sample measured at 0 s counts like the
// fastest real measurement wherever it stands among the samples: the
// fit is the same, and finite, with it first or last.
func TestFitZeroTimeAnywhere(t *testing.T) {
	line := []Sample{{Bytes: 8, Seconds: 1e-6}, {Bytes: 64, Seconds: 1.1e-6}, {Bytes: 512, Seconds: 1.5e-6}, {Bytes: 4096, Seconds: 4e-6}}
	zero := Sample{Bytes: 0, Seconds: 0}
	first, _, err1 := FitCurve(append([]Sample{zero}, line...), FitOptions{})
	last, rep, err2 := FitCurve(append(append([]Sample(nil), line...), zero), FitOptions{})
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if fmt.Sprint(first) != fmt.Sprint(last) || math.IsNaN(rep.RMSRel) || math.IsInf(rep.MaxRel, 0) {
		t.Errorf("zero sample first: %+v; last: %+v (%+v)", first, last, rep)
	}
	for _, s := range first {
		if math.IsNaN(s.A) || math.IsNaN(s.B) || math.IsInf(s.A, 0) || math.IsInf(s.B, 0) {
			t.Errorf("curve %+v", first)
		}
	}
}

// TestFitConcaveMeetsAtEveryBreak: a noise-free concave time (1 µs ·
// √(1 + bytes/64)) makes every independent fit step down at its break;
// the repaired curve meets at each one (up to rounding, which the
// conversion back to seconds closes by raising the later segment by the
// few ulps it lacks, never more).
func TestFitConcaveMeetsAtEveryBreak(t *testing.T) {
	samples := fitSamples(fitSizes(4<<20), func(x float64) float64 { return 1e-6 * math.Sqrt(1+x/64) }, 0, 1)
	c, rep, err := FitCurve(samples, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Steps) == 0 {
		t.Fatalf("one segment for a concave curve: %+v", c)
	}
	for _, st := range rep.Steps {
		if math.Abs(st.After/st.Before-1) > 1e-12 {
			t.Errorf("step at %d B from %g to %g: the segments do not meet", st.Bytes, st.Before, st.After)
		}
	}
	if rep.RMSRel > 0.1 {
		t.Errorf("rms %g", rep.RMSRel)
	}
}

// TestFitZeroTimeWeighsLikeTheFastest: at one size, a sample measured at
// 0 s among three at 1 µs weighs as they do (its denominator is the
// smallest positive time, 1 µs): the best constant is their plain mean,
// 0.75 µs.
func TestFitZeroTimeWeighsLikeTheFastest(t *testing.T) {
	samples := []Sample{{Bytes: 0, Seconds: 0}, {Bytes: 0, Seconds: 1e-6}, {Bytes: 0, Seconds: 1e-6}, {Bytes: 0, Seconds: 1e-6}}
	c, _, err := FitCurve(samples, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c) != 1 || c[0].B != 0 || !within(c[0].A, 0.75e-6, 1e-12) {
		t.Errorf("curve %+v, want the constant 0.75 µs", c)
	}
}

// TestQPSolveAgainstProjectedGradient: random convex problems over the
// non-negative orthant (θ ≥ 0, the constraints of a curve's A and B),
// in four variables, so that the optimum often holds two or more
// constraints active, solved a second way: projected gradient descent
// (step 1/L, L the largest eigenvalue's bound, clipped at 0), which
// converges to the same optimum. The objectives agree.
func TestQPSolveAgainstProjectedGradient(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	const n = 4
	obj := func(h [][]float64, g, x []float64) float64 {
		v := 0.0
		for i := range n {
			for j := range n {
				v += x[i] * h[i][j] * x[j]
			}
			v -= 2 * g[i] * x[i]
		}
		return v
	}
	multiActive := 0
	for trial := 0; trial < 100; trial++ {
		// H = AᵀA + 0.1·I is positive definite.
		var a [n][n]float64
		for i := range n {
			for j := range n {
				a[i][j] = rng.Float64()*2 - 1
			}
		}
		h := make([][]float64, n)
		lmax := 0.0
		for i := range n {
			h[i] = make([]float64, n)
			for j := range n {
				for k := range n {
					h[i][j] += a[k][i] * a[k][j]
				}
			}
			h[i][i] += 0.1
		}
		for i := range n { // Gershgorin bound on the largest eigenvalue
			r := 0.0
			for j := range n {
				r += math.Abs(h[i][j])
			}
			lmax = max(lmax, r)
		}
		g := make([]float64, n)
		for i := range g {
			g[i] = rng.Float64()*2 - 1
		}
		ineq := make([][]float64, n)
		for i := range ineq {
			ineq[i] = make([]float64, n)
			ineq[i][i] = 1
		}
		got, ok := qpSolve(h, g, ineq)
		if !ok {
			t.Fatalf("trial %d: no solution", trial)
		}
		x := make([]float64, n)
		for it := 0; it < 20000; it++ {
			for i := range n {
				grad := -2 * g[i]
				for j := range n {
					grad += 2 * h[i][j] * x[j]
				}
				x[i] = max(0, x[i]-grad/(2*lmax))
			}
		}
		zeros := 0
		for i := range n {
			if x[i] == 0 {
				zeros++
			}
			if got[i] < -1e-9 {
				t.Errorf("trial %d: θ = %v is not ≥ 0", trial, got)
			}
		}
		if zeros >= 2 {
			multiActive++
		}
		if o1, o2 := obj(h, g, got), obj(h, g, x); o1 > o2+1e-9*(1+math.Abs(o2)) {
			t.Errorf("trial %d: qpSolve's objective %g, projected gradient's %g (θ %v vs %v)", trial, o1, o2, got, x)
		}
	}
	if multiActive < 10 {
		t.Errorf("only %d of 100 problems had two or more active constraints", multiActive)
	}
}

// TestParseTrainingEdges: a run on one processor, a progress line of
// just its two counts, a time measured as 0 s (below the timer's
// resolution: a non-negative number) and a line of 100 KB (the MPI
// library's banner; lines up to 1 MiB are read) are all valid output.
func TestParseTrainingEdges(t *testing.T) {
	banner := strings.Repeat("x", 100*1024)
	in := "pfls-train 1\nprocs 1\nmpi " + banner + "\nprogress 0 1\nkernel copy 16 1e-9\ncomm vector-shift 8 0 0 0 3\ndone\n"
	var progress []TrainingProgress
	run, err := ParseTraining(strings.NewReader(in), "x", func(p TrainingProgress) { progress = append(progress, p) })
	if err != nil {
		t.Fatal(err)
	}
	if run.Procs != 1 || run.MPI != banner || len(progress) != 1 || !run.Done {
		t.Errorf("procs %d, mpi of %d bytes, progress %v, done %v", run.Procs, len(run.MPI), progress, run.Done)
	}
	if s := run.Comm["vector-shift"]; len(s) != 1 || s[0].Bytes != 8 || s[0].Seconds != 0 {
		t.Errorf("vector-shift samples %+v", s)
	}
}

// TestBuildMachineByHand: the operation and memory times BuildMachine
// derives from kernel times, worked by hand. The operations come from the
// run with the fewest processors (P = 1, listed second). One reference
// costs half the faster of the copy (1 ns) and the add kernel (0.8 ns):
// 0.4 ns. Memory levels scale it by the copy kernel's slowdown: 0.4, 0.8,
// 1.6 ns. add (3 references, 1.2 ns, more than its 0.8 ns kernel) is
// hidden: 0.01 ns; mul, 2 ns, leaves 0.8 ns; div is long-latency and
// outlasts its references: its whole 5 ns; call (2 references, 0.8 ns)
// takes exactly as long as its references, so they hide it: 0.01 ns. A
// strided load is half the strided copy, 1 ns; a reused reference is
// (2.4 − 2 × 0.4)/4 = 0.4 ns after the five-point stencil, (4 − 2 ×
// 1)/4 = 0.5 ns strided after the red-black kernel. The trip counts lie
// on 10 ns + 5 ns·trips: loop 10 ns, iteration 5 − 3 × 0.4 − 0.01 =
// 3.79 ns. The noise is the median spread, to three decimals: 0.123.
func TestBuildMachineByHand(t *testing.T) {
	line := func(spread float64) []Sample {
		var s []Sample
		for _, b := range []int64{8, 64, 512, 4096} {
			s = append(s, Sample{Bytes: b, Seconds: 1e-6 + 1e-9*float64(b), Spread: spread})
		}
		return s
	}
	p2 := &TrainingRun{Procs: 2, Done: true,
		Kernels: map[string]map[int64]float64{"copy": {16384: 3e-9}, "add": {16384: 3e-9}},
		Comm:    map[string][]Sample{"vector-shift": line(0.1234), "broadcast": line(0.1234)}}
	p1 := &TrainingRun{Procs: 1, Done: true,
		Kernels: map[string]map[int64]float64{
			"copy": {16384: 1e-9, 1 << 20: 2e-9, 1 << 26: 4e-9}, "add": {16384: 0.8e-9}, "mul": {16384: 2e-9},
			"div": {16384: 5e-9}, "call": {16384: 0.8e-9}, "copy.strided": {16384: 2e-9},
			"stencil5": {16384: 2.4e-9}, "redblack": {16384: 4e-9}},
		Trips: [][2]float64{{1, 15e-9}, {2, 20e-9}, {4, 30e-9}}}
	m, _, err := BuildMachine([]*TrainingRun{p2, p1}, machine.Provenance{Source: "pfls train"}, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for op, want := range map[string]float64{
		"load": 0.4e-9, "store": 0.4e-9, "add": 1e-11, "sub": 1e-11, "mul": 0.8e-9, "div": 5e-9, "call": 1e-11,
		"load.strided": 1e-9, "load.reuse": 0.4e-9, "load.reuse.strided": 0.5e-9, "loop": 10e-9, "iteration": 3.79e-9,
	} {
		if got := m.Ops[op]; !within(got, want, 1e-9) {
			t.Errorf("%s = %g, want %g", op, got, want)
		}
	}
	for i, want := range []float64{0.4e-9, 0.8e-9, 1.6e-9} {
		if i >= len(m.Memory) || !within(m.Memory[i].Load, want, 1e-9) || m.Memory[i].Store != m.Memory[i].Load {
			t.Errorf("memory levels %+v, want loads 0.4, 0.8, 1.6 ns", m.Memory)
			break
		}
	}
	if m.Noise != 0.123 {
		t.Errorf("noise %g, want 0.123", m.Noise)
	}
}

// TestParseTrainingSpread: a comm line's spread is (max − min)/median,
// (4 − 1)/2 = 1.5; a median of 0 s has spread 0; a progress line may
// count the last of its measurements (done = total).
func TestParseTrainingSpread(t *testing.T) {
	in := "pfls-train 1\nprocs 2\nprogress 3 3\nkernel copy 16 1e-9\ncomm vector-shift 8 2e-6 1e-6 4e-6 3\ncomm vector-shift 16 0 0 0 3\ndone\n"
	run, err := ParseTraining(strings.NewReader(in), "x", nil)
	if err != nil {
		t.Fatal(err)
	}
	s := run.Comm["vector-shift"]
	if len(s) != 2 || s[0].Spread != 1.5 || s[1].Spread != 0 {
		t.Errorf("samples %+v, want spreads 1.5 and 0", s)
	}
}

// TestBuildMachineCopyFaster: when the copy kernel is the faster of the
// two (1 ns against 3 ns), a reference costs half of it: 0.5 ns.
func TestBuildMachineCopyFaster(t *testing.T) {
	run := &TrainingRun{Procs: 1, Done: true, Kernels: map[string]map[int64]float64{"copy": {16384: 1e-9}, "add": {16384: 3e-9}}}
	m, _, err := BuildMachine([]*TrainingRun{run}, machine.Provenance{Source: "pfls train"}, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Ops["load"]; !within(got, 0.5e-9, 1e-12) {
		t.Errorf("load = %g, want 5e-10", got)
	}
}

// TestBuildMachineZeroCopyTime: a copy kernel timed at 0 s (below the
// timer's resolution, which the training output allows) gives references
// and memory levels of 0 s, not a division by zero.
func TestBuildMachineZeroCopyTime(t *testing.T) {
	run := &TrainingRun{Procs: 1, Done: true, Kernels: map[string]map[int64]float64{"copy": {16384: 0, 1 << 20: 1e-9}}}
	m, _, err := BuildMachine([]*TrainingRun{run}, machine.Provenance{Source: "pfls train"}, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Ops["load"] != 0 || len(m.Memory) != 2 || m.Memory[0].Load != 0 || m.Memory[1].Load != 0 {
		t.Errorf("load %g, memory %+v", m.Ops["load"], m.Memory)
	}
}
