package lsp

import (
	"context"
	"github.com/pfls/pfls/hints"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/pfls/pfls/parser"
	"go.lsp.dev/protocol"
)

// editor is the client's side of a document: its text, edited as an
// editor does, with LSP positions in UTF-16 columns.
type editor struct{ text string }

// offset converts an LSP position to a byte offset of the editor's text,
// clamped as the protocol asks: a line ends at "\n" or "\r\n" (the end
// of line is not part of it), a column inside a surrogate pair is taken
// as the one before it. (Texts with a lone "\r", which LSP also counts as
// a line end, are left to the parser's Mapper and its tests.)
func (e *editor) offset(p protocol.Position) int {
	lines := strings.SplitAfter(e.text, "\n")
	if int(p.Line) >= len(lines) {
		return len(e.text)
	}
	off := 0
	for _, l := range lines[:p.Line] {
		off += len(l)
	}
	line := strings.TrimSuffix(strings.TrimSuffix(lines[p.Line], "\n"), "\r")
	col := 0
	for i, r := range line {
		col += len(utf16.Encode([]rune{r}))
		if col > int(p.Character) {
			return off + i
		}
	}
	return off + len(line)
}

func (e *editor) apply(rg protocol.Range, text string) {
	a, b := e.offset(rg.Start), e.offset(rg.End)
	if b < a {
		a, b = b, a
	}
	e.text = e.text[:a] + text + e.text[b:]
}

// fragments are what the fuzzer types: pieces of Fortran, half-typed
// statements, line breaks, continuation marks and non-ASCII text.
var fragments = []string{"", "X", " = ", "CALL", "CALL FOO(", "ENTRY", "FORALL", "DO 10 I = 1, N\n", "10 CONTINUE\n",
	"\n", "\n     &", "(", ")", "END\n", "      SUBROUTINE S(A)\n", "!HPF$ ALIGN ", "'", "é", "😀", "\t", "IF (", "PARAMETER (K=J+1)\n"}

