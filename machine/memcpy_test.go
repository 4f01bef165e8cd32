package machine

import (
	"math"
	"strings"
	"testing"
)

// TestMemoryLevelMemcpy: a level's "memcpy" time is read from the file,
// is optional (older models have none: 0), and must be a non-negative
// number like the load and store times.
func TestMemoryLevelMemcpy(t *testing.T) {
	in := `{"name": "hand", "provenance": {"source": "by hand"}, "ops": {"copy.memcpy": 7.6e-11},
	  "comm": {}, "memory": [{"bytes": 16384, "load": 3e-10, "store": 3e-10, "memcpy": 7.6e-11},
	                         {"bytes": 67108864, "load": 5e-10, "store": 5e-10}]}`
	m, err := LoadMachine(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if m.Memory[0].Memcpy != 7.6e-11 || m.Memory[1].Memcpy != 0 {
		t.Errorf("memcpy times %g and %g, want 7.6e-11 and 0", m.Memory[0].Memcpy, m.Memory[1].Memcpy)
	}
	for _, v := range []float64{-1e-12, math.NaN(), math.Inf(1)} {
		bad := &Machine{Memory: []MemoryLevel{{Bytes: 8, Load: 1, Store: 1}, {Bytes: 16, Load: 1, Store: 1, Memcpy: v}}}
		err := bad.Validate()
		if want := "machine model: memory level 1: memcpy = "; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("memcpy %g: %v, want an error starting %q", v, err, want)
		}
	}
}
