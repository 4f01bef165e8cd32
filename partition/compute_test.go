package partition

import (
	"math"
	"testing"

	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// TestAccessAt: between two memory levels the time moves linearly in
// log(bytes); at or below the first level its time, past the last the
// last level's, without levels the "load" and "store" times.
func TestAccessAt(t *testing.T) {
	m := &machine.Machine{Ops: map[string]float64{"load": 7e-11, "store": 8e-11},
		Memory: []machine.MemoryLevel{{Bytes: 1 << 20, Load: 1e-10, Store: 2e-10}, {Bytes: 1 << 25, Load: 1.2e-9, Store: 2.2e-9}}}
	for _, c := range []struct{ bytes, load, store float64 }{
		{0, 1e-10, 2e-10},
		{1 << 20, 1e-10, 2e-10},
		{1 << 21, 1e-10 + 1.1e-9/5, 2e-10 + 2e-9/5}, // one of five doublings
		{1 << 23, 1e-10 + 3*1.1e-9/5, 2e-10 + 3*2e-9/5},
		{1 << 25, 1.2e-9, 2.2e-9},
		{1 << 30, 1.2e-9, 2.2e-9},
	} {
		l, s := accessAt(m, c.bytes)
		if math.Abs(l-c.load) > 1e-18 || math.Abs(s-c.store) > 1e-18 {
			t.Errorf("%g bytes: load %g store %g, want %g %g", c.bytes, l, s, c.load, c.store)
		}
	}
	old := &machine.Machine{Ops: map[string]float64{"load": 7e-11, "store": 8e-11}}
	if l, s := accessAt(old, 1<<22); l != 7e-11 || s != 8e-11 {
		t.Errorf("no levels: %g %g, want the load and store times", l, s)
	}
}

// TestCopyLoop: only an innermost loop whose one statement copies an
// element of one array into another of the same element size is a copy
// loop (memcpy, priced by its bytes).
func TestCopyLoop(t *testing.T) {
	src := `      SUBROUTINE S(A, B, D, N)
      REAL A(N,N), B(N,N)
      DOUBLE PRECISION D(N,N)
      DO 10 J = 1, N
         DO 10 I = 1, N
            A(I,J) = B(I,J)
   10 CONTINUE
      DO 20 J = 1, N
         DO 20 I = 1, N
            A(I,J) = B(I,J) + 1.0
   20 CONTINUE
      DO 30 J = 1, N
         DO 30 I = 1, N
            A(I,J) = A(I+1,J)
   30 CONTINUE
      DO 40 J = 1, N
         DO 40 I = 1, N
            D(I,J) = B(I,J)
   40 CONTINUE
      DO 50 J = 1, N
         DO 50 I = 1, N
            A(I,J) = B(I,J)
            B(I,J) = 0.0
   50 CONTINUE
      DO 60 J = 1, N
         DO 60 I = 1, N, 2
            A(I,J) = B(I,J)
   60 CONTINUE
      END
`
	f := parser.Parse("s.f", []byte(src), nil)
	u := f.Units[0]
	e := &est{f: f, u: u, sc: u.Scope, d: FromUnit(u, 1, ""), opt: Options{Machine: machine.DefaultMachine()}}
	var got []bool
	for _, s := range u.Body {
		d, ok := s.(*parser.DoConstruct)
		if !ok {
			continue
		}
		inner := d.Body[0].(*parser.DoConstruct)
		var step int64 = 1
		if inner.Do.Step != nil {
			step = 2
		}
		use, ok := e.innermost(inner, inner.Do.Var.Name, step)
		if !ok {
			t.Fatalf("loop %d: not innermost", len(got)+1)
		}
		got = append(got, use.copy)
	}
	want := []bool{true, false, false, false, false, false}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Fatalf("copy loops %v, want %v", got, want)
		}
	}
}

