package complexity

import (
	"strings"
	"testing"
)

// componentsModule defines the types of TestModernArrayCounts: FIELD's V
// is 64×64 (a module constant), W deferred-shape, N a scalar; PARTICLE
// has scalar components only. SQ is a user ELEMENTAL function costing 4
// in the all-one table (X loaded twice, a multiply, the result stored).
const componentsModule = `module m
  implicit none
  integer, parameter :: nmax = 64
  type :: field
     real :: v(nmax, nmax)
     real, allocatable :: w(:)
     integer :: n
  end type
  type :: particle
     real :: x, y
  end type
contains
  elemental real function sq(x)
    real, intent(in) :: x
    sq = x*x
  end function
  subroutine t(f, p, np, a, b)
    type(field), intent(inout) :: f
    integer, intent(in) :: np
    type(particle), intent(inout) :: p(np)
    real :: a(100), b(100), s
    integer :: k
    k = 1
    STMT
  end subroutine
end module
`

// TestModernArrayCounts: array assignments and reductions over what
// modern Fortran names arrays by: structure components (their rank is
// the type definition's, Fortran 2018 9.4.2), associate names
// (11.1.3.3), array constructors (built once, 7.8) and user ELEMENTAL
// functions (15.8.2). Each was priced as one element before. Counts by
// hand in the all-one table.
func TestModernArrayCounts(t *testing.T) {
	cases := []struct{ stmt, want string }{
		{"f%v = 0.0", "4096"}, // 64*64 stores of 1
		// An element of an array component costs as an element of an
		// array does: its store and, of rank 2, the index computation
		// of its second dimension (it cost the store alone).
		{"f%v(1:10, :) = 1.0", "1280"},   // 10*64 elements of (1 store + 1 index)
		{"f%v(2:nmax:2, 1) = 1.0", "64"}, // 32 elements, one column
		{"f%v(1, 1) = s", "3"},           // one element: a scalar assignment
		{"s = sum(f%v)", "8193"},         // 4096*(1 load + 1 +) + 1 store
		{"p%x = p%x + 1.0", "3*NP"},      // NP elements of (1 + 1 + 1)
		{"f%w = 2.0", "UNKNOWN_1"},       // deferred shape: an unknown count
		// The constructor once: 100 items of (1 load K + 0 REAL + 1 **),
		// then 100 stores (it was 100*(200 + 1)).
		{"a = [ (real(k)**2, k = 1, 100) ]", "300"},
		{"a = b + [ (1.0, k = 1, 100) ]", "300"}, // 100*(1 load + 1 + + 1 store); the items cost 0
		{"s = sum(sq(a))", "501"},                // 100*(4 SQ + 1 +) + 1 store
		{"b = sq(a)", "500"},                     // 100*(4 SQ + 1 store)
	}
	for _, c := range cases {
		src := strings.Replace(componentsModule, "STMT", c.stmt, 1)
		f := parseSrc(t, src)
		var got string
		for _, r := range NewEngine(Options{}).File(f) {
			for _, st := range r.Statements {
				if f.Lines.Line(r.Unit.Abs(st.Stmt.Pos())) == strings.Count(src[:strings.Index(src, c.stmt)], "\n") {
					got = st.Cost.String()
				}
			}
		}
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.stmt, got, c.want)
		}
	}
}

// TestAssociateCounts: an associate name has its selector's shape: a
// whole array's, a section's, a component's (Fortran 2018 11.1.3.3).
// Counts by hand in the all-one table.
func TestAssociateCounts(t *testing.T) {
	cases := []struct{ sel, stmt, want string }{
		// An element of W is an element of a rank-2 array: 1 memory + 1
		// second dimension, loaded or stored.
		{"w => a", "w = 0.0", "10000"},                       // 100*50*2
		{"w => a(2:99, 2:49)", "w = 0.0", "9408"},            // 98*48*2
		{"w => a(2:99, 2:49)", "w = b(2:99, 2:49)", "18816"}, // 98*48*(2 load + 2 store)
		{"w => a(1:n, 1)", "s = sum(w)", "2*N + 1"},          // N*(1 load + 1 +) + 1
		{"w => a(1, 1)", "w = 2.0", "1"},                     // an element: a scalar
		{"w => b(1:10, 1:10) + 1.0", "s = maxval(w)", "301"}, // 100*(2 load + 1 MAX) + 1
	}
	for _, c := range cases {
		src := "subroutine t(a, b, n)\n  real :: a(100, 50), b(100, 50), s\n  integer :: n\n  associate (" + c.sel + ")\n    " +
			c.stmt + "\n  end associate\nend subroutine\n"
		f := parseSrc(t, src)
		var got string
		r := NewEngine(Options{}).File(f)[0]
		for _, st := range r.Statements {
			if f.Lines.Line(r.Unit.Abs(st.Stmt.Pos())) == 4 {
				got = st.Cost.String()
			}
		}
		if got != c.want {
			t.Errorf("associate (%s); %s: %s, want %s", c.sel, c.stmt, got, c.want)
		}
	}
}

