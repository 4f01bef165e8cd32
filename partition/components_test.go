package partition

import (
	"math"
	"strings"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
)

// loopSeconds estimates the loop that starts at the first line of src
// holding marker, in the last unit, on one processor.
func loopSeconds(t *testing.T, src, marker string) (float64, []string) {
	t.Helper()
	f, _ := parseOne(t, "c.f90", src)
	u := f.Units[len(f.Units)-1]
	line := strings.Count(src[:strings.Index(src, marker)], "\n") + 1
	e := EstimateLoop(f, u, firstLoop(t, u, line, f), FromUnit(u, 1, ""), Options{Machine: machine.DefaultMachine(), Procs: 1})
	v, ok := complexity.Seconds(e.Compute)
	if !ok {
		t.Fatalf("%s: the time %s is not a number (notes %q)", marker, e.Compute, e.Notes)
	}
	return v, e.Notes
}

// heatWith is a 2-D heat program whose grid sizes and arrays are plain
// variables, or the components of a structure G (components true), as
// modern programs keep them.
func heatWith(components bool) string {
	if !components {
		return `subroutine step(u, unew, nx, ny, alpha)
  integer, intent(in) :: nx, ny
  real, intent(inout) :: u(0:nx+1, 0:ny+1), unew(0:nx+1, 0:ny+1)
  real, intent(in) :: alpha
  integer :: i, j
  do j = 1, ny
    do i = 1, nx
      unew(i,j) = u(i,j) + alpha * (u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1) - 4.0 * u(i,j))
    end do
  end do
end subroutine
program heat
  integer, parameter :: nx = 256, ny = 128
  real :: u(0:nx+1, 0:ny+1), unew(0:nx+1, 0:ny+1)
  integer :: it
  u = 0.0
  do it = 1, 100
    call step(u, unew, nx, ny, 0.1)
  end do
  print *, u(1, 1)
end program
`
	}
	return `module gm
  type grid
    integer :: nx, ny
    real, allocatable :: u(:,:), unew(:,:)
  end type
contains
  subroutine step(g, alpha)
    type(grid), intent(inout) :: g
    real, intent(in) :: alpha
    integer :: i, j
    do j = 1, g%ny
      do i = 1, g%nx
        g%unew(i,j) = g%u(i,j) + alpha * (g%u(i-1,j) + g%u(i+1,j) + g%u(i,j-1) + g%u(i,j+1) - 4.0 * g%u(i,j))
      end do
    end do
  end subroutine
end module
program heat
  use gm
  type(grid) :: g
  integer :: it
  g%nx = 256
  g%ny = 128
  allocate(g%u(0:g%nx+1, 0:g%ny+1), g%unew(0:g%nx+1, 0:g%ny+1))
  g%u = 0.0
  do it = 1, 100
    call step(g, 0.1)
  end do
  print *, g%u(1, 1)
end program
`
}

// TestComponentGrid: the same heat program with its sizes and arrays in
// a structure is estimated as the plain one. G%NX = 256 and G%NY = 128,
// each set once in the main program (STEP writes G%UNEW only, and the
// PRINT of G%U(1, 1) sets nothing), are the loop bounds in STEP, and
// the elements of G%U and G%UNEW are priced as U's and UNEW's. The
// estimate was one iteration of each loop, with the component elements
// priced without their memory (70 ps a point where the plain program
// takes 747 ps).
func TestComponentGrid(t *testing.T) {
	plain, _ := loopSeconds(t, heatWith(false), "do it = 1, 100")
	comp, notes := loopSeconds(t, heatWith(true), "do it = 1, 100")
	if plain < 100*256*128*1e-10 || math.Abs(comp-plain) > 1e-3*plain {
		t.Errorf("with components %g s, plain %g s: want the same (notes %q)", comp, plain, notes)
	}
	if !notesHave(notes, "G%NX, assigned once at line") {
		t.Errorf("notes %q: G%%NX's value not given", notes)
	}
}

