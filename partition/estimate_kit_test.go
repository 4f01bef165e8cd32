package partition

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
)

// The validation kit's DGEFA (validation/fortrand/dgefa.f): the node
// program (kernels/dgefa.f90) broadcasts, each step K, the pivot row L
// (one INTEGER) and then the N-K factors of column K from the owner of
// column K; it sends T nowhere (only that owner swaps with it).
const kitDgefa = `      PROGRAM DGEFA
      PARAMETER (N = 64)
      DOUBLE PRECISION A(N,N), T
      INTEGER IPVT(N)
      DECOMPOSITION D(N,N)
      ALIGN A WITH D
      DISTRIBUTE D(:,CYCLIC)
      DO 60 K = 1, N-1
         L = K
         DO 10 I = K+1, N
            IF (ABS(A(I,K)) .GT. ABS(A(L,K))) L = I
   10    CONTINUE
         IPVT(K) = L
         T = A(L,K)
         A(L,K) = A(K,K)
         A(K,K) = T
         DO 20 I = K+1, N
            A(I,K) = -A(I,K) / A(K,K)
   20    CONTINUE
         DO 40 J = K+1, N
            T = A(L,J)
            A(L,J) = A(K,J)
            A(K,J) = T
            DO 30 I = K+1, N
               A(I,J) = A(I,J) + T*A(I,K)
   30       CONTINUE
   40    CONTINUE
   60 CONTINUE
      END
`

// TestKitDgefaBroadcasts: one broadcast a step, of L and the column
// together (4 + 8(N-K) bytes) at each step's own size, scheduled step by
// step (bcastSchedule) as the two broadcasts the node program makes; no
// broadcast of T.
func TestKitDgefaBroadcasts(t *testing.T) {
	const n, p = 64, 16
	f, u := parseOne(t, "dgefa.f", kitDgefa)
	m := machine.DefaultMachine()
	for _, format := range []string{"CYCLIC", "BLOCK"} {
		e := EstimateLoop(f, u, firstLoop(t, u, 8, f), WithFormats(u, p, "D", []string{":", format}, f.Dialect), Options{Machine: m, Procs: p})
		if len(e.Messages) != 1 {
			var whys []string
			for _, msg := range e.Messages {
				whys = append(whys, msg.Why)
			}
			t.Fatalf("%s: %d messages (%s), want one broadcast a step", format, len(e.Messages), strings.Join(whys, " | "))
		}
		msg := e.Messages[0]
		if msg.Pattern != "broadcast" || secs(t, msg.Count) != n-1 || secs(t, msg.Bytes) != 4+8*(n-1) ||
			!strings.HasPrefix(msg.Why, "L is computed from A") || !strings.Contains(msg.Why, "A(I,K) is held by one processor") ||
			!strings.Contains(msg.Why, "2 broadcast(s) a step down a binomial tree of 4 levels") {
			t.Errorf("%s: %s %v × %v bytes (%s), want broadcast %d × at most %d bytes of L and A(I,K), two a step, scheduled", format, msg.Pattern, msg.Count, msg.Bytes, msg.Why, n-1, 4+8*(n-1))
		}
		// Each step's column reaches the processors that update with
		// it at least a tree level after its owner sent it, and no
		// later than two broadcasts alone, one after the other.
		lo, hi := 0.0, 0.0
		for k := 1; k < n; k++ {
			b4, _ := m.CommTime("broadcast", p, 4)
			bk, _ := m.CommTime("broadcast", p, float64(8*(n-k)))
			lo += bk / 4
			hi += b4 + bk
		}
		if got := secs(t, e.Comm); got < lo*0.5 || got > hi {
			t.Errorf("%s: communication %g s, want between half a level a step (%g s) and two lone broadcasts a step (%g s)", format, got, lo*0.5, hi)
		}
	}
}

// dgefaMachine is a machine model of p processors with free computation
// (every operation 1e-18 s) whose broadcast takes levels of lambda + beta
// a byte (a binomial tree of ceil(log2 p) levels, one after another),
// and whose send overhead (the exchange's half less the settled shift's)
// is send.
func dgefaMachine(p int, lambda, beta, send float64) *machine.Machine {
	levels := float64(bits.Len(uint(p - 1)))
	ops := map[string]float64{}
	for _, op := range []string{"add", "sub", "mul", "div", "compare", "load", "store", "loop", "iteration", "intrinsic", "logical", "load.reuse"} {
		ops[op] = 1e-18
	}
	return &machine.Machine{Ops: ops, Comm: map[int]map[string]machine.Curve{p: {
		"broadcast":    {{A: levels * lambda, B: levels * beta}},
		"exchange":     {{A: 2 * lambda, B: 2 * beta}},
		"vector-shift": {{A: lambda - send, B: beta}},
	}}}
}

