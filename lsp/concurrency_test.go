package lsp

import (
	"context"
	"math/rand"
	"strings"
	"sync"
	"testing"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
	"go.lsp.dev/protocol"
)

// TestConcurrentRequests sends every kind of request from several
// goroutines while documents are edited and diagnostics published, with
// the real producers of package hints; run with -race it checks that the
// server's and the producers' shared state is safe. Each answer must be
// a result or an internal error of a producer, never a lost request.
func TestConcurrentRequests(t *testing.T) {
	var mu sync.Mutex // the engine is not safe for concurrent use
	eng := hints.NewEngine
	e, err := eng("all-one", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{
		Inlay: func(ctx context.Context, f *parser.File, start, end int, o hints.InlayOptions) []hints.InlayHint {
			mu.Lock()
			defer mu.Unlock()
			return hints.InlayHints(f, e, start, end, o)
		},
		StatementHover: func(ctx context.Context, f *parser.File, off int, o hints.InlayOptions) string {
			mu.Lock()
			defer mu.Unlock()
			e.SetPips(o.Pips)
			return hints.StatementHover(f, e, off)
		},
	}
	c := newClient(t, opts)
	go func() {
		for range c.diags {
		}
	}()
	c.initialize(fullCapabilities)
	uri, text := example(t, "redblack.f")
	c.open(uri, text)
	const other = "file:///src/other.f90"
	c.open(other, "subroutine relax(n)\n  integer :: n\nend subroutine relax\n")
	methods := []string{"textDocument/hover", "textDocument/definition", "textDocument/references", "textDocument/completion",
		"textDocument/signatureHelp", "textDocument/documentSymbol", "workspace/symbol", "textDocument/inlayHint"}
	lines := strings.Count(text, "\n")
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(seed int64) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(seed))
			for i := 0; i < 60; i++ {
				m := methods[rng.Intn(len(methods))]
				params := map[string]any{"textDocument": map[string]any{"uri": uri},
					"position": protocol.Position{Line: uint32(rng.Intn(lines)), Character: uint32(rng.Intn(30))},
					"context":  map[string]any{"includeDeclaration": true}, "query": "R",
					"range": protocol.Range{End: protocol.Position{Line: uint32(lines)}}}
				if err := c.callErr(m, params, nil); err != nil && rpcCode(err) != -32603 {
					t.Errorf("%s: %v", m, err)
					return
				}
			}
		}(int64(g))
	}
	rng := rand.New(rand.NewSource(99))
	for v := 2; v < 120; v++ {
		line := uint32(rng.Intn(lines))
		rg := protocol.Range{Start: protocol.Position{Line: line, Character: 6}, End: protocol.Position{Line: line, Character: 6}}
		c.change(uri, v, &rg, " ")
	}
	wg.Wait()
}