// TestDoConcurrentRange: DO CONCURRENT (J = 1:M) runs M iterations, as
// the DO loop over the same range does (it was estimated for one).
func TestDoConcurrentRange(t *testing.T) {
	prog := func(loop, end string) string {
		return "subroutine s(c)\n  integer, parameter :: m = 500\n  real :: c(m)\n  integer :: j\n  " + loop + "\n    c(j) = c(j) / 3.0\n  " + end + "\nend subroutine\n"
	}
	do, _ := loopSeconds(t, prog("do j = 1, m", "end do"), "do j")
	conc, notes := loopSeconds(t, prog("do concurrent (j = 1:m)", "end do"), "do concurrent")
	if math.Abs(conc-do) > 1e-3*do || notesHave(notes, "without a counted range") {
		t.Errorf("DO CONCURRENT %g s, DO %g s: want the same (notes %q)", conc, do, notes)
	}
}

// TestCallSetsValue: a top-level CALL of a subroutine of the file that
// sets its argument to a known value sets it as an assignment would:
// CALL SETUP(N), whose SETUP assigns N = 300, makes the loop to N run
// 300 times, as N = 300 does; CALL INIT(G, 256, 128), whose INIT assigns
// G%NX = NX and G%NY = NY, gives the heat program the plain program's
// time. Both were symbols without a value.
func TestCallSetsValue(t *testing.T) {
	prog := func(set string) string {
		return `subroutine setup(n)
  integer n
  n = 300
end subroutine
program p
  integer n, i
  real x(1000)
  ` + set + `
  do i = 1, n
    x(i) = x(i) * 2.0
  end do
  print *, x(1)
end program
`
	}
	direct, _ := loopSeconds(t, prog("n = 300"), "do i = 1, n")
	called, notes := loopSeconds(t, prog("call setup(n)"), "do i = 1, n")
	if math.Abs(called-direct) > 1e-6*direct || !notesHave(notes, "N, set by CALL SETUP at line 8, is 300") {
		t.Errorf("after CALL SETUP(N) %g s, after N = 300 %g s: want the same (notes %q)", called, direct, notes)
	}
	src := strings.Replace(heatWith(true), "  g%nx = 256\n  g%ny = 128\n", "  call init(g, 256, 128)\n", 1)
	src = strings.Replace(src, "contains\n", `contains
  subroutine init(g, nx, ny)
    type(grid), intent(inout) :: g
    integer, intent(in) :: nx, ny
    g%nx = nx
    g%ny = ny
  end subroutine
`, 1)
	plain, _ := loopSeconds(t, heatWith(false), "do it = 1, 100")
	comp, notes := loopSeconds(t, src, "do it = 1, 100")
	if math.Abs(comp-plain) > 1e-3*plain || !notesHave(notes, "G%NX, set by CALL INIT at line") {
		t.Errorf("with CALL INIT %g s, plain %g s: want the same (notes %q)", comp, plain, notes)
	}
}

// TestComponentDefAliases: G%NX = 256, set once at the top, is not the
// estimate's value of G%NX where another name may change it afterwards:
// a type-bound CALL or function of G (its passed object), an associate
// name of G, or a pointer to G (G a TARGET). Each took G%NX = 256.
func TestComponentDefAliases(t *testing.T) {
	for _, tc := range []struct{ name, decl, change string }{
		{"type-bound CALL", "  type(grid) :: g\n", "  call g%resize(512)\n"},
		{"type-bound function", "  type(grid) :: g\n  integer :: k\n", "  k = g%resized(512)\n"},
		{"associate name", "  type(grid) :: g\n", "  associate (h => g)\n    h%nx = 512\n  end associate\n"},
		{"pointer to G", "  type(grid), target :: g\n  type(grid), pointer :: p\n", "  p => g\n  p%nx = 512\n"},
	} {
		src := heatWith(true)
		src = strings.Replace(src, "  type(grid) :: g\n", tc.decl, 1)
		src = strings.Replace(src, "  g%ny = 128\n", "  g%ny = 128\n"+tc.change, 1)
		_, notes := loopSecondsAny(t, src, "do it = 1, 100")
		if notesHave(notes, "G%NX, assigned once at line") {
			t.Errorf("%s: G%%NX taken as 256 (notes %q)", tc.name, notes)
		}
	}
}

