package train

// The shared-memory kernels of the training set: an OpenMP C program
// (trainer/pfls-omp.c, embedded) that pfls train compiles with the C
// compiler and -fopenmp and runs once with 1 to cores threads, the reader
// of its output and the fit that turns it into the machine model's
// shared-memory section. No I/O here either.

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/pfls/pfls/machine"
)

// OpenMPProgram is the C source of the shared-memory kernels (see the
// comment at its top for what it measures and prints).
//
//go:embed trainer/pfls-omp.c
var OpenMPProgram string

// OpenMPFigures are the shared-memory figures pfls-omp measures.
var OpenMPFigures = []string{"fork", "barrier", "reduction", "chunk", "bandwidth"}

// OpenMPRun is what one run of pfls-omp printed: per figure, the value at
// each thread count (seconds; bytes per second for bandwidth).
type OpenMPRun struct {
	Procs   int // omp_get_num_procs on the machine it ran on
	Figures map[string]map[int]float64
	Done    bool
}

// Threads are the thread counts the run measured, in increasing order.
func (r *OpenMPRun) Threads() []int {
	seen := map[int]bool{}
	var ts []int
	for _, f := range r.Figures {
		for t := range f {
			if !seen[t] {
				seen[t] = true
				ts = append(ts, t)
			}
		}
	}
	sort.Ints(ts)
	return ts
}

