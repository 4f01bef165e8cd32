package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Tests written against the mutants gremlins found alive or uncovered
// in lsp (issue 21, scripts/mutation.sh). The mutants left alive, each
// with why it changes nothing observable: docs/mutation-lsp.md.

// edgeProgram is four lines of 16, 12, 12 and 10 bytes: the lines start
// at offsets 0, 16, 28 and 40, and the text ends at 50.
const edgeProgram = "      PROGRAM P\n      X = 1\n      Y = 2\n      END\n"

// edgeHints is an inlay producer that ignores the range it is given and
// puts a hint labelled with its offset at every offset of the text,
// the end included: what the server answers is then its own range filter.
func edgeHints(_ context.Context, f *parser.File, _, _ int, _ hints.InlayOptions) []hints.InlayHint {
	var out []hints.InlayHint
	for off := 0; off <= len(f.Src); off++ {
		out = append(out, hints.InlayHint{Offset: off, Label: fmt.Sprint(off), Kind: "loop"})
	}
	return out
}

// TestInlayHintRangeEdges: the server answers the hints at offsets in
// [start, end) of the range asked for (LSP: the visible range, its end
// exclusive), and a range reaching the end of the text also the hint at
// the very end, after the last newline.
func TestInlayHintRangeEdges(t *testing.T) {
	const uri = "file:///src/edge.f"
	if len(edgeProgram) != 50 {
		t.Fatalf("edgeProgram is %d bytes", len(edgeProgram))
	}
	c := newClient(t, Options{Inlay: edgeHints})
	c.initialize(map[string]any{})
	c.open(uri, edgeProgram)
	labels := func(start, end protocol.Position) string {
		t.Helper()
		var hs []InlayHint
		c.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri},
			"range": protocol.Range{Start: start, End: end}}, &hs)
		var b []string
		for _, h := range hs {
			b = append(b, h.Label)
		}
		return strings.Join(b, " ")
	}
	for _, c := range []struct {
		start, end protocol.Position
		want       string
	}{
		// Line 1 whole: offsets 16..27 (27 is its newline), not 15, not 28.
		{protocol.Position{Line: 1}, protocol.Position{Line: 2}, "16 17 18 19 20 21 22 23 24 25 26 27"},
		// Columns 6 to 9 of line 2: offsets 34, 35, 36.
		{protocol.Position{Line: 2, Character: 6}, protocol.Position{Line: 2, Character: 9}, "34 35 36"},
		// An empty range: nothing.
		{protocol.Position{Line: 2, Character: 6}, protocol.Position{Line: 2, Character: 6}, ""},
		// The last line to the end of the text (line 4, column 0): 40..50.
		{protocol.Position{Line: 3}, protocol.Position{Line: 4}, "40 41 42 43 44 45 46 47 48 49 50"},
		// A range past the end of the text is clamped to it.
		{protocol.Position{Line: 3, Character: 8}, protocol.Position{Line: 100}, "48 49 50"},
		// A range ending one byte before the end: not the last newline.
		{protocol.Position{Line: 3, Character: 8}, protocol.Position{Line: 3, Character: 9}, "48"},
	} {
		if got := labels(c.start, c.end); got != c.want {
			t.Errorf("range %v-%v: hints at %q, want %q", c.start, c.end, got, c.want)
		}
	}
}

// TestCommandActionHasNoEdit: an action that is only a command carries
// no workspace edit, and for a client that resolves edits, no data to
// resolve one with (there is none); an action with edits gets its edit or,
// for such a client, the data to resolve it.
func TestCommandActionHasNoEdit(t *testing.T) {
	opts := Options{
		Actions: func(_ context.Context, f *parser.File, start, end int, _ hints.EstimateSettings) []hints.CodeAction {
			return []hints.CodeAction{
				{Title: "Estimate this loop", Kind: "source", Command: hints.EstimateCommand, Args: []any{2}},
				{Title: "Insert ALIGN", Kind: "quickfix", Edits: []hints.TextEdit{{File: f, Start: 0, End: 0, Text: "C"}}},
			}
		},
	}
	type action struct {
		Title   string                  `json:"title"`
		Edit    *protocol.WorkspaceEdit `json:"edit"`
		Command *protocol.Command       `json:"command"`
		Data    *actionData             `json:"data"`
	}
	const uri = "file:///src/edge.f"
	ask := func(caps map[string]any) []action {
		c := newClient(t, opts)
		c.initialize(caps)
		c.open(uri, edgeProgram)
		var acts []action
		c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
			"range": protocol.Range{Start: protocol.Position{Line: 1}, End: protocol.Position{Line: 1}}, "context": map[string]any{"diagnostics": []any{}}}, &acts)
		if len(acts) != 2 {
			t.Fatalf("actions: %+v", acts)
		}
		return acts
	}
	acts := ask(map[string]any{})
	if a := acts[0]; a.Command == nil || a.Edit != nil || a.Data != nil {
		t.Errorf("command action, client without resolve: edit %+v, data %+v", a.Edit, a.Data)
	}
	if a := acts[1]; a.Edit == nil || len(a.Edit.Changes[uri]) != 1 || a.Data != nil {
		t.Errorf("edit action, client without resolve: edit %+v, data %+v", a.Edit, a.Data)
	}
	acts = ask(map[string]any{"textDocument": map[string]any{"codeAction": map[string]any{"resolveSupport": map[string]any{"properties": []string{"edit"}}}}})
	if a := acts[0]; a.Command == nil || a.Edit != nil || a.Data != nil {
		t.Errorf("command action, client with resolve: edit %+v, data %+v", a.Edit, a.Data)
	}
	if a := acts[1]; a.Edit != nil || a.Data == nil || a.Data.Resolve == nil || a.Data.Resolve.Title != "Insert ALIGN" {
		t.Errorf("edit action, client with resolve: edit %+v, data %+v", a.Edit, a.Data)
	}
}

// TestEstimateCommandArguments: pfls.estimateLoop takes [uri, line] of
// an open document; anything else is an invalid-params error that says
// which.
func TestEstimateCommandArguments(t *testing.T) {
	opts := Options{Estimate: func(_ context.Context, _ *parser.File, line int, _ hints.EstimateSettings) (string, error) {
		return fmt.Sprintf("line %d", line), nil
	}}
	c := newClient(t, opts)
	c.initialize(map[string]any{})
	const uri = "file:///src/edge.f"
	c.open(uri, edgeProgram)
	var res string
	c.call("workspace/executeCommand", map[string]any{"command": hints.EstimateCommand, "arguments": []any{uri, 3}}, &res)
	if res != "line 3" {
		t.Errorf("estimate of line 3: %q", res)
	}
	for _, tc := range []struct {
		args []any
		want string
	}{
		{[]any{uri}, hints.EstimateCommand + " takes [uri, line]"},
		{[]any{uri, "three"}, hints.EstimateCommand + " takes [uri, line]"},
		{[]any{3, uri}, hints.EstimateCommand + " takes [uri, line]"},
		{[]any{"file:///src/closed.f", 3}, "document not open: file:///src/closed.f"},
	} {
		err := c.callErr("workspace/executeCommand", map[string]any{"command": hints.EstimateCommand, "arguments": tc.args}, &res)
		if rpcCode(err) != jsonrpc2.InvalidParams || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("arguments %v: %v, want invalid params %q", tc.args, err, tc.want)
		}
	}
}

// TestParseSettingsMaxLength: a maxLength that is not positive keeps
// the one of the base settings; a positive one, even 1, is taken.
func TestParseSettingsMaxLength(t *testing.T) {
	base := DefaultSettings()
	for _, tc := range []struct {
		raw  string
		want int
	}{
		{`{"inlayHints":{"maxLength":0}}`, base.InlayHints.MaxLength},
		{`{"inlayHints":{"maxLength":-3}}`, base.InlayHints.MaxLength},
		{`{"inlayHints":{"maxLength":1}}`, 1},
		{`{"pfls":{"inlayHints":{"maxLength":12}}}`, 12},
	} {
		if got := parseSettings(json.RawMessage(tc.raw), base).InlayHints.MaxLength; got != tc.want {
			t.Errorf("%s: maxLength %d, want %d", tc.raw, got, tc.want)
		}
	}
}

