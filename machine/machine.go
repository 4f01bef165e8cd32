// Package machine is the machine model of the estimator: the file format
// (described below), the model built into pfls, operation and memory
// times, piecewise-linear communication curves per processor count and
// pattern with their interpolation and fallbacks, the run-to-run noise
// that decides "about the same", and the validation of model files.
package machine

// The machine model file (JSON). A model describes one target machine
// with one MPI library, as seed 003's training set measures it: average
// times of operations, and per processor count and communication pattern
// a piecewise-linear curve of the time one processor spends in a call.
// All times are in seconds, all sizes in bytes. Unknown keys are errors,
// so a misspelt key is not silently ignored.
//
//	{
//	  "name": "default",
//	  "provenance": {
//	    "source":   "where the numbers come from: \"pfls train\" or a description",
//	    "host":     "machine name or CPU model",
//	    "cores":    "core count as reported",
//	    "mpi":      "MPI library and version",
//	    "compiler": "compiler of the training program",
//	    "date":     "when it was measured (RFC 3339 or free text)",
//	    "options":  "mpirun options, anything needed to reproduce it",
//	    "load":     "how busy the machine was while it was measured",
//	    "notes":    ["fit errors, steps found, limits the MPI library reports", ...]
//	  },
//	  "ops": {"add": 3e-10, "add.double": 3e-10, "div": 2e-9, ...},
//	  "comm": {
//	    "2": {
//	      "vector-shift": [
//	        {"from": 0,    "to": 320,  "a": 2.97e-7, "b": 4e-10},
//	        {"from": 320,  "to": 4032, "a": 5.5e-7,  "b": 3.5e-10},
//	        {"from": 4032, "to": 0,    "a": 8.16e-6, "b": 1.59e-10}
//	      ],
//	      "broadcast": [...]
//	    },
//	    "4": {...}
//	  },
//	  "memory": [{"bytes": 16384, "load": 1.6e-10, "store": 1.6e-10}, ...],
//	  "noise": 0.07
//	}
//
// name: a short name shown to the user. Optional.
//
// provenance: free-text strings saying where the numbers come from. All
// optional; "source" should always be given.
//
// ops: seconds per operation. The estimator asks for "add", "sub",
// "mul", "div", "pow", "compare", "logical", "load", "store",
// "intrinsic", "loop" (once per loop executed), "iteration" (once per
// iteration) and "call" (once per subroutine or function call). A key may
// carry suffixes after dots for a more specific cost, such as
// "add.double", "div.int" or "intrinsic.sqrt"; a lookup drops suffixes
// from the right until a key matches (Machine.Op), so "add.double" falls
// back to "add". A name that still matches nothing costs 0. Times must be
// non-negative.
//
// memory: optional; the time of one element access by the size of a
// loop's data, levels sorted by bytes (Access), and optionally, as
// "memcpy", the time memcpy takes per 8 bytes at that size (a copy loop,
// which compilers turn into memcpy; the op "copy.memcpy" is its time
// at the first level). noise: optional; the
// relative run-to-run spread of the measurements (AboutTheSame).
// sharedMemory: optional; what OpenMP loops cost on one node (the format
// is at the top of shared.go).
//
// comm: an object whose keys are processor counts P ≥ 1 (as strings, as
// JSON requires) and whose values map a pattern name to a curve. The
// pattern names are the Pattern... constants and TreeLevelPattern's; a
// model may hold other names, which the estimator does not ask for. Curves at P = 1 are
// accepted and never used (one processor does not communicate).
//
// A curve is a list of segments {"from", "to", "a", "b"}: the segment
// holds the message sizes from ≤ bytes < to, and there a call takes
// a + b·bytes seconds. The first segment starts at 0, each next one
// starts where the previous ends, and only the last is unbounded, written
// "to": 0. a and b are non-negative, so time never falls inside a
// segment. Steps between segments — the protocol switches of seed 003 §5
// (packetization on the NCUBE, the eager/rendezvous switch of today's MPI
// libraries) — are written by giving the next segment a different a and
// b: the time just before a boundary, a_i + b_i·to_i, may be at most the
// time at the boundary, a_{i+1} + b_{i+1}·to_i. Steps may only go up, so a
// larger message never costs less than a smaller one.
//
// The meaning of "bytes" per pattern: for the shifts and the exchange it
// is the size of the message one processor sends to its neighbour; for
// broadcast and reduction-broadcast the size of the data broadcast or
// reduced; for alltoall the size of the block one processor sends to each
// other processor.

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"sync"
)

