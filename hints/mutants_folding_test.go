package hints

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestFoldsEdges: the folds at the edges of a file and of its
// constructs, each worked out from the line numbers of the source.
func TestFoldsEdges(t *testing.T) {
	cases := []struct{ name, src, want string }{
		// A file of comments only: its one unit has no statements.
		{"comments only", "! a\n! b\n", "1-2 comment"},
		// A run of comments that reaches the last line, with no newline
		// after it.
		{"run at the end", "x = 1\n! a\n! b", "2-3 comment"},
		// A main program without END up to line 3 (its last line is
		// its own, the next unit's first is not); a unit of a header
		// and an END has nothing to fold.
		{"no END", "x = 1\ny = 2\nz = 3\nprogram q\nend program q\n", "1-3"},
		// An IF without END IF: its last arm reaches the last line of
		// the construct (5), not the program's END on line 6; an arm
		// with no statements (the first) folds nothing.
		{"open IF", "program p\nif (x) then\nelse\ny = 2\nz = 3\nend program p\n", "1-5, 3-5"},
		// An unterminated DO whose statement is continued on line 3:
		// its two lines fold.
		{"open DO", "program p\ndo i = 1, &\n  2\n", "1-3, 2-3"},
	}
	for _, c := range cases {
		f := parser.Parse("e.f90", []byte(c.src), nil)
		if got := showFolds(f, Folds(f)); got != c.want {
			t.Errorf("%s: folds %q, want %q", c.name, got, c.want)
		}
	}
}

// TestSentinelLen: the directive sentinels of both source forms, at the
// length limits of the line.
func TestSentinelLen(t *testing.T) {
	cases := []struct {
		line string
		form parser.Form
		want int
	}{
		{"CMF$", parser.Fixed, 4},
		{"CMF$ LAYOUT A(:NEWS)", parser.Fixed, 4},
		{"cmf$ layout a", parser.Free, 0},
		{"*HPF$ DISTRIBUTE A(BLOCK)", parser.Fixed, 5},
		{"CHPF$ INDEPENDENT", parser.Fixed, 5},
		{"XHPF$ INDEPENDENT", parser.Fixed, 0},
		{"  !$omp do", parser.Free, 5},
		{"!HP", parser.Free, 0},
	}
	for _, c := range cases {
		if got := sentinelLen([]byte(c.line), c.form); got != c.want {
			t.Errorf("sentinelLen(%q, %v) = %d, want %d", c.line, c.form, got, c.want)
		}
	}
}

// TestFoldsSameLine: two DO constructs opened on one line fold from the
// same line: the client keeps one, the wider (the outer loop, to the
// line before its END DO).
func TestFoldsSameLine(t *testing.T) {
	src := "program p\ndo i = 1, 2; do j = 1, 2\nx = 1\nend do\nend do\nend program p\n"
	f := parser.Parse("s.f90", []byte(src), nil)
	if got, want := showFolds(f, Folds(f)), "1-5, 2-4"; got != want {
		t.Errorf("folds %q, want %q", got, want)
	}
}

// TestHighlightsForallIndex: the index of a FORALL statement is written
// there; its uses in the assignment are reads.
func TestHighlightsForallIndex(t *testing.T) {
	src := "program p\n  real a(10)\n  forall (i = 1:10) a(i) = i\nend program p\n"
	f := parser.Parse("s.f90", []byte(src), nil)
	got := showHighlights(f, Highlights(f, strings.Index(src, "i =")))
	if want := "i@3:11 W, i@3:23 R, i@3:28 R"; got != want {
		t.Errorf("highlights %q, want %q", got, want)
	}
}
