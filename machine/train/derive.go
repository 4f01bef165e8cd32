package train

// Curves made rather than measured: pfls train at a large processor count
// on a simulated platform (SMPI). There every message is simulated, and a
// circular shift at P = 1024 costs 0.4 s of this machine a call and needs
// about P/2 + 8 untimed calls before its time per call settles (see
// warm_up in trainer/pfls-train.c): one size takes minutes. The settled
// neighbour curves do not depend on P where every neighbour is one link
// away (ncube2: ranks in Gray-code order on a hypercube): measured at
// P = 16, 64 and 256 they agree within 1%. And a pairwise all-to-all
// (SMPI's pair: P − 1 steps, at step k rank r swaps with r XOR k, the
// pairs of a step sharing no link) is P − 1 times the halo-2 pattern
// within 1% at P = 256. So at a large P the trainer measures the
// collectives only, takes the neighbour curves from a smaller P of the
// same platform and makes the all-to-all from its halo-2 curve, and the
// model's provenance says which curves were made so and from what.

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
}

// CollectivePatterns are the patterns that involve every rank, which
// grow with P and are measured at every processor count trained.
var CollectivePatterns = []string{machine.PatternBroadcast, machine.PatternReductionBroadcast}

// DeriveCurves fills the curves of m at processor count target that the
// training run there did not measure: each neighbour pattern is a copy of
// its curve at base, and, when pairwise is set (the all-to-all is the
// pairwise exchange, P − 1 steps of one swap each), the all-to-all is the
// halo-2 curve at base times target − 1. Curves measured at target stay.
// It returns what it made, in a fixed order, and also appends it to the
// provenance of m.
func DeriveCurves(m *machine.Machine, target, base int, pairwise bool) ([]machine.DerivedCurve, error) {
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
	derive := func(pattern, fromPattern string, scale float64) {
		c, ok := from[fromPattern]
		if _, measured := to[pattern]; measured || !ok {
			return
		}
		to[pattern] = scaleCurve(c, scale)
		made = append(made, machine.DerivedCurve{Procs: target, Pattern: pattern, FromProcs: base, FromPattern: fromPattern, Scale: scale})
	}
	for _, p := range NeighbourPatterns {
		derive(p, p, 1)
	}
	if pairwise {
		derive(machine.PatternAllToAll, machine.PatternHalo2, float64(target-1))
	}
	sort.SliceStable(made, func(i, j int) bool { return made[i].Pattern < made[j].Pattern })
	m.Provenance.Derived = append(m.Provenance.Derived, made...)
	return made, nil
}

// scaleCurve is a copy of c with every segment's start-up and slope times
// k.
func scaleCurve(c machine.Curve, k float64) machine.Curve {
	out := append(machine.Curve(nil), c...)
	for i := range out {
		out[i].A *= k
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
		notes = append(notes, fmt.Sprintf("P=%d %s: not measured, %g times the %s curve at P=%d (the pairwise exchange: P - 1 steps of one swap)", d.Procs, d.Pattern, d.Scale, d.FromPattern, d.FromProcs))
	}
	return notes
}
