package hints

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
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
		{"SQRT", "SQRT", []string{"INTRINSIC SQRT", "intrinsic procedure"}, nil},
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
