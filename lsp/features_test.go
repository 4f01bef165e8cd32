package lsp

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pfls/pfls/hints"
	"github.com/pfls/pfls/parser"
	"go.lsp.dev/protocol"
)

// hpfProgram has a template, processors, alignment and distribution in
// HPF directives, a COMMON block used by two units, a contained function
// and labelled loops.
const hpfProgram = `      PROGRAM MAIN
      PARAMETER (N = 100)
      REAL A(N,N), B(N,N), S
      COMMON /WORK/ S
!HPF$ PROCESSORS P(4)
!HPF$ TEMPLATE T(N,N)
!HPF$ ALIGN A(I,J) WITH T(I,J)
!HPF$ DISTRIBUTE T(BLOCK,*) ONTO P
!HPF$ INDEPENDENT
      DO 10 J = 1, N
         DO 10 I = 1, N
            A(I,J) = B(I,J) + F(I)
   10 CONTINUE
C     A comment that mentions A and S
      CALL SUB(A, N)
      CONTAINS
      REAL FUNCTION F(K)
      INTEGER K
      F = K * 2.0
      END FUNCTION
      END
      SUBROUTINE SUB(X, M)
      REAL X(M,M), S
      COMMON /WORK/ S
      S = X(1,1)
      END
`

const hpfURI = "file:///src/hpf.f"

func openHPF(t *testing.T, opts Options) *client {
	c := newClient(t, opts)
	c.initialize(fullCapabilities)
	c.open(hpfURI, hpfProgram)
	return c
}

func TestDocumentSymbols(t *testing.T) {
	c := openHPF(t, Options{})
	var syms []protocol.DocumentSymbol
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": hpfURI}}, &syms)
	var b strings.Builder
	var print func(list []protocol.DocumentSymbol, indent string)
	print = func(list []protocol.DocumentSymbol, indent string) {
		for _, s := range list {
			b.WriteString(indent + s.Name + " [" + s.Detail + "] " + s.Kind.String() + "\n")
			print(s.Children, indent+"  ")
		}
	}
	print(syms, "")
	want := `MAIN [] Module
  DO 10 J [J = 1, N  INDEPENDENT] Namespace
    DO 10 I [I = 1, N] Namespace
  F [REAL FUNCTION F(K)] Function
SUB [SUBROUTINE SUB(X, M)] Function
`
	if b.String() != want {
		t.Fatalf("symbols:\n%s\nwant:\n%s", b.String(), want)
	}
	if got := syms[0].SelectionRange.Start; got != (protocol.Position{Line: 0, Character: 14}) {
		t.Fatalf("selection of MAIN starts at %+v", got)
	}
	if syms[0].Range.End.Line != 20 || syms[1].Range.Start.Line != 21 {
		t.Fatalf("unit ranges: %+v %+v", syms[0].Range, syms[1].Range)
	}

	var ws []protocol.SymbolInformation
	c.call("workspace/symbol", map[string]any{"query": "wrk"}, &ws)
	if len(ws) != 1 || ws[0].Name != "/WORK/" || ws[0].Location.Range.Start != (protocol.Position{Line: 3, Character: 14}) {
		t.Fatalf("workspace symbols for wrk: %+v", ws)
	}
	c.call("workspace/symbol", map[string]any{"query": ""}, &ws)
	var names []string
	for _, s := range ws {
		names = append(names, s.Name)
	}
	sort.Strings(names)
	if got := strings.Join(names, " "); got != "/WORK/ F MAIN P SUB T" {
		t.Fatalf("workspace symbols: %s", got)
	}
}

