package hints

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

// The tests of this file pin behaviour that mutation testing
// (scripts/mutation.sh) found unchecked: the edges of the label
// thresholds, the diagnostic extents, the bound of the capability cache,
// and the hover of procedures, COMMON blocks and directives.

// TestLabelPolyThresholds: the thresholds of labelPoly at their exact
// values. 10⁴ alone is scaled (10 k), 10⁶ beside a variable is written
// with a power of ten, and 10²⁷, past the last SI prefix (Y = 10²⁴), is
// written with a power of ten too.
func TestLabelPolyThresholds(t *testing.T) {
	n := complexity.Var("N")
	e9 := complexity.Int(1000000000)
	for _, c := range []struct {
		p    complexity.Poly
		want string
	}{
		{complexity.Int(10000), "10 k"},
		{complexity.Int(-10000), "-10 k"},
		{complexity.Int(1000000), "1 M"},
		{e9.Mul(e9).Mul(e9), "1×10²⁷"},                   // beyond Y
		{e9.Mul(e9).Mul(complexity.Int(1000000)), "1 Y"}, // 10²⁴, the last prefix
		{n.Mul(complexity.Int(1000000)), "1×10⁶·N"},
		{n.Mul(complexity.Int(999999)), "999999·N"},
		{n.Mul(complexity.Int(-1000000)), "-1×10⁶·N"},
		// A constant 1 beside a large term is still written.
		{n.Mul(complexity.Int(1000000)).Add(complexity.Int(1)), "1×10⁶·N + 1"},
		{n.Mul(complexity.Int(1000000)).Sub(complexity.Int(1)), "1×10⁶·N - 1"},
		// Exponents other than 1 beside a large coefficient.
		{n.Mul(n).Mul(n).Mul(complexity.Int(2000000)), "2×10⁶·N³"},
		{n.Mul(n).Mul(complexity.Int(1000000000)).Add(n), "1×10⁹·N² + N"},
	} {
		if got := labelPoly(c.p); got != c.want {
			t.Errorf("labelPoly(%s) = %q, want %q", c.p, got, c.want)
		}
	}
}

// TestDiagnosticExtent: a syntax error in the middle of a file keeps the
// parser's extent, on the line where it is, neither stretched to the end
// of the file nor collapsed to nothing.
func TestDiagnosticExtent(t *testing.T) {
	src := "      PROGRAM P\n      X = (1 + \n      Y = 2\n      END\n"
	f := parser.Parse("p.f", []byte(src), nil)
	errs := f.Errors()
	ds := Diagnostics(f)
	if len(errs) != 1 || len(ds) != 1 {
		t.Fatalf("errors %+v, diagnostics %+v", errs, ds)
	}
	d := ds[0]
	if d.Start != int(errs[0].Pos) || d.End != int(errs[0].End) {
		t.Errorf("diagnostic [%d,%d), error [%d,%d)", d.Start, d.End, errs[0].Pos, errs[0].End)
	}
	line2 := strings.Index(src, "      X")
	line3 := strings.Index(src, "      Y")
	if d.Start < line2 || d.End > line3 || d.End <= d.Start {
		t.Errorf("diagnostic [%d,%d) not a stretch of line 2 [%d,%d)", d.Start, d.End, line2, line3)
	}
	if d.Severity != parser.SevError || d.Code != "syntax" || d.Message == "" {
		t.Errorf("diagnostic %+v", d)
	}
}

// TestCapabilityCacheBound: the findings of the last recentFindingsLen
// analyses are kept; the oldest is dropped only by one more.
func TestCapabilityCacheBound(t *testing.T) {
	src := []byte("      PROGRAM P\n      REAL A(100)\n      DO 10 I = 1, 100\n         A(I) = I\n   10 CONTINUE\n      END\n")
	o := EstimateSettings{Procs: 4}.Options(nil)
	files := make([]*parser.File, recentFindingsLen+1)
	for i := range files {
		files[i] = parser.Parse(fmt.Sprintf("p%d.f", i), src, nil)
	}
	for _, f := range files[:recentFindingsLen] {
		CapabilityDiagnostics(f, o, nil)
	}
	before := capabilityRuns.Load()
	CapabilityDiagnostics(files[0], o, nil) // the oldest of 8: still kept
	if n := capabilityRuns.Load() - before; n != 0 {
		t.Errorf("the oldest of %d analyses was analysed again", recentFindingsLen)
	}
	CapabilityDiagnostics(files[recentFindingsLen], o, nil) // a 9th drops files[0]
	CapabilityDiagnostics(files[0], o, nil)
	if n := capabilityRuns.Load() - before; n != 2 {
		t.Errorf("%d analyses after a 9th file and the dropped first, want 2", n)
	}
}

