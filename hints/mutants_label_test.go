package hints

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/complexity"
)

// TestCostLabelCuts: a label cut to its room. W = 12·N² + 34·N + 56 (17
// characters) and S = 7·N + 8 (7): "work W · span S" is 37 characters.
// With n = 36 each polynomial gets half of what remains after
// "work  · span " (14 bytes): (36-14)/2 = 11 characters; with n = 26,
// (26-14)/2 = 6, the least that still splits. An assumption's suffix is
// kept whole, the text before it cut to the room left (12 at n = 28).
func TestCostLabelCuts(t *testing.T) {
	n := complexity.Var("N")
	w := n.Mul(n).Mul(complexity.Int(12)).Add(n.Mul(complexity.Int(34))).Add(complexity.Int(56))
	s := n.Mul(complexity.Int(7)).Add(complexity.Int(8))
	span := Cost{Work: w, Span: s, HasSpan: true}
	for _, c := range []struct {
		c    Cost
		n    int
		want string
	}{
		{span, 37, "work 12·N² + 34·N + 56 · span 7·N + 8"},
		{span, 36, "work 12·N² + 34… · span 7·N + 8"},
		{span, 28, "work 12·N² … · span 7·N + 8"}, // half 7: S fits exactly
		{span, 26, "work 12·N²… · span 7·N +…"},
		{span, 25, "work 12·N² + 34·N + 56 ·…"},
		{Cost{Work: w}, 17, "12·N² + 34·N + 56"},
		{Cost{Work: w}, 16, "12·N² + 34·N + …"},
		{Cost{Work: w, Notes: []string{"assumes N >= 1 (guessed)"}}, 33, "12·N² + 34·N + 56 · assumes N ≥ 1"},
		{Cost{Work: w, Notes: []string{"assumes N >= 1 (guessed)"}}, 28, "12·N² + 34·… · assumes N ≥ 1"},
		{Cost{Work: w, Notes: []string{"assumes N >= 1 (guessed)"}}, 27, "12·N² + 34·N + 56 · assume…"},
	} {
		if got := c.c.Label(c.n); got != c.want {
			t.Errorf("Label(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// TestCostPiecesShown: the condition of the piece shown is added to a
// label, and the pieces listed in the tooltip, only when the count has
// several pieces and a condition.
func TestCostPiecesShown(t *testing.T) {
	n := complexity.Var("N")
	w := n.Mul(complexity.Int(3)).Add(complexity.Int(1))
	ge1 := []complexity.Cond{{G: n.Sub(complexity.Int(1))}}
	le0 := []complexity.Cond{{G: n.Neg()}}
	one := Cost{Work: w, When: ge1, Pieces: []complexity.Piece{{When: ge1, Cost: w}}}
	two := Cost{Work: w, When: ge1, Pieces: []complexity.Piece{{When: le0, Cost: complexity.Int(1)}, {When: ge1, Cost: w}}}
	noWhen := Cost{Work: w, Pieces: two.Pieces}
	if got := one.Label(40); got != "3·N + 1" {
		t.Errorf("one piece: %q", got)
	}
	if got := two.Label(40); got != "3·N + 1 for N ≥ 1" {
		t.Errorf("two pieces: %q", got)
	}
	if got := noWhen.Label(40); got != "3·N + 1" {
		t.Errorf("two pieces, no condition: %q", got)
	}
	if tip := one.Tooltip("Cost"); strings.Contains(tip, "Pieces") || strings.Contains(tip, " for ") {
		t.Errorf("one piece: tooltip\n%s", tip)
	}
	if tip := two.Tooltip("Cost"); !strings.Contains(tip, "Pieces (work, exact):") || !strings.Contains(tip, "3*N + 1   for ") {
		t.Errorf("two pieces: tooltip\n%s", tip)
	}
}
