package hints

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestFitsColumn72: an edit of a fixed-form directive is offered when
// every line it touches or inserts ends by column 72, or is no wider
// than it was, whether the edit starts at the line's start, ends at its
// end or is inserted there.
func TestFitsColumn72(t *testing.T) {
	dir := "!HPF$ DISTRIBUTE T(BLOCK,BLOCK)"
	long := dir + strings.Repeat(" ", 80-len(dir)-len("! far")) + "! far" // 80 columns
	src := "      PROGRAM H\n" + dir + "\n" + long + "\n      END\n"
	f := parser.Parse("h.f", []byte(src), nil)
	at := strings.Index(src, dir)
	end := at + len(dir) // the end of the short line
	lat := strings.Index(src, long)
	pad := func(n int) string { return strings.Repeat("X", n) }
	for _, c := range []struct {
		name  string
		edits []TextEdit
		want  bool
	}{
		{"appended up to column 72", []TextEdit{{f, end, end, pad(72 - len(dir))}}, true},
		{"appended to column 73", []TextEdit{{f, end, end, pad(73 - len(dir))}}, false},
		{"inserted at the start, to column 73", []TextEdit{{f, at, at, pad(73 - len(dir))}}, false},
		{"the tail replaced, to column 73", []TextEdit{{f, end - 6, end, pad(73 - len(dir) + 6)}}, false},
		{"the tail replaced, to column 72", []TextEdit{{f, end - 6, end, pad(72 - len(dir) + 6)}}, true},
		{"a line inserted before, 73 columns", []TextEdit{{f, at, at, "!HPF$ " + pad(67) + "\n"}}, false},
		{"a line inserted before, 72 columns", []TextEdit{{f, at, at, "!HPF$ " + pad(66) + "\n"}}, true},
		{"a line past 72 kept as wide", []TextEdit{{f, lat + 19, lat + 24, "CYCLE"}}, true},
		{"a line past 72 made wider", []TextEdit{{f, lat + 19, lat + 24, "CYCLIC"}}, false},
	} {
		if got := fits(f, c.edits); got != c.want {
			t.Errorf("%s: fits %v, want %v", c.name, got, c.want)
		}
	}
}