// TestDgefaScheduleByHand: at P = 2 each step's broadcasts go from the
// owner of column K to the other processor. The owner sends L, then the
// column a send overhead s later; the other receives L a level less the
// send overhead (lambda - s + 4 beta) after the owner sent it, and only
// then posts the receive of the column, which arrives lambda - s +
// 8(N-K) beta later. With lambda - s + 4 beta >= s, the receiver's path
// sets the step: 2(lambda - s) + (4 + 8(N-K)) beta a step. Under CYCLIC
// the receiver is the next step's owner; under BLOCK the owner keeps the
// columns up to N/2 and sends 2s a step while the other receives, and
// then the roles swap: the same time, the receiver's.
func TestDgefaScheduleByHand(t *testing.T) {
	const n, p = 64, 2
	const lambda, beta, send = 100e-6, 0.5e-6, 30e-6
	src := strings.Replace(kitDgefa, "PARAMETER (N = 64)", fmt.Sprintf("PARAMETER (N = %d)", n), 1)
	f, u := parseOne(t, "dgefa.f", src)
	m := dgefaMachine(p, lambda, beta, send)
	want := 0.0
	for k := 1; k < n; k++ {
		want += 2*(lambda-send) + float64(4+8*(n-k))*beta
	}
	for _, format := range []string{"CYCLIC", "BLOCK"} {
		e := EstimateLoop(f, u, firstLoop(t, u, 8, f), WithFormats(u, p, "D", []string{":", format}, f.Dialect), Options{Machine: m, Procs: p})
		if got := secs(t, e.Time); math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s: %g s, want %g s", format, got, want)
		}
	}
}

// TestDgefaScheduleLayouts: on curves like the simulated NCUBE/2's (a
// level of 90 µs + 0.535 µs a byte, 35 µs of send overhead, 2.4 Mflop/s
// nodes), the schedule puts BLOCK ahead of CYCLIC at P = 16 and N = 192
// (SMPI: 307 against 356 ms) and at P = 4 and N = 48 (24.1 against 27.7
// ms), and CYCLIC ahead at P = 4 and N = 128 (235 against 265 ms). The
// former pricing, one tree start-up and the bytes once a step, put
// CYCLIC ahead from N ≈ 164 at P = 16 and from N ≈ 36 at P = 4.
func TestDgefaScheduleLayouts(t *testing.T) {
	for _, c := range []struct {
		n, p   int
		faster string
	}{{192, 16, "BLOCK"}, {48, 4, "BLOCK"}, {128, 4, "CYCLIC"}} {
		src := strings.Replace(kitDgefa, "PARAMETER (N = 64)", fmt.Sprintf("PARAMETER (N = %d)", c.n), 1)
		f, u := parseOne(t, "dgefa.f", src)
		m := dgefaMachine(c.p, 90e-6, 0.535e-6, 35e-6)
		for op := range m.Ops {
			m.Ops[op] = 0
		}
		for _, op := range []string{"add", "sub", "mul", "compare"} {
			m.Ops[op] = 1 / 2.4e6
		}
		m.Ops["div"] = 4 / 2.4e6
		time := map[string]float64{}
		for _, format := range []string{"CYCLIC", "BLOCK"} {
			e := EstimateLoop(f, u, firstLoop(t, u, 8, f), WithFormats(u, c.p, "D", []string{":", format}, f.Dialect), Options{Machine: m, Procs: c.p})
			time[format] = secs(t, e.Time)
		}
		other := map[string]string{"BLOCK": "CYCLIC", "CYCLIC": "BLOCK"}[c.faster]
		if time[c.faster] >= time[other] {
			t.Errorf("N=%d P=%d: %s %g s, %s %g s; want %s faster", c.n, c.p, c.faster, time[c.faster], other, time[other], c.faster)
		}
	}
}

