package partition

import (
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestBoundsInquiries: LBOUND, UBOUND and SIZE with a constant DIM of an
// array of explicit shape are its declared bounds (symbolic ones too);
// an empty dimension has LBOUND 1, UBOUND 0 and SIZE 0 (Fortran 2018
// 16.9, LBOUND, UBOUND and SIZE); SIZE without DIM is the product of
// the extents (A(0:9, P): 30); assumed shape, a DIM that is not a
// constant (and bounds inside other calls) are left unknown.
func TestBoundsInquiries(t *testing.T) {
	src := `subroutine s(w, v, m, n, k)
  implicit none
  integer, parameter :: p = 3
  integer :: m, n, k, i
  real :: w(m, 2:n), v(:), a(0:9, p), e(5:4)
  do i = lbound(a,1), ubound(a,1)
  end do
  do i = size(a, dim=2), size(a, 1) - 1
  end do
  do i = lbound(e,1), ubound(e,1) + size(e,1)
  end do
  do i = lbound(w,2), ubound(w,2) + size(w,2) * size(w,1)
  end do
  do i = lbound(v,1), ubound(a,k)
  end do
  do i = 1, size(a)
  end do
end subroutine s
`
	f := parser.Parse("s.f90", []byte(src), nil)
	for _, err := range f.Errors() {
		if err.Severity == parser.SevError { // E's empty extent is a warning
			t.Fatal(f.Errors())
		}
	}
	u := f.Units[0]
	e := &est{f: f, u: u, sc: u.Scope}
	for _, c := range []struct {
		line   int
		lo, hi string // "" when not known
	}{
		{6, "0", "9"},
		{8, "3", "9"},
		{10, "1", "0"},
		{12, "2", "M.N - M + N"},
		{14, "", ""},
		{16, "1", "30"},
	} {
		checkLoopBounds(t, e, firstLoop(t, u, c.line, f).Do, c.line, c.lo, c.hi)
	}
}

// TestBoundsInquiriesFromHost: the bounds of a host's array are written
// in the host's names; inside a contained procedure that declares a name
// of its own with the same spelling, the bound is the host's value (a
// constant there) or not known, never the inner name: UBOUND(U,2) of the
// host's U(N, 2*N), N = 40, was the inner variable's 2.N.
func TestBoundsInquiriesFromHost(t *testing.T) {
	src := `subroutine outer(m)
  implicit none
  integer, parameter :: n = 40
  integer :: m
  real :: u(n, 2*n), w(m), z(-n:n)
  call inner()
contains
  subroutine inner()
    integer :: n, m, i
    n = 5
    m = 7
    do i = lbound(u,2), ubound(u,2)
    end do
    do i = 1, size(w, 1)
    end do
    do i = 1, size(u, 1)
    end do
    do i = lbound(z, 1), size(z, 1)
    end do
  end subroutine inner
end subroutine outer
`
	f := parser.Parse("s.f90", []byte(src), nil)
	for _, err := range f.Errors() {
		if err.Severity == parser.SevError {
			t.Fatal(f.Errors())
		}
	}
	u := f.Units[0].Contains[0]
	e := &est{f: f, u: u, sc: u.Scope}
	for _, c := range []struct {
		line   int
		lo, hi string // "" when not known
	}{
		{12, "1", "80"},
		{14, "1", ""},
		{16, "1", "40"},
		{18, "-40", "81"},
	} {
		checkLoopBounds(t, e, firstLoop(t, u, c.line, f).Do, c.line, c.lo, c.hi)
	}
}

// checkLoopBounds: the bounds of the DO loop d at line, as the estimator
// reads them, print as lo and hi ("" for a bound it does not know).
func checkLoopBounds(t *testing.T, e *est, d *parser.DoStmt, line int, lo, hi string) {
	t.Helper()
	for i, x := range []parser.Expr{d.Lo, d.Hi} {
		want := []string{lo, hi}[i]
		p, ok := e.value(x, nil, 0)
		got := ""
		if ok {
			got = p.String()
		}
		if got != want {
			t.Errorf("line %d, bound %d: %q, want %q", line, i+1, got, want)
		}
	}
}
