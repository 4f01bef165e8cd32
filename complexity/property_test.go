package complexity

import (
	"fmt"
	"math/big"
	"math/rand"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// The property tests compare the symbolic model with a small reference
// interpreter of the same cost model: it runs the loops for real, in exact
// rationals, with given values of the formals, pricing each simple
// statement with the model's own expression costs and weighing both arms
// of an IF by one half.

type interp struct {
	m     *unitModel
	bad   bool // a loop ran a negative number of times
	costs map[parser.Expr]*big.Rat
}

func (in *interp) list(list []parser.Stmt, vals map[string]int64) *big.Rat {
	total := new(big.Rat)
	for _, s := range list {
		total.Add(total, in.stmt(s, vals))
	}
	return total
}

func (in *interp) eval(x parser.Expr, vals map[string]int64) int64 {
	switch v := x.(type) {
	case *parser.Lit:
		var n int64
		fmt.Sscan(v.Value, &n)
		return n
	case *parser.Ident:
		return vals[v.Name]
	case *parser.Paren:
		return in.eval(v.X, vals)
	case *parser.Unary:
		if v.Op == "-" {
			return -in.eval(v.X, vals)
		}
		return in.eval(v.X, vals)
	case *parser.Binary:
		a, b := in.eval(v.X, vals), in.eval(v.Y, vals)
		switch v.Op {
		case "+":
			return a + b
		case "-":
			return a - b
		case "*":
			return a * b
		}
	}
	panic(fmt.Sprintf("interp: cannot evaluate %T", x))
}

func (in *interp) costOf(x parser.Expr) *big.Rat {
	if v, ok := in.costs[x]; ok {
		return v
	}
	c, _ := in.m.expr(x)
	v, ok := c.Value()
	if !ok {
		panic("non-constant expression cost")
	}
	if in.costs == nil {
		in.costs = map[parser.Expr]*big.Rat{}
	}
	in.costs[x] = v
	return v
}

func (in *interp) stmt(s parser.Stmt, vals map[string]int64) *big.Rat {
	switch x := s.(type) {
	case *parser.DoConstruct:
		d := x.Do
		total := new(big.Rat)
		for _, b := range []parser.Expr{d.Lo, d.Hi, d.Step} {
			if b != nil {
				total.Add(total, in.costOf(b))
			}
		}
		lo, hi := in.eval(d.Lo, vals), in.eval(d.Hi, vals)
		step := int64(1)
		if d.Step != nil {
			step = in.eval(d.Step, vals)
		}
		trips := (hi - lo + step) / step
		if trips < 0 {
			in.bad = true
			return total
		}
		for k := int64(0); k < trips; k++ {
			vals[d.Var.Name] = lo + k*step
			total.Add(total, in.list(x.Body, vals))
		}
		return total
	case *parser.IfConstruct:
		total := new(big.Rat)
		h := x.Arms[0].Head.(*parser.IfThenStmt)
		total.Add(total, in.costOf(h.Cond))
		half := big.NewRat(1, 2)
		for _, arm := range x.Arms {
			c := in.list(arm.Body, copyVals(vals))
			total.Add(total, c.Mul(c, half))
		}
		return total
	case *parser.AssignStmt:
		c := new(big.Rat).Add(in.costOf(x.LHS), in.costOf(x.RHS))
		if id, ok := x.LHS.(*parser.Ident); ok && strings.HasPrefix(id.Name, "K") {
			vals[id.Name] = in.eval(x.RHS, vals)
		}
		return c
	case *parser.SimpleStmt, *parser.TypeDecl:
		return new(big.Rat)
	}
	panic(fmt.Sprintf("interp: %T", s))
}

func copyVals(v map[string]int64) map[string]int64 {
	c := make(map[string]int64, len(v))
	for k, x := range v {
		c[k] = x
	}
	return c
}

// genNest writes a random affine loop nest of the given depth.
func genNest(r *rand.Rand, depth int) string {
	var b strings.Builder
	b.WriteString("      SUBROUTINE R(N, M)\n      INTEGER N, M\n      REAL X, A(100,100)\n")
	outer := []string{}
	affine := func() string {
		terms := []string{fmt.Sprint(r.Intn(4))}
		if r.Intn(2) == 0 {
			terms = append(terms, fmt.Sprintf("%d*N", 1+r.Intn(2)))
		}
		if r.Intn(3) == 0 {
			terms = append(terms, "M")
		}
		if len(outer) > 0 && r.Intn(2) == 0 {
			terms = append(terms, outer[r.Intn(len(outer))])
		}
		return strings.Join(terms, " + ")
	}
	var body func(level int)
	body = func(level int) {
		ind := strings.Repeat("   ", level)
		if level > depth {
			fmt.Fprintf(&b, "      %sX = X + A(%s, 1) * 2.0\n", ind, outer[len(outer)-1])
			if r.Intn(2) == 0 {
				fmt.Fprintf(&b, "      %sIF (X .GT. 1.0) THEN\n", ind)
				fmt.Fprintf(&b, "      %s   X = X - 1.0\n", ind)
				fmt.Fprintf(&b, "      %sELSE\n", ind)
				fmt.Fprintf(&b, "      %s   X = X + A(1, 2) + A(2, 1)\n", ind)
				fmt.Fprintf(&b, "      %sEND IF\n", ind)
			}
			return
		}
		idx := fmt.Sprintf("I%d", level)
		lo := affine()
		if r.Intn(3) == 0 {
			// An intermediate variable standing for the lower bound.
			k := fmt.Sprintf("K%d", level)
			fmt.Fprintf(&b, "      %s%s = %s\n", ind, k, lo)
			lo = k
		}
		steps := []int{1, 1, 2, 3, -1, -2}
		step := steps[r.Intn(len(steps))]
		trips := affine() // the trip count, affine in N, M and outer indices
		hi := fmt.Sprintf("%s + (%d)*(%s - 1)", lo, step, trips)
		if step == 1 && r.Intn(2) == 0 {
			hi = fmt.Sprintf("%s + %s - 1", lo, trips)
		}
		writeFixed(&b, fmt.Sprintf("      %sDO %d %s = %s, %s, %d", ind, 10*level, idx, lo, hi, step))
		outer = append(outer, idx)
		body(level + 1)
		outer = outer[:len(outer)-1]
		fmt.Fprintf(&b, "%5d %sCONTINUE\n", 10*level, ind)
	}
	body(1)
	b.WriteString("      END\n")
	return b.String()
}

// writeFixed writes a fixed-form statement, continued after column 72.
func writeFixed(b *strings.Builder, line string) {
	for len(line) > 72 {
		b.WriteString(line[:72] + "\n")
		line = "     &" + line[72:]
	}
	b.WriteString(line + "\n")
}

func TestRandomLoopNestsAgainstInterpreter(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	checked := 0
	for iter := 0; iter < 150; iter++ {
		src := genNest(r, 1+r.Intn(4))
		f := parser.Parse("r.f", []byte(src), nil)
		if errs := f.Errors(); len(errs) > 0 {
			t.Fatalf("generated program does not parse: %v\n%s", errs, src)
		}
		u := f.Units[0]
		eng := NewEngine(Options{})
		res := eng.File(f)[0]
		m := &unitModel{u: u, f: f, sc: u.Scope, cost: AllOne(), keep: map[string]bool{}, res: &UnitResult{}}
		for _, nm := range [][2]int64{{1, 1}, {2, 3}, {4, 2}, {5, 5}} {
			in := &interp{m: m}
			want := in.list(u.Body, map[string]int64{"N": nm[0], "M": nm[1]})
			if in.bad {
				continue
			}
			got, ok := res.Summary.Eval(map[string]*big.Rat{"N": big.NewRat(nm[0], 1), "M": big.NewRat(nm[1], 1)}).Value()
			if !ok {
				t.Fatalf("summary %s is not constant at N=%d M=%d\n%s", res.Summary, nm[0], nm[1], src)
			}
			if got.Cmp(want) != 0 {
				t.Fatalf("N=%d M=%d: model %s = %s, interpreter %s\n%s", nm[0], nm[1], res.Summary, got.RatString(), want.RatString(), src)
			}
			checked++
		}
	}
	if checked < 300 {
		t.Errorf("only %d comparisons had no negative trip count", checked)
	}
}

// TestMetamorphic: interchanging two loops over a rectangle, writing an
// intermediate variable inline, and inlining a callee do not change the
// cost.
func TestMetamorphic(t *testing.T) {
	costWith := func(table *CostTable, src string) string {
		f := parser.Parse("m.f", []byte(src), nil)
		if errs := f.Errors(); len(errs) > 0 {
			t.Fatalf("%v\n%s", errs, src)
		}
		return NewEngine(Options{Cost: table}).File(f)[0].Summary.String()
	}
	cost := func(src string) string { return costWith(AllOne(), src) }
	ij := "      SUBROUTINE S(N, M, A)\n      REAL A(N, M)\n      DO 1 I = 1, N\n      DO 1 J = 2, M + 1\n      A(I, J-1) = A(I, J-1) * 2.0 + I\n    1 CONTINUE\n      END\n"
	ji := "      SUBROUTINE S(N, M, A)\n      REAL A(N, M)\n      DO 1 J = 2, M + 1\n      DO 1 I = 1, N\n      A(I, J-1) = A(I, J-1) * 2.0 + I\n    1 CONTINUE\n      END\n"
	// Bounds are evaluated once per execution of the DO statement, so the
	// orders differ in integer work; the fp-one table, which counts none,
	// must see the same cost.
	if a, b := costWith(FPOne(), ij), costWith(FPOne(), ji); a != b || a != "2*M.N" {
		t.Errorf("interchange: %s vs %s, want 2*M.N", a, b)
	}
	// K stands for 2*N + 1: inline, the bound costs 3 (N, *, +) where K
	// costs 1, and the assignment of K costs 4; the loop sums are equal.
	viaK := "      SUBROUTINE S(N)\n      K = 2*N + 1\n      DO 1 I = 1, K\n      X = X + 1.0\n    1 CONTINUE\n      END\n"
	inline := "      SUBROUTINE S(N)\n      DO 1 I = 1, 2*N + 1\n      X = X + 1.0\n    1 CONTINUE\n      END\n"
	a := MustParse(cost(viaK))
	b := MustParse(cost(inline))
	if d := a.Sub(b); !d.Equal(Int(4 + 1 - 3)) {
		t.Errorf("intermediate variable: %s vs %s (difference %s, want 2)", a, b, d)
	}
	// A callee's summary equals the inlined callee.
	callee := "      SUBROUTINE P(N)\n      CALL Q(N + 1)\n      END\n      SUBROUTINE Q(L)\n      DO 1 I = 1, L\n      X = X + 1.0\n    1 CONTINUE\n      END\n"
	inlined := "      SUBROUTINE P(N)\n      DO 1 I = 1, N + 1\n      X = X + 1.0\n    1 CONTINUE\n      END\n"
	// The call costs its argument (N + 1: 2) and the callee; the callee's
	// bound L costs 1 where N + 1 costs 2 inline.
	got := MustParse(cost(callee))
	want := MustParse(cost(inlined))
	if d := got.Sub(want); !d.Equal(Int(2 + 1 - 2)) {
		t.Errorf("call: %s vs inlined %s", got, want)
	}
}
