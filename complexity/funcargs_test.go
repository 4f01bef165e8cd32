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
		// By keyword (Fortran 2018 15.5.2.1): the actual of M is N.
		{"keyword argument", "  k = decr(m=n)\n", "2*N - 1"},
		{"PRINT item", "  print *, decr(n)\n", "2*N - 1"},
		// Three decrements in a loop: the loop's MOD set has N, whose value
		// after it is not known (not N − 3 either).
		{"inside a loop", "  do j = 1, 3\n    k = decr(n)\n  end do\n", "2*UNKNOWN_1 + 1"},
		// A function that leaves its argument alone keeps N.
		{"INTENT(IN)", "  k = twice(n)\n", "2*N + 1"},
		// A block IF's condition runs before any arm: every arm, and the
		// construct's end, see N − 1.
		{"block IF's condition", "  if (decr(n) > 0) then\n    k = 1\n  else\n    k = 2\n  end if\n", "2*N - 1"},
		// An ELSE IF's condition runs when the arms before it are not
		// taken: the first arm decrements N in its body, the others
		// through the ELSE IF's condition, N − 1 after each.
		{"ELSE IF's condition", "  if (k > 0) then\n    k = decr(n)\n  else if (decr(n) > 0) then\n    k = 1\n  else\n    k = 2\n  end if\n", "2*N - 1"},
		{"SELECT CASE's selector", "  select case (decr(n))\n  case (1)\n    k = 1\n  case default\n    k = 2\n  end select\n", "2*N - 1"},
		// A DO WHILE's condition runs before every iteration: after the
		// loop N is not known (it was kept as N).
		{"DO WHILE's condition", "  do while (decr(n) > 5)\n    k = 1\n  end do\n", "2*UNKNOWN_"},
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

// Inside a DO WHILE whose condition changes K, K is not the value it had
// before the loop: DO I = 1, K in the body ran no iteration with K = 0
// (cost 1, the loop's last test); it is an unknown number now.
func TestWhileConditionChangesInside(t *testing.T) {
	r := analyseFree(t, `program p
  integer :: k, i
  real :: x(100)
  k = 0
  do while (bump(k) < 10)
    do i = 1, k
      x(i) = 0.0
    end do
  end do
contains
  integer function bump(m)
    integer :: m
    m = m + 1
    bump = m
  end function
end program
`)
	if got := loopOver(t, r, "I"); !strings.HasPrefix(got, "2*UNKNOWN_") {
		t.Errorf("DO I = 1, K inside DO WHILE (BUMP(K) < 10) costs %s, want 2*UNKNOWN_... + 1", got)
	}
}

// A CALL's keyword argument is the actual of the formal of that name
// (Fortran 2018 15.5.2.1): CALL DOWN(M=N) decrements N, CALL DOWN(M=J)
// leaves N alone. The MOD set and the out-values were matched by
// position only, so N kept its value after CALL DOWN(M=N).
func TestKeywordActualChanged(t *testing.T) {
	for _, tc := range []struct{ call, want string }{
		{"call down(m=n)", "2*N - 1"},
		{"call down(k, m=n)", "2*N - 1"},
		{"call down(m=j, k=n)", "2*N + 1"},
	} {
		r := analyseFree(t, "subroutine s(n, x)\n  integer :: n, j, k, i\n  real :: x(*)\n  j = 1\n  k = 1\n  "+tc.call+
			"\n  do i = 1, n\n    x(i) = 0.0\n  end do\ncontains\n  subroutine down(k, m)\n    integer, optional :: k\n    integer :: m\n    m = m - 1\n  end subroutine\nend subroutine\n")
		if got := loopOver(t, r, "I"); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: DO I = 1, N costs %s, want %s...", tc.call, got, tc.want)
		}
	}
}

// A condition that jumps runs its functions too: after IF (DECR(N) > 0)
// GO TO 10, N is N − 1 whether the jump is taken or not, so the loop
// before label 10 runs N − 1 times (2·N − 1); it kept N (2·N + 1). The
// computed GO TO likewise (out of range, it falls through).
func TestJumpConditionChangesArgument(t *testing.T) {
	for _, jump := range []string{"if (decr(n) > 0) goto 10", "goto (10), decr(n)"} {
		r := analyseFree(t, "subroutine s(n, x)\n  integer :: n, i\n  real :: x(*)\n  "+jump+
			"\n  do i = 1, n\n    x(i) = 0.0\n  end do\n10 continue\ncontains\n  integer function decr(m)\n    integer :: m\n    m = m - 1\n    decr = m\n  end function\nend subroutine\n")
		if got := loopOver(t, r, "I"); !strings.HasPrefix(got, "2*N - 1") {
			t.Errorf("%s: DO I = 1, N costs %s, want 2*N - 1", jump, got)
		}
	}
}

// TestHostVariableSetByCall: a module procedure that sets a variable of
// its module, and an internal procedure that sets one of its host, change
// it for a caller that sees the same variable (Fortran 2018 19.5.1.4):
// NN = 5; CALL SETG() with NN = 77 in SETG left the loop to NN at 11,
// 2·5 + 1. It is now unknown; a routine that sets another variable
// leaves NN at 5.
func TestHostVariableSetByCall(t *testing.T) {
	for _, c := range []struct{ set, want string }{
		{"nn = 77", "2*UNKNOWN_1 + 1"},
		{"mm = 77", "11"},
	} {
		rs := NewEngine(Options{}).File(parser.Parse("h.f90", []byte(`module m
  integer :: nn, mm
contains
  subroutine setg()
    `+c.set+`
  end subroutine
  subroutine work(x)
    real :: x(*)
    integer :: i
    nn = 5
    call setg()
    do i = 1, nn
      x(i) = 0.0
    end do
  end subroutine
end module
`), nil))
		var work *UnitResult
		for _, r := range rs {
			if r.Unit.Name == "WORK" {
				work = r
			}
		}
		if work == nil {
			t.Fatal("no WORK")
		}
		if got := loopOver(t, work, "I"); got != c.want {
			t.Errorf("after CALL SETG() with %s: DO I = 1, NN costs %s, want %s", c.set, got, c.want)
		}
	}
	// An internal procedure changing its host's N.
	r := analyseFree(t, `program p
  integer :: n, i
  real :: x(100)
  n = 5
  call bump()
  do i = 1, n
    x(i) = 0.0
  end do
contains
  subroutine bump()
    n = n + 1
  end subroutine
end program
`)
	if got := loopOver(t, r, "I"); got == "11" {
		t.Errorf("after CALL BUMP() (N = N + 1 in BUMP) the loop costs %s: N taken as 5", got)
	}
}