// TestDidChangeConfigurationPullOrPush: settings pushed under "pfls"
// apply at once; a notification whose settings hold no "pfls" section
// (another extension's, or none) makes the server ask the client for
// its pfls section.
func TestDidChangeConfigurationPullOrPush(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(fullCapabilities)
	waitFor(t, func() bool { return c.sentCalls("workspace/configuration") == 1 }) // at initialized
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"pfls": map[string]any{"inlayHints": map[string]any{"maxLength": 7}}}})
	waitFor(t, func() bool { return c.srv.currentSettings().InlayHints.MaxLength == 7 })
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"editor": map[string]any{"tabSize": 2}}})
	waitFor(t, func() bool { return c.sentCalls("workspace/configuration") == 2 })
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"pfls": map[string]any{}}})
	waitFor(t, func() bool {
		return c.srv.currentSettings().InlayHints.MaxLength == DefaultSettings().InlayHints.MaxLength
	})
}

// TestEditTextReplacesAll: a ranged change over the whole text by a
// longer one gives that text, and the edit's new end is its length.
func TestEditTextReplacesAll(t *testing.T) {
	f := parser.Parse("e.f", []byte("      END\n"), nil)
	const text = "      PROGRAM P\n      X = 1\n      END\n"
	src, e := editText(f, contentChange{Range: &protocol.Range{End: protocol.Position{Line: 1}}, Text: text})
	if string(src) != text || e != (parser.Edit{Start: 0, OldEnd: 10, NewEnd: len(text)}) {
		t.Errorf("edit %+v gives %q", e, src)
	}
	// A change in the middle, its range written backwards.
	src, e = editText(f, contentChange{Range: &protocol.Range{Start: protocol.Position{Character: 9}, End: protocol.Position{Character: 6}}, Text: "DO"})
	if string(src) != "      DO\n" || e != (parser.Edit{Start: 6, OldEnd: 9, NewEnd: 8}) {
		t.Errorf("edit %+v gives %q", e, src)
	}
}

// TestDiagnosticsWaitAfterEachEdit: an edit soon after the first one
// moves the publication to delay after itself, not earlier (the cap of
// four delays after the first edit is still far). Timers never fire
// early, so the time measured is a lower bound whatever the load.
func TestDiagnosticsWaitAfterEachEdit(t *testing.T) {
	const delay = 300 * time.Millisecond
	c := newClient(t, Options{DiagnosticDelay: delay})
	c.initialize(map[string]any{})
	const uri = "file:///src/wait.f"
	c.open(uri, "      X = 1\n      END\n")
	c.change(uri, 2, nil, "      X = 2\n      END\n")
	sent := time.Now()
	c.waitDiags(uri, 2)
	if d := time.Since(sent); d < delay {
		t.Fatalf("diagnostics %v after the second edit, want at least %v", d, delay)
	}
}

// lockedBuffer is a log the server writes from several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestExtraDiagnosticsPanic: a panic in the capability diagnostics
// becomes one internal-error diagnostic beside the syntax ones, with the
// panic's text; a publication without panic logs none.
func TestExtraDiagnosticsPanic(t *testing.T) {
	var log lockedBuffer
	extra := func(_ context.Context, f *parser.File, _ hints.EstimateSettings) []hints.Diagnostic {
		if strings.Contains(string(f.Src), "BOOM") {
			panic("boom")
		}
		return []hints.Diagnostic{{Severity: parser.SevHint, Code: "extra", Message: "extra", Start: 6, End: 7}}
	}
	c := newClient(t, Options{ExtraDiagnostics: extra, Log: &log})
	c.initialize(map[string]any{})
	const uri = "file:///src/boom.f"
	c.open(uri, "      X = 1\n      END\n")
	p := c.waitDiags(uri, 1)
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "extra" {
		t.Fatalf("without panic: %+v, want the one extra diagnostic", p.Diagnostics)
	}
	c.change(uri, 2, nil, "      BOOM = 1\n      END\n")
	p = c.waitDiags(uri, 2)
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != internalCode ||
		!strings.Contains(p.Diagnostics[0].Message, "internal error in capability diagnostics: boom") {
		t.Fatalf("with a panic: %+v, want one internal error", p.Diagnostics)
	}
	// The first publication ended long before the second began (a
	// delay of 20 ms between them): it logged no panic.
	if l := log.String(); strings.Contains(l, "diagnostics of "+uri+": panic") {
		t.Fatalf("a publication without panic logged one:\n%s", l)
	}
}

// TestRenameToClosedProcedure: renaming a procedure to the name of an
// external procedure that only a closed file of the workspace defines is
// refused: the batches of files rename looks at include those naming
// the new name, not only those naming the old one.
func TestRenameToClosedProcedure(t *testing.T) {
	c, dir := indexedServer(t, map[string]string{
		"lib/total.f90": "subroutine total\nend subroutine total\n",
	})
	const text = "subroutine report\nend subroutine report\nprogram main\n  call report()\nend program main\n"
	uri := pathToURI(filepath.Join(dir, "main.f90"))
	c.open(uri, text)
	rp := textPos(uri, posOf(t, text, "report()", 0))
	rp["newName"] = "total"
	var edit protocol.WorkspaceEdit
	err := c.callErr("textDocument/rename", rp, &edit)
	if rpcCode(err) != requestFailed || !strings.Contains(err.Error(), "TOTAL is already the name of a procedure") {
		t.Fatalf("rename report -> total: %v (code %d), edits %+v", err, rpcCode(err), edit.Changes)
	}
	// Another name is free: both references change.
	rp["newName"] = "summary"
	c.call("textDocument/rename", rp, &edit)
	if got := applyEdits(t, text, edit.Changes[uri]); strings.Count(got, "summary") != 3 {
		t.Fatalf("rename report -> summary:\n%s", got)
	}
}

// TestPrepareRenameRefusalInLaterBatch: prepareRename looks at every
// batch of the files naming the procedure until one refuses: here the
// files calling WORK are two batches of one file, and one of them
// describes WORK in an interface body, which rename does not handle,
// whichever batch it falls in.
func TestPrepareRenameRefusalInLaterBatch(t *testing.T) {
	c, dir := indexedServer(t, map[string]string{
		"a.f90": "subroutine a\n  call work()\nend subroutine a\n",
		"b.f90": "subroutine b\n  interface\n    subroutine work\n    end subroutine work\n  end interface\n  call work()\nend subroutine b\n",
	})
	defer func(n int) { batchSize = n }(batchSize)
	batchSize = 1
	const text = "subroutine work\nend subroutine work\n"
	uri := pathToURI(filepath.Join(dir, "work.f90"))
	c.open(uri, text)
	var rg *protocol.Range
	err := c.callErr("textDocument/prepareRename", textPos(uri, posOf(t, text, "work", 0)), &rg)
	if rpcCode(err) != requestFailed || !strings.Contains(err.Error(), "an interface body describes it") {
		t.Fatalf("prepareRename of WORK: %v (code %d), range %+v", err, rpcCode(err), rg)
	}
}

