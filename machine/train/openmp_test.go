package train

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
)

func relNear(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// The output of pfls-omp on the 2-core development machine (2026-11-23,
// 1 and 2 threads) becomes a section whose overheads pass through both
// points (two points, a line), whose reduction, measured smaller at 2
// threads than at 1, gets no growth (b ≥ 0) and the mean, and whose
// bandwidths are the one-thread triad and the best triad.
func TestBuildSharedFromRun(t *testing.T) {
	f, err := os.Open("testdata/omp-2threads.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	run, err := ParseOpenMP(f, "omp-2threads.txt")
	if err != nil {
		t.Fatal(err)
	}
	if run.Procs != 2 || len(run.Threads()) != 2 {
		t.Fatalf("procs %d, threads %v", run.Procs, run.Threads())
	}
	s, err := BuildShared(run, "pfls train (test)")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		got  machine.Overhead
		a, b float64
	}{
		{"fork", s.Fork, 2.108770e-07, 7.182455e-07 - 2.108770e-07},
		{"barrier", s.Barrier, 1.090055e-07, 2.465295e-07 - 1.090055e-07},
		{"chunk", s.Chunk, 5.654001e-09, 1.690010e-07 - 5.654001e-09},
		{"reduction", s.Reduction, (4.377499e-09 + 2.285005e-10) / 2, 0},
	} {
		if !relNear(c.got.A, c.a) || !relNear(c.got.B, c.b) {
			t.Errorf("%s = %+v, want a %g b %g", c.name, c.got, c.a, c.b)
		}
	}
	if s.Fork.Growth != machine.GrowthLog || s.Reduction.Growth != machine.GrowthLinear {
		t.Errorf("growth fork %s reduction %s: want the defaults with two thread counts", s.Fork.Growth, s.Reduction.Growth)
	}
	if s.CoreBandwidth != 1.547992e+10 || s.SocketBandwidth != 1.547992e+10 || s.Cores != 2 || len(s.Measured) != 2 {
		t.Errorf("section %+v", s)
	}
	if !strings.Contains(strings.Join(s.Notes, "\n"), "assumed (too few thread counts") {
		t.Errorf("notes %q", s.Notes)
	}
}

// With three or more thread counts the growth is chosen by the fit.
func TestFitOverheadGrowth(t *testing.T) {
	logData := map[int]float64{1: 1, 2: 3, 4: 5, 8: 7}  // 1 + 2·log2 t
	linData := map[int]float64{1: 1, 2: 3, 4: 7, 8: 15} // 1 + 2·(t − 1)
	for _, c := range []struct {
		data   map[int]float64
		growth string
	}{{logData, machine.GrowthLog}, {linData, machine.GrowthLinear}} {
		o, note := FitOverhead("x", c.data, machine.GrowthLog)
		if o.Growth != c.growth || !relNear(o.A, 1) || !relNear(o.B, 2) || !strings.Contains(note, "the better fit") {
			t.Errorf("%v: %+v, %q", c.data, o, note)
		}
	}
}

func TestParseOpenMPErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "no output"},
		{"omp fork 1 1e-7\n", "before the omp-train header"},
		{"omp-train 1 procs 2\nomp fork 1 1e-7\n", "stopped before their end"},
		{"omp-train 1 procs 2\nomp fork x 1e-7\nomp end\n", "threads or value"},
		{"omp-train 1 procs 2\nomp speed 1 1e-7\nomp end\n", "want omp FIGURE"},
		{"omp-train 1 procs 2\nomp fork 1 1e-7\nomp end\n", "no barrier figure"},
	} {
		_, err := ParseOpenMP(strings.NewReader(c.in), "out")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
}

// With a ≥ 0 binding, the fit is the best line through the origin: at 2
// and 4 threads (log2: 1 and 2) 0.5 µs and 2 µs give b = (0.5 + 4)/(1 + 4)
// = 0.9 µs, not the unconstrained slope 1.5 µs with a clamped to 0.
func TestFitOverheadThroughOrigin(t *testing.T) {
	o, _ := FitOverhead("fork", map[int]float64{2: 0.5e-6, 4: 2e-6}, "log")
	if o.A != 0 || math.Abs(o.B-0.9e-6) > 1e-15 {
		t.Errorf("fit a = %g, b = %g; want 0 and 9e-7", o.A, o.B)
	}
	// An intercept that is positive is left alone: 1 + 0.5·log2 t µs.
	o, _ = FitOverhead("fork", map[int]float64{1: 1e-6, 2: 1.5e-6, 4: 2e-6}, "log")
	if math.Abs(o.A-1e-6) > 1e-15 || math.Abs(o.B-0.5e-6) > 1e-15 || o.Growth != "log" {
		t.Errorf("fit %+v, want a = 1e-6, b = 5e-7, log", o)
	}
}
