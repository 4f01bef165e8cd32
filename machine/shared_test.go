package machine

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// The built-in model carries a shared-memory section whose source says
// which figures are measured and which are defaults.
func TestDefaultSharedMemory(t *testing.T) {
	m := DefaultMachine()
	sm, note := m.Shared()
	if note != "" || sm == nil {
		t.Fatalf("Shared() = %v, %q", sm, note)
	}
	if !strings.Contains(sm.Source, "defaults") || !strings.Contains(sm.Source, "measured") || len(sm.Notes) == 0 {
		t.Errorf("source %q, notes %q: want measured and default figures told apart", sm.Source, sm.Notes)
	}
	if sm.MaxMeasured() != 2 || sm.Cores < 2 {
		t.Errorf("measured %v, cores %d", sm.Measured, sm.Cores)
	}
	// The overheads grow with the threads; the bandwidth of all the
	// cores is more than one core's.
	for _, o := range []Overhead{sm.Fork, sm.Barrier, sm.Reduction, sm.Chunk} {
		if o.Time(16) < o.Time(1) || o.Time(1) <= 0 || o.Time(16) > 100e-6 {
			t.Errorf("%+v: %g at 1 thread, %g at 16", o, o.Time(1), o.Time(16))
		}
	}
	if sm.Bandwidth(sm.Cores) <= sm.Bandwidth(1) {
		t.Errorf("bandwidth %g at %d threads, %g at 1", sm.Bandwidth(sm.Cores), sm.Cores, sm.Bandwidth(1))
	}
}

func TestOverheadTime(t *testing.T) {
	log := Overhead{A: 1, B: 2, Growth: GrowthLog}
	lin := Overhead{A: 1, B: 2, Growth: GrowthLinear}
	for _, c := range []struct {
		o    Overhead
		t    int
		want float64
	}{
		{log, 1, 1}, {log, 2, 3}, {log, 16, 9}, {log, 0, 1},
		{lin, 1, 1}, {lin, 2, 3}, {lin, 16, 31},
	} {
		if got := c.o.Time(c.t); got != c.want {
			t.Errorf("%+v at %d threads = %g, want %g", c.o, c.t, got, c.want)
		}
	}
}

// Bandwidth: min(threads × core, sockets occupied × socket), threads
// filling one socket's cores before the next; past the cores, no more.
func TestSharedBandwidth(t *testing.T) {
	s := &SharedMemory{Cores: 8, Sockets: 2, CoreBandwidth: 10, SocketBandwidth: 25}
	for _, c := range []struct {
		t    int
		want float64
	}{{1, 10}, {2, 20}, {3, 25}, {4, 25}, {5, 50}, {6, 50}, {8, 50}, {64, 50}} {
		if got := s.Bandwidth(c.t); got != c.want {
			t.Errorf("%d threads: %g B/s, want %g", c.t, got, c.want)
		}
	}
}

// A model file from before the section loads, and Shared gives the
// built-in model's figures with a note; a model with the section keeps
// it through JSON and Clone.
func TestSharedMemoryCompatibility(t *testing.T) {
	old := `{"name": "old", "provenance": {"source": "test"}, "ops": {"add": 1e-9}, "comm": {}}`
	m, err := LoadMachine(strings.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	sm, note := m.Shared()
	def, _ := DefaultMachine().Shared()
	if sm.Fork != def.Fork || sm.CoreBandwidth != def.CoreBandwidth || !strings.Contains(note, `"old" has no shared-memory section`) {
		t.Errorf("Shared() = %+v, %q", sm, note)
	}
	d := DefaultMachine()
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	back, err := LoadMachine(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if back.SharedMemory == nil || back.SharedMemory.Barrier != d.SharedMemory.Barrier || back.SharedMemory.SocketBandwidth != d.SharedMemory.SocketBandwidth {
		t.Errorf("round trip lost the section: %+v", back.SharedMemory)
	}
	c := d.Clone()
	c.SharedMemory.Cores = 99
	c.SharedMemory.Notes[0] = "changed"
	if d.SharedMemory.Cores == 99 || d.SharedMemory.Notes[0] == "changed" {
		t.Error("Clone shares the shared-memory section")
	}
}

func TestSharedMemoryValidate(t *testing.T) {
	good := func() *SharedMemory {
		return &SharedMemory{Source: "t", Cores: 4, Sockets: 1, Fork: Overhead{1e-6, 1e-6, GrowthLog},
			Barrier: Overhead{1e-6, 1e-6, GrowthLog}, Reduction: Overhead{0, 1e-7, GrowthLinear},
			Chunk: Overhead{0, 0, GrowthLog}, CoreBandwidth: 1e10, SocketBandwidth: 4e10}
	}
	if err := good().Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		change func(*SharedMemory)
		want   string
	}{
		{func(s *SharedMemory) { s.Cores = 0 }, "cores = 0"},
		{func(s *SharedMemory) { s.Sockets = 5 }, "sockets = 5"},
		{func(s *SharedMemory) { s.Barrier.A = -1 }, "barrier: a and b"},
		{func(s *SharedMemory) { s.Fork.B = math.NaN() }, "fork: a and b"},
		{func(s *SharedMemory) { s.Chunk.Growth = "cubic" }, `chunk: growth "cubic"`},
		{func(s *SharedMemory) { s.SocketBandwidth = 0 }, "socketBandwidth"},
		{func(s *SharedMemory) { s.Measured = []int{0} }, "measured thread count 0"},
	} {
		s := good()
		c.change(s)
		err := s.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want an error with %q", err, c.want)
		}
	}
	// In a model file the error names the section.
	m := DefaultMachine()
	m.SharedMemory.Cores = 0
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), "sharedMemory: cores") {
		t.Errorf("Validate = %v", err)
	}
}
