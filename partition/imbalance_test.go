package partition

import (
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// A column-distributed LU: the trailing update J = K+1, N shrinks with K.
// Under BLOCK the owner of the last columns works at every step, Σ_k
// (N/P)(N-K) ≈ N³/(2P) against the balanced N³/(3P) that CYCLIC deals
// out: BLOCK's computation is about 1.5 times CYCLIC's (the textbook
// reason for CYCLIC), and CYCLIC's is within a few percent of the even
// share. With Even, both are the even share.
func TestTriangularLoadImbalance(t *testing.T) {
	src := `      PROGRAM LU
      INTEGER N
      PARAMETER (N = 480)
      DOUBLE PRECISION A(N, N)
!HPF$ DISTRIBUTE A(*, CYCLIC)
      DO 30 K = 1, N - 1
         DO 20 J = K + 1, N
            DO 10 I = K + 1, N
               A(I, J) = A(I, J) - A(I, K) * A(K, J)
   10       CONTINUE
   20    CONTINUE
   30 CONTINUE
      END
`
	f := parser.Parse("lu.f", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	u := f.Units[0]
	loop := firstLoop(t, u, 6, f)
	compute := func(format string, even bool) float64 {
		d := WithFormats(u, 16, "A", []string{":", format}, "")
		e := EstimateLoop(f, u, loop, d, Options{Machine: machine.DefaultMachine(), Procs: 16, Even: even})
		v, ok := complexity.Seconds(e.Compute)
		if !ok {
			t.Fatalf("%s: computation %v is not a number", format, e.Compute)
		}
		return v
	}
	block, cyclic := compute("BLOCK", false), compute("CYCLIC", false)
	evenBlock, evenCyclic := compute("BLOCK", true), compute("CYCLIC", true)
	if r := block / cyclic; r < 1.4 || r > 1.6 {
		t.Errorf("BLOCK/CYCLIC computation %.3g / %.3g = %.3f, want about 1.5", block, cyclic, r)
	}
	if r := cyclic / evenCyclic; r < 1 || r > 1.05 {
		t.Errorf("CYCLIC %.3g against the even share %.3g: %.3f, want 1 to 1.05", cyclic, evenCyclic, r)
	}
	if evenBlock != evenCyclic {
		t.Errorf("with Even, BLOCK %.3g and CYCLIC %.3g should be the same even share", evenBlock, evenCyclic)
	}
}

// A message placed before a loop whose section is bounded by that loop's
// index (Cholesky's A(J:N,K) read under J = K+1, N, hoisted out of it) is
// as large as the loop needs it at most: its size is a number, not a
// polynomial in J.
func TestHoistedSectionBoundedByLoopIndex(t *testing.T) {
	src := `      PROGRAM C
      DOUBLE PRECISION A(64, 64)
!HPF$ DISTRIBUTE A(*, CYCLIC)
      DO 40 K = 1, 64
         DO 30 J = K + 1, 64
            DO 20 I = J, 64
               A(I, J) = A(I, J) - A(I, K) * A(J, K)
   20       CONTINUE
   30    CONTINUE
   40 CONTINUE
      END
`
	f := parser.Parse("c.f", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	u := f.Units[0]
	e := EstimateLoop(f, u, firstLoop(t, u, 4, f), FromUnit(u, 4, ""), Options{Machine: machine.DefaultMachine(), Procs: 4})
	if len(e.Messages) == 0 {
		t.Fatal("no messages: the column K is needed by every processor")
	}
	for _, m := range e.Messages {
		if _, ok := complexity.Seconds(m.Bytes); !ok {
			t.Errorf("%s of %s: %v bytes, want a number", m.Pattern, m.Array, m.Bytes)
		}
	}
	if _, ok := complexity.Seconds(e.Time); !ok {
		t.Errorf("time %v, want a number", e.Time)
	}
}
