package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

func TestFeatures2Advertised(t *testing.T) {
	c := newClient(t, Options{})
	var res struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	if err := json.Unmarshal(c.initialize(fullCapabilities), &res); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"documentHighlightProvider", "foldingRangeProvider", "semanticTokensProvider", "callHierarchyProvider"} {
		if v := string(res.Capabilities[k]); v == "" || v == "false" || v == "null" {
			t.Errorf("%s not advertised: %q", k, v)
		}
	}
}

func TestDocumentHighlight(t *testing.T) {
	c := openHPF(t, Options{})
	var hs []protocol.DocumentHighlight
	c.call("textDocument/documentHighlight", textPos(hpfURI, posOf(t, hpfProgram, "A(I,J) = B", 0)), &hs)
	var got []string
	for _, h := range hs {
		got = append(got, fmt.Sprintf("%d:%d-%d %v", h.Range.Start.Line, h.Range.Start.Character, h.Range.End.Character, h.Kind))
	}
	// The declaration, the ALIGN directive, the assignment (a write) and
	// the actual argument; not the comment, not SUB's dummy X.
	want := "2:11-12 Read, 6:12-13 Read, 11:12-13 Write, 14:15-16 Read"
	if strings.Join(got, ", ") != want {
		t.Errorf("highlights:\n got %s\nwant %s", strings.Join(got, ", "), want)
	}
	// Not on a name: an empty list, not null.
	var raw json.RawMessage
	c.call("textDocument/documentHighlight", textPos(hpfURI, posOf(t, hpfProgram, "CONTAINS", 2)), &raw)
	if string(raw) != "[]" {
		t.Errorf("highlight on a keyword: %s", raw)
	}
}

func TestFoldingRange(t *testing.T) {
	c := openHPF(t, Options{})
	var frs []protocol.FoldingRange
	c.call("textDocument/foldingRange", map[string]any{"textDocument": map[string]any{"uri": hpfURI}}, &frs)
	var got []string
	for _, fr := range frs {
		got = append(got, fmt.Sprintf("%d-%d%s", fr.StartLine, fr.EndLine, fr.Kind))
	}
	// MAIN up to its END, the directive lines (region), the two labelled
	// DO loops up to their shared CONTINUE, the contained F, and SUB.
	want := "0-19, 4-8region, 9-11, 10-11, 16-18, 21-24"
	if strings.Join(got, ", ") != want {
		t.Errorf("folding ranges:\n got %s\nwant %s", strings.Join(got, ", "), want)
	}
}

// semLegend is the legend the server advertised.
type semLegend struct {
	TokenTypes     []string `json:"tokenTypes"`
	TokenModifiers []string `json:"tokenModifiers"`
}

// decodeTokens turns LSP's relative encoding back into
// "line:col+len type+mods" strings.
func decodeTokens(t *testing.T, lg semLegend, data []uint32) []string {
	if len(data)%5 != 0 {
		t.Fatalf("token data of length %d", len(data))
	}
	var out []string
	var line, col uint32
	for i := 0; i < len(data); i += 5 {
		if data[i] > 0 {
			line, col = line+data[i], data[i+1]
		} else {
			col += data[i+1]
		}
		s := fmt.Sprintf("%d:%d+%d %s", line, col, data[i+2], lg.TokenTypes[data[i+3]])
		for b, m := range lg.TokenModifiers {
			if data[i+4]&(1<<b) != 0 {
				s += "+" + m
			}
		}
		out = append(out, s)
	}
	return out
}