// TestEditsNeverFallOutOfStep applies random incremental edits (random
// ranges, clamped ones past the end, pieces of bad Fortran) while the
// parser panics on some of them, and requires after every edit that the
// server's text and version equal the client's, and that the
// diagnostics last published are those of the current version, with an
// internal-error diagnostic while the parser fails.
func TestEditsNeverFallOutOfStep(t *testing.T) {
	c := newClient(t, Options{})
	panics, symbolErrors := 0, 0
	boom := func(src []byte) {
		// The parser "fails" on any text holding a bare CALL line.
		for _, l := range strings.Split(string(src), "\n") {
			if strings.TrimSpace(l) == "CALL" {
				panics++
				panic("bare CALL")
			}
		}
	}
	c.srv.store.parse = func(name string, src []byte, cfg *parser.Config) *parser.File {
		boom(src)
		return parser.Parse(name, src, cfg)
	}
	c.srv.store.reparse = func(f *parser.File, src []byte, e parser.Edit) *parser.File {
		boom(src)
		return f.Reparse(src, e)
	}
	c.initialize(fullCapabilities)
	uri, text := example(t, "redblack.f")
	ed := &editor{text: text}
	c.open(uri, text)
	rng := rand.New(rand.NewSource(12))
	steps := 400
	if testing.Short() {
		steps = 100
	}
	for v := 2; v < steps; v++ {
		lines := strings.Count(ed.text, "\n") + 2
		pos := func() protocol.Position {
			return protocol.Position{Line: uint32(rng.Intn(lines)), Character: uint32(rng.Intn(40))}
		}
		rg := protocol.Range{Start: pos()}
		rg.End = rg.Start
		switch rng.Intn(3) {
		case 0:
			rg.End = protocol.Position{Line: rg.Start.Line + uint32(rng.Intn(2)), Character: uint32(rng.Intn(40))}
			if rg.End.Line == rg.Start.Line && rg.End.Character < rg.Start.Character {
				rg.Start, rg.End = rg.End, rg.Start
			}
		case 1:
			rg.End.Character += uint32(rng.Intn(5))
		}
		ins := fragments[rng.Intn(len(fragments))]
		if rng.Intn(40) == 0 {
			ins = "\n      CALL\n" // makes the parser panic
		}
		if rng.Intn(40) == 0 && strings.Contains(ed.text, "\n      CALL\n") {
			// Delete the bad line again.
			i := strings.Index(ed.text, "\n      CALL\n") + 1
			line := strings.Count(ed.text[:i], "\n")
			rg = protocol.Range{Start: protocol.Position{Line: uint32(line)}, End: protocol.Position{Line: uint32(line + 1)}}
			ins = ""
		}
		ed.apply(rg, ins)
		c.change(uri, v, &rg, ins)
		if v%10 == 0 && rng.Intn(2) == 0 {
			// Sometimes a full replacement, which the editor may send too.
			c.change(uri, v, nil, ed.text)
		}
		// A request after the notifications sees their result. (Producers
		// may still fail on half-typed code: that answers an error.)
		if err := c.callErr("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, nil); err != nil {
			if rpcCode(err) != -32603 {
				t.Fatalf("version %d: documentSymbol: %v", v, err)
			}
			if symbolErrors++; symbolErrors == 1 {
				t.Logf("documentSymbol failed (a bug outside lsp) on\n%s\n%v", ed.text, err)
			}
		}
		snap := c.srv.store.get(uri)
		if string(snap.File.Src) != ed.text || snap.Version != int32(v) {
			a, b := string(snap.File.Src), ed.text
			i := 0
			for i < len(a) && i < len(b) && a[i] == b[i] {
				i++
			}
			t.Fatalf("version %d (after %+v %q): server has version %d; texts differ at byte %d: server %q, client %q",
				v, rg, ins, snap.Version, i, a[max(i-20, 0):min(i+20, len(a))], b[max(i-20, 0):min(i+20, len(b))])
		}
		if v%25 == 0 {
			d := c.waitDiags(uri, uint32(v))
			broken := snap.Broken != ""
			internal := false
			for _, dg := range d.Diagnostics {
				if dg.Code == internalCode {
					internal = true
				}
				if end := ed.offset(dg.Range.End); end > len(ed.text) || dg.Range.End.Line > uint32(lines) {
					t.Fatalf("version %d: diagnostic %+v past the text", v, dg)
				}
			}
			if internal != broken {
				t.Fatalf("version %d: internal-error diagnostic %v, parser failed %v: %+v", v, internal, broken, d.Diagnostics)
			}
		}
	}
	if panics == 0 {
		t.Fatal("the parser never failed: the test tests nothing")
	}
	t.Logf("%d edits, %d parser panics, %d documentSymbol internal errors", steps, panics, symbolErrors)
	// Once the bad line is gone the document is parsed again.
	c.change(uri, steps, nil, text)
	d := c.waitDiags(uri, uint32(steps))
	for _, dg := range d.Diagnostics {
		if dg.Code == internalCode {
			t.Fatalf("internal error after the text was repaired: %+v", dg)
		}
	}
	if snap := c.srv.store.get(uri); snap.Broken != "" || len(snap.File.Units) == 0 {
		t.Fatalf("not parsed again after repair: %q", snap.Broken)
	}
}

// TestDocumentTooLarge: a document over the size limit is kept as text,
// in step with the client, with one diagnostic instead of analyses; once
// it is cut below the limit it is analysed again.
func TestDocumentTooLarge(t *testing.T) {
	analysed := 0
	c := newClient(t, Options{Inlay: func(_ context.Context, f *parser.File, start, end int, o hints.InlayOptions) []hints.InlayHint {
		analysed++
		return nil
	}})
	c.srv.store.maxSize = 3000
	c.initialize(fullCapabilities)
	const uri = "file:///src/huge.f"
	head := "      PROGRAM P\n      X = 1\n"
	text := head + strings.Repeat("C     a comment line of the big file\n", 100) + "      END\n"
	ed := &editor{text: text}
	c.open(uri, text)
	d := c.waitDiags(uri, 1)
	if len(d.Diagnostics) != 1 || d.Diagnostics[0].Code != tooLargeCode ||
		!strings.Contains(d.Diagnostics[0].Message, "file too large to analyse (3") {
		t.Fatalf("diagnostics of a large file: %+v", d.Diagnostics)
	}
	// Typing keeps the text in step; no analysis runs.
	rg := protocol.Range{Start: protocol.Position{Line: 1, Character: 10}, End: protocol.Position{Line: 1, Character: 11}}
	ed.apply(rg, "2")
	c.change(uri, 2, &rg, "2")
	var hs []InlayHint
	c.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": protocol.Range{End: protocol.Position{Line: 200}}}, &hs)
	if got := string(c.srv.store.get(uri).File.Src); got != ed.text {
		t.Fatal("text out of step in a large file")
	}
	var h *protocol.Hover
	c.call("textDocument/hover", textPos(uri, protocol.Position{Line: 1, Character: 6}), &h)
	if len(hs) != 0 || h != nil || analysed != 0 {
		t.Fatalf("a large file was analysed: hints %v, hover %v, %d analyses", hs, h, analysed)
	}
	d = c.waitDiags(uri, 2)
	if len(d.Diagnostics) != 1 || d.Diagnostics[0].Code != tooLargeCode {
		t.Fatalf("diagnostics after an edit: %+v", d.Diagnostics)
	}
	// Cut the comments: analysed again.
	rg = protocol.Range{Start: protocol.Position{Line: 2}, End: protocol.Position{Line: 102}}
	ed.apply(rg, "")
	c.change(uri, 3, &rg, "")
	d = c.waitDiags(uri, 3)
	if len(d.Diagnostics) != 0 {
		t.Fatalf("diagnostics after the cut: %+v", d.Diagnostics)
	}
	c.call("textDocument/hover", textPos(uri, protocol.Position{Line: 1, Character: 6}), &h)
	if h == nil || string(c.srv.store.get(uri).File.Src) != ed.text {
		t.Fatalf("not analysed after the cut: hover %v, text %q", h, c.srv.store.get(uri).File.Src)
	}
}

