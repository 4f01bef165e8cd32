package parser

import (
	"strings"
	"testing"
)

// TestSubscriptCount: an array element or section with more or fewer
// subscripts than the array's rank is an error (Fortran 2018 9.5.3.1),
// on the reference, once; a character substring, an element's substring,
// EQUIVALENCE's legacy single subscripts, an ALLOCATE's bounds, keyword
// calls and references still being typed are not reported.
func TestSubscriptCount(t *testing.T) {
	cases := []struct {
		stmt string
		want string // "" when no such error
	}{
		{"a(k) = 1.0", "A has 2 dimensions but is referenced with 1 subscript"},
		{"c = b(k, k)", "B has 1 dimension but is referenced with 2 subscripts"},
		{"c = a(1, 2, 3)", "A has 2 dimensions but is referenced with 3 subscripts"},
		{"b(2:3) = a(1, 2:3)", ""},
		{"s = names(1)(2:3)", ""},
		{"s = s(1:2)", ""},
		{"c = sum(a(:, k))", ""},
		{"print *, (b(i), i = 1, k)", ""},
		{"print *, (a(i), i = 1, k)", "A has 2 dimensions but is referenced with 1 subscript"},
		{"call sub(a(k))", "A has 2 dimensions but is referenced with 1 subscript"},
	}
	for _, c := range cases {
		src := "program p\n  real :: a(10, 10), b(10), c\n  character(len=8) :: names(4), s\n  integer :: k, i\n  " + c.stmt + "\nend program\n"
		f := Parse("p.f90", []byte(src), nil)
		got := errorsMatching(f, "referenced with")
		switch {
		case c.want == "" && len(got) > 0:
			t.Errorf("%s: %q, want no subscript error", c.stmt, got)
		case c.want != "" && (len(got) != 1 || !strings.Contains(got[0], c.want)):
			t.Errorf("%s: %q, want one %q", c.stmt, got, c.want)
		}
		if c.want != "" {
			for _, e := range f.Errors() {
				if strings.Contains(e.Msg, "referenced with") && (f.Lines.Line(int(e.Pos)) != 4 || e.Code != "invalid" || e.Severity != SevError) {
					t.Errorf("%s: %+v, want an error of code invalid on line 5", c.stmt, e)
				}
			}
		}
	}
	// Legacy EQUIVALENCE and ALLOCATE bounds.
	f := Parse("e.f", []byte("      PROGRAM E\n      REAL A(10,10), B(100)\n      REAL, ALLOCATABLE :: C(:,:)\n      EQUIVALENCE (A(1), B(1))\n      ALLOCATE (C(10, 0:5))\n      END\n"), nil)
	if got := errorsMatching(f, "referenced with"); len(got) > 0 {
		t.Errorf("EQUIVALENCE, ALLOCATE: %q", got)
	}
	// Names a construct declares again, and assumed-rank dummies: legal
	// Fortran whose unit-wide symbol has another entity's rank.
	for name, src := range map[string]string{
		"ASSOCIATE (X => X(1:N, 1))":        "program p\n  real :: x(10,10)\n  integer :: n\n  associate (x => x(1:n, 1))\n    x(1) = 0.0\n  end associate\nend program\n",
		"SELECT TYPE (B => X)":              "subroutine s(x)\n  class(*) :: x(:,:)\n  real :: b(3)\n  b(1) = 0.0\n  select type (b => x)\n  type is (real)\n    b(1,1) = 0.0\n  end select\nend subroutine\n",
		"SELECT RANK (X)":                   "subroutine s(x)\n  real :: x(..)\n  select rank (x)\n  rank (2)\n    x(1,2) = 0.0\n  rank (1)\n    x(1) = 0.0\n  end select\nend subroutine\n",
		"SELECT RANK (Y => X)":              "subroutine s(x)\n  real :: x(..)\n  select rank (y => x)\n  rank (2)\n    y(1,2) = 0.0\n  end select\nend subroutine\n",
		"BLOCK's A(3) in a unit's A(10,10)": "program p\n  real :: a(10,10)\n  a(1,1) = 0.0\n  block\n    real :: a(3)\n    a(1) = 0.0\n  end block\n  a(2,2) = 0.0\ncontains\n  subroutine t\n    a(3,3) = 0.0\n  end subroutine\nend program\n",
	} {
		f := Parse("k.f90", []byte(src), nil)
		if got := errorsMatching(f, "referenced with"); len(got) > 0 {
			t.Errorf("%s: %q, want no subscript error", name, got)
		}
	}
	// A construct elsewhere in the unit does not hide another name's slip.
	f = Parse("k.f90", []byte("program p\n  real :: a(10,10), b(4)\n  associate (b => a(:, 1))\n    b(1) = 0.0\n  end associate\n  a(1) = 0.0\nend program\n"), nil)
	if got := errorsMatching(f, "referenced with"); len(got) != 1 || !strings.Contains(got[0], "A has 2 dimensions but is referenced with 1 subscript") {
		t.Errorf("A(1) beside an ASSOCIATE of B: %q, want A's error only", got)
	}

	// Typed halfway: the syntax error only.
	for _, cut := range []string{"a(k", "a(k,", "c = a(1,"} {
		f := Parse("c.f90", []byte("program p\n  real :: a(10, 10), c\n  integer :: k\n  "+cut+"\nend program\n"), nil)
		if got := errorsMatching(f, "referenced with"); len(got) > 0 {
			t.Errorf("%q: %q, want only the syntax error", cut, got)
		}
	}
}