// TestUTF16Len: a character from U+10000 on is two UTF-16 code units
// (a surrogate pair), one below it is one.
func TestUTF16Len(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want uint32
	}{
		{"", 0},
		{"abc", 3},
		{"\uffff", 1},
		{"\U00010000", 2},
		{"a\U0001F600b", 4},
	} {
		if got := utf16Len(tc.s); got != tc.want {
			t.Errorf("utf16Len(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

// TestSemanticTokensDeltaMinimal: a delta is the one smallest edit of
// the previous data. The program's tokens are PROGRAM, P, X, 1, END,
// PROGRAM, P, five numbers each; "1" becoming "10" changes only the
// length of the fourth (element 3*5+2); a comment line added at the end
// appends one token (one line down, column 0, length 3, type comment
// = 2 in the legend, no modifier) after the 35 numbers; removing it
// deletes those five.
func TestSemanticTokensDeltaMinimal(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(fullCapabilities)
	const uri = "file:///src/delta.f90"
	c.open(uri, "program p\n  x = 1\nend program p\n")
	doc := map[string]any{"textDocument": map[string]any{"uri": uri}}
	var full semanticTokens
	c.call("textDocument/semanticTokens/full", doc, &full)
	if len(full.Data) != 35 {
		t.Fatalf("tokens %v, want 7", full.Data)
	}
	id := full.ResultID
	version := 1
	delta := func(rg protocol.Range, text string) string {
		t.Helper()
		version++
		c.change(uri, version, &rg, text)
		var d semanticTokensDelta
		c.call("textDocument/semanticTokens/full/delta", map[string]any{"textDocument": map[string]any{"uri": uri}, "previousResultId": id}, &d)
		id = d.ResultID
		return fmt.Sprint(d.Edits)
	}
	pos := func(line, col uint32) protocol.Position { return protocol.Position{Line: line, Character: col} }
	for _, tc := range []struct {
		rg   protocol.Range
		text string
		want string
	}{
		{protocol.Range{Start: pos(1, 7), End: pos(1, 7)}, "0", "[{17 1 [2]}]"},
		{protocol.Range{Start: pos(3, 0), End: pos(3, 0)}, "! c\n", "[{35 0 [1 0 3 2 0]}]"},
		{protocol.Range{Start: pos(3, 0), End: pos(4, 0)}, "", "[{35 5 []}]"},
		// The same tokens again: no edit.
		{protocol.Range{Start: pos(1, 2), End: pos(1, 3)}, "y", "[]"},
		// A copy of line 1 after it: the old and the new data agree on
		// 21 numbers at the start and 14 at the end, and could on more
		// at the end if the two overlapped: the edit inserts the ten
		// numbers between, from Y's column to END's line step.
		{protocol.Range{Start: pos(2, 0), End: pos(2, 0)}, "  y = 1\n", "[{21 0 [2 1 6 0 0 4 1 4 0 1]}]"},
		{protocol.Range{Start: pos(2, 0), End: pos(3, 0)}, "", "[{21 10 []}]"},
	} {
		if got := delta(tc.rg, tc.text); got != tc.want {
			t.Errorf("insert %q at %v: edits %s, want %s", tc.text, tc.rg.Start, got, tc.want)
		}
	}
}

// TestSemCacheBound: the cache keeps the last result of up to
// maxSemCache documents, then starts again from none.
func TestSemCacheBound(t *testing.T) {
	var c semCache
	ids := map[protocol.DocumentURI]string{}
	for i := 0; i < maxSemCache; i++ {
		uri := protocol.DocumentURI(fmt.Sprintf("file:///d%d.f", i))
		ids[uri] = c.put(uri, []uint32{uint32(i)})
	}
	for uri, id := range ids {
		if _, ok := c.get(uri, id); !ok {
			t.Fatalf("%s forgotten with %d documents", uri, maxSemCache)
		}
	}
	last := protocol.DocumentURI("file:///last.f")
	lastID := c.put(last, nil)
	if _, ok := c.get("file:///d0.f", ids["file:///d0.f"]); ok {
		t.Errorf("the cache holds more than %d documents", maxSemCache)
	}
	if _, ok := c.get(last, lastID); !ok {
		t.Errorf("the newest document forgotten")
	}
}

// TestEncodeTokensSkipsEmpty: a token of no width, or one that spans
// lines, is not sent; the next one is relative to the last sent.
func TestEncodeTokensSkipsEmpty(t *testing.T) {
	f := parser.Parse("a.f90", []byte("program p\n  x = 1\nend program p\n"), nil)
	got := encodeTokens(f, []hints.SemToken{
		{Start: 0, End: 7, Type: "keyword"},
		{Start: 8, End: 8, Type: "variable"},
		{Start: 8, End: 14, Type: "variable"},
		{Start: 12, End: 13, Type: "variable"},
	})
	if fmt.Sprint(got) != "[0 0 7 0 0 1 2 1 6 0]" {
		t.Errorf("encoded %v, want [0 0 7 0 0 1 2 1 6 0]", got)
	}
}

// TestSignatureDocumentation: an intrinsic's signature carries its
// description.
func TestSignatureDocumentation(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(fullCapabilities)
	const uri = "file:///src/sd.f"
	src := "      PROGRAM S\n      Z = MOD(3, \n      END\n"
	c.open(uri, src)
	var sh *signatureHelpResult
	c.call("textDocument/signatureHelp", textPos(uri, posOf(t, src, "MOD(3, ", 7)), &sh)
	if sh == nil || len(sh.Signatures) != 1 || sh.Signatures[0].Documentation == nil || !strings.HasPrefix(sh.Signatures[0].Documentation.Value, "Remainder") {
		t.Fatalf("signature of MOD: %+v", sh)
	}
}

// TestIncomingCallsOrder: the callers come sorted by file, then by
// position in the file: A1 of a.f (line 3) before B of b.f (line 1),
// though B comes first by position alone.
func TestIncomingCallsOrder(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(fullCapabilities)
	const w = "file:///src/w.f"
	c.open("file:///src/b.f", "      SUBROUTINE B\n      CALL W\n      END\n")
	c.open("file:///src/a.f", "      SUBROUTINE A0\n      END\n      SUBROUTINE A1\n      CALL W\n      END\n")
	c.open(w, "      SUBROUTINE W\n      END\n")
	var items []protocol.CallHierarchyItem
	c.call("textDocument/prepareCallHierarchy", textPos(w, protocol.Position{Line: 0, Character: 17}), &items)
	if len(items) != 1 {
		t.Fatalf("prepareCallHierarchy: %+v", items)
	}
	var calls []protocol.CallHierarchyIncomingCall
	c.call("callHierarchy/incomingCalls", map[string]any{"item": items[0]}, &calls)
	var got []string
	for _, in := range calls {
		got = append(got, fmt.Sprintf("%s %s:%d", in.From.Name, in.From.URI, in.From.Range.Start.Line))
	}
	if want := "A1 file:///src/a.f:2, B file:///src/b.f:0"; strings.Join(got, ", ") != want {
		t.Fatalf("incoming calls of W: %s, want %s", strings.Join(got, ", "), want)
	}
}

// TestFormattingIndentBounds: with pfls.format.indent 0 the editor's
// tab size is the indent when it is 1 to 16; 0 or more than 16 give the
// formatter's default of 3.
func TestFormattingIndentBounds(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(map[string]any{})
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"pfls": map[string]any{"format": map[string]any{"indent": 0, "keywordCase": "lower"}}}})
	deadline := time.Now().Add(5 * time.Second)
	for c.srv.currentSettings().Format.KeywordCase != "lower" && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	const uri = "file:///src/zero.f90"
	const text = "program p\nx = 1\nend program p\n"
	c.open(uri, text)
	for _, tc := range []struct{ tab, want int }{{0, 3}, {1, 1}, {16, 16}, {17, 3}} {
		var edits []protocol.TextEdit
		c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": uri}, "options": map[string]any{"tabSize": tc.tab, "insertSpaces": true}}, &edits)
		want := "program p\n" + strings.Repeat(" ", tc.want) + "x = 1\nend program p\n"
		if got := applyLineEdits(t, text, edits); got != want {
			t.Errorf("formatted with tab size %d:\n%s\nwant an indent of %d", tc.tab, got, tc.want)
		}
	}
}

// TestRangeFormattingEmptyRange: a range that ends at column 0 of a
// later line leaves that line out, but an empty range at column 0 still
// formats its own line.
func TestRangeFormattingEmptyRange(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(map[string]any{})
	const uri = "file:///src/empty.f90"
	const text = "program p\nx = 1\ny = 2\nend program p\n"
	c.open(uri, text)
	for _, tc := range []struct {
		rg   protocol.Range
		want string
	}{
		{protocol.Range{Start: protocol.Position{Line: 1}, End: protocol.Position{Line: 1}}, "program p\n   x = 1\ny = 2\nend program p\n"},
		{protocol.Range{Start: protocol.Position{Line: 1}, End: protocol.Position{Line: 2}}, "program p\n   x = 1\ny = 2\nend program p\n"},
		{protocol.Range{Start: protocol.Position{Line: 1}, End: protocol.Position{Line: 2, Character: 1}}, "program p\n   x = 1\n   y = 2\nend program p\n"},
	} {
		var edits []protocol.TextEdit
		c.call("textDocument/rangeFormatting", map[string]any{"textDocument": map[string]any{"uri": uri},
			"options": map[string]any{"tabSize": 3, "insertSpaces": true}, "range": tc.rg}, &edits)
		if got := applyLineEdits(t, text, edits); got != tc.want {
			t.Errorf("range %v: formatted\n%s", tc.rg, got)
		}
	}
}

