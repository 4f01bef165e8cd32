package partition

import (
	"fmt"
	"strings"
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

// TestOwnerOverlapReplicatedLoop: a loop of the step that touches no
// distributed array (X is not distributed) is every processor's work
// under the owner-computes rule, the busiest processor's too: it cannot
// hide behind the others' shares as the owner's pivot work does (seed
// 003: a statement on replicated data runs on every processor). Adding
// it to DGEFA's step adds at least its own time at every step.
func TestOwnerOverlapReplicatedLoop(t *testing.T) {
	const n, p, mr = 64, 16, 8
	m := machine.DefaultMachine()
	withLoop := strings.Replace(kitDgefa, "      INTEGER IPVT(N)\n", fmt.Sprintf("      INTEGER IPVT(N)\n      DOUBLE PRECISION X(%d)\n", mr), 1)
	withLoop = strings.Replace(withLoop, "         IPVT(K) = L\n", fmt.Sprintf("         IPVT(K) = L\n         DO 15 M = 1, %d\n            X(M) = X(M) * 1.0001D0\n   15    CONTINUE\n", mr), 1)
	estimate := func(src string, line int) *Estimate {
		f, u := parseOne(t, "dgefa.f", src)
		return EstimateLoop(f, u, firstLoop(t, u, line, f), WithFormats(u, p, "D", []string{":", "BLOCK"}, f.Dialect), Options{Machine: m, Procs: p})
	}
	plain := estimate(kitDgefa, 8)
	if !strings.Contains(strings.Join(plain.Notes, "\n"), "overlaps with the other processors' shares") {
		t.Errorf("DGEFA under BLOCK: no overlap of the owner's work: %q", plain.Notes)
	}
	without := secs(t, plain.Compute)
	with := secs(t, estimate(withLoop, 9).Compute)
	// The replicated loop alone, at one step, times the N-1 steps.
	rep := secs(t, estimate(withLoop, 15).Time) * (n - 1)
	if rep <= 0 || with-without < 0.999*rep {
		t.Errorf("BLOCK: the step's replicated loop adds %g s, want at least its own %g s", with-without, rep)
	}
}
