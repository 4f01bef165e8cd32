package parser

import (
	"strings"
	"testing"
)

func TestMapperColumns(t *testing.T) {
	// "é" is two bytes and one UTF-16 unit; "𝔸" is four bytes and two units.
	src := []byte("ab\r\nxéy𝔸z\n\nlast")
	m := NewMapper(src)
	if m.LineCount() != 4 {
		t.Fatalf("LineCount = %d, want 4", m.LineCount())
	}
	cases := []struct {
		off                    int
		line, byteCol, runeCol int
		utf16Col               int
	}{
		{0, 0, 0, 0, 0},
		{2, 0, 2, 2, 2},  // the "\r"
		{4, 1, 0, 0, 0},  // "x"
		{5, 1, 1, 1, 1},  // "é"
		{7, 1, 3, 2, 2},  // "y"
		{8, 1, 4, 3, 3},  // "𝔸"
		{12, 1, 8, 4, 5}, // "z"
		{14, 2, 0, 0, 0},
		{15, 3, 0, 0, 0},
		{19, 3, 4, 4, 4}, // end of text
	}
	for _, c := range cases {
		if l, col := m.ByteColumn(c.off); l != c.line || col != c.byteCol {
			t.Errorf("ByteColumn(%d) = %d:%d, want %d:%d", c.off, l, col, c.line, c.byteCol)
		}
		if l, col := m.RuneColumn(c.off); l != c.line || col != c.runeCol {
			t.Errorf("RuneColumn(%d) = %d:%d, want %d:%d", c.off, l, col, c.line, c.runeCol)
		}
		l, col := m.UTF16Column(c.off)
		if l != c.line || col != c.utf16Col {
			t.Errorf("UTF16Column(%d) = %d:%d, want %d:%d", c.off, l, col, c.line, c.utf16Col)
		}
		if back, ok := m.OffsetUTF16(l, col); !ok || back != c.off {
			t.Errorf("OffsetUTF16(%d, %d) = %d, %v; want %d", l, col, back, ok, c.off)
		}
		if back, ok := m.OffsetRune(c.line, c.runeCol); !ok || back != c.off {
			t.Errorf("OffsetRune(%d, %d) = %d, %v; want %d", c.line, c.runeCol, back, ok, c.off)
		}
	}
	if m.LineEnd(0) != 2 || m.LineEnd(1) != 13 || m.LineEnd(3) != len(src) {
		t.Errorf("LineEnd = %d %d %d", m.LineEnd(0), m.LineEnd(1), m.LineEnd(3))
	}
}

func TestMapperOutOfRange(t *testing.T) {
	m := NewMapper([]byte("abc\ndef"))
	// A column past the end of a line clamps to the line's end.
	if off, ok := m.OffsetUTF16(0, 99); ok || off != 3 {
		t.Errorf("OffsetUTF16(0, 99) = %d, %v; want 3, false", off, ok)
	}
	// A line past the end gives the end of the text.
	if off, ok := m.OffsetUTF16(9, 0); ok || off != 7 {
		t.Errorf("OffsetUTF16(9, 0) = %d, %v; want 7, false", off, ok)
	}
	if off, ok := m.OffsetUTF16(-1, 0); ok || off != 0 {
		t.Errorf("OffsetUTF16(-1, 0) = %d, %v", off, ok)
	}
	// A column inside a surrogate pair moves to the character's start.
	m2 := NewMapper([]byte("𝔸b"))
	if off, _ := m2.OffsetUTF16(0, 1); off != 0 {
		t.Errorf("OffsetUTF16 inside a surrogate pair = %d, want 0", off)
	}
	if l, c := m.UTF16Column(-5); l != 0 || c != 0 {
		t.Errorf("UTF16Column(-5) = %d:%d", l, c)
	}
	if l, c := m.UTF16Column(100); l != 1 || c != 3 {
		t.Errorf("UTF16Column(100) = %d:%d", l, c)
	}
}

func TestMapperUpdate(t *testing.T) {
	src := []byte("one\ntwo\nthree\n")
	m := NewMapper(src)
	for _, c := range []struct {
		start, end int
		text       string
	}{
		{0, 0, "x\n"}, {4, 8, ""}, {3, 4, ""}, {13, 14, "\n\n"}, {0, len(src), ""}, {5, 6, "a\nb\nc"},
	} {
		nsrc, e := applyEdit(src, c.start, c.end, c.text)
		got := m.Update(nsrc, e).lines
		want := NewMapper(nsrc).lines
		if len(got) != len(want) {
			t.Errorf("edit %+v: %v, want %v", c, got, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("edit %+v: %v, want %v", c, got, want)
				break
			}
		}
	}
}

// TestSourceFormOverride: the form comes from the extension unless the
// configuration says otherwise, and a different form gives another tree.
func TestSourceFormOverride(t *testing.T) {
	src := []byte("      X = 1\n      END\n")
	if f := Parse("a.f90", src, nil); f.Form != Free {
		t.Errorf("a.f90 parsed as %v", f.Form)
	}
	if f := Parse("a.F", src, nil); f.Form != Fixed {
		t.Errorf("a.F parsed as %v", f.Form)
	}
	if f := Parse("a.hpf", src, nil); f.Form != Free {
		t.Errorf("a.hpf parsed as %v", f.Form)
	}
	f := Parse("a.f90", src, &Config{Form: Fixed})
	if f.Form != Fixed || len(f.Errors()) != 0 {
		t.Errorf("override to fixed: form %v, errors %v", f.Form, f.Errors())
	}
	// Column-6 continuation means something only in fixed form.
	cont := []byte("      X = 1\n     &  + 2\n      END\n")
	if errs := Parse("c.f", cont, nil).Errors(); len(errs) != 0 {
		t.Errorf("fixed form: %v", errs)
	}
	if errs := Parse("c.f", cont, &Config{Form: Free}).Errors(); len(errs) == 0 {
		t.Errorf("free form should reject a column-6 continuation")
	}
}

// TestNewMapperSizesLines checks that the line table is allocated once,
// at its size, however short the lines are: a text of 1,000 lines of
// one character makes the Mapper and the table, nothing more.
func TestNewMapperSizesLines(t *testing.T) {
	src := []byte(strings.Repeat("x\n", 1000))
	m := NewMapper(src)
	if m.LineCount() != 1001 || cap(m.lines) != 1001 {
		t.Fatalf("%d lines in a table of capacity %d, want 1001 and 1001", m.LineCount(), cap(m.lines))
	}
	if n := testing.AllocsPerRun(10, func() { NewMapper(src) }); n != 2 {
		t.Errorf("NewMapper made %v allocations, want 2", n)
	}
}
