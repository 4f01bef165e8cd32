package hints

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"unique"

	"github.com/pfls/pfls/parser"
)

// TestFileNamesIncludeChain: the names of a file are also those of the
// files it INCLUDEs, down the chain as far as the parser follows it (16
// files deep); the INCLUDE it refuses past that, found by no file,
// names nothing.
func TestFileNamesIncludeChain(t *testing.T) {
	include := func(name, from string, c *parser.Config) ([]byte, string, error) {
		var k int
		if _, err := fmt.Sscanf(name, "i%d.h", &k); err != nil || k > 20 {
			return nil, "", fmt.Errorf("no %s", name)
		}
		return []byte(fmt.Sprintf("  call p%d(q%d)\n  include 'i%d.h'\n", k, k, k+1)), "/src/" + name, nil
	}
	src := "subroutine s\n  include 'i1.h'\nend subroutine s\n"
	f := parser.Parse("/src/s.f90", []byte(src), &parser.Config{Include: include})
	var got []string
	for n := range FileNames(f) {
		got = append(got, n)
	}
	want := []string{"S"}
	for k := 1; k <= 16; k++ {
		want = append(want, fmt.Sprintf("P%d", k), fmt.Sprintf("Q%d", k))
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("names\n got %s\nwant %s", strings.Join(got, " "), strings.Join(want, " "))
	}
}

// TestSignatureCalleesEdges: the names before each "(" of the statement
// up to the offset, here the end of a text with no final newline: a name
// at the statement's start, one separated from its "(" by a space, none
// for a "(" after an operator or at the start of the text.
func TestSignatureCalleesEdges(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"  a(1) = g(", "A G"},
		{"  call foo (a, ", "FOO"},
		{"  x = (a + g(", "G"},
		{"  (a, b", ""},
		{"(", ""},
	} {
		f := parser.Parse("/src/p.f90", []byte(c.src), &parser.Config{})
		got := SignatureCallees(f, len(c.src))
		if strings.Join(got, " ") != c.want || len(got) != len(strings.Fields(c.want)) {
			t.Errorf("%q: %q, want %q", c.src, got, c.want)
		}
	}
}

// TestCompleteWithEdges: the units of the summaries are offered for a
// word at the very start of the file, for an empty word, at the end of
// a text with no final newline, in lower case after a lower-case letter
// up to z, else as the summaries write them.
func TestCompleteWithEdges(t *testing.T) {
	units := []Completion{{Label: "SOLVE", Kind: "procedure", Detail: "SUBROUTINE SOLVE"}, {Label: "ZETA", Kind: "procedure", Detail: "SUBROUTINE ZETA"}}
	for _, c := range []struct{ src, want string }{
		{"so", "solve"},
		{"program p\n  call ", "SOLVE ZETA"},
		{"program p\n  call ze", "zeta"},
		{"program p\n  call Ze", "ZETA"},
	} {
		f := parser.Parse("/src/p.f90", []byte(c.src), &parser.Config{})
		items, _ := CompleteWith(f, len(c.src), nil, units)
		var got []string
		for _, it := range items {
			if strings.HasPrefix(it.Detail, "SUBROUTINE ") {
				got = append(got, it.Label)
			}
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%q: units %q, want %q", c.src, got, c.want)
		}
	}
}

const refSrc = `module m
  real :: v
contains
  subroutine s(a)
    real :: a, loc
    loc = a + v
  end subroutine s
end module m
program p
  use m
  integer :: k
  real :: x
  common /blk/ x
  call s(x)
  k = abs(k)
end program p
`