const hoverSrc = `      PROGRAM MAIN
      INTEGER N
      PARAMETER (N = 64)
      REAL A(N, 0:N+1), B(N), C(2:, *)
      COMMON /BLK/ A, S
!HPF$ PROCESSORS PR(4)
!HPF$ TEMPLATE T(N)
!HPF$ DISTRIBUTE T(BLOCK) ONTO PR
!HPF$ ALIGN B(I) WITH T(I)
      EXTERNAL EXT
      REAL EXTR
      EXTERNAL EXTR
      X = SQRT(S) + EXTR(1.0)
      CALL WORK(B, N)
      CALL EXT(B)
      Y = F(2.0)
      END
      SUBROUTINE WORK(V, M)
      INTEGER M
      REAL V(M)
      V(1) = 0
      END
      REAL FUNCTION F(Z)
      F = Z
      END
`

// TestHoverKinds: the hover of each kind of name, with the facts read off
// the source above (shapes as written, the line of each declaration).
func TestHoverKinds(t *testing.T) {
	f := parser.Parse("main.f", []byte(hoverSrc), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatalf("errors %v", errs)
	}
	for _, c := range []struct {
		at   string // the name is at the start of the first occurrence
		name string
		want []string // lines of the hover, each present
		not  []string // text that must not be there
	}{
		{"SQRT", "SQRT", []string{"SQRT(X)", "intrinsic elemental function → same type and kind as X", "Square root."}, nil},
		{"WORK(B", "WORK", []string{"SUBROUTINE WORK(V, M)"}, []string{"result variable"}},
		{"F(2", "F", []string{"REAL FUNCTION F(Z)"}, nil},
		{"EXT(B", "EXT", []string{"EXTERNAL EXT", "external procedure"}, []string{"returning"}},
		{"EXTR(1", "EXTR", []string{"EXTERNAL EXTR", "external procedure returning REAL"}, nil},
		{"BLK", "BLK", []string{"COMMON /BLK/ A(N,0:N+1), S", "COMMON block"}, nil},
		{"PR(4", "PR", []string{"PROCESSORS PR(4)", "rank 1", "declared on line 6"}, nil},
		{"T(N)", "T", []string{"TEMPLATE T(N)", "rank 1", "distributed: `T(BLOCK) ONTO PR`", "declared on line 7"}, nil},
		{"B(I)", "B", []string{"REAL B(N)", "array of rank 1", "aligned: `ALIGN B(I) WITH T(I)`",
			"distributed through T: `T(BLOCK) ONTO PR`", "declared on line 4"}, nil},
		{"C(2", "C", []string{"REAL C(2:,*)", "array of rank 2", "declared on line 4"}, []string{"distributed"}},
		{"N = 64", "N", []string{"INTEGER N = 64", "named constant = 64", "declared on line 2"}, []string{"scalar"}},
		{"A(N,", "A", []string{"REAL A(N,0:N+1)", "array of rank 2 · in COMMON /BLK/", "declared on line 4"}, nil},
		{"X = ", "X", []string{"REAL X", "scalar · implicitly typed", "first used on line 13"}, []string{"declared"}},
		{"V(1)", "V", []string{"REAL V(M)", "array of rank 1 · dummy argument", "declared on line 20"}, nil},
		{"M)\n", "M", []string{"INTEGER M", "scalar · dummy argument", "declared on line 19"}, nil},
		{"MAIN", "MAIN", []string{"PROGRAM MAIN"}, nil},
	} {
		i := strings.Index(hoverSrc, c.at)
		h := Hover(f, i, nil)
		if h == nil {
			t.Errorf("%s: no hover", c.at)
			continue
		}
		if got := hoverSrc[h.Start:h.End]; got != c.name || h.Start != i {
			t.Errorf("%s: hover over %q at %d, want %q at %d", c.at, got, h.Start, c.name, i)
		}
		lines := strings.Split(h.Markdown, "\n")
		for _, w := range c.want {
			found := false
			for _, l := range lines {
				found = found || l == w
			}
			if !found {
				t.Errorf("%s: hover lacks the line %q:\n%s", c.at, w, h.Markdown)
			}
		}
		for _, w := range c.not {
			if strings.Contains(h.Markdown, w) {
				t.Errorf("%s: hover has %q:\n%s", c.at, w, h.Markdown)
			}
		}
	}
	// Off a name (the blank between "=" and SQRT): none.
	if h := Hover(f, strings.Index(hoverSrc, " = SQRT")+2, nil); h != nil {
		t.Errorf("hover on a blank: %+v", h)
	}
}

