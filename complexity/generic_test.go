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
			if got := mainSummary(eng, mods, prog); got != c.want {
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

// TestGenericScopes: the generic resolution rules of Fortran 2018
// 15.5.5.2 beyond one interface block. The specific procedures' counts
// tell which one a reference chose: NRM_S 5 a trip, NRM_D 8 (S, X(I)
// twice, * and +, the store), so 8*1000 + 2 and the caller's store: 8003;
// the elemental SQ_S and SQ_D 12 per element and the store B(I) 1, 13000
// for 1000 elements; the module's F_D 4 a trip (4002 with the caller's
// store), the internal F 2 (3). Before, a generic extended in a second
// module saw only the first module's specifics (NRM(A, 1000) counted 2),
// an elemental specific given an array agreed with nothing (2000, the
// argument's loads only), and a host's generic hid the caller's own
// internal procedure of the name (4002).
func TestGenericScopes(t *testing.T) {
	src := `module ma
  interface nrm
    module procedure nrm_s
  end interface
contains
  function nrm_s(x, n) result(s)
    integer :: n, i
    real :: x(n), s
    s = 0
    do i = 1, n
      s = s + x(i)
    end do
  end function
end module
module mb
  interface nrm
    module procedure nrm_d
  end interface
  interface sq
    module procedure sq_s, sq_d
  end interface
  interface f
    module procedure f_d
  end interface
contains
  function nrm_d(x, n) result(s)
    integer :: n, i
    real(8) :: x(n), s
    s = 0
    do i = 1, n
      s = s + x(i)*x(i)
    end do
  end function
  elemental function sq_s(x) result(y)
    real, intent(in) :: x
    real :: y
    y = x * x + x * x + x * x
  end function
  elemental function sq_d(x) result(y)
    real(8), intent(in) :: x
    real(8) :: y
    y = x * x + x * x + x * x
  end function
  function f_d(x) result(y)
    real(8) :: x, y
    integer :: i
    y = 0
    do i = 1, 1000
      y = y + x
    end do
  end function
  subroutine s(z)
    real(8) :: z
    z = f(z)
  contains
    function f(x) result(y)
      real(8) :: x, y
      y = x
    end function
  end subroutine
end module
`
	cases := []struct{ stmt, want string }{
		{"s = nrm(a, 1000)", "8003"},
		{"b = sq(a)", "13000"},
		{"s = sq(a(1))", "13"},
		{"s = f(s)", "4002"},
		{"call s(s)", "3"},
	}
	for _, c := range cases {
		f := parseSrc(t, src+"program p\n  use ma\n  use mb\n  real(8) :: a(1000), b(1000), s\n  "+c.stmt+"\nend program\n")
		got := ""
		for _, r := range NewEngine(Options{}).Analyze(f)[f.Name] {
			if r.Unit.Kind == parser.UnitMain {
				got = r.Summary.String()
			}
		}
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.stmt, got, c.want)
		}
	}
}

// TestGenericKindsAndExternal: SELECTED_REAL_KIND(P) gives gfortran's
// kinds (P ≤ 18 the 80-bit extended, kind 10; P ≤ 33 kind 16), so a
// generic over REAL(10) and REAL(16) picks by them; an internal
// procedure that declares the name EXTERNAL calls an external procedure,
// not its host's generic of that name (without the declaration it calls
// the generic).
func TestGenericKindsAndExternal(t *testing.T) {
	src := `module kinds
  integer, parameter :: xp = selected_real_kind(18), qp = selected_real_kind(33)
end module
module g
  use kinds
  interface put
    module procedure put_x, put_q
  end interface
contains
  subroutine put_x(v)
    real(xp) :: v(10)
    v(1) = 0
  end subroutine
  subroutine put_q(v)
    real(qp) :: v(10)
    v(1) = 0
    v(2) = 0
  end subroutine
end module
`
	for i, c := range []struct{ body, want string }{
		{"  real(xp) :: a(10)\n  call put(a)\n", "1"},
		{"  real(qp) :: a(10)\n  call put(a)\n", "2"},
		{"  real(qp) :: a(10)\n  call inner(a)\ncontains\n  subroutine inner(b)\n    real(qp) :: b(10)\n    external put\n    call put(b)\n  end subroutine\n", "0"},
		{"  real(qp) :: a(10)\n  call inner(a)\ncontains\n  subroutine inner(b)\n    real(qp) :: b(10)\n    call put(b)\n  end subroutine\n", "2"},
	} {
		mods := parseSrc(t, src)
		mods.Name = "a-mods.f90"
		prog := parseSrc(t, "program p\n  use kinds\n  use g\n"+c.body+"end program\n")
		prog.Name = fmt.Sprintf("b-prog%d.f90", i)
		if got := mainSummary(NewEngine(Options{}), mods, prog); got != c.want {
			t.Errorf("%q: %s, want %s", c.body, got, c.want)
		}
	}
}

