package hints

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

func applyEdits(src []byte, edits []TextEdit) []byte {
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start > edits[j].Start })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.Start], append([]byte(e.Text), out[e.End:]...)...)
	}
	return out
}

// TestLoopActions: on a DO line, "Estimate this loop" and one action per
// candidate distribution whose edit, applied, leaves a file that parses
// and is distributed as the title says, in the file's own dialect.
func TestLoopActions(t *testing.T) {
	hpf := `      PROGRAM H
      PARAMETER (N = 256)
      REAL X(N,N), Y(N,N)
!HPF$ PROCESSORS P(4,4)
!HPF$ TEMPLATE T(N,N)
!HPF$ ALIGN X(I,J) WITH T(I,J)
!HPF$ ALIGN Y(I,J) WITH T(I,J)
!HPF$ DISTRIBUTE T(BLOCK,BLOCK) ONTO P
      DO 10 J = 2, N - 1
         DO 10 I = 2, N - 1
            X(I,J) = Y(I-1,J) + Y(I+1,J) + Y(I,J-1) + Y(I,J+1)
   10 CONTINUE
      END
`
	cases := []struct {
		name, src, line, dialectWord string
	}{
		{"redblack.f", "", "      DO 100 KC", "DISTRIBUTE G("},
		{"hpf.f", hpf, "      DO 10 J", "!HPF$ DISTRIBUTE T("},
		{"example.fcm", "", "      DO K = 1, 10", "CMF$  LAYOUT A("},
	}
	for _, c := range cases {
		src := []byte(c.src)
		if c.src == "" {
			b, err := os.ReadFile("../examples/" + c.name)
			if err != nil {
				t.Fatal(err)
			}
			src = b
		}
		f := parser.Parse(c.name, src, nil)
		off := strings.Index(string(src), c.line)
		acts := LoopActions(f, off, EstimateSettings{Procs: 16}.Options(nil))
		if len(acts) < 3 || acts[0].Command != EstimateCommand {
			t.Fatalf("%s: actions %+v", c.name, acts)
		}
		preferred := 0
		for _, a := range acts[1:] {
			if a.Preferred {
				preferred++
			}
			name := strings.TrimPrefix(a.Title[:strings.Index(a.Title, ": ")], "Distribute ")
			nsrc := applyEdits(src, a.Edits)
			g := parser.Parse(c.name, nsrc, nil)
			if errs := g.Errors(); len(errs) > 0 {
				t.Errorf("%s: %q leaves errors %v\n%s", c.name, a.Title, errs, nsrc)
				continue
			}
			if !strings.Contains(string(nsrc), c.dialectWord) {
				t.Errorf("%s: %q does not write %q", c.name, a.Title, c.dialectWord)
			}
			dialect := ""
			if strings.HasSuffix(c.name, ".fcm") {
				dialect = "cmf"
			}
			if got := partition.FromUnit(g.Units[0], 16, dialect).Name(); got != name {
				t.Errorf("%s: %q gives %s", c.name, a.Title, got)
			}
		}
		if preferred > 1 {
			t.Errorf("%s: %d preferred actions", c.name, preferred)
		}
	}
}

