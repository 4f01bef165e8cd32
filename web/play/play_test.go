package play

import (
	"os"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/pfls/pfls/parser"
)

func example(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../../examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// apply applies edits (positions in the text's lines and UTF-16 columns)
// as the page does.
func apply(t *testing.T, text string, edits []Edit) string {
	t.Helper()
	m := parser.NewMapper([]byte(text))
	type span struct {
		from, to int
		text     string
	}
	var spans []span
	for _, e := range edits {
		from, ok1 := m.OffsetUTF16(e.From.Line, e.From.Col)
		to, ok2 := m.OffsetUTF16(e.To.Line, e.To.Col)
		if !ok1 || !ok2 {
			t.Fatalf("edit %+v is outside the text", e)
		}
		spans = append(spans, span{from, to, e.Text})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].from > spans[j].from })
	for _, s := range spans {
		text = text[:s.from] + s.text + text[s.to:]
	}
	return text
}

func line(text string, n int) string {
	return strings.Split(text, "\n")[n]
}

func TestSUB2Hints(t *testing.T) {
	s := NewSession()
	src := example(t, "sub2.f")
	r := s.Analyse("sub2.f", src, 16)
	if r.Error != "" || len(r.Diagnostics) != 0 {
		t.Fatalf("sub2.f: error %q, diagnostics %+v", r.Error, r.Diagnostics)
	}
	// The routine's summary of Zhou's report at the end of its header,
	// and one hint per loop at the end of its DO line.
	var units, loops []Hint
	for _, h := range r.Hints {
		if h.Kind == "unit" {
			units = append(units, h)
		} else {
			loops = append(loops, h)
		}
		if text := line(src, h.At.Line); h.At.Col != len(strings.TrimRight(text, "\r")) {
			t.Errorf("hint %q at column %d of %q, want its end", h.Label, h.At.Col, text)
		}
	}
	if len(units) != 1 || line(src, units[0].At.Line) != "      SUBROUTINE SUB2(M)" || !strings.HasPrefix(units[0].Label, "1/2·M³ + 75/4·M²") ||
		!strings.Contains(units[0].Tooltip, "1/2*M^3 + 75/4*M^2 + 154*M - 83") {
		t.Errorf("SUB2's hint: %+v", units)
	}
	if len(loops) != 3 {
		t.Errorf("%d loop hints, want 3: %+v", len(loops), loops)
	}
	if c := s.Capabilities(); len(c.Diagnostics) != 0 || c.Error != "" {
		t.Errorf("sub2.f has no directives, so no capability diagnostics: %+v", c)
	}
}

func TestDGEFABroadcast(t *testing.T) {
	s := NewSession()
	src := example(t, "dgefa.f")
	if r := s.Analyse("dgefa.f", src, 16); len(r.Diagnostics) != 0 || len(r.Hints) == 0 {
		t.Fatalf("dgefa.f: %+v", r)
	}
	c := s.Capabilities()
	if len(c.Diagnostics) != 1 {
		t.Fatalf("dgefa.f: %+v", c.Diagnostics)
	}
	d := c.Diagnostics[0]
	if d.Code != "non-overlapped-broadcast" || d.Severity != "warning" || d.From != (Pos{11, 6}) || !strings.Contains(d.Message, "Estimated waiting") {
		t.Errorf("dgefa.f: %+v", d)
	}
	// The processor count reaches the estimate in the message.
	s.Analyse("dgefa.f", src, 4)
	if c4 := s.Capabilities(); len(c4.Diagnostics) != 1 || c4.Diagnostics[0].Message == d.Message {
		t.Errorf("the message does not change with the processors: %+v", c4.Diagnostics)
	}
}

