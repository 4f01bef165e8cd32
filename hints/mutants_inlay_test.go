package hints

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
)

// The tests of this file pin what scripts/mutants.py found unchecked in
// inlay.go (the statement hover's choice of statement, the tooltip's
// condition, the element count of an array assignment). The mutants of
// hints it leaves alive are equivalent; docs/mutation-hints.md lists them
// with the reason for each.

// TestStatementHoverExtent: which statement a hover at an offset is on.
// A loop is hovered on its DO line only, up to and including the line's
// end; its body belongs to the statements inside and END DO to none. A
// statement with a continuation line is hovered on both lines. On a line
// holding a DO and, after a semicolon, a statement of its body, the
// innermost one, the statement, is hovered on its own text and the loop
// around it.
func TestStatementHoverExtent(t *testing.T) {
	src := `subroutine s(a, n, c)
  integer n, i
  real a(n), c
  do i = 1, n
     if (c > 0) a(i) = a(i) + &
        c * 2.0
  end do
  do i = 1, n; a(i) = 0.0; end do
end subroutine s
`
	f := parser.Parse("s.f90", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatalf("errors %v", errs)
	}
	eng := complexity.NewEngine(complexity.Options{})
	at := func(text string, n int) int {
		i := -1
		for ; n > 0; n-- {
			i += 1 + strings.Index(src[i+1:], text)
		}
		return i
	}
	doLine := at("do i = 1, n", 1)
	doEnd := strings.IndexByte(src[doLine:], '\n') + doLine
	semi := at("do i = 1, n", 2)
	semiEnd := strings.IndexByte(src[semi:], '\n') + semi
	for _, c := range []struct {
		name string
		off  int
		want string // the kind in the hover's first line; "" for no hover
	}{
		{"the first DO line", doLine, "(DO)"},
		{"the end of the first DO line", doEnd, "(DO)"},
		{"the IF's first line", at("a(i) = a(i)", 1), "(IF)"},
		{"the IF's continuation line", at("c * 2.0", 1), "(IF)"},
		{"the END DO line", at("end do", 1), ""},
		{"the loop's DO of the one-line loop", semi, "(DO)"},
		{"the statement after the semicolon", at("a(i) = 0.0", 1), "(STAT)"},
		{"the end of that statement", at("a(i) = 0.0", 1) + len("a(i) = 0.0"), "(STAT)"},
		{"the END DO after it", at("end do", 2), "(DO)"},
		{"the end of the one-line loop's line", semiEnd, "(DO)"},
	} {
		h := StatementHover(f, eng, c.off)
		first, _, _ := strings.Cut(h, "\n")
		switch {
		case c.want == "" && h != "":
			t.Errorf("%s (offset %d): hover %q, want none", c.name, c.off, first)
		case c.want != "" && !strings.Contains(first, c.want):
			t.Errorf("%s (offset %d): hover %q, want one on %s", c.name, c.off, first, c.want)
		}
	}
	// The statement of the one-line loop: an element store, one for the
	// assignment and one for the index, under the all-one table.
	if h := StatementHover(f, eng, at("a(i) = 0.0", 1)); !strings.HasPrefix(h, "**Cost** (STAT): `2`") {
		t.Errorf("hover of a(i) = 0.0: %q", h)
	}
}

// TestTooltipWithoutCondition: a count of several pieces without the
// condition of the piece shown lists its pieces in the tooltip, and adds
// no "for" to the polynomial.
func TestTooltipWithoutCondition(t *testing.T) {
	n := complexity.Var("N")
	w := n.Mul(complexity.Int(3)).Add(complexity.Int(1))
	ge1 := []complexity.Cond{{G: n.Sub(complexity.Int(1))}}
	le0 := []complexity.Cond{{G: n.Neg()}}
	c := Cost{Work: w, Pieces: []complexity.Piece{{When: le0, Cost: complexity.Int(1)}, {When: ge1, Cost: w}}}
	tip := c.Tooltip("Cost of this loop")
	if !strings.HasPrefix(tip, "Cost of this loop (all operations counted by the cost table):\n\n    3*N + 1\n\nPieces (work, exact):\n    ") {
		t.Errorf("tooltip:\n%s", tip)
	}
	if strings.Contains(tip, " for ") {
		t.Errorf("tooltip with a condition:\n%s", tip)
	}
}

// TestArrayElementsSign: an array assignment whose work over its span is
// a whole number stands for that many elements; a negative quotient is
// no count of elements.
func TestArrayElementsSign(t *testing.T) {
	r := &complexity.StmtResult{Stmt: &parser.AssignStmt{}}
	for _, c := range []struct {
		work, span int64
		want       string
	}{
		{12, 3, "4"},
		{-12, 3, ""},
		{-3, 1, ""},
		{3, 3, ""}, // one element
	} {
		q, ok := arrayElements(r, Cost{Work: complexity.Int(c.work), Span: complexity.Int(c.span), HasSpan: true})
		got := ""
		if ok {
			got = q.String()
		}
		if got != c.want {
			t.Errorf("work %d, span %d: elements %q, want %q", c.work, c.span, got, c.want)
		}
	}
}

// TestStatementHoverWithoutCondition: the hover of a statement whose
// count has several pieces but no condition for the polynomial shown (the
// report's convention matches none of the pieces) lists the pieces, and
// adds no "for" to the polynomial.
func TestStatementHoverWithoutCondition(t *testing.T) {
	n := complexity.Var("N")
	w := n.Mul(complexity.Int(3)).Add(complexity.Int(1))
	ge1 := []complexity.Cond{{G: n.Sub(complexity.Int(1))}}
	le0 := []complexity.Cond{{G: n.Neg()}}
	f := parser.Parse("s.f90", []byte("x = 1\n"), nil)
	s := &complexity.StmtResult{Kind: "DO", Cost: w, Pieces: []complexity.Piece{{When: le0, Cost: complexity.Int(1)}, {When: ge1, Cost: w}}}
	h := statementHover(f, s, nil)
	if want := "**Cost** (DO): `3*N + 1`\n\nEvery piece:\n\n- N ≤ 0: `1`\n- N ≥ 1: `3*N + 1`\n"; !strings.HasPrefix(h, want) {
		t.Errorf("hover\n%s\nwant it to start with\n%s", h, want)
	}
}
