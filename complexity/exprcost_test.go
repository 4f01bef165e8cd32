package complexity

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// The expression costs of the all-one table (DESIGN.md §5), computed
// apart from the model: random expressions are built as small trees that
// know their own cost by the table's rules, written out as Fortran
// assignments, and each statement's cost from the engine must equal the
// tree's. Nothing here calls the model's expression code.

// costExpr is a generated expression: its Fortran text and its cost.
type costExpr struct {
	text string
	cost int
}

// exprGen writes random expressions over the declarations of exprDecls.
type exprGen struct{ r *rand.Rand }

const exprDecls = `SUBROUTINE E(N, K, Y, Z, A, B, C)
INTEGER N, K, NP
PARAMETER (NP = 4)
REAL Y, Z, X, A(10), B(10,10), C(5,5,5)
LOGICAL L, LV, LW
`

// leaf: constants and PARAMETERs cost 0, scalar references 1.
func (g exprGen) leaf(integer bool) costExpr {
	switch g.r.Intn(5) {
	case 0:
		return costExpr{fmt.Sprint(g.r.Intn(9) + 1), 0}
	case 1:
		if integer {
			return costExpr{"NP", 0}
		}
		return costExpr{fmt.Sprintf("%d.5", g.r.Intn(9)), 0}
	case 2:
		return costExpr{"N", 1}
	case 3:
		if integer {
			return costExpr{"K", 1}
		}
		return costExpr{"Y", 1}
	}
	if integer {
		return costExpr{"NP", 0}
	}
	return costExpr{"Z", 1}
}

// element: an array element costs its subscripts, 1, and 1 more from
// rank 2 on.
func (g exprGen) element(depth int) costExpr {
	name, rank := "A", 1
	switch g.r.Intn(3) {
	case 1:
		name, rank = "B", 2
	case 2:
		name, rank = "C", 3
	}
	subs := make([]string, rank)
	cost := 1
	if rank >= 2 {
		cost++
	}
	for i := range subs {
		s := g.expr(depth-1, true)
		subs[i] = s.text
		cost += s.cost
	}
	return costExpr{name + "(" + strings.Join(subs, ", ") + ")", cost}
}

// expr returns an arithmetic expression of at most depth levels; integer
// ones serve as subscripts.
func (g exprGen) expr(depth int, integer bool) costExpr {
	if depth <= 0 {
		return g.leaf(integer)
	}
	switch g.r.Intn(9) {
	case 0, 1:
		return g.leaf(integer)
	case 2:
		if integer {
			return g.leaf(integer)
		}
		return g.element(depth)
	case 3, 4: // + - * / **: 1 each, operands in parentheses (0)
		op := []string{"+", "-", "*", "/", "**"}[g.r.Intn(5)]
		x, y := g.expr(depth-1, integer), g.expr(depth-1, integer)
		return costExpr{"(" + x.text + ") " + op + " (" + y.text + ")", x.cost + y.cost + 1}
	case 5: // unary minus: 1
		x := g.expr(depth-1, integer)
		return costExpr{"(-(" + x.text + "))", x.cost + 1}
	case 6: // MIN, MAX: 1 + arguments
		fn := []string{"MIN", "MAX"}[g.r.Intn(2)]
		n := 2 + g.r.Intn(2)
		args := make([]string, n)
		cost := 1
		for i := range args {
			a := g.expr(depth-1, integer)
			args[i] = a.text
			cost += a.cost
		}
		return costExpr{fn + "(" + strings.Join(args, ", ") + ")", cost}
	case 7: // MOD, ABS (and on reals SIGN): the arguments only
		if !integer && g.r.Intn(2) == 0 {
			x, y := g.expr(depth-1, false), g.expr(depth-1, false)
			return costExpr{"SIGN(" + x.text + ", " + y.text + ")", x.cost + y.cost}
		}
		if g.r.Intn(2) == 0 {
			x := g.expr(depth-1, integer)
			return costExpr{"ABS(" + x.text + ")", x.cost}
		}
		x, y := g.expr(depth-1, true), g.expr(depth-1, true)
		if integer {
			return costExpr{"MOD(" + x.text + ", " + y.text + ")", x.cost + y.cost}
		}
		return costExpr{"REAL(MOD(" + x.text + ", " + y.text + "))", x.cost + y.cost}
	}
	// SQRT, EXP, LOG, SIN, COS on reals: 1 + argument; INT on integers:
	// the argument only.
	if integer {
		x := g.expr(depth-1, false)
		return costExpr{"INT(" + x.text + ")", x.cost}
	}
	fn := []string{"SQRT", "EXP", "LOG", "SIN", "COS"}[g.r.Intn(5)]
	x := g.expr(depth-1, false)
	return costExpr{fn + "(" + x.text + ")", x.cost + 1}
}

