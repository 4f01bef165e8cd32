package parser

import (
	"strings"
	"testing"
)

// TestConstructLocalNames: under IMPLICIT NONE, the names a BLOCK
// construct declares and the associate names of ASSOCIATE, SELECT TYPE
// and SELECT RANK (Fortran 2018 11.1.3.3, 11.1.4, 11.1.10, 11.1.11) are
// declared wherever the construct is, also inside DO, IF and CASE
// bodies. Each program here was reported as using undeclared names. A
// name that really is undeclared inside such a construct still is.
func TestConstructLocalNames(t *testing.T) {
	clean := map[string]string{
		"associate in DO": `subroutine s(u, n)
  implicit none
  integer :: n, it
  real :: u(n, n)
  do it = 1, 3
     associate (inner => u(2:n-1, 2:n-1), m => n - 2)
       inner = inner * 0.5
       print *, m
     end associate
  end do
end subroutine
`,
		"block in DO": `program p
  implicit none
  integer :: i
  real :: a(10)
  do i = 1, 10
     block
       real :: t
       t = a(i)
       a(i) = t * 2
     end block
  end do
end program
`,
		"associate in CASE and IF": `program p
  implicit none
  integer :: n
  real :: a(10)
  n = 1
  select case (n)
  case (1)
     associate (q => a(1))
       print *, q
     end associate
  case default
     if (n > 0) then
        associate (w => a)
          w = 0
        end associate
     end if
  end select
end program
`,
		"select type": `subroutine s(x)
  implicit none
  class(*), intent(in) :: x
  select type (v => x)
  type is (integer)
     print *, v
  end select
end subroutine
`,
		"shadowing associate": `subroutine s(x, n)
  implicit none
  integer :: n
  real :: x(n)
  associate (x => x(1:n/2))
    x = 1.0
  end associate
end subroutine
`,
	}
	for name, src := range clean {
		f := Parse("t.f90", []byte(src), nil)
		if errs := f.Errors(); len(errs) > 0 {
			t.Errorf("%s: %v", name, errs)
		}
	}

	// Still an error: ZZ is declared nowhere.
	src := `program p
  implicit none
  real :: a(10)
  associate (q => a(1))
    print *, q, zz
  end associate
end program
`
	f := Parse("t.f90", []byte(src), nil)
	errs := f.Errors()
	if len(errs) != 1 || errs[0].Code != "undeclared" || !strings.Contains(errs[0].Msg, "ZZ") {
		t.Errorf("undeclared ZZ inside ASSOCIATE: %v", errs)
	}
}

// TestAssociateNameTakesShape: an associate name whose selector is a
// whole array has the array's type and rank; the selector's own symbol
// is untouched.
func TestAssociateNameTakesShape(t *testing.T) {
	src := `subroutine s(a)
  implicit none
  double precision :: a(10, 20)
  associate (w => a, e => a(1, 1))
    w = 0
    e = 1
  end associate
end subroutine
`
	f := Parse("t.f90", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	sc := f.Units[0].Scope
	w, e, a := sc.Lookup("W"), sc.Lookup("E"), sc.Lookup("A")
	if w == nil || w.Rank() != 2 || w.Type != a.Type || w.Kind != SymVariable {
		t.Errorf("W: %+v, want the rank 2 and type of A (%s)", w, a.Type)
	}
	if e == nil || e.Rank() != 0 {
		t.Errorf("E: %+v, want a scalar of unknown type", e)
	}
	if a.Rank() != 2 {
		t.Errorf("A changed: rank %d", a.Rank())
	}
}

// TestCutAssociateOneError: an ASSOCIATE statement cut anywhere after
// its first "NAME =>" (as while typing) gives its one syntax error and
// nothing more: the construct still opens, so END ASSOCIATE has its
// match, and the names it got to are declared, so the body's uses of
// them are not "not declared".
func TestCutAssociateOneError(t *testing.T) {
	const line = "  associate (inner => u(2:n-1, 2:n-1), m => n - 2)"
	src := func(cut string) string {
		return "subroutine s(u, n)\n  implicit none\n  integer :: n\n  real :: u(n, n)\n" + cut +
			"\n    inner = inner * 0.5\n    print *, m\n  end associate\nend subroutine\n"
	}
	first := strings.Index(line, "=>") + 2
	second := strings.LastIndex(line, "=>") + 2
	for cut := first; cut < len(line); cut++ {
		f := Parse("t.f90", []byte(src(line[:cut])), nil)
		var syntax, other []string
		for _, e := range f.Errors() {
			if e.Code == "syntax" {
				syntax = append(syntax, e.Msg)
			} else if !(cut < second && e.Code == "undeclared" && strings.Contains(e.Msg, "M is not declared")) {
				// M is not declared until its "M =>" is typed.
				other = append(other, e.Code+": "+e.Msg)
			}
		}
		if len(syntax) > 1 || len(other) > 0 || strings.Contains(strings.Join(syntax, ""), "END ASSOCIATE") {
			t.Errorf("cut %q: syntax %q, other %q; want one syntax error at the cut", line[:cut], syntax, other)
		}
	}
}
