package complexity

import (
	"os"
	"testing"

	"github.com/pfls/pfls/parser"
)

func parseFile(t *testing.T, path string) *parser.File {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := parser.Parse(path, src, nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatalf("%s: %v", path, errs)
	}
	return f
}

func summaryOf(t *testing.T, eng *Engine, f *parser.File, name string) *UnitResult {
	t.Helper()
	for _, r := range eng.File(f) {
		if r.Unit.Name == name {
			return r
		}
	}
	t.Fatalf("no unit %s", name)
	return nil
}

// TestSUB2 is the example of seed 004 §5.4: the exact polynomial of the
// listing (the report prints it rounded as 29*M^2 + 98*M + 1), and the
// listing's loop polynomials.
func TestSUB2Listing(t *testing.T) {
	f := parseFile(t, "../examples/sub2.f")
	r := summaryOf(t, NewEngine(Options{Pips: true}), f, "SUB2")
	if got, want := r.Summary.String(), "57/2*M^2 + 195/2*M + 1"; got != want {
		t.Errorf("SUB2 summary = %s, want %s", got, want)
	}
	want := map[int]string{ // line → polynomial of the statement there
		6:  "57/2*M^2 + 195/2*M + 1",
		7:  "3",
		8:  "9*I^2 - 12*I.M + 3*M^2 - 84*I + 72*M + 135",
		9:  "5",
		10: "-6*I - 6*J + 6*M + 70",
		11: "3",
		12: "3",
		13: "0",
	}
	checkLines(t, f, r, want)
	// Without --pips, the inner loops show the same polynomials (under
	// the conditions that make their ranges non-empty); the summary is
	// the report's for M <= 9 only.
	ex := summaryOf(t, NewEngine(Options{}), f, "SUB2")
	want[6] = "1/2*M^3 + 75/4*M^2 + 154*M - 83"
	checkLines(t, f, ex, want)
	if len(ex.Pieces) != 4 || ex.Pieces[1].Cost.String() != "57/2*M^2 + 195/2*M + 1" || WhenString(ex.Pieces[1].When, false) != "1 <= M <= 9" {
		t.Errorf("SUB2 pieces %v", ex.Pieces)
	}
}

func checkLines(t *testing.T, f *parser.File, r *UnitResult, want map[int]string) {
	t.Helper()
	got := map[int]string{}
	for _, s := range r.Statements {
		line := f.Lines.Line(r.Unit.Abs(s.Stmt.Pos())) + 1
		got[line] = s.Cost.String()
	}
	for line, w := range want {
		if got[line] != w {
			t.Errorf("line %d: %q, want %q", line, got[line], w)
		}
	}
}

// TestCOLLC reproduces Tables 1 and 2 of seed 004 for COLLC exactly, and
// the listing's statement costs that the report prints unrounded.
func TestCOLLC(t *testing.T) {
	f := parseFile(t, "testdata/collc.f")
	all := summaryOf(t, NewEngine(Options{}), f, "COLLC")
	if got, want := all.Summary.String(), "60*I2.J2 + 94*IL.JL + 62*IL + 4*J2 + 56*JL + 103"; got != want {
		t.Errorf("all-one summary = %s, want %s", got, want)
	}
	fp := summaryOf(t, NewEngine(Options{Cost: FPOne()}), f, "COLLC")
	if got, want := fp.Summary.String(), "4*I2.J2 + 10*IL.JL + 6*IL"; got != want {
		t.Errorf("fp-one summary = %s, want %s", got, want)
	}
	checkLines(t, f, all, map[int]string{
		9:  "3",                       // IIL = II2-1
		10: "35*IL.JL + 10*JL + 8",    // DO 10 N
		11: "1",                       // JJ = 1
		12: "35/4*IL.JL + 5/2*JL + 1", // the report rounds 35/4 to 9
		15: "35/2*IL + 1",             // and 35/2 to 18
		17: "32",
		20: "60*I2.J2 + 4*J2 + 4",
		21: "15*I2.J2 + J2 + 1",
		22: "15*I2 + 1",
		23: "15",
		25: "59*IL.JL + 46*JL + 8",
		32: "56",
		36: "9",
		37: "9",
		39: "62*IL + 80",
		43: "28",
	})
}
