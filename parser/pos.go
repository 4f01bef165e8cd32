package parser

import (
	"bytes"
	"sort"
	"unicode/utf16"
	"unicode/utf8"
)

// Pos is a byte offset. Inside a Unit it is relative to the Unit's Base, so
// that a unit reused by an incremental reparse only moves its base; File
// level values (Error.Offset, Unit.Base) are absolute offsets in File.Src.
type Pos int32

// NoPos marks a position that is absent (an omitted label, a missing token).
const NoPos Pos = -1

// IsValid reports whether p names a real position.
func (p Pos) IsValid() bool { return p >= 0 }

// Mapper converts between byte offsets, line/column pairs in bytes, runes
// and UTF-16 code units. It is the only place in pfls that does so. Lines
// and columns are 0-based; callers that print them add one.
type Mapper struct {
	src   []byte
	lines []int // byte offset of the start of each line
}

// NewMapper indexes the line starts of src. A line ends after "\n"; a "\r"
// before it belongs to the line's end, not its text.
func NewMapper(src []byte) *Mapper {
	m := &Mapper{src: src}
	// Counting the line breaks first (a fast scan) sizes the table
	// exactly, where a guess that falls short costs a copy of it.
	m.lines = appendLineStarts(make([]int, 0, bytes.Count(src, newline)+1), src, 0)
	return m
}

var newline = []byte{'\n'}

func appendLineStarts(lines []int, src []byte, base int) []int {
	lines = append(lines, base)
	for i := 0; i < len(src); {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		lines = append(lines, base+i)
	}
	return lines
}

// Update returns a mapper for newSrc, which is the mapper's text with the
// edit applied. Line starts before the edit are kept, those after it are
// shifted, and only the edited stretch is scanned again.
func (m *Mapper) Update(newSrc []byte, e Edit) *Mapper {
	// The first line whose start is after e.Start is the first one that can
	// change; lines starting at or before e.Start keep their offsets.
	first := sort.SearchInts(m.lines, e.Start+1)
	delta := e.NewEnd - e.OldEnd
	// The first old line start strictly after the edited stretch survives.
	after := sort.SearchInts(m.lines, e.OldEnd+1)
	lines := make([]int, 0, len(m.lines)+8)
	lines = append(lines, m.lines[:first]...)
	// Scan the new text from the start of the line holding e.Start up to the
	// end of the inserted text for the line breaks it now contains.
	for i := e.Start; i < e.NewEnd && i < len(newSrc); i++ {
		if newSrc[i] == '\n' {
			lines = append(lines, i+1)
		}
	}
	for _, l := range m.lines[after:] {
		lines = append(lines, l+delta)
	}
	return &Mapper{src: newSrc, lines: lines}
}

// LineCount is the number of lines; a text ending in "\n" has an empty last line.
func (m *Mapper) LineCount() int { return len(m.lines) }

// LineStart returns the byte offset where line (0-based) starts; a line past
// the end gives len(src).
func (m *Mapper) LineStart(line int) int {
	if line < 0 {
		return 0
	}
	if line >= len(m.lines) {
		return len(m.src)
	}
	return m.lines[line]
}

// LineEnd returns the offset of the end of the line's text, before "\r\n" or "\n".
func (m *Mapper) LineEnd(line int) int {
	if line < 0 {
		return 0
	}
	if line+1 >= len(m.lines) {
		return len(m.src)
	}
	end := m.lines[line+1] - 1
	if end > m.lines[line] && m.src[end-1] == '\r' {
		end--
	}
	return end
}

// Line returns the 0-based line holding offset off (clamped to the text).
func (m *Mapper) Line(off int) int {
	if off < 0 {
		return 0
	}
	if off > len(m.src) {
		off = len(m.src)
	}
	return sort.SearchInts(m.lines, off+1) - 1
}

// ByteColumn returns the 0-based line and byte column of off.
func (m *Mapper) ByteColumn(off int) (line, col int) {
	off = m.clamp(off)
	line = m.Line(off)
	return line, off - m.lines[line]
}

// RuneColumn returns the 0-based line and column in characters (runes) of
// off, as the command line prints them (plus one).
func (m *Mapper) RuneColumn(off int) (line, col int) {
	off = m.clamp(off)
	line = m.Line(off)
	return line, utf8.RuneCount(m.src[m.lines[line]:off])
}

// UTF16Column returns the 0-based line and column in UTF-16 code units, as
// LSP positions count them.
func (m *Mapper) UTF16Column(off int) (line, col int) {
	off = m.clamp(off)
	line = m.Line(off)
	return line, utf16Len(m.src[m.lines[line]:off])
}

// OffsetUTF16 converts an LSP position to a byte offset. A column past the
// end of the line gives the line's end and a line past the end gives the end
// of the text, as the LSP specification asks; ok is false in those cases.
// A column inside a surrogate pair is moved to the start of the character.
func (m *Mapper) OffsetUTF16(line, col int) (off int, ok bool) {
	if line < 0 || col < 0 {
		return 0, false
	}
	if line >= len(m.lines) {
		return len(m.src), false
	}
	start, end := m.lines[line], m.LineEnd(line)
	n := 0
	for i := start; i < end; {
		if n >= col {
			return i, true
		}
		r, size := utf8.DecodeRune(m.src[i:end])
		w := 1
		if r >= 0x10000 && r != utf8.RuneError {
			w = 2
		}
		if n+w > col {
			return i, true
		}
		n += w
		i += size
	}
	return end, n == col
}

// OffsetRune converts a 0-based line and rune column to a byte offset.
func (m *Mapper) OffsetRune(line, col int) (off int, ok bool) {
	if line < 0 || col < 0 {
		return 0, false
	}
	if line >= len(m.lines) {
		return len(m.src), false
	}
	start, end := m.lines[line], m.LineEnd(line)
	n := 0
	for i := start; i < end; n++ {
		if n == col {
			return i, true
		}
		_, size := utf8.DecodeRune(m.src[i:end])
		i += size
	}
	return end, n == col
}

func (m *Mapper) clamp(off int) int {
	if off < 0 {
		return 0
	}
	if off > len(m.src) {
		return len(m.src)
	}
	return off
}

func utf16Len(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		n += utf16.RuneLen(r) // invalid bytes decode to U+FFFD: one unit
		i += size
	}
	return n
}