// TestLoopActionsAboutTheSame: where a candidate's estimate is within
// the machine's run-to-run noise of the current one, its action says
// "about the same" and is not preferred.
func TestLoopActionsAboutTheSame(t *testing.T) {
	src, err := os.ReadFile("../examples/redblack.f")
	if err != nil {
		t.Fatal(err)
	}
	f := parser.Parse("redblack.f", src, nil)
	off := strings.Index(string(src), "      DO 100 KC")
	m := machine.DefaultMachine()
	m.Noise = 10 // every candidate is within 1000% of every other
	acts := LoopActions(f, off, EstimateSettings{Procs: 16}.Options(m))
	if len(acts) < 3 {
		t.Fatalf("actions %+v", acts)
	}
	for _, a := range acts[1:] {
		if !strings.HasSuffix(a.Title, ", within noise") || !strings.Contains(a.Detail, "about the same as G(BLOCK,BLOCK)") || a.Preferred {
			t.Errorf("%q, %q (preferred %v): want about the same, not preferred", a.Title, a.Detail, a.Preferred)
		}
	}
	m.Noise = 0
	acts = LoopActions(f, off, EstimateSettings{Procs: 16}.Options(m))
	for _, a := range acts[1:] {
		if strings.Contains(a.Title, "noise") || !strings.HasSuffix(a.Title, "%") || strings.Contains(a.Detail, "about the same") || !strings.Contains(a.Detail, "% vs G(BLOCK,BLOCK)") {
			t.Errorf("%q, %q: without noise, want a percentage", a.Title, a.Detail)
		}
	}
	for _, a := range acts {
		if n := len([]rune(a.Title)); n > 60 {
			t.Errorf("%q: %d characters, want at most 60", a.Title, n)
		}
	}
	if acts[0].Kind != "source" {
		t.Errorf("%q: kind %q, want source", acts[0].Title, acts[0].Kind)
	}
}

func TestEstimateLoopText(t *testing.T) {
	src, err := os.ReadFile("../examples/dgefa.f")
	if err != nil {
		t.Fatal(err)
	}
	f := parser.Parse("dgefa.f", src, nil)
	text, err := EstimateLoopText(f, 12, EstimateSettings{Procs: 8}.Options(nil))
	if err != nil || !strings.Contains(text, "on 8 processors, D(:,CYCLIC)") || !strings.Contains(text, "broadcast of A") {
		t.Errorf("%v\n%s", err, text)
	}
	if _, err := EstimateLoopText(f, 2, EstimateSettings{}.Options(nil)); err == nil || !strings.Contains(err.Error(), "no DO loop") {
		t.Errorf("line without a loop: %v", err)
	}
}

func TestQuickFixesAndCapabilityDiagnostics(t *testing.T) {
	src, err := os.ReadFile("../examples/example.fcm")
	if err != nil {
		t.Fatal(err)
	}
	f := parser.Parse("example.fcm", src, nil)
	o := EstimateSettings{Procs: 16}.Options(nil)
	ds := CapabilityDiagnostics(f, o, nil)
	if len(ds) != 1 || ds[0].Code != "missing-align" || ds[0].Severity != parser.SevWarning {
		t.Fatalf("diagnostics %+v", ds)
	}
	line := f.Lines.Line(ds[0].Start)
	fixes := QuickFixes(f, f.Lines.LineStart(line), f.Lines.LineEnd(line), o, nil)
	if len(fixes) != 1 || fixes[0].Kind != "quickfix" || fixes[0].Edits[0].Text != "CMF$ ALIGN B(I,J) WITH A(I,J)\n" {
		t.Fatalf("fixes %+v", fixes)
	}
	g := parser.Parse("example.fcm", applyEdits(src, fixes[0].Edits), nil)
	if len(g.Errors()) != 0 {
		t.Errorf("after the fix: errors %v", g.Errors())
	}
	for _, d := range CapabilityDiagnostics(g, o, nil) {
		if d.Code == "missing-align" {
			t.Errorf("after the fix: %+v", d)
		}
	}
	// Elsewhere in the file, no fix.
	if fixes := QuickFixes(f, 0, 10, o, nil); len(fixes) != 0 {
		t.Errorf("fix offered on line 1: %+v", fixes)
	}
}

// distributeAction returns the edited text of the Distribute action named
// name on the loop at the line starting with loopLine, and its detail.
func distributeAction(t *testing.T, name, src, loopLine, dist string) (string, string) {
	t.Helper()
	f := parser.Parse(name, []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatalf("%s: %v", name, errs)
	}
	acts := LoopActions(f, strings.Index(src, loopLine), EstimateSettings{Procs: 16}.Options(nil))
	var titles []string
	for _, a := range acts {
		if strings.HasPrefix(a.Title, "Distribute "+dist+": ") {
			out := string(applyEdits([]byte(src), a.Edits))
			g := parser.Parse(name, []byte(out), nil)
			if errs := g.Errors(); len(errs) > 0 {
				t.Errorf("%s: %q leaves errors %v\n%s", name, a.Title, errs, out)
			}
			if got := partition.FromUnit(g.Units[0], 16, "").Name(); got != dist {
				t.Errorf("%s: %q gives %s", name, a.Title, got)
			}
			return out, a.Detail
		}
		titles = append(titles, a.Title)
	}
	t.Fatalf("%s: no action for %s among %q", name, dist, titles)
	return "", ""
}

