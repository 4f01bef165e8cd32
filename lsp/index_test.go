package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
	"time"

	"github.com/pfls/pfls/parser"
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

// TestIndexStopsAtShutdown: an indexing that runs when the client asks
// the server to shut down, or when the connection ends, parses no more
// files, and gives the collector's setting back.
func TestIndexStopsAtShutdown(t *testing.T) {
	dir := t.TempDir()
	for i := range 150 {
		src := fmt.Sprintf("subroutine s%d\nend subroutine s%d\n", i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%d.f90", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	for _, end := range []string{"shutdown", "the connection's end"} {
		c := newClient(t, Options{})
		var res map[string]any
		c.call("initialize", map[string]any{"processId": nil, "rootUri": pathToURI(dir), "capabilities": map[string]any{}}, &res)
		if end == "shutdown" {
			c.call("shutdown", nil, nil)
		} else {
			c.conn.Close()
			<-c.exit
		}
		c.srv.indexWorkspace([]string{dir}, false)
		if n := len(c.srv.index.all()); n != 0 {
			t.Errorf("%d files indexed after %s", n, end)
		}
		if p := debug.SetGCPercent(100); p != 100 {
			t.Errorf("the collector's percentage is %d after the indexing, want 100", p)
		}
	}
}

// TestIndexAfterClose: a document closed after its file changed on disk
// (saved by a client that does not watch files) is indexed again: the
// references of its procedures point into its new text.
func TestIndexAfterClose(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"twice.f90": "subroutine twice(i)\n  integer, intent(inout) :: i\n  i = 2 * i\nend subroutine twice\n",
		"main.f90":  "program main\n  integer :: k = 3\n  call twice(k)\nend program main\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := newClient(t, Options{})
	var res map[string]any
	c.call("initialize", map[string]any{"processId": nil, "rootUri": pathToURI(dir), "capabilities": map[string]any{}}, &res)
	c.notify("initialized", map[string]any{})
	<-c.srv.index.done
	twice := pathToURI(filepath.Join(dir, "twice.f90"))
	c.open(twice, files["twice.f90"])
	saved := "! doubles\n" + files["twice.f90"]
	if err := os.WriteFile(filepath.Join(dir, "twice.f90"), []byte(saved), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": twice}})
	main := pathToURI(filepath.Join(dir, "main.f90"))
	c.open(main, files["main.f90"])
	var locs []protocol.Location
	c.call("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": main},
		"position": posOf(t, files["main.f90"], "twice(k)", 0), "context": map[string]any{"includeDeclaration": true}}, &locs)
	var lines []uint32
	for _, l := range locs {
		if l.URI == twice {
			lines = append(lines, l.Range.Start.Line)
		}
	}
	if fmt.Sprint(lines) != "[1 4]" {
		t.Errorf("references in twice.f90 on lines %v, want [1 4] (its saved text)", lines)
	}
}

// TestIndexLaterReadingWins: when two readings of one file overlap (the
// workspace's indexing, and a watched change or the closing of its
// document), the summary of the reading begun last stays, whichever
// ends last; a deletion seen after a reading began drops it too.
func TestIndexLaterReadingWins(t *testing.T) {
	s := NewServer(Options{})
	const uri = protocol.DocumentURI("file:///w/a.f90")
	summary := func() string {
		for _, x := range s.index.all() {
			if x.uri == uri {
				return x.entry.sum.Symbols[0].Name
			}
		}
		return "none"
	}
	parse := func(name string) *parser.File {
		return parser.Parse("a.f90", []byte("subroutine "+name+"\nend subroutine "+name+"\n"), &parser.Config{})
	}
	early, late := s.index.read(), s.index.read()
	s.index.add(uri, "/w/a.f90", parse("new"), late)
	s.index.add(uri, "/w/a.f90", parse("old"), early)
	if got := summary(); got != "NEW" {
		t.Errorf("after the earlier reading ended last: %s, want NEW", got)
	}
	early, deleted := s.index.read(), s.index.read()
	s.index.remove(uri, deleted)
	s.index.add(uri, "/w/a.f90", parse("old"), early)
	if got := summary(); got != "none" {
		t.Errorf("after a reading begun before the deletion ended: %s, want none", got)
	}
	s.index.add(uri, "/w/a.f90", parse("again"), s.index.read())
	if got := summary(); got != "AGAIN" {
		t.Errorf("created again: %s, want AGAIN", got)
	}
}

// TestIndexSurvivesSummaryPanic: a tree the summary cannot handle leaves
// its file out of the index, and the server (whose indexing runs in the
// background, where nothing would recover a panic) goes on.
func TestIndexSurvivesSummaryPanic(t *testing.T) {
	s := NewServer(Options{})
	broken := &parser.File{Name: "/w/b.f90", Units: []*parser.Unit{nil}}
	if s.addToIndex("file:///w/b.f90", "/w/b.f90", broken, s.index.read()) {
		t.Errorf("a tree whose summary panicked was indexed")
	}
	good := parser.Parse("/w/a.f90", []byte("subroutine a\nend subroutine a\n"), &parser.Config{})
	if !s.addToIndex("file:///w/a.f90", "/w/a.f90", good, s.index.read()) || len(s.index.all()) != 1 {
		t.Errorf("a good tree was not indexed after")
	}
}

// TestFortranFilesLimit: a workspace of maxIndexedFiles+1 Fortran files
// lists maxIndexedFiles of them (the indexing progress then counts
// "of 5000 files"); one of maxIndexedFiles lists them all.
func TestFortranFilesLimit(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < maxIndexedFiles; i++ {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.f", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(fortranFiles([]string{dir})); n != maxIndexedFiles {
		t.Errorf("%d files of %d listed", n, maxIndexedFiles)
	}
	if err := os.WriteFile(filepath.Join(dir, "last.f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if n := len(fortranFiles([]string{dir})); n != maxIndexedFiles {
		t.Errorf("%d files of %d listed, want %d", n, maxIndexedFiles+1, maxIndexedFiles)
	}
}
