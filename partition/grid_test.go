package partition

import (
	"math"
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
)

// A Jacobi sweep of the kit's kind: every point reads its four
// neighbours, so a (BLOCK,BLOCK) layout shifts along both dimensions of
// the processor grid, (:,BLOCK) along one.
const gridJacobi = `      PROGRAM J
      PARAMETER (N = 256)
      REAL A(N,N), B(N,N)
      DECOMPOSITION G(N,N)
      ALIGN A, B WITH G
      DISTRIBUTE G(BLOCK,BLOCK)
      DO 10 J = 2, N-1
         DO 10 I = 2, N-1
            B(I,J) = A(I-1,J) + A(I+1,J) + A(I,J-1) + A(I,J+1)
   10 CONTINUE
      END
`

// gridModel is a model of 64 processors with free computation whose
// open shifts take open (contiguous and strided alike), and, when grid
// is set, whose shifts along the 8 × 8 grid's dimensions take g1 and g2.
func gridModel(open, g1, g2 float64, grid bool) *machine.Machine {
	ops := map[string]float64{}
	for _, op := range []string{"add", "sub", "mul", "div", "compare", "load", "store", "loop", "iteration", "intrinsic", "logical", "load.reuse"} {
		ops[op] = 1e-18
	}
	c := map[string]machine.Curve{
		"vector-shift":       {{A: open}},
		"open-shift":         {{A: open}},
		"open-shift-strided": {{A: open + 1e-6}},
		"exchange":           {{A: 2 * open}},
		"broadcast":          {{A: 6 * open}},
	}
	if grid {
		c["grid-shift-1"] = machine.Curve{{A: g1}}
		c["grid-shift-2"] = machine.Curve{{A: g2}}
	}
	return &machine.Machine{Ops: ops, Comm: map[int]map[string]machine.Curve{64: c}}
}

// TestGridShiftCurves: on the simulated fat tree at P = 64 (two leaf
// switches of 32) the open shift over all ranks takes 2 µs (ranks 31 and
// 32 sit on different leaves), a shift along the 8 × 8 grid's second
// dimension 1 µs (rows of 8 ranks, each on one leaf) and along its first
// 2 µs (ranks r and r + 8 on different leaves for r = 24 to 31). The
// kit's REDBLACK blocks measured 240 µs where pfls said 361 µs (+50%)
// with every shift at the open shift's time; on a 4 × 4 × 4 torus at
// P = 16, 2.44 ms against 4.81 ms (+97%). A shift along a dimension of the
// grid is priced with that dimension's curve (the strided one keeps its
// packing: its curve less the open shift's); a layout over one dimension,
// and a model without the grid curves, keep the open shift's price.
func TestGridShiftCurves(t *testing.T) {
	f, u := parseOne(t, "j.f", gridJacobi)
	loop := firstLoop(t, u, 7, f)
	const open, g1, g2 = 2e-6, 2e-6, 1e-6
	comm := func(m *machine.Machine, formats ...string) (float64, *Estimate) {
		e := EstimateLoop(f, u, loop, WithFormats(u, 64, "G", formats, f.Dialect), Options{Machine: m, Procs: 64})
		return secs(t, e.Comm), e
	}
	// Two shifts along each dimension (I-1, I+1 strided along the
	// first; J-1, J+1 along the second).
	got, e := comm(gridModel(open, g1, g2, true), "BLOCK", "BLOCK")
	if want := 2*(g1+1e-6) + 2*g2; math.Abs(got-want) > 1e-12 {
		t.Errorf("(BLOCK,BLOCK) with the grid curves: %g s, want %g s", got, want)
		for _, m := range e.Messages {
			t.Log(m.Pattern, m.Why)
		}
	}
	for _, m := range e.Messages {
		if !strings.Contains(m.Why, "along dimension") || !strings.Contains(m.Why, "of the processor grid: the grid-shift-") {
			t.Errorf("%s: %q does not say which grid curve priced it", m.Pattern, m.Why)
		}
	}
	if got, _ := comm(gridModel(open, g1, g2, false), "BLOCK", "BLOCK"); math.Abs(got-(2*(open+1e-6)+2*open)) > 1e-12 {
		t.Errorf("(BLOCK,BLOCK) without the grid curves: %g s, want the open shifts' %g s", got, 2*(open+1e-6)+2*open)
	}
	if got, _ := comm(gridModel(open, g1, g2, true), ":", "BLOCK"); math.Abs(got-2*open) > 1e-12 {
		t.Errorf("(:,BLOCK): %g s, want two open shifts over all 64 processors, %g s", got, 2*open)
	}
}

// TestGridDim: the grid dimension of a shift, where the layout's two
// distributed dimensions are the grid pfls makes of P (largest first).
func TestGridDim(t *testing.T) {
	l := func(p ...int) *Layout {
		ly := &Layout{}
		for _, q := range p {
			k := "BLOCK"
			if q == 1 {
				k = "*"
			}
			ly.Dims = append(ly.Dims, DimFormat{Kind: k, Procs: q})
		}
		return ly
	}
	for _, c := range []struct {
		ly         *Layout
		dim, procs int
		want       int
	}{
		{l(8, 8), 0, 64, 1}, {l(8, 8), 1, 64, 2},
		{l(8, 4), 0, 32, 1}, {l(8, 4), 1, 32, 2},
		{l(4, 8), 0, 32, 0}, // not the grid pfls makes of 32
		{l(1, 64), 1, 64, 0}, {l(64, 1), 0, 64, 0},
		{l(4, 1, 4), 0, 16, 1}, {l(4, 1, 4), 2, 16, 2}, {l(4, 1, 4), 1, 16, 0},
		{l(2, 2, 4), 2, 16, 0}, // three distributed dimensions
	} {
		if got := gridDim(c.ly, c.dim, c.procs); got != c.want {
			t.Errorf("gridDim(%v, %d, %d) = %d, want %d", c.ly.Dims, c.dim, c.procs, got, c.want)
		}
	}
}
