package partition

import (
	"math"
	"testing"

	"github.com/pfls/pfls/machine"
)

// TestMemcpyTime: memcpy's time per 8 bytes moves between the levels'
// memcpy times linearly in log(bytes), as accessAt's do: 0.1 ns at or
// below 16 KiB, 0.2 ns at 1 MiB, 0.8 ns at 64 MiB and past it; at 8 MiB,
// three of the six doublings from 1 to 64 MiB, 0.2 + 0.6·3/6 = 0.5 ns.
// Without memcpy times on the levels, the "copy.memcpy" time at every
// size; without "copy.memcpy", none (ok false).
func TestMemcpyTime(t *testing.T) {
	m := &machine.Machine{Ops: map[string]float64{"copy.memcpy": 1e-10},
		Memory: []machine.MemoryLevel{{Bytes: 16384, Memcpy: 1e-10}, {Bytes: 1 << 20, Memcpy: 2e-10}, {Bytes: 1 << 26, Memcpy: 8e-10}}}
	for _, c := range []struct{ bytes, want float64 }{
		{0, 1e-10}, {16384, 1e-10}, {1 << 20, 2e-10}, {1 << 23, 5e-10}, {1 << 26, 8e-10}, {1 << 30, 8e-10},
	} {
		if got, ok := memcpyTime(m, c.bytes); !ok || math.Abs(got-c.want) > 1e-20 {
			t.Errorf("%g bytes: %g (ok %v), want %g", c.bytes, got, ok, c.want)
		}
	}
	flat := &machine.Machine{Ops: map[string]float64{"copy.memcpy": 3e-10},
		Memory: []machine.MemoryLevel{{Bytes: 16384, Load: 1e-9, Store: 1e-9}, {Bytes: 1 << 26, Load: 2e-9, Store: 2e-9}}}
	if got, ok := memcpyTime(flat, 1<<25); !ok || got != 3e-10 {
		t.Errorf("levels without memcpy times: %g (ok %v), want the op's 3e-10", got, ok)
	}
	old := &machine.Machine{Ops: map[string]float64{"load": 1e-9}, Memory: m.Memory}
	if got, ok := memcpyTime(old, 1<<20); ok {
		t.Errorf("no copy.memcpy: %g, want none", got)
	}
}

// TestCopyLoopMemcpy: the copy-back of TestJacobiRealPinned's Jacobi (N
// = 438, 1.48 MiB of data, REAL) under a model with the memcpy kernel
// takes memcpy's time per 8 bytes at its data's size, here between the
// 1 MiB level (0.2 ns) and the 4 MiB level (0.4 ns) at log2(1.48)/2 of
// the way, times 4/8 for a REAL element; in DOUBLE PRECISION (N = 310,
// 2·312²·8 bytes, 1.49 MiB) times 8/8. The same model without
// "copy.memcpy" keeps the old price, the level's load and store time
// (half of it for REAL), and the sweep costs the same with or without.
func TestCopyLoopMemcpy(t *testing.T) {
	for _, c := range []struct {
		typ  string
		n    float64
		elem float64
	}{{"REAL", 438, 4}, {"DOUBLE PRECISION", 310, 8}} {
		src := `      PROGRAM J
      PARAMETER (N = ` + map[bool]string{true: "438", false: "310"}[c.elem == 4] + `)
      ` + c.typ + ` A(0:N+1,0:N+1), B(0:N+1,0:N+1)
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
		bytes := 2 * (c.n + 2) * (c.n + 2) * c.elem
		ops := map[string]float64{"load": 1e-9, "store": 1e-9, "load.reuse": 5e-10, "load.real": 8e-10, "add": 1e-12, "mul": 1e-12, "copy.memcpy": 1e-10}
		levels := []machine.MemoryLevel{{Bytes: 16384, Load: 1e-9, Store: 1e-9, Memcpy: 1e-10},
			{Bytes: 1 << 20, Load: 1e-9, Store: 1e-9, Memcpy: 2e-10}, {Bytes: 1 << 22, Load: 5e-9, Store: 5e-9, Memcpy: 4e-10}}
		withOps := map[string]float64{}
		oldOps := map[string]float64{}
		for k, v := range ops {
			withOps[k] = v
			if k != "copy.memcpy" {
				oldOps[k] = v
			}
		}
		with := &machine.Machine{Ops: withOps, Memory: levels}
		old := &machine.Machine{Ops: oldOps, Memory: levels}
		frac := math.Log2(bytes/(1<<20)) / 2
		memcpy := 2e-10 + 2e-10*frac
		level := 1e-9 + 4e-9*frac
		est := func(m *machine.Machine, line int) float64 {
			e := EstimateLoop(f, u, firstLoop(t, u, line, f), FromUnit(u, 1, ""), Options{Machine: m, Procs: 1})
			return secs(t, e.Compute)
		}
		if got, want := est(with, 8), c.n*c.n*memcpy*c.elem/8; !near(got, want) {
			t.Errorf("%s copy with memcpy times: %g s, want %g", c.typ, got, want)
		}
		if got, want := est(old, 8), c.n*c.n*2*level*c.elem/8; !near(got, want) {
			t.Errorf("%s copy without copy.memcpy: %g s, want %g (the load and store times)", c.typ, got, want)
		}
		if a, b := est(with, 4), est(old, 4); a != b {
			t.Errorf("%s sweep: %g s with copy.memcpy, %g s without; want the same", c.typ, a, b)
		}
	}
}

// TestJacobiCopyBackDefaultModel: the copy-back of the kit's Jacobi at N
// = 256 on one processor under the built-in model. Its data, A and B of
// 258² REALs, take 532,512 bytes, between the 128 KiB level (memcpy
// 0.1391 ns per 8 bytes) and the 1 MiB level (0.1636 ns), at
// log(532512/131072)/log 8 = 0.6741 of the way: 0.15562 ns per 8 bytes,
// 0.07781 ns a REAL element; and 257 loops (the J loop and 256 I loops)
// at 1.4976 ns each: 0.0837 ns an element in all. Measured on the
// machine of the model (gfortran -O2, which calls memcpy for it): 0.072
// to 0.086 ns an element; the load and store price was 0.32 ns.
func TestJacobiCopyBackDefaultModel(t *testing.T) {
	src := `      PROGRAM J
      PARAMETER (N = 256)
      REAL A(0:N+1,0:N+1), B(0:N+1,0:N+1)
      DO 20 J = 1, N
         DO 20 I = 1, N
            A(I,J) = B(I,J)
   20 CONTINUE
      END
`
	f, u := parseOne(t, "j.f", src)
	e := EstimateLoop(f, u, firstLoop(t, u, 4, f), FromUnit(u, 1, ""), Options{Machine: machine.DefaultMachine(), Procs: 1})
	perElem := secs(t, e.Compute) / (256 * 256)
	frac := math.Log(532512.0/131072) / math.Log(8)
	want := (0.1391e-9+(0.1636e-9-0.1391e-9)*frac)/2 + 257*1.4976372249333691e-9/(256*256)
	if math.Abs(perElem-want) > 1e-4*want {
		t.Errorf("copy-back: %.5g s an element, want %.5g", perElem, want)
	}
	if perElem < 0.072e-9 || perElem > 0.086e-9 {
		t.Errorf("copy-back: %.3g ns an element, outside the measured 0.072-0.086 ns", perElem*1e9)
	}
}
