package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// indexWorkspaceFiles is a workspace whose answers cross files every
// way the features do: a chain of modules (APP uses M1, which uses M2
// and M3),
// a module that brings MPI in, procedures called from several files, a
// COMMON block declared in an INCLUDE file, a function, keyword
// arguments and a main program in fixed form.
var indexWorkspaceFiles = map[string]string{
	"mods/m2.f90": `module m2
  implicit none
  real :: x
  integer, parameter :: nmax = 100
contains
  subroutine msub(a, n)
    real, intent(inout) :: a(:)
    integer, intent(in) :: n
    a(1:n) = x
  end subroutine msub
end module m2
`,
	"mods/m1.f90": `module m1
  use m2
  use m3
  implicit none
  real :: y
end module m1
`,
	"mods/m3.f90": `module m3
  real :: z
end module m3
`,
	"mods/wrap.f90": `module wrap
  use mpi
end module wrap
`,
	"app.f90": `program app
  use m1
  use wrap
  implicit none
  real :: v(10)
  integer :: ierr, k
  x = 1.0
  y = x + 2.0
  z = y
  call msub(v, nmax)
  call ext(3)
  k = twice(4)
  call mpi_barrier(mpi_comm_world, ierr)
  call helper(n=k)
end program app
`,
	"lib/ext.f": `      SUBROUTINE EXT(N)
      INTEGER N
      INCLUDE 'blk.h'
      CALL HELPER(N)
      CALL HELPER(N + 1)
      TOTAL = TOTAL + N
      END
`,
	"lib/helper.f": `      SUBROUTINE HELPER(N)
      INTEGER N
      INCLUDE 'blk.h'
      TOTAL = N
      END
`,
	"lib/blk.h": `      REAL TOTAL
      COMMON /BLK/ TOTAL
`,
	"lib/twice.f90": `integer function twice(i)
  integer, intent(in) :: i
  twice = 2 * i
end function twice
`,
	"users/u1.f": `      SUBROUTINE U1
      CALL EXT(1)
      CALL HELPER(2)
      END
`,
	"users/u2.f": `      SUBROUTINE U2
      INTEGER K, TWICE
      CALL EXT(2)
      K = TWICE(3)
      END
`,
	"users/u3.f90": `subroutine u3
  use m2, only: msub, nmax
  real :: w(nmax)
  call msub(w, nmax)
  call ext(4)
end subroutine u3
`,
}

// TestIndexAnswersEqualOpenAnswers: with one file open and the others
// known by their summaries only, every cross-file feature answers at every
// name of the open file as it does when every file is open (their trees
// all in memory), batches of two files included; also with a second file
// open.
func TestIndexAnswersEqualOpenAnswers(t *testing.T) {
	checkIndexAnswers(t, indexWorkspaceFiles, "mods/m1.f90", []string{"textDocument/definition", "textDocument/hover", "textDocument/references", "textDocument/rename",
		"textDocument/signatureHelp", "textDocument/completion", "callHierarchy/incomingCalls", "callHierarchy/outgoingCalls"})
}

