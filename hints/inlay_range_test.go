package hints

import (
	"fmt"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
)

// TestInlayHintsRangeEdges pins the range filter of the real producer:
// a hint belongs to [start, end) when start <= offset < end. For each
// hint of SUB2, ranges starting and ending on, one byte before and one
// byte after its offset give exactly the hints that rule selects.
func TestInlayHintsRangeEdges(t *testing.T) {
	f := parser.Parse("sub2.f", []byte(sub2), nil)
	eng := complexity.NewEngine(complexity.Options{})
	opts := DefaultInlayOptions()
	all := InlayHints(f, eng, 0, len(f.Src)+1, opts)
	if len(all) != 4 {
		t.Fatalf("%d hints on SUB2, want 4: %+v", len(all), all)
	}
	offsets := func(hs []InlayHint) string {
		s := ""
		for _, h := range hs {
			s += fmt.Sprintf(" %d:%s", h.Offset, h.Kind)
		}
		return s
	}
	within := func(start, end int) []InlayHint {
		var out []InlayHint
		for _, h := range all {
			if start <= h.Offset && h.Offset < end {
				out = append(out, h)
			}
		}
		return out
	}
	for _, h := range all {
		o := h.Offset
		// The edges, named.
		if got := InlayHints(f, eng, o, o+1, opts); len(got) != 1 || got[0] != h {
			t.Errorf("range [%d, %d), the hint exactly at start: got%s, want %d:%s", o, o+1, offsets(got), o, h.Kind)
		}
		if got := InlayHints(f, eng, o-1, o, opts); len(got) != 0 {
			t.Errorf("range [%d, %d), the hint exactly at end: got%s, want none", o-1, o, offsets(got))
		}
		if got := InlayHints(f, eng, o+1, o+2, opts); len(got) != 0 {
			t.Errorf("range [%d, %d), the hint one byte before start: got%s, want none", o+1, o+2, offsets(got))
		}
		if got := InlayHints(f, eng, o-1, o+1, opts); len(got) != 1 || got[0] != h {
			t.Errorf("range [%d, %d), the hint one byte before end: got%s, want %d:%s", o-1, o+1, offsets(got), o, h.Kind)
		}
		// Every range with its ends near the hint.
		for start := o - 2; start <= o+2; start++ {
			for end := start + 1; end <= o+3; end++ {
				got, want := InlayHints(f, eng, start, end, opts), within(start, end)
				if offsets(got) != offsets(want) {
					t.Errorf("range [%d, %d): got%s, want%s", start, end, offsets(got), offsets(want))
				}
			}
		}
	}
	// The whole text as the server asks for it (end past the last byte)
	// and a range ending on the last hint.
	if got := InlayHints(f, eng, 0, len(f.Src), opts); offsets(got) != offsets(all) {
		t.Errorf("range [0, len): got%s, want%s", offsets(got), offsets(all))
	}
	last := all[len(all)-1].Offset
	if got := InlayHints(f, eng, 0, last, opts); offsets(got) != offsets(all[:len(all)-1]) {
		t.Errorf("range [0, %d): got%s, want%s", last, offsets(got), offsets(all[:len(all)-1]))
	}
}
