package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
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
		if name != "mods/m1.f90" {
			cases = append(cases, [2]string{name, "mods/m1.f90"})
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
	for _, m := range []string{"textDocument/definition", "textDocument/hover", "textDocument/references", "textDocument/rename",
		"textDocument/signatureHelp", "textDocument/completion", "callHierarchy/incomingCalls", "callHierarchy/outgoingCalls"} {
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
	c := newClient(t, Options{})
	var res map[string]any
	c.call("initialize", map[string]any{"processId": nil, "rootUri": pathToURI(dir), "capabilities": fullCapabilities}, &res)
	c.notify("initialized", map[string]any{})
	<-c.srv.index.done
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
		{"references of HELPER: from the summaries", "textDocument/references", refs("call helper", 5), 0},
		{"rename of the local V: the files defining what app names (helper.f and twice.f90 are not kept yet)", "textDocument/rename",
			map[string]any{"textDocument": map[string]any{"uri": uri}, "position": posOf(t, text, "v(10)", 0), "newName": "w"}, 2},
		{"call hierarchy of HELPER: helper.f and the modules are kept", "textDocument/prepareCallHierarchy", textPos(uri, posOf(t, text, "call helper", 5)), 0},
	} {
		if got := parsed(x.method, x.params); got != x.want {
			t.Errorf("%s: %d files parsed again, want %d", x.what, got, x.want)
		}
	}
}
