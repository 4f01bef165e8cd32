package hints

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
)

const sub2 = `      SUBROUTINE SUB2(M)
      INTEGER M
      DO 10 I = 1, M
         II = I + 1
         DO 20 J = II, M + 2
            JJ = I + J - 2
            DO 30 K = JJ + 2, M + 10
               T = T + 1.0
               U = U + 1.0
   30       CONTINUE
   20    CONTINUE
   10 CONTINUE
      X = 1
      RETURN
      END
`

func TestInlayHints(t *testing.T) {
	f := parser.Parse("sub2.f", []byte(sub2), nil)
	eng := complexity.NewEngine(complexity.Options{})
	// The report's convention (pfls.complexity.pips) reproduces its listing.
	hs := InlayHints(f, eng, 0, len(f.Src), InlayOptions{Loops: true, Units: true, MaxLength: 24, Pips: true})
	var got []string
	for _, h := range hs {
		line := f.Lines.Line(h.Offset)
		if h.Offset != f.Lines.LineEnd(line) {
			t.Errorf("hint %q not at the end of line %d", h.Label, line+1)
		}
		got = append(got, strings.TrimSpace(string(f.Src[f.Lines.LineStart(line):h.Offset]))+" => "+h.Label)
	}
	want := []string{
		"SUBROUTINE SUB2(M) => 57/2·M² + 195/2·M + 2", // X = 1 adds one
		"DO 10 I = 1, M => 57/2·M² + 195/2·M + 1",
		"DO 20 J = II, M + 2 => 9·I² - 12·I·M + 3·M² - …",
		"DO 30 K = JJ + 2, M + 10 => -6·I - 6·J + 6·M + 70",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(hs) > 2 && !strings.Contains(hs[2].Tooltip, "9*I^2 - 12*I.M + 3*M^2 - 84*I + 72*M + 135") {
		t.Errorf("tooltip lacks the full polynomial: %q", hs[2].Tooltip)
	}
	// Exact counting: the piece for large M with its condition, inner
	// loops with the condition of the report's convention.
	hs = InlayHints(f, eng, 0, len(f.Src), InlayOptions{Loops: true, Units: true, MaxLength: 60})
	got = nil
	for _, h := range hs {
		line := f.Lines.Line(h.Offset)
		got = append(got, strings.TrimSpace(string(f.Src[f.Lines.LineStart(line):h.Offset]))+" => "+h.Label)
	}
	want = []string{
		"SUBROUTINE SUB2(M) => 1/2·M³ + 75/4·M² + 154·M - 82 for M ≥ 10, M even",
		"DO 10 I = 1, M => 1/2·M³ + 75/4·M² + 154·M - 83 for M ≥ 10, M even",
		"DO 20 J = II, M + 2 => 9·I² - 12·I·M + 3·M² - 84·I + 72·M + 1… for I ≤ 8, M + 1 ≥ I",
		"DO 30 K = JJ + 2, M + 10 => -6·I - 6·J + 6·M + 70 for M + 10 ≥ I + J",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("exact: got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if tip := hs[0].Tooltip; !strings.Contains(tip, "1 <= M <= 9: 57/2*M^2 + 195/2*M + 2") || !strings.Contains(tip, "M >= 10, M odd: ") {
		t.Errorf("unit tooltip lacks the pieces: %q", tip)
	}
	// Only the requested range, and each kind switchable.
	l5 := f.Lines.LineStart(4)
	if hs := InlayHints(f, eng, l5, len(f.Src), DefaultInlayOptions()); len(hs) != 2 {
		t.Errorf("range from line 5: %d hints, want 2", len(hs))
	}
	if hs := InlayHints(f, eng, 0, len(f.Src), InlayOptions{Units: true}); len(hs) != 1 || hs[0].Kind != "unit" {
		t.Errorf("units only: %+v", hs)
	}
}

func TestStatementHover(t *testing.T) {
	f := parser.Parse("sub2.f", []byte(sub2), nil)
	eng := complexity.NewEngine(complexity.Options{})
	at := func(text string) int { return strings.Index(sub2, text) }
	if h := StatementHover(f, eng, at("DO 30")); !strings.Contains(h, "`-6*I - 6*J + 6*M + 70`") || !strings.Contains(h, "(DO)") {
		t.Errorf("hover on the DO 30 line: %q", h)
	}
	// Every piece of the outer loop, and where each holds.
	if h := StatementHover(f, eng, at("DO 10")); !strings.Contains(h, "- 1 ≤ M ≤ 9: `57/2*M^2 + 195/2*M + 1`") || !strings.Contains(h, "- M ≥ 10, M odd: `1/2*M^3 + 75/4*M^2 + 154*M - 329/4`") || !strings.Contains(h, "- M ≤ 0: `1`") {
		t.Errorf("hover on the DO 10 line lacks its pieces: %q", h)
	}
	if h := StatementHover(f, eng, at("JJ = I")); !strings.Contains(h, "`5`") {
		t.Errorf("hover on JJ = I + J - 2: %q", h)
	}
	if h := StatementHover(f, eng, at("INTEGER M")); h != "" {
		t.Errorf("hover on a declaration: %q", h)
	}
}

// TestInlayAssumption: where exact counting is out of reach (a bound
// that is not affine), the hint states the condition it assumes.
func TestInlayAssumption(t *testing.T) {
	src := "      SUBROUTINE NA(N)\n      DO 10 I = 1, N\n         DO 20 J = 1, I*I - N\n            X = X + 1.0\n   20    CONTINUE\n   10 CONTINUE\n      END\n"
	f := parser.Parse("na.f", []byte(src), nil)
	hs := InlayHints(f, complexity.NewEngine(complexity.Options{}), 0, len(src), InlayOptions{Loops: true, Units: true, MaxLength: 80})
	if len(hs) != 3 {
		t.Fatalf("%d hints", len(hs))
	}
	for _, h := range hs[:2] {
		if !strings.Contains(h.Label, "assumes I^2 ≥ N + 1") {
			t.Errorf("hint %q does not state its assumption", h.Label)
		}
	}
}