// TestHoverLayout: a CM Fortran LAYOUT is shown with each axis's
// ordering as written.
func TestHoverLayout(t *testing.T) {
	src := "      PROGRAM P\n      REAL A(8, 16)\nCMF$  LAYOUT A(:NEWS, :SERIAL)\n      A = 0\n      END\n"
	f := parser.Parse("p.fcm", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatalf("errors %v", errs)
	}
	h := Hover(f, strings.Index(src, "A = 0"), nil)
	if h == nil || !strings.Contains(h.Markdown, "\nlayout: `A(:NEWS, :SERIAL)`\n") {
		t.Errorf("hover %+v", h)
	}
}

// TestHoverF90 covers the free-form declarations: a derived type, a
// variable of that type, a NAMELIST group and a CYCLIC(2) distribution.
func TestHoverF90(t *testing.T) {
	src := `program q
  type pt
    real :: x, y
  end type pt
  type(pt) :: p
  real :: a(100), b, c
  namelist /nl/ b, c
!hpf$ distribute a(cyclic(2))
  a = 0
  read (*, nml=nl)
end program q
`
	f := parser.Parse("q.f90", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatalf("errors %v", errs)
	}
	for _, c := range []struct {
		at   int
		want string
	}{
		{strings.Index(src, "type pt") + len("type "), "```fortran\nTYPE PT\n  REAL :: X, Y\nEND TYPE\n```\n"},
		{strings.Index(src, "p\n"), "```fortran\nTYPE(PT) P\n```\n"},
		{strings.Index(src, "nl/"), "```fortran\nNAMELIST /NL/\n```\n"},
		{strings.Index(src, "nl)"), "```fortran\nNAMELIST /NL/\n```\n"},
		{strings.Index(src, "a = 0"), "\ndistributed: `A(CYCLIC(2))`\n"},
		{strings.Index(src, "a = 0"), "```fortran\nREAL A(100)\n```\n"},
	} {
		h := Hover(f, c.at, nil)
		if h == nil || !strings.Contains(h.Markdown, c.want) {
			t.Errorf("hover at %d (%q): %+v, want %q", c.at, src[c.at:c.at+3], h, c.want)
		}
	}
}

// TestCapabilityCacheValues: the values of symbols are part of the
// cache key, in any order of the map: the same values share one
// analysis, other values get their own.
func TestCapabilityCacheValues(t *testing.T) {
	src := []byte("      PROGRAM P\n      REAL A(100)\n      DO 10 I = 1, 100\n         A(I) = I\n   10 CONTINUE\n      END\n")
	f := parser.Parse("values.f", src, nil)
	opts := func(vals map[string]float64) EstimateOptions {
		return EstimateSettings{Procs: 4, Values: vals}.Options(nil)
	}
	before := capabilityRuns.Load()
	CapabilityDiagnostics(f, opts(map[string]float64{"N": 100, "M": 3}), nil)
	CapabilityDiagnostics(f, opts(map[string]float64{"M": 3, "N": 100}), nil)
	if n := capabilityRuns.Load() - before; n != 1 {
		t.Errorf("%d analyses for the same values, want 1", n)
	}
	CapabilityDiagnostics(f, opts(map[string]float64{"N": 200, "M": 3}), nil)
	CapabilityDiagnostics(f, opts(map[string]float64{"N": 100}), nil)
	if n := capabilityRuns.Load() - before; n != 3 {
		t.Errorf("%d analyses for three sets of values, want 3", n)
	}
}

// TestHoverScalarProcessors: a PROCESSORS arrangement without shape
// (HPF's scalar processor) has no rank in its hover.
func TestHoverScalarProcessors(t *testing.T) {
	src := "      PROGRAM P\n!HPF$ PROCESSORS SOLO\n      REAL A(8)\n!HPF$ DISTRIBUTE A(*) ONTO SOLO\n      A = 0\n      END\n"
	f := parser.Parse("p.hpf", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatalf("errors %v", errs)
	}
	h := Hover(f, strings.Index(src, "SOLO"), nil)
	if h == nil || !strings.HasPrefix(h.Markdown, "```fortran\nPROCESSORS SOLO\n```\n") || strings.Contains(h.Markdown, "rank") {
		t.Errorf("hover %+v", h)
	}
	if h != nil && !strings.Contains(h.Markdown, "declared on line 2") {
		t.Errorf("hover %+v", h)
	}
}

