package hints

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// showHighlights renders highlights as "line:col R|W" (1-based).
func showHighlights(f *parser.File, hs []Highlight) string {
	var parts []string
	for _, h := range hs {
		l, c := f.Lines.ByteColumn(h.Start)
		kind := "R"
		if h.Write {
			kind = "W"
		}
		parts = append(parts, fmt.Sprintf("%s@%d:%d %s", f.Src[h.Start:h.End], l+1, c+1, kind))
	}
	return strings.Join(parts, ", ")
}

const highlightSrc = `      PROGRAM P
      INTEGER I, N
      REAL A(10)
      PARAMETER (N = 10)
      DO 10 I = 1, N
        A(I) = I
   10 CONTINUE
      READ (*,*) I, (A(K), K = 1, I)
      CALL S(A, N)
      CALL S(A, N)
      END
      SUBROUTINE S(A, I)
      INTEGER I
      REAL A(I)
      A(I) = 0.
      END
`

func TestHighlights(t *testing.T) {
	f := parser.Parse("h.f", []byte(highlightSrc), nil)
	cases := []struct {
		at   string // the text whose first occurrence holds the cursor
		n    int    // which occurrence
		want string
	}{
		// The I of P, not the dummy I of S: by binding, not by spelling.
		{"I, N", 1, "I@2:15 R, I@5:13 W, I@6:11 R, I@6:16 R, I@8:18 W, I@8:35 R"},
		// A is written through its elements, read as an actual argument.
		{"A(10)", 1, "A@3:12 R, A@6:9 W, A@8:22 W, A@9:14 R, A@10:14 R"},
		{"N = 10", 1, "N@2:18 R, N@4:18 R, N@5:20 R, N@9:17 R, N@10:17 R"},
		// The implied-DO index.
		{"K = 1", 1, "K@8:24 R, K@8:28 W"},
		// A procedure: its calls and its header.
		{"S(A, N)", 1, "S@9:12 R, S@10:12 R, S@12:18 R"},
		// The dummy I of S.
		{"INTEGER I\n", 1, "I@12:23 R, I@13:15 R, I@14:14 R, I@15:9 R"},
	}
	for _, c := range cases {
		off := occurrence(highlightSrc, c.at, c.n)
		if strings.HasPrefix(c.at, "INTEGER") {
			off += len("INTEGER ")
		}
		if got := showHighlights(f, Highlights(f, off)); got != c.want {
			t.Errorf("at %q #%d:\n got %s\nwant %s", c.at, c.n, got, c.want)
		}
	}
	if hs := Highlights(f, strings.Index(highlightSrc, "PROGRAM")); hs != nil {
		t.Errorf("highlights on a keyword: %s", showHighlights(f, hs))
	}
}