// TestKitDgefaSymbolicSum: with N a symbol, the broadcasts are summed over
// K as a polynomial (the machine's large-message line for the sizes that
// depend on N), not N-1 times the largest column.
func TestKitDgefaSymbolicSum(t *testing.T) {
	const p = 16
	src := strings.Replace(kitDgefa, "      PARAMETER (N = 64)\n", "", 1)
	src = strings.Replace(src, "A(N,N), T", "A(1024,1024), T", 1)
	src = strings.Replace(src, "IPVT(N)", "IPVT(1024)", 1)
	src = strings.Replace(src, "D(N,N)", "D(1024,1024)", 1)
	f, u := parseOne(t, "dgefa.f", src)
	m := machine.DefaultMachine()
	e := EstimateLoop(f, u, firstLoop(t, u, 7, f), WithFormats(u, p, "D", []string{":", "CYCLIC"}, f.Dialect), Options{Machine: m, Procs: p})
	if !e.Comm.Has("N") {
		t.Fatalf("communication %v: want a polynomial in N", e.Comm)
	}
	const n = 1000
	got, ok := e.Comm.Subst("N", complexity.Int(n))
	if !ok {
		t.Fatal("cannot substitute N")
	}
	// The line commTime uses for symbolic sizes, and the broadcast's
	// start-up above the vector shift's (msgTime).
	t1, _ := m.CommTime("vector-shift", p, 1<<20)
	t2, _ := m.CommTime("vector-shift", p, 2<<20)
	b := (t2 - t1) / (1 << 20)
	a := t1 - b*(1<<20)
	b0, _ := m.CommTime("broadcast", p, 0)
	v0, _ := m.CommTime("vector-shift", p, 0)
	want := 0.0
	for k := 1; k < n; k++ {
		want += b0 - v0 + a + b*float64(4+8*(n-k))
	}
	if g := secs(t, got); want <= 0 || math.Abs(g-want) > 1e-3*want {
		t.Errorf("communication at N = %d: %g s, want %g s (Σ over K of each step's size)", n, g, want)
	}
}

// TestAbsIsAComparison: ABS costs what a comparison costs (the table's
// "rel", the machine's addition), not an intrinsic call and not nothing.
func TestAbsIsAComparison(t *testing.T) {
	src := `      PROGRAM P
      PARAMETER (N = 1000)
      DOUBLE PRECISION X(N), Y(N), Z(N)
      DO 10 I = 1, N
         Y(I) = %s + Z(I)
   10 CONTINUE
      END
`
	m := &machine.Machine{Ops: map[string]float64{"add": 1e-6, "intrinsic": 1e-4}}
	cost := func(rhs string) float64 {
		f, u := parseOne(t, "p.f", strings.Replace(src, "%s", rhs, 1))
		e := EstimateLoop(f, u, firstLoop(t, u, 4, f), FromUnit(u, 1, f.Dialect), Options{Machine: m, Procs: 1})
		return secs(t, e.Compute)
	}
	if d := cost("ABS(X(I))") - cost("X(I)"); math.Abs(d-1000*1e-6) > 1e-9 {
		t.Errorf("ABS over 1000 elements: %g s more than without, want %g s (1000 comparisons)", d, 1000*1e-6)
	}
	// MIN and MAX of two operands (and their specific names) likewise: one
	// comparison each, where the machine's intrinsic time is its EXP.
	for _, f := range []string{"MAX", "DMAX1", "MIN", "DMIN1"} {
		if d := cost(f+"(X(I), 0.0D0)") - cost("X(I)"); math.Abs(d-1000*1e-6) > 1e-9 {
			t.Errorf("%s over 1000 elements: %g s more than without, want %g s (1000 comparisons)", f, d, 1000*1e-6)
		}
	}
}

// The kit's ERLEBACHER (validation/fortrand/erlebacher.f): the node program
// (kernels/erlebacher.f90) sends, for each column J, the boundary plane's
// elements in blocks of 8 I (seed 000's Figure 2b), and goes on with the
// next sweep as soon as it has sent its last block.
const kitErlebacher = `      PROGRAM ERLE
      PARAMETER (N = 32, NCYCLE = 4)
      REAL A(N), B(N), F(N,N,N)
      DECOMPOSITION DZ(N,N,N)
      ALIGN F WITH DZ
      DISTRIBUTE DZ(:,:,BLOCK)
      DO 100 KC = 1, NCYCLE
         DO 20 K = 2, N-1
            DO 20 J = 1, N
               DO 20 I = 1, N
                  F(I,J,K) = (F(I,J,K) - A(K)*F(I,J,K-1))*B(K)
   20    CONTINUE
  100 CONTINUE
      END
`