// TestEstimateSettingsOptions: the processor count is clamped to
// [1, partition.MaxProcs] (16 when unset or not positive), and the names
// of values are upper-cased, as Fortran names are.
func TestEstimateSettingsOptions(t *testing.T) {
	for _, c := range []struct{ procs, want int }{
		{0, 16}, {-3, 16}, {1, 1}, {2, 2}, {partition.MaxProcs, partition.MaxProcs}, {partition.MaxProcs + 1, partition.MaxProcs},
	} {
		if got := (EstimateSettings{Procs: c.procs}).Options(nil).Procs; got != c.want {
			t.Errorf("procs %d: %d, want %d", c.procs, got, c.want)
		}
	}
	o := EstimateSettings{Values: map[string]float64{"n": 1000, "Tol": 0.5}}.Options(nil)
	if len(o.Values) != 2 || o.Values["N"] == nil || o.Values["N"].RatString() != "1000" || o.Values["TOL"] == nil || o.Values["TOL"].RatString() != "1/2" {
		t.Errorf("values %v", o.Values)
	}
	if o.Machine == nil || o.Machine != (EstimateSettings{}).Options(nil).Machine {
		t.Errorf("the default machine is not shared: %p", o.Machine)
	}
}

// TestNewEngineTables: the cost table chosen in the settings changes the
// labels. One REAL addition per iteration of a loop of N iterations:
// fp-one counts N (nothing else costs), a table charging only 2 per
// iteration counts 2·N; "" is all-one.
func TestNewEngineTables(t *testing.T) {
	src := "      SUBROUTINE T(X, N)\n      DO 10 I = 1, N\n         X = X + 1.0\n   10 CONTINUE\n      END\n"
	f := parser.Parse("t.f", []byte(src), nil)
	loopLabel := func(table, text string) string {
		t.Helper()
		eng, err := NewEngine(table, text, nil)
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		for _, h := range InlayHints(f, eng, 0, len(src), InlayOptions{Loops: true, MaxLength: 40}) {
			if f.Lines.Line(h.Offset) == 1 {
				return h.Label
			}
		}
		t.Fatalf("%s: no hint on the loop", table)
		return ""
	}
	if got := loopLabel("fp-one", ""); got != "N for N ≥ 1" {
		t.Errorf("fp-one: %q", got)
	}
	if got := loopLabel("two.cost", "[loop]\nper-iteration 2\n"); got != "2·N for N ≥ 1" {
		t.Errorf("per-iteration 2: %q", got)
	}
	if def, all := loopLabel("", ""), loopLabel("all-one", ""); def != all || def == "N for N ≥ 1" {
		t.Errorf("default %q, all-one %q", def, all)
	}
	if _, err := NewEngine("bad.cost", "+ 1\n", nil); err == nil || !strings.HasPrefix(err.Error(), "1:1:") {
		t.Errorf("a malformed table: error %v", err)
	}
}

// TestStatementHoverElements: the hover of an array assignment gives the
// number of elements it stands for, read off its section: N for a WHERE
// or a whole-array assignment over A(N), 4 for A(1:4); none for one
// element or a scalar statement; N - 2 for A(2:N-1), whose count has a
// negative constant.
func TestStatementHoverElements(t *testing.T) {
	src := `subroutine s(a, n)
  integer n
  real a(n)
  where (a > 0) a = 1.0 / a
  a(1:4) = 0
  a(3:3) = 0
  a(1) = 2.0
  a = 3.0 * a
  a(2:n-1) = a(1:n-2) + a(3:n)
end subroutine s
`
	f := parser.Parse("s.f90", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatalf("errors %v", errs)
	}
	eng := complexity.NewEngine(complexity.Options{})
	for _, c := range []struct{ at, want string }{
		{"where", "**Elements**: `N`"},
		{"a(1:4)", "**Elements**: `4`"},
		{"a(3:3)", ""},
		{"a(1) =", ""},
		{"a = 3", "**Elements**: `N`"},
		{"a(2:n-1)", "**Elements**: `N - 2`"},
	} {
		h := StatementHover(f, eng, strings.Index(src, c.at))
		if h == "" {
			t.Errorf("%s: no hover", c.at)
			continue
		}
		if c.want == "" {
			if strings.Contains(h, "**Elements**") {
				t.Errorf("%s: elements in\n%s", c.at, h)
			}
		} else if !strings.Contains(h, c.want+" (the work is one element's cost") {
			t.Errorf("%s: no %s in\n%s", c.at, c.want, h)
		}
	}
}
