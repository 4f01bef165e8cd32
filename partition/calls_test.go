package partition

import (
	"fmt"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
)

// loopCompute estimates the loop on the given line of the file's first
// unit on one processor: its computation in seconds, and its notes.
func loopCompute(t *testing.T, name, src string, line int) (float64, []string) {
	t.Helper()
	f, u := parseOne(t, name, src)
	e := EstimateLoop(f, u, firstLoop(t, u, line, f), FromUnit(u, 1, ""), Options{Machine: machine.DefaultMachine(), Procs: 1})
	v, ok := complexity.Seconds(e.Compute)
	if !ok {
		t.Fatalf("%s: computation %s is not a number", name, e.Compute)
	}
	return v, e.Notes
}

// TestCallsInFile: a loop that calls a subroutine of the same file, or
// references one of its functions, pays the procedure's work, with the
// call's arguments (a count, an array's extent for an assumed shape); it
// was priced as the call's arguments alone. The notes say how it is
// priced and that MPI calls inside it are not estimated.
func TestCallsInFile(t *testing.T) {
	prog := func(n int) string {
		return fmt.Sprintf(`program p
  real :: x(%d), s
  integer :: it
  do it = 1, 10
    call scale(x, %d)
    s = total(x)
    call halo(x)
  end do
contains
  subroutine scale(a, n)
    integer :: n, i
    real :: a(n)
    !$omp parallel do
    do i = 1, n
      a(i) = 2.0 * a(i)
    end do
  end subroutine
  real function total(v)
    real :: v(:)
    total = sum(v)
  end function
  subroutine halo(a)
    real :: a(:)
    integer :: ierr
    call mpi_bcast(a, 1, mpi_real, 0, mpi_comm_world, ierr)
  end subroutine
end program
`, n, n)
	}
	m := machine.DefaultMachine()
	small, notes := loopCompute(t, "n1000.f90", prog(1000), 4)
	big, _ := loopCompute(t, "n2000.f90", prog(2000), 4)
	// SCALE: a load, a multiply and a store an element; TOTAL (SUM over
	// V, whose extent is X's): a load and an add an element. Ten calls
	// of each: at least 10 × n × (2 loads + a multiply + an add).
	floor := 10 * 1000 * (2*m.Op("load") + m.Op("mul") + m.Op("add"))
	if small < floor {
		t.Errorf("n = 1000: computation %g s, want at least %g s (the callees' work)", small, floor)
	}
	// The work is linear in the extent the calls pass: doubling it
	// doubles what depends on it.
	if d := big - small; d < 0.99*(small-0)/2 || d > 1.01*small {
		t.Errorf("n = 1000: %g s, n = 2000: %g s; want the difference near the first", small, big)
	}
	if notesHave(notes, "inside TOTAL (OpenMP") {
		t.Errorf("TOTAL has no parallel loop: %q", notes)
	}
	for _, want := range []string{
		"SCALE is priced by its operation count",
		"TOTAL is priced by its operation count",
		"the communication inside HALO (MPI_BCAST) is not estimated",
		"the parallel loops inside SCALE (OpenMP, INDEPENDENT, DO CONCURRENT, FORALL) are priced as one processor's work",
	} {
		if !notesHave(notes, want) {
			t.Errorf("no note %q in %q", want, notes)
		}
	}
}

// TestProcsCacheOneVersion: the counts kept for a file are replaced when
// a new version of it (a new parse) is estimated, so an editor's old
// trees are not kept alive, and at most four files are kept.
func TestProcsCacheOneVersion(t *testing.T) {
	m := machine.DefaultMachine()
	src := "program p\ncall s\ncontains\nsubroutine s\nend subroutine\nend program\n"
	f1, _ := parseOne(t, "a.f90", src)
	f2, _ := parseOne(t, "a.f90", src)
	p1 := procsOf(f1, m)
	if procsOf(f1, m) != p1 {
		t.Error("the same file and machine did not reuse their counts")
	}
	procsOf(f2, m)
	procsCache.Lock()
	for _, x := range procsCache.entries {
		if x.f == f1 {
			t.Error("the old version of a.f90 is still kept")
		}
	}
	procsCache.Unlock()
	for i := range 6 {
		g, _ := parseOne(t, fmt.Sprintf("f%d.f90", i), src)
		procsOf(g, m)
	}
	procsCache.Lock()
	if n := len(procsCache.entries); n > 4 {
		t.Errorf("%d files kept, want at most 4", n)
	}
	procsCache.Unlock()
}

