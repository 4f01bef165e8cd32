package complexity

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
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

// TestExtentsAtCall: inside a routine the extent of an assumed-shape
// dummy is one unknown at every use; at a call the caller's actual
// argument gives it (a whole array, a section, by keyword, or the
// caller's own assumed-shape dummy, whose unknown it keeps without being
// confused with the callee's). A contained procedure's use of its host's
// dummy is bound by the host; an actual of another rank stays unknown.
func TestExtentsAtCall(t *testing.T) {
	src := `module m
contains
  subroutine scal(x)
    real, intent(inout) :: x(:)
    integer :: i
    do i = 1, size(x)
      x(i) = 2.0 * x(i)
    end do
    x = x + 1.0
  end subroutine
  subroutine outer(v, w)
    real :: v(:), w(:,:)
    call scal(v)
    call scal(w)
    call inner()
  contains
    subroutine inner()
      v = 0.0
    end subroutine
  end subroutine
  subroutine top(n)
    integer :: n
    real :: a(n), b(10, 20)
    call scal(a)
    call scal(x=b(2:9, 3))
    call outer(a, b)
  end subroutine
end module
`
	f := parseSrc(t, src)
	got := map[string]string{}
	unknowns := map[string][]string{}
	for _, r := range NewEngine(Options{}).File(f) {
		got[r.Unit.Name] = r.Summary.String()
		unknowns[r.Unit.Name] = r.Unknowns
		for _, st := range r.Statements {
			got[r.Unit.Name+"@"+strings.TrimSpace(string(f.Src[r.Unit.Abs(st.Stmt.Pos()):r.Unit.Abs(st.Stmt.End())]))] = st.Cost.String()
		}
	}
	// SCAL: X(I) = 2.0*X(I) is 5 a trip (load and I 2, the *, store and
	// I 2), the bound's SIZE 1; X = X + 1.0 is 3 an element (load, +,
	// store): 8 a element of X, plus 1.
	want := map[string]string{
		"SCAL":                       "8*UNKNOWN_1 + 1",
		"TOP@call scal(a)":           "8*N + 1",
		"TOP@call scal(x=b(2:9, 3))": "65", // 8 elements
		// OUTER: SCAL of V with V's own unknown, SCAL of W (rank 2 for a
		// rank-1 dummy) an unknown of its own, INNER's V = 0.0 one store
		// an element of an unknown.
		"OUTER@call scal(v)": "8*UNKNOWN_1 + 1",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %s, want %s", k, got[k], w)
		}
	}
	if !strings.Contains(strings.Join(unknowns["SCAL"], "\n"), "UNKNOWN_1: the extent of X, an assumed-shape argument of SCAL") {
		t.Errorf("SCAL's unknowns: %q", unknowns["SCAL"])
	}
	outer := strings.Join(unknowns["OUTER"], "\n")
	if !strings.Contains(outer, "UNKNOWN_1: the extent of V, an assumed-shape argument of OUTER") {
		t.Errorf("OUTER's unknowns: %q", unknowns["OUTER"])
	}
	// OUTER: SCAL(W) is not bound (rank 2 for rank 1): SCAL's unknown
	// renamed, UNKNOWN_2. INNER's V is its host's dummy: an unknown in
	// INNER (V = 0.0, a store an element) named as OUTER's, which
	// OUTER's call of INNER binds to its own UNKNOWN_1: 8*U1 + 1 (SCAL
	// of V), 8*U2 + 1 (SCAL of W), U1 (INNER). No number is left unused.
	if c := got["OUTER"]; c != "9*UNKNOWN_1 + 8*UNKNOWN_2 + 2" {
		t.Errorf("OUTER: %s, want 9*UNKNOWN_1 + 8*UNKNOWN_2 + 2", c)
	}
	if c := got["INNER"]; c != "UNKNOWN_1" {
		t.Errorf("INNER: %s, want UNKNOWN_1", c)
	}
	if !strings.Contains(strings.Join(unknowns["INNER"], "\n"), "UNKNOWN_1: the extent of V, an assumed-shape argument of OUTER") {
		t.Errorf("INNER's unknowns: %q, want V's extent named as OUTER's argument", unknowns["INNER"])
	}
	// TOP: SCAL(A) 8*N + 1, the section's 65, OUTER(A, B) with V = A:
	// 9*N + 8*UNKNOWN_1 (SCAL(W)'s, renamed) + 2.
	if c := got["TOP"]; c != "17*N + 8*UNKNOWN_1 + 68" {
		t.Errorf("TOP: %s, want 17*N + 8*UNKNOWN_1 + 68", c)
	}
}

