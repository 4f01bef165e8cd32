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

// TestValidateMemoryAndCurveEdges pins the edges of Validate's switch
// statements (gremlins counts a tagless switch's case conditions as not
// covered, go-gremlins/gremlins#298, so their mutants are checked by
// hand): a memory level of 0 bytes, or of as many bytes as the level
// before, is an error and one of 1 byte is not; a load or store time of
// 0 is valid and one below 0 or not finite is not; a segment with equal
// from and to (no sizes at all) is an error, and one that starts where the
// one before started (not where it ended) is reported as a segment that
// does not continue, not as an unsorted one; a negative from is an error.
func TestValidateMemoryAndCurveEdges(t *testing.T) {
	for _, c := range []struct {
		levels []MemoryLevel
		want   string // "" for valid
	}{
		{[]MemoryLevel{{Bytes: 1}}, ""},
		{[]MemoryLevel{{Bytes: 0, Load: 1, Store: 1}}, "machine model: memory level 0: bytes = 0 must be positive"},
		{[]MemoryLevel{{Bytes: 1000, Load: 1, Store: 1}, {Bytes: 1000, Load: 2, Store: 2}},
			"machine model: memory level 1: bytes = 1000 must be larger than the level before (1000)"},
		{[]MemoryLevel{{Bytes: 1000, Load: 1, Store: 1}, {Bytes: 1001, Load: 2, Store: 2}}, ""},
		{[]MemoryLevel{{Bytes: 8, Load: -1e-9}}, "machine model: memory level 0: load and store must be non-negative numbers of seconds"},
		{[]MemoryLevel{{Bytes: 8, Store: -1e-9}}, "machine model: memory level 0: load and store must be non-negative numbers of seconds"},
		{[]MemoryLevel{{Bytes: 8, Load: math.Inf(1)}}, "machine model: memory level 0: load and store must be non-negative numbers of seconds"},
		{[]MemoryLevel{{Bytes: 8, Store: math.NaN()}}, "machine model: memory level 0: load and store must be non-negative numbers of seconds"},
	} {
		err := (&Machine{Memory: c.levels}).Validate()
		if (c.want == "" && err != nil) || (c.want != "" && (err == nil || err.Error() != c.want)) {
			t.Errorf("memory %+v: %v, want %q", c.levels, err, c.want)
		}
	}
	for _, c := range []struct {
		curve Curve
		want  string
	}{
		{Curve{{From: 0, To: 100}, {From: 100, To: 100}, {From: 100, To: 0}}, "segment 1: to = 100 must be greater than from = 100"},
		{Curve{{From: 0, To: 100}, {From: 0, To: 0}}, "segment 1: from = 0 does not continue segment 0, which ends at 100"},
		{Curve{{From: -1, To: 0}}, "segment 0: from = -1 is negative"},
		{Curve{{From: 0, To: 1}, {From: 1, To: 0}}, ""},
	} {
		err := c.curve.Validate()
		if (c.want == "" && err != nil) || (c.want != "" && (err == nil || err.Error() != c.want)) {
			t.Errorf("curve %+v: %v, want %q", c.curve, err, c.want)
		}
	}
}

// TestSharedMemoryValidateEdges: one core is enough; sockets 0 (not
// given: one), 1 and as many as the cores are valid, −1 and one more than
// the cores are not (the case conditions gremlins cannot see, as above).
func TestSharedMemoryValidateEdges(t *testing.T) {
	o := Overhead{A: 1e-7, B: 1e-7, Growth: GrowthLog}
	for _, c := range []struct {
		cores, sockets int
		want           string
	}{
		{1, 0, ""}, {1, 1, ""}, {4, 4, ""}, {0, 0, "cores = 0 must be at least 1"},
		{4, -1, "sockets = -1 must be between 1 and the cores (4)"}, {4, 5, "sockets = 5 must be between 1 and the cores (4)"},
	} {
		s := &SharedMemory{Cores: c.cores, Sockets: c.sockets, Fork: o, Barrier: o, Reduction: o, Chunk: o, CoreBandwidth: 1, SocketBandwidth: 1}
		err := s.Validate()
		if (c.want == "" && err != nil) || (c.want != "" && (err == nil || err.Error() != c.want)) {
			t.Errorf("cores %d, sockets %d: %v, want %q", c.cores, c.sockets, err, c.want)
		}
	}
}
