package train

import (
	"fmt"
	"math"
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
