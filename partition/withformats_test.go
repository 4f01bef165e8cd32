package partition

import (
	"testing"

	"github.com/pfls/pfls/parser"
)

// TestWithFormatsKeepsArrangement: a candidate with as many distributed
// dimensions as the ONTO arrangement has is laid on that arrangement
// (2 × 8 here, not the even 4 × 4), since the code action keeps ONTO;
// one with fewer takes all the processors.
func TestWithFormatsKeepsArrangement(t *testing.T) {
	src := `program w
  integer, parameter :: n = 64
  real :: x(n,n)
!hpf$ processors p(2,8)
!hpf$ distribute x(block,block) onto p
  x = 0.0
end program w
`
	f := parser.Parse("w.hpf", []byte(src), nil)
	u := f.Units[0]
	procs := func(d *Distribution) []int {
		var out []int
		for _, df := range d.Arrays["X"].Dims {
			out = append(out, df.Procs)
		}
		return out
	}
	if got := procs(WithFormats(u, 16, "X", []string{"CYCLIC", "BLOCK"}, "")); got[0] != 2 || got[1] != 8 {
		t.Errorf("(CYCLIC,BLOCK) onto p(2,8): %v", got)
	}
	if got := procs(WithFormats(u, 16, "X", []string{":", "BLOCK"}, "")); got[0] != 1 || got[1] != 16 {
		t.Errorf("(:,BLOCK): %v", got)
	}
	// On another processor count the arrangement does not hold them all.
	if got := procs(WithFormats(u, 4, "X", []string{"BLOCK", "BLOCK"}, "")); got[0] != 2 || got[1] != 2 {
		t.Errorf("(BLOCK,BLOCK) on 4: %v", got)
	}
}
