package partition

import (
	"testing"

	"github.com/pfls/pfls/parser"
)

// Tests of alloc.go written against the mutants left not covered (issue
// 21, docs/mutation-partition.md).

// TestAllocsInternalMoveAlloc: an internal procedure that moves another
// array into U (CALL MOVE_ALLOC(V, U)) may give U another shape: its
// ALLOCATE's bounds are not taken; a call of another procedure with the
// same arguments (not in the file, so no ALLOCATABLE dummy known) leaves
// them.
func TestAllocsInternalMoveAlloc(t *testing.T) {
	for _, c := range []struct {
		call  string
		known bool
	}{
		{"call move_alloc(v, u)", false},
		{"call other(v, u)", true},
	} {
		src := "program p\n  integer, parameter :: n = 500\n  real, allocatable :: u(:), v(:)\n  allocate (u(n))\ncontains\n  subroutine swap\n    " + c.call + "\n  end subroutine\nend program\n"
		f := parser.Parse("p.f90", []byte(src), nil)
		if errs := f.Errors(); len(errs) > 0 {
			t.Fatal(errs)
		}
		u := f.Units[0]
		e := &est{f: f, u: u, sc: u.Scope}
		if got := e.allocs()["U"] != nil; got != c.known {
			t.Errorf("%s in an internal procedure: U's bounds known %v, want %v", c.call, got, c.known)
		}
	}
}
