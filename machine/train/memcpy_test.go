package train

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
)

// TestMemcpyKernelByHand: the copy kernel takes 1, 2 and 4 ns an element
// at 16 KiB, 1 MiB and 64 MiB, so a reference costs half of it (the add
// kernel, 3 ns, is slower): load 0.5 ns and levels of 0.5, 1 and 2 ns.
// The memcpy kernel takes 0.1, 0.3 and 1.5 ns per 8 bytes at the same
// sizes: "copy.memcpy" is the first, 0.1 ns, and each level gets the
// memcpy time at its size, not the copy kernel's ratios (which would
// give 0.1, 0.2, 0.4 ns).
func TestMemcpyKernelByHand(t *testing.T) {
	in := "pfls-train 1\nprocs 1\n" +
		"kernel copy 16384 1e-9\nkernel memcpy 16384 1e-10\n" +
		"kernel copy 1048576 2e-9\nkernel memcpy 1048576 3e-10\n" +
		"kernel copy 67108864 4e-9\nkernel memcpy 67108864 1.5e-9\n" +
		"kernel add 16384 3e-9\ndone\n"
	run, err := ParseTraining(strings.NewReader(in), "x", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := run.Kernels["memcpy"][1048576]; got != 3e-10 {
		t.Fatalf("memcpy at 1 MiB read as %g, want 3e-10", got)
	}
	m, _, err := BuildMachine([]*TrainingRun{run}, machine.Provenance{Source: "pfls train"}, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := m.Ops["copy.memcpy"]; !ok || got != 1e-10 {
		t.Errorf("copy.memcpy = %g (present %v), want 1e-10", got, ok)
	}
	if got := m.Ops["load"]; !within(got, 0.5e-9, 1e-12) {
		t.Errorf("load = %g, want 5e-10 (the memcpy kernel does not change it)", got)
	}
	want := []machine.MemoryLevel{
		{Bytes: 16384, Load: 0.5e-9, Store: 0.5e-9, Memcpy: 1e-10},
		{Bytes: 1048576, Load: 1e-9, Store: 1e-9, Memcpy: 3e-10},
		{Bytes: 67108864, Load: 2e-9, Store: 2e-9, Memcpy: 1.5e-9},
	}
	if len(m.Memory) != len(want) {
		t.Fatalf("memory levels %+v, want %+v", m.Memory, want)
	}
	for i, w := range want {
		g := m.Memory[i]
		if g.Bytes != w.Bytes || !within(g.Load, w.Load, 1e-12) || !within(g.Store, w.Store, 1e-12) || g.Memcpy != w.Memcpy {
			t.Errorf("level %d: %+v, want %+v", i, g, w)
		}
	}
}

// TestMemcpyKernelMissingSizes: a level at a size the memcpy kernel did
// not run at takes the time of the nearest size measured below it, and a
// level below every measured size the smallest's. Levels at 8 KiB, 64
// KiB, 1 MiB and 64 MiB, memcpy at 16 KiB (0.1 ns) and 1 MiB (0.3 ns):
// 0.1, 0.1, 0.3 and 0.3 ns; copy.memcpy 0.1 ns.
func TestMemcpyKernelMissingSizes(t *testing.T) {
	ops := map[string]float64{}
	mem := []machine.MemoryLevel{{Bytes: 8192}, {Bytes: 65536}, {Bytes: 1 << 20}, {Bytes: 1 << 26}}
	memcpyOf(map[int64]float64{1 << 20: 3e-10, 16384: 1e-10}, ops, mem)
	if ops["copy.memcpy"] != 1e-10 {
		t.Errorf("copy.memcpy = %g, want 1e-10", ops["copy.memcpy"])
	}
	for i, want := range []float64{1e-10, 1e-10, 3e-10, 3e-10} {
		if mem[i].Memcpy != want {
			t.Errorf("level %d (%d B): memcpy %g, want %g", i, mem[i].Bytes, mem[i].Memcpy, want)
		}
	}
}

// TestMemcpyKernelAbsent: the output of a training set without the
// memcpy kernel (the fixture predates it) gives no "copy.memcpy" and no
// memcpy times on the levels, so the estimator keeps pricing copy loops
// as before.
func TestMemcpyKernelAbsent(t *testing.T) {
	run := loadTrainingFixture(t)
	if len(run.Kernels["memcpy"]) != 0 {
		t.Fatalf("the fixture has memcpy times %v", run.Kernels["memcpy"])
	}
	m, _, err := BuildMachine([]*TrainingRun{run}, machine.Provenance{Source: "pfls train"}, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := m.Ops["copy.memcpy"]; ok {
		t.Errorf("copy.memcpy = %g, want none", v)
	}
	for i, l := range m.Memory {
		if l.Memcpy != 0 {
			t.Errorf("level %d: memcpy %g, want 0", i, l.Memcpy)
		}
	}
}

// TestTrainingProgramHasMemcpy: the training set runs the memcpy kernel
// at every working set of the copy kernel and prints it as a kernel line
// (the C source is not compiled in the unit tests).
func TestTrainingProgramHasMemcpy(t *testing.T) {
	for _, want := range []string{
		`case K_MEMCPY: memcpy(y, x, (size_t)n * sizeof *y); break;`,
		`"kernel memcpy %ld", ws[i]`,
		`(struct job){K_MEMCPY, ws[i] / 16, lines[njobs], 1, INFINITY}`,
	} {
		if !strings.Contains(TrainingProgram, want) {
			t.Errorf("pfls-train.c lacks %q", want)
		}
	}
}
