package complexity

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// compvarsModule is a grid type that keeps its size in an integer
// component, as modern programs do, with routines that set it, read it,
// change another component, or change the size.
const compvarsModule = `module gm
  type grid
    integer :: n
    real, allocatable :: u(:)
  end type
contains
  subroutine init(g, n)
    type(grid), intent(inout) :: g
    integer, intent(in) :: n
    g%n = n
  end subroutine
  subroutine sweep(g, x)
    type(grid), intent(in) :: g
    real :: x(*)
    integer :: i
    do i = 1, g%n
      x(i) = 0.0
    end do
  end subroutine
  subroutine touch(g)
    type(grid), intent(inout) :: g
    g%u(1) = 0.0
  end subroutine
  subroutine grow(g)
    type(grid), intent(inout) :: g
    g%n = g%n + 1
  end subroutine
end module
`

// callCost is the cost of the index-th CALL of name in unit u.
func callCost(t *testing.T, rs []*UnitResult, unit, name string, index int) string {
	t.Helper()
	for _, r := range rs {
		if r.Unit.Name != unit {
			continue
		}
		k := 0
		for _, s := range r.Statements {
			if c, ok := s.Stmt.(*parser.CallStmt); ok && c.Name.Name == name {
				if k == index {
					return s.Cost.String()
				}
				k++
			}
		}
	}
	t.Fatalf("no CALL %s number %d in %s", name, index, unit)
	return ""
}

// TestComponentBound: DO I = 1, G%N over an integer component of a
// structure counts G%N iterations, as DO I = 1, N counts N: 2 a pass and
// 1 for the last test, 2·G%N + 1 (it was an unknown). Through CALL
// INIT(G, 100) the caller knows G%N = 100 and SWEEP costs 201; GROW
// adds one (203 after it); TOUCH changes another component only and
// G%N stays 100; a routine whose body is not in view may change all of
// G, and G%N is not known after it.
func TestComponentBound(t *testing.T) {
	rs := NewEngine(Options{}).File(parser.Parse("g.f90", []byte(compvarsModule+`
program p
  use gm
  type(grid) :: g
  real :: x(1000)
  call init(g, 100)
  call sweep(g, x)
  call touch(g)
  call sweep(g, x)
  call grow(g)
  call sweep(g, x)
  call other(g)
  call sweep(g, x)
end program
`), nil))
	var sweep *UnitResult
	for _, r := range rs {
		if r.Unit.Name == "SWEEP" {
			sweep = r
		}
	}
	if sweep == nil || !strings.HasPrefix(sweep.Summary.String(), "2*G%N + 1") {
		t.Fatalf("SWEEP costs %v, want 2*G%%N + 1", sweep)
	}
	for i, want := range []string{"201", "201", "203"} {
		if got := callCost(t, rs, "P", "SWEEP", i); got != want {
			t.Errorf("CALL SWEEP number %d costs %s, want %s", i+1, got, want)
		}
	}
	if got := callCost(t, rs, "P", "SWEEP", 3); !strings.Contains(got, "UNKNOWN_") {
		t.Errorf("after CALL OTHER(G), SWEEP costs %s: G%%N taken as known", got)
	}
}

// TestComponentInLoop: a loop that calls SWEEP, which only reads G, keeps
// G%N known inside it (each call 201); one that calls GROW does not, as
// G%N changes from pass to pass.
func TestComponentInLoop(t *testing.T) {
	rs := NewEngine(Options{}).File(parser.Parse("g.f90", []byte(compvarsModule+`
program p
  use gm
  type(grid) :: g
  real :: x(1000)
  integer :: k
  call init(g, 100)
  do k = 1, 3
    call sweep(g, x)
    call touch(g)
  end do
  do k = 1, 3
    call grow(g)
    call sweep(g, x)
  end do
end program
`), nil))
	if got := callCost(t, rs, "P", "SWEEP", 0); got != "201" {
		t.Errorf("SWEEP in a loop with TOUCH costs %s, want 201", got)
	}
	if got := callCost(t, rs, "P", "SWEEP", 1); !strings.Contains(got, "UNKNOWN_") {
		t.Errorf("SWEEP in a loop with GROW costs %s: G%%N taken as fixed", got)
	}
}

