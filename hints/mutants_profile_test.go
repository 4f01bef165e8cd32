package hints

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// TestProfileLineOf: a line's measurement is the one of its own file and
// line. Another file of the profile with a measurement on the same line
// number is not taken for it, nor, in a file found by its base name,
// another line of that file.
func TestProfileLineOf(t *testing.T) {
	prof, err := ParseProfile([]byte(`{"ranks":1,"lines":[
		{"path":"/other/q.f90","line":5,"count":7,"time":0,"entries":1},
		{"path":"/src/p.f90","line":5,"count":20,"time":0,"entries":2},
		{"path":"/src/p.f90","line":6,"count":20000,"time":0,"entries":20}]}`))
	if err != nil {
		t.Fatal(err)
	}
	o := EstimateSettings{Procs: 4}.Options(nil)
	for _, name := range []string{"/src/p.f90", "/elsewhere/p.f90"} {
		f := parser.Parse(name, []byte(profiledSrc), nil)
		for _, c := range []struct {
			line int
			want string
		}{
			{5, "trip count 10 (measured: 20 iterations in 2 executions)"},
			{6, "trip count 1000 (measured: 20000 iterations in 20 executions)"},
		} {
			h := ProfileHover(f, f.Lines.LineStart(c.line-1)+4, prof, o)
			if !strings.HasPrefix(h, "**Measured** (pfls profile, 1 rank)\n\n") || !strings.HasSuffix(h, c.want) {
				t.Errorf("%s, line %d: hover\n%s\nwant it to end with %q", name, c.line, h, c.want)
			}
		}
	}
}

// TestProfileBranchesOfTheFile: the branch counts applied to a file are
// those of its own path; without it in the profile, those of the one
// file with its base name; with two such files, none (the guess stays).
// The IF of branchySrc costs 8 in its arm and 2 around it per iteration
// (TestProfileBranches): taken 10 of 100 times, 2 + 8/10 = 14/5; taken
// 90 of 100 times, 2 + 72/10 = 46/5; guessed 1/2, 2 + 4 = 6.
func TestProfileBranchesOfTheFile(t *testing.T) {
	const (
		b = `{"path":"/src/b.f90","line":5,"count":10},{"path":"/src/b.f90","line":7,"count":90}`
		// The same lines of other files, counted the other way round.
		other = `{"path":"/other/b.f90","line":5,"count":90},{"path":"/other/b.f90","line":7,"count":10}`
		c     = `{"path":"/src/c.f90","line":5,"count":90},{"path":"/src/c.f90","line":7,"count":10}`
	)
	for _, k := range []struct {
		file, lines, want string
	}{
		{"/src/b.f90", other + "," + b, "14/5·N + 1 for N ≥ 1"},
		{"/src/b.f90", c + "," + b, "14/5·N + 1 for N ≥ 1"},
		{"/elsewhere/b.f90", c + "," + b, "14/5·N + 1 for N ≥ 1"},
		{"/elsewhere/b.f90", b + "," + other, "6·N + 1 for N ≥ 1"},
		{"/elsewhere/b.f90", c, "6·N + 1 for N ≥ 1"},
		{"/src/c.f90", c + "," + b, "46/5·N + 1 for N ≥ 1"},
	} {
		prof, err := ParseProfile([]byte(`{"ranks":1,"lines":[` + k.lines + `]}`))
		if err != nil {
			t.Fatal(err)
		}
		f := parser.Parse(k.file, []byte(branchySrc), nil)
		eng, _ := NewEngine("", "", nil)
		o := DefaultInlayOptions()
		o.Profile = prof
		got := ""
		for _, h := range InlayHints(f, eng, 0, len(f.Src)+1, o) {
			if h.Kind == "loop" {
				got = h.Label
			}
		}
		if got != k.want {
			t.Errorf("%s with [%s]: loop %q, want %q", k.file, k.lines, got, k.want)
		}
	}
}

