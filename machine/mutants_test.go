package machine

import (
	"math"
	"testing"
)

// Tests written against the mutants gremlins found alive or uncovered
// (issue 21, scripts/mutation.sh).

// TestVectorShiftPatterns: the shifts of a whole vector are the
// circular, the open and the strided open shift; the one-element shift,
// the exchange and the collectives are not.
func TestVectorShiftPatterns(t *testing.T) {
	want := map[string]bool{
		PatternVectorShift: true, PatternOpenShift: true, PatternOpenShiftStrided: true,
		PatternElementShift: false, PatternExchange: false, PatternHalo2: false, PatternHalo4: false,
		PatternBroadcast: false, PatternReductionBroadcast: false, PatternAllToAll: false,
	}
	for _, p := range TrainingPatterns {
		if got := VectorShift(p); got != want[p] {
			t.Errorf("VectorShift(%q) = %v", p, got)
		}
	}
}

// TestAboutTheSame: two times are about the same when they differ by
// less than the noise times the smaller one: with 10% noise, 1.0 and
// 1.09 are, 1.0 and 1.1 (a difference of exactly 10%) are not; without
// noise, or with a time that is not positive, nothing is.
func TestAboutTheSame(t *testing.T) {
	m := &Machine{Noise: 0.1}
	for _, c := range []struct {
		a, b float64
		want bool
	}{
		{1, 1.09, true}, {1.09, 1, true}, {1, 1, true}, {1, 1.25, false}, {1.25, 1, false},
		{0.5, 0.55, false}, {0.5, 0.549, true}, {0, 0, false}, {-1, -1, false}, {1, 0, false}, {0, 1e-12, false},
	} {
		if got := m.AboutTheSame(c.a, c.b); got != c.want {
			t.Errorf("noise 0.1: AboutTheSame(%g, %g) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	// A difference of exactly the noise (in binary: 0.5 of 1) is not
	// less than it.
	if (&Machine{Noise: 0.5}).AboutTheSame(1, 1.5) || !(&Machine{Noise: 0.5}).AboutTheSame(1, 1.4375) {
		t.Error("noise 0.5: the boundary at 1.5 is not where it is")
	}
	for _, noise := range []float64{0, -0.1} {
		if (&Machine{Noise: noise}).AboutTheSame(1, 1) {
			t.Errorf("noise %g: 1 and 1 about the same", noise)
		}
	}
}

// TestMedian: the middle value of an odd count, the mean of the two
// middle ones of an even count, whatever the order, leaving v alone.
func TestMedian(t *testing.T) {
	for _, c := range []struct {
		v    []float64
		want float64
	}{
		{nil, 0}, {[]float64{7}, 7}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{10, 1}, 5.5}, {[]float64{5, 5, 1, 9, 9}, 5},
	} {
		in := append([]float64(nil), c.v...)
		if got := Median(in); got != c.want {
			t.Errorf("Median(%v) = %g, want %g", c.v, got, c.want)
		}
		for i := range in {
			if in[i] != c.v[i] {
				t.Errorf("Median changed its input: %v", in)
			}
		}
	}
	if got := Median([]float64{math.Inf(1), 1, 2}); got != 2 {
		t.Errorf("Median with +Inf = %g", got)
	}
}

// TestOverheadWords: a report says how each overhead grows.
func TestOverheadWords(t *testing.T) {
	for growth, want := range map[string]string{GrowthLinear: "linear in the threads", GrowthLog: "log2 of the threads"} {
		if got := (Overhead{A: 1, B: 1, Growth: growth}).Words(); got != want {
			t.Errorf("%s: %q, want %q", growth, got, want)
		}
	}
}

// TestHasPattern: a pattern counts when some processor count of at least
// 2 has its curve; a curve at one processor (no communication) does not.
func TestHasPattern(t *testing.T) {
	flat := Curve{{From: 0, To: 0, A: 1e-6}}
	m := &Machine{Comm: map[int]map[string]Curve{1: {PatternBroadcast: flat}, 2: {PatternVectorShift: flat}, 8: {PatternAllToAll: flat}}}
	for p, want := range map[string]bool{PatternVectorShift: true, PatternAllToAll: true, PatternBroadcast: false, PatternExchange: false} {
		if got := m.HasPattern(p); got != want {
			t.Errorf("HasPattern(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestValidateBounds: a noise of exactly 10 (the largest relative spread
// allowed) is valid, more is not; a curve that continues at the same
// time across a segment boundary (no step at all) is valid.
func TestValidateBounds(t *testing.T) {
	for noise, ok := range map[float64]bool{0: true, 10: true, 10.5: false, -0.5: false} {
		if err := (&Machine{Noise: noise}).Validate(); (err == nil) != ok {
			t.Errorf("noise %g: %v", noise, err)
		}
	}
	flat := Curve{{From: 0, To: 1024}, {From: 1024, To: 0}}
	if err := flat.Validate(); err != nil {
		t.Errorf("a curve without a step: %v", err)
	}
	if err := (Curve{{From: 0, To: 1024, A: 2e-6}, {From: 1024, To: 0, A: 1e-6}}).Validate(); err == nil {
		t.Error("a time that falls at a boundary was accepted")
	}
}

// TestCommTimeBetweenCounts: between two trained processor counts a
// time is interpolated in log2 of the count: with 1 µs at P = 2 and 3 µs
// at P = 8, P = 4 lies halfway (log2 4 = 2 between 1 and 3): 2 µs.
func TestCommTimeBetweenCounts(t *testing.T) {
	m := &Machine{Comm: map[int]map[string]Curve{
		2: {PatternVectorShift: {{From: 0, To: 0, A: 1e-6}}},
		8: {PatternVectorShift: {{From: 0, To: 0, A: 3e-6}}},
	}}
	got, err := m.CommTime(PatternVectorShift, 4, 100)
	if err != nil || math.Abs(got-2e-6) > 1e-18 {
		t.Errorf("CommTime at P = 4: %g, %v; want 2e-06", got, err)
	}
}
