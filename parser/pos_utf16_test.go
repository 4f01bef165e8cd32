package parser

import (
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// TestMapperUTF16Boundary pins the width of characters on each side of
// the end of the Basic Multilingual Plane: U+FFFF is the last character
// of one UTF-16 unit, U+10000 the first of two (a surrogate pair), and
// U+10FFFF the last of all. Offsets go to columns and back.
func TestMapperUTF16Boundary(t *testing.T) {
	for _, c := range []struct {
		r     rune
		units int // UTF-16 code units of r
	}{
		{0x7F, 1}, {0x80, 1}, {0x7FF, 1}, {0x800, 1}, {0xFFFD, 1}, {0xFFFE, 1}, {0xFFFF, 1},
		{0x10000, 2}, {0x10001, 2}, {0x1D538, 2}, {0x10FFFF, 2},
	} {
		// Computed apart from the mapper: the encoder's own count.
		if n := len(utf16.Encode([]rune{c.r})); n != c.units {
			t.Fatalf("U+%04X: utf16.Encode gives %d units, the table %d", c.r, n, c.units)
		}
		ch := string(c.r)
		w := utf8.RuneLen(c.r)
		// Line 0: "a", the character twice, "b". Line 1: the character, "z".
		src := []byte("a" + ch + ch + "b\n" + ch + "z")
		m := NewMapper(src)
		type pt struct{ off, line, col int }
		pts := []pt{
			{0, 0, 0},                   // a
			{1, 0, 1},                   // the first character
			{1 + w, 0, 1 + c.units},     // the second
			{1 + 2*w, 0, 1 + 2*c.units}, // b
			{2 + 2*w, 0, 2 + 2*c.units}, // the end of line 0
			{3 + 2*w, 1, 0},             // the character on line 1
			{3 + 3*w, 1, c.units},       // z
			{4 + 3*w, 1, 1 + c.units},   // the end of the text
		}
		for _, p := range pts {
			if l, col := m.UTF16Column(p.off); l != p.line || col != p.col {
				t.Errorf("U+%04X: UTF16Column(%d) = %d:%d, want %d:%d", c.r, p.off, l, col, p.line, p.col)
			}
			if off, ok := m.OffsetUTF16(p.line, p.col); !ok || off != p.off {
				t.Errorf("U+%04X: OffsetUTF16(%d, %d) = %d, %v; want %d, true", c.r, p.line, p.col, off, ok, p.off)
			}
		}
		// Past the end of line 0: its end, not ok.
		if off, ok := m.OffsetUTF16(0, 3+2*c.units); ok || off != 2+2*w {
			t.Errorf("U+%04X: OffsetUTF16 past the line end = %d, %v; want %d, false", c.r, off, ok, 2+2*w)
		}
		if c.units == 2 {
			// A column inside a surrogate pair goes to the start of its
			// character.
			if off, ok := m.OffsetUTF16(0, 2); !ok || off != 1 {
				t.Errorf("U+%04X: OffsetUTF16(0, 2) inside the first pair = %d, %v; want 1, true", c.r, off, ok)
			}
			if off, ok := m.OffsetUTF16(0, 4); !ok || off != 1+w {
				t.Errorf("U+%04X: OffsetUTF16(0, 4) inside the second pair = %d, %v; want %d, true", c.r, off, ok, 1+w)
			}
		}
	}
}
