package partition

import (
	"fmt"
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
