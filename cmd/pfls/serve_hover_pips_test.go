package main

import (
	"strings"
	"testing"
)

// TestServeHoverFollowsPipsSetting: the hover on a loop counts with the
// convention of the current settings (pfls.complexity.pips), whether or
// not an inlay request came first, and after a change of the setting.
func TestServeHoverFollowsPipsSetting(t *testing.T) {
	text := readExample(t, "sub2.f")
	const uri = "file:///pin/sub2.f"
	lines := strings.Split(text, "\n")
	line := -1
	for i, l := range lines {
		if strings.Contains(l, "DO 10") {
			line = i
		}
	}
	hover := func(c *pinClient) string {
		var h struct {
			Contents struct {
				Value string `json:"value"`
			} `json:"contents"`
		}
		c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": position{line, 8}}, &h)
		return h.Contents.Value
	}
	const report = "`57/2*M^2 + 195/2*M + 1`"
	exact := func(h string) bool {
		return strings.Contains(h, "M ≥ 10") && !strings.HasPrefix(h, "**Cost** (DO): "+report+"\n")
	}
	pips := func(h string) bool { return strings.Contains(h, report) && !strings.Contains(h, "M ≥ 10") }

	// The report's convention from the start, no inlay request before.
	c := newPinClient(t, map[string]any{"pfls": map[string]any{"complexity": map[string]any{"pips": true}}})
	c.open(uri, text)
	if h := hover(c); !pips(h) {
		t.Errorf("pips: hover before any inlay request\n%s\nwant the report's %s alone", h, report)
	}
	// Exact counting by default, after an inlay request of another server
	// with the other convention changed nothing here.
	d := newPinClient(t, nil)
	d.open(uri, text)
	d.hints(uri, len(lines))
	if h := hover(d); !exact(h) {
		t.Errorf("default: hover\n%s\nwant every piece (M ≥ 10 among them)", h)
	}
	// A change of the setting reaches the hover without an inlay request.
	d.send(map[string]any{"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration",
		"params": map[string]any{"settings": map[string]any{"pfls": map[string]any{"complexity": map[string]any{"pips": true}}}}})
	if h := hover(d); !pips(h) {
		t.Errorf("after pips is set: hover\n%s\nwant the report's %s alone", h, report)
	}
}
