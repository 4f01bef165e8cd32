package train

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
)

// train-P2.txt is the output of the training set (--quick) at P = 2 on
// the 2-core development machine with Open MPI 4.1.4, progress lines cut.
func loadTrainingFixture(t *testing.T) *TrainingRun {
	t.Helper()
	fh, err := os.Open("testdata/train-P2.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var progress []TrainingProgress
	run, err := ParseTraining(fh, "train-P2.txt", func(p TrainingProgress) { progress = append(progress, p) })
	if err != nil {
		t.Fatal(err)
	}
	if len(progress) == 0 || progress[0].Label != "operations" {
		t.Errorf("progress callbacks = %v, want the first to be \"operations\"", progress)
	}
	return run
}

func TestParseTraining(t *testing.T) {
	run := loadTrainingFixture(t)
	if run.Procs != 2 || !strings.Contains(run.MPI, "Open MPI") || !run.Done {
		t.Errorf("procs %d, mpi %q, done %v", run.Procs, run.MPI, run.Done)
	}
	if run.Limits["btl_vader_eager_limit"] != 4096 {
		t.Errorf("limits = %v, want btl_vader_eager_limit 4096", run.Limits)
	}
	for _, p := range machine.TrainingPatterns {
		s := run.Comm[p]
		if len(s) < 10 {
			t.Errorf("%s: %d points", p, len(s))
			continue
		}
		for i := 1; i < len(s); i++ {
			if s[i].Bytes < s[i-1].Bytes {
				t.Errorf("%s: points not sorted at %d", p, i)
			}
		}
	}
	if len(run.Kernels["copy"]) != 4 || len(run.Trips) != 6 {
		t.Errorf("copy kernel at %d sizes, %d trip points; want 4 and 6", len(run.Kernels["copy"]), len(run.Trips))
	}
}

func TestParseTrainingErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "x: no output from the training set"},
		{"hello\n", "x:1: not the output of the pfls training set"},
		{"pfls-train 2\n", "x:1: training set output version \"2\""},
		{"pfls-train 1\nprocs two\n", "x:2: processor count \"two\""},
		{"pfls-train 1\nprocs 2\ncomm vector-shift 8 1e-7 1e-7\n", "x:3: comm line needs 7 fields, has 5"},
		{"pfls-train 1\nprocs 2\ncomm vector-shift 8 -1 1e-7 2e-7 3\n", "x:3: comm vector-shift 8: \"-1\" is not a non-negative number"},
		{"pfls-train 1\nprocs 2\nkernel copy 0 1e-9\n", "x:3: kernel copy: bytes \"0\""},
		{"pfls-train 1\nprocs 2\nwhat 1\n", "x:3: unknown line \"what\""},
		{"pfls-train 1\nprocs 2\nkernel copy 16 1e-9\n", "x:3: the output stops before the end"},
		{"pfls-train 1\nprocs 2\ndone\n", "x: no copy kernel measured"},
		{"pfls-train 1\nkernel copy 16 1e-9\ndone\n", "x: the training set did not say its processor count"},
	} {
		_, err := ParseTraining(strings.NewReader(c.in), "x", nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseTraining(%q) = %v, want an error starting %q", c.in, err, c.want)
		}
	}
}