// TestSectionBoundsMakeNoUnknown: a section whose triplets give both
// bounds asks nothing of the array's own extents, so an assumed-shape
// array's extents make no unknown there (which would be numbered and
// stand for nothing in the count).
func TestSectionBoundsMakeNoUnknown(t *testing.T) {
	src := `subroutine t(u, w)
  real :: u(:,:), w(:,:)
  w(2:size(u,1)-1, 1:3) = 0.0
end subroutine
`
	f := parseSrc(t, src)
	r := NewEngine(Options{}).File(f)[0]
	// (U's first extent - 2) × 3 elements, each a store and the second
	// dimension's index (2), and the triplets' bounds once (SIZE 2, the
	// - 1): 2 × 3 × (U1 - 2) + 3.
	if got := r.Summary.String(); got != "6*UNKNOWN_1 - 9" || len(r.Unknowns) != 1 {
		t.Errorf("%s with unknowns %q; want 6*UNKNOWN_1 - 9 and one unknown, U's first extent", got, r.Unknowns)
	}
}

// TestEmptyDimensionBounds: an empty dimension's LBOUND is 1 and its
// UBOUND 0 (Fortran 2018 16.9.109, 16.9.196), not the declared 5 and 3,
// and its SIZE 0: DO I = LBOUND(E, 1), 10 runs 10 times.
func TestEmptyDimensionBounds(t *testing.T) {
	src := `subroutine t(n)
  integer :: n, i
  real :: e(5:3), s
  do i = lbound(e, 1), 10
    s = 1.0
  end do
  do i = 1, ubound(e, 1) + size(e) + n
    s = 1.0
  end do
end subroutine
`
	f := parser.Parse("t.f90", []byte(src), nil) // E's emptiness is a warning
	r := NewEngine(Options{}).File(f)[0]
	var got []string
	for _, st := range r.Statements {
		if st.Kind == "DO" {
			got = append(got, st.Cost.String())
		}
	}
	// 10 trips of S = 1.0 (1) and LBOUND (1); N trips (UBOUND 0 + SIZE
	// 0 + N) and the bounds: UBOUND 1, SIZE 1, two additions, N 1. With
	// the declared bounds it was 7 (6 trips) and N + 7 (N + 2 trips).
	if len(got) != 2 || got[0] != "11" || got[1] != "N + 5" {
		t.Errorf("%q, want 11 and N + 5", got)
	}
}

