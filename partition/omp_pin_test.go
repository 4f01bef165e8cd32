package partition

import (
	"testing"

	"github.com/pfls/pfls/complexity"
)

// Tests that pin the OpenMP model's edges (omp.go), each worked out by
// hand from the formulas at the top of omp.go with ompModel's round
// numbers.

// TestOMPTileFitsShareExactly: an inner loop nest whose footprint is
// exactly a core's share of the last cache level loads its bytes once;
// one that does not fit streams its iterations. On one thread of
// ompModel (1 kB cache, 1 GB/s) the inner loop I = 1, 127 of
// A(I,J) + A(I+1,J) touches rows 1..128 of one column of doubles, 128 ·
// 8 = 1024 bytes, the whole share: 1024 bytes per J, 100 · 1024 =
// 102,400 bytes, 102.4 µs at 1 GB/s, plus the fork of 1 thread, 1 µs.
// (Streamed instead, it would be 127 iterations · 1 stream · 8 bytes =
// 1016 bytes per J, 101.6 µs.)
func TestOMPTileFitsShareExactly(t *testing.T) {
	m := ompModel(t, 1e-12, true)
	src := `program p
  real(8) :: a(128,100)
  integer :: i, j
  !$omp parallel do
  do j = 1, 100
    do i = 1, 127
      a(i,j) = a(i,j) + a(i+1,j)
    end do
  end do
end program p
`
	e := ompEstimate(t, src, 5, 1, m)
	if got, want := ompSeconds(t, e), 102400/1e9+1e-6; !ompNear(got, want) {
		t.Errorf("%.9g s, want %.9g; notes %q", got, want, e.Notes)
	}
}

// TestOMPFootprintAffineRanges: the box an affine subscript spans is
// its coefficient times the index's lowest and highest values, the
// smaller and the larger. Over I = 3, 10: A(2*I) spans 6..20, 15
// doubles; B(21-I) spans 21-10..21-3 = 11..18, 8 doubles: 23 · 8 = 184
// bytes.
func TestOMPFootprintAffineRanges(t *testing.T) {
	f, u := parseOne(t, "fp.f90", `program p
  real(8) :: a(100), b(100)
  integer :: i
  do i = 3, 10
    a(2*i) = b(21-i)
  end do
end program p
`)
	e := &est{f: f, u: u, sc: u.Scope, d: FromUnit(u, 1, ""), opt: Options{Machine: ompModel(t, 1e-6, true)}}
	fp, ok := e.ompFootprint(firstLoop(t, u, 4, f), nil)
	if !ok || fp != 184 {
		t.Errorf("footprint %g bytes (ok %v), want 184", fp, ok)
	}
}

// TestOMPEvenShareValue: a loop whose trip count is not a number (N a
// dummy argument) cannot be dealt out; each of 4 threads takes the even
// quarter of the N iterations of 1 µs, and the fork of 4 threads is 1 +
// log2 4 = 3 µs: N/4 µs + 3 µs, 253 µs at N = 1000.
func TestOMPEvenShareValue(t *testing.T) {
	src := `subroutine s(a, n)
  integer :: n, i
  real(8) :: a(n)
  !$omp parallel do
  do i = 1, n
    a(i) = 0
  end do
end subroutine s
`
	e := ompEstimate(t, src, 5, 4, ompModel(t, 1e-6, false))
	p, ok := e.Time.Subst("N", complexity.Int(1000))
	v, ok2 := complexity.Seconds(p)
	if !ok || !ok2 || !ompNear(v, 253e-6) {
		t.Errorf("time %v, at N = 1000 %.9g s, want 253 µs; notes %q", e.Time, v, e.Notes)
	}
}