// logical returns a LOGICAL expression: relational operators on numbers
// cost 0, .AND., .OR. and .NOT. on LOGICAL operands 1.
func (g exprGen) logical(depth int) costExpr {
	if depth <= 0 || g.r.Intn(3) == 0 {
		if g.r.Intn(2) == 0 {
			return costExpr{[]string{"LV", "LW"}[g.r.Intn(2)], 1}
		}
		op := []string{".GT.", ".LT.", ".EQ.", ".NE.", ".GE.", ".LE."}[g.r.Intn(6)]
		x, y := g.expr(depth-1, false), g.expr(depth-1, false)
		return costExpr{"(" + x.text + ") " + op + " (" + y.text + ")", x.cost + y.cost}
	}
	if g.r.Intn(3) == 0 {
		x := g.logical(depth - 1)
		return costExpr{".NOT. (" + x.text + ")", x.cost + 1}
	}
	op := []string{".AND.", ".OR."}[g.r.Intn(2)]
	x, y := g.logical(depth-1), g.logical(depth-1)
	return costExpr{"(" + x.text + ") " + op + " (" + y.text + ")", x.cost + y.cost + 1}
}

// assignment: the left side plus the right side.
func (g exprGen) assignment() costExpr {
	depth := 1 + g.r.Intn(4)
	switch g.r.Intn(4) {
	case 0:
		rhs := g.logical(depth)
		return costExpr{"L = " + rhs.text, 1 + rhs.cost}
	case 1:
		lhs, rhs := g.element(2), g.expr(depth, false)
		return costExpr{lhs.text + " = " + rhs.text, lhs.cost + rhs.cost}
	}
	rhs := g.expr(depth, false)
	return costExpr{"X = " + rhs.text, 1 + rhs.cost}
}

func TestExpressionCostsAllOne(t *testing.T) {
	g := exprGen{rand.New(rand.NewSource(5))}
	checked := 0
	for unit := 0; unit < 30; unit++ {
		var src strings.Builder
		src.WriteString(exprDecls)
		var want []costExpr
		for i := 0; i < 40; i++ {
			a := g.assignment()
			want = append(want, a)
			src.WriteString(a.text + "\n")
		}
		src.WriteString("END\n")
		f := parser.Parse("e.f90", []byte(src.String()), nil)
		if errs := f.Errors(); len(errs) > 0 {
			t.Fatalf("generated program does not parse: %v\n%s", errs, src.String())
		}
		res := NewEngine(Options{}).File(f)
		if len(res) != 1 {
			t.Fatalf("%d units", len(res))
		}
		var got []*StmtResult
		for _, s := range res[0].Statements {
			if _, ok := s.Stmt.(*parser.AssignStmt); ok {
				got = append(got, s)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%d assignments costed, %d written\n%s", len(got), len(want), src.String())
		}
		for i, s := range got {
			v, ok := s.Cost.Value()
			if !ok || !v.IsInt() || v.Num().Int64() != int64(want[i].cost) {
				t.Errorf("%s\n  model %s, table %d", want[i].text, s.Cost, want[i].cost)
			}
			checked++
		}
	}
	if checked != 30*40 {
		t.Errorf("%d statements checked", checked)
	}
}
