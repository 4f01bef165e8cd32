package hints

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestSaveCommonBlock: the name of a COMMON block in SAVE /BLOCK/ is a
// reference to the block, as in its COMMON statement: highlighted,
// found and renamed with it, and coloured as a block. The tree keeps it
// as a call of "/": it was taken for a one-letter block "/" and a
// procedure BLK1, so a rename of the block left the SAVE behind (or,
// from the SAVE, overwrote its first letter).
func TestSaveCommonBlock(t *testing.T) {
	for _, form := range []struct{ name, src string }{
		{"s.f90", "program p\ncommon /blk1/ x, y\nsave /blk1/\nx = 1\nend\n"},
		{"s.f", "      PROGRAM P\n      COMMON /BLK1/ X, Y\n      SAVE /BLK1/\n      X = 1\n      END\n"},
	} {
		src := form.src
		f := parser.Parse(form.name, []byte(src), nil)
		inCommon := strings.Index(strings.ToUpper(src), "BLK1")
		inSave := strings.LastIndex(strings.ToUpper(src), "BLK1")
		want := []Highlight{{Start: inCommon, End: inCommon + 4}, {Start: inSave, End: inSave + 4}}
		for _, at := range []int{inCommon, inSave} {
			if got := Highlights(f, at); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
				t.Errorf("%s: highlights at %d: %+v, want %+v", form.name, at, got, want)
			}
			edits, err := Rename(f, at, "blk9", nil)
			if err != nil || len(edits) != 2 || edits[0].Start != inCommon || edits[1].Start != inSave || edits[1].End != inSave+4 {
				t.Errorf("%s: rename at %d: %+v %v, want the two names", form.name, at, edits, err)
			}
		}
		if defs := Definition(f, inSave, nil); len(defs) != 1 || defs[0].Start != inCommon {
			t.Errorf("%s: definition from the SAVE: %+v, want the COMMON's name at %d", form.name, defs, inCommon)
		}
		tokens := showTokens(f, SemTokens(f))
		if line := strings.Split(tokens, "\n")[2]; !strings.EqualFold(line, "SAVE:keyword BLK1:struct") {
			t.Errorf("%s: tokens of the SAVE line %q", form.name, line)
		}
	}
}
