package hints

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

// twoArrays has A and C distributed the same way on DISTRIBUTE lines of
// their own, B aligned with A; the first loop uses only A, the second
// only C, the third A and C, the fourth only B.
const twoArrays = `program two
  integer, parameter :: n = 512
  real :: a(n,n), b(n,n), c(n,n)
  integer :: i, j
!hpf$ distribute a(*,block)
!hpf$ align b(i,j) with a(i,j)
!hpf$ distribute c(*,block)  ! for the other loops
  do j = 1, n
    do i = 1, j
      a(i,j) = a(i,j) + 1.0
    end do
  end do
  do j = 2, n
    do i = 1, j
      c(i,j) = c(i,j) + 2.0
    end do
  end do
  do j = 3, n
    do i = 1, j
      c(i,j) = a(i,j) + 3.0
    end do
  end do
  do j = 4, n
    do i = 1, j
      b(i,j) = b(i,j) + 4.0
    end do
  end do
end program two
`

// TestDistributeMovesOnlyTheLoopsArrays: the Distribute action moves the
// arrays the loop uses and those that must move with them (aligned by
// ALIGN), never an array merely distributed alike on a line of its own:
// its layout does not enter the loop's estimate, and its other loops
// were not priced. The detail names the arrays the edit changes.
func TestDistributeMovesOnlyTheLoopsArrays(t *testing.T) {
	const aLine, cLine = "!hpf$ distribute a(*,block)\n", "!hpf$ distribute c(*,block)  ! for the other loops\n"
	cases := []struct {
		loop, dist string
		from, to   []string
		detail     string
	}{
		{"  do j = 1, n", "A(:,CYCLIC)", []string{aLine}, []string{"!hpf$ distribute a(*,cyclic)\n"},
			"(about the same as A(:,BLOCK): the difference is within the machine's run-to-run noise of 13%). The edit changes A, B; C, distributed alike but not used by this loop, keeps its distribution"},
		{"  do j = 2, n", "C(:,CYCLIC)", []string{cLine}, []string{"!hpf$ distribute c(*,cyclic)  ! for the other loops\n"},
			"C(:,BLOCK): the difference is within the machine's run-to-run noise of 13%). The edit changes C; A, B, distributed alike but not used by this loop, keep theirs"},
		{"  do j = 3, n", "A(:,CYCLIC)", []string{aLine, cLine}, []string{"!hpf$ distribute a(*,cyclic)\n", "!hpf$ distribute c(*,cyclic)  ! for the other loops\n"},
			"). The edit changes A, B, C"},
		{"  do j = 4, n", "A(:,CYCLIC)", []string{aLine}, []string{"!hpf$ distribute a(*,cyclic)\n"},
			"). The edit changes A, B; C, distributed alike but not used by this loop, keeps its distribution"},
	}
	for _, c := range cases {
		out, detail := movesAction(t, twoArrays, c.loop, c.dist)
		want := twoArrays
		for i := range c.from {
			want = strings.Replace(want, c.from[i], c.to[i], 1)
		}
		if out != want {
			t.Errorf("%s, %s: got\n%s\nwant\n%s", c.loop, c.dist, out, want)
		}
		if !strings.HasSuffix(detail, c.detail) {
			t.Errorf("%s, %s: detail %q, want it to end %q", c.loop, c.dist, detail, c.detail)
		}
		// The edited program lays out the arrays the detail names as the
		// title says, the others as before.
		named := detail[strings.LastIndex(detail, "The edit changes ")+len("The edit changes "):]
		named, _, _ = strings.Cut(named, ";")
		g := parser.Parse("two.hpf", []byte(out), nil)
		d := partition.FromUnit(g.Units[0], 16, "")
		for _, name := range []string{"A", "B", "C"} {
			kind, moved := "BLOCK", false
			for _, n := range strings.Split(named, ", ") {
				moved = moved || n == name
			}
			if moved {
				kind = "CYCLIC"
			}
			if l := d.Arrays[name]; l == nil || l.Dims[1].Kind != kind {
				t.Errorf("%s, %s: %s is laid out %+v, want %s", c.loop, c.dist, name, l, kind)
			}
		}
	}
}

// movesAction returns the edited text of the action titled "Distribute
// dist" on the loop at the line starting with loopLine, and its detail.
func movesAction(t *testing.T, src, loopLine, dist string) (string, string) {
	t.Helper()
	f := parser.Parse("two.hpf", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	var titles []string
	for _, a := range LoopActions(f, strings.Index(src, loopLine), EstimateSettings{Procs: 16}.Options(nil)) {
		if strings.HasPrefix(a.Title, "Distribute "+dist+": ") {
			out := string(applyEdits([]byte(src), a.Edits))
			if errs := parser.Parse("two.hpf", []byte(out), nil).Errors(); len(errs) > 0 {
				t.Errorf("%q leaves errors %v\n%s", a.Title, errs, out)
			}
			return out, a.Detail
		}
		titles = append(titles, a.Title)
	}
	t.Fatalf("%s: no action for %s among %q", loopLine, dist, titles)
	return "", ""
}