// TestComponentAssigned: in a routine given G, G%N = 5 makes the loop
// cost 11; G%N = G%N * 2 makes it 4·G%N + 1 in terms of G%N on entry;
// G%N given a value that is not a polynomial (a real's NINT) leaves no
// count in terms of G%N on entry, which it no longer holds.
func TestComponentAssigned(t *testing.T) {
	for _, c := range []struct{ stmt, want string }{
		{"g%n = 5", "11"},
		{"g%n = g%n * 2", "4*G%N + 1"},
		{"g%n = nint(x(1))", "2*UNKNOWN_1 + 1"},
	} {
		rs := NewEngine(Options{}).File(parser.Parse("g.f90", []byte(compvarsModule+`
subroutine s(g, x)
  use gm
  type(grid) :: g
  real :: x(*)
  integer :: i
  `+c.stmt+`
  do i = 1, g%n
    x(i) = 0.0
  end do
end subroutine
`), nil))
		r := rs[len(rs)-1]
		if got := loopOver(t, r, "I"); !strings.HasPrefix(got, c.want) {
			t.Errorf("after %s the loop costs %s, want %s", c.stmt, got, c.want)
		}
	}
}

// TestComponentElementCost: an element of an array component costs as an
// element of a plain array: the 5-point update over G%U costs what the
// same update over U costs (40 in the all-one table: it was 33, the
// seven element references priced without their index computations).
func TestComponentElementCost(t *testing.T) {
	r := analyseFree(t, `subroutine s(g, u, unew, alpha)
  type grid
    real, allocatable :: u(:,:), unew(:,:)
  end type
  type(grid) :: g
  real :: u(0:9, 0:9), unew(0:9, 0:9), alpha
  integer :: i, j
  i = 2
  j = 2
  g%unew(i,j) = g%u(i,j) + alpha * (g%u(i-1,j) + g%u(i+1,j) + g%u(i,j-1) + g%u(i,j+1) - 4.0 * g%u(i,j))
  unew(i,j) = u(i,j) + alpha * (u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1) - 4.0 * u(i,j))
end subroutine
`)
	var costs []string
	for _, s := range r.Statements {
		if a, ok := s.Stmt.(*parser.AssignStmt); ok {
			if _, isElem := a.LHS.(*parser.Call); isElem {
				costs = append(costs, s.Cost.String())
			}
		}
	}
	if len(costs) != 2 || costs[0] != costs[1] || costs[0] == "33" {
		t.Errorf("component update, plain update: %v, want two equal costs", costs)
	}
}

// TestAllocatedComponent: a deferred-shape component the unit allocates
// once has the ALLOCATE's shape: ALLOCATE (G%U(0:NX+1, 0:NY+1)) makes
// G%U = 0.0 (NX + 2)·(NY + 2) stores; it was an unknown number. Bounds
// that read a size the unit sets (G%M = NX, then G%U(G%M)) or a second
// ALLOCATE leave it unknown.
func TestAllocatedComponent(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"  allocate(g%u(0:nx+1, 0:ny+1))\n  g%u = 0.0\n", "NX.NY + 2*NX + 2*NY + 4"},
		{"  g%m = nx\n  allocate(g%u(g%m, ny))\n  g%u = 0.0\n", "UNKNOWN_1"},
		{"  allocate(g%u(nx, ny))\n  deallocate(g%u)\n  allocate(g%u(ny, nx))\n  g%u = 0.0\n", "UNKNOWN_1"},
	} {
		r := analyseFree(t, `subroutine init(g, nx, ny)
  type grid
    integer :: m
    real, allocatable :: u(:,:)
  end type
  type(grid), intent(inout) :: g
  integer, intent(in) :: nx, ny
`+c.body+`end subroutine
`)
		last := r.Statements[len(r.Statements)-1]
		if got := last.Cost.String(); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: G%%U = 0.0 costs %s, want %s", c.body, got, c.want)
		}
	}
}