// TestCallsInFileIndexAndLeftOut: a callee whose work depends on the
// loop index it is passed is summed over the loop (ROW(I) does I
// updates: 500,500 over I = 1..1000, half of ROW(1000)'s 1,000,000, so
// the time is half, within 1%); a recursive callee and a name two
// procedures of the file share are left out, with their notes, and the
// time stays a number.
func TestCallsInFileIndexAndLeftOut(t *testing.T) {
	src := func(arg string) string {
		return `program p
  real :: a(1000, 1000), b(1000)
  integer :: i
  do i = 1, 1000
    call row(` + arg + `, a)
    call sortr(b, 1000)
  end do
contains
  subroutine row(k, a)
    integer :: k, j
    real :: a(1000, 1000)
    do j = 1, k
      a(j, k) = 2.0 * a(j, k)
    end do
  end subroutine
  recursive subroutine sortr(a, n)
    integer :: n
    real :: a(n)
    if (n > 1) call sortr(a, n / 2)
    a(1) = a(n)
  end subroutine
end program
`
	}
	opt := Options{Machine: machine.DefaultMachine(), Procs: 1}
	tri, notes := loopCompute(t, "row-i.f90", src("i"), 4)
	full, _ := loopCompute(t, "row-1000.f90", src("1000"), 4)
	if r := tri / full; r < 0.5005*0.99 || r > 0.5005*1.01 {
		t.Errorf("ROW(I) %g s, ROW(1000) %g s: ratio %.4f, want 0.5005", tri, full, r)
	}
	if !notesHave(notes, "the work of SORTR, called at line 6, depends on values pfls does not know there") {
		t.Errorf("no note that SORTR is left out: %q", notes)
	}
	two := `module m1
contains
  subroutine step(a)
    real :: a(1000)
    integer :: i
    do i = 1, 1000
      a(i) = 0.0
    end do
  end subroutine
end module
module m2
contains
  subroutine step(a)
    real :: a(1000)
    a(1) = 0.0
  end subroutine
end module
program p
  use m2
  real :: a(1000)
  integer :: it
  do it = 1, 10
    call step(a)
  end do
end program
`
	f, _ := parseOne(t, "two.f90", two)
	u := f.Units[2]
	e := EstimateLoop(f, u, firstLoop(t, u, 22, f), FromUnit(u, 1, ""), opt)
	if !notesHave(e.Notes, "the file defines more than one procedure named STEP: its call at line 23 is not priced") {
		t.Errorf("no note that STEP is ambiguous: %q", e.Notes)
	}
}

// TestCallsInFileConcurrent: estimates of one file at once (as the
// server runs them) share its callees' counts safely (go test -race).
func TestCallsInFileConcurrent(t *testing.T) {
	src := `program p
  real :: a(1000)
  integer :: it
  do it = 1, 10
    call scale(a, 1000)
  end do
contains
  subroutine scale(a, n)
    integer :: n, i
    real :: a(n)
    do i = 1, n
      a(i) = 2.0 * a(i)
    end do
  end subroutine
end program
`
	f, u := parseOne(t, "conc.f90", src)
	opt := Options{Machine: machine.DefaultMachine(), Procs: 1}
	loop := firstLoop(t, u, 4, f)
	want := secs(t, EstimateLoop(f, u, loop, FromUnit(u, 1, ""), opt).Compute)
	errs := make(chan string, 8)
	done := make(chan bool)
	for range 8 {
		go func() {
			e := EstimateLoop(f, u, loop, FromUnit(u, 1, ""), opt)
			if v, ok := complexity.Seconds(e.Compute); !ok || v != want {
				errs <- fmt.Sprintf("%s, want %g s", e.Compute, want)
			}
			done <- true
		}()
	}
	for range 8 {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