// FuzzStoreEdits applies a fuzzed sequence of ranged and full changes to
// a document with the real parser and requires the store's text and
// version to equal an editor's after each, whatever the parser does with
// the text (seeded with the examples and half-typed statements).
func FuzzStoreEdits(f *testing.F) {
	for _, name := range []string{"redblack.f", "dgefa.f", "sub2.f"} {
		_, text := example(f, name)
		f.Add(text, []byte{3, 10, 4, 2, 7, 0, 1, 5, 3, 3, 9, 1}, "      CALL")
		f.Add(text, []byte{0, 0, 200, 1, 1, 2}, "\n     &)")
	}
	f.Add("      X = 1\n      END\n", []byte{1, 6, 1, 6, 1}, "FORALL")
	f.Add("program p\nend\n", []byte{0, 3, 0, 3, 2}, "😀é\r\n")
	f.Fuzz(func(t *testing.T, text string, ops []byte, ins string) {
		// LSP text is valid UTF-8; a lone CR is a line end the editor
		// model leaves out (see editor.offset).
		if !utf8.ValidString(text) || !utf8.ValidString(ins) || loneCR(text+ins+"\n") || strings.HasSuffix(text+ins, "\r") {
			return
		}
		st := newStore()
		const uri = "file:///fuzz/a.f"
		st.open(uri, 1, text)
		ed := &editor{text: string(st.get(uri).File.Src)}
		if ed.text != text {
			t.Fatalf("open: text %q, want %q", ed.text, text)
		}
		for i := 0; i+4 < len(ops) && i < 200; i += 5 {
			var ch contentChange
			if ops[i+4]%16 == 15 {
				ch = contentChange{Text: ed.text + ins}
				ed.text += ins
			} else {
				rg := protocol.Range{Start: protocol.Position{Line: uint32(ops[i] % 32), Character: uint32(ops[i+1] % 80)},
					End: protocol.Position{Line: uint32(ops[i+2] % 32), Character: uint32(ops[i+3] % 80)}}
				if rg.End.Line < rg.Start.Line || rg.End.Line == rg.Start.Line && rg.End.Character < rg.Start.Character {
					rg.Start, rg.End = rg.End, rg.Start
				}
				piece := ins[:int(ops[i+4])%(len(ins)+1)]
				if !utf8.ValidString(piece) || strings.HasSuffix(piece, "\r") {
					piece = ins
				}
				ch = contentChange{Range: &rg, Text: piece}
				ed.apply(rg, piece)
			}
			snap := st.change(uri, int32(i+2), []contentChange{ch})
			if got := string(snap.File.Src); got != ed.text || snap.Version != int32(i+2) {
				t.Fatalf("after change %d (%+v): store has %q, editor %q", i/5, ch, got, ed.text)
			}
		}
	})
}

// loneCR reports whether s has a "\r" not followed by "\n".
func loneCR(s string) bool {
	return strings.Contains(strings.ReplaceAll(s, "\r\n", ""), "\r")
}
