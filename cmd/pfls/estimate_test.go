package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestEstimateJSONContract(t *testing.T) {
	code, out, errOut := runCmd("estimate", "--json", "--line", "13", "../../examples/redblack.f")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Path  string
		Procs int
		Loops []struct {
			Line    int
			Current struct {
				Distribution string
				Time, Comm   float64
			}
			Candidates []struct {
				Distribution string
				Time, Comm   float64
			}
			Crossovers []struct {
				Symbol       string
				Value        int64
				Below, Above string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if doc.Procs != 16 || len(doc.Loops) != 1 || doc.Loops[0].Line != 13 {
		t.Fatalf("document %+v", doc)
	}
	l := doc.Loops[0]
	if l.Current.Distribution != "G(BLOCK,BLOCK)" || l.Current.Time <= l.Current.Comm || l.Current.Comm <= 0 {
		t.Errorf("current %+v", l.Current)
	}
	for i := 1; i < len(l.Candidates); i++ {
		if l.Candidates[i].Time < l.Candidates[i-1].Time {
			t.Errorf("candidates not fastest first: %+v", l.Candidates)
		}
	}
	if len(l.Crossovers) == 0 || l.Crossovers[0].Symbol != "N" {
		t.Errorf("crossovers %+v", l.Crossovers)
	}
	for _, key := range []string{`"distribution"`, `"time"`, `"comm"`, `"candidates"`, `"crossovers"`, `"below"`, `"above"`} {
		if !strings.Contains(out, key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

func TestEstimateTextPlotAndErrors(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "rb.svg")
	code, out, errOut := runCmd("estimate", "--plot", svg, "--set", "N=128", "../../examples/redblack.f")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "current G(BLOCK,BLOCK)") || !strings.Contains(out, "crossover at N = ") {
		t.Errorf("text output:\n%s", out)
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(strings.NewReader(string(data)))
	for {
		if _, err := dec.Token(); err != nil {
			if err.Error() != "EOF" {
				t.Errorf("plot is not XML: %v", err)
			}
			break
		}
	}
	if !strings.Contains(string(data), "G(:,BLOCK)") {
		t.Errorf("plot lacks the strip curve")
	}
	if code, _, errOut := runCmd("estimate", "--line", "2", "../../examples/redblack.f"); code != 2 || !strings.Contains(errOut, "no DO loop starts on this line") {
		t.Errorf("bad --line: %d %q", code, errOut)
	}
	bad := writeTemp(t, "m.json", `{"name": 1}`)
	if code, _, errOut := runCmd("estimate", "--machine", bad, "../../examples/redblack.f"); code != 2 || !strings.Contains(errOut, bad) {
		t.Errorf("bad machine file: %d %q", code, errOut)
	}
	if code, _, _ := runCmd("estimate", "--procs", "0", "../../examples/redblack.f"); code != 2 {
		t.Errorf("--procs 0 accepted")
	}
}

func TestEstimateLimits(t *testing.T) {
	if code, _, errOut := runCmd("estimate", "--procs", "100000000", "../../examples/redblack.f"); code != 2 || !strings.Contains(errOut, "want 1 to 65536") {
		t.Errorf("huge --procs: %d %q", code, errOut)
	}
	bad := writeTemp(t, "bad.f", "      PROGRAM P\n      DO 10 I = 1, 4\n      X = (1 +\n   10 CONTINUE\n      END\n")
	if code, _, errOut := runCmd("estimate", bad); code != 1 || !strings.Contains(errOut, "expected an expression") {
		t.Errorf("estimate of a file with errors: %d %q", code, errOut)
	}
	code, out, _ := runCmd("complexity", "--json", "--eval", "M=1e400", "../../examples/sub2.f")
	if code != 0 || !strings.Contains(out, `"value": "`) {
		t.Errorf("huge --eval value: %d\n%s", code, out)
	}
}

// TestEstimateLineInBlock: --line finds a DO inside a BLOCK construct (and
// inside IF), as the editor's command does: both use parser.LoopsAt.
func TestEstimateLineInBlock(t *testing.T) {
	src := writeTemp(t, "blk.f90", `program b
  integer, parameter :: n = 64
  real :: a(n), c(n)
!hpf$ distribute a(block)
  block
    integer :: i
    do i = 2, n
      a(i) = c(i-1)
    end do
  end block
end program
`)
	code, out, errOut := runCmd("estimate", "--line", "7", src)
	if code != 0 || !strings.Contains(out, ":7: loop of B") {
		t.Errorf("--line 7 (DO inside BLOCK): exit %d\n%s%s", code, out, errOut)
	}
}

// TestEstimatePlotRefusesNonSVG: --plot never writes over a file that is
// not an SVG image, such as the source itself; an older plot may be
// replaced.
func TestEstimatePlotRefusesNonSVG(t *testing.T) {
	src, err := os.ReadFile("../../examples/redblack.f")
	if err != nil {
		t.Fatal(err)
	}
	copyOf := writeTemp(t, "rb.f", string(src))
	code, _, errOut := runCmd("estimate", "--plot", copyOf, copyOf)
	if code != 2 || !strings.Contains(errOut, "is not an SVG image") {
		t.Errorf("--plot onto the source: exit %d %q", code, errOut)
	}
	if now, _ := os.ReadFile(copyOf); string(now) != string(src) {
		t.Errorf("the source was changed")
	}
	svg := filepath.Join(t.TempDir(), "old.svg")
	if err := os.WriteFile(svg, []byte("<?xml version=\"1.0\"?>\n<!-- old -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCmd("estimate", "--plot", svg, "--set", "N=64", copyOf); code != 0 {
		t.Errorf("--plot over an older SVG: exit %d %q", code, errOut)
	}
	if now, _ := os.ReadFile(svg); !strings.Contains(string(now), "G(:,BLOCK)") {
		t.Errorf("the older plot was not replaced")
	}
	if code, _, errOut := runCmd("estimate", "--plot", t.TempDir(), copyOf); code != 2 || !strings.Contains(errOut, "not a regular file") {
		t.Errorf("--plot onto a folder: exit %d %q", code, errOut)
	}
}

// TestEstimateBadValues: a negative extent or trip bound and a --vary
// symbol the program does not use are refused with the reason.
func TestEstimateBadValues(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--set", "N=-5"}, "N=-5: N sizes array"},
		{[]string{"--set", "NCYCLE=-2"}, "NCYCLE=-2: NCYCLE bounds the"},
		{[]string{"--vary", "XYZ"}, "--vary XYZ: XYZ does not occur in"},
	} {
		args := append(append([]string{"estimate"}, c.args...), "../../examples/redblack.f")
		if code, _, errOut := runCmd(args...); code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d %q, want %q", c.args, code, errOut, c.want)
		}
	}
	if code, _, errOut := runCmd("estimate", "--set", "N=64", "--vary", "n", "../../examples/redblack.f"); code != 0 {
		t.Errorf("--vary n (used): exit %d %q", code, errOut)
	}
}

// TestEstimateOtherFiles: pfls estimate MAIN OTHER... estimates MAIN's
// loops following calls into the other files: mpi-jacobi-sub.f90 split
// into its module and its program reports EXCHANGE's two exchanges,
// which the program's file alone does not show. An unreadable other
// file is a usage error naming it.
func TestEstimateOtherFiles(t *testing.T) {
	src, err := os.ReadFile("../../hints/testdata/programs/mpi-jacobi-sub.f90")
	if err != nil {
		t.Fatal(err)
	}
	k := strings.Index(string(src), "program jacobi_mpi_sub")
	dir := t.TempDir()
	mainPath, modPath := filepath.Join(dir, "main.f90"), filepath.Join(dir, "kernels.f90")
	if err := os.WriteFile(modPath, src[:k], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mainPath, src[k:], 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd("estimate", mainPath, modPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := len(regexp.MustCompile(`exchange of MPI_SENDRECV at line \d+: 1000 × 8192 bytes`).FindAllString(out, -1)); n != 2 {
		t.Errorf("with the module's file: %d exchanges reported, want 2:\n%s", n, out)
	}
	if !strings.Contains(out, "inside EXCHANGE (kernels.f90) called at line") {
		t.Errorf("the exchanges do not name the module's file:\n%s", out)
	}
	_, alone, _ := runCmd("estimate", mainPath)
	if strings.Contains(alone, "exchange of MPI_SENDRECV") {
		t.Errorf("the program's file alone reports EXCHANGE's messages:\n%s", alone)
	}
	code, _, errOut = runCmd("estimate", mainPath, filepath.Join(dir, "missing.f90"))
	if code != 2 || !strings.Contains(errOut, "missing.f90") {
		t.Errorf("a missing other file: exit %d, %q; want 2 and its name", code, errOut)
	}
}

// TestEstimateSetRepeated: --set given twice sets both lists' names, as
// one --set with both does (the second replaced the first): STEP's loop
// over G%NX·G%NY points has a number of seconds, not a symbol.
func TestEstimateSetRepeated(t *testing.T) {
	f := "../../hints/testdata/programs/f08-grid.f90"
	code, twice, errOut := runCmd("estimate", "--procs", "1", "--set", "G%NX=256", "--set", "G%NY=128", f)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, once, _ := runCmd("estimate", "--procs", "1", "--set", "G%NX=256,G%NY=128", f)
	if twice != once || strings.Contains(twice, "symbolic") {
		t.Errorf("--set twice:\n%s\n--set once:\n%s", twice, once)
	}
}
