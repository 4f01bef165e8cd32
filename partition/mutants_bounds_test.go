package partition

import (
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
)

// Tests of bounds.go written against the mutants that lived (issue 21,
// docs/mutation-partition.md).

// TestBoundsInquiriesInExpressions: a bound inquiry on the right of an
// operator or under a minus is replaced too (2·SIZE(A,1) = 20,
// −UBOUND(A,1) = −9); a dimension of one element (B(3:3)) has its
// declared bounds, 3 and 3, and size 1 (only an empty one has 1 and 0).
func TestBoundsInquiriesInExpressions(t *testing.T) {
	src := `subroutine s()
  implicit none
  integer :: i
  real :: a(0:9), b(3:3)
  do i = -ubound(a,1), 2 * size(a, 1)
  end do
  do i = lbound(b,1), ubound(b,1) + size(b,1)
  end do
end subroutine s
`
	f := parser.Parse("s.f90", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	u := f.Units[0]
	e := &est{f: f, u: u, sc: u.Scope}
	checkLoopBounds(t, e, firstLoop(t, u, 5, f).Do, 5, "-9", "20")
	checkLoopBounds(t, e, firstLoop(t, u, 7, f).Do, 7, "3", "4")
}

// TestAssumedShapeBounds: the bounds of an assumed-shape dummy whose
// extents a call gave (e.extents, as callee.go sets them): V(0:) of 10
// elements has LBOUND 0 and UBOUND 9; W(:) of 10 LBOUND 1, UBOUND 10;
// of no element, LBOUND 1 and UBOUND 0 whatever the declared lower
// bound.
func TestAssumedShapeBounds(t *testing.T) {
	src := `subroutine s(v, w)
  implicit none
  integer :: i
  real :: v(0:), w(:)
  do i = lbound(v,1), ubound(v,1)
  end do
  do i = lbound(w,1), ubound(w,1)
  end do
end subroutine s
`
	f := parser.Parse("s.f90", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	u := f.Units[0]
	for _, c := range []struct {
		n                  int64
		vlo, vhi, wlo, whi string
	}{
		{10, "0", "9", "1", "10"},
		{0, "1", "0", "1", "0"},
	} {
		e := &est{f: f, u: u, sc: u.Scope, extents: map[string][]Poly{"V": {complexity.Int(c.n)}, "W": {complexity.Int(c.n)}}}
		checkLoopBounds(t, e, firstLoop(t, u, 5, f).Do, 5, c.vlo, c.vhi)
		checkLoopBounds(t, e, firstLoop(t, u, 7, f).Do, 7, c.wlo, c.whi)
	}
}