func TestSemanticTokens(t *testing.T) {
	c := newClient(t, Options{})
	var init struct {
		Capabilities struct {
			SemanticTokensProvider struct {
				Legend semLegend `json:"legend"`
				Full   struct {
					Delta bool `json:"delta"`
				} `json:"full"`
			} `json:"semanticTokensProvider"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(c.initialize(fullCapabilities), &init); err != nil {
		t.Fatal(err)
	}
	sp := init.Capabilities.SemanticTokensProvider
	lg := sp.Legend
	if !sp.Full.Delta || len(lg.TokenTypes) == 0 || !strings.Contains(strings.Join(lg.TokenModifiers, " "), "distributed") {
		t.Fatalf("semanticTokensProvider: %+v", sp)
	}
	// A string of characters outside the BMP before X: X's column counts
	// UTF-16 code units (two per 𝔸), not bytes (four) or runes (one).
	const uri = "file:///src/sem.f90"
	src := "program p\n  real :: x(8)\n  !hpf$ distribute x(block)\n  print *, '𝔸𝔸', x\nend program p\n"
	c.open(uri, src)
	doc := map[string]any{"textDocument": map[string]any{"uri": uri}}
	var full semanticTokens
	c.call("textDocument/semanticTokens/full", doc, &full)
	got := strings.Join(decodeTokens(t, lg, full.Data), ", ")
	for _, want := range []string{
		"1:10+1 variable+declaration+distributed",
		"2:2+5 macro", "2:8+10 keyword+directive", "2:21+5 keyword+directive",
		"3:11+6 string", "3:19+1 variable+distributed",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in %s", want, got)
		}
	}
	// An edit, then a delta from the last result: applying its edits to
	// the old data gives what a full request gives.
	c.change(uri, 2, &protocol.Range{Start: protocol.Position{Line: 3, Character: 2}, End: protocol.Position{Line: 3, Character: 2}}, "x = 1\n  ")
	var delta struct {
		ResultID string               `json:"resultId"`
		Edits    []semanticTokensEdit `json:"edits"`
		Data     []uint32             `json:"data"`
	}
	c.call("textDocument/semanticTokens/full/delta", map[string]any{"textDocument": map[string]any{"uri": uri}, "previousResultId": full.ResultID}, &delta)
	if delta.Data != nil || len(delta.Edits) != 1 || delta.ResultID == full.ResultID {
		t.Fatalf("delta: %+v", delta)
	}
	data := append([]uint32{}, full.Data...)
	for i := len(delta.Edits) - 1; i >= 0; i-- {
		e := delta.Edits[i]
		data = append(data[:e.Start], append(append([]uint32{}, e.Data...), data[e.Start+e.DeleteCount:]...)...)
	}
	var again semanticTokens
	c.call("textDocument/semanticTokens/full", doc, &again)
	if fmt.Sprint(data) != fmt.Sprint(again.Data) {
		t.Errorf("delta applied:\n%v\nfull:\n%v", data, again.Data)
	}
	if !strings.Contains(strings.Join(decodeTokens(t, lg, again.Data), ", "), "3:2+1 variable+distributed") {
		t.Errorf("no token for the new x: %v", decodeTokens(t, lg, again.Data))
	}
	// An unknown previous result: all tokens.
	var fallback semanticTokens
	c.call("textDocument/semanticTokens/full/delta", map[string]any{"textDocument": map[string]any{"uri": uri}, "previousResultId": "nope"}, &fallback)
	if fmt.Sprint(fallback.Data) != fmt.Sprint(again.Data) {
		t.Errorf("fallback: %v", fallback.Data)
	}
}

func TestCallHierarchy(t *testing.T) {
	c := openHPF(t, Options{})
	const other = "file:///src/other.f"
	c.open(other, "      SUBROUTINE DRIVER\n      REAL Q(100,100)\n      CALL SUB(Q, 100)\n      END\n")
	var items []protocol.CallHierarchyItem
	c.call("textDocument/prepareCallHierarchy", textPos(hpfURI, posOf(t, hpfProgram, "SUB(A, N)", 0)), &items)
	if len(items) != 1 || items[0].Name != "SUB" || items[0].URI != hpfURI || items[0].SelectionRange.Start.Line != 21 ||
		items[0].Range.End.Line != 25 || items[0].Kind != protocol.SymbolKindFunction {
		t.Fatalf("prepare: %+v", items)
	}
	var in []protocol.CallHierarchyIncomingCall
	c.call("callHierarchy/incomingCalls", map[string]any{"item": items[0]}, &in)
	var got []string
	for _, call := range in {
		got = append(got, fmt.Sprintf("%s %s %v", call.From.Name, call.From.URI, call.FromRanges))
	}
	want := "MAIN file:///src/hpf.f [{{14 11} {14 14}}]; DRIVER file:///src/other.f [{{2 11} {2 14}}]"
	if strings.Join(got, "; ") != want {
		t.Errorf("incoming:\n got %s\nwant %s", strings.Join(got, "; "), want)
	}
	// Outgoing from MAIN: the contained F and SUB, with the call sites.
	c.call("textDocument/prepareCallHierarchy", textPos(hpfURI, posOf(t, hpfProgram, "MAIN", 0)), &items)
	if len(items) != 1 || items[0].Name != "MAIN" {
		t.Fatalf("prepare on MAIN: %+v", items)
	}
	var outCalls []protocol.CallHierarchyOutgoingCall
	c.call("callHierarchy/outgoingCalls", map[string]any{"item": items[0]}, &outCalls)
	got = nil
	for _, call := range outCalls {
		got = append(got, fmt.Sprintf("%s %v", call.To.Name, call.FromRanges))
	}
	want = "F [{{11 30} {11 31}}]; SUB [{{14 11} {14 14}}]"
	if strings.Join(got, "; ") != want {
		t.Errorf("outgoing:\n got %s\nwant %s", strings.Join(got, "; "), want)
	}
}

// TestCallHierarchyIndex: the callers of an open document's routine
// include the indexed files that are not open, and the item of an
// indexed file can be expanded.
func TestCallHierarchyIndex(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"lib/solver.f90": "subroutine solve(n)\n  integer :: n\n  call report(n)\nend subroutine solve\n",
		"lib/report.f":   "      SUBROUTINE REPORT(N)\n      PRINT *, N\n      END\n",
		"main.f":         "      PROGRAM MAIN\n      CALL SOLVE(3)\n      CALL SOLVE(4)\n      END\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := newClient(t, Options{})
	var res map[string]any
	c.call("initialize", map[string]any{"processId": nil, "rootUri": pathToURI(dir), "capabilities": map[string]any{}}, &res)
	c.notify("initialized", map[string]any{})
	select {
	case <-c.srv.index.done:
	case <-time.After(10 * time.Second):
		t.Fatal("indexing did not finish")
	}
	solver := filepath.Join(dir, "lib/solver.f90")
	text, _ := os.ReadFile(solver)
	uri := pathToURI(solver)
	c.open(uri, string(text))
	var items []protocol.CallHierarchyItem
	c.call("textDocument/prepareCallHierarchy", textPos(uri, posOf(t, string(text), "solve", 0)), &items)
	if len(items) != 1 || items[0].Name != "SOLVE" {
		t.Fatalf("prepare: %+v", items)
	}
	var in []protocol.CallHierarchyIncomingCall
	c.call("callHierarchy/incomingCalls", map[string]any{"item": items[0]}, &in)
	if len(in) != 1 || in[0].From.Name != "MAIN" || in[0].From.URI != pathToURI(filepath.Join(dir, "main.f")) || len(in[0].FromRanges) != 2 {
		t.Fatalf("incoming: %+v", in)
	}
	// Expand MAIN, which lives only in the index: it calls SOLVE.
	var outCalls []protocol.CallHierarchyOutgoingCall
	c.call("callHierarchy/outgoingCalls", map[string]any{"item": in[0].From}, &outCalls)
	if len(outCalls) != 1 || outCalls[0].To.Name != "SOLVE" || outCalls[0].To.URI != uri {
		t.Fatalf("outgoing from MAIN: %+v", outCalls)
	}
	// SOLVE calls REPORT, an indexed file.
	c.call("callHierarchy/outgoingCalls", map[string]any{"item": items[0]}, &outCalls)
	if len(outCalls) != 1 || outCalls[0].To.Name != "REPORT" || outCalls[0].To.URI != pathToURI(filepath.Join(dir, "lib/report.f")) {
		t.Fatalf("outgoing from SOLVE: %+v", outCalls)
	}
}
