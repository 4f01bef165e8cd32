package lsp

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
	"go.lsp.dev/protocol"
)

// TestCodeActionResolve: a client that resolves edits gets actions
// without them and resolveProvider; resolve fills the edit in, and fails
// once the document changed. A client that does not gets edits inline.
func TestCodeActionResolve(t *testing.T) {
	calls := 0
	opts := Options{
		Actions: func(_ context.Context, f *parser.File, start, end int, st hints.EstimateSettings) []hints.CodeAction {
			calls++
			return []hints.CodeAction{
				{Title: "Distribute G(BLOCK,*): 1 ms", Kind: "refactor.rewrite", Detail: "compared",
					Edits: []hints.TextEdit{{File: f, Start: start, End: start + 1, Text: "C"}}},
				{Title: "Distribute G(*,BLOCK): 2 ms", Kind: "refactor.rewrite",
					Edits: []hints.TextEdit{{File: f, Start: start, End: start + 1, Text: "D"}}},
			}
		},
	}
	for _, resolve := range []bool{true, false} {
		c := newClient(t, opts)
		caps := map[string]any{}
		if resolve {
			caps["textDocument"] = map[string]any{"codeAction": map[string]any{"resolveSupport": map[string]any{"properties": []string{"edit"}}}}
		}
		var init struct {
			Capabilities struct {
				CodeActionProvider json.RawMessage `json:"codeActionProvider"`
			} `json:"capabilities"`
		}
		if err := json.Unmarshal(c.initialize(caps), &init); err != nil {
			t.Fatal(err)
		}
		want := `true`
		if resolve {
			want = `{"resolveProvider":true}`
		}
		if string(init.Capabilities.CodeActionProvider) != want {
			t.Errorf("resolve %v: codeActionProvider %s, want %s", resolve, init.Capabilities.CodeActionProvider, want)
		}
		uri, text := example(t, "redblack.f")
		c.open(uri, text)
		rg := protocol.Range{Start: posOf(t, text, "DO 100", 0), End: posOf(t, text, "DO 100", 0)}
		var acts []codeAction
		calls = 0
		c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": rg,
			"context": map[string]any{"diagnostics": []any{}}}, &acts)
		if len(acts) != 2 || calls != 1 {
			t.Fatalf("resolve %v: actions %+v, %d producer calls", resolve, acts, calls)
		}
		if !resolve {
			if acts[1].Edit == nil || acts[1].Data != nil {
				t.Errorf("without resolve: %+v", acts[1])
			}
			continue
		}
		if acts[1].Edit != nil || acts[1].Data == nil || acts[1].Data.Resolve == nil || acts[0].Data.Detail != "compared" {
			t.Fatalf("with resolve, actions carry data and no edit: %+v", acts)
		}
		var done codeAction
		c.call("codeAction/resolve", acts[1], &done)
		if e := done.Edit; e == nil || len(e.Changes[uri]) != 1 || e.Changes[uri][0].NewText != "D" || done.Title != acts[1].Title {
			t.Fatalf("resolved %+v", done)
		}
		if calls != 2 {
			t.Errorf("%d producer calls after resolve, want 2", calls)
		}
		c.change(uri, 2, &protocol.Range{}, "C\n")
		if err := c.callErr("codeAction/resolve", acts[0], &done); rpcCode(err) != contentModified {
			t.Errorf("resolve after a change: %v", err)
		}
	}
}