// TestJacobiRealPinned: a REAL Jacobi sweep and its copy-back under a
// fixed model, worked out by hand. The sweep's statement has 5
// references, 4 streams (B(I,J), the columns J-1, J, J+1 of A; A(I-1,J)
// and A(I+1,J) share one) and a reuse; the copy 2 streams. Data 1.5 MiB
// of the 2 arrays (N = 438 on one processor: 2·440²·4 bytes ≈ 1.48 MiB)
// sits between the 1 MiB level (1 ns) and the 4 MiB level: at
// log2(1.48)/2 of the way. The model measured REAL references at 0.8 ns
// ("load.real"). The sweep takes the larger of its in-core time (4
// streams at 0.8 ns, the reuse at 0.8 of "load.reuse") and its transfers:
// the layer condition holds (the 4 columns, 7 KiB, fit in half of the
// 1 MiB that runs at the first level's speed), so 2 streams, one per
// array, at the level's time, halved for REAL. The copy, a memcpy, takes
// its 2 references at half the level's time. With a 4 MiB level of 5 ns
// the sweep is in-core bound, with 20 ns transfer bound.
func TestJacobiRealPinned(t *testing.T) {
	src := `      PROGRAM J
      PARAMETER (N = 438)
      REAL A(0:N+1,0:N+1), B(0:N+1,0:N+1)
      DO 10 J = 1, N
         DO 10 I = 1, N
            B(I,J) = 0.25*(A(I-1,J) + A(I+1,J) + A(I,J-1) + A(I,J+1))
   10 CONTINUE
      DO 20 J = 1, N
         DO 20 I = 1, N
            A(I,J) = B(I,J)
   20 CONTINUE
      END
`
	f, u := parseOne(t, "j.f", src)
	const n = 438.0
	bytes := 2 * 440 * 440 * 4.0
	for _, deep := range []float64{5e-9, 20e-9} {
		m := &machine.Machine{Ops: map[string]float64{"load": 1e-9, "store": 1e-9, "load.reuse": 5e-10, "load.real": 8e-10, "add": 1e-12, "mul": 1e-12},
			Memory: []machine.MemoryLevel{{Bytes: 16384, Load: 1e-9, Store: 1e-9}, {Bytes: 1 << 20, Load: 1e-9, Store: 1e-9}, {Bytes: 1 << 22, Load: deep, Store: deep}}}
		level := 1e-9 + (deep-1e-9)*math.Log2(bytes/(1<<20))/2
		inCore := 4*0.8e-9 + 0.8*5e-10
		transfer := 2 * level / 2
		sweep := math.Max(inCore, transfer)
		if (deep == 5e-9) != (inCore > transfer) {
			t.Fatalf("level %g: in-core %g, transfer %g: not the case the test means", deep, inCore, transfer)
		}
		cp := 2 * level / 2
		for i, want := range []float64{n * n * sweep, n * n * cp} {
			line := 4 + 4*i
			e := EstimateLoop(f, u, firstLoop(t, u, line, f), FromUnit(u, 1, ""), Options{Machine: m, Procs: 1})
			got := secs(t, e.Compute)
			// the loops' own overheads ("loop", "iteration") are 0 here
			if !near(got, want) {
				t.Errorf("4 MiB at %g s: loop at line %d: computation %g s, want %g", deep, line, got, want)
			}
		}
	}
}

// TestLayerCondition: a stencil's streams in neighbouring columns of one
// array share one transfer when their columns fit in half of the largest
// working set that runs at the first level's speed (cacheBytes), and each
// transfers its own when they do not.
func TestLayerCondition(t *testing.T) {
	src := `      SUBROUTINE S(A, B)
      REAL A(1000,1000), B(1000,1000)
      DO 10 J = 2, 999
         DO 10 I = 2, 999
            B(I,J) = A(I-1,J) + A(I+1,J) + A(I,J-1) + A(I,J+1)
   10 CONTINUE
      END
`
	f := parser.Parse("s.f", []byte(src), nil)
	u := f.Units[0]
	for _, c := range []struct {
		levels    []machine.MemoryLevel
		cache     float64
		transfers int
	}{
		// 1 MiB as fast as 16 KiB (within a fifth): 4 columns of 4000
		// bytes fit in its half; 2 arrays, 2 transfers
		{[]machine.MemoryLevel{{Bytes: 16384, Load: 1e-10, Store: 1e-10}, {Bytes: 1 << 20, Load: 1.1e-10, Store: 1.1e-10}, {Bytes: 1 << 25, Load: 1e-9, Store: 1e-9}}, 1 << 20, 2},
		// only 16 KiB fast: 16000 bytes of columns over its half
		{[]machine.MemoryLevel{{Bytes: 16384, Load: 1e-10, Store: 1e-10}, {Bytes: 1 << 20, Load: 1.3e-10, Store: 1.3e-10}}, 16384, 0},
		{nil, 0, 0},
	} {
		m := &machine.Machine{Ops: map[string]float64{"load": 1e-10}, Memory: c.levels}
		if got := cacheBytes(m); got != c.cache {
			t.Errorf("%v: cache %g bytes, want %g", c.levels, got, c.cache)
		}
		e := &est{f: f, u: u, sc: u.Scope, d: FromUnit(u, 1, ""), opt: Options{Machine: m}}
		inner := u.Body[len(u.Body)-1].(*parser.DoConstruct).Body[0].(*parser.DoConstruct)
		use, ok := e.innermost(inner, "I", 1)
		if !ok || use.arrays != 4 || use.transfers != c.transfers {
			t.Errorf("%v: %d streams, %d transfers, want 4 and %d", c.levels, use.arrays, use.transfers, c.transfers)
		}
	}
}