// checkIndexAnswers compares, at every name of every file of files, the
// answers of a server where that file alone is open (then beside second)
// with those of a server where every file is open; each method of
// nonEmpty must have given a non-empty answer somewhere.
func checkIndexAnswers(t *testing.T, files map[string]string, second string, nonEmpty []string) {
	indexWorkspaceFiles := files
	dir := t.TempDir()
	for name, text := range indexWorkspaceFiles {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer func(n int) { batchSize = n }(batchSize)
	batchSize = 2
	start := func() *client {
		c := newClient(t, Options{})
		var res map[string]any
		c.call("initialize", map[string]any{"processId": nil, "rootUri": pathToURI(dir), "capabilities": fullCapabilities}, &res)
		c.notify("initialized", map[string]any{})
		select {
		case <-c.srv.index.done:
		case <-time.After(10 * time.Second):
			t.Fatal("indexing did not finish")
		}
		return c
	}
	all := start()
	for name, text := range indexWorkspaceFiles {
		if isFortranFile(name) {
			all.open(pathToURI(filepath.Join(dir, name)), text)
		}
	}
	names := make([]string, 0, len(indexWorkspaceFiles))
	for name := range indexWorkspaceFiles {
		if isFortranFile(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	checked := map[string]int{}
	// Each file open alone, then beside the module m1 (open, using the
	// closed m2).
	var cases [][2]string
	for _, name := range names {
		cases = append(cases, [2]string{name, ""})
		if second != "" && name != second {
			cases = append(cases, [2]string{name, second})
		}
	}
	for _, cs := range cases {
		name := cs[0]
		text := indexWorkspaceFiles[name]
		uri := pathToURI(filepath.Join(dir, name))
		one := start()
		one.open(uri, text)
		if cs[1] != "" {
			one.open(pathToURI(filepath.Join(dir, cs[1])), indexWorkspaceFiles[cs[1]])
			name += " (with " + cs[1] + " open)"
		}
		for i := 0; i < len(text); i++ {
			if !isWordByte(text[i]) || i > 0 && isWordByte(text[i-1]) {
				continue
			}
			pos := protocol.Position{Line: uint32(strings.Count(text[:i], "\n")), Character: uint32(i - (strings.LastIndex(text[:i], "\n") + 1))}
			word := text[i:]
			for j := range word {
				if !isWordByte(word[j]) {
					word = word[:j]
					break
				}
			}
			end := pos
			end.Character += uint32(len(word))
			for _, q := range crossFileQueries(uri, pos, end) {
				got, want := one.answers(q), all.answers(q)
				if len(got) != len(want) {
					t.Errorf("%s %s at %s %d:%d: %d answers, want %d", name, q.method, word, pos.Line, pos.Character, len(got), len(want))
					continue
				}
				for k := range got {
					if got[k] != want[k] {
						t.Errorf("%s %s at %s %d:%d:\n index %s\n open  %s", name, got[k].method, word, pos.Line, pos.Character, got[k].text, want[k].text)
					} else if !strings.HasPrefix(got[k].text, "error") && got[k].text != "null" && got[k].text != "[]" && !strings.Contains(got[k].text, `"changes":{}`) {
						checked[got[k].method]++
					}
				}
			}
		}
	}
	t.Logf("non-empty answers compared: %v", checked)
	for _, m := range nonEmpty {
		if checked[m] == 0 {
			t.Errorf("no non-empty answer to %s was compared", m)
		}
	}
}

type query struct {
	method string
	params any
	// expand asks for the incoming and outgoing calls of each item the
	// answer (of prepareCallHierarchy) holds.
	expand bool
}

func crossFileQueries(uri protocol.DocumentURI, pos, end protocol.Position) []query {
	at := textPos(uri, pos)
	return []query{
		{method: "textDocument/definition", params: at},
		{method: "textDocument/hover", params: at},
		{method: "textDocument/references", params: map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos, "context": map[string]any{"includeDeclaration": true}}},
		{method: "textDocument/prepareRename", params: at},
		{method: "textDocument/rename", params: map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos, "newName": "zznew"}},
		{method: "textDocument/signatureHelp", params: textPos(uri, end)},
		{method: "textDocument/completion", params: textPos(uri, end)},
		{method: "textDocument/prepareCallHierarchy", params: at, expand: true},
	}
}

type answer struct{ method, text string }

// answers returns the answer to q as canonical JSON (lists sorted),
// followed by the calls of each item of a call hierarchy.
func (c *client) answers(q query) []answer {
	var raw json.RawMessage
	if err := c.callErr(q.method, q.params, &raw); err != nil {
		return []answer{{q.method, "error: " + err.Error()}}
	}
	var v any
	if len(raw) == 0 {
		raw = json.RawMessage("null")
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return []answer{{q.method, "bad JSON: " + err.Error()}}
	}
	out := []answer{{q.method, canonical(v)}}
	if !q.expand {
		return out
	}
	items, _ := v.([]any)
	for _, it := range items {
		for _, m := range []string{"callHierarchy/incomingCalls", "callHierarchy/outgoingCalls"} {
			out = append(out, c.answers(query{method: m, params: map[string]any{"item": it}})...)
		}
	}
	return out
}

// canonical prints v as JSON with every list sorted, so that answers
// equal but for order compare equal.
func canonical(v any) string {
	switch x := v.(type) {
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = canonical(e)
		}
		sort.Strings(parts)
		return "[" + strings.Join(parts, ",") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%q:%s", k, canonical(x[k]))
		}
		return "{" + strings.Join(parts, ",") + "}"
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

// TestIndexParsesOnlyWhatRequestsNeed: a request parses again the closed
// files its answer depends on and no other, and keeps the last ones.
func TestIndexParsesOnlyWhatRequestsNeed(t *testing.T) {
	c, dir := indexedServer(t, indexWorkspaceFiles)
	uri := pathToURI(filepath.Join(dir, "app.f90"))
	text := indexWorkspaceFiles["app.f90"]
	c.open(uri, text)
	parsed := func(method string, params any) int64 {
		before := c.srv.index.reparsed.Load()
		var raw json.RawMessage
		if err := c.callErr(method, params, &raw); err != nil {
			t.Errorf("%s: %v", method, err)
		}
		return c.srv.index.reparsed.Load() - before
	}
	refs := func(marker string, delta int) map[string]any {
		return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": posOf(t, text, marker, delta), "context": map[string]any{"includeDeclaration": true}}
	}
	for _, x := range []struct {
		what   string
		method string
		params any
		want   int64
	}{
		{"references of the local K", "textDocument/references", refs(", k", 2), 0},
		{"definition of EXT: ext.f and the modules app uses, m1, m2, m3 and wrap", "textDocument/definition", textPos(uri, posOf(t, text, "call ext", 5)), 5},
		{"definition of EXT again", "textDocument/definition", textPos(uri, posOf(t, text, "call ext", 5)), 0},
		{"signature help in the call of TWICE: twice.f90 only, not helper.f, which app also names", "textDocument/signatureHelp", textPos(uri, posOf(t, text, "twice(4", 6)), 1},
		{"references of HELPER: from the summaries", "textDocument/references", refs("call helper", 5), 0},
		{"rename of the local V: the files defining what app names (helper.f is not kept yet)", "textDocument/rename",
			map[string]any{"textDocument": map[string]any{"uri": uri}, "position": posOf(t, text, "v(10)", 0), "newName": "w"}, 1},
		{"call hierarchy of HELPER: helper.f and the modules are kept", "textDocument/prepareCallHierarchy", textPos(uri, posOf(t, text, "call helper", 5)), 0},
	} {
		if got := parsed(x.method, x.params); got != x.want {
			t.Errorf("%s: %d files parsed again, want %d", x.what, got, x.want)
		}
	}
}

// indexTrickyFiles holds what a summary could get wrong: ENTRY
// statements, generic interfaces, a submodule and its module procedures,
// COMMON blocks named in mixed case, names in directives, fixed form,
// an INCLUDE file that defines nothing itself, a non-ASCII comment before
// names (UTF-16 columns).
var indexTrickyFiles = map[string]string{
	"gen.f90": `module gen
  implicit none
  real :: scale = 2.0
  interface swap
    module procedure swap_r, swap_i
  end interface swap
  interface
    module subroutine impl(a)
      real, intent(inout) :: a
    end subroutine impl
  end interface
contains
  subroutine swap_r(a, b)
    real, intent(inout) :: a, b
    real :: t
    t = a; a = b; b = t
  end subroutine swap_r
  subroutine swap_i(a, b)
    integer, intent(inout) :: a, b
    integer :: t
    t = a; a = b; b = t
  end subroutine swap_i
end module gen
`,
	"genimpl.f90": `submodule (gen) genimpl
contains
  module subroutine impl(a)
    real, intent(inout) :: a
    a = scale * a
    call swap_r(a, a)
  end subroutine impl
end submodule genimpl
`,
	"ent.f": `      SUBROUTINE Outer(N)
      INTEGER N
      COMMON /Shared/ CNT
      CNT = N
      RETURN
      ENTRY Inner(N)
      CNT = CNT + N
      END
`,
	"use.f90": `! déjà vu — ünïcode
program use_them
  use gen
  implicit none
  real :: p, q
  integer :: i, j
  common /shared/ cnt
!$omp parallel do private(i)
  do i = 1, 3
    print *, '𝄞'; call outer(i)
  end do
  call inner(2)
  print *, 'ü𝄞'; call swap(p, q)
  call swap(i, j)
  call impl(p)
  call incl_user(cnt)
end program use_them
`,
	"incl_user.f": `      SUBROUTINE INCL_USER(C)
      INCLUDE 'inc.h'
      C = C + 1.0
      CALL OUTER(1)
      END
`,
	"inc.h": `      REAL C
`,
}

// TestIndexAnswersEqualOpenAnswersTricky runs the comparison over
// indexTrickyFiles.
func TestIndexAnswersEqualOpenAnswersTricky(t *testing.T) {
	checkIndexAnswers(t, indexTrickyFiles, "gen.f90", []string{"textDocument/definition", "textDocument/hover", "textDocument/references"})
}

// indexedServer is a server whose index is complete over files, written
// under a new folder, which it returns.
func indexedServer(t *testing.T, files map[string]string) (*client, string) {
	dir := t.TempDir()
	for name, text := range files {
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
	c.call("initialize", map[string]any{"processId": nil, "rootUri": pathToURI(dir), "capabilities": fullCapabilities}, &res)
	c.notify("initialized", map[string]any{})
	select {
	case <-c.srv.index.done:
	case <-time.After(10 * time.Second):
		t.Fatal("indexing did not finish")
	}
	return c, dir
}

// TestIndexBatchesParseDefinitionsOnce: a request in several batches
// parses the files defining its names once, not once per batch, even
// when they outnumber the trees the cache keeps.
func TestIndexBatchesParseDefinitionsOnce(t *testing.T) {
	c, dir := indexedServer(t, indexWorkspaceFiles)
	defer func(n int) { batchSize = n }(batchSize)
	batchSize = 1
	c.srv.index.trees.mu.Lock()
	c.srv.index.trees.max = 1
	c.srv.index.trees.mu.Unlock()
	helper := pathToURI(filepath.Join(dir, "lib/helper.f"))
	sel := c.srv.selectClosed(origin{helper, nil}, need{names: []string{"HELPER"}, uses: true})
	if len(sel.defs) < 2 || len(sel.users) < 2 {
		t.Fatalf("the workspace should need several definitions and batches: %d and %d", len(sel.defs), len(sel.users))
	}
	before := c.srv.index.reparsed.Load()
	var res json.RawMessage
	c.call("callHierarchy/incomingCalls", map[string]any{"item": map[string]any{
		"name": "helper", "kind": 12, "uri": helper,
		"range":          map[string]any{"start": map[string]any{"line": 0, "character": 6}, "end": map[string]any{"line": 4, "character": 9}},
		"selectionRange": map[string]any{"start": map[string]any{"line": 0, "character": 17}, "end": map[string]any{"line": 0, "character": 23}},
	}}, &res)
	if !strings.Contains(string(res), "ext.f") || !strings.Contains(string(res), "u1.f") {
		t.Errorf("incoming calls of HELPER: %s", res)
	}
	// helper.f itself (the item's file), then each file of the selection
	// once.
	if got, want := c.srv.index.reparsed.Load()-before, int64(1+len(sel.defs)+len(sel.users)); got > want {
		t.Errorf("%d files parsed again for %d definitions and %d batches, want at most %d", got, len(sel.defs), len(sel.users), want)
	}
}

// TestIndexTreeOfReplacedEntry: a tree parsed for a file's entry that
// the index has replaced since (a request that read the file before it
// changed on disk, ending after the change was indexed) is not served
// for the new entry.
func TestIndexTreeOfReplacedEntry(t *testing.T) {
	c, dir := indexedServer(t, indexWorkspaceFiles)
	path := filepath.Join(dir, "lib/twice.f90")
	uri := pathToURI(path)
	entry := func() indexed {
		for _, x := range c.srv.index.all() {
			if x.uri == uri {
				return x
			}
		}
		t.Fatal("twice.f90 not indexed")
		return indexed{}
	}
	oldText := indexWorkspaceFiles["lib/twice.f90"]
	newText := strings.ReplaceAll(oldText, "twice", "thrice")
	old := entry()
	// The file changes and is indexed again...
	if err := os.WriteFile(path, []byte(newText), 0o644); err != nil {
		t.Fatal(err)
	}
	c.srv.indexFile(uri, path)
	// ...while a request holding the old entry parses the old text.
	if err := os.WriteFile(path, []byte(oldText), 0o644); err != nil {
		t.Fatal(err)
	}
	if f := c.srv.tree(old); f == nil || !strings.Contains(string(f.Src), "twice") {
		t.Fatal("the old text was not parsed")
	}
	if err := os.WriteFile(path, []byte(newText), 0o644); err != nil {
		t.Fatal(err)
	}
	if f := c.srv.tree(entry()); f == nil || strings.Contains(string(f.Src), "twice") {
		t.Errorf("the tree of the new entry is the old text's")
	}
}

// TestIndexCancelledRequestParsesNothing: a request cancelled before its
// closed files are parsed parses none of them (and one cancelled between
// batches no further batch).
func TestIndexCancelledRequestParsesNothing(t *testing.T) {
	c, dir := indexedServer(t, indexWorkspaceFiles)
	defer func(n int) { batchSize = n }(batchSize)
	batchSize = 1
	helper := pathToURI(filepath.Join(dir, "lib/helper.f"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	before := c.srv.index.reparsed.Load()
	calls := 0
	c.srv.batches(ctx, origin{helper, nil}, need{names: []string{"HELPER"}, uses: true}, func(*workspace) bool {
		calls++
		return true
	})
	if n := c.srv.index.reparsed.Load() - before; n != 0 || calls != 1 {
		t.Errorf("cancelled: %d files parsed, %d batches, want 0 and 1", n, calls)
	}
	ctx, cancel = context.WithCancel(context.Background())
	calls = 0
	c.srv.batches(ctx, origin{helper, nil}, need{names: []string{"HELPER"}, uses: true}, func(*workspace) bool {
		calls++
		cancel()
		return true
	})
	if calls != 1 {
		t.Errorf("cancelled in the first batch: %d batches", calls)
	}
}

// TestIndexConcurrentChanges runs requests that parse closed files again
// while those files change on disk (watched), are opened, edited and
// closed, and while the workspace is still being indexed; with -race it
// checks the index's and the tree cache's shared state. At the end every
// closed file's summary and cached tree hold its last text.
func TestIndexConcurrentChanges(t *testing.T) {
	dir := t.TempDir()
	for name, text := range indexWorkspaceFiles {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer func(n int) { batchSize = n }(batchSize)
	batchSize = 1
	c := newClient(t, Options{})
	go func() {
		for range c.diags {
		}
	}()
	var res map[string]any
	c.call("initialize", map[string]any{"processId": nil, "rootUri": pathToURI(dir), "capabilities": fullCapabilities}, &res)
	c.notify("initialized", map[string]any{}) // indexing runs beside what follows
	app := pathToURI(filepath.Join(dir, "app.f90"))
	text := indexWorkspaceFiles["app.f90"]
	c.open(app, text)
	extPath := filepath.Join(dir, "lib/ext.f")
	ext := pathToURI(extPath)
	helper := pathToURI(filepath.Join(dir, "lib/helper.f"))
	extText := func(i int) string {
		return strings.Repeat("C     VERSION\n", i%3) + indexWorkspaceFiles["lib/ext.f"]
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // requests
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			for _, q := range crossFileQueries(app, posOf(t, text, "call ext", 5), posOf(t, text, "call ext(", 9)) {
				var raw json.RawMessage
				if err := c.callErr(q.method, q.params, &raw); err != nil && !strings.Contains(err.Error(), "rename") {
					t.Errorf("%s: %v", q.method, err)
				}
			}
		}
	}()
	go func() { // an editor
		defer wg.Done()
		for i := 0; i < 20; i++ {
			c.open(helper, indexWorkspaceFiles["lib/helper.f"])
			c.change(helper, 2, nil, "      SUBROUTINE HELPER(N)\n      END\n")
			c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": helper}})
		}
	}()
	last := 0
	for i := 1; i <= 20; i++ { // the disk
		if err := os.WriteFile(extPath, []byte(extText(i)), 0o644); err != nil {
			t.Fatal(err)
		}
		last = i
		c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": ext, "type": 2}}})
		time.Sleep(time.Millisecond)
	}
	close(done)
	wg.Wait()
	<-c.srv.index.done
	var locs []protocol.Location
	c.call("textDocument/definition", textPos(app, posOf(t, text, "call ext", 5)), &locs)
	want := uint32(strings.Count(extText(last), "\n") - 7) // the SUBROUTINE line
	if len(locs) != 1 || locs[0].URI != ext || locs[0].Range.Start.Line != want {
		t.Errorf("definition of EXT after the changes: %v, want line %d of ext.f", locs, want)
	}
	for _, x := range c.srv.index.all() {
		if x.uri != ext {
			continue
		}
		if got := x.entry.sel[0].Start.Line; got != want {
			t.Errorf("summary of ext.f: EXT on line %d, want %d", got, want)
		}
	}
}
