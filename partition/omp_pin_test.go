package partition

import (
	"fmt"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/parser"
)

// Tests that pin the OpenMP model's edges (omp.go), each worked out by
// hand from the formulas at the top of omp.go with ompModel's round
// numbers.

// TestOMPTileFitsShareExactly: an inner loop nest whose footprint is
// exactly a core's share of the last cache level loads its bytes once;
// one that does not fit streams its iterations. On one thread of
// ompModel (1 kB cache, 1 GB/s) the inner loop I = 1, 127 of
// A(I,J) + A(I+1,J) touches rows 1..128 of one column of doubles, 128 ·
// 8 = 1024 bytes, the whole share: 1024 bytes per J, 100 · 1024 =
// 102,400 bytes, 102.4 µs at 1 GB/s, plus the fork of 1 thread, 1 µs.
// (Streamed instead, it would be 127 iterations · 1 stream · 8 bytes =
// 1016 bytes per J, 101.6 µs.)
func TestOMPTileFitsShareExactly(t *testing.T) {
	m := ompModel(t, 1e-12, true)
	src := `program p
  real(8) :: a(128,100)
  integer :: i, j
  !$omp parallel do
  do j = 1, 100
    do i = 1, 127
      a(i,j) = a(i,j) + a(i+1,j)
    end do
  end do
end program p
`
	e := ompEstimate(t, src, 5, 1, m)
	if got, want := ompSeconds(t, e), 102400/1e9+1e-6; !ompNear(got, want) {
		t.Errorf("%.9g s, want %.9g; notes %q", got, want, e.Notes)
	}
}

// TestOMPFootprintAffineRanges: the box an affine subscript spans is
// its coefficient times the index's lowest and highest values, the
// smaller and the larger. Over I = 3, 10: A(2*I) spans 6..20, 15
// doubles; B(21-I) spans 21-10..21-3 = 11..18, 8 doubles: 23 · 8 = 184
// bytes.
func TestOMPFootprintAffineRanges(t *testing.T) {
	f, u := parseOne(t, "fp.f90", `program p
  real(8) :: a(100), b(100)
  integer :: i
  do i = 3, 10
    a(2*i) = b(21-i)
  end do
end program p
`)
	e := &est{f: f, u: u, sc: u.Scope, d: FromUnit(u, 1, ""), opt: Options{Machine: ompModel(t, 1e-6, true)}}
	fp, ok := e.ompFootprint(firstLoop(t, u, 4, f), nil)
	if !ok || fp != 184 {
		t.Errorf("footprint %g bytes (ok %v), want 184", fp, ok)
	}
}

// TestOMPEvenShareValue: a loop whose trip count is not a number (N a
// dummy argument) cannot be dealt out; each of 4 threads takes the even
// quarter of the N iterations of 1 µs, and the fork of 4 threads is 1 +
// log2 4 = 3 µs: N/4 µs + 3 µs, 253 µs at N = 1000.
func TestOMPEvenShareValue(t *testing.T) {
	src := `subroutine s(a, n)
  integer :: n, i
  real(8) :: a(n)
  !$omp parallel do
  do i = 1, n
    a(i) = 0
  end do
end subroutine s
`
	e := ompEstimate(t, src, 5, 4, ompModel(t, 1e-6, false))
	p, ok := e.Time.Subst("N", complexity.Int(1000))
	v, ok2 := complexity.Seconds(p)
	if !ok || !ok2 || !ompNear(v, 253e-6) {
		t.Errorf("time %v, at N = 1000 %.9g s, want 253 µs; notes %q", e.Time, v, e.Notes)
	}
}

// TestOMPShareOverSteppedLoop: the share of a loop whose trip count is
// the enclosing index K is weighed over K's values, counted with its
// step: K = 1, 7, 2 is 1, 3, 5, 7 (⌊6/2⌋ + 1 = 4 values). On 2 threads
// the busiest takes ⌈K/2⌉ of K equal iterations: (1+2+3+4)/(1+3+5+7) =
// 10/16 = 62.5% of the work (in the estimate of the K loop, which
// knows K's values).
func TestOMPShareOverSteppedLoop(t *testing.T) {
	src := `program p
  real(8) :: a(10)
  integer :: i, k
  do k = 1, 7, 2
    !$omp parallel do
    do i = 1, k
      a(i) = 0
    end do
  end do
end program p
`
	e := ompEstimate(t, src, 4, 2, ompModel(t, 1e-6, false))
	if !hasNote(e, "does 62.5% (1/1.6; even would be 1/2) of the work (iterations of equal time, over the 4 iterations of the K loop)") || !hasNote(e, "over the 4 iterations of the K loop") {
		t.Errorf("notes %q, want 62.5%% over 4 values of K", e.Notes)
	}
}

