package complexity

import (
	"fmt"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestWholeArrayReferenceCostPinned: an array named without subscripts
// costs, in the all-one table (DESIGN.md §5), a memory access, plus the
// multi-dimensional index only from rank 2 on (the subscripted case is
// TestExpressionCostsAllOne's). Worked out by the table's rules: Y = F(Y)
// a load and a store, 2; Y = F(A) the same, 2 (rank 1: no index); Y =
// F(B) one more for the index of rank 2, 3; A = Y a load and a store for
// each of A's 10 elements, 20.
func TestWholeArrayReferenceCostPinned(t *testing.T) {
	src := `SUBROUTINE E(A, B, Y)
REAL A(10), B(10,10), Y, F
EXTERNAL F
Y = F(Y)
Y = F(A)
Y = F(B)
A = Y
END
`
	f := parser.Parse("e.f90", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	res := NewEngine(Options{}).File(f)
	var got []int64
	for _, s := range res[0].Statements {
		if _, ok := s.Stmt.(*parser.AssignStmt); ok {
			v, ok := s.Cost.Value()
			if !ok || !v.IsInt() {
				t.Fatalf("%s: cost %s", parser.ExprString(s.Stmt.(*parser.AssignStmt).RHS), s.Cost)
			}
			got = append(got, v.Num().Int64())
		}
	}
	if fmt.Sprint(got) != "[2 2 3 20]" {
		t.Errorf("costs %v, want [2 2 3 20]", got)
	}
}
