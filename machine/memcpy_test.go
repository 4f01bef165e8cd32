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

// TestDefaultModelMemcpy: the built-in model has the memcpy kernel's
// times (measured alone, its provenance says how): "copy.memcpy" is the
// first level's, every level has one, they never fall with the size, and
// in the caches (up to 8 MiB) memcpy copies 8 bytes in less than half
// the scalar copy kernel's load and store time, the gap that put the
// kit's Jacobi copy-back at 4 times its measured time.
func TestDefaultModelMemcpy(t *testing.T) {
	m := DefaultMachine()
	op, ok := m.Ops["copy.memcpy"]
	if !ok || len(m.Memory) == 0 || op != m.Memory[0].Memcpy {
		t.Fatalf("copy.memcpy %g (present %v), levels %+v", op, ok, m.Memory)
	}
	for i, l := range m.Memory {
		if l.Memcpy <= 0 || (i > 0 && l.Memcpy < m.Memory[i-1].Memcpy) {
			t.Errorf("level %d (%d B): memcpy %g", i, l.Bytes, l.Memcpy)
		}
		if l.Bytes <= 8<<20 && l.Memcpy >= (l.Load+l.Store)/2 {
			t.Errorf("level %d (%d B): memcpy %g, not below half the load and store %g", i, l.Bytes, l.Memcpy, l.Load+l.Store)
		}
	}
	found := false
	for _, n := range m.Provenance.Notes {
		found = found || (strings.HasPrefix(n, "copy.memcpy") && strings.Contains(n, "taskset") && strings.Contains(n, "2026-11-29"))
	}
	if !found {
		t.Errorf("no provenance note says how copy.memcpy was measured")
	}
}