// TestIndexStampsAndOrder: a removal seen before a reading began does
// not drop what that reading added, one seen after it does; a removal
// of a file never indexed is harmless; all lists by URI.
func TestIndexStampsAndOrder(t *testing.T) {
	ix := newIndex()
	f := parser.Parse("a.f", []byte("      SUBROUTINE A\n      END\n"), nil)
	ix.remove("file:///never.f", ix.read())
	early := ix.read()
	reading := ix.read()
	ix.add("file:///c.f", "/c.f", f, reading)
	ix.remove("file:///c.f", early)
	if _, ok := ix.files["file:///c.f"]; !ok {
		t.Fatalf("a removal seen before the reading dropped its summary")
	}
	ix.remove("file:///c.f", ix.read())
	if _, ok := ix.files["file:///c.f"]; ok {
		t.Fatalf("a removal seen after the reading kept its summary")
	}
	for _, u := range []protocol.DocumentURI{"file:///b.f", "file:///c.f", "file:///a.f"} {
		ix.add(u, string(u[7:]), f, ix.read())
	}
	var got []string
	for _, x := range ix.all() {
		got = append(got, string(x.uri))
	}
	if want := "file:///a.f file:///b.f file:///c.f"; strings.Join(got, " ") != want {
		t.Fatalf("all: %v, want %s", got, want)
	}
}

// TestIndexLimit: the index holds at most maxIndexedFiles files; a file
// already indexed is still updated then.
func TestIndexLimit(t *testing.T) {
	ix := newIndex()
	f := parser.Parse("a.f", []byte("      SUBROUTINE A\n      END\n"), nil)
	for i := 0; i <= maxIndexedFiles; i++ {
		ix.add(protocol.DocumentURI(fmt.Sprintf("file:///f%d.f", i)), "", f, ix.read())
	}
	if len(ix.files) != maxIndexedFiles {
		t.Fatalf("%d files indexed, want %d", len(ix.files), maxIndexedFiles)
	}
	g := parser.Parse("a.f", []byte("      SUBROUTINE G\n      END\n"), nil)
	ix.add("file:///f0.f", "", g, ix.read())
	if sum := ix.files["file:///f0.f"].sum; len(sum.Symbols) == 0 || sum.Symbols[0].Name != "G" {
		t.Fatalf("f0.f not updated at the limit: %+v", sum.Symbols)
	}

}

// TestLazyGCBounds: while the workspace is indexed the collector's percentage
// is gcPercentIndexing unless it was higher or off (0, collecting all
// the time, is lower), then what it was.
func TestLazyGCBounds(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, tc := range []struct{ before, during int }{{0, gcPercentIndexing}, {100, gcPercentIndexing}, {1000, 1000}, {-1, -1}} {
		debug.SetGCPercent(tc.before)
		restore := lazyGC()
		during := debug.SetGCPercent(tc.during)
		restore()
		after := debug.SetGCPercent(tc.before)
		if during != tc.during || after != tc.before {
			t.Errorf("GOGC %d: %d while indexing and %d after, want %d and %d", tc.before, during, after, tc.during, tc.before)
		}
	}
}