// TestReferencesAcross: what References and Rename look for in the other
// files. A procedure, a module and a COMMON block are looked for by name
// (the block's occurrences only, a header's only with the
// declarations); a local name, a module procedure's local and an
// intrinsic in no other file. Rename also needs the files naming a
// module variable, and for a dummy argument those naming its procedure
// (keyword arguments).
func TestReferencesAcross(t *testing.T) {
	f := parser.Parse("/src/r.f90", []byte(refSrc), nil)
	at := func(s string) int { return strings.Index(refSrc, s) }
	globals := Summarize(f).Globals
	for _, c := range []struct {
		at         string
		decl, uses int // occurrences matched with and without the declarations; -1: no target
		across     string
	}{
		{"m\n", 3, 3, "M"},
		{"s(x)", 3, 2, "S"},
		{"s(a)", 3, 2, "S"},
		{"blk", 1, 1, "BLK"},
		{"v\n", -1, -1, "V"},
		{"a)", -1, -1, "A S"},
		{"loc =", -1, -1, ""},
		{"k\n", -1, -1, ""},
		{"abs", -1, -1, ""},
		{"x)", -1, -1, ""},
	} {
		decl, uses := -1, -1
		if tg, ok := ReferencesTarget(f, at(c.at)); ok {
			decl, uses = 0, 0
			for i := range globals {
				if tg.Matches(&globals[i], true) {
					decl++
				}
				if tg.Matches(&globals[i], false) {
					uses++
				}
			}
		}
		if decl != c.decl || uses != c.uses {
			t.Errorf("%q: %d and %d occurrences, want %d and %d", c.at, decl, uses, c.decl, c.uses)
		}
		if got := strings.Join(RenameAcross(f, at(c.at), nil), " "); got != c.across {
			t.Errorf("%q: rename across %q, want %q", c.at, got, c.across)
		}
	}
}

// TestUnitNames: the names of the statements of the unit at an offset,
// not of the other units of the file.
func TestUnitNames(t *testing.T) {
	f := parser.Parse("/src/r.f90", []byte(refSrc), nil)
	for _, c := range []struct{ at, want string }{
		{"loc =", "A LOC S V"},
		{"k = abs", "ABS BLK K M P S X"},
	} {
		var got []string
		for n := range UnitNames(f, strings.Index(refSrc, c.at)) {
			got = append(got, n)
		}
		sort.Strings(got)
		if strings.Join(got, " ") != c.want {
			t.Errorf("%q: %v, want %s", c.at, got, c.want)
		}
	}
}

// TestReferencesTargetExternalIntrinsicName: a function of the program
// named like an intrinsic and declared EXTERNAL is looked for in the
// other files; the intrinsic itself, used undeclared, is not.
func TestReferencesTargetExternalIntrinsicName(t *testing.T) {
	src := "program q\n  real, external :: sum\n  real :: x\n  x = sum(1.0) + abs(x)\nend program q\n"
	f := parser.Parse("/src/q.f90", []byte(src), nil)
	if tg, ok := ReferencesTarget(f, strings.Index(src, "sum(")); !ok || !tg.Matches(&Occurrence{Name: unique.Make("SUM")}, false) {
		t.Errorf("the EXTERNAL SUM: %v %v", tg, ok)
	}
	if _, ok := ReferencesTarget(f, strings.Index(src, "abs(")); ok {
		t.Error("the intrinsic ABS is looked for in other files")
	}
}

// TestCallersInFileOrder: the callers of a procedure in one file come in
// the order of their definitions in the file, and so do the callees of a
// unit, whichever it calls first.
func TestCallersInFileOrder(t *testing.T) {
	src := "subroutine b\n  call t\n  call s\nend subroutine b\nsubroutine a\n  call s\nend subroutine a\nsubroutine s\n  call t\nend subroutine s\nsubroutine t\nend subroutine t\n"
	f := parser.Parse("x.f90", []byte(src), nil)
	if got, want := showEdges(IncomingCalls(f, strings.Index(src, "s\n  call t"), nil)), "B(subroutine) x.f90:3; A(subroutine) x.f90:6"; got != want {
		t.Errorf("callers of S: %s, want %s", got, want)
	}
	if got, want := showEdges(IncomingCalls(f, strings.Index(src, "t\nend subroutine t"), nil)), "B(subroutine) x.f90:2; S(subroutine) x.f90:9"; got != want {
		t.Errorf("callers of T: %s, want %s", got, want)
	}
	if got, want := showEdges(OutgoingCalls(f, strings.Index(src, "b\n"), nil)), "S(subroutine) x.f90:3; T(subroutine) x.f90:2"; got != want {
		t.Errorf("callees of B: %s, want %s", got, want)
	}
}
