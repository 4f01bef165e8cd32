package hints

import (
	"strings"
	"testing"
)

// TestDistributeFormatsWithArguments: a DISTRIBUTE written with
// CYCLIC(k) formats (spaces inside the parentheses too) and ONTO a
// section of the arrangement: each format is replaced whole, and the
// section goes with ONTO when the candidate distributes fewer dimensions
// than the arrangement has.
func TestDistributeFormatsWithArguments(t *testing.T) {
	src := `program c
  integer, parameter :: n = 256
  real :: x(n,n), y(n,n)
  integer :: i, j
!hpf$ processors p(4,4)
!hpf$ template t(n,n)
!hpf$ align (i,j) with t(i,j) :: x, y
!hpf$ distribute t(cyclic(2), cyclic( 4 )) onto p(1:4,1:4)
  do j = 2, n - 1
    do i = 2, n - 1
      x(i,j) = y(i-1,j) + y(i+1,j) + y(i,j-1) + y(i,j+1)
    end do
  end do
end program c
`
	old := "!hpf$ distribute t(cyclic(2), cyclic( 4 )) onto p(1:4,1:4)"
	for _, c := range []struct{ dist, line string }{
		{"T(BLOCK,:)", "!hpf$ distribute t(block, *)"},
		{"T(:,CYCLIC)", "!hpf$ distribute t(*, cyclic)"},
		{"T(CYCLIC,BLOCK)", "!hpf$ distribute t(cyclic, block) onto p(1:4,1:4)"},
		{"T(BLOCK,BLOCK)", "!hpf$ distribute t(block, block) onto p(1:4,1:4)"},
	} {
		out, _ := distributeAction(t, "c.hpf", src, "  do j = 2", c.dist)
		if want := strings.Replace(src, old, c.line, 1); out != want {
			t.Errorf("%s: got\n%s", c.dist, out)
		}
	}
}

// TestDistributeThroughAlignedTemplates: X is aligned with T and Y with
// U, both distributed alike, so the partitioner takes them as one
// distribution: a candidate rewrites both DISTRIBUTEs, and keeps ONTO p
// (one dimension) only for candidates distributing one dimension.
func TestDistributeThroughAlignedTemplates(t *testing.T) {
	src := `program c
  integer, parameter :: n = 256
  real :: x(n,n), y(n,n)
  integer :: i, j
!hpf$ processors p(16)
!hpf$ template t(n,n), u(n,n)
!hpf$ align (i,j) with t(i,j) :: x
!hpf$ align (i,j) with u(i,j) :: y
!hpf$ distribute t(*, block) onto p
!hpf$ distribute u(*, block) onto p
  do j = 2, n - 1
    do i = 2, n - 1
      x(i,j) = y(i-1,j) + y(i+1,j) + y(i,j-1) + y(i,j+1)
    end do
  end do
end program c
`
	for _, c := range []struct{ dist, formats, onto string }{
		{"T(BLOCK,:)", "(block, *)", " onto p"},
		{"T(CYCLIC,:)", "(cyclic, *)", " onto p"},
		{"T(BLOCK,BLOCK)", "(block, block)", ""},
	} {
		out, _ := distributeAction(t, "c.hpf", src, "  do j = 2", c.dist)
		want := strings.Replace(src, "!hpf$ distribute t(*, block) onto p\n!hpf$ distribute u(*, block) onto p\n",
			"!hpf$ distribute t"+c.formats+c.onto+"\n!hpf$ distribute u"+c.formats+c.onto+"\n", 1)
		if out != want {
			t.Errorf("%s: got\n%s", c.dist, out)
		}
	}
}