// TestIndexProgress: indexing 120 files reports its progress at 50 and
// 100 files, between begin and end; a workspace without Fortran files
// asks for no progress at all. Registering the file watchers logs no
// error when the client accepts them.
func TestIndexProgress(t *testing.T) {
	caps := map[string]any{"window": map[string]any{"workDoneProgress": true},
		"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}
	start := func(files int) (*client, *lockedBuffer) {
		dir := t.TempDir()
		for i := range files {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%d.f90", i)), []byte("end\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		log := &lockedBuffer{}
		c := newClient(t, Options{Log: log})
		var res map[string]any
		c.call("initialize", map[string]any{"processId": nil, "rootUri": pathToURI(dir), "capabilities": caps}, &res)
		c.notify("initialized", map[string]any{})
		select {
		case <-c.srv.index.done:
		case <-time.After(10 * time.Second):
			t.Fatal("indexing did not finish")
		}
		return c, log
	}
	progress := func(c *client, n int) string {
		// The notifications may still be on their way after the index is done.
		for deadline := time.Now().Add(5 * time.Second); c.sentCalls("$/progress") < n && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		var out []string
		for _, v := range c.progress {
			var p struct {
				Kind, Message string
				Percentage    *int
			}
			json.Unmarshal(v, &p)
			if p.Percentage != nil {
				p.Kind += fmt.Sprintf(" %d%%", *p.Percentage)
			}
			out = append(out, p.Kind+" "+p.Message)
		}
		return strings.Join(out, "; ")
	}
	c, log := start(120)
	if got, want := progress(c, 4), "begin 0% ; report 41% 50 of 120 files; report 83% 100 of 120 files; end 120 files indexed"; got != want {
		t.Errorf("progress:\n%s\nwant\n%s", got, want)
	}
	for deadline := time.Now().Add(5 * time.Second); c.sentCalls("client/registerCapability") == 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // the answer's log line, if any
	if strings.Contains(log.String(), "client/registerCapability:") {
		t.Errorf("registering the watchers logged an error:\n%s", log)
	}

	c, _ = start(0)
	c.call("workspace/symbol", map[string]any{"query": "X"}, nil) // after the indexing's requests, if any
	if n := c.sentCalls("window/workDoneProgress/create"); n != 0 {
		t.Errorf("progress created for no files")
	}
}

// TestModuleNotFoundIndexFull: a USE of an unknown module is reported
// with the name as written, until the index holds maxIndexedFiles
// files: then it may have left the module out.
func TestModuleNotFoundIndexFull(t *testing.T) {
	c, dir := indexedServer(t, map[string]string{"shared.f90": "module shared\nend module shared\n"})
	uri := pathToURI(filepath.Join(dir, "main.f90"))
	c.open(uri, "program p\n  use NoWhere\nend program p\n")
	c.waitDiags(uri, 1)
	snap := c.srv.store.get(uri)
	if ds := c.srv.moduleDiagnostics(snap); len(ds) != 1 || ds[0].Code != moduleNotFoundCode ||
		!strings.HasPrefix(ds[0].Message, "module NoWhere not found") || ds[0].Start != 16 || ds[0].End != 23 {
		t.Fatalf("with one file indexed: %+v, want NoWhere (as written, offsets 16 to 23) not found", ds)
	}
	f := parser.Parse("a.f", []byte("      SUBROUTINE A\n      END\n"), nil)
	c.srv.index.mu.Lock()
	n := len(c.srv.index.files)
	c.srv.index.mu.Unlock()
	for i := n; i < maxIndexedFiles; i++ {
		c.srv.index.add(protocol.DocumentURI(fmt.Sprintf("file:///f%d.f", i)), "", f, c.srv.index.read())
	}
	if ds := c.srv.moduleDiagnostics(snap); ds != nil {
		t.Fatalf("with the index full: %+v, want none", ds)
	}
	c.srv.index.mu.Lock()
	for u := range c.srv.index.files {
		if strings.HasPrefix(string(u), "file:///f") {
			delete(c.srv.index.files, u)
		}
	}
	c.srv.index.mu.Unlock()
	// A name that ends the text, which has no newline.
	uri = pathToURI(filepath.Join(dir, "last.f90"))
	c.open(uri, "program q\n  use NoWhere")
	c.waitDiags(uri, 1)
	if ds := c.srv.moduleDiagnostics(c.srv.store.get(uri)); len(ds) != 1 || !strings.HasPrefix(ds[0].Message, "module NoWhere not found") {
		t.Fatalf("a name at the end of the text: %+v, want NoWhere not found", ds)
	}
}

// TestTreeCacheLRU: the tree cache keeps the max trees used last: a get
// counts as a use, putting a tree it holds again evicts nothing, and a
// dropped tree leaves its place to the others.
func TestTreeCacheLRU(t *testing.T) {
	c := treeCache{max: 2}
	a, b, x, d := &indexEntry{path: "a"}, &indexEntry{path: "b"}, &indexEntry{path: "c"}, &indexEntry{path: "d"}
	tree := func(e *indexEntry) *parser.File { return &parser.File{Name: e.path} }
	held := func() string {
		var out []string
		for _, e := range []*indexEntry{a, b, x, d} {
			c.mu.Lock()
			_, ok := c.trees[e]
			c.mu.Unlock()
			if ok {
				out = append(out, e.path)
			}
		}
		return strings.Join(out, " ")
	}
	c.put(a, tree(a))
	c.put(b, tree(b))
	if f := c.get(a); f == nil || f.Name != "a" {
		t.Fatalf("get(a) = %v", f)
	}
	c.put(x, tree(x)) // b is the least recently used
	if got := held(); got != "a c" {
		t.Fatalf("after a, b, get a, c: %q, want \"a c\"", got)
	}
	c.put(a, tree(a))
	if got := held(); got != "a c" {
		t.Fatalf("after putting a again: %q, want \"a c\"", got)
	}
	c.drop(x)
	c.drop(nil)
	if got := held(); got != "a" {
		t.Fatalf("after dropping c: %q, want \"a\"", got)
	}
	c.put(b, tree(b))
	c.put(d, tree(d)) // a is the least recently used
	if got := held(); got != "b d" {
		t.Fatalf("after b, d: %q, want \"b d\"", got)
	}
}

// TestTreeParsedOnce: a closed file's tree is parsed from disk once and
// then served from the cache.
func TestTreeParsedOnce(t *testing.T) {
	c, _ := indexedServer(t, map[string]string{"sub.f": "      SUBROUTINE SUB\n      END\n"})
	all := c.srv.index.all()
	if len(all) != 1 {
		t.Fatalf("indexed %d files", len(all))
	}
	before := c.srv.index.reparsed.Load()
	f1, f2 := c.srv.tree(all[0]), c.srv.tree(all[0])
	if f1 == nil || f1 != f2 || c.srv.index.reparsed.Load() != before+1 {
		t.Fatalf("two trees: %p and %p, %d parses, want the same tree and 1", f1, f2, c.srv.index.reparsed.Load()-before)
	}
}

// TestBatchesOfUsers: the files naming HELPER come in batches of
// users, each with the definitions: h.f90, which defines HELPER, and
// u1.f90, which names it but also defines the module MU that h.f90 uses,
// so it is a definition, not a user; one user in batches of one is one
// call, no more.
func TestBatchesOfUsers(t *testing.T) {
	c, dir := indexedServer(t, map[string]string{
		"h.f90":  "subroutine helper\n  use mu\nend subroutine helper\n",
		"u1.f90": "module mu\ncontains\n  subroutine s\n    call helper\n  end subroutine s\nend module mu\n",
		"u2.f90": "subroutine u2\n  call helper\nend subroutine u2\n",
	})
	defer func(n int) { batchSize = n }(batchSize)
	batchSize = 1
	o := origin{pathToURI(filepath.Join(dir, "open.f")), nil}
	req := need{names: []string{"HELPER"}, uses: true}
	sel := c.srv.selectClosed(o, req)
	names := func(xs []indexed) string {
		var out []string
		for _, x := range xs {
			out = append(out, filepath.Base(x.entry.path))
		}
		sort.Strings(out)
		return strings.Join(out, " ")
	}
	if d, u := names(sel.defs), names(sel.users); d != "h.f90 u1.f90" || u != "u2.f90" {
		t.Fatalf("definitions %q and users %q, want h.f90 u1.f90 and u2.f90", d, u)
	}
	var seen []string
	c.srv.batches(context.Background(), o, req, func(w *workspace) bool {
		var fs []string
		for _, f := range w.files {
			fs = append(fs, filepath.Base(f.Name))
		}
		sort.Strings(fs)
		seen = append(seen, strings.Join(fs, " "))
		return true
	})
	if got := strings.Join(seen, "; "); got != "h.f90 u1.f90 u2.f90" {
		t.Fatalf("batches %q, want one of h.f90 u1.f90 u2.f90", got)
	}
}

// TestNamesAt: beside the name the resolver reads at an offset, the word
// around it as spelled, upper case, also at the very start of the text
// and in a comment, where the resolver reads none, and at the end;
// nothing between two other characters or outside the text.
func TestNamesAt(t *testing.T) {
	src := "program p\n  x = 1 ! see helper\nend program p\n"
	f := parser.Parse("a.f90", []byte(src), nil)
	for _, tc := range []struct {
		off  int
		want string
	}{
		{0, `["PROGRAM"]`},
		{strings.Index(src, "helper") + 2, `["HELPER"]`},
		{strings.Index(src, "x ="), `["X" "X"]`},
		{strings.Index(src, "= 1"), `[]`},
		{-1, `[]`},
		{len(src) + 1, `[]`},
	} {
		if got := fmt.Sprintf("%q", namesAt(f, tc.off)); got != tc.want {
			t.Errorf("namesAt(%d) = %s, want %s", tc.off, got, tc.want)
		}
	}
	// At the end of a text that ends in a word.
	g := parser.Parse("b.f90", []byte("! see helper"), nil)
	if got := fmt.Sprintf("%q", namesAt(g, len(g.Src))); got != `["HELPER"]` {
		t.Errorf("namesAt at the end = %s, want [\"HELPER\"]", got)
	}
}

// TestIsWordByte: the bytes of a Fortran name (with $, a common
// extension), and no other, the ends of each range included.
func TestIsWordByte(t *testing.T) {
	const word = "_$0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	for c := 0; c < 256; c++ {
		if got, want := isWordByte(byte(c)), strings.IndexByte(word, byte(c)) >= 0; got != want {
			t.Errorf("isWordByte(%q) = %v, want %v", rune(c), got, want)
		}
	}
}

// TestCutTextsDepth: the fast path reads 64 nested arrays or objects
// (the number at depth 64) and gives 65 to encoding/json.
func TestCutTextsDepth(t *testing.T) {
	nest := func(n int) []byte {
		return []byte(strings.Repeat("[", n) + "1" + strings.Repeat("]", n))
	}
	if _, _, ok := cutTexts(nest(64), didOpenText); !ok {
		t.Errorf("64 nested arrays: the fast path gave up")
	}
	if _, _, ok := cutTexts(nest(65), didOpenText); ok {
		t.Errorf("65 nested arrays: the fast path read them")
	}
	objects := func(n int) []byte {
		return []byte(strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n))
	}
	if _, _, ok := cutTexts(objects(64), didOpenText); !ok {
		t.Errorf("64 nested objects: the fast path gave up")
	}
	if _, _, ok := cutTexts(objects(65), didOpenText); ok {
		t.Errorf("65 nested objects: the fast path read them")
	}
}

// TestCutTextsAtTheEnd: a literal that ends the data is read; data that
// ends where a value should start makes the fast path give up.
func TestCutTextsAtTheEnd(t *testing.T) {
	for _, tc := range []struct {
		data string
		ok   bool
	}{
		{`1`, true},
		{`[true,null]`, true},
		{`{"a":`, false},
		{`[1,`, false},
		{``, false},
		{`[,1]`, false}, // no value before the comma
	} {
		if _, _, ok := cutTexts([]byte(tc.data), didOpenText); ok != tc.ok {
			t.Errorf("cutTexts(%q): ok %v, want %v", tc.data, ok, tc.ok)
		}
	}
}