// TestDistributeKeepsWhatWasWritten: the Distribute actions change only
// the formats of an !HPF$ DISTRIBUTE, in the user's case and spacing,
// keeping ONTO while the arrangement fits and the trailing comment.
func TestDistributeKeepsWhatWasWritten(t *testing.T) {
	src := `program s
  integer, parameter :: n = 256
  real :: x(n,n), y(n,n)
  integer :: i, j
!hpf$ processors p(4,4)
!hpf$ template t(n,n)
!hpf$ align (i,j) with t(i,j) :: x, y
!hpf$   distribute t( block , block )   onto   p   ! the grid
  do j = 2, n - 1
    do i = 2, n - 1
      x(i,j) = y(i-1,j) + y(i+1,j) + y(i,j-1) + y(i,j+1)
    end do
  end do
end program s
`
	cases := []struct{ dist, line, note string }{
		{"T(CYCLIC,CYCLIC)", "!hpf$   distribute t( cyclic , cyclic )   onto   p   ! the grid", ""},
		{"T(BLOCK,CYCLIC)", "!hpf$   distribute t( block , cyclic )   onto   p   ! the grid", ""},
		// One distributed dimension on a 4×4 arrangement: ONTO goes.
		{"T(:,BLOCK)", "!hpf$   distribute t( * , block )   ! the grid", "p is a processor arrangement of 2 dimension(s) and T(:,BLOCK) distributes 1, so ONTO p is dropped"},
		{"T(:,BLOCK)", "!hpf$   distribute t( * , block )   ! the grid", "; p is then declared but unused"},
	}
	for _, c := range cases {
		out, detail := distributeAction(t, "s.hpf", src, "  do j = 2", c.dist)
		want := strings.Replace(src, "!hpf$   distribute t( block , block )   onto   p   ! the grid", c.line, 1)
		if out != want {
			t.Errorf("%s: got\n%s", c.dist, out)
		}
		if c.note == "" && strings.Contains(detail, "Note:") || !strings.Contains(detail, c.note) {
			t.Errorf("%s: detail %q, want the note %q", c.dist, detail, c.note)
		}
	}
	// Upper and capitalised case are kept too.
	up := strings.Replace(src, "!hpf$   distribute t( block , block )", "!HPF$ Distribute T(Block,Block)", 1)
	out, _ := distributeAction(t, "s.hpf", up, "  do j = 2", "T(CYCLIC,CYCLIC)")
	if !strings.Contains(out, "!HPF$ Distribute T(Cyclic,Cyclic)   onto   p   ! the grid\n") {
		t.Errorf("capitalised: got\n%s", out)
	}
}

