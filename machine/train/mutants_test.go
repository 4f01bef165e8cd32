package train

import (
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
