package lsp

import (
	"context"
	"testing"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
	"go.lsp.dev/protocol"
)

// TestCodeActionOnly: context.only keeps the kinds asked for (and their
// sub-kinds), and a request for none of pfls's kinds does not run the
// producer.
func TestCodeActionOnly(t *testing.T) {
	calls := 0
	opts := Options{
		Actions: func(_ context.Context, f *parser.File, start, end int, st hints.EstimateSettings) []hints.CodeAction {
			calls++
			return []hints.CodeAction{
				{Title: "Estimate this loop", Kind: "source", Command: hints.EstimateCommand, Args: []any{13}},
				{Title: "Distribute G(:,BLOCK)", Kind: "refactor.rewrite", Detail: "G(:,BLOCK): 2 ms; G(BLOCK,BLOCK) now: 3 ms", Edits: []hints.TextEdit{{File: f, Start: 0, End: 1, Text: "C"}}},
				{Title: "Insert ALIGN", Kind: "quickfix", Edits: []hints.TextEdit{{File: f, Start: 0, End: 0, Text: "C"}}},
			}
		},
	}
	c := newClient(t, opts)
	c.initialize(map[string]any{})
	uri, text := example(t, "redblack.f")
	c.open(uri, text)
	ask := func(only []string) []protocol.CodeAction {
		var acts []protocol.CodeAction
		ctx := map[string]any{"diagnostics": []any{}}
		if only != nil {
			ctx["only"] = only
		}
		c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
			"range": protocol.Range{Start: posOf(t, text, "DO 100", 0), End: posOf(t, text, "DO 100", 0)}, "context": ctx}, &acts)
		return acts
	}
	titles := func(acts []protocol.CodeAction) []string {
		var out []string
		for _, a := range acts {
			out = append(out, a.Title)
		}
		return out
	}
	if got := ask(nil); len(got) != 3 {
		t.Errorf("no only: %v", titles(got))
	}
	if got := ask([]string{"quickfix"}); len(got) != 1 || got[0].Title != "Insert ALIGN" {
		t.Errorf("only quickfix: %v", titles(got))
	}
	if got := ask([]string{"refactor"}); len(got) != 1 || got[0].Title != "Distribute G(:,BLOCK)" {
		t.Errorf("only refactor: %v", titles(got))
	}
	if got := ask([]string{"source"}); len(got) != 1 || got[0].Title != "Estimate this loop" || got[0].Command == nil {
		t.Errorf("only source: %v", titles(got))
	}
	// The detail the title leaves out travels as the action's data.
	var raw []struct {
		Title string `json:"title"`
		Data  *struct {
			Detail string `json:"detail"`
		} `json:"data"`
	}
	c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": protocol.Range{Start: posOf(t, text, "DO 100", 0), End: posOf(t, text, "DO 100", 0)}, "context": map[string]any{"diagnostics": []any{}, "only": []string{"refactor"}}}, &raw)
	if len(raw) != 1 || raw[0].Data == nil || raw[0].Data.Detail != "G(:,BLOCK): 2 ms; G(BLOCK,BLOCK) now: 3 ms" {
		t.Errorf("data of the rewrite: %+v", raw)
	}
	before := calls
	if got := ask([]string{"source.organizeImports"}); len(got) != 0 || calls != before {
		t.Errorf("only source.organizeImports: %v, producer ran %d times", titles(got), calls-before)
	}
}
