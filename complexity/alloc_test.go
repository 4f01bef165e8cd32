package complexity

import (
	"math/big"
	"testing"

	"github.com/pfls/pfls/parser"
)

// modelOf returns the model of the first unit of src, as the engine
// makes it for the work.
func modelOf(t *testing.T, src string) *unitModel {
	t.Helper()
	f := parser.Parse("a.f", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatalf("%v", errs)
	}
	return newUnitModel(f, f.Units[0], AllOne(), nil, nil, false)
}

// TestDimsAtAllocates: the bounds of a declared array are evaluated in
// the entry environment, nil, not a new empty map each time (the shape
// of every array reference asks for it).
func TestDimsAtAllocates(t *testing.T) {
	m := modelOf(t, "      SUBROUTINE S(A, N)\n      REAL A(N, N)\n      A(1, 1) = 0.0\n      END\n")
	sym := m.sc.Lookup("A")
	e := env{"I": Int(1)}
	dims, de := m.dimsAt(sym, e)
	if len(dims) != 2 || de != nil {
		t.Fatalf("dimsAt: %d dimensions, environment %v; want 2 and nil", len(dims), de)
	}
	if n := testing.AllocsPerRun(100, func() { m.dimsAt(sym, e) }); n != 0 {
		t.Errorf("dimsAt allocates %v times", n)
	}
}

// TestIfWeightsAllocate: an IF's probabilities are shared constants and
// its arms are weighed in small coefficients: a branch probability of
// 1/2 costs no allocation, and an IF / ELSE IF / ELSE is its first
// condition, half its first arm and half the rest (the second
// condition, half of each of the last two arms), with no big rational
// left in the result.
func TestIfWeightsAllocate(t *testing.T) {
	m := modelOf(t, "      SUBROUTINE S(L)\n      LOGICAL L\n      IF (L) THEN\n      X = 1.0\n      END IF\n      END\n")
	cond := m.u.Body[1].(*parser.IfConstruct).Arms[0].Head.(*parser.IfThenStmt).Cond
	var p, q *big.Rat
	if n := testing.AllocsPerRun(100, func() {
		p, _ = m.probability(cond, nil)
		q, _ = m.probability(cond, nil)
	}); n != 0 {
		t.Errorf("probability allocates %v times", n)
	}
	if p != q || p.Cmp(big.NewRat(1, 2)) != 0 {
		t.Errorf("probabilities %v, %v: want one shared 1/2", p, q)
	}
	src := "      SUBROUTINE S(X, N)\n      IF (X .GT. 0.0) THEN\n      X = X + 1.0\n      ELSE IF (X .LT. -1.0) THEN\n      X = X * X * X\n      ELSE\n      X = 0.0\n      END IF\n      END\n"
	r := analyseOne(t, src)
	c := modelOf(t, src)
	arms := c.u.Body[0].(*parser.IfConstruct).Arms
	c1, _ := c.expr(arms[0].Head.(*parser.IfThenStmt).Cond)
	c2, _ := c.expr(arms[1].Head.(*parser.IfThenStmt).Cond)
	var stat []Poly
	for _, s := range r.Statements {
		if s.Kind == "STAT" {
			stat = append(stat, s.Cost)
		}
	}
	if len(stat) != 3 {
		t.Fatalf("%d statements in the arms, want 3", len(stat))
	}
	half := Frac(1, 2)
	want := c1.Add(half.Mul(stat[0])).Add(half.Mul(c2.Add(half.Mul(stat[1])).Add(half.Mul(stat[2]))))
	if !r.Summary.Equal(want) {
		t.Errorf("IF arms weighed: %s, want %s", r.Summary, want)
	}
	for _, tm := range r.Summary.terms {
		if tm.coef.r != nil {
			t.Errorf("%s: coefficient %v kept as a big rational", r.Summary, tm.coef.r)
		}
	}
}

// TestMemoFinishShares: the memo gives the pieces and the condition of
// a count it met before as they are, shared and clipped (an append
// copies them), not copied at every statement with that count.
func TestMemoFinishShares(t *testing.T) {
	r := analyseOne(t, "      SUBROUTINE S(N)\n      DO 10 I = 1, N\n      X = X + 1.0\n   10 CONTINUE\n      END\n")
	count := r.Count
	if !isGuarded(count) {
		t.Fatalf("count %s: want a guarded count", count)
	}
	mm := newMemo()
	param := func(string) bool { return true }
	_, p1, w1, _ := mm.finish(count, param)
	if len(p1) != 2 || len(w1) == 0 {
		t.Fatalf("pieces %v when %v: want 2 pieces and a condition", p1, w1)
	}
	var p2 []Piece
	var w2 []Cond
	if n := testing.AllocsPerRun(50, func() { _, p2, w2, _ = mm.finish(count, param) }); n > 1 {
		t.Errorf("finish of a count met before allocates %v times", n)
	}
	if &p2[0] != &p1[0] || &w2[0] != &w1[0] || cap(p2) != len(p2) || cap(w2) != len(w2) {
		t.Errorf("the pieces and condition given again are not the first ones, clipped")
	}
}
