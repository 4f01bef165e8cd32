package hints

import (
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestIsLetterEdges: the letters at both ends of both cases and the
// underscore are letters; the bytes around them are not.
func TestIsLetterEdges(t *testing.T) {
	for _, c := range []byte("azAZ_") {
		if !isLetter(c) {
			t.Errorf("isLetter(%q) = false", c)
		}
	}
	for _, c := range []byte("`{@[0 ") {
		if isLetter(c) {
			t.Errorf("isLetter(%q) = true", c)
		}
	}
}

// TestFormatEndAtEndOfText: a distribution format written up to the end
// of the text ends there; one whose argument is not closed before the
// end, or whose "*" is past it, is not a format in one piece (-1).
func TestFormatEndAtEndOfText(t *testing.T) {
	u := &parser.Unit{}
	for _, c := range []struct {
		src  string
		fm   parser.DistFormat
		want int
	}{
		{"(BLOCK", parser.DistFormat{Pos: 1, Kind: "BLOCK"}, 6},
		{"(CYCLIC(2", parser.DistFormat{Pos: 1, Kind: "CYCLIC", Arg: &parser.Lit{ValuePos: 8, ValueEnd: 9}}, -1},
		{"(CYCLIC(2 ", parser.DistFormat{Pos: 1, Kind: "CYCLIC", Arg: &parser.Lit{ValuePos: 8, ValueEnd: 9}}, -1},
		{"(CYCLIC(2 )", parser.DistFormat{Pos: 1, Kind: "CYCLIC", Arg: &parser.Lit{ValuePos: 8, ValueEnd: 9}}, 11},
		{"(", parser.DistFormat{Pos: 1, Kind: "*"}, -1},
		{"(*", parser.DistFormat{Pos: 1, Kind: "*"}, 2},
	} {
		fm := c.fm
		if got := formatEnd([]byte(c.src), u, &fm); got != c.want {
			t.Errorf("formatEnd(%q, %s) = %d, want %d", c.src, fm.Kind, got, c.want)
		}
	}
}