func TestQuickFix(t *testing.T) {
	s := NewSession()
	src := example(t, "example.fcm")
	s.Analyse("example.fcm", src, 16)
	var fix *Action
	for _, d := range s.Capabilities().Diagnostics {
		if d.Code == "missing-align" && len(d.Fixes) == 1 {
			fix = &d.Fixes[0]
		}
	}
	if fix == nil || fix.Title != "Insert CMF$ ALIGN B(I,J) WITH A(I,J)" || fix.Kind != "quickfix" {
		t.Fatalf("example.fcm: the missing-align fix: %+v", fix)
	}
	// The code actions on the diagnostic's line offer the same fix.
	acts, err := s.Actions(10, 10)
	if err != nil || len(acts) != 1 || acts[0].Title != fix.Title {
		t.Errorf("actions on line 11: %+v, %v", acts, err)
	}
	fixed := apply(t, src, fix.Edits)
	if line(fixed, 6) != "CMF$ ALIGN B(I,J) WITH A(I,J)" {
		t.Errorf("after the fix, line 7 is %q", line(fixed, 6))
	}
	if r := s.Analyse("example.fcm", fixed, 16); len(r.Diagnostics) != 0 {
		t.Errorf("the fixed text has diagnostics: %+v", r.Diagnostics)
	}
	for _, d := range s.Capabilities().Diagnostics {
		if d.Code == "missing-align" {
			t.Errorf("the fix left %+v", d)
		}
	}
}

func TestLoopActionsAndEstimate(t *testing.T) {
	s := NewSession()
	src := example(t, "redblack.f")
	s.Analyse("redblack.f", src, 16)
	acts, err := s.Actions(12, 12) // DO 100 KC = 1, NCYCLE
	if err != nil || len(acts) < 2 || acts[0].Title != "Estimate this loop" || acts[0].Command != "pfls.estimateLoop" || acts[0].Line != 13 {
		t.Fatalf("actions on line 13: %+v, %v", acts, err)
	}
	var rewrite *Action
	for i, a := range acts {
		if strings.HasPrefix(a.Title, "Distribute G(:,BLOCK): ") {
			rewrite = &acts[i]
		}
	}
	if rewrite == nil || len(rewrite.Edits) == 0 {
		t.Fatalf("no rewrite to G(:,BLOCK): %+v", acts)
	}
	after := apply(t, src, rewrite.Edits)
	if !strings.Contains(after, "      DISTRIBUTE G(:,BLOCK)\n") || strings.Contains(after, "G(BLOCK,BLOCK)") {
		t.Errorf("the rewrite gave:\n%s", after)
	}
	if r := s.Analyse("redblack.f", after, 16); len(r.Diagnostics) != 0 {
		t.Errorf("the rewritten text has diagnostics: %+v", r.Diagnostics)
	}

	s.Analyse("redblack.f", src, 16)
	est, err := s.EstimateLoop(13)
	if err != nil || !strings.HasPrefix(est.Text, "Loop at line 13 on 16 processors, G(BLOCK,BLOCK): ") {
		t.Fatalf("estimate: %v\n%s", err, est.Text)
	}
	// The plot: time against N for the shortlist, the current one in it.
	for _, want := range []string{"<svg", ">N<", "G(BLOCK,BLOCK)", "G(:,BLOCK)", "loop at line 13 at P = 16"} {
		if !strings.Contains(est.SVG, want) {
			t.Errorf("the plot lacks %q", want)
		}
	}
	if _, err := s.EstimateLoop(1); err == nil || !strings.Contains(err.Error(), "no DO loop starts on this line") {
		t.Errorf("estimate on a comment line: %v", err)
	}
	// No actions off the DO lines.
	if acts, err := s.Actions(0, 0); err != nil || len(acts) != 0 {
		t.Errorf("actions on a comment: %+v, %v", acts, err)
	}
}