// TestOMPChunksPerExecution: a dynamic loop inside an enclosing loop
// counts the busiest thread's chunks per execution, the mean over the
// enclosing index's values: I = 1, 2*K in chunks of 1 on 2 threads gives
// each thread K chunks, 1, 2 and 3 for K = 1, 2, 3: 2 chunks per
// execution, at 0.01 · log2 2 µs = 10 ns each.
func TestOMPChunksPerExecution(t *testing.T) {
	src := `program p
  real(8) :: a(10)
  integer :: i, k
  do k = 1, 3
    !$omp parallel do schedule(dynamic,1)
    do i = 1, 2*k
      a(i) = 0
    end do
  end do
end program p
`
	e := ompEstimate(t, src, 4, 2, ompModel(t, 1e-6, false))
	if !hasNote(e, "dynamic schedule: 2 chunks on the busiest thread at 10 ns each: 20 ns per execution") {
		t.Errorf("notes %q, want 2 chunks per execution", e.Notes)
	}
}

// TestOMPZeroTrips: a loop of no iterations has no work to share: it
// costs the fork of its region alone, 1 + log2 4 = 3 µs on 4 threads,
// and the share is the even one.
func TestOMPZeroTrips(t *testing.T) {
	src := `program p
  real(8) :: a(10)
  integer :: i
  !$omp parallel do
  do i = 1, 0
    a(i) = 0
  end do
end program p
`
	e := ompEstimate(t, src, 5, 4, ompModel(t, 1e-6, false))
	if got := ompSeconds(t, e); !ompNear(got, 3e-6) || !hasNote(e, "does 25% (1/4) of the work (even share)") {
		t.Errorf("%.9g s, want 3 µs; notes %q", got, e.Notes)
	}
}

// tileLoop is a parallel tile loop over N columns in tiles of BS, whose
// inner loop's MIN bound makes each tile weigh its own columns.
func tileLoop(n, bs int) string {
	return fmt.Sprintf(`program tiles
  integer, parameter :: n = %d, bs = %d
  real(8) :: a(n)
  integer :: j, jj
  !$omp parallel do
  do jj = 1, n, bs
    do j = jj, min(jj + bs - 1, n)
      a(j) = 0
    end do
  end do
end program tiles
`, n, bs)
}

// TestOMPTileCount: JJ = 1, 100, 10 is ⌊(100 − 1 + 10)/10⌋ = 10 tiles
// (no 11th, empty one), each of 1 + 10 iterations of 1 µs. On 4 threads
// the blocks are 3, 3, 2, 2 tiles: the busiest does 33 of 110 µs, 30%.
func TestOMPTileCount(t *testing.T) {
	e := ompEstimate(t, tileLoop(100, 10), 6, 4, ompModel(t, 1e-6, false))
	if !hasNote(e, "the busiest thread does 30% (1/3.333; even would be 1/4) of the work (each iteration weighed by its time)") {
		t.Errorf("notes %q, want 30%% (3 of 10 equal tiles)", e.Notes)
	}
}

// TestOMPTileEnumerateLimit: a tile loop of exactly maxEnumerate tiles
// is still weighed tile by tile: JJ = 1, 511, 2 is 256 tiles, 255 of 2
// columns (1 + 2 µs) and the last of 1 column (1 + 1 µs), 767 µs. On 2
// threads of 128 tiles each the first does 384 µs: 50.1% (1/1.997).
func TestOMPTileEnumerateLimit(t *testing.T) {
	e := ompEstimate(t, tileLoop(511, 2), 6, 2, ompModel(t, 1e-6, false))
	if !hasNote(e, "the busiest thread does 50.1% (1/1.997; even would be 1/2)") {
		t.Errorf("notes %q, want 384/767 = 50.1%%", e.Notes)
	}
}