// TestIsLiteralByte: the bytes of true, false, null and numbers, the ends
// of each range included.
func TestIsLiteralByte(t *testing.T) {
	const lit = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-+."
	for c := 0; c < 256; c++ {
		if got, want := isLiteralByte(byte(c)), strings.IndexByte(lit, byte(c)) >= 0; got != want {
			t.Errorf("isLiteralByte(%q) = %v, want %v", rune(c), got, want)
		}
	}
}

// TestCutTextsFastPath: valid JSON of every shape, with and without
// spaces, stays on the fast path, and the text it cuts is the one
// encoding/json reads.
func TestCutTextsFastPath(t *testing.T) {
	for _, data := range []string{
		`{}`, `[]`, ` { } `, ` [ ] `, `{"a":{}}`, `{"a":[]}`, `[[],{}]`,
		`{"a":1,"b":[1,2,{"c":"d"}],"e":"f\"g"}`,
		` { "a" : 1 , "b" : [ 1 , 2 ] , "c" : "d" } `,
		`{"textDocument":{"uri":"u","text":"X = 1"}}`,
		` { "textDocument" : { "text" : "X = 1" , "uri" : "u" } } `,
	} {
		_, texts, ok := cutTexts([]byte(data), didOpenText)
		if !ok {
			t.Errorf("%s: the fast path gave up", data)
			continue
		}
		if strings.Contains(data, "X = 1") && (len(texts) != 1 || texts[0].text() != "X = 1") {
			t.Errorf("%s: cut %+v, want the one text X = 1", data, texts)
		}
	}
	// Escapes: NUL, a surrogate pair, a lone surrogate (U+FFFD, as
	// encoding/json); a byte 0x80 alone is not UTF-8: encoding/json decides.
	for _, tc := range []struct{ text, want string }{
		{`\u0000`, "\x00"},
		{`\ud83d\ude00!`, "\U0001F600!"},
		{`\ud83dx`, "\uFFFDx"},
		{"a\x80", ""},
	} {
		_, texts, ok := cutTexts([]byte(`{"textDocument":{"text":"`+tc.text+`"}}`), didOpenText)
		if tc.want == "" {
			if ok {
				t.Errorf("%q: the fast path read invalid UTF-8", tc.text)
			}
			continue
		}
		if !ok || len(texts) != 1 || texts[0].text() != tc.want {
			t.Errorf("%s: ok %v, texts %+v, want %q", tc.text, ok, texts, tc.want)
		}
	}
}

// TestCutTextsPrefixes: no proper prefix of a message (an object) is
// valid JSON, so the fast path gives up on each, wherever it is cut.
func TestCutTextsPrefixes(t *testing.T) {
	const msg = ` { "textDocument" : { "uri" : "u" , "text" : "a\"b\u00e9\ud83d\ude00" } , "x" : [ 1 , true , { "y" : null } , "z" ] } `
	if _, _, ok := cutTexts([]byte(msg), didOpenText); !ok {
		t.Fatalf("the whole message: the fast path gave up")
	}
	for n := 0; n < len(strings.TrimRight(msg, " ")); n++ {
		if _, _, ok := cutTexts([]byte(msg[:n]), didOpenText); ok {
			t.Errorf("%q: read as complete", msg[:n])
		}
	}
}

// TestHex4: four hex digits of either case, each range to its ends; the
// characters just outside the ranges, or fewer than four bytes, are not.
func TestHex4(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want rune
	}{
		{"0123", 0x0123}, {"4567", 0x4567}, {"89ab", 0x89ab}, {"cdef", 0xcdef},
		{"ABCD", 0xabcd}, {"EF09", 0xef09}, {"ffff0", 0xffff},
		{"/000", -1}, {":000", -1}, {"`000", -1}, {"g000", -1}, {"@000", -1}, {"G000", -1}, {"abc", -1},
	} {
		if got := hex4([]byte(tc.in)); got != tc.want {
			t.Errorf("hex4(%q) = %#x, want %#x", tc.in, got, tc.want)
		}
	}
}

// TestDecodeCutDidOpen: a didOpen cut by the stream keeps its text's
// unescaped bytes (not copied to a string and back); a message that is
// only a string naming the method is not cut (nor read past its end).
func TestDecodeCutDidOpen(t *testing.T) {
	msg := `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.f","languageId":"fortran","version":1,"text":"X = 1\nEND\n"}}}`
	cm, ok := decodeCutMessage([]byte(msg))
	if !ok {
		t.Fatalf("not cut")
	}
	var p didOpenParams
	if err := decodeDidOpen(cm.msg.(*jsonrpc2.Notification).Params(), cm, &p); err != nil {
		t.Fatal(err)
	}
	if string(p.src) != "X = 1\nEND\n" || p.TextDocument.Text != "" || p.TextDocument.URI != "file:///a.f" {
		t.Fatalf("decoded %q, text %q, uri %s: want the bytes X = 1, END", p.src, p.TextDocument.Text, p.TextDocument.URI)
	}
	if _, ok := decodeCutMessage([]byte(`"textDocument/didOpen"`)); ok {
		t.Errorf("a string was cut")
	}
}

// TestInitializeOptions: initializationOptions are the first settings.
func TestInitializeOptions(t *testing.T) {
	c := newClient(t, Options{})
	c.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{},
		"initializationOptions": map[string]any{"pfls": map[string]any{"format": map[string]any{"indent": 5}}}}, nil)
	if got := c.srv.currentSettings().Format.Indent; got != 5 {
		t.Errorf("indent from initializationOptions: %d, want 5", got)
	}
}

// TestReleaseOnClose: closing a document releases what the analyses
// keep for its file.
func TestReleaseOnClose(t *testing.T) {
	released := make(chan string, 4)
	c := newClient(t, Options{Release: func(name string) { released <- name }})
	c.initialize(map[string]any{})
	c.open("file:///src/r.f", "      END\n")
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": "file:///src/r.f"}})
	select {
	case name := <-released:
		if !strings.HasSuffix(name, "r.f") {
			t.Errorf("released %q, want r.f", name)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("nothing released on close")
	}
}

// TestProfileSettingRelative: a relative pfls.profile is read from the
// first workspace folder; without a folder it names no file (the
// server's working directory is not the workspace).
func TestProfileSettingRelative(t *testing.T) {
	c, dir := indexedServer(t, map[string]string{})
	src := filepath.Join(t.TempDir(), "p.f90")
	writeProfile(t, filepath.Join(dir, "rel", "prof.json"), src, 20, 2)
	setProfile := func(c *client, path string) {
		c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"pfls": map[string]any{"profile": path}}})
		for deadline := time.Now().Add(5 * time.Second); c.srv.currentSettings().Profile != path && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
	}
	setProfile(c, filepath.Join("rel", "prof.json"))
	f := parser.Parse(src, []byte(profiledProgram), nil)
	if p, _ := c.srv.findProfile(f); p == nil {
		t.Errorf("rel/prof.json not found in the workspace folder")
	}
	bare := newClient(t, Options{})
	bare.initialize(map[string]any{})
	setProfile(bare, filepath.Join("rel", "prof.json"))
	if p, _ := bare.srv.findProfile(f); p != nil {
		t.Errorf("a relative profile found without a workspace folder")
	}
}

// TestProfileStopsWhenClientGoes: a profile run under way is cancelled
// when the connection to the client ends.
func TestProfileStopsWhenClientGoes(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "p.f90")
	if err := os.WriteFile(src, []byte(profiledProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	started, stopped := make(chan struct{}), make(chan struct{})
	runner := func(ctx context.Context, path string, report func(string)) (string, error) {
		close(started)
		select {
		case <-ctx.Done():
			close(stopped)
		case <-time.After(10 * time.Second):
		}
		return "", ctx.Err()
	}
	c := newClient(t, Options{Profile: runner})
	c.initialize(map[string]any{})
	uri := pathToURI(src)
	c.open(uri, profiledProgram)
	var res string
	c.call("workspace/executeCommand", map[string]any{"command": "pfls.profile", "arguments": []any{uri}}, &res)
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the profile run did not start")
	}
	c.conn.Close()
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("the profile run went on after the client left")
	}
}