func TestDefinition(t *testing.T) {
	c := openHPF(t, Options{})
	cases := []struct {
		name       string
		at         string
		delta      int
		line, char uint32
	}{
		{"array in a directive", "ALIGN A(I,J)", 6, 2, 11},
		{"template in ALIGN ... WITH", "WITH T(I,J)", 5, 5, 15},
		{"processors after ONTO", "ONTO P", 5, 4, 17},
		{"template in DISTRIBUTE", "DISTRIBUTE T", 11, 5, 15},
		{"variable in a statement", "= B(I,J)", 2, 2, 19},
		{"PARAMETER", "1, N\n", 3, 1, 17},
		{"contained function", "+ F(I)", 2, 16, 20},
		{"called subroutine", "CALL SUB", 5, 21, 17},
		{"COMMON block", "COMMON /WORK/ S\n      S =", 8, 23, 14},
		{"COMMON variable in its unit", "S = X", 0, 22, 19},
	}
	for _, tc := range cases {
		var locs []protocol.Location
		c.call("textDocument/definition", textPos(hpfURI, posOf(t, hpfProgram, tc.at, tc.delta)), &locs)
		if len(locs) != 1 || locs[0].URI != hpfURI || locs[0].Range.Start != (protocol.Position{Line: tc.line, Character: tc.char}) {
			t.Errorf("%s: definition %+v, want %d:%d", tc.name, locs, tc.line, tc.char)
		}
	}
	// Across open files: a second document calling SUB.
	c.open("file:///src/caller.f", "      PROGRAM CALLER\n      CALL SUB(Y, 3)\n      END\n")
	var locs []protocol.Location
	c.call("textDocument/definition", textPos("file:///src/caller.f", protocol.Position{Line: 1, Character: 12}), &locs)
	if len(locs) != 1 || locs[0].URI != hpfURI || locs[0].Range.Start.Line != 21 {
		t.Fatalf("definition in another file: %+v", locs)
	}
}

func TestHover(t *testing.T) {
	c := openHPF(t, Options{StatementHover: func(_ context.Context, f *parser.File, off int, _ hints.InlayOptions) string {
		return "statement hover"
	}})
	cases := []struct {
		at    string
		delta int
		want  []string
	}{
		{"= B(I,J) + F", 2, []string{"REAL B(N,N)", "array of rank 2", "declared on line 3"}},
		{"ALIGN A(I,J)", 6, []string{"REAL A(N,N)", "aligned: `ALIGN A(I,J) WITH T(I,J)`", "distributed through T: `T(BLOCK,*) ONTO P`"}},
		{"TEMPLATE T", 9, []string{"TEMPLATE T(N,N)", "distributed: `T(BLOCK,*) ONTO P`"}},
		{"1, N\n", 3, []string{"INTEGER N = 100", "named constant = 100"}},
		{"COMMON /WORK/ S\n!", 8, []string{"COMMON /WORK/ S", "COMMON block"}},
		{"+ F(I)", 2, []string{"REAL FUNCTION F(K)"}},
		{"CALL SUB", 5, []string{"SUBROUTINE SUB(X, M)"}},
		{"REAL X(M,M)", 5, []string{"REAL X(M,M)", "dummy argument"}},
		{"S = X", 0, []string{"REAL S", "in COMMON /WORK/"}},
		{"DO 10 J", 0, []string{"statement hover"}},
	}
	for _, tc := range cases {
		var h *protocol.Hover
		c.call("textDocument/hover", textPos(hpfURI, posOf(t, hpfProgram, tc.at, tc.delta)), &h)
		if h == nil {
			t.Errorf("hover at %q: none", tc.at)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(h.Contents.Value, w) {
				t.Errorf("hover at %q: %q lacks %q", tc.at, h.Contents.Value, w)
			}
		}
	}
	// A name in a comment has no name hover.
	var h *protocol.Hover
	c.call("textDocument/hover", textPos(hpfURI, posOf(t, hpfProgram, "mentions A", 9)), &h)
	if h != nil && !strings.Contains(h.Contents.Value, "statement hover") {
		t.Fatalf("hover in a comment: %+v", h)
	}
}