// The communication patterns of a machine model: those of seed 003's
// training set (iSR, vSR, EXCH, BCAST, COMBN) and all-to-all.
const (
	// PatternElementShift is a shift to a neighbour, one message per
	// element (seed 003's iSR); a curve gives the time of one message.
	PatternElementShift = "element-shift"
	// PatternVectorShift is a shift to a neighbour with the data sent as
	// one vector (seed 003's vSR).
	PatternVectorShift = "vector-shift"
	// PatternExchange is the synchronous shift in two stages of seed 003's
	// EXCH: even processors send while odd ones receive, then the reverse.
	PatternExchange = "exchange"
	// PatternBroadcast is a one-to-all broadcast (BCAST).
	PatternBroadcast = "broadcast"
	// PatternReductionBroadcast is a reduction whose result every
	// processor receives (COMBN; MPI_ALLREDUCE).
	PatternReductionBroadcast = "reduction-broadcast"
	// PatternAllToAll is an all-to-all personalised exchange (transpose,
	// redistribution; MPI_ALLTOALL).
	PatternAllToAll = "alltoall"

	// PatternOpenShift is a vector shift along a non-periodic dimension:
	// the last processor only receives and the first only sends, as in a
	// BLOCK-distributed stencil. Models without it price such shifts as
	// vector-shift.
	PatternOpenShift = "open-shift"
	// PatternOpenShiftStrided is an open shift of data that is not
	// contiguous in memory (a row of a column-major array).
	PatternOpenShiftStrided = "open-shift-strided"
	// PatternHalo2 is a shift to both neighbours at once along a
	// non-periodic chain of processors (bytes: one message).
	PatternHalo2 = "halo-2"
	// PatternHalo4 is a shift to up to four neighbours at once on a
	// non-periodic 2-D processor grid (bytes: one message).
	PatternHalo4 = "halo-4"
	// PatternGridShift1 and PatternGridShift2 are open shifts along the
	// first and the second dimension of the 2-D processor grid pfls
	// makes of P (px × py, px ≥ py as equal as possible), ranks numbered
	// as MPI_Cart_create numbers them (the second dimension fastest):
	// along the first, rank r sends to r + py; along the second, to r + 1
	// within its row. Where pairs of processors differ in distance (a fat
	// tree's leaves, a torus) they differ from the open shift over all P.
	// Models without them price such shifts as open shifts.
	PatternGridShift1 = "grid-shift-1"
	PatternGridShift2 = "grid-shift-2"
)

// TreeLevelPattern names the curve of one level of a binomial broadcast
// tree whose pairs of processors are stride apart (stride a power of two
// below P): tree-level-1, tree-level-2, .... The time from a sender's
// start of its send to its receiver's end of the receive, the receiver
// waiting, the mean over the pairs of ranks stride apart (modulo P).
// pfls train measures it on a simulated platform only (it needs the one
// clock SMPI's ranks share); models without it price a level with the
// broadcast and the shift curves (see partition's bcastSchedule).
func TreeLevelPattern(stride int) string { return fmt.Sprintf("tree-level-%d", stride) }

// TrainingPatterns are the communication patterns the training set
// measures: the estimator's patterns and the non-periodic and
// several-neighbour ones real stencils use.
var TrainingPatterns = []string{
	PatternElementShift, PatternVectorShift, PatternOpenShift, PatternOpenShiftStrided,
	PatternExchange, PatternHalo2, PatternHalo4,
	PatternBroadcast, PatternReductionBroadcast, PatternAllToAll,
}

// VectorShift reports whether a pattern is a shift of a whole vector
// (circular or open, contiguous or strided).
func VectorShift(p string) bool {
	return p == PatternVectorShift || p == PatternOpenShift || p == PatternOpenShiftStrided
}

// patternFallback names the pattern a model without the first one
// prices it with.
var patternFallback = map[string]string{
	PatternOpenShiftStrided: PatternOpenShift,
	PatternOpenShift:        PatternVectorShift,
	PatternHalo2:            PatternVectorShift,
	PatternHalo4:            PatternVectorShift,
	PatternGridShift1:       PatternOpenShift,
	PatternGridShift2:       PatternOpenShift,
}

