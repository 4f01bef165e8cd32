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
	made, err := DeriveCurves(m, 1024, 64, &Pairwise{HopLatency: 10e-6})
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
	// the all-to-all: 1023 steps of the one at P = 64 (63 steps), each
	// 10 µs longer for each link more between the partners: 5.005 on
	// average at P = 1024 (10 × 512/1023), 3.048 at 64 (6 × 32/63)
	hops := 10*512.0/1023 - 6*32.0/63
	if d := got[machine.PatternAllToAll]; d.FromPattern != machine.PatternAllToAll || d.FromProcs != 64 ||
		math.Abs(d.Scale-1023.0/63) > 1e-12 || math.Abs(d.Add-1023*hops*10e-6) > 1e-12 {
		t.Errorf("all-to-all recorded as %+v", d)
	}
	for _, b := range []float64{8, 4096, 65472, 1 << 20} {
		base, a := m.Comm[64][machine.PatternAllToAll].Time(b), at[machine.PatternAllToAll].Time(b)
		if want := 1023 * (base/63 + hops*10e-6); math.Abs(a-want) > 1e-9*a {
			t.Errorf("all-to-all at %g B: %g, want %g", b, a, want)
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
	if !strings.Contains(notes, "P=1024 alltoall: not measured, 16.2381 times the alltoall curve at P=64 plus 0.02002 s (the pairwise exchange: P - 1 steps of one swap, the partners 5.005 links apart on average against 3.048)") ||
		!strings.Contains(notes, "P=1024 vector-shift: not measured, the curve at P=64") {
		t.Errorf("notes:\n%s", notes)
	}
}

// Without the pairwise exchange the all-to-all is not made (the ring's
// steps are shifts of growing distance, not swaps): the trainer measures
// it at the target instead. With it but no all-to-all at the base (or no
// hop latency), it is P − 1 swaps of halo-2.
func TestDeriveCurvesAllToAllRules(t *testing.T) {
	m := derivable()
	made, err := DeriveCurves(m, 1024, 64, nil)
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
	for _, c := range []struct {
		name string
		drop bool
		pw   Pairwise
	}{{"no all-to-all at the base", true, Pairwise{HopLatency: 10e-6}}, {"no hop latency", false, Pairwise{}}} {
		m := derivable()
		if c.drop {
			delete(m.Comm[64], machine.PatternAllToAll)
		}
		if _, err := DeriveCurves(m, 1024, 64, &c.pw); err != nil {
			t.Fatal(err)
		}
		h, a := m.Comm[64][machine.PatternHalo2].Time(512), m.Comm[1024][machine.PatternAllToAll].Time(512)
		if math.Abs(a-1023*h) > 1e-9*a {
			t.Errorf("%s: all-to-all at 512 B %g, want 1023 x halo-2 %g", c.name, a, h)
		}
	}
}

func TestMeanHops(t *testing.T) {
	// the mean number of ones of 1 .. p-1, counted
	for _, p := range []int{2, 16, 64, 1024} {
		ones := 0
		for k := 1; k < p; k++ {
			for x := k; x > 0; x &= x - 1 {
				ones++
			}
		}
		if got, want := MeanHops(p), float64(ones)/float64(p-1); math.Abs(got-want) > 1e-12 {
			t.Errorf("MeanHops(%d) = %g, want %g", p, got, want)
		}
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
		if _, err := DeriveCurves(m, c.target, c.base, &Pairwise{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("P=%d from %d: %v, want %q", c.target, c.base, err, c.want)
		}
		if len(m.Provenance.Derived) != 0 {
			t.Errorf("P=%d from %d: recorded %+v after an error", c.target, c.base, m.Provenance.Derived)
		}
	}
}