func TestReferencesAndRename(t *testing.T) {
	c := openHPF(t, Options{})
	var locs []protocol.Location
	params := textPos(hpfURI, posOf(t, hpfProgram, "ALIGN A(I,J)", 6))
	params["context"] = map[string]any{"includeDeclaration": true}
	c.call("textDocument/references", params, &locs)
	var lines []uint32
	for _, l := range locs {
		lines = append(lines, l.Range.Start.Line)
	}
	// Declaration, ALIGN directive, assignment, CALL; not the comment, not
	// X in SUB.
	if got, _ := json.Marshal(lines); string(got) != "[2,6,11,14]" {
		t.Fatalf("references of A on lines %s", got)
	}
	params["context"] = map[string]any{"includeDeclaration": false}
	c.call("textDocument/references", params, &locs)
	if len(locs) != 3 {
		t.Fatalf("references without the declaration: %d", len(locs))
	}

	var rg *protocol.Range
	c.call("textDocument/prepareRename", textPos(hpfURI, posOf(t, hpfProgram, "TEMPLATE T", 9)), &rg)
	if rg == nil || *rg != (protocol.Range{Start: protocol.Position{Line: 5, Character: 15}, End: protocol.Position{Line: 5, Character: 16}}) {
		t.Fatalf("prepareRename: %+v", rg)
	}
	if err := c.callErr("textDocument/prepareRename", textPos(hpfURI, posOf(t, hpfProgram, "DO 10 J", 1)), &rg); err == nil {
		t.Fatal("prepareRename on a keyword succeeded")
	}
	var edit protocol.WorkspaceEdit
	rp := textPos(hpfURI, posOf(t, hpfProgram, "TEMPLATE T", 9))
	rp["newName"] = "GRID"
	c.call("textDocument/rename", rp, &edit)
	text := applyEdits(t, hpfProgram, edit.Changes[hpfURI])
	if !strings.Contains(text, "TEMPLATE GRID(N,N)") || !strings.Contains(text, "WITH GRID(I,J)") || !strings.Contains(text, "DISTRIBUTE GRID(BLOCK,*)") {
		t.Fatalf("rename T:\n%s", text)
	}
	// Renaming the COMMON block changes both units.
	rp = textPos(hpfURI, posOf(t, hpfProgram, "/WORK/", 1))
	rp["newName"] = "SHARED"
	c.call("textDocument/rename", rp, &edit)
	if text := applyEdits(t, hpfProgram, edit.Changes[hpfURI]); strings.Count(text, "COMMON /SHARED/ S") != 2 {
		t.Fatalf("rename COMMON:\n%s", text)
	}
	for _, bad := range []string{"1X", "B", strings.Repeat("LONGNAME", 7)} {
		rp = textPos(hpfURI, posOf(t, hpfProgram, "ALIGN A(I,J)", 6))
		rp["newName"] = bad
		if err := c.callErr("textDocument/rename", rp, &edit); err == nil {
			t.Errorf("rename A to %q succeeded", bad)
		}
	}
}

// applyEdits applies non-overlapping edits to ASCII text.
func applyEdits(t *testing.T, text string, edits []protocol.TextEdit) string {
	f := parser.Parse("x.f", []byte(text), nil)
	type span struct {
		s, e int
		text string
	}
	var spans []span
	for _, e := range edits {
		s, en := offsetsOf(f, e.Range)
		spans = append(spans, span{s, en, e.NewText})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].s > spans[j].s })
	for _, sp := range spans {
		text = text[:sp.s] + sp.text + text[sp.e:]
	}
	return text
}

