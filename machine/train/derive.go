package train

// Curves made rather than measured: pfls train at a large processor count
// on a simulated platform (SMPI). There every message is simulated, and a
// circular shift at P = 1024 costs 0.4 s of this machine a call, and
// with the 3 log2 P + 4 untimed calls before the timed ones (see warm_up
// in trainer/pfls-train.c) one size takes seconds to a minute. The settled
// neighbour curves do not depend on P where every neighbour is one link
// away (ncube2: ranks in Gray-code order on a hypercube): measured at
// P = 16, 64, 256 and 1024 they agree within 1%. A pairwise all-to-all
// (SMPI's pair: P − 1 steps, at step k rank r swaps with r XOR k, the
// pairs of a step sharing no link) takes P − 1 steps whose time grows
// with the distance of the partners: on ncube2 at 8 bytes a step took
// 75.6, 81.7, 86.0, 90.6 and 100.2 µs at P = 16, 64, 128, 256 and 1024,
// the partners 2.13, 3.05, 3.53, 4.02 and 5.00 links apart on average
// (10 µs a link). (P − 1 times halo-2, 91.5 µs a step, was right within
// 1% at P = 256 and 8.7% low at 1024.) So at a large P the trainer
// measures the collectives only, takes the neighbour curves from a
// smaller P of the same platform and makes the all-to-all from the one
// measured there, and the model's provenance says which curves were
// made so and from what.

import (
	"fmt"
	"sort"

	"github.com/pfls/pfls/machine"
)

// NeighbourPatterns are the patterns of a rank with its neighbours only,
// whose settled time per call DeriveCurves takes from a smaller
// processor count.
var NeighbourPatterns = []string{
	machine.PatternElementShift, machine.PatternVectorShift, machine.PatternOpenShift,
	machine.PatternOpenShiftStrided, machine.PatternExchange, machine.PatternHalo2, machine.PatternHalo4,
	machine.PatternGridShift1, machine.PatternGridShift2,
}

// CollectivePatterns are the patterns that involve every rank, which
// grow with P and are measured at every processor count trained.
var CollectivePatterns = []string{machine.PatternBroadcast, machine.PatternReductionBroadcast}

// Pairwise describes a platform whose all-to-all is the pairwise
// exchange (P − 1 steps, at step k rank r swaps with r XOR k) on a
// hypercube with the ranks in Gray-code order: at step k the partners are
// popcount(gray(k)) links apart, log2(P)·P/2/(P − 1) on average, and each
// link adds HopLatency seconds to a message.
type Pairwise struct {
	HopLatency float64
}

// MeanHops is the mean distance in links of the pairwise exchange's
// partners on a hypercube of p nodes (a power of two), ranks in Gray-code
// order: the mean number of ones of the numbers 1 to p − 1.
func MeanHops(p int) float64 {
	d := 0
	for 1<<d < p {
		d++
	}
	return float64(d) * float64(p) / 2 / float64(p-1)
}

// DeriveCurves fills the curves of m at processor count target that the
// training run there did not measure: each neighbour pattern is a copy of
// its curve at base. With pairwise (the all-to-all is the pairwise
// exchange) it also makes the all-to-all: the one measured at base, a
// step of it (its time over base − 1) times target − 1, each step
// longer by the links its partners are further apart on average
// (MeanHops) times the hop latency; without an all-to-all at base (or a
// hop latency), the halo-2 curve at base times target − 1 (one swap with
// a neighbour a step). Curves measured at target stay. It returns what it
// made, in a fixed order, and also appends it to the provenance of m.
func DeriveCurves(m *machine.Machine, target, base int, pairwise *Pairwise) ([]machine.DerivedCurve, error) {
	from := m.Comm[base]
	switch {
	case target < 2 || base < 2:
		return nil, fmt.Errorf("deriving curves at P=%d from P=%d: both need at least 2 processors", target, base)
	case target == base:
		return nil, fmt.Errorf("deriving curves at P=%d from itself", target)
	case len(from) == 0:
		return nil, fmt.Errorf("deriving curves at P=%d: the model has none at P=%d to derive them from", target, base)
	}
	if m.Comm[target] == nil {
		m.Comm[target] = map[string]machine.Curve{}
	}
	to := m.Comm[target]
	var made []machine.DerivedCurve
	derive := func(pattern, fromPattern string, scale, add float64) {
		c, ok := from[fromPattern]
		if _, measured := to[pattern]; measured || !ok {
			return
		}
		to[pattern] = scaleCurve(c, scale, add)
		made = append(made, machine.DerivedCurve{Procs: target, Pattern: pattern, FromProcs: base, FromPattern: fromPattern, Scale: scale, Add: add})
	}
	for _, p := range NeighbourPatterns {
		derive(p, p, 1, 0)
	}
	if pairwise != nil {
		steps := float64(target - 1)
		if _, ok := from[machine.PatternAllToAll]; ok && pairwise.HopLatency > 0 {
			derive(machine.PatternAllToAll, machine.PatternAllToAll, steps/float64(base-1),
				steps*(MeanHops(target)-MeanHops(base))*pairwise.HopLatency)
		} else {
			derive(machine.PatternAllToAll, machine.PatternHalo2, steps, 0)
		}
	}
	sort.SliceStable(made, func(i, j int) bool { return made[i].Pattern < made[j].Pattern })
	m.Provenance.Derived = append(m.Provenance.Derived, made...)
	return made, nil
}

// scaleCurve is a copy of c with every segment's start-up and slope times
// k, and add seconds more start-up.
func scaleCurve(c machine.Curve, k, add float64) machine.Curve {
	out := append(machine.Curve(nil), c...)
	for i := range out {
		out[i].A = out[i].A*k + add
		out[i].B *= k
	}
	return out
}

// DerivedNotes says in words what DeriveCurves made, for the model's
// provenance notes.
func DerivedNotes(made []machine.DerivedCurve) []string {
	var notes []string
	for _, d := range made {
		if d.Scale == 1 && d.Pattern == d.FromPattern {
			notes = append(notes, fmt.Sprintf("P=%d %s: not measured, the curve at P=%d (a neighbour pattern's settled time does not depend on P where neighbours are one link apart)", d.Procs, d.Pattern, d.FromProcs))
			continue
		}
		if d.Add != 0 {
			notes = append(notes, fmt.Sprintf("P=%d %s: not measured, %.6g times the %s curve at P=%d plus %.4g s (the pairwise exchange: P - 1 steps of one swap, the partners %.3f links apart on average against %.3f)",
				d.Procs, d.Pattern, d.Scale, d.FromPattern, d.FromProcs, d.Add, MeanHops(d.Procs), MeanHops(d.FromProcs)))
			continue
		}
		notes = append(notes, fmt.Sprintf("P=%d %s: not measured, %g times the %s curve at P=%d (the pairwise exchange: P - 1 steps of one swap)", d.Procs, d.Pattern, d.Scale, d.FromPattern, d.FromProcs))
	}
	return notes
}