var machinePatterns = []string{
	PatternElementShift, PatternVectorShift, PatternExchange,
	PatternBroadcast, PatternReductionBroadcast, PatternAllToAll,
}

// Patterns returns the names of the communication patterns the estimator
// uses, in a fixed order.
func Patterns() []string { return append([]string(nil), machinePatterns...) }

// Machine is a machine model: operation times and communication curves
// per processor count. Its JSON form is described at the top of
// machine.go.
type Machine struct {
	Name       string     `json:"name,omitempty"`
	Provenance Provenance `json:"provenance"`
	// Ops maps an operation name to its time in seconds (see Op).
	Ops map[string]float64 `json:"ops"`
	// Comm maps a trained processor count to the curves of each pattern.
	Comm map[int]map[string]Curve `json:"comm"`
	// Memory gives the time of one element load and store by the size of
	// the data a loop works on (see Access). Optional.
	Memory []MemoryLevel `json:"memory,omitempty"`
	// Noise is the run-to-run spread of the measurements, relative
	// ((max-min)/median of the passes, the median over the curves): two
	// estimates closer than this are "about the same". Optional.
	Noise float64 `json:"noise,omitempty"`
	// SharedMemory is what OpenMP loops cost on one node (shared.go).
	// Optional: Shared falls back to the built-in model's.
	SharedMemory *SharedMemory `json:"sharedMemory,omitempty"`
}

// AboutTheSame reports whether two estimated times differ by less than
// the model's run-to-run noise, so that neither can be called faster.
func (m *Machine) AboutTheSame(a, b float64) bool {
	if m.Noise <= 0 || a <= 0 || b <= 0 {
		return false
	}
	return math.Abs(a-b) < m.Noise*math.Min(a, b)
}

// MemoryLevel is the time of one element access when a loop's data
// fits in Bytes (a cache level, or main memory for the last level).
type MemoryLevel struct {
	Bytes int64   `json:"bytes"`
	Load  float64 `json:"load"`
	Store float64 `json:"store"`
	// Memcpy is the time memcpy takes per 8 bytes it copies when source
	// and target together take Bytes (the training set's memcpy kernel),
	// or 0 where the model does not say (older models). Optional.
	Memcpy float64 `json:"memcpy,omitempty"`
}

// Access returns the time of one element load and store for a loop
// whose data takes the given number of bytes: the first memory level
// that holds it, the last level past them all, and the "load" and
// "store" operation times when the model has no memory levels.
func (m *Machine) Access(bytes float64) (load, store float64) {
	if len(m.Memory) == 0 {
		return m.Op("load"), m.Op("store")
	}
	for _, l := range m.Memory {
		if bytes <= float64(l.Bytes) {
			return l.Load, l.Store
		}
	}
	l := m.Memory[len(m.Memory)-1]
	return l.Load, l.Store
}

// HasPattern reports whether the model holds a curve of the pattern at
// some processor count of at least 2.
func (m *Machine) HasPattern(pattern string) bool {
	for p, pats := range m.Comm {
		if _, ok := pats[pattern]; ok && p >= 2 {
			return true
		}
	}
	return false
}

// Provenance says where a model's numbers come from.
type Provenance struct {
	// Source is "pfls train" for a measured model, or a description of
	// the figures a model was built from.
	Source   string `json:"source"`
	Host     string `json:"host,omitempty"`
	Cores    string `json:"cores,omitempty"`
	MPI      string `json:"mpi,omitempty"`
	Compiler string `json:"compiler,omitempty"`
	Date     string `json:"date,omitempty"`
	Options  string `json:"options,omitempty"`
	// Load says how busy the machine was while it was measured.
	Load string `json:"load,omitempty"`
	// Platform is the simulated machine a model was trained on with
	// SimGrid's SMPI (pfls train --platform): the preset or file and its
	// figures. "" for a model measured on real hardware.
	Platform string `json:"platform,omitempty"`
	// Notes holds what the trainer found worth saying: fit errors,
	// steps found, warnings.
	Notes []string `json:"notes,omitempty"`
	// Derived lists the curves of Comm that were not measured at their
	// processor count but made from another's (pfls train at a large P
	// on a platform). Optional.
	Derived []DerivedCurve `json:"derived,omitempty"`
}

