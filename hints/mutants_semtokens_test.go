package hints

import (
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestSemTokensEdges: tokens at the very end of a file with no newline
// after its last line, and fixed-form statements whose keyword runs into
// the name after it (blanks are not significant there), where the two
// tokens touch and both are kept.
func TestSemTokensEdges(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"e.f90", "program p\nif (x) then",
			"program:keyword p:function+declaration\nif:keyword x:variable then:keyword"},
		{"e.f", "      PROGRAM P\n      REALX\n      CALLS(X)\n      END\n      SUBROUTINE S(A)\n      END\n",
			"PROGRAM:keyword P:function+declaration\nREAL:keyword X:variable+declaration\nCALL:keyword S:function X:variable\nEND:keyword\nSUBROUTINE:keyword S:function+declaration A:parameter\nEND:keyword"},
	}
	for _, c := range cases {
		f := parser.Parse(c.name, []byte(c.src), nil)
		if got := showTokens(f, SemTokens(f)); got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}
