package complexity

import (
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestInlinePowers: in a table of measured times (TableFromCosts), X**K
// with K a small integer constant costs the multiplications of binary
// powering (a compiler does not call pow for it): X**2 one, X**3 and
// X**4 two, X**8 three, X**13 five; a real or variable exponent, or one
// beyond 64, costs "**". The report's all-one table still counts "**"
// as one operator (DESIGN.md §5). Here add 1, mul 10, pow 1000, and
// scalars are free (ScalarRegisters).
func TestInlinePowers(t *testing.T) {
	f := parseSrc(t, "subroutine s(x, n)\nreal :: x\ninteger :: n\nend subroutine\n")
	u := f.Units[0]
	machine := TableFromCosts("t", Int(1), Int(10), Int(100), Int(1000), Int(0), Int(0), Int(0))
	for _, c := range []struct {
		expr      string
		machine   int64
		allOneOps int64 // beyond the reference to X (1) and N (1)
	}{
		{"x**1", 0, 1},
		{"x**2", 10, 1},
		{"x**3", 20, 1},
		{"x**4", 20, 1},
		{"x**8", 30, 1},
		{"x**13", 50, 1},
		{"x**2.0", 1000, 1},
		{"x**n", 1000, 2},
		{"x**65", 1000, 1},
		{"(x + 1.0)**2", 11, 2},
	} {
		p := parser.Parse("e.f90", []byte("x = "+c.expr+"\n"), nil)
		a, ok := p.Units[0].Body[0].(*parser.AssignStmt)
		if !ok {
			t.Fatalf("%s: not an assignment", c.expr)
		}
		if got := ExprCost(nil, u, a.RHS, machine, nil); got.String() != Int(c.machine).String() {
			t.Errorf("%s: %s with the measured table, want %d", c.expr, got, c.machine)
		}
		if got := ExprCost(nil, u, a.RHS, AllOne(), nil); got.String() != Int(c.allOneOps+1).String() {
			t.Errorf("%s: %s in the all-one table, want %d", c.expr, got, c.allOneOps+1)
		}
	}
}