// TestOMPWeightsSteps: ompWeights lists the iterations of a stepped
// loop at the index's own values, and counts a uniform one's trips with
// the step. I = 1, 7, 2 weighed by I is 1, 3, 5, 7 (⌊(7 − 1 + 2)/2⌋ = 4
// iterations); a body of 2 µs over I = 1, 100, 2 is ⌊101/2⌋ = 50
// iterations of 2 µs.
func TestOMPWeightsSteps(t *testing.T) {
	i := []loopInfo{{index: "I"}}
	nest := []*parser.DoConstruct{nil}
	budget := 100
	w, ok := (&est{}).ompWeights(nest, []ompBound{{complexity.Int(1), complexity.Int(7), complexity.Int(2)}}, i, complexity.Var("I"), map[string]float64{}, &budget)
	if !ok || fmt.Sprint(w.list) != "[1 3 5 7]" || w.n != 4 {
		t.Errorf("I = 1, 7, 2: %v %g (ok %v), want [1 3 5 7] 4", w.list, w.n, ok)
	}
	w, ok = (&est{}).ompWeights(nest, []ompBound{{complexity.Int(1), complexity.Int(100), complexity.Int(2)}}, i, complexity.Int(2), map[string]float64{}, &budget)
	if !ok || w.list != nil || w.n != 50 || w.w != 2 {
		t.Errorf("uniform I = 1, 100, 2: %v n %g w %g (ok %v), want 50 of 2", w.list, w.n, w.w, ok)
	}
}

// TestOMPWeightsBudget: the budget counts every iteration of the nest,
// outer ones included, and a walk that needs exactly the budget stands.
// I = 1, 4 weighed by I needs 4; I = 1, 3 over J = I, 2 (weight I + J)
// needs 3 outer iterations and 2 + 1 + 0 inner ones, 6, the last outer
// iteration (I = 3, no J) taking the budget to 0.
func TestOMPWeightsBudget(t *testing.T) {
	one := func(budget int) (ompRun, bool, int) {
		w, ok := (&est{}).ompWeights([]*parser.DoConstruct{nil}, []ompBound{{complexity.Int(1), complexity.Int(4), complexity.Int(1)}},
			[]loopInfo{{index: "I"}}, complexity.Var("I"), map[string]float64{}, &budget)
		return w, ok, budget
	}
	if w, ok, left := one(4); !ok || fmt.Sprint(w.list) != "[1 2 3 4]" || left != 0 {
		t.Errorf("budget 4: %v (ok %v), %d left; want [1 2 3 4], 0 left", w.list, ok, left)
	}
	if _, ok, _ := one(3); ok {
		t.Errorf("budget 3: 4 iterations were weighed")
	}
	two := func(budget int) (ompRun, bool, int) {
		bounds := []ompBound{{complexity.Int(1), complexity.Int(3), complexity.Int(1)}, {complexity.Var("I"), complexity.Int(2), complexity.Int(1)}}
		w, ok := (&est{}).ompWeights([]*parser.DoConstruct{nil, nil}, bounds, []loopInfo{{index: "I"}, {index: "J"}},
			complexity.Var("I").Add(complexity.Var("J")), map[string]float64{}, &budget)
		return w, ok, budget
	}
	if w, ok, left := two(6); !ok || fmt.Sprint(w.list) != "[2 3 4]" || left != 0 {
		t.Errorf("nest, budget 6: %v (ok %v), %d left; want [2 3 4], 0 left", w.list, ok, left)
	}
	if _, ok, _ := two(5); ok {
		t.Errorf("nest, budget 5: 6 iterations were weighed")
	}
}

// TestOMPScheduleExactLimit: 2⁵³ iterations are still whole numbers in
// a float64 and are dealt in closed form: on 4 threads a static block of
// 2⁵¹ each; one more is past the exact integers, not dealt.
func TestOMPScheduleExactLimit(t *testing.T) {
	budget := 100
	o := &ompInfo{kind: schedStatic}
	busy, total, _, ok := ompSchedule(ompRun{n: 1 << 53, w: 1}, o, 4, 0, &budget)
	if !ok || busy != 1<<51 || total != 1<<53 {
		t.Errorf("2⁵³ iterations: busy %g of %g (ok %v), want 2⁵¹ of 2⁵³", busy, total, ok)
	}
	if _, _, _, ok := ompSchedule(ompRun{n: 1<<53 + 2, w: 1}, o, 4, 0, &budget); ok {
		t.Errorf("2⁵³ + 2 iterations were dealt out")
	}
}