// TestDistributeSplitsMultiTarget: a DISTRIBUTE with several targets is
// rewritten whole when the candidate moves all of them (arrays
// distributed identically move together), and split in two when some
// target keeps its distribution (W has another shape).
func TestDistributeSplitsMultiTarget(t *testing.T) {
	src := `program m
  integer, parameter :: n = 256
  real :: x(n,n), y(n,n), w(n,2*n)
  integer :: i, j
!hpf$ processors p(4,4)
!hpf$ distribute (block, block) onto p :: x, w, y  ! all three
  w = 0.0
  do j = 2, n - 1
    do i = 2, n - 1
      x(i,j) = y(i-1,j) + y(i+1,j) + y(i,j-1) + y(i,j+1)
    end do
  end do
end program m
`
	out, detail := distributeAction(t, "m.hpf", src, "  do j = 2", "X(CYCLIC,CYCLIC)")
	want := strings.Replace(src, "!hpf$ distribute (block, block) onto p :: x, w, y  ! all three\n",
		"!hpf$ distribute (cyclic, cyclic) onto p :: x, y\n!hpf$ distribute (block, block) onto p :: w  ! all three\n", 1)
	if out != want {
		t.Errorf("split: got\n%s", out)
	}
	if !strings.Contains(detail, "w keeps its distribution: the DISTRIBUTE is split in two") {
		t.Errorf("split: detail %q", detail)
	}
	out, detail = distributeAction(t, "m.hpf", src, "  do j = 2", "X(:,BLOCK)")
	want = strings.Replace(src, "!hpf$ distribute (block, block) onto p :: x, w, y  ! all three\n",
		"!hpf$ distribute (*, block) :: x, y\n!hpf$ distribute (block, block) onto p :: w  ! all three\n", 1)
	if out != want {
		t.Errorf("split without ONTO: got\n%s", out)
	}
	if !strings.Contains(detail, "ONTO p is dropped") || strings.Contains(detail, "unused") {
		t.Errorf("split without ONTO (w keeps p): detail %q", detail)
	}
	// Identically distributed targets only: one directive, rewritten.
	same := strings.Replace(src, "w(n,2*n)", "w(n,n)", 1)
	out, _ = distributeAction(t, "m.hpf", same, "  do j = 2", "X(CYCLIC,CYCLIC)")
	if want := strings.Replace(same, "(block, block)", "(cyclic, cyclic)", 1); out != want {
		t.Errorf("one group: got\n%s", out)
	}
}

// TestDistributeFortranD: Fortran D statements keep their case and
// trailing comments.
func TestDistributeFortranD(t *testing.T) {
	src := `      program d
      parameter (n = 256)
      real x(n,n), y(n,n)
      decomposition g(n,n)
      align x, y with g
      distribute g(block, block)   ! rows and columns
      do 10 j = 2, n - 1
         do 10 i = 2, n - 1
            x(i,j) = y(i-1,j) + y(i+1,j)
   10 continue
      end
`
	out, _ := distributeAction(t, "d.f", src, "      do 10 j", "G(:,BLOCK)")
	if !strings.Contains(out, "      distribute g(:, block)   ! rows and columns\n") {
		t.Errorf("got\n%s", out)
	}
}

// TestDistributeCMFortran: CM Fortran's LAYOUT lines are edited inside
// their parentheses for every array the candidate moves (conformable
// arrays share a layout), in the user's case; arrays without a LAYOUT
// get one line after their declarations; an array under CMF$ ALIGN
// follows its target and gets none.
func TestDistributeCMFortran(t *testing.T) {
	loop := `      do 10 k = 1, 10
         t = cshift(tn, 1, 1) + cshift(tn, -1, 2)
         tn = t
   10 continue
      end
`
	two := `      program h
      real t(512,512), tn(512,512)
cmf$  layout t(:news,:news)   ! rows and columns
cmf$  layout tn(:news, :news)
` + loop
	out, _ := distributeAction(t, "h.fcm", two, "      do 10 k", "T(:,BLOCK)")
	if want := strings.Replace(strings.Replace(two, "t(:news,:news)", "t(:serial,:news)", 1), "tn(:news, :news)", "tn(:serial, :news)", 1); out != want {
		t.Errorf("two LAYOUT lines: got\n%s", out)
	}
	one := `      program h
      real t(512,512), tn(512,512)
CMF$  LAYOUT T(:NEWS,:NEWS), TN(:NEWS,:NEWS)
` + loop
	out, _ = distributeAction(t, "h.fcm", one, "      do 10 k", "T(BLOCK,:)")
	if !strings.Contains(out, "\nCMF$  LAYOUT T(:NEWS,:SERIAL), TN(:NEWS,:SERIAL)\n") {
		t.Errorf("one LAYOUT line: got\n%s", out)
	}
	none := `      program h
      real t(512,512)
      real tn(512,512), u(512,512)
cmf$  align u(i,j) with t(i,j)
` + loop
	out, _ = distributeAction(t, "h.fcm", none, "      do 10 k", "T(:,BLOCK)")
	if want := strings.Replace(none, "cmf$  align", "cmf$  layout t(:serial, :news), tn(:serial, :news)\ncmf$  align", 1); out != want {
		t.Errorf("no LAYOUT line: got\n%s", out)
	}
}

