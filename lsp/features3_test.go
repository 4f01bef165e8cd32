package lsp

import (
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// applyLineEdits applies non-overlapping edits of ASCII text, last first.
func applyLineEdits(t *testing.T, text string, edits []protocol.TextEdit) string {
	lines := strings.SplitAfter(text, "\n")
	offset := func(p protocol.Position) int {
		n := 0
		for i := 0; i < int(p.Line); i++ {
			n += len(lines[i])
		}
		return n + int(p.Character)
	}
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		if i > 0 && offset(edits[i-1].Range.End) > offset(e.Range.Start) {
			t.Fatalf("edits out of order or overlapping: %+v", edits)
		}
		text = text[:offset(e.Range.Start)] + e.NewText + text[offset(e.Range.End):]
	}
	return text
}

func TestFormatting(t *testing.T) {
	c := newClient(t, Options{})
	var init struct {
		Capabilities map[string]any `json:"capabilities"`
	}
	c.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, &init)
	if init.Capabilities["documentFormattingProvider"] != true || init.Capabilities["documentRangeFormattingProvider"] != true {
		t.Fatalf("formatting not advertised: %v", init.Capabilities)
	}
	const uri = "file:///src/fmt.f90"
	src := "program p\nif (x > 0) then   \ny = 1\nend if\ndo i = 1, 3\nz = i\nend do\nend program\n"
	c.open(uri, src)
	opts := map[string]any{"tabSize": 8, "insertSpaces": true}
	var edits []protocol.TextEdit
	c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": uri}, "options": opts}, &edits)
	want := "program p\n   if (x > 0) then\n      y = 1\n   end if\n   do i = 1, 3\n      z = i\n   end do\nend program\n"
	if got := applyLineEdits(t, src, edits); got != want {
		t.Fatalf("formatting (%d edits):\n%s", len(edits), got)
	}
	if len(edits) != 6 {
		t.Errorf("%d edits, want one per changed line (6)", len(edits))
	}
	// Range: lines 1 to 3 only.
	c.call("textDocument/rangeFormatting", map[string]any{"textDocument": map[string]any{"uri": uri}, "options": opts,
		"range": protocol.Range{Start: protocol.Position{Line: 1}, End: protocol.Position{Line: 4}}}, &edits)
	wantRange := "program p\n   if (x > 0) then\n      y = 1\n   end if\ndo i = 1, 3\nz = i\nend do\nend program\n"
	if got := applyLineEdits(t, src, edits); got != wantRange {
		t.Fatalf("rangeFormatting:\n%s", got)
	}
	// pfls.format.indent 0 takes the editor's tab size; keyword case.
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"pfls": map[string]any{"format": map[string]any{"indent": 0, "keywordCase": "upper"}}}})
	deadline := time.Now().Add(5 * time.Second)
	for c.srv.currentSettings().Format.KeywordCase != "upper" && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": uri}, "options": map[string]any{"tabSize": 2, "insertSpaces": true}}, &edits)
	want = "PROGRAM p\n  IF (x > 0) THEN\n    y = 1\n  END IF\n  DO i = 1, 3\n    z = i\n  END DO\nEND PROGRAM\n"
	if got := applyLineEdits(t, src, edits); got != want {
		t.Fatalf("formatting with the editor's tab size, upper case:\n%s", got)
	}
}
