package partition

import (
	"fmt"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

func firstLoop(t *testing.T, u *parser.Unit, line int, f *parser.File) *parser.DoConstruct {
	t.Helper()
	var found *parser.DoConstruct
	var walk func([]parser.Stmt)
	walk = func(list []parser.Stmt) {
		for _, s := range list {
			switch x := s.(type) {
			case *parser.DoConstruct:
				if f.Lines.Line(u.Abs(x.Do.Pos()))+1 == line && found == nil {
					found = x
				}
				walk(x.Body)
			case *parser.IfConstruct:
				for _, a := range x.Arms {
					walk(a.Body)
				}
			}
		}
	}
	walk(u.Body)
	if found == nil {
		t.Fatalf("no loop on line %d", line)
	}
	return found
}

func patterns(e *Estimate) map[string]int {
	out := map[string]int{}
	for _, m := range e.Messages {
		out[m.Pattern]++
	}
	return out
}

// TestRedblack: the paper's example. Blocks send four vectorized shifts
// per sweep, column strips two larger ones; with numbers it is one
// message per sweep per cycle, and the crossover exists: strips first,
// then blocks.
func TestRedblack(t *testing.T) {
	f, u := parseExample(t, "redblack.f")
	loop := firstLoop(t, u, 13, f)
	// The model of the feasibility study's figures (the default before
	// pfls train made one; testdata/feasibility_model.json): its P = 16
	// curves give the paper's shape, a crossover at a few hundred.
	opt := Options{Machine: feasibilityModel(t), Procs: 16}
	blocks := WithFormats(u, 16, "G", []string{"BLOCK", "BLOCK"}, "")
	strips := WithFormats(u, 16, "G", []string{":", "BLOCK"}, "")
	eb := EstimateLoop(f, u, loop, blocks, opt)
	es := EstimateLoop(f, u, loop, strips, opt)
	// BLOCK dimensions do not wrap around: open shifts, and those along
	// the first dimension send a row (one element per column): strided.
	pb := patterns(eb)
	if pb[machine.PatternOpenShift] != 8 || pb[machine.PatternOpenShiftStrided] != 8 || len(eb.Messages) != 16 {
		t.Errorf("blocks: %v in %d messages, want 8 open shifts of columns and 8 of rows (4 per sweep)", pb, len(eb.Messages))
	}
	if n := patterns(es)[machine.PatternOpenShift]; n != 8 || len(es.Messages) != 8 {
		t.Errorf("strips: %d open shifts of %d messages, want 8 (2 per sweep)", n, len(es.Messages))
	}
	for _, m := range eb.Messages {
		// N = 512 on a 4 x 4 grid: the I loop runs 256 red points, 64 or
		// 65 of them in the busiest block, 4 bytes each; once per cycle.
		if c, _ := complexity.Seconds(m.Count); c != 100 {
			t.Errorf("block message count %v, want 100 (NCYCLE)", m.Count)
		}
		if b, _ := complexity.Seconds(m.Bytes); b < 64*4 || b > 65*4 {
			t.Errorf("block message of %v bytes, want 256 to 260", m.Bytes)
		}
	}
	for _, m := range es.Messages {
		if b, _ := complexity.Seconds(m.Bytes); b != 256*4 {
			t.Errorf("strip message of %v bytes, want 1024", m.Bytes)
		}
	}
	cross := Crossovers(f, u, loop, []*Distribution{blocks, strips}, "N", 8, 4096, opt)
	if len(cross) == 0 {
		t.Fatal("no crossover between blocks and strips")
	}
	c := cross[0]
	if c.Below != "G(:,BLOCK)" || c.Above != "G(BLOCK,BLOCK)" || c.Value < 64 || c.Value > 1024 {
		t.Errorf("first crossover %+v: want strips below, blocks above, at a few hundred", c)
	}
	// Below the crossover strips are faster, above it blocks, as the
	// estimate at N prices them.
	at := func(d *Distribution, n int64) float64 {
		o := opt
		o.Values = map[string]*big.Rat{"N": big.NewRat(n, 1)}
		v, _ := complexity.Seconds(EstimateLoop(f, u, loop, WithFormats(u, 16, "G", d.Formats, ""), o).Time)
		return v
	}
	if !(at(strips, c.Value-1) < at(blocks, c.Value-1) && at(blocks, c.Value) <= at(strips, c.Value)) {
		t.Errorf("the crossover at N = %d does not separate the two", c.Value)
	}
}

// TestLoadImbalanceSteps: when N is not a multiple of P the busiest
// processor runs more iterations, so the curve steps.
func TestLoadImbalanceSteps(t *testing.T) {
	f, u := parseExample(t, "redblack.f")
	loop := firstLoop(t, u, 15, f) // one red sweep
	d := WithFormats(u, 16, "G", []string{":", "BLOCK"}, "")
	at := func(n int64) float64 {
		v, _ := complexity.Seconds(EstimateLoop(f, u, loop, d, Options{Machine: machine.DefaultMachine(), Procs: 16,
			Values: map[string]*big.Rat{"N": big.NewRat(n, 1)}}).Compute)
		return v
	}
	// G(0:N+1) has N+2 columns; 16 processors get ceil((N+2)/16) each.
	flat, step := at(446)-at(445), at(447)-at(446)
	if !(step > 2*flat) {
		t.Errorf("no step: t(445..447) increments %g then %g", flat, step)
	}
}

func TestDgefaBreakdown(t *testing.T) {
	f, u := parseExample(t, "dgefa.f")
	loop := firstLoop(t, u, 12, f)
	opt := Options{Machine: machine.DefaultMachine(), Procs: 16}
	cols := EstimateLoop(f, u, loop, WithFormats(u, 16, "D", []string{":", "CYCLIC"}, ""), opt)
	rows := EstimateLoop(f, u, loop, WithFormats(u, 16, "D", []string{"CYCLIC", ":"}, ""), opt)
	pc, pr := patterns(cols), patterns(rows)
	if pc["broadcast"] < 2 || pc["reduction-broadcast"] != 0 {
		t.Errorf("column-cyclic: %v; want the pivot and the column of factors broadcast, no reduction", pc)
	}
	if pr["reduction-broadcast"] != 1 {
		t.Errorf("row-cyclic: %v; want the pivot search as a reduction", pr)
	}
	// The column of factors is one message per step K, not per element.
	for _, m := range cols.Messages {
		if strings.Contains(m.Why, "A(I,K)") {
			if c, _ := complexity.Seconds(m.Count); c > 1023 {
				t.Errorf("factors broadcast %v times, want at most once per K", c)
			}
		}
	}
	tc, ok1 := complexity.Seconds(cols.Time)
	tr, ok2 := complexity.Seconds(rows.Time)
	if !ok1 || !ok2 || tc <= 0 || tr <= 0 {
		t.Errorf("times not numbers: %v %v", cols.Time, rows.Time)
	}
}

func TestMissingAlignIsAllToAll(t *testing.T) {
	f, u := parseExample(t, "example.fcm")
	loop := firstLoop(t, u, 8, f)
	e := EstimateLoop(f, u, loop, FromUnit(u, 16, "cmf"), Options{Machine: machine.DefaultMachine(), Procs: 16})
	p := patterns(e)
	if p["alltoall"] != 1 || p["reduction-broadcast"] != 1 {
		t.Errorf("example.fcm: %v; want the unaligned B as all-to-all and SUM as a reduction", p)
	}
}

func TestSymbolicEstimate(t *testing.T) {
	src := `      SUBROUTINE S(A, N)
      REAL A(N, N)
      DECOMPOSITION D(N, N)
      ALIGN A WITH D
      DISTRIBUTE D(:, BLOCK)
      DO 10 J = 2, N
         DO 10 I = 1, N
            A(I, J) = A(I, J - 1) * 2.0
   10 CONTINUE
      END
`
	f := parser.Parse("s.f", []byte(src), nil)
	u := f.Units[0]
	loop := firstLoop(t, u, 6, f)
	e := EstimateLoop(f, u, loop, FromUnit(u, 4, ""), Options{Machine: machine.DefaultMachine(), Procs: 4})
	if _, ok := complexity.Seconds(e.Time); ok || !e.Time.Has("N") {
		t.Errorf("time %s should stay a polynomial in N", e.Time)
	}
	// The dependence along J keeps the shift inside the J loop: a
	// pipeline. With BLOCK columns only the first local column reads
	// across the boundary, so one message per execution of the J loop.
	if len(e.Messages) != 1 || !machine.VectorShift(e.Messages[0].Pattern) || !e.Messages[0].Pipeline || e.Messages[0].Count.String() != "1" {
		t.Errorf("BLOCK: messages %+v, want one pipelined shift sent once", e.Messages)
	}
	// With CYCLIC columns every column's neighbour is on the next
	// processor: a message per iteration of J.
	cyc := parser.Parse("s.f", []byte(strings.Replace(src, "D(:, BLOCK)", "D(:, CYCLIC)", 1)), nil)
	u = cyc.Units[0]
	e = EstimateLoop(cyc, u, firstLoop(t, u, 6, cyc), FromUnit(u, 4, ""), Options{Machine: machine.DefaultMachine(), Procs: 4})
	if len(e.Messages) != 1 || e.Messages[0].Pattern != machine.PatternVectorShift || !e.Messages[0].Count.Has("N") {
		t.Errorf("CYCLIC: messages %+v, want a circular shift per iteration of J", e.Messages)
	}
}

func BenchmarkEstimateLoop(b *testing.B) {
	src := mustRead(b, "../examples/redblack.f")
	f := parser.Parse("redblack.f", src, nil)
	u := f.Units[0]
	var loop *parser.DoConstruct
	for _, s := range u.Body {
		if d, ok := s.(*parser.DoConstruct); ok {
			loop = d
		}
	}
	d := FromUnit(u, 16, "")
	opt := Options{Machine: machine.DefaultMachine(), Procs: 16}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		EstimateLoop(f, u, loop, d, opt)
	}
}

