package complexity

import (
	"strings"
	"testing"
)

// TestInquiryBounds: a loop bounded by SIZE, LBOUND or UBOUND of an
// array whose bounds pfls knows makes as many trips as the same loop
// with the bound written out, so the two costs differ by a constant (the
// bound's own evaluation) and hold no unknown; where the bound is not
// known (an assumed shape, a DIM that is not a constant, a dimension the
// array lacks, the * of an assumed size) the trips are an unknown.
func TestInquiryBounds(t *testing.T) {
	cases := []struct{ bound, same string }{
		{"size(a, 1)", "n"},
		{"size(a, 2)", "m"},
		{"size(a)", "n*m"},
		{"size(a, dim=2, kind=8)", "m"},
		{"ubound(a, 2)", "m"},
		{"lbound(a, 1) + n - 1", "n"},
		{"ubound(b, 1)", "n + 1"},
		{"ubound(b, 1) - lbound(b, 1)", "n + 1"},
		{"size(b)", "n + 2"},
		{"size(b(1:n))", "n"},
		{"size(b(::2))", "(n + 3)/2"},
		{"ubound(b(2:n), 1)", "n - 1"}, // a section's bounds are 1 and its extent
		{"n + lbound(b(2:n), 1)", "n + 1"},
		{"size(u, 2)", "2*m"},
		{"ubound(u, 1)", "n + 1"},
		{"ubound(c, 1)", "n"},
		{"lbound(c, 2) * n", "n"},
		{"size(a(2:n-1, :), 1)", "n - 2"},
		{"min(size(a, 1), m)", "min(n, m)"},
	}
	unknown := []string{"size(v)", "ubound(v, 1)", "size(a, k)", "ubound(a, 3)", "ubound(c, 2)", "size(c)", "size(w)"}
	cost := func(bound string) Poly {
		t.Helper()
		src := "subroutine t(a, v, c, n, m, k)\n  integer :: n, m, k, i\n  real :: a(n, m), v(:), c(n, *), b(0:n+1), s\n" +
			"  real, allocatable :: u(:,:), w(:)\n  allocate(u(0:n+1, 2*m))\n  s = 0.0\n" +
			"  do i = 1, " + bound + "\n    s = s + 1.0\n  end do\nend subroutine\n"
		f := parseSrc(t, src)
		r := NewEngine(Options{}).File(f)[0]
		line := strings.Count(src[:strings.Index(src, "  do i")], "\n")
		for _, st := range r.Statements {
			if f.Lines.Line(r.Unit.Abs(st.Stmt.Pos())) == line {
				return st.Cost
			}
		}
		t.Fatalf("%s: no DO statement", bound)
		return Poly{}
	}
	hasUnknown := func(p Poly) bool {
		for _, v := range p.Vars() {
			if strings.HasPrefix(v, "UNKNOWN") {
				return true
			}
		}
		return false
	}
	for _, c := range cases {
		got, want := cost(c.bound), cost(c.same)
		if hasUnknown(got) {
			t.Errorf("DO I = 1, %s: %s, an unknown where %s is known", c.bound, got, c.same)
			continue
		}
		if d := got.Sub(want); len(d.Vars()) != 0 {
			t.Errorf("DO I = 1, %s: %s; DO I = 1, %s: %s; they differ by %s, not a constant", c.bound, got, c.same, want, d)
		}
	}
	for _, b := range unknown {
		if got := cost(b); !hasUnknown(got) {
			t.Errorf("DO I = 1, %s: %s, want an unknown trip count", b, got)
		}
	}
}
