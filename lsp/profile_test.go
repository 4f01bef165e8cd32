package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/pfls/pfls/parser"
)

const profiledProgram = "program p\n  integer :: i, k\n  real :: a(100)\n  do k = 1, 10\n     do i = 1, 100\n        a(i) = i\n     end do\n  end do\nend program p\n"

func writeProfile(t *testing.T, path, src string, count, entries int64) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	data := fmt.Sprintf(`{"ranks":2,"lines":[{"path":%q,"line":4,"count":%d,"time":0.002,"calls":0,"bytes":0,"entries":%d}],"arrays":[],"timeline":[]}`, src, count, entries)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestProfileHoverServed: the hover of a DO line shows the newest
// .pfls/*/profile.json next to the document; the setting pfls.profile
// names another one, which then applies.
func TestProfileHoverServed(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "p.f90")
	writeProfile(t, filepath.Join(dir, ".pfls", "profile-1", "profile.json"), src, 20, 2)
	c := newClient(t, Options{StatementHover: func(_ context.Context, f *parser.File, off int) string { return "statement hover" }})
	c.initialize(fullCapabilities)
	uri := protocol.DocumentURI("file://" + filepath.ToSlash(src))
	c.open(uri, profiledProgram)
	hover := func() string {
		var h *protocol.Hover
		c.call("textDocument/hover", textPos(uri, protocol.Position{Line: 3, Character: 3}), &h)
		if h == nil {
			return ""
		}
		return h.Contents.Value
	}
	if h := hover(); !strings.Contains(h, "statement hover") || !strings.Contains(h, "**Measured** (pfls profile, 2 ranks)") ||
		!strings.Contains(h, "trip count 10 (measured: 20 iterations in 2 executions)") {
		t.Fatalf("hover:\n%s", h)
	}
	other := filepath.Join(dir, "elsewhere.json")
	writeProfile(t, other, src, 30, 2)
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"pfls": map[string]any{"profile": other}}})
	deadline := time.Now().Add(5 * time.Second)
	for {
		h := hover()
		if strings.Contains(h, "trip count 15 (measured: 30 iterations in 2 executions)") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pfls.profile not applied:\n%s", h)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