// loopSecondsAny is loopSeconds where the time may be a formula.
func loopSecondsAny(t *testing.T, src, marker string) (Poly, []string) {
	t.Helper()
	f, _ := parseOne(t, "c.f90", src)
	u := f.Units[len(f.Units)-1]
	line := strings.Count(src[:strings.Index(src, marker)], "\n") + 1
	e := EstimateLoop(f, u, firstLoop(t, u, line, f), FromUnit(u, 1, ""), Options{Machine: machine.DefaultMachine(), Procs: 1})
	return e.Compute, e.Notes
}

// TestComponentDefIntentOut: a CALL whose dummy is INTENT(OUT) changes
// the whole structure (Fortran 2018 8.5.10: undefined on entry, the
// default-initialized components reset), not only the components the
// callee assigns: G%NY = 128 before CALL RESET(G), which sets G%NX only,
// is NY's default 0 after it, not 128.
func TestComponentDefIntentOut(t *testing.T) {
	src := heatWith(true)
	src = strings.Replace(src, "    integer :: nx, ny\n", "    integer :: nx = 0, ny = 0\n", 1)
	src = strings.Replace(src, "contains\n", "contains\n  subroutine reset(g)\n    type(grid), intent(out) :: g\n    g%nx = 256\n  end subroutine\n", 1)
	src = strings.Replace(src, "  g%ny = 128\n", "  g%ny = 128\n  call reset(g)\n", 1)
	_, notes := loopSecondsAny(t, src, "do it = 1, 100")
	if notesHave(notes, "G%NY, assigned once at line") {
		t.Errorf("G%%NY taken as 128 after CALL RESET(G) (notes %q)", notes)
	}
}

// TestComponentDefPassedComponent: a component passed alone to a CALL
// that may set it is not a set-up value: G%NX = 256, then CALL
// SETN(G%NX, 512) (or by keyword, CALL SETN(K=G%NX, V=512)) makes G%NX
// 512; the estimate took 256 (only whole variables were counted as
// actual arguments set, and none by keyword).
func TestComponentDefPassedComponent(t *testing.T) {
	for _, call := range []string{"call setn(g%nx, 512)", "call setn(k=g%nx, v=512)"} {
		src := heatWith(true)
		src = strings.Replace(src, "contains\n", "contains\n  subroutine setn(k, v)\n    integer :: k, v\n    k = v\n  end subroutine\n", 1)
		src = strings.Replace(src, "  g%ny = 128\n", "  g%ny = 128\n  "+call+"\n", 1)
		_, notes := loopSecondsAny(t, src, "do it = 1, 100")
		if notesHave(notes, "G%NX, assigned once at line") {
			t.Errorf("%s: G%%NX taken as 256 (notes %q)", call, notes)
		}
	}
}

// TestOutputImpliedDoIndexSet: an output statement sets the index of
// its implied DO (Fortran 2018 12.6.3): after I = 5 and PRINT *, (A(I),
// I = 1, 10), I is 11, so I is no set-up value (its items are not set,
// their implied DOs' indices are).
func TestOutputImpliedDoIndexSet(t *testing.T) {
	_, notes := loopSecondsAny(t, `program p
  integer :: i, k
  real :: a(100), s
  i = 5
  a = 1.0
  print *, (a(i), i = 1, 10)
  s = 0.0
  do k = 1, i
    s = s + a(k)
  end do
  print *, s
end program
`, "do k = 1, i")
	if notesHave(notes, "I, assigned once at line") {
		t.Errorf("I taken as 5 after the implied DO (notes %q)", notes)
	}
}