// DerivedCurve says that the curve of Pattern at Procs is FromPattern's
// curve at FromProcs times Scale (every segment's a and b), plus Add
// seconds on every segment's a.
type DerivedCurve struct {
	Procs       int     `json:"procs"`
	Pattern     string  `json:"pattern"`
	FromProcs   int     `json:"fromProcs"`
	FromPattern string  `json:"fromPattern"`
	Scale       float64 `json:"scale"`
	Add         float64 `json:"add,omitempty"`
}

// Segment is one linear piece of a curve: for From ≤ bytes < To (To = 0:
// no upper bound) a call takes A + B·bytes seconds.
type Segment struct {
	From int64   `json:"from"`
	To   int64   `json:"to"`
	A    float64 `json:"a"`
	B    float64 `json:"b"`
}

// Curve is a piecewise-linear time of a communication call as a function
// of the message size: segments sorted by From, contiguous from 0, the
// last one unbounded. Differing A and B between neighbouring segments
// make the steps of seed 003 §5.
type Curve []Segment

// Time returns the time of a message of the given size: A + B·bytes of
// the segment holding bytes. Sizes below 0 take the first segment and
// sizes past a bounded last segment take the last one, so Time never
// fails; LoadMachine ensures neither happens in a valid model.
func (c Curve) Time(bytes float64) float64 {
	if len(c) == 0 {
		return 0
	}
	s := c[len(c)-1]
	for _, seg := range c {
		if seg.To == 0 || bytes < float64(seg.To) {
			s = seg
			break
		}
	}
	return s.A + s.B*bytes
}

// Step is the jump of a fitted curve at a break: Before is the time the
// earlier segment gives at the break size, After the time the later one
// gives there (After ≥ Before).
type Step struct {
	Bytes         int64
	Before, After float64
}

// Median is the median of v (0 for none); v is left as it is. Training
// pools its passes with it, and the noise of a model is a median spread.
func Median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// LoadMachine reads a machine model in the JSON form described at the top
// of machine.go and checks it (see Validate).
func LoadMachine(r io.Reader) (*Machine, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var m Machine
	if err := dec.Decode(&m); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return nil, fmt.Errorf("machine model: invalid JSON at byte %d: %w", syn.Offset, err)
		}
		if err == io.EOF {
			return nil, errors.New("machine model: empty input")
		}
		return nil, fmt.Errorf("machine model: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("machine model: unexpected data after the model at byte %d", dec.InputOffset())
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

// machineStepSlack is the relative rounding tolerated where a step down
// is checked, so a continuous curve written with rounded decimals is
// accepted.
const machineStepSlack = 1e-9

// Validate checks a model: processor counts at least 1, operation times
// non-negative, every curve non-empty, sorted, contiguous from 0 with an
// unbounded last segment, non-negative coefficients, and no step down at
// a segment boundary. The error names the pattern, the processor count
// and the segment index.
func (m *Machine) Validate() error {
	for _, name := range sortedOpNames(m.Ops) {
		v := m.Ops[name]
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("machine model: op %q: time %g must be a non-negative number of seconds", name, v)
		}
	}
	if math.IsNaN(m.Noise) || m.Noise < 0 || m.Noise > 10 {
		return fmt.Errorf("machine model: noise = %g must be a relative spread between 0 and 10", m.Noise)
	}
	for i, l := range m.Memory {
		switch {
		case l.Bytes <= 0:
			return fmt.Errorf("machine model: memory level %d: bytes = %d must be positive", i, l.Bytes)
		case i > 0 && l.Bytes <= m.Memory[i-1].Bytes:
			return fmt.Errorf("machine model: memory level %d: bytes = %d must be larger than the level before (%d)", i, l.Bytes, m.Memory[i-1].Bytes)
		case math.IsNaN(l.Load) || math.IsInf(l.Load, 0) || l.Load < 0 || math.IsNaN(l.Store) || math.IsInf(l.Store, 0) || l.Store < 0:
			return fmt.Errorf("machine model: memory level %d: load and store must be non-negative numbers of seconds", i)
		case math.IsNaN(l.Memcpy) || math.IsInf(l.Memcpy, 0) || l.Memcpy < 0:
			return fmt.Errorf("machine model: memory level %d: memcpy = %g must be a non-negative number of seconds", i, l.Memcpy)
		}
	}
	if m.SharedMemory != nil {
		if err := m.SharedMemory.Validate(); err != nil {
			return fmt.Errorf("machine model: sharedMemory: %w", err)
		}
	}
	for _, p := range sortedProcs(m.Comm) {
		if p < 1 {
			return fmt.Errorf("machine model: comm: processor count %d must be at least 1", p)
		}
		pats := make([]string, 0, len(m.Comm[p]))
		for name := range m.Comm[p] {
			pats = append(pats, name)
		}
		sort.Strings(pats)
		for _, name := range pats {
			if err := m.Comm[p][name].Validate(); err != nil {
				return fmt.Errorf("machine model: pattern %q at P=%d: %w", name, p, err)
			}
		}
	}
	return nil
}