// TestComponentAliases: a component stays a variable only while no
// other name can change it. Each program sets G%N (or Q%N) to a known
// value, changes it through another name or a procedure pfls does not
// follow, then runs DO I = 1, G%N over X(I) = 0.0: 2 an iteration and 1
// for the last test. The count must not keep the old value (what it
// kept is in the comment); it is an unknown number of iterations.
func TestComponentAliases(t *testing.T) {
	const typ = "  type grid\n    integer :: n\n  end type\n"
	for _, tc := range []struct{ name, src string }{
		// Q%N = 7 then Q => B (B%N = 1000): 15 with Q%N = 7.
		{"pointer assignment", "program p\n" + typ + "  type(grid), target :: a, b\n  type(grid), pointer :: q\n  real :: x(2000)\n  integer :: i\n" +
			"  b%n = 1000\n  q => a\n  q%n = 7\n  q => b\n  do i = 1, q%n\n    x(i) = 0.0\n  end do\nend program\n"},
		// Through a pointer to G (Fortran 2018 19.5.2.1): 21 with G%N = 10.
		{"pointer to the structure", "program p\n" + typ + "  type(grid), target :: g\n  type(grid), pointer :: q\n  real :: x(2000)\n  integer :: i\n" +
			"  g%n = 10\n  q => g\n  q%n = 1000\n  do i = 1, g%n\n    x(i) = 0.0\n  end do\nend program\n"},
		// An associate name of G (11.1.3.3): 21 with G%N = 10.
		{"associate name of the structure", "program p\n" + typ + "  type(grid) :: g\n  real :: x(2000)\n  integer :: i\n" +
			"  g%n = 10\n  associate (h => g)\n    h%n = 1000\n  end associate\n  do i = 1, g%n\n    x(i) = 0.0\n  end do\nend program\n"},
		{"associate name of the component", "program p\n" + typ + "  type(grid) :: g\n  real :: x(2000)\n  integer :: i\n" +
			"  g%n = 10\n  associate (m => g%n)\n    m = 1000\n  end associate\n  do i = 1, g%n\n    x(i) = 0.0\n  end do\nend program\n"},
		// A type-bound function and subroutine may change their object
		// (the passed-object dummy, 7.5.4.5): 21 with G%N = 10.
		{"type-bound function", "module m\n" + typ + "contains\n  integer function add(self, k)\n    type(grid) :: self\n    integer :: k\n    self%n = self%n + k\n    add = self%n\n  end function\nend module\n" +
			"program p\n  use m\n  type(grid) :: g\n  real :: x(2000)\n  integer :: i, v\n  g%n = 10\n  v = g%add(5)\n  do i = 1, g%n\n    x(i) = 0.0\n  end do\nend program\n"},
		{"type-bound subroutine", "program p\n" + typ + "  type(grid) :: g\n  real :: x(2000)\n  integer :: i\n" +
			"  g%n = 10\n  call g%resize(5)\n  do i = 1, g%n\n    x(i) = 0.0\n  end do\nend program\n"},
	} {
		rs := NewEngine(Options{}).File(parser.Parse("a.f90", []byte(tc.src), nil))
		r := rs[len(rs)-1]
		if got := loopOver(t, r, "I"); !strings.HasPrefix(got, "2*UNKNOWN_") {
			t.Errorf("%s: DO I = 1, G%%N costs %s, want 2*UNKNOWN_... + 1", tc.name, got)
		}
	}
}

