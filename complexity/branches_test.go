package complexity

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// branchSrc: every condition costs 1 (a comparison), the arms' bodies 3,
// 6 and 1 (all-one cost table), the SELECT's selector 1.
const branchSrc = `subroutine s(x, k)
  real :: x
  integer :: k
  if (k == 1) then
    x = x + 1.0
  else if (k == 2) then
    x = x + 1.0 + 2.0 + 3.0 + 4.0
  else
    x = 0.0
  end if
  if (k == 3) then
    x = x + 1.0 + 2.0 + 3.0 + 4.0
  end if
  select case (k)
  case (1)
    x = x + 1.0
  case (2)
    x = x + 1.0 + 2.0 + 3.0 + 4.0
  end select
end subroutine
`

// costsByLine analyses src with the branch counts given and returns the
// cost and notes of each construct by line, and the unit's statistics.
func costsByLine(t *testing.T, eng *Engine, b *Branches) (map[int]*StmtResult, Stats) {
	t.Helper()
	f := parser.Parse("b.f90", []byte(branchSrc), nil)
	eng.SetBranches("b.f90", b)
	out := map[int]*StmtResult{}
	var st Stats
	for _, r := range eng.File(f) {
		st = r.Stats
		for _, s := range r.Statements {
			out[f.Lines.Line(r.Unit.Abs(s.Stmt.Pos()))+1] = s
		}
	}
	return out, st
}

// TestMeasuredBranches: where a profile counted every arm of an IF or
// SELECT (and the times a construct without ELSE or DEFAULT took none),
// the arms are weighed by the measured frequencies; elsewhere, and with
// no counts, by the guessed ones.
func TestMeasuredBranches(t *testing.T) {
	eng := NewEngine(Options{})
	guessed, gst := costsByLine(t, eng, nil)
	// 1 + 3/2 + 1/2·(1 + 6/2 + 1/2); 1 + 6/2; 1 + 3/3 + 6/3.
	for line, want := range map[int]string{4: "19/4", 11: "4", 14: "4"} {
		if got := guessed[line].Cost.String(); got != want {
			t.Errorf("guessed, line %d: %s, want %s", line, got, want)
		}
	}
	if gst.IfMeasured != 0 || strings.Contains(gst.String(), "measured") {
		t.Errorf("guessed statistics: %s", gst)
	}
	counts := map[int]int64{4: 30, 6: 10, 8: 60, 11: 5, 13: 95, 15: 20, 17: 70, 19: 10}
	measured, mst := costsByLine(t, eng, NewBranches(counts))
	// IF: 30 of 100 take the first arm, 10 of the 70 left the second:
	// 1 + 3/10·3 + 7/10·(1 + 1/7·6 + 6/7·1) = 19/5. IF without ELSE: 5 of
	// 100 (95 fell through): 1 + 1/20·6. SELECT: 20 and 70 of 100 (10
	// took no case): 1 + 1/5·3 + 7/10·6.
	for line, want := range map[int]string{4: "19/5", 11: "13/10", 14: "29/5"} {
		if got := measured[line].Cost.String(); got != want {
			t.Errorf("measured, line %d: %s, want %s", line, got, want)
		}
	}
	if !strings.Contains(strings.Join(measured[4].Notes, "\n"), "branch probability 3/10 (measured: taken 30 of 100 times)") {
		t.Errorf("notes of the IF: %q", measured[4].Notes)
	}
	if mst.IfMeasured != 4 || mst.IfHalfHalf != 0 || !strings.Contains(mst.String(), "4 measured") {
		t.Errorf("measured statistics: %+v (%s)", mst, mst)
	}

	// Without the fall-through count (a profile of an older pfls) the IF
	// without ELSE keeps its guess; the others do not need it.
	delete(counts, 13)
	partial, _ := costsByLine(t, eng, NewBranches(counts))
	for line, want := range map[int]string{4: "19/5", 11: "4", 14: "29/5"} {
		if got := partial[line].Cost.String(); got != want {
			t.Errorf("partial, line %d: %s, want %s", line, got, want)
		}
	}
	// A construct never reached keeps its guess.
	never, _ := costsByLine(t, eng, NewBranches(map[int]int64{4: 0, 6: 0, 8: 0}))
	if got := never[4].Cost.String(); got != "19/4" {
		t.Errorf("never reached: %s, want 19/4", got)
	}
	// The counts go with SetBranches(nil): the same engine, whose cache
	// holds both, gives the guessed costs again.
	again, _ := costsByLine(t, eng, nil)
	if got := again[4].Cost.String(); got != "19/4" {
		t.Errorf("after SetBranches(nil): %s, want 19/4", got)
	}
}

// TestMeasuredBranchesCaseDefault: a SELECT with CASE DEFAULT never falls
// through, so its arms' counts alone give its frequencies.
func TestMeasuredBranchesCaseDefault(t *testing.T) {
	src := `subroutine d(x, k)
  real :: x
  integer :: k
  select case (k)
  case (1)
    x = x + 1.0
  case default
    x = x + 1.0 + 2.0 + 3.0 + 4.0
  end select
end subroutine
`
	f := parser.Parse("d.f90", []byte(src), nil)
	eng := NewEngine(Options{})
	eng.SetBranches("d.f90", NewBranches(map[int]int64{5: 3, 7: 1}))
	r := eng.File(f)[0]
	// 1 + 3/4·3 + 1/4·6.
	if got := r.Summary.String(); got != "19/4" || r.Stats.IfMeasured != 1 {
		t.Errorf("SELECT with CASE DEFAULT: %s, %s", got, r.Stats)
	}
}

// TestMeasuredBranchesClassDefault: CLASS DEFAULT is a SELECT TYPE's
// default arm (F2018 11.1.11): the construct never falls through, its
// arms' counts alone give its frequencies (the profile counts no
// fall-through there).
func TestMeasuredBranchesClassDefault(t *testing.T) {
	src := `subroutine d(y, x)
  class(*) :: y
  real :: x
  select type (y)
  type is (integer)
    x = x + 1.0
  class default
    x = x + 1.0 + 2.0 + 3.0 + 4.0
  end select
end subroutine
`
	f := parser.Parse("d.f90", []byte(src), nil)
	eng := NewEngine(Options{})
	eng.SetBranches("d.f90", NewBranches(map[int]int64{5: 3, 7: 1}))
	r := eng.File(f)[0]
	// 1 + 3/4·3 + 1/4·6, as with CASE DEFAULT.
	if got := r.Summary.String(); got != "19/4" || r.Stats.IfMeasured != 1 {
		t.Errorf("SELECT TYPE with CLASS DEFAULT: %s, %s; want 19/4, measured", got, r.Stats)
	}
	// Guessed: two arms, each taken half the time (no third way out).
	eng.SetBranches("d.f90", nil)
	if got := eng.File(f)[0].Summary.String(); got != "11/2" {
		t.Errorf("SELECT TYPE with CLASS DEFAULT, guessed: %s, want 11/2", got)
	}
}