func TestCompletion(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(fullCapabilities)
	const uri = "file:///src/c.f90"
	src := "program p\n  real :: alpha(10), albedo\n  !$omp parallel do pri\n  x = al\n  y = ma\n  ! al\nend program p\n"
	c.open(uri, src)
	labels := func(pos protocol.Position) []string {
		var list protocol.CompletionList
		c.call("textDocument/completion", textPos(uri, pos), &list)
		var out []string
		for _, it := range list.Items {
			out = append(out, it.Label)
		}
		return out
	}
	if got := labels(posOf(t, src, "x = al\n", 6)); !contains(got, "albedo") || !contains(got, "alpha") || !contains(got, "allocate") || contains(got, "x") || contains(got, "ALPHA") {
		t.Errorf("names after al: %q", got)
	}
	if got := labels(posOf(t, src, "y = ma\n", 6)); !contains(got, "max") || !contains(got, "matmul") {
		t.Errorf("intrinsics after ma: %q", got)
	}
	if got := labels(posOf(t, src, "parallel do pri", 15)); !contains(got, "private") {
		t.Errorf("OpenMP clause after pri: %q", got)
	}
	if got := labels(posOf(t, src, "parallel do", 0)); !contains(got, "PARALLEL") || !contains(got, "PARALLEL DO") || contains(got, "ALPHA") {
		t.Errorf("OpenMP directives: %q", got)
	}
	if got := labels(posOf(t, src, "! al\n", 4)); len(got) != 0 {
		t.Errorf("completion in a comment: %q", got)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestSignatureHelp(t *testing.T) {
	c := openHPF(t, Options{})
	const uri = "file:///src/s.f"
	src := "      PROGRAM S\n      CALL SUB(Q, \n      Z = MOD(3, \n      END\n" +
		"      SUBROUTINE SUB(X, M)\n      REAL, INTENT(IN) :: X(10)\n      INTEGER, INTENT(OUT), OPTIONAL :: M\n      END\n"
	c.open(uri, src)
	sigAt := func(marker string, delta int) *signatureHelpResult {
		t.Helper()
		var sh *signatureHelpResult
		c.call("textDocument/signatureHelp", textPos(uri, posOf(t, src, marker, delta)), &sh)
		return sh
	}
	// The label with its parameters as offsets, and the declarations.
	sh := sigAt("SUB(Q, \n", 7)
	if sh == nil || len(sh.Signatures) != 1 || sh.ActiveParameter != 1 {
		t.Fatalf("signature of SUB: %+v", sh)
	}
	sig := sh.Signatures[0]
	if sig.Label != "SUB(X, [M])" || len(sig.Parameters) != 2 || sig.Label[sig.Parameters[1].Label[0]:sig.Parameters[1].Label[1]] != "M" {
		t.Fatalf("signature of SUB: %+v", sig)
	}
	if d := sig.Parameters[0].Documentation; d == nil || d.Value != "`X`: REAL X(10), intent(in)" {
		t.Errorf("X's documentation: %+v", d)
	}
	if d := sig.Parameters[1].Documentation; d == nil || d.Value != "`M`: INTEGER M, intent(out), optional" {
		t.Errorf("M's documentation: %+v", d)
	}
	sh = sigAt("MOD(3", 4)
	if sh == nil || sh.Signatures[0].Label != "MOD(A, P)" || sh.ActiveParameter != 0 {
		t.Fatalf("signature of MOD: %+v", sh)
	}
}

// fakeHints puts a hint at the end of every line that starts a DO loop.
func fakeHints(_ context.Context, f *parser.File, start, end int, o hints.InlayOptions) []hints.InlayHint {
	var out []hints.InlayHint
	for l := 0; l < f.Lines.LineCount(); l++ {
		off := f.Lines.LineEnd(l)
		line := string(f.Src[f.Lines.LineStart(l):off])
		if !strings.HasPrefix(strings.TrimSpace(line), "DO ") || off < start || off >= end || !o.Loops {
			continue
		}
		out = append(out, hints.InlayHint{Offset: off, Label: "N^2", Tooltip: "full polynomial of line " + string(rune('0'+l%10)), Kind: "loop"})
	}
	return out
}

func TestInlayHints(t *testing.T) {
	c := openHPF(t, Options{Inlay: fakeHints})
	params := map[string]any{"textDocument": map[string]any{"uri": hpfURI},
		"range": protocol.Range{Start: protocol.Position{Line: 10}, End: protocol.Position{Line: 12}}}
	var hs []InlayHint
	c.call("textDocument/inlayHint", params, &hs)
	// Only the inner DO (line 10) is in the range; the tooltip is left
	// for resolve since the client supports it.
	if len(hs) != 1 || hs[0].Position != (protocol.Position{Line: 10, Character: 23}) || hs[0].Label != "N^2" ||
		hs[0].Tooltip != nil || hs[0].Data == nil {
		t.Fatalf("hints: %+v", hs)
	}
	var resolved InlayHint
	c.call("inlayHint/resolve", hs[0], &resolved)
	if resolved.Tooltip == nil || resolved.Tooltip.Value != "full polynomial of line 0" || resolved.Label != "N^2" {
		t.Fatalf("resolved: %+v", resolved)
	}
	// The whole file: both loops, sorted.
	params["range"] = protocol.Range{End: protocol.Position{Line: 100}}
	c.call("textDocument/inlayHint", params, &hs)
	if len(hs) != 2 || hs[0].Position.Line != 9 || hs[1].Position.Line != 10 {
		t.Fatalf("hints of the file: %+v", hs)
	}

	// Settings: loops off through didChangeConfiguration → no hints and a
	// refresh request to the client.
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"pfls": map[string]any{"inlayHints": map[string]any{"loops": false}}}})
	waitFor(t, func() bool { return c.sentCalls("workspace/inlayHint/refresh") == 1 })
	c.call("textDocument/inlayHint", params, &hs)
	if len(hs) != 0 {
		t.Fatalf("hints with loops off: %+v", hs)
	}
	// Pull model: the client answers workspace/configuration.
	c.mu.Lock()
	c.config = json.RawMessage(`{"inlayHints":{"enable":true,"loops":true}}`)
	c.mu.Unlock()
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	waitFor(t, func() bool { return c.sentCalls("workspace/inlayHint/refresh") == 2 })
	c.call("textDocument/inlayHint", params, &hs)
	if len(hs) != 2 {
		t.Fatalf("hints after loops on again: %+v", hs)
	}
}