// TestGenericPrivate: a USE accesses only a module's public names
// (Fortran 2018 8.5.2, 8.6.1, 14.2.2): a generic interface the module
// makes PRIVATE, by name or by a bare PRIVATE default, is not the
// user's, and a reference of that name is priced as the reference to a
// procedure pfls does not know (as ZZ(A, 1000)); a public generic whose
// specific is private still resolves (8003, the loop of 1000 squares and
// additions: 8 an iteration, 2 for the result's initialisation and the
// return, 1 the assignment). A module that uses another and makes the
// name private hides it too.
func TestGenericPrivate(t *testing.T) {
	src := `module ma
  implicit none
  private
  public :: pub
  interface pub
    module procedure nrm_d
  end interface
  interface hid
    module procedure nrm_d
  end interface
  interface byname
    module procedure nrm_d
  end interface
  interface shown
    module procedure nrm_d
  end interface
  public :: byname
  public :: shown
contains
  function nrm_d(x, n) result(s)
    integer :: n, i
    real(8) :: x(n), s
    s = 0
    do i = 1, n
      s = s + x(i)*x(i)
    end do
  end function
end module
module mb
  use ma
  private :: byname
end module
`
	price := func(use, stmt string) string {
		f := parseSrc(t, src+"program p\n  "+use+"\n  real(8) :: a(1000), s\n  "+stmt+"\nend program\n")
		for _, r := range NewEngine(Options{}).Analyze(f)[f.Name] {
			if r.Unit.Kind == parser.UnitMain {
				return r.Summary.String()
			}
		}
		return ""
	}
	unknown := price("use ma", "s = zz(a, 1000)")
	if unknown == "8003" || unknown == "" {
		t.Fatalf("an unknown function prices %q", unknown)
	}
	cases := []struct{ use, stmt, want string }{
		{"use ma", "s = pub(a, 1000)", "8003"},
		{"use ma", "s = hid(a, 1000)", unknown},
		{"use ma", "s = byname(a, 1000)", "8003"},
		{"use mb", "s = byname(a, 1000)", unknown},
		{"use mb", "s = shown(a, 1000)", "8003"},
		{"use ma, only: pub", "s = pub(a, 1000)", "8003"},
	}
	for _, c := range cases {
		if got := price(c.use, c.stmt); got != c.want {
			t.Errorf("%s; %s: %s, want %s", c.use, c.stmt, got, c.want)
		}
	}
}

// TestGenericInterfaceBodies: a generic interface whose specifics are
// interface bodies (external procedures, a BLAS-style wrapper module)
// resolves to the external procedure the program defines whose dummies
// agree: CALL AXPY costs what the direct call of SAXPY_K or DAXPY_K
// costs (it cost nothing, as a call of an unknown procedure).
func TestGenericInterfaceBodies(t *testing.T) {
	src := `module blasif
  interface axpy
    subroutine saxpy_k(n, a, x, y)
      integer n
      real a, x(n), y(n)
    end subroutine
    subroutine daxpy_k(n, a, x, y)
      integer n
      double precision a, x(n), y(n)
    end subroutine
  end interface
end module
subroutine saxpy_k(n, a, x, y)
  integer n, i
  real a, x(n), y(n)
  do i = 1, n
    y(i) = y(i) + a * x(i)
  end do
end subroutine
subroutine daxpy_k(n, a, x, y)
  integer n, i
  double precision a, x(n), y(n)
  do i = 1, n
    y(i) = y(i) + a * x(i)
    y(i) = y(i) - a
  end do
end subroutine
`
	price := func(stmt string) string {
		f := parseSrc(t, src+"program p\n  use blasif\n  real :: xs(1000), ys(1000)\n  double precision :: xd(1000), yd(1000)\n  "+stmt+"\nend program\n")
		for _, r := range NewEngine(Options{}).Analyze(f)[f.Name] {
			if r.Unit.Kind == parser.UnitMain {
				return r.Summary.String()
			}
		}
		return ""
	}
	s, d := price("call saxpy_k(1000, 2.0, xs, ys)"), price("call daxpy_k(1000, 2d0, xd, yd)")
	if s == "0" || s == d {
		t.Fatalf("the direct calls cost %s and %s", s, d)
	}
	for _, c := range []struct{ stmt, want string }{
		{"call axpy(1000, 2.0, xs, ys)", s},
		{"call axpy(1000, 2d0, xd, yd)", d},
		{"call axpy(y=yd, x=xd, a=2d0, n=1000)", d},
	} {
		if got := price(c.stmt); got != c.want {
			t.Errorf("%s: %s, want %s (the specific called directly)", c.stmt, got, c.want)
		}
	}
}