// TestShapesAsTheStandardSays: cases a second reading found, each
// against the rule it follows.
func TestShapesAsTheStandardSays(t *testing.T) {
	stmtCosts := func(src string) map[string]string {
		t.Helper()
		f := parseSrc(t, src)
		out := map[string]string{}
		for _, r := range NewEngine(Options{}).File(f) {
			for _, st := range r.Statements {
				text := strings.TrimSpace(string(f.Src[r.Unit.Abs(st.Stmt.Pos()):r.Unit.Abs(st.Stmt.End())]))
				text, _, _ = strings.Cut(text, "\n")
				out[r.Unit.Name+": "+text] = st.Cost.String()
			}
		}
		return out
	}
	// A function that is not ELEMENTAL is evaluated once in an array
	// assignment (10.1.4), not once per element: TOT costs 5 a trip over
	// SIZE(X) and 2 (TOT = 0.0, SIZE), so B = A*TOT(A) is N × 3 (A(I),
	// the *, the store) + 5*N + 2.
	got := stmtCosts(`module mm
contains
  real function tot(x)
    real :: x(:)
    integer :: i
    tot = 0.0
    do i = 1, size(x)
      tot = tot + x(i)
    end do
  end function
  subroutine s(a, b, n)
    integer :: n
    real :: a(n), b(n), p(n)
    b = a * tot(a)
    b = tot(a)
    n = 3 * n
    call zero(p)
    p = 1.0
  end subroutine
  subroutine zero(x)
    real :: x(:)
    integer :: i
    do i = 1, size(x)
      x(i) = 0.0
    end do
  end subroutine
  subroutine r(n, m)
    integer :: n, m, i
    real, allocatable :: a(:), b(:), c(:), d(:)
    allocate(a(n)); allocate(b(m)); allocate(c(n)); allocate(d(m))
    a = b
    c = 2.0 * c + 1.0
    do i = 1, size(a)
      a(i) = 0.0
    end do
    do i = 1, size(c)
      c(i) = 0.0
    end do
    call move_alloc(b, d)
    d = 0.0
  end subroutine
end module
`)
	for stmt, want := range map[string]string{
		"S: b = a * tot(a)": "8*N + 2",
		"S: b = tot(a)":     "6*N + 2", // N stores + TOT once
		// P(N)'s bounds are fixed on entry (8.5.8.2), whatever N becomes:
		// ZERO over SIZE(P) is 2 a trip over N, P = 1.0 a store each.
		"S: call zero(p)": "2*N + 1",
		"S: p = 1.0":      "N",
		// C = 2.0*C + 1.0 keeps C's shape: its ALLOCATE still holds.
		"R: do i = 1, size(c)": "2*N + 1",
		// A = B gives A B's shape: M elements of a load and a store.
		"R: a = b": "2*M",
	} {
		if got[stmt] != want {
			t.Errorf("%s: %s, want %s", stmt, got[stmt], want)
		}
	}
	// A = B reallocates A to B's shape (10.2.1.3), MOVE_ALLOC gives D
	// B's (16.9.137): neither keeps its ALLOCATE's bounds.
	for _, stmt := range []string{"R: do i = 1, size(a)", "R: d = 0.0"} {
		if !strings.Contains(got[stmt], "UNKNOWN_") {
			t.Errorf("%s: %s, want an unknown (the shape changed)", stmt, got[stmt])
		}
	}
}

// TestInternalProcedureScope: a call of an internal procedure's name
// means the caller's own (or its host's), not another program's of the
// same name elsewhere in the workspace (Fortran 2018 19.3.1): program B's
// WORK does one store, program A's 10,000 updates of 7.
func TestInternalProcedureScope(t *testing.T) {
	prog := func(name, body string) *parser.File {
		src := "program " + name + "\n  real :: x(100)\n  call work(x)\ncontains\n  subroutine work(v)\n    real :: v(100)\n    integer :: i, j\n" + body + "  end subroutine\nend program\n"
		return parseSrc(t, src)
	}
	a := prog("a", "    do j = 1, 100\n      do i = 1, 100\n        v(i) = v(i) + v(j)\n      end do\n    end do\n")
	a.Name = "a.f90"
	b := prog("b", "    v(1) = 0.0\n")
	b.Name = "b.f90"
	eng := NewEngine(Options{})
	for range 2 { // the second time from the cache
		res := eng.Analyze(a, b)
		got := map[string]string{}
		for _, rs := range res {
			for _, r := range rs {
				if r.Unit.Kind == parser.UnitMain {
					got[r.Unit.Name] = r.Summary.String()
				}
			}
		}
		if got["A"] != "70000" || got["B"] != "1" {
			t.Errorf("A %s, B %s; want 70000 and 1 (each its own WORK)", got["A"], got["B"])
		}
	}
}