func TestInlayHintsWithoutResolve(t *testing.T) {
	c := newClient(t, Options{Inlay: fakeHints})
	c.initialize(map[string]any{})
	c.open(hpfURI, hpfProgram)
	var hs []InlayHint
	c.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": hpfURI},
		"range": protocol.Range{End: protocol.Position{Line: 100}}}, &hs)
	if len(hs) != 2 || hs[0].Tooltip == nil || hs[0].Data != nil {
		t.Fatalf("hints for a client without resolve: %+v", hs)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not reached")
}

// TestHoverPlainText: a client whose hover content formats do not
// include Markdown gets plain text, without code fences, backquotes or
// bold marks; one that lists Markdown, or lists nothing, gets Markdown
// (LSP 3.17, HoverClientCapabilities.contentFormat).
func TestHoverPlainText(t *testing.T) {
	opts := Options{StatementHover: func(_ context.Context, f *parser.File, off int, _ hints.InlayOptions) string {
		return "### Estimate\n**Cost** (DO): `42`\n\n```fortran\nDO 10 J = 1, N\n```"
	}}
	for _, tc := range []struct {
		formats []string
		kind    protocol.MarkupKind
	}{
		{[]string{"plaintext"}, protocol.PlainText},
		{[]string{"plaintext", "markdown"}, protocol.Markdown},
		{nil, protocol.Markdown},
	} {
		c := newClient(t, opts)
		hover := map[string]any{}
		if tc.formats != nil {
			hover["contentFormat"] = tc.formats
		}
		c.initialize(map[string]any{"textDocument": map[string]any{"hover": hover}})
		c.open(hpfURI, hpfProgram)
		for _, at := range []struct {
			text  string
			delta int
			plain string // what the plain text must hold
		}{
			{"= B(I,J) + F", 2, "REAL B(N,N)"},
			{"DO 10 J", 0, "Estimate\nCost (DO): 42\n\nDO 10 J = 1, N"},
		} {
			var h *protocol.Hover
			c.call("textDocument/hover", textPos(hpfURI, posOf(t, hpfProgram, at.text, at.delta)), &h)
			if h == nil {
				t.Fatalf("%v: no hover at %q", tc.formats, at.text)
			}
			if h.Contents.Kind != tc.kind {
				t.Errorf("%v: hover at %q is %s, want %s", tc.formats, at.text, h.Contents.Kind, tc.kind)
			}
			if tc.kind == protocol.PlainText {
				v := h.Contents.Value
				if !strings.Contains(v, at.plain) || strings.ContainsAny(v, "`#") || strings.Contains(v, "**") {
					t.Errorf("%v: hover at %q: %q, want plain text holding %q", tc.formats, at.text, v, at.plain)
				}
			}
		}
	}
}
