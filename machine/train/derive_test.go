package train

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
)

// derivable is a model as pfls train --platform leaves it at --np 1024:
// every pattern at P = 64, the collectives alone at P = 1024 (the
// broadcast slower there, as a tree of log P steps is).
func derivable() *machine.Machine {
	seg := func(a, b float64) machine.Curve {
		return machine.Curve{{From: 0, To: 65472, A: a, B: b}, {From: 65472, A: 2 * a, B: b}}
	}
	return &machine.Machine{
		Provenance: machine.Provenance{Source: "pfls train"},
		Ops:        map[string]float64{"add": 4e-7},
		Comm: map[int]map[string]machine.Curve{
			64: {
				machine.PatternVectorShift:  seg(90e-6, 4.6e-7),
				machine.PatternHalo2:        seg(100e-6, 4.7e-7),
				machine.PatternHalo4:        seg(120e-6, 4.9e-7),
				machine.PatternOpenShift:    seg(95e-6, 4.6e-7),
				machine.PatternBroadcast:    seg(500e-6, 2.8e-6),
				machine.PatternAllToAll:     seg(6.3e-3, 2.9e-5),
				machine.PatternElementShift: seg(40e-6, 4.5e-7),
			},
			1024: {
				machine.PatternBroadcast:          seg(840e-6, 4.6e-6),
				machine.PatternReductionBroadcast: seg(1.7e-3, 9e-6),
			},
		},
	}
}

func TestDeriveCurves(t *testing.T) {
	m := derivable()
	made, err := DeriveCurves(m, 1024, 64, true)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]machine.DerivedCurve{}
	for _, d := range made {
		got[d.Pattern] = d
	}
	// the neighbour patterns the base has, copied; the all-to-all from
	// halo-2; the measured broadcast kept; nothing made of what the
	// base lacks (exchange, open-shift-strided)
	want := []string{machine.PatternAllToAll, machine.PatternElementShift, machine.PatternHalo2,
		machine.PatternHalo4, machine.PatternOpenShift, machine.PatternVectorShift}
	var names []string
	for _, d := range made {
		names = append(names, d.Pattern)
	}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("derived %v, want %v", names, want)
	}
	at := m.Comm[1024]
	for _, p := range []string{machine.PatternVectorShift, machine.PatternHalo4, machine.PatternOpenShift} {
		if !reflect.DeepEqual(at[p], m.Comm[64][p]) || got[p] != (machine.DerivedCurve{Procs: 1024, Pattern: p, FromProcs: 64, FromPattern: p, Scale: 1}) {
			t.Errorf("%s: %v from %v, recorded %+v", p, at[p], m.Comm[64][p], got[p])
		}
	}
	if got[machine.PatternAllToAll] != (machine.DerivedCurve{Procs: 1024, Pattern: machine.PatternAllToAll, FromProcs: 64, FromPattern: machine.PatternHalo2, Scale: 1023}) {
		t.Errorf("all-to-all recorded as %+v", got[machine.PatternAllToAll])
	}
	for _, b := range []float64{8, 4096, 65472, 1 << 20} {
		h, a := m.Comm[64][machine.PatternHalo2].Time(b), at[machine.PatternAllToAll].Time(b)
		if math.Abs(a-1023*h) > 1e-9*a {
			t.Errorf("all-to-all at %g B: %g, want 1023 x %g", b, a, h)
		}
	}
	if !reflect.DeepEqual(at[machine.PatternBroadcast], derivable().Comm[1024][machine.PatternBroadcast]) {
		t.Errorf("the measured broadcast was replaced: %v", at[machine.PatternBroadcast])
	}
	if _, ok := at[machine.PatternExchange]; ok {
		t.Error("made an exchange curve the base does not have")
	}
	if !reflect.DeepEqual(m.Provenance.Derived, made) {
		t.Errorf("provenance %+v, want %+v", m.Provenance.Derived, made)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	// the provenance survives the file: written and read back
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	back, err := machine.LoadMachine(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Provenance.Derived, made) {
		t.Errorf("read back %+v", back.Provenance.Derived)
	}
	// a copy, not the base's segments: scaling one must not touch the other
	at[machine.PatternVectorShift][0].A = 1
	if m.Comm[64][machine.PatternVectorShift][0].A == 1 {
		t.Error("the derived curve shares its segments with the base's")
	}
	notes := strings.Join(DerivedNotes(made), "\n")
	if !strings.Contains(notes, "P=1024 alltoall: not measured, 1023 times the halo-2 curve at P=64") ||
		!strings.Contains(notes, "P=1024 vector-shift: not measured, the curve at P=64") {
		t.Errorf("notes:\n%s", notes)
	}
}

// Without the pairwise exchange the all-to-all is not made (the ring's
// steps are shifts of growing distance, not halo-2's): the trainer
// measures it at the target instead.
func TestDeriveCurvesRing(t *testing.T) {
	m := derivable()
	made, err := DeriveCurves(m, 1024, 64, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range made {
		if d.Pattern == machine.PatternAllToAll {
			t.Errorf("made %+v without the pairwise exchange", d)
		}
	}
	if _, ok := m.Comm[1024][machine.PatternAllToAll]; ok {
		t.Error("an all-to-all curve at P=1024")
	}
	if len(made) != 5 {
		t.Errorf("made %d curves, want the 5 neighbour patterns of the base", len(made))
	}
}

func TestDeriveCurvesErrors(t *testing.T) {
	for _, c := range []struct {
		target, base int
		want         string
	}{
		{1024, 256, "none at P=256"},
		{64, 64, "from itself"},
		{1024, 1, "at least 2"},
	} {
		m := derivable()
		if _, err := DeriveCurves(m, c.target, c.base, true); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("P=%d from %d: %v, want %q", c.target, c.base, err, c.want)
		}
		if len(m.Provenance.Derived) != 0 {
			t.Errorf("P=%d from %d: recorded %+v after an error", c.target, c.base, m.Provenance.Derived)
		}
	}
}
