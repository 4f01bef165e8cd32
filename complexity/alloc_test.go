package complexity

import (
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