// Validate checks a curve: segments that join, non-negative a and b, steps
// only up (see the file format above).
func (c Curve) Validate() error {
	if len(c) == 0 {
		return errors.New("no segments")
	}
	for i, s := range c {
		for _, v := range []struct {
			name string
			x    float64
		}{{"a", s.A}, {"b", s.B}} {
			if math.IsNaN(v.x) || math.IsInf(v.x, 0) || v.x < 0 {
				return fmt.Errorf("segment %d: %s = %g must be a non-negative number", i, v.name, v.x)
			}
		}
		if s.From < 0 {
			return fmt.Errorf("segment %d: from = %d is negative", i, s.From)
		}
		if s.To < 0 {
			return fmt.Errorf("segment %d: to = %d is negative", i, s.To)
		}
		last := i == len(c)-1
		switch {
		case i == 0 && s.From != 0:
			return fmt.Errorf("segment 0: from = %d, the first segment must start at 0", s.From)
		case i > 0 && s.From < c[i-1].From:
			return fmt.Errorf("segment %d: from = %d comes after from = %d: segments must be sorted", i, s.From, c[i-1].From)
		case i > 0 && s.From != c[i-1].To:
			return fmt.Errorf("segment %d: from = %d does not continue segment %d, which ends at %d", i, s.From, i-1, c[i-1].To)
		case !last && s.To == 0:
			return fmt.Errorf("segment %d: to = 0 (unbounded) is allowed on the last segment only", i)
		case last && s.To != 0:
			return fmt.Errorf("segment %d: to = %d, the last segment must be unbounded (to = 0)", i, s.To)
		case !last && s.To <= s.From:
			return fmt.Errorf("segment %d: to = %d must be greater than from = %d", i, s.To, s.From)
		}
		if i > 0 {
			x := float64(s.From)
			before, at := c[i-1].A+c[i-1].B*x, s.A+s.B*x
			if before > at*(1+machineStepSlack) {
				return fmt.Errorf("segment %d: time falls at %d bytes from %g s to %g s (steps may only go up)", i, s.From, before, at)
			}
		}
	}
	return nil
}

// Op returns the time in seconds of one operation. A name with dotted
// suffixes falls back to shorter names: "add.double" is looked up as
// "add.double", then "add". A name that matches nothing costs 0.
func (m *Machine) Op(name string) float64 {
	for {
		if v, ok := m.Ops[name]; ok {
			return v
		}
		i := strings.LastIndexByte(name, '.')
		if i < 0 {
			return 0
		}
		name = name[:i]
	}
}

// Procs returns the processor counts the model holds curves for, in
// increasing order.
func (m *Machine) Procs() []int { return sortedProcs(m.Comm) }

