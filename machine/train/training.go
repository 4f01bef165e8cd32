// Package train holds the training set (an MPI C program, embedded),
// the reader of its output and the piecewise-linear fits that turn the
// measurements into a machine.Machine. It does no I/O: running the
// program is internal/mpirun's business and the command's.
package train

// The training set: the MPI program pfls compiles and runs to measure a
// machine (trainer/pfls-train.c, embedded here so the binary carries it),
// the reader of what it prints, and the fit that turns the measurements
// into a machine model. Running the program is the command's business
// (cmd/pfls/train.go): this file does no I/O of its own.

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pfls/pfls/machine"
)

// TrainingProgram is the C source of the training set (see the comment at
// its top for what it measures and the lines it prints).
//
//go:embed trainer/pfls-train.c
var TrainingProgram string

// TrainingRun is what one run of the training set at one processor count
// printed.
type TrainingRun struct {
	Procs  int
	MPI    string           // MPI_Get_library_version
	Limits map[string]int64 // eager limits the library reported
	// Comm holds per pattern the points measured (median of the passes,
	// with their relative spread), sorted by size.
	Comm map[string][]Sample
	// Kernels holds per kernel name the seconds per element by the bytes
	// its arrays take.
	Kernels map[string]map[int64]float64
	Trips   [][2]float64 // trip count, seconds per loop
	Done    bool         // the program got to its end
}

// TrainingProgress is a progress line: measurement Done of Total starts,
// with a label such as "vector-shift 4096".
type TrainingProgress struct {
	Done, Total int
	Label       string
}