func TestBuildMachineFromTraining(t *testing.T) {
	run := loadTrainingFixture(t)
	m, fits, err := BuildMachine([]*TrainingRun{run}, machine.Provenance{Source: "pfls train"}, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(fits) != len(machine.TrainingPatterns) {
		t.Errorf("%d fits, want one per pattern (%d)", len(fits), len(machine.TrainingPatterns))
	}
	// The 0-byte points (a 0-byte broadcast returns at once) are left out
	// of the fits: with them the first segment missed 8 B by half.
	for _, f := range fits {
		if f.Pattern == machine.PatternBroadcast && f.Report.MaxRel > 0.4 {
			t.Errorf("broadcast fit: worst error %.0f%%", 100*f.Report.MaxRel)
		}
	}
	for _, p := range machine.TrainingPatterns {
		if !m.HasPattern(p) {
			t.Errorf("no curve for %s", p)
		}
	}
	// The eager/rendezvous switch of Open MPI's shared-memory transport
	// (4096 B with its header) is a step the fit must find.
	stepped := false
	c := m.Comm[2][machine.PatternVectorShift]
	for i := 1; i < len(c); i++ {
		x := float64(c[i].From)
		if c[i].From >= 2048 && c[i].From <= 8192 && c[i].A+c[i].B*x > 2*(c[i-1].A+c[i-1].B*x) {
			stepped = true
		}
	}
	if !stepped {
		t.Errorf("vector-shift at P=2: no step of at least 2x between 2 and 8 KiB in %+v", c)
	}
	for _, k := range []string{"add", "mul", "div", "load", "store", "loop", "call", "intrinsic", "pow", "compare"} {
		if _, ok := m.Ops[k]; !ok {
			t.Errorf("op %s missing", k)
		}
	}
	if m.Op("div") <= m.Op("add") || m.Op("pow") <= m.Op("mul") {
		t.Errorf("div %g ≤ add %g or pow %g ≤ mul %g", m.Op("div"), m.Op("add"), m.Op("pow"), m.Op("mul"))
	}
	if len(m.Memory) != 4 || m.Memory[0].Load <= 0 {
		t.Errorf("memory levels = %+v, want 4 with positive times", m.Memory)
	}
	// Main memory is slower than the first cache level.
	if last := m.Memory[len(m.Memory)-1]; last.Load <= m.Memory[0].Load {
		t.Errorf("memory: %g s at %d B is not slower than %g s at %d B", last.Load, last.Bytes, m.Memory[0].Load, m.Memory[0].Bytes)
	}
}

// A simulated node that charges counted operations (SMPI, --charge) at
// 1 Tflop/s: an addition takes 1e-12 s, under the 0.01 ns floor that
// keeps hidden operations above nothing; the floor must not raise an
// operation above its whole kernel (it made the cluster preset's
// computation 10 times too slow).
func TestOpsOfFastChargedNode(t *testing.T) {
	const flop = 1e-12
	r := &TrainingRun{Kernels: map[string]map[int64]float64{
		"copy": {16384: 0}, "add": {16384: flop}, "mul": {16384: flop}, "div": {16384: 4 * flop},
		"stencil5": {16384: 4 * flop}, "redblack": {16384: 6 * flop},
	}}
	ops, _ := opsOf(r)
	for op, want := range map[string]float64{"add": flop, "mul": flop, "div": 4 * flop, "load": 0, "load.reuse": flop, "load.reuse.strided": 1.5 * flop} {
		if got := ops[op]; math.Abs(got-want) > 1e-6*flop {
			t.Errorf("%s: %g s, want %g", op, got, want)
		}
	}
	// A real processor's kernel minus its references can come out at
	// nothing: the floor still holds there.
	r.Kernels["copy"] = map[int64]float64{16384: 2e-9}
	r.Kernels["add"] = map[int64]float64{16384: 3e-9}
	if ops, _ := opsOf(r); ops["add"] != minOpTime {
		t.Errorf("add hidden by its references: %g s, want the floor %g", ops["add"], minOpTime)
	}
}

// TestOpsOfRealStencil: the REAL five-point stencil gives the time of a
// reference to a 4-byte element: the L1 reference time (half the faster
// of copy and add, here 0.4 ns) times the REAL stencil's time over the
// DOUBLE one's, never above the DOUBLE time; an output without the REAL
// stencil gives none, and the estimator keeps its old scaling.
func TestOpsOfRealStencil(t *testing.T) {
	kernels := func(real float64) *TrainingRun {
		k := map[string]map[int64]float64{"copy": {16384: 0.8e-9}, "add": {16384: 1e-9}, "stencil5": {16384: 2.4e-9}}
		if real > 0 {
			k["stencil5.real"] = map[int64]float64{16384: real}
		}
		return &TrainingRun{Kernels: k}
	}
	for _, c := range []struct{ real, want float64 }{{2.0e-9, 0.4e-9 * 2.0 / 2.4}, {1.2e-9, 0.2e-9}, {3e-9, 0.4e-9}} {
		ops, _ := opsOf(kernels(c.real))
		if got := ops["load.real"]; math.Abs(got-c.want) > 1e-21 {
			t.Errorf("REAL stencil %g s: load.real %g, want %g", c.real, got, c.want)
		}
	}
	if ops, _ := opsOf(kernels(0)); len(ops) > 0 {
		if _, ok := ops["load.real"]; ok {
			t.Errorf("no REAL stencil: load.real %g, want none", ops["load.real"])
		}
	}
}
