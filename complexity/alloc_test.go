package complexity

import (
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// modelOf returns the model of the first unit of src, as the engine
// makes it for the work.
func modelOf(t *testing.T, src string) *unitModel {
	t.Helper()
	name := "a.f"
	if !strings.HasPrefix(src, "      ") {
		name = "a.f90"
	}
	f := parser.Parse(name, []byte(src), nil)
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

// TestModOfImpliedDo: a statement may change the index of an implied DO
// anywhere in its expressions (an array constructor in an assignment, a
// condition, an argument, an I/O list, nested ones), besides what it
// assigns; and modOf gives, for every statement of the repository's
// programs (top level, constructs whole), what a plain walk of every
// node gives.
func TestModOfImpliedDo(t *testing.T) {
	src := `subroutine s(a, n, x)
  integer n, a(n), b(n)
  real x
  a = (/ (i, i = 1, n) /)
  if (any((/ (j + 1, j = 1, n) /) > 0)) x = 1.0
  call f(-(/ ((k * l, k = 1, 2), l = 1, 3) /), x)
  read (*, *) (b(m), m = 1, n)
  x = x + sum((/ (real(p), p = 1, n) /) * 2.0)
end subroutine
`
	m := modelOf(t, src)
	// READ into an implied DO's items defines them and the index.
	want := []string{"A I", "J X", "K L X", "B M", "P X"}
	for i, s := range m.u.Body[len(m.u.Body)-5:] {
		if got := strings.Join(slices.Sorted(maps.Keys(m.modOf(s))), " "); got != want[i] {
			t.Errorf("statement %d: modOf %q, want %q", i+1, got, want[i])
		}
	}
	var names []string
	for _, g := range []string{"../examples/*.f*", "testdata/*.f*", "../hints/testdata/programs/*.f*", "../hints/testdata/programs/*.hpf"} {
		ns, _ := filepath.Glob(g)
		names = append(names, ns...)
	}
	stmts := 0
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		f := parser.Parse(filepath.Base(n), b, nil)
		for _, u := range f.Units {
			m := newUnitModel(f, u, AllOne(), nil, nil, false)
			for _, s := range u.Body {
				ref := map[string]bool{}
				parser.Inspect(s, func(n parser.Node) bool {
					switch x := n.(type) {
					case *parser.AssignStmt:
						if id := RootIdent(x.LHS); id != nil {
							ref[id.Name] = true
						}
					case *parser.DoStmt:
						if x.Var != nil {
							ref[x.Var.Name] = true
						}
					case *parser.CallStmt:
						maps.Copy(ref, m.callMod(x.Name.Name, x.Args))
					case *parser.IOStmt:
						if x.Keyword == "READ" {
							var items func([]parser.Expr)
							items = func(its []parser.Expr) {
								for _, it := range its {
									if d, ok := it.(*parser.ImpliedDo); ok {
										items(d.Items)
									} else if id := RootIdent(it); id != nil {
										ref[id.Name] = true
									}
								}
							}
							items(x.Items)
						}
					case *parser.ImpliedDo:
						ref[x.Var.Name] = true
					}
					return true
				})
				if got := m.modOf(s); !maps.Equal(got, ref) {
					t.Errorf("%s line %d: modOf %v, a walk of every node %v", n, f.Lines.Line(u.Abs(s.Pos()))+1, got, ref)
				}
				stmts++
			}
		}
	}
	if stmts < 400 {
		t.Errorf("only %d statements", stmts)
	}
}
