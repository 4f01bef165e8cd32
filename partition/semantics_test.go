package partition

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

func parseOne(t *testing.T, name, src string) (*parser.File, *parser.Unit) {
	t.Helper()
	f := parser.Parse(name, []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	return f, f.Units[0]
}

func notesHave(notes []string, sub string) bool {
	for _, n := range notes {
		if strings.Contains(n, sub) {
			return true
		}
	}
	return false
}

// TestCommSizeIsProcs: a variable MPI_COMM_SIZE sets is the number of
// processes, so a ring of NPROCS-1 steps at P = 16 sends 15 messages of
// each kind, priced by the model's exchange curve at 16 processors.
func TestCommSizeIsProcs(t *testing.T) {
	src := `program ring
  use mpi
  integer, parameter :: nloc = 2048
  double precision :: xt(nloc)
  integer :: nprocs, ierr, step, status(MPI_STATUS_SIZE)
  call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
  do step = 1, nprocs - 1
    call mpi_sendrecv_replace(xt, nloc, MPI_DOUBLE_PRECISION, 1, 1, 0, 1, MPI_COMM_WORLD, status, ierr)
  end do
end program ring
`
	f, u := parseOne(t, "ring.f90", src)
	m := machine.DefaultMachine()
	e := EstimateLoop(f, u, firstLoop(t, u, 7, f), FromUnit(u, 16, f.Dialect), Options{Machine: m, Procs: 16})
	if len(e.Messages) != 1 || e.Messages[0].Count.String() != "15" || e.Messages[0].Bytes.String() != "16384" {
		t.Fatalf("messages %v, want one exchange of 15 × 16384 bytes", e.Messages)
	}
	one, _ := m.CommTime("exchange", 16, 2048*8)
	if c, ok := complexity.Seconds(e.Comm); !ok || c < 15*one*0.999 || c > 15*one*1.001 {
		t.Errorf("communication %v, want 15 × %g s", e.Comm, one)
	}
	if !notesHave(e.Notes, "NPROCS, set by MPI_COMM_SIZE") {
		t.Errorf("notes %q do not say where NPROCS comes from", e.Notes)
	}
}

// TestExitNote: a loop a data-dependent EXIT may leave early is estimated
// for its full trip count and says so; an EXIT of an inner loop does not
// make the outer one stop early, a named EXIT of the outer one does.
func TestExitNote(t *testing.T) {
	src := `program p
  real :: a(100), err
  integer :: it, i
  outer: do it = 1, 500
    do i = 1, 100
      a(i) = a(i) * 0.5
      if (a(i) < 0.0) exit
    end do
    err = a(1)
    if (err < 1e-5) exit
  end do outer
  do it = 1, 50
    do i = 1, 100
      if (a(i) < 0.0) exit outer2
    end do
  end do
  outer2: do it = 1, 50
    do i = 1, 100
      if (a(i) < 0.0) exit outer2
    end do
  end do outer2
end program p
`
	f, u := parseOne(t, "p.f90", src)
	m := machine.DefaultMachine()
	opt := Options{Machine: m, Procs: 4}
	d := FromUnit(u, 4, f.Dialect)
	e := EstimateLoop(f, u, firstLoop(t, u, 4, f), d, opt)
	if !notesHave(e.Notes, "loop IT has a data-dependent EXIT") || !notesHave(e.Notes, "(500 iterations)") {
		t.Errorf("outer loop notes %q, want the EXIT named with 500 iterations", e.Notes)
	}
	if !notesHave(e.Notes, "loop I has a data-dependent EXIT") {
		t.Errorf("notes %q miss the inner loop's own EXIT", e.Notes)
	}
	for _, line := range []int{13} {
		e := EstimateLoop(f, u, firstLoop(t, u, line, f), d, opt)
		if notesHave(e.Notes, "loop I ") || notesHave(e.Notes, "loop IT ") {
			t.Errorf("line %d: notes %q, but EXIT OUTER2 leaves neither loop", line, e.Notes)
		}
	}
	e = EstimateLoop(f, u, firstLoop(t, u, 17, f), d, opt)
	if !notesHave(e.Notes, "loop IT has a data-dependent EXIT") || notesHave(e.Notes, "loop I has") {
		t.Errorf("line 17: notes %q, want the named EXIT on loop IT only", e.Notes)
	}
}

// TestExtrapolationNote: the built-in model was measured at P = 2; a
// report at 16 processors says its communication is extrapolated, one at
// 2 does not.
func TestExtrapolationNote(t *testing.T) {
	src := `      PROGRAM S
      PARAMETER (N = 64)
      REAL A(N)
      DECOMPOSITION D(N)
      ALIGN A WITH D
      DISTRIBUTE D(BLOCK)
      DO 10 I = 2, N
         A(I) = A(I-1)
   10 CONTINUE
      END
`
	f, _ := parseOne(t, "s.f", src)
	m := machine.DefaultMachine()
	if got := m.Procs(); len(got) != 1 || got[0] != 2 {
		t.Skipf("the built-in model holds curves at %v, not at P = 2 only", got)
	}
	for _, tc := range []struct {
		procs int
		want  bool
	}{{16, true}, {2, false}, {1, false}} {
		rs, err := ReportsAt(f, 7, Options{Machine: m, Procs: tc.procs}, ReportOptions{})
		if err != nil || len(rs) != 1 {
			t.Fatal(rs, err)
		}
		got := notesHave(rs[0].Notes, "measured at P = 2 only; at 16 processors its times are extrapolated")
		if tc.procs != 16 {
			got = notesHave(rs[0].Notes, "extrapolated")
		}
		if got != tc.want {
			t.Errorf("P = %d: notes %q, extrapolation note wanted: %v", tc.procs, rs[0].Notes, tc.want)
		}
	}
}

// TestIndirectReference: a scatter-add HIST(B) = HIST(B) + 1, B computed
// from X(I), runs element by element, and HIST(B) lands anywhere in its
// table: two streams (X(I), HIST(B)) and one reuse (the store to the line
// just loaded) at the strided times, per iteration. The data fit the
// first memory level.
func TestIndirectReference(t *testing.T) {
	src := `program h
  integer, parameter :: n = 1000, nbins = 256
  real :: x(n)
  integer :: hist(nbins), i, b
  do i = 1, n
    b = 1 + int(x(i) * (nbins - 1))
    hist(b) = hist(b) + 1
  end do
end program h
`
	f, u := parseOne(t, "h.f90", src)
	m := machine.DefaultMachine()
	if len(m.Memory) == 0 || m.Memory[0].Bytes < 5000 {
		t.Skip("the built-in model has no first memory level holding 5 KB")
	}
	e := EstimateLoop(f, u, firstLoop(t, u, 5, f), FromUnit(u, 1, f.Dialect), Options{Machine: m, Procs: 1})
	got, ok := complexity.Seconds(e.Time)
	if !ok {
		t.Fatalf("time %v is not a number", e.Time)
	}
	stream := max(m.Op("load.strided"), (m.Memory[0].Load+m.Memory[0].Store)/2)
	reuse := min(m.Op("load.reuse.strided"), stream)
	perIter := 2*stream + reuse + m.Op("iteration")
	want := 1000*perIter + m.Op("loop")
	if got < want*0.99 || got > want*1.01 {
		t.Errorf("scatter-add loop %g s, want %g s (1000 × (2 streams + 1 reuse) at the strided times)", got, want)
	}
}

// TestPowerDefinedBound: HALF = 2**(S-1) defined in the body of the S
// loop bounds the inner loop; the estimate sums over S exactly: a loop of
// L stages runs 2^L - 1 inner iterations, so one more stage adds the
// stage's overhead plus 2^L iterations, and the second difference of the
// times over L is 2^(L-1) iterations, each costing what one more
// iteration of a plain loop with the same body costs.
func TestPowerDefinedBound(t *testing.T) {
	const body = `      a(i) = a(i) * 0.5 + 1.0
`
	at := func(src string, line int) float64 {
		t.Helper()
		f, u := parseOne(t, "p.f90", src)
		e := EstimateLoop(f, u, firstLoop(t, u, line, f), FromUnit(u, 1, f.Dialect), Options{Machine: machine.DefaultMachine(), Procs: 1})
		v, ok := complexity.Seconds(e.Time)
		if !ok {
			t.Fatalf("time %v is not a number", e.Time)
		}
		return v
	}
	stages := func(l int) float64 {
		return at(fmt.Sprintf(`program p
  integer, parameter :: logn = %d
  real :: a(64)
  integer :: s, half, i
  do s = 1, logn
    half = 2**(s - 1)
    do i = 1, half
%s    end do
  end do
end program p
`, l, body), 5)
	}
	plain := func(n int) float64 {
		return at(fmt.Sprintf(`program p
  real :: a(64)
  integer :: i
  do i = 1, %d
%s  end do
end program p
`, n, body), 4)
	}
	iter := plain(9) - plain(8)
	if iter <= 0 {
		t.Fatalf("one more iteration costs %g s", iter)
	}
	t3, t4, t5 := stages(3), stages(4), stages(5)
	if got, want := (t5-t4)-(t4-t3), 8*iter; got < want*0.999 || got > want*1.001 {
		t.Errorf("second difference over the stages %g s, want 8 iterations = %g s (times %g, %g, %g)", got, want, t3, t4, t5)
	}
}

// TestMinBoundTiles: a tile loop DO I = II, MIN(II+NB-1, N) runs N
// iterations over all tiles, not one per tile: with NB = 4, N = 9, 10
// and 12 have three tiles each, so their times differ by one and three
// iterations of a plain loop with the same body.
func TestMinBoundTiles(t *testing.T) {
	at := func(src string, line int) float64 {
		t.Helper()
		f, u := parseOne(t, "p.f", src)
		e := EstimateLoop(f, u, firstLoop(t, u, line, f), FromUnit(u, 1, f.Dialect), Options{Machine: machine.DefaultMachine(), Procs: 1})
		v, ok := complexity.Seconds(e.Time)
		if !ok || notesHave(e.Notes, "one iteration") {
			t.Fatalf("time %v, notes %q", e.Time, e.Notes)
		}
		return v
	}
	tiled := func(n int) float64 {
		return at(fmt.Sprintf(`      PROGRAM P
      PARAMETER (N = %d, NB = 4)
      REAL A(16)
      DO 20 II = 1, N, NB
         DO 10 I = II, MIN(II+NB-1, N)
            A(I) = A(I) * 0.5 + 1.0
   10    CONTINUE
   20 CONTINUE
      END
`, n), 4)
	}
	plain := func(n int) float64 {
		return at(fmt.Sprintf(`      PROGRAM P
      REAL A(16)
      DO 10 I = 1, %d
         A(I) = A(I) * 0.5 + 1.0
   10 CONTINUE
      END
`, n), 3)
	}
	iter := plain(9) - plain(8)
	for _, tc := range []struct{ a, b, iters int }{{9, 10, 1}, {9, 12, 3}} {
		got, want := tiled(tc.b)-tiled(tc.a), float64(tc.iters)*iter
		if got < want*0.999 || got > want*1.001 {
			t.Errorf("N = %d against N = %d: %g s more, want %d iterations = %g s", tc.b, tc.a, got, tc.iters, want)
		}
	}
}

// TestCholeskyColumns: the trailing update of a column Cholesky, J = K+1,
// N updating rows J to N. Each step waits for column K, so each step's
// busiest processor sets its time, and its work is the lengths of the
// columns it holds: counted here from the owners directly, BLOCK's
// computation is about 2.4 times CYCLIC's at N = 256, P = 8 (the
// processor holding the long columns right of K is busy at every step).
// A(I,K) and A(J,K) are one column: one broadcast per step, of that
// step's N-K elements.
func TestCholeskyColumns(t *testing.T) {
	const n, p = 256, 8
	src := fmt.Sprintf(`      PROGRAM CHOL
      PARAMETER (N = %d)
      DOUBLE PRECISION A(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A WITH D
      DISTRIBUTE D(:,CYCLIC)
      DO 30 K = 1, N-1
         DO 20 J = K+1, N
            DO 10 I = J, N
               A(I,J) = A(I,J) - A(I,K)*A(J,K)
   10       CONTINUE
   20    CONTINUE
   30 CONTINUE
      END
`, n)
	f, u := parseOne(t, "chol.f", src)
	m := machine.DefaultMachine()
	loop := firstLoop(t, u, 7, f)
	est := func(format string) *Estimate {
		return EstimateLoop(f, u, loop, WithFormats(u, p, "D", []string{":", format}, f.Dialect), Options{Machine: m, Procs: p})
	}
	busiest := func(owner func(j int) int) float64 {
		total := 0.0
		for k := 1; k < n; k++ {
			w := make([]float64, p)
			for j := k + 1; j <= n; j++ {
				w[owner(j)] += float64(n - j + 1)
			}
			total += maxFloat(w)
		}
		return total
	}
	b := n / p
	want := busiest(func(j int) int { return (j - 1) / b }) / busiest(func(j int) int { return (j - 1) % p })
	block, cyclic := est("BLOCK"), est("CYCLIC")
	cb, _ := complexity.Seconds(block.Compute)
	cc, _ := complexity.Seconds(cyclic.Compute)
	if r := cb / cc; r < want*0.95 || r > want*1.05 {
		t.Errorf("BLOCK/CYCLIC computation %g/%g = %.3f, want %.3f from the owners' column lengths", cb, cc, r, want)
	}
	if len(cyclic.Messages) != 1 || cyclic.Messages[0].Pattern != "broadcast" {
		t.Fatalf("messages %v, want one broadcast per step", cyclic.Messages)
	}
	// Scheduled step by step (bcastSchedule): the owner of column K+1
	// updates it only once step K's column has come down the tree to it,
	// at least a level a step (less the send overhead, which the model's
	// curves put at 0 here), and the column reaches everyone within a
	// lone broadcast a step.
	lo, hi := 0.0, 0.0
	for k := 1; k < n; k++ {
		bk, _ := m.CommTime("broadcast", p, float64(8*(n-k)))
		lo += bk / 3
		hi += bk
	}
	if got, _ := complexity.Seconds(cyclic.Comm); got < lo || got > hi || !strings.Contains(cyclic.Messages[0].Why, "binomial tree") {
		t.Errorf("communication %g s, want %g to %g s: one broadcast of N-K elements per step (%v × %v bytes), scheduled (%s)", got, lo, hi, cyclic.Messages[0].Count, cyclic.Messages[0].Bytes, cyclic.Messages[0].Why)
	}
}

// TestPipelineSOR: an in-place sweep over columns distributed by blocks.
// U(I,J-1) is this sweep's new value: the J loop carries it across the
// processors, and the compiler pipelines it in blocks of 8 rows (seed
// 000): ceil(254/8) = 32 messages of 8 reals, with the fill of equation
// 1, (P-1)·(T_stage + T_comm), and (blocks-1)·T_comm for the further
// blocks (each waits for its transfer: see pipeline; T_comm is one of
// EXCH's two stages) on top of the sweep's computation, T_stage being 8 of the 254 rows of the
// processor's columns. U(I,J+1) is an old value: one shift of 254 reals before the
// loop, not part of the pipeline.
func TestPipelineSOR(t *testing.T) {
	src := `      PROGRAM SOR
      PARAMETER (N = 256)
      REAL U(N,N)
      DECOMPOSITION D(N,N)
      ALIGN U WITH D
      DISTRIBUTE D(:,BLOCK)
      DO 20 J = 2, N-1
         DO 10 I = 2, N-1
            U(I,J) = 0.25*(U(I-1,J) + U(I+1,J) + U(I,J-1) + U(I,J+1))
   10    CONTINUE
   20 CONTINUE
      END
`
	const p, rows = 8, 254
	f, u := parseOne(t, "sor.f", src)
	m := machine.DefaultMachine()
	loop := firstLoop(t, u, 7, f)
	e := EstimateLoop(f, u, loop, FromUnit(u, p, f.Dialect), Options{Machine: m, Procs: p})
	var pipe, old *Message
	for _, msg := range e.Messages {
		switch {
		case msg.Pipeline:
			pipe = msg
		case strings.Contains(msg.Why, "U(I,J+1)"):
			old = msg
		}
	}
	if pipe == nil || old == nil || len(e.Messages) != 2 {
		t.Fatalf("messages %v, want a pipeline and one shift of old values", e.Messages)
	}
	if pipe.Count.String() != "32" || pipe.Bytes.String() != "32" {
		t.Errorf("pipeline %v × %v bytes, want 32 × 32", pipe.Count, pipe.Bytes)
	}
	if old.Count.String() != "1" || old.Bytes.String() != fmt.Sprint(rows*4) || old.Loop != loop {
		t.Errorf("old values %v × %v bytes before %v, want 1 × %d before the loop", old.Count, old.Bytes, old.Loop, rows*4)
	}
	compute, _ := complexity.Seconds(e.Compute)
	x, _ := m.CommTime("exchange", p, 32)
	shift, _ := m.CommTime(pipe.Pattern, p, 32)
	tComm := math.Max(x/2, shift) // a block's hand-off: one of EXCH's two stages, at least a shift
	// The stage: 8 rows of the busiest processor's columns, of the whole
	// sweep's computation (the loop's own overhead aside).
	stage := compute * 8 / rows
	want := (p-1)*(stage+tComm) + 31*tComm
	got, _ := complexity.Seconds(pipe.Time)
	if got < want*0.999 || got > want*1.001 {
		t.Errorf("pipeline %g s, want %g s ((P-1)(T_stage + T_comm) + 31 T_comm)", got, want)
	}
}

// TestForallConstruct: a masked FORALL construct over a (BLOCK,BLOCK)
// array is priced over its elements (each processor's block of the
// interior), and its neighbour reads are the four shifts of the values
// before it, sent ahead of it once per execution (whatever the mask),
// never a pipeline: FORALL assigns only after evaluating every
// right-hand side.
func TestForallConstruct(t *testing.T) {
	src := `program rb
  integer, parameter :: n = 66
  real :: u(n,n)
  logical :: red(n,n)
  integer :: i, j, it
!hpf$ processors p(2,2)
!hpf$ distribute (block,block) onto p :: u, red
  do it = 1, 10
    forall (i = 2:n-1, j = 2:n-1, red(i,j))
      u(i,j) = 0.25*(u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1))
    end forall
  end do
end program rb
`
	f, u := parseOne(t, "rb.hpf", src)
	m := machine.DefaultMachine()
	e := EstimateLoop(f, u, firstLoop(t, u, 8, f), FromUnit(u, 4, f.Dialect), Options{Machine: m, Procs: 4})
	if len(e.Messages) != 4 {
		t.Fatalf("messages %v, want four shifts", e.Messages)
	}
	for _, msg := range e.Messages {
		// The 32 interior rows or columns of a block, 4 bytes each, 10 times.
		if msg.Pipeline || msg.Count.String() != "10" || msg.Bytes.String() != "128" || !strings.Contains(msg.Pattern, "shift") {
			t.Errorf("%s of %s: %v × %v bytes (%s), want a shift of 10 × 128 bytes", msg.Pattern, msg.Array, msg.Count, msg.Bytes, msg.Why)
		}
	}
	// Each processor updates its share of the 64×64 interior, 32×32
	// points, half of them under the mask, 10 times: at least the
	// memory time of the first level's loads for those points.
	got, _ := complexity.Seconds(e.Compute)
	if floor := 10 * 32 * 32 * 0.5 * m.Op("load.reuse"); got < floor {
		t.Errorf("computation %g s, below %g s: the FORALL is not priced over its elements", got, floor)
	}
}

// TestRowSwapAndPivotRow: Gaussian elimination with rows distributed
// cyclically. The swap through a replicated ROW, used only in A(P,:) =
// ROW, is two messages between two processors (no broadcast of ROW);
// the pivot row is needed by all: A(K,K) and A(K,K+1:N), read by two
// statements, are one broadcast of the N-K+1 elements of row K per step.
func TestRowSwapAndPivotRow(t *testing.T) {
	const n, p = 200, 8
	src := fmt.Sprintf(`program gauss
  integer, parameter :: n = %d
  real(8) :: a(n,n), row(n)
  integer :: i, k, p
!hpf$ processors procs(8)
!hpf$ distribute a(cyclic,*) onto procs
  do k = 1, n - 1
    p = k + 1
    row = a(k,:)
    a(k,:) = a(p,:)
    a(p,:) = row
    do i = k + 1, n
      a(i,k) = a(i,k) / a(k,k)
      a(i,k+1:n) = a(i,k+1:n) - a(i,k) * a(k,k+1:n)
    end do
  end do
end program gauss
`, n)
	f, u := parseOne(t, "g.hpf", src)
	m := machine.DefaultMachine()
	e := EstimateLoop(f, u, firstLoop(t, u, 7, f), FromUnit(u, p, f.Dialect), Options{Machine: m, Procs: p})
	var swaps int
	var bcast *Message
	for _, msg := range e.Messages {
		switch {
		case msg.PointToPoint:
			swaps++
			if msg.Bytes.String() != fmt.Sprint(8*n) || msg.Count.String() != fmt.Sprint(n-1) {
				t.Errorf("swap message %v × %v bytes, want %d × %d", msg.Count, msg.Bytes, n-1, 8*n)
			}
		case msg.Pattern == "broadcast":
			if bcast != nil {
				t.Errorf("two broadcasts: %s and %s", bcast.Why, msg.Why)
			}
			bcast = msg
		}
	}
	if swaps != 2 || bcast == nil {
		t.Fatalf("messages %v, want two point-to-point swap messages and one broadcast", e.Messages)
	}
	want := 0.0
	for k := 1; k < n; k++ {
		want += chainedBcast(t, m, p, float64(8*(n-k+1)))
	}
	if got, _ := complexity.Seconds(bcast.Time); got < want*0.999 || got > want*1.001 {
		t.Errorf("pivot row broadcasts %g s (%v × %v bytes), want %g s: row K from column K on, per step", got, bcast.Count, bcast.Bytes, want)
	}
}

// TestTreeLevelCurves: a model with each level's own curve
// (machine.TreeLevelPattern: a level of ranks 1 apart 1 s, 2 apart 10 s)
// prices a broadcast tree's edges by their stride, not the broadcast
// curve over its levels (here 1 s a level). Column Cholesky at N = 8 on
// P = 4, CYCLIC: 7 steps from roots 0, 1, 2, 3, 0, 1, 2; the operations
// cost microseconds against seconds, and the send overhead is 0 (the
// exchange's half is the shift). A processor holds the data a level
// after the later of its parent's and its own time (rank order of a
// step: relative rank 2, then 1, then 3 from 2). By hand, the times of
// ranks 0..3 after each step: [0 1 10 11], [22 1 11 21], [32 33 11 22],
// [33 43 44 22], [33 44 54 55], [66 44 55 65], [76 77 55 66]: 77 s.
func TestTreeLevelCurves(t *testing.T) {
	src := `      PROGRAM CHOL
      PARAMETER (N = 8)
      DOUBLE PRECISION A(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A WITH D
      DISTRIBUTE D(:,CYCLIC)
      DO 30 K = 1, N-1
         DO 20 J = K+1, N
            DO 10 I = J, N
               A(I,J) = A(I,J) - A(I,K)*A(J,K)
   10       CONTINUE
   20    CONTINUE
   30 CONTINUE
      END
`
	const p = 4
	f, u := parseOne(t, "chol.f", src)
	loop := firstLoop(t, u, 7, f)
	flat := func(s float64) machine.Curve { return machine.Curve{{From: 0, To: 0, A: s}} }
	curves := map[string]machine.Curve{
		machine.PatternBroadcast: flat(2), machine.PatternVectorShift: flat(1), machine.PatternExchange: flat(2),
		machine.PatternElementShift: flat(1), machine.PatternReductionBroadcast: flat(2), machine.PatternAllToAll: flat(3),
	}
	comm := func(levels bool) float64 {
		c := map[string]machine.Curve{}
		for k, v := range curves {
			c[k] = v
		}
		if levels {
			c[machine.TreeLevelPattern(1)] = flat(1)
			c[machine.TreeLevelPattern(2)] = flat(10)
		}
		m := &machine.Machine{Ops: machine.DefaultMachine().Ops, Comm: map[int]map[string]machine.Curve{p: c}}
		e := EstimateLoop(f, u, loop, WithFormats(u, p, "D", []string{":", "CYCLIC"}, f.Dialect), Options{Machine: m, Procs: p})
		if len(e.Messages) != 1 || !strings.Contains(e.Messages[0].Why, "binomial tree") {
			t.Fatalf("messages %v, want one broadcast a step, scheduled", e.Messages)
		}
		if levels && !strings.Contains(e.Messages[0].Why, "its pairs' own curve") {
			t.Errorf("why %q: want the levels' own curves named", e.Messages[0].Why)
		}
		s, _ := complexity.Seconds(e.Comm)
		return s
	}
	if got := comm(true); got < 76.99 || got > 77.001 {
		t.Errorf("communication %g s with the levels' curves, want 77 s (scheduled by hand)", got)
	}
	// Without them a level is the broadcast over its 2 levels (1 s),
	// every level alike: [0 1 1 2], [4 1 2 3], [5 6 2 4], [6 7 8 4],
	// [6 8 9 10], [12 8 10 11], [13 14 10 12]: 14 s.
	if got := comm(false); got < 13.99 || got > 14.001 {
		t.Errorf("communication %g s without the levels' curves, want 14 s", got)
	}
}
