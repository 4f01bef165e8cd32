package complexity

import (
	"fmt"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestGenericInterface: a reference to a generic interface's name counts
// the specific procedure its actual arguments select by type, kind and
// rank (Fortran 2018 15.5.5.2), through USE, ONLY lists and renames, with
// keyword arguments, and with kinds given by named constants of another
// module (KIND(1.0), SELECTED_REAL_KIND(15)). The specific procedures
// here have 1, 2 and 3 assignments (the last of rank-2 elements, 2 each),
// so the program's count says which one was chosen; a generic whose
// specifics pfls cannot tell apart counts nothing, as an unknown
// procedure does. The generic was never resolved
// before: every such call counted nothing.
func TestGenericInterface(t *testing.T) {
	mods := parseSrc(t, `module kinds
  integer, parameter :: sp = kind(1.0), dp = selected_real_kind(15)
end module
module g
  use kinds
  interface fill
    module procedure fill_r, fill_d
    module procedure fill_i2
  end interface
  interface put
    module procedure put_sp, put_dp
  end interface
  interface amb
    module procedure amb_a, amb_b
  end interface
contains
  subroutine fill_r(v)
    real :: v(100)
    v(1) = 0.0
  end subroutine
  subroutine fill_d(v)
    double precision :: v(100)
    v(1) = 0.0d0
    v(2) = 0.0d0
  end subroutine
  subroutine fill_i2(v)
    integer :: v(10, 10)
    v(1, 1) = 0
    v(2, 1) = 0
    v(3, 1) = 0
  end subroutine
  subroutine put_sp(v)
    real(sp) :: v(100)
    v(1) = 0.0
  end subroutine
  subroutine put_dp(v)
    real(dp) :: v(100)
    v(1) = 0.0
    v(2) = 0.0
  end subroutine
  subroutine amb_a(v)
    real(wp) :: v(100)
    v(1) = 0.0
  end subroutine
  subroutine amb_b(v)
    real(wq) :: v(100)
    v(1) = 0.0
    v(2) = 0.0
  end subroutine
end module
`)
	mods.Name = "a-mods.f90"
	decls := "  real :: x(100)\n  double precision :: y(100)\n  integer :: k(10, 10)\n  real(dp) :: z(100)\n"
	cases := []struct{ uses, call, want string }{
		{"use g", "call fill(x)", "1"},
		{"use g", "call fill(y)", "2"},
		{"use g", "call fill(k)", "6"}, // three rank-2 stores, each with the index of two dimensions
		{"use g", "call fill(v=y)", "2"},
		{"use g", "call fill(y(1:50))", "2"},
		{"use g, only: fill", "call fill(y)", "2"},
		{"use g, only: f => fill", "call f(k)", "6"},
		{"use g", "call put(x)", "1"},
		{"use g", "call put(z)", "2"},
		{"use g", "call amb(x)", "0"},
		{"use g", "call fill(k(1, 1))", "0"}, // a scalar: no specific takes it
	}
	for i, c := range cases {
		prog := parseSrc(t, "program p\n  use kinds\n  "+c.uses+"\n"+decls+"  "+c.call+"\nend program\n")
		prog.Name = fmt.Sprintf("b-prog%d.f90", i)
		eng := NewEngine(Options{})
		for range 2 { // the second time from the cache
			res := eng.Analyze(mods, prog)
			got := ""
			for _, r := range res[prog.Name] {
				if r.Unit.Kind == parser.UnitMain {
					got = r.Summary.String()
				}
			}
			if got != c.want {
				t.Errorf("%q, %q: %s, want %s", c.uses, c.call, got, c.want)
			}
		}
	}
	// The estimator's look-up: the specific procedure and its file.
	prog := parseSrc(t, "program p\n  use g\n"+decls+"  call fill(k)\nend program\n")
	call := prog.Units[0].Body[len(prog.Units[0].Body)-1].(*parser.CallStmt)
	if u, f := NewProgram(prog, []*parser.File{mods}).ResolveCall(prog.Units[0], "FILL", call.Args); u == nil || u.Name != "FILL_I2" || f != mods {
		t.Errorf("ResolveCall(FILL(K)) = %v in %v, want FILL_I2 in a-mods.f90", u, f)
	}
}