// TestDistributeActionsEverywhere: on every loop of every fixture, each
// Distribute action leaves a file with no new errors whose unit is
// distributed as its title says.
func TestDistributeActionsEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("every loop of every fixture")
	}
	var files []string
	for _, dir := range []string{"testdata/programs", "testdata/markers", "../examples"} {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if fixtureExts[filepath.Ext(e.Name())] {
				files = append(files, filepath.Join(dir, e.Name()))
			}
		}
	}
	n := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		f := parser.Parse(name, src, nil)
		before := len(f.Errors())
		for _, l := range parser.LoopsAt(f, 0) {
			for _, a := range LoopActions(f, l.Unit.Abs(l.Do.Do.Pos()), EstimateSettings{Procs: 16}.Options(nil)) {
				if !strings.HasPrefix(a.Title, "Distribute ") {
					continue
				}
				n++
				want := strings.TrimPrefix(a.Title[:strings.Index(a.Title, ": ")], "Distribute ")
				g := parser.Parse(name, applyEdits(src, a.Edits), nil)
				if len(g.Errors()) > before {
					t.Errorf("%s:%d: %q leaves errors %v", path, l.Line(f), a.Title, g.Errors())
					continue
				}
				var u *parser.Unit
				for i, v := range f.Units {
					if v == l.Unit && i < len(g.Units) {
						u = g.Units[i]
					}
				}
				if u == nil {
					continue // a contained procedure
				}
				if got := partition.FromUnit(u, 16, g.Dialect).Name(); got != want {
					t.Errorf("%s:%d: %q gives %s", path, l.Line(f), a.Title, got)
				}
			}
		}
	}
	if n < 50 {
		t.Errorf("only %d Distribute actions in the fixtures", n)
	}
}

// TestDistributeWithinColumn72: in fixed form an action that would push
// a directive past column 72 is not offered (a directive line cannot be
// continued safely); a shorter one still is.
func TestDistributeWithinColumn72(t *testing.T) {
	dir := "!HPF$ DISTRIBUTE T(BLOCK,BLOCK) ONTO P"
	dir += strings.Repeat(" ", 71-len(dir)-len("! grid")) + "! grid"
	src := `      PROGRAM H
      PARAMETER (N = 256)
      REAL X(N,N), Y(N,N)
!HPF$ PROCESSORS P(4,4)
!HPF$ TEMPLATE T(N,N)
!HPF$ ALIGN X(I,J) WITH T(I,J)
!HPF$ ALIGN Y(I,J) WITH T(I,J)
` + dir + `
      DO 10 J = 2, N - 1
         DO 10 I = 2, N - 1
            X(I,J) = Y(I-1,J) + Y(I+1,J) + Y(I,J-1) + Y(I,J+1)
   10 CONTINUE
      END
`
	f := parser.Parse("h.f", []byte(src), nil)
	acts := LoopActions(f, strings.Index(src, "      DO 10 J"), EstimateSettings{Procs: 16}.Options(nil))
	for _, a := range acts {
		if strings.HasPrefix(a.Title, "Distribute T(CYCLIC,CYCLIC)") {
			t.Errorf("%q offered: the line would be %d columns", a.Title, len(dir)+2)
		}
	}
	out, _ := distributeAction(t, "h.f", src, "      DO 10 J", "T(:,BLOCK)")
	if !strings.Contains(out, "!HPF$ DISTRIBUTE T(*,BLOCK)") {
		t.Errorf("T(:,BLOCK): got\n%s", out)
	}
}
