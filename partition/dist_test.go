package partition

import (
	"os"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

func parseExample(t *testing.T, name string) (*parser.File, *parser.Unit) {
	t.Helper()
	src, err := os.ReadFile("../examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	f := parser.Parse(name, src, nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatalf("%s: %v", name, errs)
	}
	return f, f.Units[0]
}

func layoutString(l *Layout) string {
	var parts []string
	for _, d := range l.Dims {
		parts = append(parts, d.String()+"/"+itoa(d.Procs))
	}
	return l.Array + "(" + strings.Join(parts, ",") + ")"
}

func itoa(n int) string {
	s := ""
	if n == 0 {
		return "0"
	}
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}

func TestFromUnitDialects(t *testing.T) {
	cases := []struct {
		file, want, name string
	}{
		{"redblack.f", "VAL(BLOCK/4,BLOCK/4)", "G(BLOCK,BLOCK)"},
		{"dgefa.f", "A(:/1,CYCLIC/16)", "D(:,CYCLIC)"},
		{"tridvpk.f", "F(:/1,:/1,BLOCK/16)", "DZ(:,:,BLOCK)"},
		// CM Fortran: A spread over all processors in both dimensions by
		// default; B too, on its own, since it is not aligned with A.
		{"example.fcm", "B(BLOCK/4,BLOCK/4)", "A(BLOCK,BLOCK)"},
	}
	for _, c := range cases {
		_, u := parseExample(t, c.file)
		dialect := ""
		if strings.HasSuffix(c.file, ".fcm") {
			dialect = "cmf"
		}
		d := FromUnit(u, 16, dialect)
		if d.Name() != c.name {
			t.Errorf("%s: distribution %s, want %s", c.file, d.Name(), c.name)
		}
		name := c.want[:strings.IndexByte(c.want, '(')]
		if got := layoutString(d.Arrays[name]); got != c.want {
			t.Errorf("%s: %s, want %s", c.file, got, c.want)
		}
	}
}

func TestAlignmentsHPF(t *testing.T) {
	src := `      PROGRAM P
      REAL A(100,200), B(200,100), C(100), S(100)
!HPF$ PROCESSORS PR(2,8)
!HPF$ TEMPLATE T(100,200)
!HPF$ ALIGN A(I,J) WITH T(I,J)
!HPF$ ALIGN B(J,I) WITH T(I,J+1)
!HPF$ ALIGN C(I) WITH T(I,*)
!HPF$ DISTRIBUTE T(BLOCK,CYCLIC(4)) ONTO PR
      END
`
	f := parser.Parse("p.f", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	d := FromUnit(f.Units[0], 16, "")
	for name, want := range map[string]string{
		"A": "A(BLOCK/2,CYCLIC(4)/8)",
		"B": "B(CYCLIC(4)/8,BLOCK/2)", // permuted
		"C": "C(BLOCK/2)",             // replicated along the second template dimension
		"S": "S(:/1)",                 // neither aligned nor distributed: replicated
	} {
		if got := layoutString(d.Arrays[name]); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	if !d.Arrays["S"].Replicated {
		t.Errorf("S should be replicated")
	}
	if off := d.Arrays["B"].Offset; off[0] != 1 || off[1] != 0 {
		t.Errorf("B offsets %v, want [1 0]", off)
	}
}

func TestFactorAndCandidates(t *testing.T) {
	for p, want := range map[int]string{16: "4x4", 8: "4x2", 12: "4x3", 7: "7x1", 1: "1x1"} {
		g := factor(p, 2)
		if got := itoa(g[0]) + "x" + itoa(g[1]); got != want {
			t.Errorf("factor(%d, 2) = %s, want %s", p, got, want)
		}
	}
	if n := len(CandidateFormats(2)); n != 8 {
		t.Errorf("rank 2: %d candidates, want 8 (3*3 minus the undistributed one)", n)
	}
	if n := len(CandidateFormats(3)); n != 18 {
		t.Errorf("rank 3: %d candidates, want 18 (at most two distributed dimensions)", n)
	}
}

func mustRead(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// Arrays of one shape distributed identically onto one arrangement are
// aligned (one template); a different shape or format is not. The
// distribution is named after the first target written; ALIGN (:) WITH
// T(:) lays the alignees on the template.
func TestIdenticalDistributionsAligned(t *testing.T) {
	src := `      PROGRAM P
      REAL U(64,64), UNEW(64,64), F(64,64), G(32,32), H(64,64)
      REAL X(100), Y(100), Z(100), W(100)
!HPF$ PROCESSORS PR(4,4)
!HPF$ DISTRIBUTE (BLOCK,BLOCK) ONTO PR :: UNEW, U, F, G
!HPF$ DISTRIBUTE H(CYCLIC,BLOCK) ONTO PR
!HPF$ TEMPLATE T(100)
!HPF$ DISTRIBUTE T(BLOCK)
!HPF$ ALIGN (:) WITH T(:) :: X, Y
!HPF$ TEMPLATE T2(100), T3(200)
!HPF$ DISTRIBUTE (BLOCK) :: T2, T3
!HPF$ ALIGN Z(I) WITH T2(I)
!HPF$ ALIGN W(I) WITH T3(I)
      END
`
	f := parser.Parse("p.f", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	d := FromUnit(f.Units[0], 16, "")
	if d.Template != "UNEW" {
		t.Errorf("named after %s, want UNEW (the first target)", d.Template)
	}
	for name, want := range map[string]string{"UNEW": "UNEW", "U": "UNEW", "F": "UNEW", "G": "G", "H": "H", "X": "T", "Y": "T", "Z": "T", "W": "T3"} {
		if got := d.Arrays[name].Template; got != want {
			t.Errorf("%s is aligned with %s, want %s", name, got, want)
		}
	}
	if got := layoutString(d.Arrays["X"]); got != "X(BLOCK/16)" {
		t.Errorf("X: %s, want X(BLOCK/16)", got)
	}
}

// CM Fortran lays out arrays of one shape alike by default: aligned; a
// :SERIAL dimension or another shape is a different layout.
func TestCMFSameShapeAligned(t *testing.T) {
	src := `      PROGRAM P
      REAL A(64,64), B(64,64), C(64,64), E(32,32)
CMF$ LAYOUT C(:SERIAL, :NEWS)
      END
`
	f := parser.Parse("p.fcm", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	d := FromUnit(f.Units[0], 16, "cmf")
	for name, want := range map[string]string{"A": d.Template, "B": d.Template, "E": "E"} {
		if got := d.Arrays[name].Template; got != want {
			t.Errorf("%s is aligned with %s, want %s", name, got, want)
		}
	}
	if got := d.Arrays["C"].Template; got == d.Template {
		t.Errorf("C (:SERIAL) is aligned with %s", got)
	}
}