func TestHover(t *testing.T) {
	s := NewSession()
	src := example(t, "dgefa.f")
	s.Analyse("dgefa.f", src, 16)
	// A on "      ALIGN A WITH D".
	if l := line(src, 9); l != "      ALIGN A WITH D" {
		t.Fatalf("line 10 is %q", l)
	}
	h, err := s.HoverAt(Pos{9, 12})
	if err != nil || h == nil || h.Range == nil || *h.Range != (Range{Pos{9, 12}, Pos{9, 13}}) ||
		!strings.Contains(h.Markdown, "A(NMAX,NMAX)") || !strings.Contains(h.Markdown, "D(:,CYCLIC)") {
		t.Errorf("hover on A: %+v, %v", h, err)
	}
	// Not on a name: the cost of the statement.
	if l := line(src, 20); !strings.HasPrefix(l, "            A(L,K) = A(K,K)") {
		t.Fatalf("line 21 is %q", l)
	}
	if h, err := s.HoverAt(Pos{20, 19}); err != nil || h == nil || h.Range != nil || h.Markdown == "" {
		t.Errorf("hover on =: %+v, %v", h, err)
	}
	if h, err := s.HoverAt(Pos{0, 3}); err != nil || h != nil {
		t.Errorf("hover in a comment: %+v, %v", h, err)
	}
}

// TestUTF16 checks the positions the page gets: columns in UTF-16 code
// units, so that a character outside the BMP counts two.
func TestUTF16(t *testing.T) {
	src := "subroutine s(n)\n  integer n\n  do i = 1, n ! é𝄞\n    x = len('𝄞é') + n\n  end do\nend\n"
	s := NewSession()
	r := s.Analyse("u.f90", src, 16)
	var loop *Hint
	for i, h := range r.Hints {
		if h.Kind == "loop" {
			loop = &r.Hints[i]
		}
	}
	// The hint goes at the end of the DO line, comment included: in
	// UTF-16 units, 𝄞 counts two (bytes would give 4, runes 1).
	if want := (Pos{2, len(utf16.Encode([]rune("  do i = 1, n ! é𝄞")))}); loop == nil || loop.At != want {
		t.Fatalf("loop hint at %+v, want %+v: %+v", loop, want, r.Hints)
	}
	// A hover at a UTF-16 position lands on the right name: N after the
	// string is at column 21 in UTF-16 (20 in runes, 24 in bytes).
	h, err := s.HoverAt(Pos{3, 21})
	if err != nil || h == nil || h.Range == nil || *h.Range != (Range{Pos{3, 21}, Pos{3, 22}}) || !strings.Contains(strings.ToUpper(h.Markdown), "INTEGER") {
		t.Errorf("hover on n at UTF-16 column 21: %+v, %v", h, err)
	}
}

func TestRobust(t *testing.T) {
	s := NewSession()
	// Nothing analysed yet.
	if h, err := s.HoverAt(Pos{0, 0}); h != nil || err != nil {
		t.Errorf("hover before an analysis: %+v %v", h, err)
	}
	if a, err := s.Actions(0, 0); len(a) != 0 || err != nil {
		t.Errorf("actions before an analysis: %+v %v", a, err)
	}
	if _, err := s.EstimateLoop(1); err == nil {
		t.Error("an estimate before an analysis")
	}
	// A text with errors: its diagnostics, no capability diagnostics.
	r := s.Analyse("bad.f", "      PROGRAM P\n      REAL A(0)\n      DO 10 I = 1,\n   10 CONTINUE\n      END\n", 16)
	hasError := false
	for _, d := range r.Diagnostics {
		hasError = hasError || d.Severity == "error"
	}
	if !hasError {
		t.Errorf("no error diagnostic: %+v", r.Diagnostics)
	}
	if c := s.Capabilities(); len(c.Diagnostics) != 0 {
		t.Errorf("capability diagnostics on a text with errors: %+v", c.Diagnostics)
	}
	// Too large: one diagnostic, nothing analysed.
	big := strings.Repeat("C\n", MaxSource/2+1)
	r = s.Analyse("big.f", big, 16)
	if len(r.Diagnostics) != 1 || r.Diagnostics[0].Code != "too-large" || len(r.Hints) != 0 {
		t.Errorf("a large text: %+v", r.Diagnostics)
	}
	if h, _ := s.HoverAt(Pos{0, 0}); h != nil {
		t.Errorf("hover after a refused text: %+v", h)
	}
}
