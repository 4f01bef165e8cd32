package lsp

import (
	"context"
	"strings"
	"testing"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
	"go.lsp.dev/protocol"
)

func TestCodeActionsAndEstimateCommand(t *testing.T) {
	var gotLine int
	var gotProcs int
	opts := Options{
		Actions: func(_ context.Context, f *parser.File, start, end int, st hints.EstimateSettings) []hints.CodeAction {
			gotProcs = st.Procs
			return []hints.CodeAction{
				{Title: "Estimate this loop", Command: hints.EstimateCommand, Args: []any{13}},
				{Title: "Distribute G(:,BLOCK)", Kind: "refactor.rewrite", Preferred: true,
					Edits: []hints.TextEdit{{File: f, Start: 0, End: 1, Text: "C"}}},
			}
		},
		Estimate: func(_ context.Context, f *parser.File, line int, st hints.EstimateSettings) (string, error) {
			gotLine = line
			return "estimate of line 13", nil
		},
	}
	c := newClient(t, opts)
	c.initialize(map[string]any{})
	uri, text := example(t, "redblack.f")
	c.open(uri, text)
	var acts []protocol.CodeAction
	c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range":   protocol.Range{Start: posOf(t, text, "DO 100", 0), End: posOf(t, text, "DO 100", 0)},
		"context": map[string]any{"diagnostics": []any{}}}, &acts)
	if len(acts) != 2 || acts[0].Command == nil || acts[0].Command.Command != hints.EstimateCommand ||
		acts[1].Edit == nil || !acts[1].IsPreferred || gotProcs != 16 {
		t.Fatalf("actions %+v (procs %d)", acts, gotProcs)
	}
	if e := acts[1].Edit.Changes[uri]; len(e) != 1 || e[0].NewText != "C" {
		t.Errorf("edit %+v", acts[1].Edit)
	}
	var res string
	c.call("workspace/executeCommand", map[string]any{"command": acts[0].Command.Command, "arguments": acts[0].Command.Arguments}, &res)
	if res != "estimate of line 13" || gotLine != 13 {
		t.Errorf("executeCommand: %q (line %d)", res, gotLine)
	}
	if err := c.callErr("workspace/executeCommand", map[string]any{"command": "nope", "arguments": []any{}}, &res); err == nil ||
		!strings.Contains(err.Error(), "unknown command") {
		t.Errorf("unknown command: %v", err)
	}
}

// TestPanicReleasesAnalysesLock: a producer that panics answers an error,
// and the next analyses (inlay hints) still run.
func TestPanicReleasesAnalysesLock(t *testing.T) {
	opts := Options{
		Actions: func(_ context.Context, f *parser.File, start, end int, st hints.EstimateSettings) []hints.CodeAction {
			panic("boom")
		},
		Inlay: fakeHints,
	}
	c := newClient(t, opts)
	c.initialize(map[string]any{})
	c.notify("initialized", map[string]any{}) // a second one must not crash the server
	uri, text := example(t, "redblack.f")
	c.open(uri, text)
	var acts []any
	if err := c.callErr("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": protocol.Range{}, "context": map[string]any{"diagnostics": []any{}}}, &acts); err == nil {
		t.Fatal("a panicking producer should answer an error")
	}
	var hs []InlayHint
	c.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": protocol.Range{End: protocol.Position{Line: 40}}}, &hs)
	if len(hs) == 0 {
		t.Errorf("no inlay hints after the panic")
	}
}