// CommTime returns the time one processor spends in a call of the given
// pattern with the given message size on procs processors:
//
//   - procs = 1: 0, one processor does not communicate;
//   - procs trained (a curve for the pattern at that count): the curve;
//   - between two trained counts P0 < procs < P1: linear interpolation in
//     log2 P between the two curves' times;
//   - a pattern the model has no curve for at any count but that has a
//     fallback (open-shift-strided, grid-shift-1 and grid-shift-2 →
//     open-shift → vector-shift, halo-2 and halo-4 → vector-shift): the
//     fallback;
//   - outside the trained counts: the nearest trained curve P* scaled by
//     the way the pattern's algorithm grows — broadcast and
//     reduction-broadcast by log2(procs)/log2(P*) (tree algorithms),
//     alltoall by (procs-1)/(P*-1) (one block to every other processor),
//     and the shifts and the exchange not at all (a processor talks to
//     its neighbours only, however many there are). Patterns outside
//     the Pattern... constants are not scaled either.
//
// Curves at P = 1 are not used. Errors: procs < 1, a negative or
// non-finite size, a pattern the model and the estimator do not know, or
// a known pattern the model has no curve for.
func (m *Machine) CommTime(pattern string, procs int, bytes float64) (float64, error) {
	for !m.HasPattern(pattern) && patternFallback[pattern] != "" {
		pattern = patternFallback[pattern]
	}
	known := false
	for _, p := range machinePatterns {
		known = known || p == pattern
	}
	var counts []int
	for _, p := range sortedProcs(m.Comm) {
		if _, ok := m.Comm[p][pattern]; ok && p >= 2 {
			counts = append(counts, p)
		}
	}
	switch {
	case !known && len(counts) == 0:
		return 0, fmt.Errorf("unknown communication pattern %q (known: %s)", pattern, strings.Join(machinePatterns, ", "))
	case procs < 1:
		return 0, fmt.Errorf("communication %q on %d processors: the processor count must be at least 1", pattern, procs)
	case math.IsNaN(bytes) || math.IsInf(bytes, 0) || bytes < 0:
		return 0, fmt.Errorf("communication %q: message size %g bytes must be a non-negative number", pattern, bytes)
	case procs == 1:
		return 0, nil
	case len(counts) == 0:
		return 0, fmt.Errorf("machine model %s has no curve for communication pattern %q", m.label(), pattern)
	}
	i := sort.SearchInts(counts, procs)
	switch {
	case i < len(counts) && counts[i] == procs:
		return m.Comm[procs][pattern].Time(bytes), nil
	case i == 0 || i == len(counts):
		ref := counts[0]
		if i == len(counts) {
			ref = counts[len(counts)-1]
		}
		return m.Comm[ref][pattern].Time(bytes) * patternScale(pattern, procs, ref), nil
	}
	p0, p1 := counts[i-1], counts[i]
	t0, t1 := m.Comm[p0][pattern].Time(bytes), m.Comm[p1][pattern].Time(bytes)
	f := (math.Log2(float64(procs)) - math.Log2(float64(p0))) / (math.Log2(float64(p1)) - math.Log2(float64(p0)))
	return t0 + (t1-t0)*f, nil
}

// patternScale is the factor that turns a pattern's time on ref
// processors into its time on procs processors (both at least 2).
func patternScale(pattern string, procs, ref int) float64 {
	switch pattern {
	case PatternBroadcast, PatternReductionBroadcast:
		return math.Log2(float64(procs)) / math.Log2(float64(ref))
	case PatternAllToAll:
		return float64(procs-1) / float64(ref-1)
	}
	return 1
}

func (m *Machine) label() string {
	if m.Name == "" {
		return "(unnamed)"
	}
	return fmt.Sprintf("%q", m.Name)
}

// Clone returns a deep copy of the model.
func (m *Machine) Clone() *Machine {
	c := *m
	if m.Ops != nil {
		c.Ops = make(map[string]float64, len(m.Ops))
		for k, v := range m.Ops {
			c.Ops[k] = v
		}
	}
	if m.Comm != nil {
		c.Comm = make(map[int]map[string]Curve, len(m.Comm))
		for p, pats := range m.Comm {
			cp := make(map[string]Curve, len(pats))
			for name, curve := range pats {
				cp[name] = append(Curve(nil), curve...)
			}
			c.Comm[p] = cp
		}
	}
	c.Memory = append([]MemoryLevel(nil), m.Memory...)
	c.SharedMemory = m.SharedMemory.clone()
	c.Provenance.Notes = append([]string(nil), m.Provenance.Notes...)
	c.Provenance.Derived = append([]DerivedCurve(nil), m.Provenance.Derived...)
	return &c
}

//go:embed default_model.json
var defaultModelJSON string

var defaultModel = sync.OnceValue(func() *Machine {
	m, err := LoadMachine(strings.NewReader(defaultModelJSON))
	if err != nil {
		panic("partition: the embedded default_model.json is invalid: " + err.Error())
	}
	return m
})

// DefaultMachine returns the model embedded in the binary
// (default_model.json; its provenance says where the numbers come from).
// Each call returns a fresh copy that the caller may change.
func DefaultMachine() *Machine { return defaultModel().Clone() }

func sortedProcs(comm map[int]map[string]Curve) []int {
	ps := make([]int, 0, len(comm))
	for p := range comm {
		ps = append(ps, p)
	}
	sort.Ints(ps)
	return ps
}

func sortedOpNames(ops map[string]float64) []string {
	names := make([]string, 0, len(ops))
	for k := range ops {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
