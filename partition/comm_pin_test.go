package partition

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestAffineForms: affine reads a subscript as coefficients and a
// constant, worked out by hand: a unary minus negates every term, a
// product by a constant scales the constant too, PARAMETERs are numbers.
func TestAffineForms(t *testing.T) {
	_, u := parseOne(t, "aff.f90", `program p
  integer, parameter :: n = 4
  integer :: i, j, x
  x = -i
  x = -(i - 2)
  x = +i
  x = 2*(i + 3)
  x = (j + 1)*3 - i
  x = n*(i - 1)
  x = i*j
  x = i - 2*j
end program p
`)
	want := []string{"map[I:-1] 0 true", "map[I:-1] 2 true", "map[I:1] 0 true", "map[I:2] 6 true",
		"map[I:-1 J:3] 3 true", "map[I:4] -4 true", "map[] 0 false",
		"map[I:1 J:-2] 0 true"}
	k := 0
	for _, s := range u.Body {
		a, ok := s.(*parser.AssignStmt)
		if !ok {
			continue
		}
		l, ok := affine(a.RHS, u.Scope)
		if k >= len(want) {
			t.Fatalf("more assignments than expected")
		}
		if got := fmt.Sprint(l.coef, " ", l.konst, " ", ok); got != want[k] && !(want[k] == "map[] 0 false" && !ok) {
			t.Errorf("%s: %s, want %s", parser.ExprString(a.RHS), got, want[k])
		}
		k++
	}
	if k != len(want) {
		t.Errorf("%d assignments, want %d", k, len(want))
	}
}

// TestIsSectionVar: section variables are "$" and the triplet's number
// from 1 (sectionVar); "$" alone, a name or "$" with letters is none.
func TestIsSectionVar(t *testing.T) {
	for v, want := range map[string]bool{sectionVar(1): true, sectionVar(12): true, "$": false, "$A": false, "I": false, "": false} {
		if got := isSectionVar(v); got != want {
			t.Errorf("isSectionVar(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestOutside: a constant subscript is outside a loop of step 1 over
// 2..10 when below 2 or above 10, never at the bounds; a subscript that
// varies, or a loop whose step is not a known positive constant, proves
// nothing.
func TestOutside(t *testing.T) {
	l := loopInfo{index: "I", step: 1, lo: linear{konst: 2}, hi: linear{konst: 10}, bounds: true}
	for k, want := range map[int64]bool{1: true, 2: false, 10: false, 11: true} {
		if got := outside(linear{konst: k}, l); got != want {
			t.Errorf("%d in 2..10: outside %v, want %v", k, got, want)
		}
	}
	if outside(linear{coef: map[string]int64{"J": 1}}, l) {
		t.Errorf("J: outside 2..10")
	}
	l.step = 0
	if outside(linear{konst: 1}, l) {
		t.Errorf("1 outside 2..10 of an unknown step")
	}
}

// TestWholeRefSections: a whole array is the section of all its
// elements, its k-th dimension the section variable $k from its lower
// bound: A(10,0:20) is 1 + $1, 0 + $2.
func TestWholeRefSections(t *testing.T) {
	_, u := parseOne(t, "w.f90", `program p
  real :: a(10,0:20)
  a = 0
end program p
`)
	r, ok := wholeRef(&parser.Ident{Name: "A"}, u.Scope)
	if !ok || !r.ok || len(r.subs) != 2 {
		t.Fatalf("wholeRef: %+v, %v", r, ok)
	}
	for k, want := range []string{"map[$1:1] 1", "map[$2:1] 0"} {
		if got := fmt.Sprint(r.subs[k].coef, " ", r.subs[k].konst); got != want {
			t.Errorf("dimension %d: %s, want %s", k+1, got, want)
		}
		if s, ok := r.sections[sectionVar(k+1)]; !ok || s.dim != k {
			t.Errorf("section %s: %+v, %v", sectionVar(k+1), s, ok)
		}
	}
}

// TestMayDependShiftedWrite: W(V+1) with V from K+1 to N writes
// elements K+2 and up; R(K) reads element K, which V+1 would reach only
// at V = K−1, below V's range: no dependence. R(K+2) is reached at V =
// K+1.
func TestMayDependShiftedWrite(t *testing.T) {
	k := func(c int64) linear { return linear{coef: map[string]int64{"K": 1}, konst: c} }
	w := ref{ok: true, subs: []linear{{coef: map[string]int64{"V": 1}, konst: 1}}}
	all := []loopInfo{{index: "V", step: 1, lo: k(1), hi: linear{coef: map[string]int64{"N": 1}}, bounds: true}}
	if mayDepend(w, ref{ok: true, subs: []linear{k(0)}}, nil, all) {
		t.Errorf("W(V+1), V = K+1..N, against R(K): may depend")
	}
	if !mayDepend(w, ref{ok: true, subs: []linear{k(2)}}, nil, all) {
		t.Errorf("W(V+1), V = K+1..N, against R(K+2): independent")
	}
}

// TestMayDependConstants: constant subscripts meet only when equal:
// W(3) and R(3) do, W(3) and R(-3) never, whatever the sum of the two.
func TestMayDependConstants(t *testing.T) {
	c := func(k int64) ref { return ref{ok: true, subs: []linear{{konst: k}}} }
	if !mayDepend(c(3), c(3), nil, nil) {
		t.Errorf("W(3) against R(3): independent")
	}
	if mayDepend(c(3), c(-3), nil, nil) {
		t.Errorf("W(3) against R(-3): may depend")
	}
}

// TestGridDimTwoByTwo: A(BLOCK,BLOCK) on 4 processors is the 2 × 2 grid
// factor(4, 2) makes: a shift along dimension 1 goes along grid
// dimension 1, along dimension 2 along grid dimension 2 (each with 2
// processors, the least a distributed dimension has); a dimension past
// the array's rank is none.
func TestGridDimTwoByTwo(t *testing.T) {
	l := &Layout{Dims: []DimFormat{{Kind: "BLOCK", Procs: 2}, {Kind: "BLOCK", Procs: 2}}}
	for dim, want := range []int{1, 2, 0} {
		if got := gridDim(l, dim, 4); got != want {
			t.Errorf("dimension %d: grid dimension %d, want %d", dim+1, got, want)
		}
	}
}

// TestGridShiftOneDimension: a shift along one dimension of the grid is
// priced with that dimension's curve alone. On gridModel (open shift 2
// µs, its strided form 1 µs more for packing; grid dimension 1 3 µs,
// dimension 2 1 µs) B(I,J) = A(I-1,J) on (BLOCK,BLOCK) shifts along
// dimension 1, strided: 3 + 1 = 4 µs; B(I,J) = A(I,J-1) along dimension
// 2, contiguous: 1 µs.
func TestGridShiftOneDimension(t *testing.T) {
	for _, c := range []struct {
		read string
		want float64
	}{{"A(I-1,J)", 4e-6}, {"A(I,J-1)", 1e-6}} {
		f, u := parseOne(t, "j.f", strings.Replace(gridJacobi, "A(I-1,J) + A(I+1,J) + A(I,J-1) + A(I,J+1)", c.read, 1))
		e := EstimateLoop(f, u, firstLoop(t, u, 7, f), WithFormats(u, 64, "G", []string{"BLOCK", "BLOCK"}, f.Dialect), Options{Machine: gridModel(2e-6, 3e-6, 1e-6, true), Procs: 64})
		if got := secs(t, e.Comm); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: %g s, want %g s", c.read, got, c.want)
		}
	}
}
