package lsp

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// TestWorkspaceIndex: the files under the workspace folder are indexed in
// the background with progress, and workspace symbols and definitions
// reach files that are not open.
func TestWorkspaceIndex(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("lib/solver.f90", "subroutine solve(n)\n  integer :: n\nend subroutine solve\n")
	write(".hidden/skip.f", "      SUBROUTINE HIDDEN\n      END\n")
	write("notes.txt", "not fortran\n")
	main := write("main.f", "      PROGRAM MAIN\n      CALL SOLVE(3)\n      END\n")

	c := newClient(t, Options{})
	caps := map[string]any{"window": map[string]any{"workDoneProgress": true}}
	var res map[string]any
	c.call("initialize", map[string]any{"processId": nil, "rootUri": pathToURI(dir), "capabilities": caps}, &res)
	c.notify("initialized", map[string]any{})
	select {
	case <-c.srv.index.done:
	case <-time.After(10 * time.Second):
		t.Fatal("indexing did not finish")
	}
	var syms []protocol.SymbolInformation
	c.call("workspace/symbol", map[string]any{"query": "SOLVE"}, &syms)
	if len(syms) != 1 || syms[0].Location.URI != pathToURI(filepath.Join(dir, "lib/solver.f90")) {
		t.Fatalf("workspace symbols %+v", syms)
	}
	c.call("workspace/symbol", map[string]any{"query": "HIDDEN"}, &syms)
	if len(syms) != 0 {
		t.Errorf("a hidden folder was indexed: %+v", syms)
	}
	if n := c.sentCalls("window/workDoneProgress/create"); n != 1 {
		t.Errorf("progress created %d times", n)
	}
	if n := c.sentCalls("$/progress"); n < 2 {
		t.Errorf("%d progress notifications, want begin and end", n)
	}
	// Definition of SOLVE from the open main program lands in the indexed file.
	text, _ := os.ReadFile(main)
	uri := pathToURI(main)
	c.open(uri, string(text))
	var locs []protocol.Location
	c.call("textDocument/definition", textPos(uri, posOf(t, string(text), "SOLVE", 1)), &locs)
	if len(locs) != 1 || locs[0].URI != pathToURI(filepath.Join(dir, "lib/solver.f90")) {
		t.Errorf("definition %+v", locs)
	}
}

// TestWatchedFiles: created, changed and deleted files keep the index
// current, and a client that can register watchers is asked to.
func TestWatchedFiles(t *testing.T) {
	dir := t.TempDir()
	c := newClient(t, Options{})
	caps := map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}
	var res map[string]any
	c.call("initialize", map[string]any{"processId": nil, "rootUri": pathToURI(dir), "capabilities": caps}, &res)
	c.notify("initialized", map[string]any{})
	<-c.srv.index.done
	p := filepath.Join(dir, "late.f90")
	if err := os.WriteFile(p, []byte("subroutine late()\nend subroutine late\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": pathToURI(p), "type": 1}}})
	var syms []protocol.SymbolInformation
	c.call("workspace/symbol", map[string]any{"query": "LATE"}, &syms)
	if len(syms) != 1 {
		t.Fatalf("after create: %+v", syms)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": pathToURI(p), "type": 3}}})
	c.call("workspace/symbol", map[string]any{"query": "LATE"}, &syms)
	if len(syms) != 0 {
		t.Errorf("after delete: %+v", syms)
	}
	deadline := time.Now().Add(5 * time.Second)
	for c.sentCalls("client/registerCapability") == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if c.sentCalls("client/registerCapability") != 1 {
		t.Errorf("watchers not registered")
	}
}

// TestLazyGC: the collector's percentage is raised while one indexing or
// more runs and restored when the last ends, whatever the order.
func TestLazyGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	a := lazyGC()
	b := lazyGC()
	if p := debug.SetGCPercent(gcPercentIndexing); p != gcPercentIndexing {
		t.Errorf("while indexing: %d", p)
	}
	a()
	if p := debug.SetGCPercent(gcPercentIndexing); p != gcPercentIndexing {
		t.Errorf("while the second indexes: %d", p)
	}
	b()
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("after: %d, want 100", p)
	}
	debug.SetGCPercent(1000)
	lazyGC()()
	if p := debug.SetGCPercent(100); p != 1000 {
		t.Errorf("a lazier setting became %d", p)
	}
}
