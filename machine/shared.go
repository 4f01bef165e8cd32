package machine

// The shared-memory section of a machine model: what an OpenMP loop costs
// on one node beyond its iterations. In the model file it is the optional
// key "sharedMemory":
//
//	"sharedMemory": {
//	  "source":    "pfls train (OpenMP kernels, trainer/pfls-omp.c)" or "defaults: ...",
//	  "cores":     16,
//	  "sockets":   1,
//	  "measured":  [1, 2],
//	  "fork":      {"a": 2.1e-7, "b": 3e-7, "growth": "log"},
//	  "barrier":   {"a": 1e-7,   "b": 2e-7, "growth": "log"},
//	  "reduction": {"a": 5e-9,   "b": 5e-8, "growth": "linear"},
//	  "chunk":     {"a": 6e-9,   "b": 3e-8, "growth": "log"},
//	  "coreBandwidth":   1.29e10,
//	  "socketBandwidth": 8e10,
//	  "notes": ["..."]
//	}
//
// cores: the cores of the node the section describes; more threads than
// cores share them. sockets: how many sockets the cores sit on (each
// with its own memory bandwidth; optional, 1). measured: the thread
// counts the figures were measured at (none: every figure is a default);
// an estimate at other counts extrapolates and says so.
//
// fork: an empty PARALLEL region, the fork and the join with its implicit
// barrier; barrier: one BARRIER; reduction: combining one value of a
// REDUCTION clause; chunk: handing one chunk of a DYNAMIC or GUIDED
// schedule to a thread. Each is a + b·g(threads) seconds with g = log2
// (a tree) or threads − 1 (linear: one thread after the other), as
// growth says. coreBandwidth: the bytes per second one thread streams
// from main memory (a STREAM triad, 24 bytes per element); socketBandwidth:
// what all the cores of one socket stream together, the limit a
// memory-bound loop stops scaling at.
//
// A model without the section (older model files) is valid: Shared then
// gives the built-in model's section, with a note saying so.

import (
	"errors"
	"fmt"
	"math"
)

// Growth forms of an Overhead.
const (
	GrowthLog    = "log"    // b·log2(threads): a tree
	GrowthLinear = "linear" // b·(threads − 1): one thread after another
)

// Overhead is a cost that grows with the thread count: A + B·g(threads).
type Overhead struct {
	A      float64 `json:"a"`
	B      float64 `json:"b"`
	Growth string  `json:"growth"`
}

// Time is the overhead at the given thread count (at least 1).
func (o Overhead) Time(threads int) float64 {
	t := float64(max(threads, 1))
	if o.Growth == GrowthLinear {
		return o.A + o.B*(t-1)
	}
	return o.A + o.B*math.Log2(t)
}

// Words describes how the overhead grows, for a report.
func (o Overhead) Words() string {
	if o.Growth == GrowthLinear {
		return "linear in the threads"
	}
	return "log2 of the threads"
}

// SharedMemory is the shared-memory section of a model (see the format at
// the top of shared.go).
type SharedMemory struct {
	Source          string   `json:"source"`
	Cores           int      `json:"cores"`
	Sockets         int      `json:"sockets,omitempty"`
	Measured        []int    `json:"measured,omitempty"`
	Fork            Overhead `json:"fork"`
	Barrier         Overhead `json:"barrier"`
	Reduction       Overhead `json:"reduction"`
	Chunk           Overhead `json:"chunk"`
	CoreBandwidth   float64  `json:"coreBandwidth"`
	SocketBandwidth float64  `json:"socketBandwidth"`
	Notes           []string `json:"notes,omitempty"`
}

// sockets is the socket count, 1 when not given.
func (s *SharedMemory) sockets() int { return max(s.Sockets, 1) }

// Bandwidth is the main-memory bandwidth in bytes per second that the
// given number of threads stream together: each thread on its own core
// streams CoreBandwidth until the sockets it occupies (threads fill one
// socket's cores, then the next) saturate at SocketBandwidth each.
// Threads beyond the cores share them and add nothing.
func (s *SharedMemory) Bandwidth(threads int) float64 {
	t := min(max(threads, 1), max(s.Cores, 1))
	perSocket := max(s.Cores/s.sockets(), 1)
	used := min((t+perSocket-1)/perSocket, s.sockets())
	return math.Min(float64(t)*s.CoreBandwidth, float64(used)*s.SocketBandwidth)
}

// MaxMeasured is the largest thread count measured (0: none, all defaults).
func (s *SharedMemory) MaxMeasured() int {
	m := 0
	for _, t := range s.Measured {
		m = max(m, t)
	}
	return m
}

// Validate checks the section: at least one core, sockets that divide
// nothing away (1 ≤ sockets ≤ cores), non-negative overheads with a known
// growth, positive bandwidths, measured thread counts at least 1.
func (s *SharedMemory) Validate() error {
	switch {
	case s.Cores < 1:
		return fmt.Errorf("cores = %d must be at least 1", s.Cores)
	case s.Sockets < 0 || s.Sockets > s.Cores:
		return fmt.Errorf("sockets = %d must be between 1 and the cores (%d)", s.Sockets, s.Cores)
	}
	for _, o := range []struct {
		name string
		o    Overhead
	}{{"fork", s.Fork}, {"barrier", s.Barrier}, {"reduction", s.Reduction}, {"chunk", s.Chunk}} {
		if !finiteNonNeg(o.o.A) || !finiteNonNeg(o.o.B) {
			return fmt.Errorf("%s: a and b must be non-negative numbers of seconds", o.name)
		}
		if o.o.Growth != GrowthLog && o.o.Growth != GrowthLinear {
			return fmt.Errorf("%s: growth %q must be %q or %q", o.name, o.o.Growth, GrowthLog, GrowthLinear)
		}
	}
	if !finiteNonNeg(s.CoreBandwidth) || s.CoreBandwidth == 0 || !finiteNonNeg(s.SocketBandwidth) || s.SocketBandwidth == 0 {
		return errors.New("coreBandwidth and socketBandwidth must be positive numbers of bytes per second")
	}
	for _, t := range s.Measured {
		if t < 1 {
			return fmt.Errorf("measured thread count %d must be at least 1", t)
		}
	}
	return nil
}

func finiteNonNeg(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) && x >= 0 }

// Shared returns the model's shared-memory section, or the built-in
// model's for a model without one, with a note that says so ("" when the
// model has its own). The result is a copy the caller may change.
func (m *Machine) Shared() (*SharedMemory, string) {
	if m.SharedMemory != nil {
		return m.SharedMemory.clone(), ""
	}
	d := defaultModel().SharedMemory
	if d == nil {
		panic("machine: the embedded default_model.json has no sharedMemory section")
	}
	return d.clone(), fmt.Sprintf("machine model %s has no shared-memory section (a model file older than it): the built-in model's is used (%s)", m.label(), d.Source)
}

func (s *SharedMemory) clone() *SharedMemory {
	if s == nil {
		return nil
	}
	c := *s
	c.Measured = append([]int(nil), s.Measured...)
	c.Notes = append([]string(nil), s.Notes...)
	return &c
}
