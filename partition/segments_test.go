package partition

import (
	"math"
	"testing"

	"github.com/pfls/pfls/machine"
)

// TestBandSegments: a band loop DO J = MAX(1, I-3), MIN(N, I+3) inside a
// loop over I too long to estimate iteration by iteration (N = 1000) is
// estimated as the three loops over I in which each bound takes one
// argument: I = 1..3 (J from 1), 4..996 (J = I-3..I+3), 997..1000 (J to
// N); the same loops written out cost the same, up to the MIN/MAX
// bounds' own comparisons. (Before, the J loop was taken for one
// iteration: 1/7 of the work.)
func TestBandSegments(t *testing.T) {
	const band = `program p
  integer, parameter :: n = 1000, bw = 3
  real(8) :: x(n), y(n)
  integer :: i, j
  do i = 1, n
    y(i) = 0.0d0
    do j = max(1, i - bw), min(n, i + bw)
      y(i) = y(i) + x(j)
    end do
  end do
end program p
`
	const written = `program p
  integer, parameter :: n = 1000, bw = 3
  real(8) :: x(n), y(n)
  integer :: i, j
  do i = 1, 3
    y(i) = 0.0d0
    do j = 1, i + bw
      y(i) = y(i) + x(j)
    end do
  end do
  do i = 4, 996
    y(i) = 0.0d0
    do j = i - bw, i + bw
      y(i) = y(i) + x(j)
    end do
  end do
  do i = 997, 1000
    y(i) = 0.0d0
    do j = i - bw, n
      y(i) = y(i) + x(j)
    end do
  end do
end program p
`
	opt := Options{Machine: machine.DefaultMachine(), Procs: 1}
	f, u := parseOne(t, "band.f90", band)
	got := secs(t, EstimateLoop(f, u, firstLoop(t, u, 5, f), FromUnit(u, 1, ""), opt).Compute)
	f2, u2 := parseOne(t, "written.f90", written)
	var want float64
	for _, line := range []int{5, 11, 17} {
		want += secs(t, EstimateLoop(f2, u2, firstLoop(t, u2, line, f2), FromUnit(u2, 1, ""), opt).Compute)
	}
	if math.Abs(got-want) > 0.01*want {
		t.Errorf("band loop %g s, the three loops written out %g s: want within 1%%", got, want)
	}
}