// BenchmarkRankCandidates ranks the candidate distributions of a loop
// nest over three arrays (target: at most 50 ms).
func BenchmarkRankCandidates(b *testing.B) {
	src := []byte(`      PROGRAM THREE
      PARAMETER (N = 1000)
      REAL X(N,N), Y(N,N), Z(N,N)
      DECOMPOSITION D(N,N)
      ALIGN X, Y, Z WITH D
      DISTRIBUTE D(BLOCK, BLOCK)
      DO 10 J = 2, N - 1
         DO 10 I = 2, N - 1
            X(I,J) = Y(I-1,J) + Y(I+1,J) + Z(I,J-1) + Z(I,J+1)
   10 CONTINUE
      END
`)
	f := parser.Parse("three.f", src, nil)
	u := f.Units[0]
	var loop *parser.DoConstruct
	for _, s := range u.Body {
		if d, ok := s.(*parser.DoConstruct); ok {
			loop = d
		}
	}
	_, cands := Candidates(u, 16, "")
	opt := Options{Machine: machine.DefaultMachine(), Procs: 16}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Rank(f, u, loop, cands, opt)
	}
}

// TestMPINodeProgram: explicit messages are priced from count × type size.
func TestMPINodeProgram(t *testing.T) {
	src := `      PROGRAM NODE
      INCLUDE 'mpif.h'
      INTEGER N, IERR, STATUS(10)
      PARAMETER (N = 1000)
      DOUBLE PRECISION U(N), S
      DO 10 K = 1, 50
         CALL MPI_SENDRECV(U, N, MPI_DOUBLE_PRECISION, 1, 0,
     &        U, N, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD,
     &        STATUS, IERR)
         CALL MPI_ALLREDUCE(S, S, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &        MPI_COMM_WORLD, IERR)
   10 CONTINUE
      END
`
	f := parser.Parse("node.f", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	u := f.Units[0]
	loop := firstLoop(t, u, 6, f)
	e := EstimateLoop(f, u, loop, FromUnit(u, 4, ""), Options{Machine: machine.DefaultMachine(), Procs: 4})
	got := map[string]string{}
	for _, m := range e.Messages {
		got[m.Pattern] = m.Count.String() + "x" + m.Bytes.String()
	}
	if got["exchange"] != "50x8000" || got["reduction-broadcast"] != "50x8" {
		t.Errorf("messages %v, want 50 exchanges of 8000 bytes and 50 reductions of 8", got)
	}
	want, _ := machine.DefaultMachine().CommTime("exchange", 4, 8000)
	red, _ := machine.DefaultMachine().CommTime("reduction-broadcast", 4, 8)
	if c, _ := complexity.Seconds(e.Comm); c < 50*(want+red)*0.999 || c > 50*(want+red)*1.001 {
		t.Errorf("comm %g, want %g", c, 50*(want+red))
	}
}

func feasibilityModel(t *testing.T) *machine.Machine {
	t.Helper()
	fh, err := os.Open("testdata/feasibility_model.json")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	m, err := machine.LoadMachine(fh)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestReviewRegressionsEstimate: estimator inputs a second reading found
// that gave wrong numbers (split from capability's TestReviewRegressions).
func TestReviewRegressionsEstimate(t *testing.T) {
	transpose := `      PROGRAM Z
      PARAMETER (N = 256)
      REAL A(N,N), B(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A, B WITH D
      DISTRIBUTE D(:,BLOCK)
      DO 10 J = 1, N
         DO 10 I = 1, N
            A(I,J) = B(J,I)
   10 CONTINUE
      END
`
	f := parser.Parse("t.f", []byte(transpose), nil)
	e := EstimateLoop(f, f.Units[0], f.Units[0].Body[len(f.Units[0].Body)-1].(*parser.DoConstruct), FromUnit(f.Units[0], 16, ""), Options{Procs: 16})
	if p := patterns(e); p["alltoall"] != 1 || p["broadcast"] != 0 {
		t.Errorf("transpose: %v", p)
	}
	if s, ok := complexity.Seconds(e.Comm); !ok || s <= 0 {
		t.Errorf("transpose comm %v", e.Comm)
	}
	// An IF / ELSE IF / ELSE chain weighs its arms 1/2, 1/4, 1/4.
	chain := `      PROGRAM Z
      PARAMETER (N = 64)
      REAL A(N), B(N)
      DECOMPOSITION D(N)
      ALIGN A, B WITH D
      DISTRIBUTE D(BLOCK)
      DO 10 I = 2, N
         IF (A(I) .GT. 0.0) THEN
            A(I) = B(I-1)
         ELSE IF (A(I) .LT. 0.0) THEN
            A(I) = B(I-1)
         ELSE
            A(I) = B(I-1)
         END IF
   10 CONTINUE
      END
`
	g := parser.Parse("c.f", []byte(chain), nil)
	u := g.Units[0]
	ec := EstimateLoop(g, u, u.Body[len(u.Body)-1].(*parser.DoConstruct), FromUnit(u, 16, ""), Options{Procs: 16})
	total := 0.0
	for _, m := range ec.Messages {
		c, _ := complexity.Seconds(m.Count)
		total += c
	}
	if total != 1 {
		t.Errorf("messages of the IF chain counted %g times, want 1", total)
	}
	if g := factor(1<<16, 2); g[0]*g[1] != 1<<16 || g[0] != 256 {
		t.Errorf("factor(65536, 2) = %v", g)
	}
}

// A sum over distributed data is a reduction combined once, after the
// outermost loop in which the scalar is only accumulated (not a broadcast
// per column), and a reduction intrinsic inside a loop divided among the
// owners of its results is taken part in by every processor for every
// iteration, over the elements of its section.
func TestReductions(t *testing.T) {
	src := `      PROGRAM R
      REAL A(1000, 1000), H(100), S
!HPF$ DISTRIBUTE A(*, BLOCK)
!HPF$ DISTRIBUTE H(BLOCK)
      S = 0.0
      DO 10 J = 1, 1000
         DO 10 I = 1, 1000
            S = S + A(I, J)
   10 CONTINUE
      DO 20 L = 1, 100
         H(L) = MAXVAL(ABS(A(2:999, 2:999)))
   20 CONTINUE
      END
`
	f := parser.Parse("r.f", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	u := f.Units[0]
	opt := Options{Machine: machine.DefaultMachine(), Procs: 4}
	for _, c := range []struct {
		line         int
		count, bytes string
		name         string
	}{{6, "1", "4", "S"}, {10, "100", "4", "MAXVAL"}} {
		e := EstimateLoop(f, u, firstLoop(t, u, c.line, f), FromUnit(u, 4, ""), opt)
		if len(e.Messages) != 1 || e.Messages[0].Pattern != "reduction-broadcast" ||
			e.Messages[0].Count.String() != c.count || e.Messages[0].Bytes.String() != c.bytes {
			for _, m := range e.Messages {
				t.Logf("%s %s x %s: %s", m.Pattern, m.Count, m.Bytes, m.Why)
			}
			t.Errorf("%s: want one reduction-broadcast, %s x %s bytes", c.name, c.count, c.bytes)
		}
		if c.name == "MAXVAL" {
			// 100 reductions of 998² elements, a quarter on each processor.
			per := machine.DefaultMachine().Op("add") + machine.DefaultMachine().Op("load")
			want := 100 * 998 * 998 / 4 * per
			if got, _ := complexity.Seconds(e.Compute); got < want {
				t.Errorf("MAXVAL: computation %g s, want at least %g s (every processor in every reduction)", got, want)
			}
		}
	}
}

// Swapping two rows of a row-distributed matrix moves a row between two
// processors: one message, not a broadcast; the fixed element A(K,K)
// read for the column A(I,K) is a broadcast from the owner of row K, not
// an all-to-all, and the section A(K+1:N,K) of the same array is local.
func TestRowSwapAndFixedElement(t *testing.T) {
	src := `      PROGRAM G
      DOUBLE PRECISION A(100, 100)
      INTEGER P
!HPF$ DISTRIBUTE A(CYCLIC, *)
      DO 10 K = 1, 99
         P = K + 1
         A(K, :) = A(P, :)
         A(K+1:100, K) = A(K+1:100, K) * 2.0
         DO 10 I = K + 1, 100
            A(I, K) = A(I, K) / A(K, K)
   10 CONTINUE
      END
`
	f := parser.Parse("g.f", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	u := f.Units[0]
	e := EstimateLoop(f, u, firstLoop(t, u, 5, f), FromUnit(u, 4, ""), Options{Machine: machine.DefaultMachine(), Procs: 4})
	got := map[string]string{}
	for _, m := range e.Messages {
		got[m.Pattern] += fmt.Sprintf("[%s x %s %v]", m.Count, m.Bytes, m.PointToPoint)
	}
	want := map[string]string{
		machine.PatternVectorShift: "[99 x 800 true]",
		machine.PatternBroadcast:   "[99 x 8 false]",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("messages %v, want %v", got, want)
	}
}

// Whole arrays in an elementwise assignment are read element by element:
// A = B + C with B distributed by columns and A, C by rows moves B
// (all-to-all, a missing ALIGN), C not; CSHIFT is left to its own rules.
func TestWholeArrayAssignment(t *testing.T) {
	src := `      PROGRAM W
      REAL A(100, 100), B(100, 100), C(100, 100)
!HPF$ DISTRIBUTE (BLOCK, *) :: A, C
!HPF$ DISTRIBUTE B(*, BLOCK)
      DO 10 K = 1, 10
         B(K, K) = 1.0
         A = B + ABS(C)
   10 CONTINUE
      END
`
	f := parser.Parse("w.f", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	u := f.Units[0]
	e := EstimateLoop(f, u, firstLoop(t, u, 5, f), FromUnit(u, 4, ""), Options{Machine: machine.DefaultMachine(), Procs: 4})
	var got []string
	for _, m := range e.Messages {
		got = append(got, fmt.Sprintf("%s %s %s x %s %v", m.Pattern, m.Array, m.Count, m.Bytes, m.Relayout))
	}
	// Per pair: B's 100 x 25 local elements of 4 bytes over 4 processors.
	if want := []string{"alltoall B 10 x 2500 true"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("messages %v, want %v", got, want)
	}
}

// The elementwise argument of a reduction is computed by the owners of
// its first array: DOT_PRODUCT(P, Q) with Q laid out differently moves Q
// (all-to-all), then combines the partial sums.
func TestReductionArgumentComm(t *testing.T) {
	src := `      PROGRAM D
      REAL P(1000), Q(1000), S
!HPF$ DISTRIBUTE P(BLOCK)
!HPF$ DISTRIBUTE Q(CYCLIC)
      DO 10 K = 1, 10
         S = DOT_PRODUCT(P, Q)
   10 CONTINUE
      END
`
	f := parser.Parse("d.f", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	u := f.Units[0]
	e := EstimateLoop(f, u, firstLoop(t, u, 5, f), FromUnit(u, 4, ""), Options{Machine: machine.DefaultMachine(), Procs: 4})
	var got []string
	for _, m := range e.Messages {
		got = append(got, fmt.Sprintf("%s %s %s x %s", m.Pattern, m.Array, m.Count, m.Bytes))
	}
	// Q is never written: its all-to-all leaves the loop (250 local
	// elements of 4 bytes over 4 processors); one reduction per iteration.
	want := []string{"alltoall Q 1 x 250", "reduction-broadcast P 10 x 4"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("messages %v, want %v", got, want)
	}
}
