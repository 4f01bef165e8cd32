package complexity

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// analyseFree analyses the first unit of a free-form source.
func analyseFree(t *testing.T, src string) *UnitResult {
	t.Helper()
	rs := NewEngine(Options{}).File(parser.Parse("h.f90", []byte(src), nil))
	if len(rs) == 0 {
		t.Fatalf("no unit in\n%s", src)
	}
	return rs[0]
}

// loopOver returns the cost of the DO loop over index idx in r.
func loopOver(t *testing.T, r *UnitResult, idx string) string {
	t.Helper()
	for _, s := range r.Statements {
		if d, ok := s.Stmt.(*parser.DoStmt); ok && s.Kind == "DO" && d.Var != nil && d.Var.Name == idx {
			return s.Cost.String()
		}
	}
	t.Fatalf("no DO %s among %d statements", idx, len(r.Statements))
	return ""
}

// A user function may define its arguments (Fortran 2018 15.5.2.4 lets an
// actual argument be changed through its dummy; 10.1.4 only forbids the
// change to affect the rest of the statement). DECR(M) decrements M, so
// after K = DECR(N) the loop DO I = 1, N runs N − 1 times: 2 a pass
// (the store of X(I) and its index, as 2·N + 1 with N passes says) and 1
// for the last test, 2·(N − 1) + 1 = 2·N − 1. Before, the engine kept N.
func TestFunctionChangesArgument(t *testing.T) {
	decr := `
contains
  integer function decr(m)
    integer :: m
    m = m - 1
    decr = m
  end function
  integer function twice(m)
    integer, intent(in) :: m
    twice = 2*m
  end function
end subroutine
`
	for _, tc := range []struct{ name, body, want string }{
		{"assignment", "  k = decr(n)\n", "2*N - 1"},
		{"logical IF's condition", "  if (decr(n) > 0) x(1) = 0.0\n", "2*N - 1"},
		{"CALL's argument", "  call p(decr(n))\n", "2*N - 1"},
		{"PRINT item", "  print *, decr(n)\n", "2*N - 1"},
		// Three decrements in a loop: the loop's MOD set has N, whose value
		// after it is not known (not N − 3 either).
		{"inside a loop", "  do j = 1, 3\n    k = decr(n)\n  end do\n", "2*UNKNOWN_1 + 1"},
		// A function that leaves its argument alone keeps N.
		{"INTENT(IN)", "  k = twice(n)\n", "2*N + 1"},
	} {
		src := "subroutine s(n, x)\n  integer :: n, k, i, j\n  real :: x(*)\n" + tc.body +
			"  do i = 1, n\n    x(i) = 0.0\n  end do\n" + decr
		r := analyseFree(t, src)
		if got := loopOver(t, r, "I"); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: DO I = 1, N costs %s, want %s...", tc.name, got, tc.want)
		}
	}
}

// A local given a known value keeps it through a function that changes
// its argument only as the function says: N = 1000, K = DECR(N) leaves
// N = 999, and the loop costs 2·999 + 1.
func TestFunctionChangesLocal(t *testing.T) {
	r := analyseFree(t, `program p
  integer :: n, k, i
  real :: x(1000)
  n = 1000
  k = decr(n)
  do i = 1, n
    x(i) = 0.0
  end do
contains
  integer function decr(m)
    integer :: m
    m = m - 1
    decr = m
  end function
end program
`)
	if got := loopOver(t, r, "I"); got != "1999" {
		t.Errorf("DO I = 1, N costs %s after K = DECR(N) with N = 1000, want 1999", got)
	}
}
