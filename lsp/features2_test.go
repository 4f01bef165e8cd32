package lsp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

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
	for _, k := range []string{"documentHighlightProvider", "foldingRangeProvider"} {
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
