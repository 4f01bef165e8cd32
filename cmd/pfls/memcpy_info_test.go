package main

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
)

// TestMachineInfoMemcpy: --machine-info shows a level's memcpy time where
// the model has one, and nothing more where it does not.
func TestMachineInfoMemcpy(t *testing.T) {
	m := &machine.Machine{Name: "x", Ops: map[string]float64{"copy.memcpy": 7.6e-11},
		Memory: []machine.MemoryLevel{{Bytes: 16384, Load: 3e-10, Store: 3e-10, Memcpy: 7.6e-11}, {Bytes: 1 << 26, Load: 5e-10, Store: 5e-10}}}
	var b strings.Builder
	writeMachineInfo(&b, m, "x.json")
	var levels []string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "  up to ") {
			levels = append(levels, l)
		}
	}
	if len(levels) != 2 || !strings.HasSuffix(levels[0], "memcpy 76 ps per 8 bytes") || strings.Contains(levels[1], "memcpy") {
		t.Errorf("memory levels:\n%s", strings.Join(levels, "\n"))
	}
}
