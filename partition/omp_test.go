package partition

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// ompModel is a machine whose only costs are round numbers, so that the
// tests below can work the expected times out by hand: an iteration costs
// 1 µs and nothing else costs anything; a parallel region 1 + 1·log2 t µs,
// a barrier 0.5 + 0.25·log2 t µs, a reduction 0.1 + 0.1·(t−1) µs, a
// dynamic chunk 0.01·log2 t µs. memory adds two levels (a 1 kB cache,
// then main memory) and bandwidths of 1 GB/s per core, 4 GB/s per socket.
func ompModel(t *testing.T, iteration float64, memory bool) *machine.Machine {
	t.Helper()
	mem := ""
	if memory {
		mem = `"memory": [{"bytes": 1024, "load": 0, "store": 0}, {"bytes": 1073741824, "load": 0, "store": 0}],`
	}
	src := fmt.Sprintf(`{"name": "omp-test", "provenance": {"source": "test"},
	  "ops": {"iteration": %g}, %s "comm": {},
	  "sharedMemory": {"source": "test", "cores": 16, "sockets": 1, "measured": [1, 2],
	    "fork": {"a": 1e-6, "b": 1e-6, "growth": "log"},
	    "barrier": {"a": 5e-7, "b": 2.5e-7, "growth": "log"},
	    "reduction": {"a": 1e-7, "b": 1e-7, "growth": "linear"},
	    "chunk": {"a": 0, "b": 1e-8, "growth": "log"},
	    "coreBandwidth": 1e9, "socketBandwidth": 4e9}}`, iteration, mem)
	m, err := machine.LoadMachine(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// ompEstimate estimates the loop starting on a line of a free-form program.
func ompEstimate(t *testing.T, src string, line, threads int, m *machine.Machine) *Estimate {
	t.Helper()
	f := parser.Parse("omp.f90", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	rs, err := ReportsAt(f, line, Options{Machine: m, Procs: threads}, ReportOptions{})
	if err != nil || len(rs) != 1 {
		t.Fatalf("line %d: %d reports, %v", line, len(rs), err)
	}
	return rs[0].Estimate
}

func ompSeconds(t *testing.T, e *Estimate) float64 {
	t.Helper()
	v, ok := complexity.Seconds(e.Time)
	if !ok {
		t.Fatalf("time %v is not a number", e.Time)
	}
	return v
}

func ompNear(a, b float64) bool { return math.Abs(a-b) <= 1e-12+1e-9*math.Abs(b) }

func hasNote(e *Estimate, sub string) bool {
	for _, n := range e.Notes {
		if strings.Contains(n, sub) {
			return true
		}
	}
	return false
}

const ompUniform = `program p
  integer, parameter :: n = 1000
  real(8) :: a(n), b(n)
  integer :: i
  !$omp parallel do
  do i = 1, n
    a(i) = b(i)
  end do
end program p
`

// STATIC without a chunk: libgomp gives each thread n/t iterations and
// the first n mod t one more, so the busiest runs ceil(1000/16) = 63.
func TestOMPStaticBlock(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	for _, c := range []struct {
		threads int
		want    float64
	}{
		{1, 1000e-6 + 1e-6}, // every iteration, and a region of 1 thread
		{2, 500e-6 + 2e-6},  // 500 each; fork 1 + 1·log2 2
		{16, 63e-6 + 5e-6},  // 63 on the busiest; fork 1 + 1·4
		{7, 143e-6 + 1e-6 + 1e-6*math.Log2(7)},
	} {
		e := ompEstimate(t, ompUniform, 6, c.threads, m)
		if got := ompSeconds(t, e); !ompNear(got, c.want) {
			t.Errorf("%d threads: %.9g s, want %.9g", c.threads, got, c.want)
		}
		if !hasNote(e, "fork and join of the parallel region") || !hasNote(e, fmt.Sprintf("--procs %d is taken as", c.threads)) {
			t.Errorf("%d threads: notes %q", c.threads, e.Notes)
		}
	}
}

// A triangular loop: iteration i of the outer loop costs i + 1 µs (i
// inner iterations and its own). n = 100 on 4 threads; total 5150 µs.
func triangular(schedule string) string {
	return `program p
  integer, parameter :: n = 100
  real(8) :: a(n,n)
  integer :: i, j
  !$omp parallel do ` + schedule + `
  do i = 1, n
    do j = 1, i
      a(i,j) = 0
    end do
  end do
end program p
`
}

func TestOMPTriangularSchedules(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	fork4 := 3e-6
	for _, c := range []struct {
		schedule string
		busiest  float64
	}{
		// Blocks of 25: the last thread takes i = 76..100, Σ(i+1) = 2225.
		{"schedule(static)", 2225e-6},
		// Cyclic: thread 3 takes i = 4, 8, ..., 100: Σ(i+1) = 4·325 + 25.
		{"schedule(static,1)", 1325e-6},
		// Chunks of 25 dealt round-robin are the blocks again.
		{"schedule(static,25)", 2225e-6},
	} {
		e := ompEstimate(t, triangular(c.schedule), 6, 4, m)
		// The loop's time is the busiest thread's share of the whole
		// loop's time (5150 µs of iterations, nothing per loop).
		if got, want := ompSeconds(t, e), c.busiest+fork4; !ompNear(got, want) {
			t.Errorf("%s: %.9g s, want %.9g", c.schedule, got, want)
		}
	}
	// Under STATIC the imbalance shows in the report.
	e := ompEstimate(t, triangular("schedule(static)"), 6, 4, m)
	if !hasNote(e, "1/2.315; even would be 1/4") || !hasNote(e, "each iteration weighed by its time") {
		t.Errorf("notes %q", e.Notes)
	}
}

// DYNAMIC and GUIDED: chunks go to the first free thread, each costing
// the chunk overhead (0.01·log2 4 = 0.02 µs on 4 threads).
func TestOMPDynamicAndGuided(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	src := func(n int, schedule string) string {
		return fmt.Sprintf(`program p
  real(8) :: a(%d)
  integer :: i
  !$omp parallel do %s
  do i = 1, %d
    a(i) = 0
  end do
end program p
`, n, schedule, n)
	}
	c := 0.02e-6
	fork4 := 3e-6
	// 64 equal iterations in chunks of 4: 16 chunks, 4 per thread.
	e := ompEstimate(t, src(64, "schedule(dynamic,4)"), 5, 4, m)
	if got, want := ompSeconds(t, e), 16e-6+4*c+fork4; !ompNear(got, want) {
		t.Errorf("dynamic,4: %.9g s, want %.9g", got, want)
	}
	if !hasNote(e, "dynamic schedule: 4 chunks on the busiest thread") {
		t.Errorf("notes %q", e.Notes)
	}
	// GUIDED on 100: chunks of 25, 19, 14, 11, 8, 6, 5, 3, 3, 2, 1, 1, 1,
	// 1 (ceil(remaining/4)); worked by hand, thread 2 finishes last with
	// 14 + 6 + 3 + 1 + 1 = 25 iterations in 5 chunks.
	e = ompEstimate(t, src(100, "schedule(guided)"), 5, 4, m)
	if got, want := ompSeconds(t, e), 25e-6+5*c+fork4; !ompNear(got, want) {
		t.Errorf("guided: %.9g s, want %.9g", got, want)
	}
}

// !$OMP DO inside a PARALLEL region: one fork and join per region, a
// barrier after each DO unless END DO NOWAIT; an explicit BARRIER costs
// one too.
func TestOMPRegionBarrierNowait(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	src := `program p
  real(8) :: a(64), b(64)
  integer :: i, it
  do it = 1, 10
    !$omp parallel
    !$omp do
    do i = 1, 64
      a(i) = 0
    end do
    !$omp end do
    !$omp barrier
    !$omp do
    do i = 1, 64
      b(i) = 0
    end do
    !$omp end do nowait
    !$omp end parallel
  end do
end program p
`
	e := ompEstimate(t, src, 4, 4, m)
	// Per sweep: fork 3, 16 + barrier 1, barrier 1, 16, and the sweep's
	// own iteration 1 µs.
	if got, want := ompSeconds(t, e), 10*(3e-6+17e-6+1e-6+16e-6+1e-6); !ompNear(got, want) {
		t.Errorf("%.9g s, want %.9g; notes %q", got, want, e.Notes)
	}
	for _, n := range []string{"barrier at the end of the loop at line 7: 1 µs", "no barrier at the end of the loop at line 13 (NOWAIT)", "barrier at line 11 over 4 threads", "fork and join of the parallel region at line 5"} {
		if !hasNote(e, n) {
			t.Errorf("no note %q in %q", n, e.Notes)
		}
	}
	// Outside any region a DO runs on one thread.
	serial := strings.Replace(strings.Replace(src, "!$omp parallel\n", "\n", 1), "!$omp end parallel\n", "\n", 1)
	serial = strings.Replace(serial, "    !$omp barrier\n", "    !$omp parallel\n    !$omp end parallel\n", 1)
	e = ompEstimate(t, serial, 4, 4, m)
	if !hasNote(e, "stands outside every PARALLEL region: it runs on one thread") {
		t.Errorf("notes %q", e.Notes)
	}
}

// REDUCTION: 0.1 + 0.1·(t−1) µs per variable.
func TestOMPReduction(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	src := `program p
  real(8) :: a(64), s, x
  integer :: i
  !$omp parallel do reduction(+:s) reduction(max:x)
  do i = 1, 64
    s = s + a(i)
    x = max(x, a(i))
  end do
end program p
`
	e := ompEstimate(t, src, 5, 4, m)
	if got, want := ompSeconds(t, e), 16e-6+3e-6+2*0.4e-6; !ompNear(got, want) {
		t.Errorf("%.9g s, want %.9g", got, want)
	}
	if !hasNote(e, "reduction of S (+) over 4 threads: 400 ns") || !hasNote(e, "reduction of X (MAX) over 4 threads") {
		t.Errorf("notes %q", e.Notes)
	}
}

// COLLAPSE(2) shares the 16 iterations of a 4×4 nest among 16 threads;
// without it only the 4 outer iterations are shared.
func TestOMPCollapse(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	src := func(clause string) string {
		return `program p
  real(8) :: a(4,4)
  integer :: i, j
  !$omp parallel do ` + clause + `
  do j = 1, 4
    do i = 1, 4
      a(i,j) = 0
    end do
  end do
end program p
`
	}
	fork16 := 5e-6
	// The whole loop: 4 outer iterations of 1 + 4 µs = 20 µs.
	if got, want := ompSeconds(t, ompEstimate(t, src("collapse(2)"), 5, 16, m)), 20e-6/16+fork16; !ompNear(got, want) {
		t.Errorf("collapse(2): %.9g s, want %.9g", got, want)
	}
	if got, want := ompSeconds(t, ompEstimate(t, src(""), 5, 16, m)), 20e-6/4+fork16; !ompNear(got, want) {
		t.Errorf("no collapse: %.9g s, want %.9g", got, want)
	}
}

// A loop whose data lies in main memory streams it: 10⁶ iterations of
// A(I) = B(I) move 16 MB, which take 16 ms at 1 GB/s (one thread), 4 ms
// at the socket's 4 GB/s (4 threads and more); the iterations themselves
// take 1 ms on one thread.
func TestOMPBandwidth(t *testing.T) {
	m := ompModel(t, 1e-9, true)
	src := `program p
  integer, parameter :: n = 1000000
  real(8) :: a(n), b(n)
  integer :: i
  !$omp parallel do
  do i = 1, n
    a(i) = b(i)
  end do
end program p
`
	sm, _ := m.Shared()
	for _, th := range []int{1, 2, 4, 16} {
		e := ompEstimate(t, src, 6, th, m)
		bw := math.Min(float64(th)*1e9, 4e9)
		want := 16e6/bw + sm.Fork.Time(th)
		if got := ompSeconds(t, e); !ompNear(got, want) {
			t.Errorf("%d threads: %.9g s, want %.9g", th, got, want)
		}
		if !hasNote(e, "16 MB per execution from main memory") || !hasNote(e, "memory-bound") {
			t.Errorf("%d threads: notes %q", th, e.Notes)
		}
	}
}

// Properties over thread counts: a compute-bound loop's time never grows
// from 1 thread to the model's cores; a memory-bound one never drops
// below its traffic over the bandwidth of its threads.
func TestOMPScalingProperties(t *testing.T) {
	compute := ompModel(t, 1e-6, false)
	sm, _ := compute.Shared()
	prev := math.Inf(1)
	for th := 1; th <= sm.Cores; th++ {
		got := ompSeconds(t, ompEstimate(t, ompUniform, 6, th, compute))
		if got > prev {
			t.Errorf("compute-bound: %d threads take %.6g s, more than %d threads (%.6g s)", th, got, th-1, prev)
		}
		prev = got
	}
	// Beyond the cores the threads share them: no faster than the cores.
	if got := ompSeconds(t, ompEstimate(t, ompUniform, 6, 2*sm.Cores, compute)); got < 1000e-6/float64(sm.Cores) {
		t.Errorf("%d threads on %d cores: %.6g s, faster than the cores allow", 2*sm.Cores, sm.Cores, got)
	}
	memory := ompModel(t, 1e-9, true)
	src := strings.Replace(ompUniform, "n = 1000", "n = 1000000", 1)
	for th := 1; th <= 2*sm.Cores; th++ {
		got := ompSeconds(t, ompEstimate(t, src, 6, th, memory))
		if floor := 16e6 / sm.Bandwidth(th); got < floor {
			t.Errorf("memory-bound: %d threads take %.6g s, below the bandwidth's %.6g s", th, got, floor)
		}
	}
}

// A model file without the shared-memory section still estimates OpenMP
// loops, with the built-in model's figures, and says so.
func TestOMPOldModel(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	m.SharedMemory = nil
	e := ompEstimate(t, ompUniform, 6, 16, m)
	def, _ := machine.DefaultMachine().Shared()
	if got, want := ompSeconds(t, e), 63e-6+def.Fork.Time(16); !ompNear(got, want) {
		t.Errorf("%.9g s, want %.9g", got, want)
	}
	if !hasNote(e, "has no shared-memory section") {
		t.Errorf("notes %q", e.Notes)
	}
}

// BenchmarkOMPTriangular weighs the 10⁶ iterations of a triangular loop
// one by one (the most an estimate does; past ompLimit it takes the even
// share).
func BenchmarkOMPTriangular(b *testing.B) {
	src := strings.Replace(triangular("schedule(dynamic,4)"), "n = 100", "n = 1000000", 1)
	f := parser.Parse("omp.f90", []byte(src), nil)
	m := machine.DefaultMachine()
	for i := 0; i < b.N; i++ {
		if _, err := ReportsAt(f, 6, Options{Machine: m, Procs: 16}, ReportOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// A blocked matrix multiply touches 3 tiles of 64×64 doubles (96 kB) per
// tile nest, which fit in a core's share of an 8 MB cache among 16
// threads (512 kB): its traffic is the tiles, (1024/64)³ × 98,304 B =
// 403 MB, and at 10 ns an iteration it is compute-bound. The same multiply
// untiled streams a column of C and of A per inner loop, 1024² × 16,392 B
// = 17.2 GB, and is memory-bound.
func TestOMPBlockedFootprint(t *testing.T) {
	src := `{"name": "omp-test", "provenance": {"source": "test"}, "ops": {"iteration": 1e-8},
	  "memory": [{"bytes": 8388608, "load": 0, "store": 0}, {"bytes": 1073741824, "load": 0, "store": 0}], "comm": {},
	  "sharedMemory": {"source": "test", "cores": 16, "fork": {"a": 0, "b": 0, "growth": "log"},
	    "barrier": {"a": 0, "b": 0, "growth": "log"}, "reduction": {"a": 0, "b": 0, "growth": "log"},
	    "chunk": {"a": 0, "b": 0, "growth": "log"}, "coreBandwidth": 1e9, "socketBandwidth": 4e9}}`
	m, err := machine.LoadMachine(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	blocked := `program p
  integer, parameter :: n = 1024, bs = 64
  real(8) :: a(n,n), b(n,n), c(n,n)
  integer :: i, j, k, ii, jj, kk
  !$omp parallel do
  do jj = 1, n, bs
    do kk = 1, n, bs
      do ii = 1, n, bs
        do j = jj, jj + bs - 1
          do k = kk, kk + bs - 1
            do i = ii, ii + bs - 1
              c(i,j) = c(i,j) + a(i,k) * b(k,j)
            end do
          end do
        end do
      end do
    end do
  end do
end program p
`
	e := ompEstimate(t, blocked, 6, 16, m)
	if !hasNote(e, "memory bandwidth: 403 MB per execution") || !hasNote(e, "less than the busiest thread's") {
		t.Errorf("blocked: notes %q", e.Notes)
	}
	untiled := `program p
  integer, parameter :: n = 1024
  real(8) :: a(n,n), b(n,n), c(n,n)
  integer :: i, j, k
  !$omp parallel do
  do j = 1, n
    do k = 1, n
      do i = 1, n
        c(i,j) = c(i,j) + a(i,k) * b(k,j)
      end do
    end do
  end do
end program p
`
	e = ompEstimate(t, untiled, 6, 16, m)
	if !hasNote(e, "memory bandwidth: 17.2 GB per execution") || !hasNote(e, "the loop is memory-bound") {
		t.Errorf("untiled: notes %q", e.Notes)
	}
	if got, want := ompSeconds(t, e), 1024.0*1024*16392/4e9; !ompNear(got, want) {
		t.Errorf("untiled: %.9g s, want the bandwidth's %.9g", got, want)
	}
}

// A chunk size given as a PARAMETER is read from the program.
func TestOMPChunkParameter(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	src := `program p
  integer, parameter :: n = 100, cs = 25
  real(8) :: a(n,n)
  integer :: i, j
  !$omp parallel do schedule(static, cs)
  do i = 1, n
    do j = 1, i
      a(i,j) = 0
    end do
  end do
end program p
`
	// Chunks of 25 dealt round-robin on 4 threads are the blocks: the
	// last takes i = 76..100, Σ(i+1) = 2225 µs, and the fork 3 µs.
	e := ompEstimate(t, src, 6, 4, m)
	if got, want := ompSeconds(t, e), 2225e-6+3e-6; !ompNear(got, want) || !hasNote(e, "schedule static,CS = 25") {
		t.Errorf("%.9g s, want %.9g; notes %q", got, want, e.Notes)
	}
}

// Iterations of equal time under STATIC,k and DYNAMIC,k are dealt in
// closed form; the same iterations given one by one go through the
// simulation (first free thread). Both must agree on the busiest
// thread's finishing time, its chunks and the total, for every small
// case, and use no budget in closed form.
func TestOMPRoundRobinMatchesSimulation(t *testing.T) {
	const ct = 0.25
	for _, kind := range []string{schedStatic, schedDynamic} {
		for n := int64(1); n <= 40; n++ {
			for k := int64(1); k <= 7; k++ {
				for th := 1; th <= 9; th++ {
					o := &ompInfo{kind: kind, chunk: k}
					list := make([]float64, n)
					for i := range list {
						list[i] = 1
					}
					budget := 1 << 20
					b1, t1, c1, ok1 := ompSchedule(ompRun{n: float64(n), w: 1}, o, th, ct, &budget)
					if budget != 1<<20 {
						t.Fatalf("%s n=%d k=%d t=%d: closed form used budget", kind, n, k, th)
					}
					b2, t2, c2, ok2 := ompSchedule(ompRun{list: list, n: float64(n)}, o, th, ct, &budget)
					if !ok1 || !ok2 {
						t.Fatalf("%s n=%d k=%d t=%d: not ok", kind, n, k, th)
					}
					cct := ct
					if kind == schedStatic {
						cct = 0
					}
					if b1+c1*cct != b2+c2*cct || t1 != t2 || c1 != c2 {
						t.Errorf("%s n=%d k=%d t=%d: closed form %g+%g chunks, simulated %g+%g chunks", kind, n, k, th, b1, c1, b2, c2)
					}
				}
			}
		}
	}
}

// Loops whose iterations or chunks are far too many to deal out one by
// one are answered from closed forms or the even share, never by walking
// them: a chunk of 10⁹ on 10¹² iterations (1000 chunks, 63 on the first
// 8 of 16 threads), 10⁶ dynamic chunks on 65536 threads, and a dynamic
// loop re-dealt for each of 10⁵ iterations of an enclosing loop.
func TestOMPHugeLoopsBounded(t *testing.T) {
	m := ompModel(t, 1e-9, false)
	src := func(sched, hi string, outer bool) string {
		s := "program p\n  real(8) :: a(10)\n  integer(8) :: i, k\n"
		if outer {
			s += "  do k = 1, 100000\n"
		} else {
			s += "  k = 0\n"
		}
		s += "  !$omp parallel do " + sched + "\n  do i = 1, " + hi + "\n    a(1) = a(1) + 1\n  end do\n"
		if outer {
			s += "  end do\n"
		}
		return s + "end program p\n"
	}
	e := ompEstimate(t, src("schedule(static,1000000000)", "1000000000000_8", false), 6, 16, m)
	if !hasNote(e, "the busiest thread does 6.3% (1/15.87") {
		t.Errorf("static,10⁹: notes %q", e.Notes)
	}
	e = ompEstimate(t, src("schedule(dynamic)", "1000000", false), 6, 65536, m)
	if !hasNote(e, "16 chunks on the busiest thread") {
		t.Errorf("dynamic on 65536 threads: notes %q", e.Notes)
	}
	e = ompEstimate(t, src("schedule(dynamic)", "1000000 + k", true), 4, 4, m)
	if !hasNote(e, "over the 100000 iterations of the K loop") || !hasNote(e, "does 25% (1/4) of the work") {
		t.Errorf("dynamic in a loop: notes %q", e.Notes)
	}
	e = ompEstimate(t, src("schedule(guided)", "1000000 + k", true), 4, 4096, m)
	if !hasNote(e, "even share: too many iterations or chunks") {
		t.Errorf("guided in a loop: notes %q", e.Notes)
	}
}

// Times in notes are decimals with a unit, never exponents: a loop of
// 10¹² dynamic chunks takes tens of thousands of seconds.
func TestOMPHumanUnits(t *testing.T) {
	for _, c := range []struct {
		s    float64
		want string
	}{
		{0, "0 s"}, {2.5e-9, "2.5 ns"}, {306e-9, "306 ns"}, {1.47e-6, "1.47 µs"},
		{19.2, "19.2 s"}, {999, "999 s"}, {76400.4, "76400 s"}, {123456789, "123000000 s"},
	} {
		if got := humanSec(c.s); got != c.want {
			t.Errorf("humanSec(%g) = %q, want %q", c.s, got, c.want)
		}
	}
	if got := humanBytes(2.5e15); got != "2.5 PB" {
		t.Errorf("humanBytes(2.5e15) = %q", got)
	}
}

// A chunk that is a number but not a positive integer is named as such
// (OpenMP requires chunk_size > 0); one that is not a number says what
// would make it one. DYNAMIC's share is the last thread to finish's.
func TestOMPChunkNotes(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	src := func(sched string) string {
		return "program p\n  real(8) :: a(64)\n  integer :: i, k\n  read *, k\n  !$omp parallel do " + sched + "\n  do i = 1, 64\n    a(i) = 0\n  end do\nend program p\n"
	}
	for _, c := range []struct{ sched, want string }{
		{"schedule(static,0)", "the chunk size 0 is 0, not a positive integer"},
		{"schedule(dynamic,-3)", "the chunk size -3 is -3, not a positive integer"},
		{"schedule(dynamic,k)", "the chunk size K is not a number (a PARAMETER or a --set value would be)"},
		{"schedule(dynamic,4)", "the thread that finishes last (its chunks' overheads counted) does 25% (1/4)"},
		{"schedule(runtime)", "schedule runtime (priced as static), 4 threads"},
		{"schedule(dyn)", "schedule dyn (not an OpenMP schedule: static, dynamic, guided, auto or runtime; priced as static)"},
	} {
		e := ompEstimate(t, src(c.sched), 6, 4, m)
		if !hasNote(e, c.want) {
			t.Errorf("%s: notes %q", c.sched, e.Notes)
		}
	}
	// K set once before the loop (K = 4) is that number (unitdefs.go).
	set := strings.Replace(src("schedule(dynamic,k)"), "read *, k", "k = 4", 1)
	e := ompEstimate(t, set, 6, 4, m)
	if !hasNote(e, "schedule dynamic,K = 4, 4 threads") || !hasNote(e, "K, assigned once at line 4, is 4") {
		t.Errorf("k = 4: notes %q", e.Notes)
	}
}

// COLLAPSE over a rectangular nest of equal iterations is dealt in closed
// form however large: 10⁸ iterations in chunks of 4 on 16 threads are
// 1,562,500 chunks on each thread, and their overheads count. A
// triangular collapsed nest too large to weigh says that its chunks were
// left out.
func TestOMPCollapseRectangularDynamic(t *testing.T) {
	m := ompModel(t, 1e-9, false)
	src := func(inner string) string {
		return "program p\n  integer, parameter :: n = 10000\n  real(8) :: a(n,n)\n  integer :: i, j\n  !$omp parallel do collapse(2) schedule(dynamic,4)\n  do i = 1, n\n    do j = 1, " + inner + "\n      a(j,i) = 0\n    end do\n  end do\nend program p\n"
	}
	e := ompEstimate(t, src("n"), 6, 16, m)
	if !hasNote(e, "dynamic schedule: 1562500 chunks on the busiest thread") || !hasNote(e, "2 loops collapsed, iterations of equal time") {
		t.Errorf("rectangular: notes %q", e.Notes)
	}
	// A 16th of the 10⁸ + 10⁴ iterations (the inner loop's and the outer
	// one's) of 1 ns, the chunks at 0.01·log2 16 µs each, the fork 1 + 4 µs.
	if got, want := ompSeconds(t, e), (1e8+1e4)*1e-9/16+1562500*0.04e-6+5e-6; !ompNear(got, want) {
		t.Errorf("rectangular: %.9g s, want %.9g", got, want)
	}
	e = ompEstimate(t, src("i"), 6, 16, m)
	if !hasNote(e, "the chunks were not dealt out, so their overheads") {
		t.Errorf("triangular: notes %q", e.Notes)
	}
}

// NUM_THREADS sets the team, whatever --procs says: on a PARALLEL DO, on
// the region an !$OMP DO runs in (and its BARRIER), as a constant or a
// PARAMETER. 64 equal iterations of 1 µs on the 4 threads of the clause
// rather than --procs 16.
func TestOMPNumThreads(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	const pdo = `program p
  integer, parameter :: nt = 4
  real(8) :: a(64)
  integer :: i
  !$omp parallel do num_threads(nt)
  do i = 1, 64
    a(i) = 0
  end do
end program p
`
	e := ompEstimate(t, pdo, 6, 16, m)
	// 16 iterations, fork 1 + 1·log2 4 µs.
	if got, want := ompSeconds(t, e), 16e-6+3e-6; !ompNear(got, want) {
		t.Errorf("PARALLEL DO: %.9g s, want %.9g; notes %q", got, want, e.Notes)
	}
	if !hasNote(e, "NUM_THREADS(NT) at line 5 makes the team 4 threads, whatever --procs (16) says") {
		t.Errorf("PARALLEL DO: notes %q", e.Notes)
	}
	const region = `program p
  real(8) :: a(64)
  integer :: i, it
  do it = 1, 10
    !$omp parallel num_threads(2)
    !$omp do
    do i = 1, 64
      a(i) = 0
    end do
    !$omp barrier
    !$omp end parallel
  end do
end program p
`
	e = ompEstimate(t, region, 4, 16, m)
	// Per sweep: its own iteration (1 µs), fork 1 + 1 µs, 32 iterations,
	// the DO's barrier and the explicit one 0.5 + 0.25 µs each, all on 2
	// threads.
	if got, want := ompSeconds(t, e), 10*(1e-6+2e-6+32e-6+2*0.75e-6); !ompNear(got, want) {
		t.Errorf("region: %.9g s, want %.9g; notes %q", got, want, e.Notes)
	}
	e = ompEstimate(t, strings.Replace(pdo, "num_threads(nt)", "num_threads(k)", 1), 6, 16, m)
	if !hasNote(e, "NUM_THREADS(K) at line 5 is not a positive number here: --procs 16 is taken") {
		t.Errorf("unknown NUM_THREADS: notes %q", e.Notes)
	}
}

// A PARALLEL DO inside a PARALLEL region is a nested region: with nested
// parallelism off (the default) each thread of the region runs all of it
// in a team of 1, so its 64 iterations take 64 µs, plus a fork of 1
// thread (1 µs), not a 16th of them.
func TestOMPNestedParallelDo(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	src := `program p
  real(8) :: a(64)
  integer :: i
  !$omp parallel
  !$omp parallel do
  do i = 1, 64
    a(i) = 0
  end do
  !$omp end parallel
end program p
`
	e := ompEstimate(t, src, 6, 16, m)
	if got, want := ompSeconds(t, e), 64e-6+1e-6; !ompNear(got, want) {
		t.Errorf("%.9g s, want %.9g; notes %q", got, want, e.Notes)
	}
	if !hasNote(e, "stands inside the PARALLEL region of line 4: nested parallelism is off by default") {
		t.Errorf("notes %q", e.Notes)
	}
}

// TestOMPTileWeights: a parallel tile loop whose inner loops have MIN
// bounds weighs each tile by its own work. 100 = 6 × 16 + 4: seven
// tiles, one per thread at 8 threads; the busiest thread's full tile is
// 16% of the work, not the 1/7 of equal iterations, so the speed-up is
// 6.25, not 7.
func TestOMPTileWeights(t *testing.T) {
	src := `program tiles
  integer, parameter :: n = 100, bs = 16
  real(8) :: a(n,n), c(n,n)
  integer :: i, j, jj
  !$omp parallel do private(i, j)
  do jj = 1, n, bs
    do j = jj, min(jj + bs - 1, n)
      do i = 1, n
        c(i,j) = c(i,j) + a(i,j)
      end do
    end do
  end do
  !$omp end parallel do
end program tiles
`
	m := ompModel(t, 1e-6, false)
	one := ompSeconds(t, ompEstimate(t, src, 6, 1, m))
	e := ompEstimate(t, src, 6, 8, m)
	if !hasNote(e, "the busiest thread does 16% (1/6.25") {
		t.Errorf("notes %q: want the busiest thread at 16%%", e.Notes)
	}
	if s := one / ompSeconds(t, e); s < 6.2 || s > 6.26 {
		t.Errorf("speed-up %g at 8 threads, want 6.25 (the full tile of 16 columns of 100)", s)
	}
}

// TestOMPScatterTraffic: a scatter-add's indirect reference costs a
// stream of main-memory traffic only when its array does not stay in the
// cache. Over 10⁶ reals (4 MB), 16 bins (64 bytes) add nothing: 4 MB per
// execution; 10⁶ bins (4 MB) add their own stream: 8 MB. 64 bins (256
// bytes) are exactly a core's share of the 1 kB cache among 4 threads
// and still stay in it.
func TestOMPScatterTraffic(t *testing.T) {
	prog := func(nbins int) string {
		return fmt.Sprintf(`program hist
  integer, parameter :: ns = 1000000, nbins = %d
  real :: x(ns)
  integer :: hist(nbins), i, b
  !$omp parallel do private(b) reduction(+:hist)
  do i = 1, ns
    b = 1 + int(x(i) * (nbins - 1))
    hist(b) = hist(b) + 1
  end do
  !$omp end parallel do
end program hist
`, nbins)
	}
	m := ompModel(t, 1e-12, true)
	for _, c := range []struct {
		nbins int
		bytes string
	}{{16, "4 MB per execution"}, {64, "4 MB per execution"}, {1000000, "8 MB per execution"}} {
		e := ompEstimate(t, prog(c.nbins), 6, 4, m)
		if !hasNote(e, "memory bandwidth: "+c.bytes) {
			t.Errorf("%d bins: notes %q, want %s of memory traffic", c.nbins, e.Notes, c.bytes)
		}
	}
}

// TestOMPIfClause: IF(expr) on a PARALLEL DO or a PARALLEL region, and
// IF(PARALLEL: expr), run the region on one thread where expr is false
// (OpenMP 5.2 10.1.1): the loop then takes its time on one thread (a
// team of one, as at --procs 1); where it is true, or not known (priced as true and
// said), it is shared as without the clause. The clause was ignored.
func TestOMPIfClause(t *testing.T) {
	m := machine.DefaultMachine()
	prog := func(dir, end string) string {
		return `program p
  integer, parameter :: n = 100000
  real :: a(n)
  logical :: big
  integer :: i
  ` + dir + `
  do i = 1, n
    a(i) = 2.0 * a(i)
  end do
  ` + end + `
end program
`
	}
	run := func(dir, end string, threads int) (float64, []string) {
		src := prog(dir, end)
		e := ompEstimate(t, src, strings.Count(src[:strings.Index(src, "do i = 1, n")], "\n")+1, threads, m)
		return ompSeconds(t, e), e.Notes
	}
	shared, _ := run("!$omp parallel do", "", 4)
	serial, _ := run("!$omp parallel do", "", 1)
	for _, c := range []struct {
		dir, end string
		want     float64
		note     string
	}{
		{"!$omp parallel do if(n > 1000)", "", shared, ""},
		{"!$omp parallel do if(n < 1000)", "", serial, "IF(N<1000) at line 6 is false here: the region runs on one thread"},
		{"!$omp parallel do if(parallel: n .lt. 1000)", "", serial, "is false here"},
		{"!$omp parallel do if(.false.)", "", serial, "is false here"},
		{"!$omp parallel do if(big .and. n > 10)", "", shared, "IF(BIG.AND.N>10) at line 6 is not known here: priced as true, on 4 threads"},
		{"!$omp parallel do if(big .and. n < 10)", "", serial, "is false here"},
	} {
		got, notes := run(c.dir, c.end, 4)
		if want := c.want; math.Abs(got-want) > 1e-3*want {
			t.Errorf("%s: %g s, want %g s (shared %g s, serial %g s)", c.dir, got, c.want, shared, serial)
		}
		if c.note != "" && !notesHave(notes, c.note) {
			t.Errorf("%s: no note %q in %q", c.dir, c.note, notes)
		}
	}
	// A region's IF gives its DO a team of one.
	regionFalse, notes := run("!$omp parallel if(n < 1000)\n  !$omp do", "!$omp end do\n  !$omp end parallel", 4)
	regionTrue, _ := run("!$omp parallel if(n > 1000)\n  !$omp do", "!$omp end do\n  !$omp end parallel", 4)
	if !notesHave(notes, "is false here") || regionFalse < 3*regionTrue {
		t.Errorf("region IF false: %g s, true: %g s (notes %q); want about 4 times as long", regionFalse, regionTrue, notes)
	}
}