// TestProfileStateLargeFile: a saved file of several kilobytes whose
// document is unchanged is not taken for one with unsaved changes (the
// file is read up to twice the document's size, plus 4 KiB).
func TestProfileStateLargeFile(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "p.f90")
	text := profiledProgram + strings.Repeat("! a comment line of padding\n", 300)
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(src, old, old); err != nil {
		t.Fatal(err)
	}
	writeProfile(t, filepath.Join(dir, ".pfls", "profile-1", "profile.json"), src, 20, 2)
	c := newClient(t, Options{})
	c.initialize(map[string]any{})
	p, why := c.srv.profileState(parser.Parse(src, []byte(text), nil))
	if p == nil || why != "" {
		t.Fatalf("profile %v, stale because %q: want the profile, fresh", p, why)
	}
	p, why = c.srv.profileState(parser.Parse(src, []byte(text+"! one more\n"), nil))
	if p == nil || why != "the file has changes not saved since the profile" {
		t.Fatalf("with a change: profile %v, %q", p, why)
	}
}

// TestDiagnosticDelayDefault: a delay of 0 or less is the default of
// 150 ms; another is kept.
func TestDiagnosticDelayDefault(t *testing.T) {
	for _, tc := range []struct{ in, want time.Duration }{{0, 150 * time.Millisecond}, {-1, 150 * time.Millisecond}, {5 * time.Millisecond, 5 * time.Millisecond}} {
		if got := NewServer(Options{DiagnosticDelay: tc.in}).diags.delay; got != tc.want {
			t.Errorf("DiagnosticDelay %v: %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestStoreAllByURI: the open documents are listed by URI.
func TestStoreAllByURI(t *testing.T) {
	s := newStore()
	f := parser.Parse("a.f", []byte("      END\n"), nil)
	for _, u := range []protocol.DocumentURI{"file:///b.f", "file:///c.f", "file:///a.f"} {
		s.put(u, 1, f, "")
	}
	var got []string
	for _, d := range s.all() {
		got = append(got, string(d.URI))
	}
	if want := "file:///a.f file:///b.f file:///c.f"; strings.Join(got, " ") != want {
		t.Fatalf("all: %v, want %s", got, want)
	}
}

// TestStoreTooLargeMessage: a document over a limit of 1 MiB or more is
// reported in MB: 1.5 MiB against 1 MiB is "1.5 MB > 1 MB".
func TestStoreTooLargeMessage(t *testing.T) {
	s := newStore()
	s.maxSize = 1 << 20
	snap := s.put("file:///big.f", 1, &parser.File{Name: "big.f", Src: make([]byte, 3<<19)}, "")
	if want := "file too large to analyse (1.5 MB > 1 MB)"; snap.TooLarge != want {
		t.Fatalf("TooLarge %q, want %q", snap.TooLarge, want)
	}
}

// TestStoreEdges: a text of exactly the size limit is parsed, one byte
// more is kept as text only; a parser that panics or returns nothing
// leaves a text-only file and says why; a text-only file keeps the
// source form its configuration forces, else its name's.
func TestStoreEdges(t *testing.T) {
	s := newStore()
	src := []byte("      END\n")
	s.maxSize = len(src)
	if f, broken := s.safeParse("a.f", src, nil); len(f.Units) == 0 || broken != "" {
		t.Errorf("a text of the limit's size: %d units, %q", len(f.Units), broken)
	}
	if f, broken := s.safeParse("a.f", append(src, '\n'), nil); len(f.Units) != 0 || broken != "" {
		t.Errorf("a text over the limit: %d units, %q", len(f.Units), broken)
	}
	s.maxSize = MaxDocumentSize
	s.parse = func(string, []byte, *parser.Config) *parser.File { panic("bad tree") }
	if _, broken := s.safeParse("a.f", src, nil); broken != "internal error while parsing (pfls shows nothing for this version): bad tree" {
		t.Errorf("a parser panic: %q", broken)
	}
	s.parse = func(string, []byte, *parser.Config) *parser.File { return nil }
	if _, broken := s.safeParse("a.f", src, nil); !strings.HasSuffix(broken, ": the parser returned no tree") {
		t.Errorf("no tree: %q", broken)
	}
	if f := textOnly("a.f90", src, nil, nil); f.Form != parser.FormFor("a.f90") {
		t.Errorf("form of a.f90 without configuration: %v", f.Form)
	}
	if f := textOnly("a.f90", src, &parser.Config{Form: parser.Fixed}, nil); f.Form != parser.Fixed {
		t.Errorf("form of a.f90 configured fixed: %v", f.Form)
	}
	if f := textOnly("a.f", src, &parser.Config{}, nil); f.Form != parser.FormFor("a.f") {
		t.Errorf("form of a.f with the automatic form: %v", f.Form)
	}
	for _, tc := range []struct {
		f    func()
		want string
	}{{func() {}, ""}, {func() { panic("x") }, "x"}, {func() { panic("") }, "panic"}} {
		if got := try(tc.f); got != tc.want {
			t.Errorf("try: %q, want %q", got, tc.want)
		}
	}
}

// TestURIToPath: file URIs give their path (a drive letter loses the
// slash before it), other schemes their opaque part or path, not a file.
func TestURIToPath(t *testing.T) {
	for _, tc := range []struct {
		uri, want string
		file      bool
	}{
		{"file:///home/a.f", "/home/a.f", true},
		{"file:///C:/src/a.f", filepath.FromSlash("C:/src/a.f"), true},
		{"file:///C:", "C:", true},
		{"file:///ab", "/ab", true},
		{"untitled:Untitled-1", "Untitled-1", false},
		{"vscode-notebook-cell:/nb.f90", "/nb.f90", false},
	} {
		if got, ok := uriToPath(protocol.DocumentURI(tc.uri)); got != tc.want || ok != tc.file {
			t.Errorf("uriToPath(%s) = %q, %v; want %q, %v", tc.uri, got, ok, tc.want, tc.file)
		}
	}
}

// TestLargeMessagesKeepTheirText: a didOpen and a didChange of more than
// cutMessageSize, whose texts the stream cuts out before decoding, reach
// the store whole.
func TestLargeMessagesKeepTheirText(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(fullCapabilities)
	const uri = "file:///src/big.f90"
	pad := strings.Repeat("! a comment line of padding\n", cutMessageSize/20)
	text := "program big\n" + pad + "end program big\n"
	c.open(uri, text)
	var syms []protocol.DocumentSymbol
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms)
	if got, _, _ := c.srv.DocumentText(uri); got != text {
		t.Fatalf("after the open the store holds %d bytes, want %d", len(got), len(text))
	}
	text2 := "module other\n" + pad + "end module other\n"
	c.change(uri, 2, nil, text2)
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms)
	if len(syms) != 1 || !strings.EqualFold(syms[0].Name, "other") {
		t.Fatalf("symbols of the large document: %+v", syms)
	}
	if got, _, _ := c.srv.DocumentText(uri); got != text2 {
		t.Fatalf("the store holds %d bytes, want %d", len(got), len(text2))
	}
}

// TestStreamPushedBack: the bytes pushed back are read first, in as many
// reads or byte reads as they take, then the input.
func TestStreamPushedBack(t *testing.T) {
	s := &stream{in: bufio.NewReader(strings.NewReader("gh")), back: []byte("abcdef")}
	p := make([]byte, 2)
	var got []string
	for i := 0; i < 3; i++ {
		n, err := s.read(p)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(p[:n]))
	}
	b, err := s.readByte()
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, string(b))
	s.back = []byte("xy")
	for i := 0; i < 3; i++ {
		b, _ := s.readByte()
		got = append(got, string(b))
	}
	if want := "ab cd ef g x y h"; strings.Join(got, " ") != want {
		t.Fatalf("read %q, want %q", strings.Join(got, " "), want)
	}
}

// TestReadLineLong: a header line of maxHeaderLine bytes before its LF
// is not long, one more byte is; n counts the bytes read, the LF
// included.
func TestReadLineLong(t *testing.T) {
	for _, size := range []int{maxHeaderLine, maxHeaderLine + 1} {
		s := &stream{in: bufio.NewReader(strings.NewReader(strings.Repeat("a", size) + "\nnext"))}
		line, n, long, err := s.readLine()
		if err != nil || len(line) != size || n != int64(size+1) || long != (size > maxHeaderLine) {
			t.Errorf("a line of %d bytes: %d bytes, n %d, long %v, %v", size, len(line), n, long, err)
		}
	}
}

