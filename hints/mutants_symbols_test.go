package hints

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// showSymbols renders symbols as name|detail|kind|start|end|selStart|
// selEnd, one a line, children indented.
func showSymbols(syms []Symbol, indent string) string {
	var b strings.Builder
	for _, s := range syms {
		fmt.Fprintf(&b, "%s%s|%s|%s|%d|%d|%d|%d\n", indent, s.Name, s.Detail, s.Kind, s.Start, s.End, s.SelStart, s.SelEnd)
		b.WriteString(showSymbols(s.Children, indent+"  "))
	}
	return b.String()
}

// TestDocumentSymbolsShapes: the outline of a typed function with an
// ENTRY, every kind of loop (a named DO WHILE, a labelled DO with a step,
// DO CONCURRENT with a mask, FORALL construct and statement, a DO
// without control), an unnamed BLOCK DATA (its head is its selection)
// and a module left without END (it ends with its last procedure). The
// offsets are counted from the lines of the source.
func TestDocumentSymbolsShapes(t *testing.T) {
	src := `real function f(x, y)
  real :: x, y
  f = x
  entry g(y)
  g = y
end function f
program q
  integer :: a(10)
  outer: do while (n > 0)
    n = n - 1
  end do outer
  do 10 i = 1, 10, 2
10 continue
  do concurrent (i = 1:10, a(i) > 0)
  end do
  forall (i = 1:10:2, a(i) > 0)
    a(i) = 0
  end forall
  forall (i = 1:10) a(i) = 1
  do
  end do
end program q
block data
  common /c/ x
end block data
module m
contains
  subroutine s
  end subroutine s
`
	want := `F|REAL FUNCTION F(X, Y)|function|0|80|14|15
  G|ENTRY G(Y)|function|47|57|53|54
Q||program|81|358|89|90
  OUTER: DO WHILE|(N>0)|loop|112|164|112|135
  DO 10 I|I = 1, 10, 2|loop|167|197|167|185
  DO CONCURRENT|(I = 1:10, A(I)>0)|loop|200|243|200|234
  FORALL|(I = 1:10:2, A(I)>0)|loop|246|301|246|275
  FORALL|(I = 1:10)|loop|304|330|304|330
  DO||loop|333|344|333|335
(block data)||block data|359|399|359|369
M||module|400|451|407|408
  S|SUBROUTINE S()|subroutine|420|451|431|432
`
	f := parser.Parse("s.f90", []byte(src), nil)
	if got := showSymbols(DocumentSymbols(f), ""); got != want {
		t.Errorf("outline\n%s\nwant\n%s", got, want)
	}
	var ws []string
	for _, s := range WorkspaceSymbols(f, "") {
		ws = append(ws, fmt.Sprintf("%s %s %d-%d", s.Name, s.Kind, s.Start, s.End))
	}
	// The COMMON block /C/ of the BLOCK DATA is named at 380 ("  common
	// /c/ x" starts at 370): its one letter.
	wantWS := "F function 0-80, G function 47-57, Q program 81-358, (block data) block data 359-399, /C/ common block 380-381, M module 400-451, S subroutine 420-451"
	if got := strings.Join(ws, ", "); got != wantWS {
		t.Errorf("workspace symbols %s\nwant %s", got, wantWS)
	}
}

// TestDocumentSymbolsNoHeader: a main program without PROGRAM starts at
// its first statement and, without END, ends with its last; one of an
// END alone is that END; a unit of its header alone is that header.
func TestDocumentSymbolsNoHeader(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"x = 1\nend\n", "(program)||program|0|9|0|0\n"},
		{"end\n", "(program)||program|0|3|0|0\n"},
		{"x = 1\ny = 2\n", "(program)||program|0|11|0|0\n"},
		// A header alone, as a new file is being typed (this panicked).
		{"subroutine s\n", "S|SUBROUTINE S()|subroutine|0|12|11|12\n"},
	} {
		f := parser.Parse("s.f90", []byte(c.src), nil)
		if got := showSymbols(DocumentSymbols(f), ""); got != c.want {
			t.Errorf("%q: %q, want %q", c.src, got, c.want)
		}
	}
}

// TestLoopSymbolDirectives: the loop directives of a DO follow its
// control in the detail, two blanks apart; a DO without control shows
// them alone. Data directives (TEMPLATE) are not listed.
func TestLoopSymbolDirectives(t *testing.T) {
	src := "program p\n  real a(10)\n!hpf$ template t(10)\n!hpf$ independent\n  do i = 1, 10\n    a(i) = i\n  end do\n!hpf$ independent\n  do\n  end do\nend program p\n"
	f := parser.Parse("s.f90", []byte(src), nil)
	syms := DocumentSymbols(f)
	if len(syms) != 1 || len(syms[0].Children) != 2 || syms[0].Children[0].Detail != "I = 1, 10  INDEPENDENT" || syms[0].Children[1].Detail != "INDEPENDENT" {
		t.Errorf("loops %+v", syms)
	}
}
