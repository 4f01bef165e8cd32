package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pfls/pfls/internal/kit"
	"github.com/pfls/pfls/machine"
)

// needSMPI skips a test where SimGrid's SMPI is not installed (CI
// installs libsimgrid-dev).
func needSMPI(t *testing.T, tools ...string) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs smpirun")
	}
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not on PATH (install libsimgrid-dev)", tool)
		}
	}
}

// TestPlatformUsage: the errors of --platform come before any MPI is
// looked for.
func TestPlatformUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"validate", "--kit", "../../validation", "--platform", "hal9000", "--np", "4"}, `no platform preset "hal9000"`},
		{[]string{"validate", "--kit", "../../validation", "--platform", "missing.xml", "--np", "4"}, "missing.xml: no such file"},
		{[]string{"validate", "--kit", "../../validation", "--platform", "ncube2", "--hostfile", "h", "--np", "4"}, "leave out --hostfile"},
		{[]string{"train", "--platform", "ncube2", "--np", "2048", "--out", "m.json"}, "2048"},
		{[]string{"train", "--platform", "ncube2", "--mpicc", "mpicc", "--out", "m.json"}, "leave out --hostfile, --mpicc and --mpirun"},
	} {
		code, _, stderr := runCmd(c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// TestValidateOnNcube2: the kit's REDBLACK runs on the simulated NCUBE/2
// at P = 16: every run completes, the layouts' checksums agree, the
// platform is in the report, no estimate is scaled for oversubscription
// (every rank has a host of its own), and a second run gives exactly the
// same times: communication is simulated, and the kernels charge their
// loops' operation counts instead of SMPI timing them on this machine,
// so nothing depends on this machine's load.
func TestValidateOnNcube2(t *testing.T) {
	needSMPI(t, "smpif90", "smpirun")
	validate := func() *kit.Report {
		t.Helper()
		code, stdout, stderr := runCmd("validate", "--kit", "../../validation", "--platform", "ncube2", "--np", "16",
			"--kernel", "redblack", "--sizes", "32,64", "--reps", "5", "--launches", "1", "--json")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		var rep kit.Report
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatal(err)
		}
		return &rep
	}
	a, b := validate(), validate()
	if len(a.Points) != 4 || len(a.Kernels) != 1 || len(b.Points) != 4 {
		t.Fatalf("%d and %d points, %d summaries; want 2 sizes × 2 layouts twice, 1 summary", len(a.Points), len(b.Points), len(a.Kernels))
	}
	if !strings.HasPrefix(a.Platform, "ncube2: NCUBE/2 hypercube of 16 nodes") || !strings.Contains(a.Platform, "SimGrid") {
		t.Errorf("platform %q", a.Platform)
	}
	s := a.Kernels[0]
	if !s.ChecksumsAgree || len(s.MeasuredFaster) != 2 {
		t.Errorf("summary %+v", s)
	}
	for i, p := range a.Points {
		q := b.Points[i]
		if p.Oversubscribed || !(p.Measured > 0) || !(p.Estimate > 0) {
			t.Errorf("%+v", p)
		}
		if p.Checksum != q.Checksum {
			t.Errorf("%s N=%d: checksums %v and %v in two runs", p.Layout, p.N, p.Checksum, q.Checksum)
		}
		if p.Measured != q.Measured || p.Min != q.Min || p.Max != q.Max {
			t.Errorf("%s N=%d: %g s (%g to %g) and %g s (%g to %g) in two runs; want the same", p.Layout, p.N,
				p.Measured, p.Min, p.Max, q.Measured, q.Min, q.Max)
		}
		// The computation is charged: 6 operations a point, N²/16
		// points a rank, 10 cycles, at 2.4 Mflop/s, under the time.
		if comp := 6 * float64(p.N*p.N) / 16 * 10 / 2.4e6; p.Measured <= comp {
			t.Errorf("%s N=%d: %g s, no more than the charged computation %g s alone", p.Layout, p.N, p.Measured, comp)
		}
	}
	for _, p := range a.Points {
		t.Logf("ncube2 P=16 redblack %s N=%d: measured %.4g s, estimated %.4g s", p.Layout, p.N, p.Measured, p.Estimate)
	}
}

// TestTrainOnNcube2: the training set compiles with smpicc (no MPI_T)
// and a quick run on a simulated 4-node subcube gives a model whose
// provenance names the platform.
func TestTrainOnNcube2(t *testing.T) {
	needSMPI(t, "smpicc", "smpirun")
	out := filepath.Join(t.TempDir(), "m.json")
	code, stdout, stderr := runCmd("train", "--platform", "ncube2", "--np", "4", "--quick", "--force", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var m machine.Machine
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	p := m.Provenance
	if !strings.HasPrefix(p.Platform, "ncube2: NCUBE/2 hypercube of 4 nodes") || !strings.Contains(p.MPI, "SMPI") ||
		!strings.Contains(p.Options, "smpirun -platform ncube2.xml -hostfile hostfile --cfg=smpi/simulate-computation:no --cfg=smpi/alltoall:pair -np 4 --charge") ||
		!strings.Contains(p.Platform, "computation charged as counted operations at the node speed 2.4Mf") {
		t.Errorf("provenance %+v", p)
	}
	// The operations are charged at the node speed: an addition takes
	// 1/2.4 µs, a division four times that (the Livermore weights).
	if add := m.Op("add"); math.Abs(add-1/2.4e6) > 1e-3/2.4e6 {
		t.Errorf("add: %g s; want 1/2.4 µs", add)
	}
	if div := m.Op("div"); math.Abs(div-4/2.4e6) > 4e-3/2.4e6 {
		t.Errorf("div: %g s; want 4/2.4 µs", div)
	}
	// The simulated start-up (80 µs one way) is in the shift curve.
	if c, err := m.CommTime("vector-shift", 4, 8); err != nil || c < 50e-6 || c > 1e-3 {
		t.Errorf("vector-shift of 8 bytes at P=4: %g s, %v; want the simulated NCUBE start-up", c, err)
	}
}

// TestSMPIAccuracyNcube2: pfls's estimates against the simulated NCUBE/2,
// end to end. A model trained on the ncube2 preset at P = 16 (--quick)
// predicts the kit's REDBLACK and Jacobi (the Fortran D programs) at
// P = 16 within the targets: median error ≤ 10% overall and where
// computation and where communication dominate, each; worst ≤ 25%; the
// crossover of column strips and blocks within 15% of the measured one.
// Both sides are deterministic (simulated communication, charged
// computation), so the targets need no allowance for noise. On 2026-11-23
// REDBLACK measured 1.6% (1.7% computation, 1.4% communication), worst
// 6.3%, crossover N ≈ 120 against 121; Jacobi 0.4% (0.1%, 3.2%), worst
// 4.2%, crossover 64 against 57 (before the trainer's shifts were timed
// once settled: 2.0% and 0.6%), 30 to 48 s a run. The state before
// charged computation (REDBLACK median 14%, worst 28%) fails, and so does
// the kit's former even split of 1..N against pfls's BLOCK of 0:N+1
// (crossovers 1.35 and 1.74 times apart).
//
// DGEFA (N = 32 to 64) and ERLEBACHER (one layout, N = 32 to 128), where
// communication dominates, are held to the same median and worst errors:
// DGEFA 6.3% (worst 8.8%) since its broadcasts are scheduled step by step
// with the work around them (partition's bcastSchedule; 9.9% and 10.4%
// before, when a step cost the tree's start-up and the bytes once on top
// of the computation, and 163-214% before the estimator sent its T
// nowhere), ERLEBACHER 0.0% (0.1%; 30-47% with blocks of 8 J columns in
// the kit, before one fill for the sweeps and a hand-off a block).
// DGEFA's BLOCK stays ahead of CYCLIC at P = 16 up to N = 256, simulated
// and predicted: no crossover, the same faster layout at every N (the
// former pricing had CYCLIC ahead from N ≈ 164).
func TestSMPIAccuracyNcube2(t *testing.T) {
	smpiAccuracy(t, "ncube2", 16, []accuracyCase{
		{"redblack", "32,48,64,80,96,112,128,144,160,192", 2, true, true, true, 0, 0},
		{"jacobi", "32,48,64,80,96,128,192", 2, true, true, true, 0, 0},
		{"dgefa", "32,48,64", 2, false, false, true, 0, 0},
		{"erlebacher", "32,64,128", 1, false, false, true, 0, 0},
	})
}

// TestSMPIAccuracyNcube2P64: the same at P = 64, the model trained there
// (--quick): blocks of 8 × 8. REDBLACK's crossover is the step at
// N = 128, where BLOCK on 0:N+1 gives the busiest column strip a third
// column; Jacobi's blocks are faster from the smallest N that gives every
// rank a column (64), and pfls must say so too. On 2026-11-23 REDBLACK
// measured 1.0% (computation 1.5%, communication 1.0%), worst 3.7%,
// crossover 113 against 114; Jacobi 2.2%, worst 5.9%; 35 s. The sizes
// are multiples of 16: at N = 104 and 120 pfls prices the blocks 5% low
// (unequal shares), which moves its crossover to 102 against 121
// (docs/platforms.md). DGEFA (N = 96 to 256, where each processor holds
// more than one column) measured 6.0%, worst 8.4%, BLOCK faster
// throughout, simulated and predicted (6 s); 4.3% and 5.9% since a tree's
// levels are priced by their own pairs (tree-level-M, 2026-11-29); with the grid shifts
// (grid-shift-1 and -2) REDBLACK measured 3.5%, worst 4.4%, crossover
// 113 against 116: on the hypercube ranks r and r + 8 are not always one
// link apart (grid-shift-1 79.6 µs at 0 bytes, the open shift 69.8 µs),
// and the kit's sweeps pay less than each shift's slowest pair; 24 s in
// all.
func TestSMPIAccuracyNcube2P64(t *testing.T) {
	smpiAccuracy(t, "ncube2", 64, []accuracyCase{
		{"redblack", "64,80,96,112,128,160,192", 2, true, true, true, 0, 0},
		{"jacobi", "64,96,128,192", 2, false, true, true, 0, 0},
		{"dgefa", "96,128,192,256", 2, false, false, true, 0, 0},
	})
}

// TestSMPIAccuracyTorus: the same on a platform nobody calibrated to,
// validation/platforms/torus-ethernet.xml (a 4 × 4 × 4 torus of 15 µs,
// 1.25 GB/s links and 20 Gflop/s nodes), at P = 16 (one plane of the
// torus: the 4 × 4 grid's rows and columns are its rings). On 2026-11-23:
// REDBLACK 1.1% (worst 1.2%), Jacobi 4.0% (4.6%), blocks faster than
// column strips at every N from 256, simulated and predicted; before the
// grid shifts, blocks were priced at the open shift over all 16 ranks
// (30 µs: ranks 3 and 4 are two links apart) where a row or column shift
// takes 15 µs: +71 to +97%, column strips predicted faster throughout.
// DGEFA 0.4% (worst 1.2%) with each tree level its own pairs' curve
// (2026-11-29; before, 6% and 17%, BLOCK 9-17% low, and 27-38% low
// before a tree level was at least the shift's time); ERLEBACHER 0.8% (1.2%). Below N = 256
// the layouts differ by under 2% (the simulated crossover of REDBLACK,
// N ≈ 47, is a tie within 1.5%), so those sizes are left out here. 14 s.
func TestSMPIAccuracyTorus(t *testing.T) {
	smpiAccuracy(t, "../../validation/platforms/torus-ethernet.xml", 16, []accuracyCase{
		{"redblack", "256,512,1024,2048", 2, false, false, true, 0, 0},
		{"jacobi", "256,512,1024,2048", 2, false, false, true, 0, 0},
		{"dgefa", "32,48,64,128", 2, false, false, true, 0, 0},
		{"erlebacher", "32,64", 1, false, false, true, 0, 0},
	})
}

// TestSMPIAccuracyClusterP64: the cluster preset at P = 64, two leaf
// switches of 32 nodes: a row of the 8 × 8 grid is on one leaf (a shift
// 1 µs), a column crosses between leaves (2 µs, as the open shift over
// all 64 ranks). Before the grid shifts REDBLACK's and Jacobi's blocks
// came out 41-50% high, and while the training set took the largest of
// the ranks' own times after 22 calls of an open shift (2.25 µs: the
// barrier's skew still travelling along the chain; the chain's pace is
// 2.0) the column strips and ERLEBACHER 7-14% high. On 2026-11-23
// REDBLACK measured 0.2% (worst 0.6%), Jacobi 0.2% (1.1%), ERLEBACHER
// 1.6%; column strips faster at every N, simulated and predicted; 20 s.
// Jacobi at N = 4096 sends 16 KiB columns: there a rank of the open chain
// took 1.7 to 4.3 µs a call over the training set's 4 timed calls while
// the chain went at 2.66 µs, and the training set took the largest of
// the ranks' own times: the column strips came out 50% high and slower
// than the blocks from N ≈ 3129 (simulated: faster at every N). It now
// times the last rank's pace (2.3% high here). DGEFA is held to 5% at
// the median and at worst: its broadcast tree's pairs cross between the
// leaves at the first level and mostly not at the last, and priced a
// level alike (the settled shift's 2 µs, its slowest pair) it came out
// 12% high at the median, 18% at worst (N = 96 to 512, 2026-11-29);
// with each level its own pairs' curve (tree-level-M), 0.6% and 1.7%.
func TestSMPIAccuracyClusterP64(t *testing.T) {
	smpiAccuracy(t, "cluster", 64, []accuracyCase{
		{"redblack", "64,128,256,512,1024,2048", 2, false, false, true, 0, 0},
		{"jacobi", "64,128,256,512,1024,2048,4096", 2, false, false, true, 0, 0},
		{"erlebacher", "64", 1, false, false, true, 0, 0},
		{"dgefa", "96,128,192,256", 2, false, false, true, 0.05, 0.05},
	})
}

// accuracyCase is a kernel of smpiAccuracy, its sizes, its number of
// layouts, whether its layouts cross over among them (else neither the
// runs nor the estimates may show a crossover, and the faster layout must
// agree at every N), and whether it has points where computation, and
// points where communication, dominates (DGEFA and ERLEBACHER have none
// of the first). median and worst, where not 0, hold the kernel to a
// tighter median and worst error than the 10% and 25%.
type accuracyCase struct {
	kernel, sizes       string
	layouts             int
	crosses, comp, comm bool
	median, worst       float64
}

// smpiAccuracy trains a model on platform at procs processors and holds
// validate's results for each kernel to the targets (see
// TestSMPIAccuracyNcube2).
func smpiAccuracy(t *testing.T, platform string, procs int, cases []accuracyCase) {
	needSMPI(t, "smpicc", "smpif90", "smpirun")
	np := strconv.Itoa(procs)
	dir := t.TempDir()
	model := filepath.Join(dir, "model.json")
	name := strings.TrimSuffix(filepath.Base(platform), ".xml")
	if code, stdout, stderr := runCmd("train", "--platform", platform, "--np", np, "--quick", "--out", model); code != 0 {
		t.Fatalf("train: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, k := range cases {
		out := filepath.Join(dir, k.kernel)
		code, stdout, stderr := runCmd("validate", "--kit", "../../validation", "--platform", platform, "--np", np,
			"--machine", model, "--kernel", k.kernel, "--sizes", k.sizes, "--reps", "1", "--launches", "1", "--out", out)
		if code != 0 {
			t.Fatalf("validate %s: exit %d\n%s%s", k.kernel, code, stdout, stderr)
		}
		data, err := os.ReadFile(filepath.Join(out, "results.json"))
		if err != nil {
			t.Fatal(err)
		}
		// The contract's names (DESIGN.md), read as a user's script would.
		var raw struct {
			Kernels []map[string]any `json:"kernels"`
		}
		if err := json.Unmarshal(data, &raw); err != nil || len(raw.Kernels) != 1 {
			t.Fatalf("%s: results.json: %v, %d kernels", k.kernel, err, len(raw.Kernels))
		}
		fields := []string{"medianError", "worstError"}
		if k.comp {
			fields = append(fields, "medianErrorComputation")
		}
		if k.comm {
			fields = append(fields, "medianErrorCommunication")
		}
		if k.crosses {
			fields = append(fields, "measuredCrossover", "predictedCrossover")
		}
		for _, f := range fields {
			if _, ok := raw.Kernels[0][f].(float64); !ok {
				t.Errorf("%s: results.json: kernels[0].%s = %v; want a number", k.kernel, f, raw.Kernels[0][f])
			}
		}
		var rep kit.Report
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatal(err)
		}
		s := rep.Kernels[0]
		if want := k.layouts * len(strings.Split(k.sizes, ",")); s.Points != want || (s.MedianErrorComp != nil) != k.comp || (s.MedianErrorComm != nil) != k.comm {
			t.Fatalf("%s: summary %+v: want %d points and the error splits %v, %v", k.kernel, s, want, k.comp, k.comm)
		}
		t.Logf("%s P=%d %s: median error %.1f%%, worst %.1f%%, faster measured %v, predicted %v",
			name, procs, k.kernel, 100*s.MedianError, 100*s.WorstError, s.MeasuredFaster, s.PredictedFaster)
		type check struct {
			what       string
			got, limit float64
		}
		median, worst := 0.10, 0.25
		if k.median > 0 {
			median = k.median
		}
		if k.worst > 0 {
			worst = k.worst
		}
		limits := []check{{"median error", s.MedianError, median}, {"worst error", s.WorstError, worst}}
		if k.comp {
			t.Logf("%s: where computation dominates %.1f%%", k.kernel, 100**s.MedianErrorComp)
			limits = append(limits, check{"median error where computation dominates", *s.MedianErrorComp, 0.10})
		}
		if k.comm {
			t.Logf("%s: where communication dominates %.1f%%", k.kernel, 100**s.MedianErrorComm)
			limits = append(limits, check{"median error where communication dominates", *s.MedianErrorComm, 0.10})
		}
		switch {
		case !k.crosses:
			if s.MeasuredCross != nil || s.PredictedCross != nil || fmt.Sprint(s.MeasuredFaster) != fmt.Sprint(s.PredictedFaster) {
				t.Errorf("%s: faster measured %v, predicted %v; want the same layout at every N, no crossover", k.kernel, s.MeasuredFaster, s.PredictedFaster)
			}
		case s.MeasuredCross == nil || s.PredictedCross == nil:
			t.Fatalf("%s: summary %+v: want both crossovers", k.kernel, s)
		default:
			t.Logf("%s P=%d %s: crossover measured N ≈ %.0f, predicted N ≈ %.0f", name, procs, k.kernel, *s.MeasuredCross, *s.PredictedCross)
			limits = append(limits, check{"crossover, predicted against measured", math.Abs(*s.PredictedCross-*s.MeasuredCross) / *s.MeasuredCross, 0.15})
			if !strings.Contains(stdout, fmt.Sprintf("crossover: measured N ≈ %.0f, predicted N ≈ %.0f", *s.MeasuredCross, *s.PredictedCross)) {
				t.Errorf("%s: the summary does not print the crossovers:\n%s", k.kernel, stdout)
			}
		}
		for _, c := range limits {
			if c.got > c.limit {
				t.Errorf("%s: %s: %.1f%%; want at most %.0f%%", k.kernel, c.what, 100*c.got, 100*c.limit)
			}
		}
	}
}