// TestServerLogsFailuresOnly: the server's log (Options.Log) reports a
// request that failed, a refresh of inlay hints the client refused, and
// a connection that ended on a read error; requests answered, replies
// and notifications sent, refreshes accepted and a connection the client
// closed log nothing.
func TestServerLogsFailuresOnly(t *testing.T) {
	var log lockedBuffer
	c := newClient(t, Options{Log: &log})
	c.initialize(fullCapabilities)
	const uri = "file:///src/logs.f90"
	c.open(uri, "program p\n  x = 1\nend program p\n")
	c.waitDiags(uri, 1)
	var h *protocol.Hover
	c.call("textDocument/hover", textPos(uri, protocol.Position{Line: 1, Character: 2}), &h)
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &[]protocol.DocumentSymbol{})
	settings := func(procs int) {
		c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"pfls": map[string]any{"estimate": map[string]any{"procs": procs}}}})
	}
	settings(7)
	deadline := time.Now().Add(5 * time.Second)
	for c.sentCalls("workspace/inlayHint/refresh") == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no refresh of the inlay hints after a change of settings")
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // what follows the accepted refresh
	if l := log.String(); l != "" {
		t.Fatalf("requests answered, diagnostics published, a refresh accepted; yet the log:\n%s", l)
	}

	if err := c.callErr("textDocument/hover", map[string]any{"textDocument": 5}, &h); rpcCode(err) != jsonrpc2.InvalidParams {
		t.Fatalf("hover with a bad textDocument: %v", err)
	}
	if l := log.String(); !strings.Contains(l, "textDocument/hover: invalid params") {
		t.Errorf("the failed request is not logged:\n%s", l)
	}
	c.mu.Lock()
	c.refuse = map[string]bool{"workspace/inlayHint/refresh": true}
	c.mu.Unlock()
	settings(9)
	for !strings.Contains(log.String(), "workspace/inlayHint/refresh: refused by the test") {
		if time.Now().After(deadline) {
			t.Fatalf("the refused refresh is not logged:\n%s", log.String())
		}
		time.Sleep(time.Millisecond)
	}
	if l := log.String(); strings.Contains(l, "replying") || strings.Contains(l, "notify") || strings.Contains(l, "<nil>") {
		t.Errorf("a success logged:\n%s", l)
	}

	// The end of the connection: logged for a read error, not for EOF.
	for _, tc := range []struct {
		err    error
		logged bool
	}{{io.EOF, false}, {errors.New("cable cut"), true}} {
		var log lockedBuffer
		srv := NewServer(Options{Log: &log})
		if code := srv.serve(context.Background(), iotest.ErrReader(tc.err), io.Discard, nil); code != 1 {
			t.Errorf("exit code %d after %v without exit, want 1", code, tc.err)
		}
		if got := strings.Contains(log.String(), "connection ended: "); got != tc.logged || tc.logged && !strings.Contains(log.String(), "cable cut") {
			t.Errorf("the end on %v: log %q", tc.err, log.String())
		}
	}
}

// TestDocumentAtTheLimit: a document of exactly the size limit is
// analysed, whether opened (a file of comments gets no "too large"
// diagnostic; one whose parse panics gets the internal error, not "too
// large") or reached by an edit (its program has symbols); one byte more
// is too large in each way.
func TestDocumentAtTheLimit(t *testing.T) {
	c := newClient(t, Options{})
	const limit = 200
	c.srv.store.maxSize = limit
	c.srv.store.parse = func(name string, src []byte, cfg *parser.Config) *parser.File {
		if strings.Contains(string(src), "BOOM") {
			panic("boom")
		}
		return parser.Parse(name, src, cfg)
	}
	c.initialize(fullCapabilities)
	comments := strings.Repeat("! comment\n", limit/10) // 200 bytes
	for _, tc := range []struct {
		uri, text, code string
	}{
		{"file:///src/comments.f90", comments, ""},
		{"file:///src/over.f90", comments + "\n", tooLargeCode},
		{"file:///src/boom.f90", "! BOOM" + comments[6:], internalCode},
		{"file:///src/boom-over.f90", "! BOOM" + comments[6:] + "\n", tooLargeCode},
	} {
		c.open(protocol.DocumentURI(tc.uri), tc.text)
		d := c.waitDiags(protocol.DocumentURI(tc.uri), 1)
		if tc.code == "" && len(d.Diagnostics) != 0 || tc.code != "" && (len(d.Diagnostics) != 1 || d.Diagnostics[0].Code != tc.code) {
			t.Errorf("%s of %d bytes (limit %d): %+v, want %q", tc.uri, len(tc.text), limit, d.Diagnostics, tc.code)
		}
	}

	const prog = "file:///src/prog.f90"
	text := "program p\nend program p\n" // 24 bytes
	c.open(prog, text)
	symbols := func() int {
		var syms []protocol.DocumentSymbol
		c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": prog}}, &syms)
		return len(syms)
	}
	// Insert comments at the end, up to the limit exactly.
	end := protocol.Position{Line: 2}
	pad := strings.Repeat("!", limit-len(text)-1) + "\n"
	c.change(prog, 2, &protocol.Range{Start: end, End: end}, pad)
	if n := symbols(); n != 1 {
		t.Errorf("after an edit to the limit's size: %d symbols, want the program", n)
	}
	if got, _, _ := c.srv.DocumentText(prog); len(got) != limit {
		t.Fatalf("%d bytes, want %d", len(got), limit)
	}
	c.change(prog, 3, &protocol.Range{Start: end, End: end}, "!")
	if n := symbols(); n != 0 {
		t.Errorf("after an edit one byte over the limit: %d symbols, want none", n)
	}
}

// TestInitializeWithoutParams: an initialize request with no params
// member (LSP requires one, some clients omit it) is answered with the
// server's capabilities, the settings being the defaults.
func TestInitializeWithoutParams(t *testing.T) {
	rc := newRawClient(t)
	rc.send(frameOf(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`))
	timeout := time.After(5 * time.Second)
	for {
		select {
		case m, ok := <-rc.msgs:
			if !ok {
				t.Fatal("connection closed")
			}
			if r, ok := m.(*jsonrpc2.Response); ok && r.ID() == jsonrpc2.NewNumberID(1) {
				if r.Err() != nil || !strings.Contains(string(r.Result()), `"capabilities"`) {
					t.Fatalf("answer %s, error %v; want the capabilities", r.Result(), r.Err())
				}
				return
			}
		case <-timeout:
			t.Fatal("no answer to initialize")
		}
	}
}

// TestCancelledBeforeItRuns: a workspace/symbol request cancelled while
// its handler waits for the store is answered RequestCancelled, not with
// the empty list the handler stops with (which a client would take for
// "no symbol").
func TestCancelledBeforeItRuns(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(fullCapabilities) // request 1
	c.srv.store.mu.Lock()
	errc := make(chan error, 1)
	go func() { errc <- c.callErr("workspace/symbol", map[string]any{"query": "x"}, nil) }() // request 2
	// Once the request is being handled (its handler waits for the
	// store), cancel it; an unknown method's answer, which needs no
	// store, says the cancellation was read.
	deadline := time.Now().Add(5 * time.Second)
	for {
		c.srv.mu.Lock()
		n := len(c.srv.inflight)
		c.srv.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			c.srv.store.mu.Unlock()
			t.Fatal("the request never reached its handler")
		}
		time.Sleep(time.Millisecond)
	}
	c.notify("$/cancelRequest", map[string]any{"id": 2})
	if err := c.callErr("pfls/noSuchMethod", nil, nil); rpcCode(err) != jsonrpc2.MethodNotFound {
		t.Errorf("unknown method: %v", err)
	}
	c.srv.store.mu.Unlock()
	if err := <-errc; rpcCode(err) != requestCancelled {
		t.Fatalf("the cancelled request: %v, want RequestCancelled", err)
	}
}
