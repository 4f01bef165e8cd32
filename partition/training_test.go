package partition

import (
	"github.com/pfls/pfls/parser"
	"math"
	"os"
	"strings"
	"testing"
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
	for _, p := range TrainingPatterns {
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
	m, fits, err := BuildMachine([]*TrainingRun{run}, Provenance{Source: "pfls train"}, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(fits) != len(TrainingPatterns) {
		t.Errorf("%d fits, want one per pattern (%d)", len(fits), len(TrainingPatterns))
	}
	// The 0-byte points (a 0-byte broadcast returns at once) are left out
	// of the fits: with them the first segment missed 8 B by half.
	for _, f := range fits {
		if f.Pattern == PatternBroadcast && f.Report.MaxRel > 0.4 {
			t.Errorf("broadcast fit: worst error %.0f%%", 100*f.Report.MaxRel)
		}
	}
	for _, p := range TrainingPatterns {
		if !m.HasPattern(p) {
			t.Errorf("no curve for %s", p)
		}
	}
	// The eager/rendezvous switch of Open MPI's shared-memory transport
	// (4096 B with its header) is a step the fit must find.
	stepped := false
	c := m.Comm[2][PatternVectorShift]
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

func TestAccessAndFallback(t *testing.T) {
	m := &Machine{Ops: map[string]float64{"load": 1e-9, "store": 2e-9}}
	if l, s := m.Access(1 << 30); l != 1e-9 || s != 2e-9 {
		t.Errorf("Access without levels = %g, %g", l, s)
	}
	m.Memory = []MemoryLevel{{Bytes: 1000, Load: 1, Store: 2}, {Bytes: 2000, Load: 3, Store: 4}}
	for _, c := range []struct {
		bytes float64
		load  float64
	}{{10, 1}, {1000, 1}, {1001, 3}, {1e9, 3}} {
		if l, _ := m.Access(c.bytes); l != c.load {
			t.Errorf("Access(%g) load = %g, want %g", c.bytes, l, c.load)
		}
	}
	m.Memory[1].Bytes = 500
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), "memory level 1") {
		t.Errorf("Validate of unsorted levels = %v", err)
	}
	// A model without the open-shift curves prices them as vector shifts.
	m = DefaultMachine()
	for _, p := range []string{PatternOpenShift, PatternOpenShiftStrided, PatternHalo2, PatternHalo4} {
		delete(m.Comm[2], p)
	}
	want, _ := m.CommTime(PatternVectorShift, 4, 4096)
	for _, p := range []string{PatternOpenShift, PatternOpenShiftStrided, PatternHalo2, PatternHalo4} {
		got, err := m.CommTime(p, 4, 4096)
		if err != nil || got != want {
			t.Errorf("CommTime(%s) = %g, %v; want the vector-shift time %g", p, got, err, want)
		}
	}
}

// TestMemoryShare: a loop streams one element per array and iteration at
// the cost of the level that holds its data (scaled by the element size
// against the kernels' 8 bytes), plus the strided extra in a non-unit
// stride loop; its other references reuse cached lines ("load.reuse").
func TestMemoryShare(t *testing.T) {
	m := &Machine{Ops: map[string]float64{"load": 1e-10, "load.reuse": 2e-11, "load.strided": 3e-10},
		Memory: []MemoryLevel{{Bytes: 16384, Load: 1e-10, Store: 1e-10}, {Bytes: 1 << 26, Load: 1e-9, Store: 1e-9}}}
	for _, c := range []struct {
		use  dataUse
		want float64
	}{
		{dataUse{}, 1e-10}, // nothing known: the first level
		{dataUse{bytes: 8000, refs: 6, arrays: 1, elemBytes: 8}, (1e-10 + 5*2e-11) / 6},
		{dataUse{bytes: 1e8, refs: 2, arrays: 2, elemBytes: 4}, (1e-10 + 9e-10) / 2},
		{dataUse{bytes: 1e8, refs: 2, arrays: 2, elemBytes: 8}, 1e-9},
		{dataUse{bytes: 8000, refs: 1, arrays: 1, elemBytes: 8, strided: true}, 3e-10},
	} {
		got, _ := Seconds(machineTable(m, c.use).Memory[0])
		if math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%+v: reference costs %g, want %g", c.use, got, c.want)
		}
	}
	// Without memory levels and reuse times every reference costs "load".
	old := &Machine{Ops: map[string]float64{"load": 5e-10}}
	for _, u := range []dataUse{{}, {bytes: 1e9, refs: 6, arrays: 1, elemBytes: 4, strided: true},
		{bytes: 1e9, refs: 2, arrays: 2, elemBytes: 4}} {
		if got, _ := Seconds(machineTable(old, u).Memory[0]); math.Abs(got-5e-10) > 1e-15 {
			t.Errorf("old model %+v: %g, want 5e-10", u, got)
		}
	}
}

// TestInnermostStride: an innermost loop walks memory with a unit stride
// when its index moves the first subscript by ±1 and no other.
func TestInnermostStride(t *testing.T) {
	src := `      SUBROUTINE S(A, B, N)
      REAL A(N,N), B(N,N)
      DO 10 J = 1, N
         DO 10 I = 2, N - 1
            A(I,J) = B(I-1,J) + B(I+1,J)
   10 CONTINUE
      DO 20 I = 1, N
         DO 20 J = 1, N
            A(I,J) = B(I,J)
   20 CONTINUE
      DO 30 J = 1, N
         DO 30 I = 1, N, 2
            A(I,J) = 0.0
   30 CONTINUE
      END
`
	f := parser.Parse("s.f", []byte(src), nil)
	u := f.Units[0]
	e := &est{f: f, u: u, sc: u.Scope, d: FromUnit(u, 1, ""), opt: Options{Machine: DefaultMachine()}}
	var loops []*parser.DoConstruct
	for _, s := range u.Body {
		if d, ok := s.(*parser.DoConstruct); ok {
			loops = append(loops, d)
		}
	}
	if len(loops) != 3 {
		t.Fatalf("%d loops", len(loops))
	}
	for i, want := range []struct {
		strided      bool
		refs, arrays int
	}{{false, 3, 2}, {true, 2, 2}, {true, 1, 1}} {
		outer := loops[i]
		inner := outer.Body[0].(*parser.DoConstruct)
		var step int64 = 1
		if inner.Do.Step != nil {
			step = 2
		}
		use, ok := e.innermost(inner, inner.Do.Var.Name, step)
		if !ok || use.strided != want.strided || use.refs != want.refs || use.arrays != want.arrays {
			t.Errorf("loop %d: %+v (innermost %v), want strided %v, %d refs of %d arrays", i+1, use, ok, want.strided, want.refs, want.arrays)
		}
		if _, ok := e.innermost(outer, outer.Do.Var.Name, 1); ok {
			t.Errorf("loop %d: the outer loop taken for an innermost one", i+1)
		}
	}
}