// TestOMPScheduleTallyBudget: weighed iterations dealt in static blocks
// take one budget unit a thread for the tallies: a budget of exactly the
// 2 threads deals 1, 2 | 3, 4 (busiest 7 of 10); a budget of 1 does not.
func TestOMPScheduleTallyBudget(t *testing.T) {
	r := ompRun{list: []float64{1, 2, 3, 4}, n: 4}
	budget := 2
	busy, total, _, ok := ompSchedule(r, &ompInfo{kind: schedStatic}, 2, 0, &budget)
	if !ok || busy != 7 || total != 10 {
		t.Errorf("budget 2: busy %g of %g (ok %v), want 7 of 10", busy, total, ok)
	}
	budget = 1
	if _, _, _, ok := ompSchedule(r, &ompInfo{kind: schedStatic}, 2, 0, &budget); ok {
		t.Errorf("budget 1: dealt out")
	}
}

// TestOMPScheduleDynamicBudget: a dynamic schedule dealt chunk by chunk
// takes a budget unit a thread and one a chunk: 2 + 4 for 4 chunks of 1
// on 2 threads. The first free thread takes the next chunk: 1 and 3 go
// to thread 0 (free at 4), 2 and 4 to thread 1, which finishes last at
// 6 after 2 chunks. A budget of 5 is one short.
func TestOMPScheduleDynamicBudget(t *testing.T) {
	r := ompRun{list: []float64{1, 2, 3, 4}, n: 4}
	o := &ompInfo{kind: schedDynamic, chunk: 1}
	budget := 6
	busy, total, chunks, ok := ompSchedule(r, o, 2, 0, &budget)
	if !ok || busy != 6 || total != 10 || chunks != 2 {
		t.Errorf("budget 6: busy %g of %g, %g chunks (ok %v), want 6 of 10, 2 chunks", busy, total, chunks, ok)
	}
	budget = 5
	if _, _, _, ok := ompSchedule(r, o, 2, 0, &budget); ok {
		t.Errorf("budget 5: dealt out")
	}
	// Ties go to the lowest number: 4 | 2, 2 leaves both threads free
	// at 4; thread 0 is the one that finishes last, with its 1 chunk.
	budget = 100
	busy, _, chunks, ok = ompSchedule(ompRun{list: []float64{4, 2, 2}, n: 3}, o, 2, 0, &budget)
	if !ok || busy != 4 || chunks != 1 {
		t.Errorf("tie: busy %g, %g chunks (ok %v), want 4 and thread 0's 1 chunk", busy, chunks, ok)
	}
	// A tie for the next chunk goes to the lowest number too: after 1 |
	// 2 | 1 both threads are free at 2, and thread 0, which has just
	// taken a chunk, takes the 10 as well: it finishes last at 12 after
	// 3 chunks (thread 1 would have finished at 12 after 2).
	budget = 100
	busy, _, chunks, ok = ompSchedule(ompRun{list: []float64{1, 2, 1, 10}, n: 4}, o, 2, 0, &budget)
	if !ok || busy != 12 || chunks != 3 {
		t.Errorf("tie for a chunk: busy %g, %g chunks (ok %v), want 12 and thread 0's 3 chunks", busy, chunks, ok)
	}
}

// TestOMPStrayEndParallel: an END PARALLEL that closes no region is
// ignored: the DO after it stands in the region that opens next, 64
// iterations of 1 µs on 4 threads (16 µs) and the barrier at its end,
// 0.5 + 0.25 · log2 4 = 1 µs, as in TestOMPRegionBarrierNowait.
func TestOMPStrayEndParallel(t *testing.T) {
	src := `program p
  real(8) :: a(64)
  integer :: i
  !$omp end parallel
  !$omp parallel
  !$omp do
  do i = 1, 64
    a(i) = 0
  end do
  !$omp end do
  !$omp end parallel
end program p
`
	e := ompEstimate(t, src, 7, 4, ompModel(t, 1e-6, false))
	if got := ompSeconds(t, e); !ompNear(got, 17e-6) {
		t.Errorf("%.9g s, want 17 µs; notes %q", got, e.Notes)
	}
}

// TestShareWords: a share is a percentage and the thread count it is
// one over, with the even share beside it where they differ; no share
// is "none".
func TestShareWords(t *testing.T) {
	for _, c := range []struct {
		share float64
		t     int
		want  string
	}{{0, 4, "none"}, {0.25, 4, "25% (1/4)"}, {0.3, 4, "30% (1/3.333; even would be 1/4)"}, {1, 1, "100% (1/1)"}} {
		if got := shareWords(c.share, c.t); got != c.want {
			t.Errorf("shareWords(%g, %d) = %q, want %q", c.share, c.t, got, c.want)
		}
	}
}