// TestProfileHoverEdges: a loop the model predicts to cost nothing (a
// machine whose operations take no time, an empty loop) shows its
// measured time beside the prediction with no difference in percent; a
// routine's header measured as never entered shows no time per call.
func TestProfileHoverEdges(t *testing.T) {
	src := "subroutine e(n)\n  integer :: n, i\n  do i = 1, n\n  end do\nend subroutine e\n"
	f := parser.Parse("/src/e.f90", []byte(src), nil)
	free := *machine.DefaultMachine()
	free.Ops = map[string]float64{}
	for k := range machine.DefaultMachine().Ops {
		free.Ops[k] = 0
	}
	free.Memory = nil
	prof, err := ParseProfile([]byte(`{"ranks":2,"lines":[
		{"path":"/src/e.f90","line":1,"count":0,"time":0},
		{"path":"/src/e.f90","line":3,"count":20,"time":0.001,"entries":2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	loop := ProfileHover(f, f.Lines.LineStart(2)+3, prof, EstimateSettings{Procs: 4}.Options(&free))
	if want := "**Measured** (pfls profile, 2 ranks)\n\nmeasured 500 µs · predicted 0 ns per execution of the loop\n\n" +
		"trip count 10 (measured: 20 iterations in 2 executions)"; loop != want {
		t.Errorf("loop hover\n%s\nwant\n%s", loop, want)
	}
	if h, want := ProfileHover(f, 3, prof, EstimateOptions{}), "**Measured** (pfls profile, 2 ranks)\n\nentered 0 times"; h != want {
		t.Errorf("header hover %q, want %q", h, want)
	}
	eng, _ := NewEngine("", "", nil)
	for _, h := range ProfileInlay(f, InlayHints(f, eng, 0, len(f.Src)+1, DefaultInlayOptions()), prof, "", 40) {
		if h.Kind == "unit" && strings.Contains(h.Label+h.Tooltip, "measured") {
			t.Errorf("routine never entered: hint %+v", h)
		}
	}
}

// TestProfileInlayEdges: a length of 0 is the default of 40 characters,
// where the measured time fits; a loop measured as never entered (no
// entries) and, with a stale profile, the hints of a file the profile
// does not measure keep their label and tooltip.
func TestProfileInlayEdges(t *testing.T) {
	f := parser.Parse("/src/p.f90", []byte(profiledSrc), nil)
	eng, _ := NewEngine("", "", nil)
	plain := func() []InlayHint { return InlayHints(f, eng, 0, len(f.Src)+1, DefaultInlayOptions()) }
	line := func(h InlayHint) int { return f.Lines.Line(h.Offset) + 1 }
	timed, err := ParseProfile([]byte(`{"ranks":2,"lines":[{"path":"/src/p.f90","line":5,"count":20,"time":0.004,"entries":2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range ProfileInlay(f, plain(), timed, "", 0) {
		if line(h) == 5 && (!strings.HasSuffix(h.Label, " · measured 2 ms") || utf8.RuneCountInString(h.Label) > 40) {
			t.Errorf("length 0: label %q", h.Label)
		}
	}
	never, err := ParseProfile([]byte(`{"ranks":1,"lines":[{"path":"/src/p.f90","line":5,"count":0,"time":0,"entries":0}]}`))
	if err != nil {
		t.Fatal(err)
	}
	other, err := ParseProfile([]byte(`{"ranks":1,"lines":[{"path":"/src/q.f90","line":5,"count":20,"time":0.004,"entries":2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		p     *MeasuredProfile
		stale string
	}{
		{"a loop never entered", never, ""},
		{"a stale profile of another file", other, "profile older than the file"},
	} {
		want := plain()
		got := ProfileInlay(f, plain(), c.p, c.stale, 40)
		if len(got) != len(want) || len(want) < 2 {
			t.Fatalf("%s: %d hints, want %d (at least 2)", c.name, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: line %d: %q\n%s\nwant %q\n%s", c.name, line(got[i]), got[i].Label, got[i].Tooltip, want[i].Label, want[i].Tooltip)
			}
		}
	}
}

// TestProfileRoutineUntimed: a routine counted but not timed gets its
// calls in the tooltip and no time in the label.
func TestProfileRoutineUntimed(t *testing.T) {
	f := parser.Parse("/src/w.f90", []byte(routineSrc), nil)
	prof, err := ParseProfile([]byte(`{"ranks":1,"lines":[{"path":"/src/w.f90","line":1,"count":30,"time":0}]}`))
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := NewEngine("", "", nil)
	plain := InlayHints(f, eng, 0, len(f.Src)+1, DefaultInlayOptions())
	got := ProfileInlay(f, InlayHints(f, eng, 0, len(f.Src)+1, DefaultInlayOptions()), prof, "", 40)
	n := 0
	for i, h := range got {
		if h.Kind != "unit" {
			continue
		}
		n++
		if h.Label != plain[i].Label || !strings.Contains(h.Tooltip, " · 30 calls (") {
			t.Errorf("untimed routine: %q\n%s", h.Label, h.Tooltip)
		}
	}
	if n != 1 {
		t.Errorf("%d routine hints, want 1", n)
	}
}

// TestProfileInlayCut: the measured time (" · measured 2 ms", 16
// characters) joins a label when both fit in the length, the label being
// cut for it when at least 12 characters of it stay, as Cost.Label cuts.
// The label is any 20 characters: only its length matters.
func TestProfileInlayCut(t *testing.T) {
	f := parser.Parse("/src/p.f90", []byte(profiledSrc), nil)
	prof, err := ParseProfile([]byte(`{"ranks":2,"lines":[{"path":"/src/p.f90","line":5,"count":20,"time":0.004,"entries":2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	const label, suffix = "0123456789abcdefghij", " · measured 2 ms"
	for _, c := range []struct {
		max  int
		want string
	}{
		{37, label + suffix},
		{36, label + suffix},                 // exactly
		{35, "0123456789abcdefgh…" + suffix}, // 19 of the label
		{30, "0123456789abc…" + suffix},      // 14
		{28, "0123456789a…" + suffix},        // 12, the least
		{27, label},                          // 11 would be too few: no time
	} {
		hs := []InlayHint{{Offset: f.Lines.LineEnd(4), Label: label, Tooltip: "Cost of this loop", Kind: "loop"}}
		if got := ProfileInlay(f, hs, prof, "", c.max)[0].Label; got != c.want {
			t.Errorf("length %d: %q, want %q", c.max, got, c.want)
		}
	}
}

// TestMeasuredCostNeverEntered: a DO WHILE the profile saw never entered
// (no executions) gives no mean trip count to put in place of its
// unknown.
func TestMeasuredCostNeverEntered(t *testing.T) {
	f := parser.Parse("/src/w.f90", []byte(whileSrc), nil)
	prof, err := ParseProfile([]byte(`{"ranks":1,"lines":[{"path":"/src/w.f90","line":7,"count":0,"time":0,"entries":0}]}`))
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := NewEngine("", "", nil)
	if h := MeasuredCost(f, eng, f.Lines.LineStart(6)+7, prof); h != "" {
		t.Errorf("a loop never entered: %q", h)
	}
}

const mpiSrc = `program m
  use mpi
  integer :: ierr, x
  call mpi_init(ierr)
  if (x > 0) then
     x = 1
  end if
  call mpi_bcast(x, 1, mpi_integer, 0, mpi_comm_world, ierr)
  call mpi_finalize(ierr)
contains
  subroutine inner(n)
    integer :: n
    n = n + 1
  end subroutine inner
end program m
`

// TestProfileHoverLines: the hover of each kind of measured line, over 4
// ranks: a branch entered 8 times in 2 ms in all (500 µs a rank), one
// not timed, an MPI call made 4 times in 4 ms (1 ms a rank), a contained
// routine called 6 times in 12 ms (2 ms a call, 3 ms a rank). A stale
// profile found by the file's base name marks every hint of the file.
func TestProfileHoverLines(t *testing.T) {
	f := parser.Parse("/src/m.f90", []byte(mpiSrc), nil)
	prof, err := ParseProfile([]byte(`{"ranks":4,"lines":[
		{"path":"/src/m.f90","line":5,"count":8,"time":0.002},
		{"path":"/src/m.f90","line":6,"count":3,"time":0},
		{"path":"/src/m.f90","line":8,"count":4,"time":0.004,"calls":4,"bytes":16},
		{"path":"/src/m.f90","line":11,"count":6,"time":0.012}]}`))
	if err != nil {
		t.Fatal(err)
	}
	const head = "**Measured** (pfls profile, 4 ranks)\n\n"
	for _, c := range []struct {
		line int
		want string
	}{
		{5, "entered 8 times, 500 µs per rank"},
		{6, "entered 3 times"},
		{8, "4 MPI calls, 16 bytes, 1 ms per rank"},
		{11, "measured 2 ms per call · 6 calls (3 ms per rank in all, the routines it calls included)"},
	} {
		if h := ProfileHover(f, f.Lines.LineStart(c.line-1)+4, prof, EstimateOptions{}); h != head+c.want {
			t.Errorf("line %d: %q, want %q", c.line, h, head+c.want)
		}
	}
	g := parser.Parse("/other/m.f90", []byte(mpiSrc), nil)
	eng, _ := NewEngine("", "", nil)
	hs := ProfileInlay(g, InlayHints(g, eng, 0, len(g.Src)+1, DefaultInlayOptions()), prof, "stale", 40)
	if len(hs) != 2 {
		t.Fatalf("%d hints, want the program's and the subroutine's", len(hs))
	}
	for _, h := range hs {
		if !strings.HasSuffix(h.Tooltip, "\n\n**Measured**: not shown, stale") {
			t.Errorf("stale, by base name: %q", h.Tooltip)
		}
	}
}