// TestModuleProcedureByUse: a call of a module procedure means the one
// the caller's USE statements make accessible by that name (Fortran 2018
// 14.2.2): through ONLY lists and renames, and through a module that
// uses another; not the workspace's first procedure of that name. M1's
// STEP is one store (1), M2's the double loop of
// TestInternalProcedureScope (70,000); M1 comes first in the workspace.
func TestModuleProcedureByUse(t *testing.T) {
	mods := parseSrc(t, `module m1
contains
  subroutine step(v)
    real :: v(100)
    v(1) = 0.0
  end subroutine
end module
module m2
contains
  subroutine step(v)
    real :: v(100)
    integer :: i, j
    do j = 1, 100
      do i = 1, 100
        v(i) = v(i) + v(j)
      end do
    end do
  end subroutine
  subroutine twice(v)
    real :: v(100)
    call step(v)
  end subroutine
end module
module m3
  use m2
end module
`)
	mods.Name = "a-mods.f90"
	cases := []struct{ uses, call, want string }{
		{"use m1", "call step(x)", "1"},
		{"use m2", "call step(x)", "70000"},
		{"use m2, only: step", "call step(x)", "70000"},
		{"use m1\n  use m2, only: big => step", "call step(x)", "1"},
		{"use m1\n  use m2, only: big => step", "call big(x)", "70000"},
		{"use m1, s1 => step\n  use m2", "call step(x)", "70000"},
		{"use m3", "call step(x)", "70000"},
		// Inside M2, TWICE's STEP is M2's own.
		{"use m2, only: twice", "call twice(x)", "70000"},
	}
	for i, c := range cases {
		prog := parseSrc(t, "program p\n  "+c.uses+"\n  real :: x(100)\n  "+c.call+"\nend program\n")
		prog.Name = fmt.Sprintf("b-prog%d.f90", i)
		eng := NewEngine(Options{})
		for range 2 { // the second time from the cache
			if got := mainSummary(eng, mods, prog); got != c.want {
				t.Errorf("%q, %q: %s, want %s", c.uses, c.call, got, c.want)
			}
		}
	}
}

// TestResolveInnerUseAndDummy: a USE in a module procedure makes M1's
// STEP the one CALLER calls, hiding its own module M2's STEP (Fortran
// 2018 19.5.1.4: a use-associated name hides the host's entity); a dummy
// procedure F of APPLY is whatever procedure the call passes, not the
// file's external subroutine F. Before, Resolve gave M2's STEP and the
// external F.
func TestResolveInnerUseAndDummy(t *testing.T) {
	f := parser.Parse("a.f90", []byte(`module m1
contains
  subroutine step(v)
    real :: v
    v = 1.0
  end subroutine
end module
module m2
contains
  subroutine step(v)
    real :: v
    v = 2.0
  end subroutine
  subroutine caller(v)
    use m1, only: step
    real :: v
    call step(v)
  end subroutine
  subroutine own(v)
    real :: v
    call step(v)
  end subroutine
end module
subroutine f(v)
  real :: v
  v = 3.0
end subroutine
subroutine apply(f, v)
  external f
  real :: v
  call f(v)
end subroutine
subroutine direct(v)
  real :: v
  call f(v)
end subroutine
`), nil)
	m2 := f.Units[1]
	if r := Resolve(f, m2.Contains[1], "STEP"); r == nil || r.Parent != f.Units[0] {
		t.Errorf("CALLER (USE M1, ONLY: STEP, in M2): STEP resolves to %v, want M1's", r)
	}
	if r := Resolve(f, m2.Contains[2], "STEP"); r != m2.Contains[0] {
		t.Errorf("OWN (in M2, no USE): STEP resolves to %v, want M2's", r)
	}
	if r := Resolve(f, f.Units[3], "F"); r != nil {
		t.Errorf("APPLY's dummy procedure F resolves to %s, want nil", r.Name)
	}
	if r := Resolve(f, f.Units[4], "F"); r != f.Units[2] {
		t.Errorf("DIRECT's F resolves to %v, want the external F", r)
	}
}

// mainSummary analyses the modules' file and the program's together and
// returns the main program's summary.
func mainSummary(eng *Engine, mods, prog *parser.File) string {
	for _, r := range eng.Analyze(mods, prog)[prog.Name] {
		if r.Unit.Kind == parser.UnitMain {
			return r.Summary.String()
		}
	}
	return ""
}