// TestAllocatedCounts: an array of deferred shape has the bounds of the
// unit's one ALLOCATE of it when the unit never assigns the names they
// use; allocated twice, or with a bound the unit assigns, its number of
// elements stays unknown. Counts by hand in the all-one table (a store
// to a rank-2 element: 1 memory + 1 second dimension).
func TestAllocatedCounts(t *testing.T) {
	cases := []struct{ alloc, stmt, want string }{
		{"allocate(u(n, m))", "u = 0.0", "2*M.N"},
		{"allocate(u(0:n+1, m))", "u = 0.0", "2*M.N + 4*M"},
		{"allocate(u(nmax, nmax))", "u(1, :) = 1.0", "128"},                                   // 64 elements of 2
		{"allocate(u(n, m), stat=ierr)", "s = sum(u)", "3*M.N + 1"},                           // M*N*(2 load + 1 +) + 1
		{"allocate(u(n, m))\n  deallocate(u)\n  allocate(u(m, n))", "u = 0.0", "2*UNKNOWN_1"}, // two shapes
		{"k = n + 1\n  allocate(u(k, m))", "u = 0.0", "2*M.N + 2*M"},                          // K's one assignment comes first
		{"k = n\n  k = k + 1\n  allocate(u(k, m))", "u = 0.0", "2*UNKNOWN_1"},                 // K assigned twice
	}
	for _, c := range cases {
		src := "subroutine t(n, m)\n  integer, parameter :: nmax = 64\n  integer :: n, m, k, ierr\n  real :: s\n" +
			"  real, allocatable :: u(:,:)\n  " + c.alloc + "\n  " + c.stmt + "\nend subroutine\n"
		f := parseSrc(t, src)
		line := strings.Count(src[:strings.Index(src, c.stmt)], "\n")
		var got string
		r := NewEngine(Options{}).File(f)[0]
		for _, st := range r.Statements {
			if f.Lines.Line(r.Unit.Abs(st.Stmt.Pos())) == line {
				got = st.Cost.String()
			}
		}
		if got != c.want {
			t.Errorf("%s; %s: %s, want %s", c.alloc, c.stmt, got, c.want)
		}
	}
}

// TestAssignedUnknownShared: a local assigned a value that is not a
// polynomial (NLOC = N / NP, NP set by MPI_COMM_SIZE) is one unknown at
// every use the assignment reaches: the loop's trip count and the
// section's elements are the same UNKNOWN_1 (each was an unknown of its
// own). A second assignment makes another unknown; an assignment no
// count uses (I = I + 1) makes none.
func TestAssignedUnknownShared(t *testing.T) {
	src := `subroutine t(n)
  integer :: n, np, nloc, j, ierr, i
  real, allocatable :: x(:)
  real :: s
  call mpi_comm_size(0, np, ierr)
  i = 0
  i = i + 1
  nloc = n / np
  allocate(x(nloc))
  do j = 1, nloc
     x(j) = 1.0
  end do
  x(1:nloc) = 0.0
  s = sum(x)
  nloc = n / (np + 1)
  x(1:nloc) = 2.0
end subroutine
`
	f := parseSrc(t, src)
	r := NewEngine(Options{}).File(f)[0]
	want := map[int]string{
		10: "2*UNKNOWN_1 + 1", // the DO: (1 store + 1 J) a trip, and the bound
		13: "UNKNOWN_1 + 1",   // NLOC elements of 1 store, and the bound NLOC loaded once
		// NLOC is assigned twice, so X's ALLOCATE does not give its
		// extent for the whole unit: an unknown of its own.
		14: "2*UNKNOWN_2 + 1",
		16: "UNKNOWN_3 + 1", // the second assignment's value
	}
	got := map[int]string{}
	for _, st := range r.Statements {
		got[f.Lines.Line(r.Unit.Abs(st.Stmt.Pos()))+1] = st.Cost.String()
	}
	for line, w := range want {
		if got[line] != w {
			t.Errorf("line %d: %s, want %s", line, got[line], w)
		}
	}
	notes := strings.Join(r.Unknowns, "\n")
	if !strings.Contains(notes, "UNKNOWN_1: the value of NLOC assigned at line 8") ||
		!strings.Contains(notes, "UNKNOWN_3: the value of NLOC assigned at line 15") || strings.Contains(notes, "UNKNOWN_4") {
		t.Errorf("unknowns:\n%s", notes)
	}
}

// TestNoIndexOutsideItsLoop: a loop that is not summed over its index
// (a step set in an IF, so its range is unknown; or a body that is not a
// polynomial in the index) used to leave the index in the counts around
// it: J.NB.UNKNOWN_1 for the unit, where J has no value. The index
// becomes an unknown of its own, with its note. Found in LAPACK's
// SLATRS3, whose JINC is 1 or -1.
func TestNoIndexOutsideItsLoop(t *testing.T) {
	src := `subroutine t(n, nb, upper)
  integer :: n, nb, j, i, jf, jinc
  logical :: upper
  real :: x
  if (upper) then
     jf = 1
     jinc = 1
  else
     jf = n
     jinc = -1
  end if
  do j = jf, n, jinc
     do i = 1, j*nb
        x = 1
     end do
  end do
end subroutine
`
	f := parseSrc(t, src)
	r := NewEngine(Options{}).File(f)[0]
	for _, p := range []Poly{r.Summary, r.Count, r.Span} {
		for _, v := range p.Vars() {
			if v == "J" || v == "I" {
				t.Errorf("a loop index outside its loop: %s", p)
			}
		}
	}
	if !strings.Contains(strings.Join(r.Unknowns, "\n"), "a value of J in the DO loop at line 12") {
		t.Errorf("unknowns: %v", r.Unknowns)
	}
}
