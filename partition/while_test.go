package partition

import (
	"math"
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
)

// TestWhileBound: DO WHILE (ERR > TOL .AND. IT < MAXIT) with IT = 0
// before it and IT = IT + 1 its only change runs at most MAXIT = 500
// times: estimated for 500 iterations (an upper bound, with a note);
// IT <= 9 from 0 allows 10. Without the start value, or with IT changed
// elsewhere in the body as well, the count is not known: one iteration.
func TestWhileBound(t *testing.T) {
	const src = `program p
  integer, parameter :: n = 100, maxit = 500
  real(8) :: x(n), err, tol
  integer :: i, it
  tol = 1.0d-8
  err = 1.0d0
  INIT
  do while (err > tol .and. TEST)
    it = it + 1
    err = 0.0d0
    do i = 1, n
      x(i) = 0.5d0 * x(i)
      err = err + x(i)
    end do
    EXTRA
  end do
end program p
`
	opt := Options{Machine: machine.DefaultMachine(), Procs: 1}
	run := func(init, test, extra string) (float64, []string) {
		s := strings.NewReplacer("INIT", init, "TEST", test, "EXTRA", extra).Replace(src)
		f, u := parseOne(t, "w.f90", s)
		e := EstimateLoop(f, u, firstLoop(t, u, 8, f), FromUnit(u, 1, ""), opt)
		return secs(t, e.Compute), e.Notes
	}
	one, _ := run("", "it < maxit", "")
	for _, c := range []struct {
		init, test, extra string
		n                 float64
	}{
		{"it = 0", "it < maxit", "", 500},
		{"it = 0", "it <= 9", "", 10},
		{"it = 0", "it < maxit", "if (err < tol) it = maxit", 1},
		{"it = 0", "it < maxit", "call reset(it)", 1},
	} {
		got, notes := run(c.init, c.test, c.extra)
		// (The extra statements of the last two cost a little: one
		// iteration within 10%.)
		if r := got / one; math.Abs(r-c.n) > 0.1*c.n {
			t.Errorf("%s, %s, %q: %g times one iteration, want %g (%q)", c.init, c.test, c.extra, r, c.n, notes)
		}
	}
}
