package partition

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
)

// Tests of schedule.go written against the mutants that lived (issue
// 21, docs/mutation-partition.md): column Cholesky (one broadcast of
// column K a step, from its owner) on flat curves of seconds, against
// which the operations' microseconds do not count; each schedule
// worked by hand as in TestTreeLevelCurves.

// cholComm estimates column Cholesky of order n under (:, CYCLIC) on p
// processors whose curves (seconds, flat) are given: its communication
// time and its message's reason.
func cholComm(t *testing.T, n, p int, curves map[string]float64) (float64, string) {
	t.Helper()
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
	c := map[string]machine.Curve{
		machine.PatternElementShift: {{A: 1}}, machine.PatternReductionBroadcast: {{A: 2}}, machine.PatternAllToAll: {{A: 3}},
	}
	for k, v := range curves {
		c[k] = machine.Curve{{A: v}}
	}
	m := &machine.Machine{Ops: machine.DefaultMachine().Ops, Comm: map[int]map[string]machine.Curve{p: c}}
	e := EstimateLoop(f, u, firstLoop(t, u, 7, f), WithFormats(u, p, "D", []string{":", "CYCLIC"}, f.Dialect), Options{Machine: m, Procs: p})
	if len(e.Messages) != 1 {
		t.Fatalf("N = %d, P = %d: messages %v, want one broadcast a step", n, p, e.Messages)
	}
	s, _ := complexity.Seconds(e.Comm)
	return s, e.Messages[0].Why
}

// TestScheduleSendOverhead: at P = 2 with a level's own curve (10 s) and
// a send overhead of 3 s (the exchange's half, 4, less the shift's 1,
// under the broadcast's 5 over its one level), N = 3: step 1 from rank
// 0, which sends at 0 and is done at 3; rank 1, waiting since 0, holds
// the column at 10 (its receive posted before the send: the later of
// the send's start plus 10 and its post plus 10 less the overhead).
// Step 2 from rank 1 at 10: rank 0, ready at 3, holds it at 20.
func TestScheduleSendOverhead(t *testing.T) {
	got, why := cholComm(t, 3, 2, map[string]float64{
		machine.PatternBroadcast: 5, machine.PatternVectorShift: 1, machine.PatternExchange: 8, machine.TreeLevelPattern(1): 10,
	})
	if math.Abs(got-20) > 1e-3 {
		t.Errorf("communication %g s, want 20 s", got)
	}
	if !strings.Contains(why, "the parent's sends 3 s apart") {
		t.Errorf("why %q: want the sends 3 s apart", why)
	}
}

// TestScheduleUnevenTree: P = 3, no level curves: a level is the
// broadcast over its ceil(log2 3) = 2 levels (4/2 = 2 s, above the
// shift's 1), no send overhead (the exchange's half is the shift). The
// root sends to relative ranks 2 and 1; rank 2 has no child (2+1 is
// past P). N = 4, roots 0, 1, 2: times [0 2 2], [4 2 4], [6 6 4]: 6 s.
func TestScheduleUnevenTree(t *testing.T) {
	got, _ := cholComm(t, 4, 3, map[string]float64{
		machine.PatternBroadcast: 4, machine.PatternVectorShift: 1, machine.PatternExchange: 2,
	})
	if math.Abs(got-6) > 1e-3 {
		t.Errorf("communication %g s, want 6 s", got)
	}
}

// TestScheduleReasons: the reason names the send overhead, the
// exchange's half less the shift's (6 − 1 = 5 s) but no more than a
// level (the broadcast's 4 s over 2 levels: 2 s); with the levels'
// curves, the first and the last level's (ranks 2 apart at P = 4).
func TestScheduleReasons(t *testing.T) {
	base := map[string]float64{machine.PatternBroadcast: 4, machine.PatternVectorShift: 1, machine.PatternExchange: 12}
	if _, why := cholComm(t, 8, 4, base); !strings.Contains(why, "the parent's sends 2 s apart") {
		t.Errorf("why %q: want the sends 2 s apart", why)
	}
	base[machine.TreeLevelPattern(1)] = 1
	base[machine.TreeLevelPattern(2)] = 10
	if _, why := cholComm(t, 8, 4, base); !strings.Contains(why, "(1 s at 0 bytes for neighbours, 10 s for ranks 2 apart)") {
		t.Errorf("why %q: want the levels of ranks 1 and 2 apart", why)
	}
}

// TestScheduleFreeBroadcast: a model whose broadcast costs nothing at 0
// bytes gives no level to schedule with: the broadcasts are priced by
// their curve, not step by step.
func TestScheduleFreeBroadcast(t *testing.T) {
	_, why := cholComm(t, 8, 4, map[string]float64{machine.PatternBroadcast: 0, machine.PatternVectorShift: 1, machine.PatternExchange: 2})
	if strings.Contains(why, "binomial tree") {
		t.Errorf("why %q: scheduled on a free broadcast", why)
	}
}

// TestScheduleEightRanks: one step (N = 2) from rank 0 on P = 8, no
// level curves: a level is the broadcast's 30 s over its 3 levels, 10
// s, the send overhead 3 s (the exchange's half, 4, less the shift's 1).
// A rank holds the column a level less the overhead after its parent
// began the send (all ranks are idle): rank 0 sends to 4, 2, 1 at 0, 3,
// 6; 4 holds it at 7 and sends to 6 and 5 at 7 and 10; 2 at 10, sends
// to 3 at 10; 1 at 13; 6 at 14, sends to 7 at 14; 5 and 3 at 17; 7 at
// 21 (each rank sends only to those below its lowest set bit): 21 s.
func TestScheduleEightRanks(t *testing.T) {
	got, _ := cholComm(t, 2, 8, map[string]float64{
		machine.PatternBroadcast: 30, machine.PatternVectorShift: 1, machine.PatternExchange: 8,
	})
	if math.Abs(got-21) > 1e-3 {
		t.Errorf("communication %g s, want 21 s", got)
	}
}
