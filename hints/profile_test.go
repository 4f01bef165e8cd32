package hints

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pfls/pfls/parser"
)

const profiledSrc = `program p
  integer, parameter :: n = 1000
  real :: a(n), s
  integer :: i, k
  do k = 1, 10
     do i = 1, n
        a(i) = i * 0.5
     end do
  end do
  s = sum(a)
  print *, s
end program p
`

// TestProfileHover: a profiled DO loop's hover gives its measured time
// per execution and rank beside the estimate on the profile's processor
// count, with the difference in percent, and its measured trip count; a
// loop that was not timed says so; a line the profile does not know has
// no hover.
func TestProfileHover(t *testing.T) {
	f := parser.Parse("/src/p.f90", []byte(profiledSrc), nil)
	prof, err := ParseProfile([]byte(`{"ranks":2,"lines":[
		{"path":"/src/p.f90","line":5,"count":20,"time":0.004,"calls":0,"bytes":0,"entries":2},
		{"path":"/src/p.f90","line":6,"count":20000,"time":0,"calls":0,"bytes":0,"entries":20}],
		"arrays":[],"timeline":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	off := func(line int) int { return f.Lines.LineStart(line-1) + 4 }
	o := EstimateSettings{Procs: 16}.Options(nil)
	h := ProfileHover(f, off(5), prof, o)
	m := regexp.MustCompile(`measured ([0-9.]+ [mµ]?s) · predicted ([0-9.]+ [mµn]?s) \(([-+][0-9]+)%\) per execution of the loop`).FindStringSubmatch(h)
	if m == nil {
		t.Fatalf("hover:\n%s", h)
	}
	if m[1] != "2 ms" {
		t.Errorf("measured %s, want 2 ms (0.004 s over 2 executions)", m[1])
	}
	pred, ok := predicted(f, 5, 2, o)
	if !ok {
		t.Fatal("no estimate")
	}
	if want := fmt.Sprintf("%+.0f", 100*(0.002-pred)/pred); m[3] != want {
		t.Errorf("difference %s%%, want %s%% (predicted %g s)", m[3], want, pred)
	}
	if !strings.Contains(h, "trip count 10 (measured: 20 iterations in 2 executions)") || !strings.Contains(h, "2 ranks") {
		t.Errorf("hover:\n%s", h)
	}
	h = ProfileHover(f, off(6), prof, o)
	if !strings.Contains(h, "not timed") || !strings.Contains(h, "trip count 1000 (measured: 20000 iterations in 20 executions)") {
		t.Errorf("inner loop hover:\n%s", h)
	}
	if h := ProfileHover(f, off(10), prof, o); h != "" {
		t.Errorf("unmeasured line: %q", h)
	}
	// Another folder, the same base name: still found when it is the only one.
	g := parser.Parse("/elsewhere/p.f90", []byte(profiledSrc), nil)
	if h := ProfileHover(g, off(5), prof, o); !strings.Contains(h, "trip count 10") {
		t.Errorf("by base name: %q", h)
	}
	if _, err := ParseProfile([]byte(`{"ranks":0}`)); err == nil {
		t.Error("a profile without ranks was accepted")
	}
}

// TestProfileInlay: a timed loop's hint gets its measured time per
// execution beside the polynomial, within the label's length (the
// polynomial is cut for it, or the time left to the tooltip when there is
// no room), and its tooltip the measured time and trip count; an untimed
// loop only the trip count in the tooltip; a stale profile no number,
// the reason in the tooltip.
func TestProfileInlay(t *testing.T) {
	f := parser.Parse("/src/p.f90", []byte(profiledSrc), nil)
	prof, err := ParseProfile([]byte(`{"ranks":2,"lines":[
		{"path":"/src/p.f90","line":5,"count":20,"time":0.004,"calls":0,"bytes":0,"entries":2},
		{"path":"/src/p.f90","line":6,"count":20000,"time":0,"calls":0,"bytes":0,"entries":20}],
		"arrays":[],"timeline":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	hintsAt := func(maxLen int, stale string) (plain, measured map[int]InlayHint) {
		eng, err := NewEngine("", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		o := DefaultInlayOptions()
		o.MaxLength = maxLen
		plain, measured = map[int]InlayHint{}, map[int]InlayHint{}
		hs := InlayHints(f, eng, 0, len(f.Src)+1, o)
		for _, h := range hs {
			plain[f.Lines.Line(h.Offset)+1] = h
		}
		for _, h := range ProfileInlay(f, hs, prof, stale, maxLen) {
			measured[f.Lines.Line(h.Offset)+1] = h
		}
		return plain, measured
	}
	plain, got := hintsAt(40, "")
	if h := got[5]; !strings.HasSuffix(h.Label, " · measured 2 ms") || utf8.RuneCountInString(h.Label) > 40 ||
		!strings.Contains(h.Label, plain[5].Label) || !strings.Contains(h.Tooltip, plain[5].Tooltip) ||
		!strings.Contains(h.Tooltip, "measured 2 ms per execution of the loop") || !strings.Contains(h.Tooltip, "trip count 10 (measured: 20 iterations in 2 executions)") {
		t.Errorf("timed loop: %q\n%s", h.Label, h.Tooltip)
	}
	if h := got[6]; h.Label != plain[6].Label || !strings.Contains(h.Tooltip, "trip count 1000 (measured: 20000 iterations in 20 executions)") ||
		strings.Contains(h.Tooltip, "per execution") {
		t.Errorf("untimed loop: %q\n%s", h.Label, h.Tooltip)
	}
	for _, n := range []int{14, 20, 28} {
		_, got := hintsAt(n, "")
		if l := got[5].Label; utf8.RuneCountInString(l) > n {
			t.Errorf("max %d: label %q too long", n, l)
		}
		if l := got[5].Label; n >= 28 && !strings.HasSuffix(l, " · measured 2 ms") {
			t.Errorf("max %d: label %q without the time", n, l)
		}
	}
	plain, got = hintsAt(40, "profile older than the file")
	for _, line := range []int{5, 6} {
		if h := got[line]; h.Label != plain[line].Label || strings.Contains(h.Tooltip, "trip count") ||
			!strings.HasSuffix(h.Tooltip, "**Measured**: not shown, profile older than the file") {
			t.Errorf("stale, line %d: %q\n%s", line, h.Label, h.Tooltip)
		}
	}
}

const whileSrc = `program w
  integer :: i, k
  real :: s
  s = 0
  do k = 1, 10
     i = 0
     do while (s < 1e6)
        s = s + i
        i = i + 1
     end do
  end do
  print *, s
end program w
`

// TestMeasuredCost: the DO WHILE's unknown trip count is replaced by the
// measured mean (500 iterations in 20 executions: 25) in the hover of the
// loop and of the loop around it, the cost is given with it, and the
// statistics count the range as measured, not unknown; a statement with
// no measured unknown, or no profile, adds nothing.
func TestMeasuredCost(t *testing.T) {
	f := parser.Parse("/src/w.f90", []byte(whileSrc), nil)
	prof, err := ParseProfile([]byte(`{"ranks":1,"lines":[
		{"path":"/src/w.f90","line":7,"count":500,"time":0.001,"calls":0,"bytes":0,"entries":20}]}`))
	if err != nil {
		t.Fatal(err)
	}
	eng, err := NewEngine("", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	off := func(line int) int { return f.Lines.LineStart(line-1) + 7 }
	for _, line := range []int{5, 7} {
		plain := StatementHover(f, eng, off(line))
		if !strings.Contains(plain, "UNKNOWN_1") || !strings.Contains(plain, "1 unknown; IFs") {
			t.Fatalf("line %d: no unknown to measure:\n%s", line, plain)
		}
		h := MeasuredCost(f, eng, off(line), prof)
		m := regexp.MustCompile("\\*\\*Cost with them\\*\\*: `([^`]*)`").FindStringSubmatch(h)
		if !strings.Contains(h, "- UNKNOWN_1 = 25: the loop at line 7 (500 iterations in 20 executions)") || m == nil ||
			strings.Contains(m[1], "UNKNOWN") || !strings.Contains(h, "ranges: 1 measured, ") || !strings.Contains(h, "0 unknown; IFs") {
			t.Errorf("line %d:\n%s", line, h)
		}
	}
	if h := MeasuredCost(f, eng, off(4), prof); h != "" {
		t.Errorf("s = 0: %q", h)
	}
	if h := MeasuredCost(f, eng, off(7), nil); h != "" {
		t.Errorf("no profile: %q", h)
	}
}

const branchySrc = `subroutine b(x, n)
  integer :: n, i
  real :: x(n)
  do i = 1, n
     if (x(i) > 0.0) then
        x(i) = x(i) * 2.0 + 1.0 + 2.0 + 3.0
     end if
  end do
end subroutine b
`

// TestProfileBranches: with a profile that counted the IF's arm and its
// fall-through, the loop's hint and hover weigh the arm by its measured
// frequency (1 in 10 instead of 1 in 2) and say it was measured; without
// one they keep the guess.
func TestProfileBranches(t *testing.T) {
	f := parser.Parse("/src/b.f90", []byte(branchySrc), nil)
	prof, err := ParseProfile([]byte(`{"ranks":1,"lines":[
		{"path":"/src/b.f90","line":4,"count":100,"time":0.001,"calls":0,"bytes":0,"entries":1},
		{"path":"/src/b.f90","line":5,"count":10,"time":0,"calls":0,"bytes":0},
		{"path":"/src/b.f90","line":7,"count":90,"time":0,"calls":0,"bytes":0}],
		"arrays":[],"timeline":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := NewEngine("", "", nil)
	loop := func(o InlayOptions) InlayHint {
		t.Helper()
		for _, h := range InlayHints(f, eng, 0, len(f.Src)+1, o) {
			if h.Kind == "loop" {
				return h
			}
		}
		t.Fatal("no loop hint")
		return InlayHint{}
	}
	o := DefaultInlayOptions()
	guessed := loop(o)
	o.Profile = prof
	measured := loop(o)
	// Per iteration: the loop and the comparison cost 2, the arm's
	// statement 8 (all-one), taken 1/2 of the times guessed, 1/10
	// measured: 2 + 8/2 = 6 and 2 + 8/10 = 14/5.
	if guessed.Label != "6·N + 1 for N ≥ 1" || measured.Label != "14/5·N + 1 for N ≥ 1" {
		t.Errorf("labels: guessed %q, measured %q", guessed.Label, measured.Label)
	}
	if !strings.Contains(measured.Tooltip, "1 measured") || strings.Contains(guessed.Tooltip, "measured") {
		t.Errorf("tooltips:\nguessed: %s\nmeasured: %s", guessed.Tooltip, measured.Tooltip)
	}
	hover := StatementHover(f, eng, f.Lines.LineStart(4)+6)
	if !strings.Contains(hover, "branch probability 1/10 (measured: taken 10 of 100 times)") {
		t.Errorf("IF hover with the profile applied:\n%s", hover)
	}
	// Back to no profile: the guess again, from the same engine.
	o.Profile = nil
	if again := loop(o); again.Label != guessed.Label {
		t.Errorf("without the profile: %q, want %q", again.Label, guessed.Label)
	}
}

const routineSrc = `subroutine work(a, n)
  integer :: n, i
  real :: a(n)
  do i = 1, n
     a(i) = a(i) * 2.0
  end do
end subroutine work
`

// TestProfileRoutine: a routine's header gets its measured time per call
// and its calls, in the hint's label and tooltip, in the hover of its
// line and in the hover of its name (30 calls over 2 ranks, 0.06 s in
// all: 2 ms per call, 30 ms per rank); a name that is not a header's gets
// no measurement.
func TestProfileRoutine(t *testing.T) {
	f := parser.Parse("/src/w.f90", []byte(routineSrc), nil)
	prof, err := ParseProfile([]byte(`{"ranks":2,"lines":[
		{"path":"/src/w.f90","line":1,"count":30,"time":0.06,"calls":0,"bytes":0}]}`))
	if err != nil {
		t.Fatal(err)
	}
	const want = "measured 2 ms per call · 30 calls (30 ms per rank in all"
	eng, _ := NewEngine("", "", nil)
	var unit *InlayHint
	hs := ProfileInlay(f, InlayHints(f, eng, 0, len(f.Src)+1, DefaultInlayOptions()), prof, "", 40)
	for i, h := range hs {
		if h.Kind == "unit" {
			unit = &hs[i]
		}
	}
	if unit == nil || !strings.HasSuffix(unit.Label, " · measured 2 ms/call") || !strings.Contains(unit.Tooltip, want) {
		t.Fatalf("routine hint: %+v", unit)
	}
	if h := ProfileHover(f, 2, prof, EstimateOptions{}); !strings.Contains(h, want) {
		t.Errorf("hover of the header line:\n%s", h)
	}
	name := strings.Index(routineSrc, "work")
	if h := ProfileNameHover(f, name+1, prof, ""); !strings.Contains(h, want) {
		t.Errorf("hover of the routine's name:\n%s", h)
	}
	for _, other := range []int{strings.Index(routineSrc, "(a,") + 1, strings.Index(routineSrc, "a(n)")} {
		if h := ProfileNameHover(f, other, prof, ""); h != "" {
			t.Errorf("hover of another name (at %d): %q", other, h)
		}
	}
	if h := ProfileNameHover(f, name+1, prof, "profile older than the file"); !strings.Contains(h, "not shown, profile older than the file") {
		t.Errorf("stale: %q", h)
	}
}