// ParseTraining reads the output of one run of the training set. progress,
// when not nil, is called for each progress line as it arrives, so a
// caller that reads a running program's output can show how far it is.
// Errors name the source and the line.
func ParseTraining(r io.Reader, source string, progress func(TrainingProgress)) (*TrainingRun, error) {
	run := &TrainingRun{Limits: map[string]int64{}, Comm: map[string][]Sample{}, Kernels: map[string]map[int64]float64{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	line := 0
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", source, line, fmt.Sprintf(format, args...))
	}
	num := func(s string) (float64, error) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return 0, fmt.Errorf("%q is not a non-negative number", s)
		}
		return v, nil
	}
	integer := func(s string) (int64, error) {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < 0 {
			return 0, fmt.Errorf("%q is not a non-negative integer", s)
		}
		return v, nil
	}
	seenHeader := false
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		f := strings.Fields(text)
		if !seenHeader {
			if f[0] != "pfls-train" {
				return nil, bad("not the output of the pfls training set (want a first line \"pfls-train 1\", got %q)", text)
			}
			if len(f) != 2 || f[1] != "1" {
				return nil, bad("training set output version %q; this pfls reads version 1", strings.Join(f[1:], " "))
			}
			seenHeader = true
			continue
		}
		want := func(n int) error {
			if len(f) != n {
				return bad("%s line needs %d fields, has %d", f[0], n, len(f))
			}
			return nil
		}
		switch f[0] {
		case "procs":
			if err := want(2); err != nil {
				return nil, err
			}
			p, err := integer(f[1])
			if err != nil || p < 1 {
				return nil, bad("processor count %q", f[1])
			}
			run.Procs = int(p)
		case "mpi":
			run.MPI = strings.TrimSpace(strings.TrimPrefix(text, "mpi"))
		case "limit":
			if err := want(3); err != nil {
				return nil, err
			}
			v, err := integer(f[2])
			if err != nil {
				return nil, bad("limit %s: %v", f[1], err)
			}
			run.Limits[f[1]] = v
		case "progress":
			if len(f) < 3 {
				return nil, bad("progress line needs at least 3 fields")
			}
			d, err1 := integer(f[1])
			t, err2 := integer(f[2])
			if err1 != nil || err2 != nil || d > t {
				return nil, bad("progress counts %q of %q", f[1], f[2])
			}
			if progress != nil {
				progress(TrainingProgress{Done: int(d), Total: int(t), Label: strings.Join(f[3:], " ")})
			}
		case "comm":
			if err := want(7); err != nil {
				return nil, err
			}
			b, err := integer(f[2])
			if err != nil {
				return nil, bad("comm %s: size: %v", f[1], err)
			}
			var v [3]float64
			for i := range v {
				if v[i], err = num(f[3+i]); err != nil {
					return nil, bad("comm %s %d: %v", f[1], b, err)
				}
			}
			if v[1] > v[0] || v[0] > v[2] {
				return nil, bad("comm %s %d: the median %g is not between the minimum %g and the maximum %g", f[1], b, v[0], v[1], v[2])
			}
			spread := 0.0
			if v[0] > 0 {
				spread = (v[2] - v[1]) / v[0]
			}
			run.Comm[f[1]] = append(run.Comm[f[1]], Sample{Bytes: b, Seconds: v[0], Spread: spread})
		case "kernel":
			if err := want(4); err != nil {
				return nil, err
			}
			b, err := integer(f[2])
			if err != nil || b == 0 {
				return nil, bad("kernel %s: bytes %q", f[1], f[2])
			}
			v, err := num(f[3])
			if err != nil {
				return nil, bad("kernel %s: %v", f[1], err)
			}
			if run.Kernels[f[1]] == nil {
				run.Kernels[f[1]] = map[int64]float64{}
			}
			run.Kernels[f[1]][b] = v
		case "trip":
			if err := want(3); err != nil {
				return nil, err
			}
			n, err1 := integer(f[1])
			t, err2 := num(f[2])
			if err1 != nil || err2 != nil {
				return nil, bad("trip %q %q", f[1], f[2])
			}
			run.Trips = append(run.Trips, [2]float64{float64(n), t})
		case "done":
			run.Done = true
		default:
			return nil, bad("unknown line %q", f[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	switch {
	case !seenHeader:
		return nil, fmt.Errorf("%s: no output from the training set", source)
	case run.Procs == 0:
		return nil, fmt.Errorf("%s: the training set did not say its processor count", source)
	case !run.Done:
		return nil, fmt.Errorf("%s:%d: the output stops before the end (the training set did not finish)", source, line)
	}
	for _, s := range run.Comm {
		sort.SliceStable(s, func(i, j int) bool { return s[i].Bytes < s[j].Bytes })
	}
	if len(run.Kernels["copy"]) == 0 {
		return nil, fmt.Errorf("%s: no copy kernel measured", source)
	}
	return run, nil
}

// TrainedFit is how one curve of a trained model fits its points.
type TrainedFit struct {
	Procs   int
	Pattern string
	Report  FitReport
	// Spread is the median relative spread (max-min)/median of the
	// passes over the curve's points: the run-to-run noise.
	Spread float64
}

// BuildMachine fits the runs of the training set (one per processor
// count) into a machine model. Operation times and memory levels come
// from the run with the fewest processors (the others may have shared
// cores).
//
// The estimator charges every array reference a memory access and every
// operator its own time, and a statement the larger of the two sums, so
// the kernels are split the same way (opsOf): a reference costs half the
// time per element of a two- or three-array kernel (the loop's own
// per-element overhead shares in it), an operation what its kernel takes
// beyond its references, or all of it where the arithmetic dominates. The
// memory levels scale that reference time by the copy kernel's time at
// each working set against its time in L1; the memcpy kernel, where the
// run has it, gives copy loops their own times (memcpyOf). The
// per-loop overhead is the intercept of a straight line through the
// trip-count points, and the per-iteration overhead what its slope
// leaves over the add kernel's references and addition.
func BuildMachine(runs []*TrainingRun, prov machine.Provenance, opt FitOptions) (*machine.Machine, []TrainedFit, error) {
	if len(runs) == 0 {
		return nil, nil, fmt.Errorf("no training runs to build a model from")
	}
	m := &machine.Machine{Name: "trained", Provenance: prov, Ops: map[string]float64{}, Comm: map[int]map[string]machine.Curve{}}
	first := runs[0]
	for _, r := range runs {
		if r.Procs < first.Procs {
			first = r
		}
	}
	m.Ops, m.Memory = opsOf(first)
	if a, b, ok := lineFit(first.Trips); ok {
		m.Ops["loop"] = math.Max(a, 0)
		m.Ops["iteration"] = math.Max(b-3*m.Op("load")-m.Op("add"), 0)
	}
	var fits []TrainedFit
	for _, r := range runs {
		if r.Procs < 2 {
			continue
		}
		if len(r.Comm) == 0 {
			return nil, nil, fmt.Errorf("at P=%d the training set measured no communication", r.Procs)
		}
		pats := make([]string, 0, len(r.Comm))
		for p := range r.Comm {
			pats = append(pats, p)
		}
		sort.Strings(pats)
		for _, p := range pats {
			// A message of 0 bytes is a special case for MPI libraries
			// (Open MPI returns from a 0-byte broadcast at once: 40 ns
			// against 300 ns at 8 B) and never one the estimator sends;
			// fitting it would bend the first segment by half.
			var samples []Sample
			for _, x := range r.Comm[p] {
				if x.Bytes > 0 {
					samples = append(samples, x)
				}
			}
			if len(samples) == 0 {
				samples = r.Comm[p]
			}
			c, rep, err := FitCurve(samples, opt)
			if err != nil {
				return nil, nil, fmt.Errorf("fitting %s at P=%d: %w", p, r.Procs, err)
			}
			if m.Comm[r.Procs] == nil {
				m.Comm[r.Procs] = map[string]machine.Curve{}
			}
			m.Comm[r.Procs][p] = c
			spreads := make([]float64, 0, len(samples))
			for _, s := range samples {
				spreads = append(spreads, s.Spread)
			}
			fits = append(fits, TrainedFit{Procs: r.Procs, Pattern: p, Report: rep, Spread: machine.Median(spreads)})
		}
	}
	spreads := make([]float64, 0, len(fits))
	for _, f := range fits {
		spreads = append(spreads, f.Spread)
	}
	m.Noise = math.Round(machine.Median(spreads)*1000) / 1000
	if err := m.Validate(); err != nil {
		return nil, nil, err
	}
	return m, fits, nil
}

// lineFit is the least-squares line y = a + b·x through the points
// (the fits' sums, all weights 1).
func lineFit(pts [][2]float64) (a, b float64, ok bool) {
	var s fitSums
	for _, p := range pts {
		s.add(p[0], p[1], 1)
	}
	return s.line()
}

// FitNotes says, per processor count, where the curves step and how well
// they fit, for the model's provenance.
func FitNotes(runs []*TrainingRun, fits []TrainedFit) []string {
	var notes []string
	for _, r := range runs {
		var lim []string
		for name, v := range r.Limits {
			lim = append(lim, fmt.Sprintf("%s=%d", name, v))
		}
		sort.Strings(lim)
		if len(lim) > 0 {
			notes = append(notes, fmt.Sprintf("P=%d: limits the MPI library reports: %s", r.Procs, strings.Join(lim, ", ")))
		}
	}
	for _, f := range fits {
		var steps []string
		for _, s := range f.Report.Steps {
			if s.Before > 0 {
				steps = append(steps, fmt.Sprintf("x%.1f at %d B", s.After/s.Before, s.Bytes))
			}
		}
		note := fmt.Sprintf("P=%d %s: %d segments, fit error %.1f%% rms / %.1f%% worst, run-to-run spread %.0f%%",
			f.Procs, f.Pattern, f.Report.Segments, 100*f.Report.RMSRel, 100*f.Report.MaxRel, 100*f.Spread)
		if len(steps) > 0 {
			note += ", steps " + strings.Join(steps, ", ")
		}
		notes = append(notes, note)
	}
	return notes
}

// The smallest operation time a model gets from the kernels (see
// BuildMachine): 0.01 ns, a tenth of a cycle at 10 GHz, so that an
// operation the memory time hides (the kernel minus its references came
// out ≤ 0 in the training runs of 2026-11-22) still costs more than
// nothing and keeps its place in the ordering of operations.
const minOpTime = 1e-11

// floorOp is the smallest time an operation gets from a kernel that takes
// v a element: minOpTime, but never more than the whole kernel (a
// simulated node of 1 Tflop/s adds in 1e-12 s, under minOpTime).
func floorOp(v float64) float64 { return math.Min(minOpTime, math.Max(v, 0)) }

// memcpyOf adds the memcpy kernel's times (seconds per 8 bytes by the
// bytes of source and target) to a model: "copy.memcpy" is its time at
// the smallest size measured (the first level, L1), and each memory
// level gets the time measured at its own size, not the L1 time scaled
// by the copy kernel's ratios: memcpy moves vectors, so in L1 it takes
// a fraction of the scalar copy kernel's time, while from main memory
// both wait for the same bandwidth (on the machine of the built-in model
// 0.076 against 0.55 ns in L1, 0.54 against 0.57 ns at 64 MiB). A level
// at a size the memcpy kernel was not run at takes the time of the
// nearest size measured below it (the smallest when none is). Outputs
// without the kernel change nothing: the estimator then prices copy
// loops from the copy kernel's levels.
func memcpyOf(times map[int64]float64, ops map[string]float64, mem []machine.MemoryLevel) {
	if len(times) == 0 {
		return
	}
	sizes := make([]int64, 0, len(times))
	for b := range times {
		sizes = append(sizes, b)
	}
	slices.Sort(sizes)
	ops["copy.memcpy"] = times[sizes[0]]
	for i := range mem {
		at := sizes[0]
		for _, b := range sizes {
			if b <= mem[i].Bytes {
				at = b
			}
		}
		mem[i].Memcpy = times[at]
	}
}

// opsOf splits the kernel times of a run into operation and memory times.
func opsOf(r *TrainingRun) (map[string]float64, []machine.MemoryLevel) {
	ops := map[string]float64{}
	at := func(name string) (int64, float64, bool) {
		for b, v := range r.Kernels[name] {
			return b, v, true
		}
		return 0, 0, false
	}
	copies := r.Kernels["copy"]
	sizes := make([]int64, 0, len(copies))
	for b := range copies {
		sizes = append(sizes, b)
	}
	sort.Slice(sizes, func(i, j int) bool { return sizes[i] < sizes[j] })
	// The time of one reference in L1: half the faster of the copy and
	// the add kernel per element. Either may run at half speed for
	// reasons that have nothing to do with its work (how its arrays sit
	// in a page, a library call the compiler put in its place); both are
	// bound by their one store per element.
	b0, add, hasAdd := at("add")
	l1, ok := copies[b0]
	if !ok {
		l1 = copies[sizes[0]]
	}
	ref := l1 / 2
	if hasAdd && add/2 < ref {
		ref = add / 2
	}
	ops["load"], ops["store"] = ref, ref
	// The memory levels keep the copy kernel's ratios to its L1 time.
	var mem []machine.MemoryLevel
	for _, b := range sizes {
		v := ref
		if l1 > 0 {
			v = ref * math.Max(copies[b]/l1, 1)
		}
		mem = append(mem, machine.MemoryLevel{Bytes: b, Load: v, Store: v})
	}
	memcpyOf(r.Kernels["memcpy"], ops, mem)
	// A pipelined operation (add, mul, compare: the processor starts one
	// or more per cycle) costs what its kernel takes beyond its references,
	// at least 0.01 ns: the memory accesses hide it. A long-latency one
	// (division, intrinsics, pow, a call) costs its whole kernel time where
	// that outlasts the references: the estimator charges a statement the
	// larger of its memory and arithmetic times, which then gives the
	// kernel's time. (Deciding by the kernel time alone misread an add
	// kernel that ran at half speed in one run as arithmetic-bound.)
	for _, k := range []struct {
		kernel, op string
		refs       float64
		long       bool
	}{
		{"add", "add", 3, false}, {"add", "sub", 3, false}, {"add", "logical", 3, false}, {"mul", "mul", 3, false},
		{"div", "div", 3, true}, {"div.real", "div.real", 3, true}, {"div.int", "div.int", 3, true},
		{"sqrt", "intrinsic.sqrt", 2, true}, {"exp", "intrinsic", 2, true}, {"pow", "pow", 3, true},
		{"select", "compare", 3, false}, {"call", "call", 2, true},
	} {
		_, v, ok := at(k.kernel)
		if !ok {
			continue
		}
		memory := k.refs * ref
		if k.long && v > memory {
			ops[k.op] = v
		} else {
			ops[k.op] = math.Max(v-memory, floorOp(v))
		}
	}
	// A non-unit stride: half a strided copy (one load, one store).
	if _, v, ok := at("copy.strided"); ok {
		ops["load.strided"] = math.Max(v/2, ref)
	}
	// A reference reusing the cache lines of a neighbouring one: what the
	// five-point stencil kernel (two arrays, six references) takes beyond
	// its two streams, over its four other references; in strided loops
	// the same from the red-black kernel (two arrays, six references, with
	// the strided stream time). Older outputs have the three-point
	// stencil only.
	if _, v, ok := at("stencil5"); ok {
		ops["load.reuse"] = math.Max((v-2*ref)/4, floorOp(v/4))
	} else if _, v, ok := at("stencil"); ok {
		ops["load.reuse"] = math.Max(v-2*ref-ops["add"], floorOp(v))
	}
	if _, v, ok := at("redblack"); ok {
		ops["load.reuse.strided"] = math.Max((v-2*ops["load.strided"])/4, floorOp(v/4))
	}
	// A reference to a REAL (4-byte) element: the L1 reference time times
	// the REAL five-point stencil's time over the DOUBLE one's (the same
	// loop, so the same instructions: about 1 where the compiler leaves
	// the loop scalar, about 1/2 where it moves vectors), at most the
	// DOUBLE time. Older outputs have no REAL stencil: the estimator then
	// scales REAL references by their bytes (partition.coreScale).
	if _, vr, ok := at("stencil5.real"); ok {
		if _, vd, ok := at("stencil5"); ok && vd > 0 {
			ops["load.real"] = ref * math.Min(vr/vd, 1)
		}
	}
	return ops, mem
}