// TestKitErlebacherPipeline: blocks of 8 REALs (32 bytes), 32·32/8 = 128
// a sweep, 512 in the 4 sweeps; the fill, (P-1)·(T_stage + T_comm), once,
// and one T_comm for each further block, T_comm a block's hand-off from
// one processor to the next (half an exchange).
func TestKitErlebacherPipeline(t *testing.T) {
	const n, p, ncycle = 32, 16, 4
	f, u := parseOne(t, "erle.f", kitErlebacher)
	m := machine.DefaultMachine()
	e := EstimateLoop(f, u, firstLoop(t, u, 7, f), FromUnit(u, p, f.Dialect), Options{Machine: m, Procs: p})
	if len(e.Messages) != 1 || !e.Messages[0].Pipeline {
		t.Fatalf("messages %v, want one pipeline", e.Messages)
	}
	msg := e.Messages[0]
	const blocks = n * n / 8 // a sweep's
	if secs(t, msg.Count) != ncycle*blocks || secs(t, msg.Bytes) != 8*4 {
		t.Errorf("pipeline %v × %v bytes, want %d × %d", msg.Count, msg.Bytes, ncycle*blocks, 8*4)
	}
	// A block's hand-off: one of EXCH's two stages, at least a shift.
	tComm := math.Max(commTime(t, m, "exchange", 8*4)/2, commTime(t, m, msg.Pattern, 8*4))
	// A stage: 8 of the 32·32 elements of one sweep of the processor's planes.
	stage := secs(t, e.Compute) / ncycle / blocks
	want := (p-1)*(stage+tComm) + (ncycle*blocks-1)*tComm
	if got := secs(t, msg.Time); math.Abs(got-want) > 0.01*want {
		t.Errorf("pipeline %g s, want %g s: the fill once, then a T_comm a block", got, want)
	}
	// Another statement that communicates between the sweeps: each
	// sweep fills the pipeline again.
	src := strings.Replace(kitErlebacher, "  100 CONTINUE\n", "         A(1) = F(1,1,N)\n  100 CONTINUE\n", 1)
	f2, u2 := parseOne(t, "erle2.f", src)
	e2 := EstimateLoop(f2, u2, firstLoop(t, u2, 7, f2), FromUnit(u2, p, f2.Dialect), Options{Machine: m, Procs: p, Values: map[string]*big.Rat{}})
	pipes := 0
	for _, msg := range e2.Messages {
		if msg.Pipeline {
			pipes++
			if got, w := secs(t, msg.Time), ncycle*((p-1)*(stage+tComm)+(blocks-1)*tComm); math.Abs(got-w) > 0.01*w {
				t.Errorf("with a broadcast between the sweeps: pipeline %g s, want %g s (a fill a sweep)", got, w)
			}
		}
	}
	if pipes != 1 {
		t.Errorf("with a broadcast between the sweeps: %d pipelines, want 1 (messages %v)", pipes, e2.Messages)
	}
}

// TestKitDgefaOwnerOverlap: the owner of column K+1 does its pivot search
// and factors (8(N-K-1) operations) once it has updated its own columns
// of step K (2(N-K) an updated column), while the others update theirs:
// a step takes the larger of the busiest processor's update and the next
// owner's update plus its work. Under BLOCK the next owner holds few
// columns and its work hides; under CYCLIC it holds the most, and the
// estimate stays the sum. Every operation costs 1 µs here, divisions 4.
func TestKitDgefaOwnerOverlap(t *testing.T) {
	const n, p = 64, 16
	f, u := parseOne(t, "dgefa.f", kitDgefa)
	m := &machine.Machine{Ops: map[string]float64{"add": 1e-6, "mul": 1e-6, "div": 4e-6}}
	for _, c := range []struct {
		format string
		owner  func(j int) int
	}{
		{"BLOCK", func(j int) int { return (j - 1) / (n / p) }},
		{"CYCLIC", func(j int) int { return (j - 1) % p }},
	} {
		work := func(k int) float64 { // the owner's: 2 ABS and a comparison, a negation and a division
			if k >= n {
				return 0
			}
			return 8 * float64(n-k) * 1e-6
		}
		want := work(1)
		for k := 1; k < n; k++ {
			w := make([]float64, p)
			for j := k + 1; j <= n; j++ {
				w[c.owner(j)] += 2 * float64(n-k) * 1e-6
			}
			want += math.Max(maxFloat(w), w[c.owner(k+1)]+work(k+1))
		}
		e := EstimateLoop(f, u, firstLoop(t, u, 8, f), WithFormats(u, p, "D", []string{":", c.format}, f.Dialect), Options{Machine: m, Procs: p})
		if got := secs(t, e.Compute); math.Abs(got-want) > 0.005*want {
			t.Errorf("%s: computation %g s, want %g s", c.format, got, want)
		}
	}
}