// ParseOpenMP reads the output of pfls-omp. Errors name the source and
// the line.
func ParseOpenMP(r io.Reader, source string) (*OpenMPRun, error) {
	run := &OpenMPRun{Figures: map[string]map[int]float64{}}
	known := map[string]bool{}
	for _, f := range OpenMPFigures {
		known[f] = true
	}
	sc := bufio.NewScanner(r)
	n := 0
	header := false
	for sc.Scan() {
		n++
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		bad := func(why string) error { return fmt.Errorf("%s:%d: %s: %q", source, n, why, sc.Text()) }
		switch fields[0] {
		case "omp-train":
			if len(fields) != 4 || fields[1] != "1" || fields[2] != "procs" {
				return nil, bad("unknown header (want omp-train 1 procs N)")
			}
			p, err := strconv.Atoi(fields[3])
			if err != nil || p < 1 {
				return nil, bad("processor count")
			}
			run.Procs, header = p, true
		case "omp":
			if !header {
				return nil, bad("a figure before the omp-train header")
			}
			if len(fields) == 2 && fields[1] == "end" {
				run.Done = true
				continue
			}
			if len(fields) != 4 || !known[fields[1]] {
				return nil, bad("want omp FIGURE THREADS VALUE")
			}
			t, err1 := strconv.Atoi(fields[2])
			v, err2 := strconv.ParseFloat(fields[3], 64)
			if err1 != nil || err2 != nil || t < 1 || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return nil, bad("threads or value")
			}
			if run.Figures[fields[1]] == nil {
				run.Figures[fields[1]] = map[int]float64{}
			}
			run.Figures[fields[1]][t] = v
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	if !header {
		return nil, fmt.Errorf("%s: no output from the shared-memory kernels", source)
	}
	if !run.Done {
		return nil, fmt.Errorf("%s: the shared-memory kernels stopped before their end (after line %d)", source, n)
	}
	for _, f := range OpenMPFigures {
		if len(run.Figures[f]) == 0 {
			return nil, fmt.Errorf("%s: no %s figure", source, f)
		}
	}
	return run, nil
}

// defaultGrowth is the growth assumed where the measurements cannot tell
// log from linear (fewer than three thread counts): a tree for the
// synchronisations, one thread after another for libgomp's reductions.
var defaultGrowth = map[string]string{
	"fork": machine.GrowthLog, "barrier": machine.GrowthLog, "chunk": machine.GrowthLog,
	"reduction": machine.GrowthLinear,
}

// FitOverhead fits a + b·g(t) to an overhead measured at several thread
// counts by least squares, with a, b ≥ 0: g = log2 t or t − 1, whichever
// leaves the smaller error when three or more counts were measured, else
// the growth given. It returns the fit and a note saying how it was made.
func FitOverhead(name string, at map[int]float64, growth string) (machine.Overhead, string) {
	ts := make([]int, 0, len(at))
	for t := range at {
		ts = append(ts, t)
	}
	sort.Ints(ts)
	fit := func(g string) (machine.Overhead, float64) {
		o := machine.Overhead{Growth: g}
		var sx, sy, sxx, sxy float64
		for _, t := range ts {
			x := machine.Overhead{B: 1, Growth: g}.Time(t)
			y := at[t]
			sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
		}
		k := float64(len(ts))
		if den := k*sxx - sx*sx; den > 0 {
			o.B = (k*sxy - sx*sy) / den
		}
		o.B = math.Max(o.B, 0)
		o.A = (sy - o.B*sx) / k
		if o.A < 0 && sxx > 0 {
			// The best line crosses below zero: the best with a = 0
			// goes through the origin (b = Σxy/Σx², not the clamped
			// line's slope, which overshoots every point).
			o.A, o.B = 0, math.Max(sxy/sxx, 0)
		}
		o.A = math.Max(o.A, 0)
		res := 0.0
		for _, t := range ts {
			d := o.Time(t) - at[t]
			res += d * d
		}
		return o, res
	}
	var parts []string
	for _, t := range ts {
		parts = append(parts, fmt.Sprintf("%.3g µs at %d", at[t]*1e6, t))
	}
	measured := strings.Join(parts, ", ")
	if len(ts) >= 3 {
		lg, rl := fit(machine.GrowthLog)
		ln, rn := fit(machine.GrowthLinear)
		o := lg
		if rn < rl {
			o = ln
		}
		return o, fmt.Sprintf("%s: %s threads; a = %.3g µs, b = %.3g µs, growth %s (the better fit)", name, measured, o.A*1e6, o.B*1e6, o.Growth)
	}
	o, _ := fit(growth)
	return o, fmt.Sprintf("%s: %s threads; a = %.3g µs, b = %.3g µs; growth %s assumed (too few thread counts to tell log from linear)", name, measured, o.A*1e6, o.B*1e6, growth)
}

// BuildShared turns a run of the shared-memory kernels into the model's
// section: each overhead fitted (FitOverhead), the core bandwidth the
// one-thread triad, the socket bandwidth the best triad of any thread
// count (one socket assumed: the kernels do not see sockets), the cores
// those the run saw.
func BuildShared(run *OpenMPRun, source string) (*machine.SharedMemory, error) {
	ts := run.Threads()
	if len(ts) == 0 || run.Figures["bandwidth"][1] <= 0 {
		return nil, fmt.Errorf("shared-memory kernels: no one-thread triad measured")
	}
	s := &machine.SharedMemory{Source: source, Cores: max(run.Procs, 1), Sockets: 1, Measured: ts}
	for _, f := range []struct {
		name string
		to   *machine.Overhead
	}{{"fork", &s.Fork}, {"barrier", &s.Barrier}, {"reduction", &s.Reduction}, {"chunk", &s.Chunk}} {
		o, note := FitOverhead(f.name, run.Figures[f.name], defaultGrowth[f.name])
		*f.to = o
		s.Notes = append(s.Notes, note)
	}
	bw := run.Figures["bandwidth"]
	s.CoreBandwidth = bw[1]
	best, bestT := 0.0, 1
	var parts []string
	for _, t := range ts {
		if v, ok := bw[t]; ok {
			parts = append(parts, fmt.Sprintf("%.3g GB/s at %d", v/1e9, t))
			if v > best {
				best, bestT = v, t
			}
		}
	}
	s.SocketBandwidth = best
	s.Notes = append(s.Notes, fmt.Sprintf("bandwidth (STREAM-like triad): %s threads; socket bandwidth the best of them (at %d); one socket assumed", strings.Join(parts, ", "), bestT))
	if last := ts[len(ts)-1]; last < s.Cores {
		s.Notes = append(s.Notes, fmt.Sprintf("measured up to %d threads on %d cores", last, s.Cores))
	}
	s.Notes = append(s.Notes, fmt.Sprintf("estimates with more than %d threads extrapolate these fits", ts[len(ts)-1]))
	return s, s.Validate()
}
