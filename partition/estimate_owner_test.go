package partition

import (
	"testing"

	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// TestOnlyAtOwnerZeroTripLoop: the pivot T = A(L,K) stays with the
// owner of column K only when something sets T again before anyone else
// reads it. A DO loop that sets T first does so only when it runs: DO J =
// K+1, N has no iteration at K = N (a DO loop's iteration count is
// MAX((hi-lo+step)/step, 0), F2018 11.1.7.4.1), and then X(K) = T, done by
// every processor (X is not distributed), reads the owner's T: it must be
// broadcast. With K up to N-1 (DGEFA) the J loop always runs and T is
// not sent.
func TestOnlyAtOwnerZeroTripLoop(t *testing.T) {
	const prog = `      PROGRAM P
      PARAMETER (N = 64)
      DOUBLE PRECISION A(N,N), X(N), T
      DECOMPOSITION D(N,N)
      ALIGN A WITH D
      DISTRIBUTE D(:,CYCLIC)
      DO 60 K = 1, HI
         L = K
         T = A(L,K)
         A(L,K) = A(K,K)
         A(K,K) = T
         DO 40 J = K+1, N
            T = A(L,J)
            A(L,J) = A(K,J)
            A(K,J) = T
   40    CONTINUE
         X(K) = T
   60 CONTINUE
      END
`
	for _, c := range []struct {
		hi   string
		sent bool
	}{{"N", true}, {"N-1", false}} {
		src := []byte(prog)
		for i := 0; i+2 <= len(src); i++ {
			if string(src[i:i+2]) == "HI" {
				src = append(src[:i:i], append([]byte(c.hi), src[i+2:]...)...)
				break
			}
		}
		f := parser.Parse("p.f", src, nil)
		if errs := f.Errors(); len(errs) > 0 {
			t.Fatal(errs)
		}
		u := f.Units[0]
		loop := firstLoop(t, u, 7, f)
		e := EstimateLoop(f, u, loop, WithFormats(u, 16, "D", []string{":", "CYCLIC"}, ""), Options{Machine: machine.DefaultMachine(), Procs: 16})
		sent := false
		for _, m := range e.Messages {
			if f.Lines.Line(m.Offset)+1 == 9 {
				sent = true
			}
		}
		if sent != c.sent {
			var got []string
			for _, m := range e.Messages {
				got = append(got, m.Pattern+" ("+m.Why+")")
			}
			t.Errorf("K = 1, %s: T = A(L,K) broadcast %v, want %v; messages %q", c.hi, sent, c.sent, got)
		}
	}
}
