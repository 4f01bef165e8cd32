package partition

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// A hybrid MPI+OpenMP node program: each process takes N/NP of the
// iterations (NP from MPI_COMM_SIZE, the --procs count) and shares them
// among its OpenMP threads.
const hybridSrc = `program hyb
  use mpi
  implicit none
  integer, parameter :: n = 1000000
  real(8) :: a(n), b(n)
  integer :: i, np, ierr
  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
!$omp parallel do
  do i = 1, n / np
    a(i) = a(i) + 2.0d0 * sqrt(b(i))
  end do
!$omp end parallel do
  do i = 1, n / np
    a(i) = a(i) + 2.0d0 * sqrt(b(i))
  end do
  call MPI_Finalize(ierr)
end program hyb
`

// TestHybridTeam: --procs is the number of processes, which the program
// divides its iterations by; the OpenMP team of each is OMP_NUM_THREADS
// (--set) or the cores of a node, not --procs again. With one thread a
// process the OpenMP loop costs what the plain loop does, plus the fork.
func TestHybridTeam(t *testing.T) {
	const p = 16
	f, u := parseOne(t, "hyb.f90", hybridSrc)
	m := machine.DefaultMachine()
	sm, _ := m.Shared()
	est := func(line int, values map[string]*big.Rat) *Estimate {
		return EstimateLoop(f, u, firstLoop(t, u, line, f), FromUnit(u, p, f.Dialect), Options{Machine: m, Procs: p, Values: values})
	}
	plain := secs(t, est(14, nil).Compute)
	one := est(10, map[string]*big.Rat{"OMP_NUM_THREADS": big.NewRat(1, 1)})
	fork := sm.Fork.Time(1)
	if got := secs(t, one.Compute); math.Abs(got-(plain+fork)) > 0.02*plain {
		t.Errorf("one thread a process: %g s, want the plain loop's %g s and the fork's %g s: the work is divided by P once", got, plain, fork)
	}
	if !hasNote(one, "--procs 16 is the number of processes, and each runs the loop's share on 1 thread (OMP_NUM_THREADS)") {
		t.Errorf("notes %q: want the team from OMP_NUM_THREADS", one.Notes)
	}
	four := est(10, map[string]*big.Rat{"OMP_NUM_THREADS": big.NewRat(4, 1)})
	if got := secs(t, four.Compute); got > plain/2 || got < plain/8 {
		t.Errorf("four threads a process: %g s, want about a quarter of the plain loop's %g s", got, plain)
	}
	node := est(10, nil)
	if !hasNote(node, "each runs the loop's share on "+threadsWord(sm.Cores)+" (one a core of a node") {
		t.Errorf("notes %q: want the team of a node's %d cores", node.Notes, sm.Cores)
	}
}

// TestOpenMPLoopLabel: a loop OpenMP shares among threads, in a program
// without data distributions, is not reported as "replicated".
func TestOpenMPLoopLabel(t *testing.T) {
	m := machine.DefaultMachine()
	report := func(name, src string, line int) *LoopReport {
		f, u := parseOne(t, name, src)
		r, err := NewReport(f, parser.Loop{Unit: u, Do: firstLoop(t, u, line, f)}, Options{Machine: m, Procs: 8}, ReportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	omp := `program o
  implicit none
  integer, parameter :: n = 100000
  real(8) :: a(n), b(n)
  integer :: i, k
  do k = 1, 10
!$omp parallel do
    do i = 1, n
      a(i) = a(i) + 2.0d0 * b(i)
    end do
!$omp end parallel do
  end do
end program o
`
	for _, c := range []struct {
		name, src string
		line      int
		want      string
	}{
		{"o.f90", omp, 6, "shared memory (OpenMP threads)"},
		{"o.f90", omp, 8, "shared memory (OpenMP threads)"},
		{"hyb.f90", hybridSrc, 10, "MPI processes, OpenMP threads in each"},
		{"hyb.f90", hybridSrc, 14, "replicated"},
	} {
		r := report(c.name, c.src, c.line)
		if r.Current.Name() != c.want || r.Estimate.Distribution != c.want {
			t.Errorf("%s:%d: current %q (estimate %q), want %q", c.name, c.line, r.Current.Name(), r.Estimate.Distribution, c.want)
		}
	}
}

// TestArrangementNote: a PROCESSORS arrangement of 4 with 16 processors
// asked for is noted (the arrays go over the 16); with 4, nothing.
func TestArrangementNote(t *testing.T) {
	src := `program p4
  integer, parameter :: n = 256
  real :: a(n,n), b(n,n)
  integer :: i, j
!hpf$ processors p(4)
!hpf$ distribute a(*,block) onto p
!hpf$ align b(i,j) with a(i,j)
  do j = 2, n - 1
    do i = 1, n
      a(i,j) = b(i,j-1) + b(i,j+1)
    end do
  end do
end program p4
`
	f, u := parseOne(t, "p4.hpf", src)
	for _, c := range []struct {
		procs int
		want  bool
	}{{16, true}, {4, false}} {
		r, err := NewReport(f, parser.Loop{Unit: u, Do: firstLoop(t, u, 8, f)}, Options{Machine: machine.DefaultMachine(), Procs: c.procs}, ReportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, n := range r.Notes {
			if strings.HasPrefix(n, "PROCESSORS P(4) holds 4 processors, but the estimate is for 16") {
				found = true
			}
		}
		if found != c.want {
			t.Errorf("--procs %d: notes %q; want the arrangement's note: %v", c.procs, r.Notes, c.want)
		}
	}
}
