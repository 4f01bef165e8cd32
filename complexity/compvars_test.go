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