// TestComponentAfterWholeChange: a formal structure G whose component
// G%N the unit assigns no longer has G%N's value on entry once G may
// change as a whole, as a formal N assigned in the unit does not.
// G%N = 2·G%N, then CALL EXT(G) (not in view): the loop counted
// 2·G%N iterations on entry (4·G%N + 1); it is unknown. The recursive
// REC increments G%N after a call of itself that may have changed it:
// REC's out-value G%N + 1 was wrong, and P's loop after CALL REC(G, 3)
// with G%N = 12 counted 13 iterations (27) where there are 16.
func TestComponentAfterWholeChange(t *testing.T) {
	r := analyseFree(t, `subroutine s(g, x)
  type grid
    integer :: n
  end type
  type(grid) :: g
  real :: x(*)
  integer :: i
  g%n = 2*g%n
  call ext(g)
  do i = 1, g%n
    x(i) = 0.0
  end do
end subroutine
`)
	if got := loopOver(t, r, "I"); !strings.HasPrefix(got, "2*UNKNOWN_") {
		t.Errorf("after CALL EXT(G): DO I = 1, G%%N costs %s, want 2*UNKNOWN_... + 1", got)
	}
	rs := NewEngine(Options{}).File(parser.Parse("r.f90", []byte(`module m
  type grid
    integer :: n
  end type
contains
  recursive subroutine rec(g, d)
    type(grid) :: g
    integer :: d
    if (d > 0) call rec(g, d - 1)
    g%n = g%n + 1
  end subroutine
end module
program p
  use m
  type(grid) :: g
  real :: x(100)
  integer :: i
  g%n = 12
  call rec(g, 3)
  do i = 1, g%n
    x(i) = 0.0
  end do
end program
`), nil))
	if got := loopOver(t, rs[len(rs)-1], "I"); got == "27" || !strings.HasPrefix(got, "2*UNKNOWN_") {
		t.Errorf("after CALL REC(G, 3): DO I = 1, G%%N costs %s, want 2*UNKNOWN_... + 1", got)
	}
}

// TestIntentOutStructure: an INTENT(OUT) dummy is undefined on entry
// and its default-initialized components take their defaults (Fortran
// 2018 8.5.10): after CALL RESET(G), which assigns only G%NX, G%NY is 4
// (its default), not the caller's 100 (201 for DO I = 1, G%NY). pfls
// takes G as changed whole: an unknown count.
func TestIntentOutStructure(t *testing.T) {
	rs := NewEngine(Options{}).File(parser.Parse("o.f90", []byte(`module m
  type grid
    integer :: nx
    integer :: ny = 4
  end type
contains
  subroutine reset(g)
    type(grid), intent(out) :: g
    g%nx = 9
  end subroutine
end module
program p
  use m
  type(grid) :: g
  real :: x(100)
  integer :: i
  g%ny = 100
  call reset(g)
  do i = 1, g%ny
    x(i) = 0.0
  end do
end program
`), nil))
	if got := loopOver(t, rs[len(rs)-1], "I"); !strings.HasPrefix(got, "2*UNKNOWN_") {
		t.Errorf("after CALL RESET(G): DO I = 1, G%%NY costs %s, want 2*UNKNOWN_... + 1", got)
	}
}

// TestComponentTypeEditInvalidates: a unit's count depends on the type
// definitions of its file (G%N is a variable only while N is an INTEGER
// scalar), so an edit of a type in another unit must not leave a cached
// count behind. P's loop runs G%N = 12 times while N is an INTEGER: 1
// for G%N = 12, 2·12 + 1 for the loop, 26; with N REAL, G%N is no count
// and the loop's range is unknown, as a new engine says.
func TestComponentTypeEditInvalidates(t *testing.T) {
	prog := `program p
  use m
  type(grid) :: g
  real :: x(100)
  integer :: i
  g%n = 12
  do i = 1, g%n
    x(i) = 0.0
  end do
end program
`
	src := func(typ string) []byte {
		return []byte("module m\n  type grid\n    " + typ + " :: n\n  end type\nend module\n" + prog)
	}
	e := NewEngine(Options{})
	if got := e.File(parser.Parse("a.f90", src("integer"), nil))[1].Summary.String(); got != "26" {
		t.Fatalf("INTEGER N: P costs %s, want 26", got)
	}
	got := e.File(parser.Parse("a.f90", src("real"), nil))[1].Summary.String()
	if want := NewEngine(Options{}).File(parser.Parse("a.f90", src("real"), nil))[1].Summary.String(); got != want || got == "26" {
		t.Errorf("REAL N after INTEGER N: P costs %s, a new engine %s (not 26)", got, want)
	}
}
