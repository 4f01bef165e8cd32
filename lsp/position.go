package lsp

import (
	"github.com/pfls/pfls/parser"
	"go.lsp.dev/protocol"
)

// This file is the one place where LSP positions (0-based lines, UTF-16
// columns) and byte offsets meet; it delegates to parser.Mapper.

// offsetOf converts an LSP position to a byte offset of f, clamping
// positions past the end of a line or of the text; ok is false when it had
// to clamp.
func offsetOf(f *parser.File, p protocol.Position) (int, bool) {
	return f.Lines.OffsetUTF16(int(p.Line), int(p.Character))
}

// positionOf converts a byte offset of f to an LSP position.
func positionOf(f *parser.File, off int) protocol.Position {
	l, c := f.Lines.UTF16Column(off)
	return protocol.Position{Line: uint32(l), Character: uint32(c)}
}

// rangeOf converts the byte range [start, end) of f to an LSP range.
func rangeOf(f *parser.File, start, end int) protocol.Range {
	if end < start {
		end = start
	}
	return protocol.Range{Start: positionOf(f, start), End: positionOf(f, end)}
}

// offsetsOf converts an LSP range to byte offsets, ordered.
func offsetsOf(f *parser.File, r protocol.Range) (start, end int) {
	start, _ = offsetOf(f, r.Start)
	end, _ = offsetOf(f, r.End)
	if end < start {
		start, end = end, start
	}
	return start, end
}

// contentChange is one entry of didChange's contentChanges. Range is nil
// for a full replacement (protocol.TextDocumentContentChangeEvent cannot
// tell the two apart, its Range is not a pointer).
type contentChange struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

// editText returns the text after one ranged change and the change as
// a parser.Edit; positions past the end of a line or of the text are
// clamped.
func editText(f *parser.File, ch contentChange) ([]byte, parser.Edit) {
	start, end := offsetsOf(f, *ch.Range)
	src := make([]byte, 0, len(f.Src)-(end-start)+len(ch.Text))
	src = append(src, f.Src[:start]...)
	src = append(src, ch.Text...)
	src = append(src, f.Src[end:]...)
	return src, parser.Edit{Start: start, OldEnd: end, NewEnd: start + len(ch.Text)}
}
