package partition

import (
	"fmt"
	"math"
	"math/bits"
	"sort"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// bcastSchedule is the time of the loop c whose every iteration k
// broadcasts from the owner of position k what the owner computed there
// (DGEFA's pivot index L and column of factors), with the work of each
// step between the broadcasts, processor by processor: the owner's work
// (the pivot search and the factors), then the broadcasts, then every
// processor's share of the partitioned loop inside (the update).
//
// A broadcast goes down a binomial tree rooted at the step's owner (MPI's
// and SMPI's tree for short messages: the root sends to relative ranks
// P/2, P/4, ..., 1, each receiver forwards to the ranks below its lowest
// set bit). A processor's message arrives a level's time after the later
// of its parent's send and its own call (it has finished its previous
// step: the transfer starts when the receive is posted, as in SMPI), and
// a parent's sends follow one another by the send overhead. The level's
// time is, where the model has them (a simulated platform's training),
// each level's own curve, machine.TreeLevelPattern: the mean over the
// tree's pairs of ranks that far apart, from the parent's start of the
// send to the child's end of the receive, timed in the tree as it runs
// (the parent's other sends going out around it). On a fat tree or a
// torus the pairs of the last level are mostly neighbours and those of
// the first half the machine apart: on the cluster preset at P = 64 a
// level of ranks 1 apart is 1.04 µs at 0 bytes, 32 apart 2.01 µs (a
// leaf switch of 32 nodes, 1 µs within, 2 across), and the kit's DGEFA
// came out within 0.6% at the median there, 1.7% at worst (12% and 18%
// with the level below), and 7.1% and 12.3% on the torus (22%, 29%).
// Without those curves a
// level's time is the trained broadcast curve over the tree's ceil(log2 P)
// levels (the curve times one broadcast alone, until the last processor
// holds the data: the levels one after another), but no less than the
// settled vector shift of the same size: a level is a message from one
// processor to another. The training set times the broadcast on each
// processor from its own exit of a barrier, and where messages cost wire
// latency rather than processor overhead the barrier lets the leaves go
// last, so their wait falls outside their time: on a 4 × 4 × 4 torus of
// 15 µs links (validation/platforms/torus-ethernet.xml) at P = 64 the
// curve is 119.5 µs at 0 bytes, 19.9 µs a level, against 45 µs for the
// shift, and SMPI's tree from rank 0 reaches the last rank after 165 µs
// (27.5 µs a level). With the curve's level the kit's DGEFA came out
// 41-53% low there, 25-35% low on the cluster preset at P = 64 (1.26
// against 2.0 µs); with the shift's, 3-30% and 2-20% high. On ncube2,
// where a message's time is mostly the processors' overheads, the
// curve's level (92 µs at P = 64) is above the shift's (53 µs). The send overhead is
// the trained exchange's half (one message sent and received) less the
// settled vector shift (where a processor sends and receives at once and
// the send's overhead hides), at 0 bytes, and no more than a level.
//
// So the two reasons the layouts differ come out of the schedule. Under
// CYCLIC the owner of step k+1 takes step k's broadcast, updates its
// columns and finds its pivot before it sends: every step pays the path
// from one root to the next, with the owner's work on it. Under BLOCK the
// owner keeps the next steps, sends while the others still forward and
// update the last steps, and the step time is the busiest processor's
// forwarding and update. On the simulated NCUBE/2 at P = 16 (N = 32 to
// 256) the schedule is within 9% of both layouts; the former pricing, one
// tree start-up and the bytes once a step on top of the computation, was
// 10% low under CYCLIC and up to 13% high under BLOCK, and had CYCLIC
// faster from N ≈ 164 where the simulation has BLOCK faster throughout.
//
// parts are the sizes of the broadcasts of a step, as polynomials in idx.
// ok is false when the loop's shares were not recorded step by step, the
// distribution is not along the one dimension of the shares over all the
// processors, or the machine model lacks the curves.
func (e *est) bcastSchedule(c *parser.DoConstruct, parts []Poly, idx string) (float64, string, bool) {
	rec := e.shares[c]
	if rec == nil || rec.index != idx || rec.work == nil || rec.procs == nil || len(rec.procs) != len(rec.k) || len(rec.work) != len(rec.k) || len(parts) == 0 {
		return 0, "", false
	}
	l := e.d.Arrays[rec.array]
	p := e.d.Procs
	if l == nil || rec.dim >= len(l.Dims) || l.Dims[rec.dim].Procs != p || p < 2 || rec.nprocs != int64(p) {
		return 0, "", false
	}
	for i, f := range l.Dims {
		if i != rec.dim && f.Procs > 1 {
			return 0, "", false
		}
	}
	m := e.opt.Machine
	levels := bits.Len(uint(p - 1)) // ceil(log2 p)
	b0, err1 := m.CommTime(machine.PatternBroadcast, p, 0)
	x0, err2 := m.CommTime(machine.PatternExchange, p, 0)
	v0, err3 := m.CommTime(machine.PatternVectorShift, p, 0)
	if err1 != nil || err2 != nil || err3 != nil || b0 <= 0 {
		return 0, "", false
	}
	send := math.Min(math.Max(x0/2-v0, 0), b0/float64(levels))
	// pairs: the model has each level's own curve (the mean pair of
	// ranks that far apart, from its send's start to the receive's end).
	pairs := true
	for mask := 1; mask < p; mask *= 2 {
		pairs = pairs && m.HasPattern(machine.TreeLevelPattern(mask))
	}
	level := func(bytes float64) (float64, bool) {
		t, err := m.CommTime(machine.PatternBroadcast, p, bytes)
		v, err2 := m.CommTime(machine.PatternVectorShift, p, bytes)
		return math.Max(t/float64(levels), v), err == nil && err2 == nil
	}
	// arrival is when relative rank rel holds the data its parent began
	// sending at from, rel having finished its previous step at ready;
	// lv is level(bytes). With the levels' curves: the pair's time from
	// the send's start, or from the receive's post less the send's
	// overhead (SMPI starts a transfer at its receive). Without: lv,
	// less the send overhead the next send adds, after the later of the
	// two.
	arrival := func(rel int, from, ready, lv, bytes float64) (float64, bool) {
		if !pairs {
			return math.Max(from, ready) + lv - send, true
		}
		l, err := m.CommTime(machine.TreeLevelPattern(rel&-rel), p, bytes)
		return math.Max(from+l, ready+l-math.Min(send, l)), err == nil
	}
	order := treeOrder(p)
	t := make([]float64, p)    // each processor's time so far
	sent := make([]float64, p) // when each relative rank's parent sends to it
	hold := make([]float64, p)
	buf := make([]float64, p)
	for i, k := range rec.k {
		share := rec.shareAt(i, buf)
		if len(share) != p {
			return 0, "", false
		}
		root := rec.root[i]
		t[root] += rec.work[i]
		for _, part := range parts {
			bp, ok := part.Subst(idx, complexity.Int(int64(k)))
			if !ok {
				return 0, "", false
			}
			bytes, ok := complexity.Seconds(bp)
			if !ok {
				return 0, "", false
			}
			lv, ok := level(math.Max(bytes, 0))
			if !ok {
				return 0, "", false
			}
			for _, rel := range order {
				q := (rel + root) % p
				at := t[q]
				if rel != 0 {
					if at, ok = arrival(rel, sent[rel], t[q], lv, math.Max(bytes, 0)); !ok {
						return 0, "", false
					}
				}
				// The sends, to the largest relative rank first.
				mask := lowBit(rel, p)
				for mask >>= 1; mask > 0; mask >>= 1 {
					if rel+mask < p {
						sent[rel+mask] = at
						at += send
					}
				}
				hold[q] = at
			}
			copy(t, hold)
		}
		for q := range t {
			t[q] += share[q]
		}
	}
	total := maxFloat(t)
	lv0, _ := level(0)
	desc := fmt.Sprintf("a level %s at 0 bytes (the broadcast curve over its levels)", humanSec(lv0))
	switch {
	case pairs:
		first, _ := m.CommTime(machine.TreeLevelPattern(1), p, 0)
		last, _ := m.CommTime(machine.TreeLevelPattern(1<<(levels-1)), p, 0)
		desc = fmt.Sprintf("a level its pairs' own curve (%s at 0 bytes for neighbours, %s for ranks %d apart)", humanSec(first), humanSec(last), 1<<(levels-1))
	case lv0 > b0/float64(levels):
		desc = fmt.Sprintf("a level %s at 0 bytes (the settled vector shift's, above the broadcast curve over its levels)", humanSec(lv0))
	}
	why := fmt.Sprintf("; scheduled step by step with the work of each step (%s in all): %d broadcast(s) a step down a binomial tree of %d levels from the step's owner, %s, the parent's sends %s apart (the exchange's half less the settled shift's)",
		humanSec(total), len(parts), levels, desc, humanSec(send))
	return total, why, true
}

// treeOrder is the relative ranks of a binomial tree over p processors,
// parents before children and, among the children of one parent, in the
// order the parent sends to them (the largest first).
func treeOrder(p int) []int {
	order := make([]int, p)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := bits.OnesCount(uint(order[i])), bits.OnesCount(uint(order[j]))
		if a != b {
			return a < b
		}
		return order[i] > order[j]
	})
	return order
}

// lowBit is rel's lowest set bit, the mask below which it has children
// in a binomial tree; for the root (0) the power of two at or above p.
func lowBit(rel, p int) int {
	if rel == 0 {
		return 1 << bits.Len(uint(p-1))
	}
	return rel & -rel
}
