package partition

import (
	"math"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// TestMemoryShare: a loop streams one element per array and iteration at
// the cost of the first level plus the transfer from the level that holds
// its data (interpolated between levels, scaled by the element size
// against the kernels' 8 bytes), plus the strided extra in a non-unit
// stride loop; its other references reuse cached lines ("load.reuse").
func TestMemoryShare(t *testing.T) {
	m := &machine.Machine{Ops: map[string]float64{"load": 1e-10, "load.reuse": 2e-11, "load.strided": 3e-10},
		Memory: []machine.MemoryLevel{{Bytes: 16384, Load: 1e-10, Store: 1e-10}, {Bytes: 1 << 26, Load: 1e-9, Store: 1e-9}}}
	for _, c := range []struct {
		use  dataUse
		want float64
	}{
		{dataUse{}, 1e-10}, // nothing known: the first level
		{dataUse{bytes: 8000, refs: 6, arrays: 1, elemBytes: 8}, (1e-10 + 5*2e-11) / 6},
		// A model without "load.real": REAL elements at half the time,
		// as vectors.
		{dataUse{bytes: 1e8, refs: 2, arrays: 2, elemBytes: 4}, (1e-10 + 9e-10) / 2},
		// 2 MiB, 7 of the 12 doublings from 16 KiB to 64 MiB: 7/12 of
		// the way from the first level's time to the last's (6.25e-10,
		// not the 64 MiB level's 1e-9).
		{dataUse{bytes: 1 << 21, refs: 2, arrays: 2, elemBytes: 8}, 1e-10 + 7.0/12*9e-10},
		{dataUse{bytes: 1e8, refs: 2, arrays: 2, elemBytes: 8}, 1e-9},
		{dataUse{bytes: 8000, refs: 1, arrays: 1, elemBytes: 8, strided: true}, 3e-10},
	} {
		got, _ := complexity.Seconds(machineTable(m, c.use).Memory[0])
		if math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%+v: reference costs %g, want %g", c.use, got, c.want)
		}
	}
	// A model that measured REAL references at 0.8 of the DOUBLE ones:
	// a unit-stride loop beyond the caches takes the larger of its
	// instructions (0.8 each) and its transfers (the level's time, half
	// for REAL); in the cache its references cost 0.8, reuses 0.8 of
	// theirs; a copy loop (memcpy) half of the first level and the
	// transfer, summed.
	m.Ops["load.real"] = 8e-11
	for _, c := range []struct {
		use  dataUse
		want float64
	}{
		{dataUse{bytes: 1e8, refs: 2, arrays: 2, elemBytes: 4}, math.Max(0.8e-10, 2*1e-9/2/2)},
		{dataUse{bytes: 1e8, refs: 6, arrays: 1, elemBytes: 4}, math.Max((0.8e-10+5*0.8*2e-11)/6, 1e-9/2/6)},
		// 32 KiB, one of 12 doublings to the 1e-9 level: in-core bound
		{dataUse{bytes: 32768, refs: 6, arrays: 1, elemBytes: 4}, (0.8e-10 + 5*0.8*2e-11) / 6},
		{dataUse{bytes: 1e8, refs: 2, arrays: 2, elemBytes: 4, copy: true}, (1e-10 + 9e-10) / 2},
		{dataUse{bytes: 8000, refs: 6, arrays: 1, elemBytes: 4}, 0.8 * (1e-10 + 5*2e-11) / 6},
		{dataUse{bytes: 1e8, refs: 2, arrays: 2, elemBytes: 6}, 1e-9 * 6 / 8}, // transfer bound: 0.9e-10 in-core
		{dataUse{bytes: 1e8, refs: 2, arrays: 2, elemBytes: 8}, 1e-9},
	} {
		got, _ := complexity.Seconds(machineTable(m, c.use).Memory[0])
		if math.Abs(got-c.want) > 1e-15 {
			t.Errorf("load.real: %+v: reference costs %g, want %g", c.use, got, c.want)
		}
	}
	// Without memory levels and reuse times every reference costs "load".
	old := &machine.Machine{Ops: map[string]float64{"load": 5e-10}}
	for _, u := range []dataUse{{}, {bytes: 1e9, refs: 6, arrays: 1, elemBytes: 4, strided: true},
		{bytes: 1e9, refs: 2, arrays: 2, elemBytes: 4}} {
		if got, _ := complexity.Seconds(machineTable(old, u).Memory[0]); math.Abs(got-5e-10) > 1e-15 {
			t.Errorf("old model %+v: %g, want 5e-10", u, got)
		}
	}
}

// TestInnermostStride: an innermost loop walks memory with a unit stride
// when its index moves the first subscript by ±1 and no other.
func TestInnermostStride(t *testing.T) {
	src := `      SUBROUTINE S(A, B, N)
      REAL A(N,N), B(N,N)
      DO 10 J = 1, N
         DO 10 I = 2, N - 1
            A(I,J) = B(I-1,J) + B(I+1,J)
   10 CONTINUE
      DO 20 I = 1, N
         DO 20 J = 1, N
            A(I,J) = B(I,J)
   20 CONTINUE
      DO 30 J = 1, N
         DO 30 I = 1, N, 2
            A(I,J) = 0.0
   30 CONTINUE
      END
`
	f := parser.Parse("s.f", []byte(src), nil)
	u := f.Units[0]
	e := &est{f: f, u: u, sc: u.Scope, d: FromUnit(u, 1, ""), opt: Options{Machine: machine.DefaultMachine()}}
	var loops []*parser.DoConstruct
	for _, s := range u.Body {
		if d, ok := s.(*parser.DoConstruct); ok {
			loops = append(loops, d)
		}
	}
	if len(loops) != 3 {
		t.Fatalf("%d loops", len(loops))
	}
	for i, want := range []struct {
		strided      bool
		refs, arrays int
	}{{false, 3, 2}, {true, 2, 2}, {true, 1, 1}} {
		outer := loops[i]
		inner := outer.Body[0].(*parser.DoConstruct)
		var step int64 = 1
		if inner.Do.Step != nil {
			step = 2
		}
		use, ok := e.innermost(inner, inner.Do.Var.Name, step)
		if !ok || use.strided != want.strided || use.refs != want.refs || use.arrays != want.arrays {
			t.Errorf("loop %d: %+v (innermost %v), want strided %v, %d refs of %d arrays", i+1, use, ok, want.strided, want.refs, want.arrays)
		}
		if _, ok := e.innermost(outer, outer.Do.Var.Name, 1); ok {
			t.Errorf("loop %d: the outer loop taken for an innermost one", i+1)
		}
	}
}
