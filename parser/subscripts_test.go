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
	// Typed halfway: the syntax error only.
	for _, cut := range []string{"a(k", "a(k,", "c = a(1,"} {
		f := Parse("c.f90", []byte("program p\n  real :: a(10, 10), c\n  integer :: k\n  "+cut+"\nend program\n"), nil)
		if got := errorsMatching(f, "referenced with"); len(got) > 0 {
			t.Errorf("%q: %q, want only the syntax error", cut, got)
		}
	}
}
