package profile

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strings"
)

// Profile is profile.json (DESIGN.md §4): totals over the ranks per
// source line, the time and bytes of each array (seed 001's nouns), and
// each rank's states over time (seed 002's timeline).
type Profile struct {
	Ranks    int        `json:"ranks"`
	Lines    []Line     `json:"lines"`
	Arrays   []Array    `json:"arrays"`
	Timeline []Interval `json:"timeline"`
}

// Line is what was measured on one source line, summed over the ranks:
// Count is the iterations of a DO loop, the entries of a branch or a
// routine (on its header line), the calls of an MPI call; Time is the
// loop's, routine's or MPI calls' time in seconds; Calls and Bytes are
// the MPI calls and the bytes they carried (a send to MPI_PROC_NULL
// carries none). Entries, on DO lines only, is the number of times the
// loop was entered, so Count/Entries is its mean trip count.
type Line struct {
	Path    string  `json:"path"`
	Line    int     `json:"line"`
	Count   int64   `json:"count"`
	Time    float64 `json:"time"`
	Calls   int64   `json:"calls"`
	Bytes   int64   `json:"bytes"`
	Entries int64   `json:"entries,omitempty"`
}

// Array is an array's share: the time of the innermost timed loops that
// write it (split evenly between the arrays a loop writes) and of the MPI
// calls whose buffer it is, and the bytes of those calls.
type Array struct {
	Name  string  `json:"name"`
	Time  float64 `json:"time"`
	Bytes int64   `json:"bytes"`
}

// Interval is one state of one rank: compute, send, receive, wait or
// collective, in seconds since the earliest rank left MPI_Init; Line is
// the source line of the MPI call (0 for compute).
type Interval struct {
	Rank  int     `json:"rank"`
	State string  `json:"state"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Line  int     `json:"line"`
}

// States are the timeline's states in the order of the legend: the five
// of issue 19's profile.json (PEP's states), which readers of the file
// may check. A combined send and receive (MPI_SENDRECV) waits for its
// incoming data, so it is a receive.
var States = []string{"compute", "send", "receive", "wait", "collective"}

// stateOf is the timeline state of an MPI routine.
func stateOf(fn string) string {
	switch fn {
	case "MPI_SEND", "MPI_SSEND", "MPI_ISEND":
		return "send"
	case "MPI_RECV", "MPI_IRECV", "MPI_SENDRECV", "MPI_SENDRECV_REPLACE":
		return "receive"
	case "MPI_WAIT", "MPI_WAITALL":
		return "wait"
	}
	return "collective"
}

// maxIntervals bounds the timeline's intervals per rank; longer ones are
// cut into bins of equal time, each shown in the state it spent most of
// the bin in.
const maxIntervals = 4000

// Build turns the measurements of a run into the profile.
func Build(p *Program, m *Measurement, absPaths []string) *Profile {
	prof := &Profile{Ranks: len(m.Ranks), Lines: []Line{}, Arrays: []Array{}, Timeline: []Interval{}}
	type key struct{ file, line int }
	lines := map[key]*Line{}
	get := func(file, line int) *Line {
		k := key{file, line}
		if l, ok := lines[k]; ok {
			return l
		}
		l := &Line{Path: absPaths[file], Line: line}
		lines[k] = l
		return l
	}
	arrays := map[string]*Array{}
	arr := func(name string) *Array {
		if a, ok := arrays[name]; ok {
			return a
		}
		a := &Array{Name: name}
		arrays[name] = a
		return a
	}
	for _, s := range p.Sites {
		if s.Kind == MPICall {
			continue
		}
		l := get(s.File, s.Line)
		for _, rk := range m.Ranks {
			l.Count += rk.Counts[s.Count]
			if s.Entries > 0 {
				l.Entries += rk.Counts[s.Entries]
			}
			if s.Timer > 0 {
				l.Time += rk.Times[s.Timer]
			}
		}
		if s.Leaf && s.Timer > 0 && len(s.Arrays) > 0 {
			var t float64
			for _, rk := range m.Ranks {
				t += rk.Times[s.Timer]
			}
			for _, a := range s.Arrays {
				arr(a).Time += t / float64(len(s.Arrays))
			}
		}
	}
	buffers := map[int][]string{}
	for _, s := range p.Sites {
		if s.Kind == MPICall {
			buffers[s.File*lineMarkerBase+s.Line] = s.Arrays
		}
	}
	for _, rk := range m.Ranks {
		for _, t := range rk.Lines {
			file, line := t.Code/lineMarkerBase, t.Code%lineMarkerBase
			if file >= len(absPaths) || line == 0 {
				continue // a call before any marked line (inside a library)
			}
			l := get(file, line)
			l.Count += t.Calls
			l.Calls += t.Calls
			l.Bytes += t.Bytes
			l.Time += t.Time
			if bs := buffers[t.Code]; len(bs) > 0 {
				for _, b := range bs {
					a := arr(b)
					a.Time += t.Time / float64(len(bs))
					a.Bytes += t.Bytes / int64(len(bs))
				}
			}
		}
	}
	for _, l := range lines {
		prof.Lines = append(prof.Lines, *l)
	}
	sort.Slice(prof.Lines, func(i, j int) bool {
		a, b := prof.Lines[i], prof.Lines[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	for _, a := range arrays {
		prof.Arrays = append(prof.Arrays, *a)
	}
	sort.Slice(prof.Arrays, func(i, j int) bool {
		a, b := prof.Arrays[i], prof.Arrays[j]
		if a.Time != b.Time {
			return a.Time > b.Time
		}
		return a.Name < b.Name
	})
	prof.Timeline = timeline(m)
	return prof
}

// timeline is every rank's states: compute between the MPI calls, the
// calls' states, from MPI_Init to MPI_Finalize (a program without MPI
// computes for its whole run).
func timeline(m *Measurement) []Interval {
	var out []Interval
	for r, rk := range m.Ranks {
		if !rk.MPI {
			out = append(out, Interval{Rank: r, State: "compute", Start: 0, End: m.Instrumented})
			continue
		}
		// Each rank's clock starts where it left the barrier the recorder
		// library adds to MPI_Init: the ranks' clocks need not agree.
		origin := rk.Start
		var iv []Interval
		at := 0.0
		for _, c := range rk.Calls {
			t0, t1 := c.T0-origin, c.T1-origin
			if t0 > at {
				iv = append(iv, Interval{Rank: r, State: "compute", Start: at, End: t0})
			}
			iv = append(iv, Interval{Rank: r, State: stateOf(c.Fn), Start: t0, End: t1, Line: c.Code % lineMarkerBase})
			at = math.Max(at, t1)
		}
		if end := rk.End - origin; end > at {
			iv = append(iv, Interval{Rank: r, State: "compute", Start: at, End: end})
		}
		out = append(out, coarsen(iv, r, 0, rk.End-origin)...)
	}
	return out
}

// coarsen cuts a rank's intervals into maxIntervals bins when there are
// more, each bin in its dominant state, and joins neighbours of one state
// and line.
func coarsen(iv []Interval, rank int, start, end float64) []Interval {
	if len(iv) <= maxIntervals || end <= start {
		return iv
	}
	w := (end - start) / maxIntervals
	bins := make([]Interval, 0, maxIntervals)
	j := 0
	for b := 0; b < maxIntervals; b++ {
		lo, hi := start+float64(b)*w, start+float64(b+1)*w
		share := map[string]float64{}
		lineOf := map[string]int{}
		for j < len(iv) && iv[j].End <= lo {
			j++
		}
		for k := j; k < len(iv) && iv[k].Start < hi; k++ {
			d := math.Min(iv[k].End, hi) - math.Max(iv[k].Start, lo)
			share[iv[k].State] += d
			if _, ok := lineOf[iv[k].State]; !ok {
				lineOf[iv[k].State] = iv[k].Line
			}
		}
		best := "compute"
		for _, s := range States {
			if share[s] > share[best] {
				best = s
			}
		}
		bins = append(bins, Interval{Rank: rank, State: best, Start: lo, End: hi, Line: lineOf[best]})
	}
	var out []Interval
	for _, b := range bins {
		if n := len(out); n > 0 && out[n-1].State == b.State && out[n-1].Line == b.Line {
			out[n-1].End = b.End
			continue
		}
		out = append(out, b)
	}
	return out
}

// loopStats are seed 002's statistics of one parallel loop.
type loopStats struct {
	site                  Site
	iterations, entries   int64
	mean, max             float64 // per rank, seconds
	imbalance, efficiency float64
	comm                  float64 // share of the loop's time in MPI calls
}

// stats computes the statistics of every timed loop: load imbalance is
// the largest rank's time over the mean, efficiency the ranks' time
// outside MPI over P times the largest rank's time, and the
// communication share the MPI time of the loop's lines and of the
// routines it calls (transitively; a routine called elsewhere too is
// charged here entirely) over the loop's time.
func stats(p *Program, m *Measurement) []loopStats {
	routines := map[string][]Site{}
	for _, s := range p.Sites {
		if s.Kind == Routine {
			routines[strings.ToUpper(s.Name)] = append(routines[strings.ToUpper(s.Name)], s)
		}
	}
	var out []loopStats
	for _, s := range p.Sites {
		if s.Kind != Loop || s.Timer == 0 {
			continue
		}
		entered := false
		for _, rk := range m.Ranks {
			entered = entered || rk.Counts[s.Entries] > 0
		}
		if !entered {
			continue
		}
		// The line ranges whose MPI calls belong to the loop.
		type span struct{ file, lo, hi int }
		spans := []span{{s.File, s.Line, s.EndLine}}
		seen := map[string]bool{}
		queue := append([]string{}, s.Callees...)
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			if seen[n] {
				continue
			}
			seen[n] = true
			for _, r := range routines[n] {
				spans = append(spans, span{r.File, r.Line, r.EndLine})
				queue = append(queue, r.Callees...)
			}
		}
		in := func(code int) bool {
			f, l := code/lineMarkerBase, code%lineMarkerBase
			for _, sp := range spans {
				if sp.file == f && l >= sp.lo && l <= sp.hi {
					return true
				}
			}
			return false
		}
		st := loopStats{site: s}
		var sum, busy, comm float64
		for _, rk := range m.Ranks {
			st.iterations += rk.Counts[s.Count]
			st.entries += rk.Counts[s.Entries]
			t := rk.Times[s.Timer]
			var c float64
			for _, lt := range rk.Lines {
				if in(lt.Code) {
					c += lt.Time
				}
			}
			c = math.Min(c, t)
			sum += t
			comm += c
			busy += t - c
			st.max = math.Max(st.max, t)
		}
		n := float64(len(m.Ranks))
		st.mean = sum / n
		if st.mean > 0 {
			st.imbalance = st.max / st.mean
			st.efficiency = busy / (n * st.max)
			st.comm = comm / sum
		}
		out = append(out, st)
	}
	return out
}

// Overhead is the instrumentation's cost in percent of the uninstrumented
// run's time.
func (m *Measurement) Overhead() float64 {
	if m.Plain <= 0 {
		return 0
	}
	return 100 * (m.Instrumented - m.Plain) / m.Plain
}

// WriteReport writes report.txt: the run, the overhead, seed 002's
// statistics per loop, the routines, the MPI calls per line, the arrays
// and what could not be instrumented.
func WriteReport(w io.Writer, p *Program, m *Measurement, prof *Profile) {
	name := func(file, line int) string { return fmt.Sprintf("%s:%d", filepath.Base(p.Paths[file]), line) }
	fmt.Fprintf(w, "pfls profile of %s\n", strings.Join(p.Paths, ", "))
	how := "MPI_Init to MPI_Finalize on rank 0"
	if len(m.Launch) > 0 {
		fmt.Fprintf(w, "ranks: %d (%s), compiled with %s -O2\n", prof.Ranks, strings.Join(m.Launch, " "), m.Compiler)
	} else {
		how = "the process's wall time"
		fmt.Fprintf(w, "one process, compiled with %s -O2\n", m.Compiler)
	}
	if m.Runs > 1 {
		how += fmt.Sprintf(", the fastest of %d runs each", m.Runs)
	}
	fmt.Fprintf(w, "run time: %s instrumented, %s uninstrumented (%s): instrumentation overhead %+.1f%%\n",
		seconds(m.Instrumented), seconds(m.Plain), how, m.Overhead())

	fmt.Fprintf(w, "\nLoops (times per rank; imbalance = max/mean, efficiency = time outside MPI / (P x max), comm = MPI share):\n")
	fmt.Fprintf(w, "  %-24s %12s %9s %11s %11s %9s %10s %6s\n", "loop", "iterations", "entries", "mean", "max", "imbalance", "efficiency", "comm")
	for _, st := range stats(p, m) {
		fmt.Fprintf(w, "  %-24s %12d %9d %11s %11s %9.2f %10.2f %5.1f%%\n", name(st.site.File, st.site.Line),
			st.iterations, st.entries, seconds(st.mean), seconds(st.max), st.imbalance, st.efficiency, 100*st.comm)
	}
	var untimed []string
	for _, s := range p.Sites {
		if s.Kind == Loop && s.Timer == 0 {
			untimed = append(untimed, fmt.Sprint(s.Line))
		}
	}
	if len(untimed) > 0 {
		fmt.Fprintf(w, "  (counted, not timed: the loops on lines %s — only the outermost loops of a routine without jumps out of them are timed)\n", strings.Join(untimed, ", "))
	}

	fmt.Fprintf(w, "\nRoutines (totals over the ranks):\n")
	for _, s := range p.Sites {
		if s.Kind != Routine || s.Timer == 0 {
			continue
		}
		var n int64
		var t float64
		for _, rk := range m.Ranks {
			n += rk.Counts[s.Count]
			t += rk.Times[s.Timer]
		}
		fmt.Fprintf(w, "  %-24s %-20s %10d calls %11s\n", s.Name, name(s.File, s.Line), n, seconds(t))
	}

	if len(m.Ranks) > 0 && len(m.Ranks[0].Lines) > 0 || p.MPI {
		fmt.Fprintf(w, "\nMPI calls per line (totals over the ranks):\n")
		type agg struct {
			calls, bytes int64
			time         float64
		}
		per := map[[2]string]*agg{}
		var keys [][2]string
		codes := map[[2]string]int{}
		for _, rk := range m.Ranks {
			for _, lt := range rk.Lines {
				k := [2]string{fmt.Sprint(lt.Code), lt.Fn}
				a, ok := per[k]
				if !ok {
					a = &agg{}
					per[k] = a
					keys = append(keys, k)
					codes[k] = lt.Code
				}
				a.calls += lt.Calls
				a.bytes += lt.Bytes
				a.time += lt.Time
			}
		}
		sort.Slice(keys, func(i, j int) bool {
			if codes[keys[i]] != codes[keys[j]] {
				return codes[keys[i]] < codes[keys[j]]
			}
			return keys[i][1] < keys[j][1]
		})
		for _, k := range keys {
			a := per[k]
			c := codes[k]
			where := "(unmarked)"
			if f := c / lineMarkerBase; f < len(p.Paths) && c%lineMarkerBase > 0 {
				where = name(f, c%lineMarkerBase)
			}
			fmt.Fprintf(w, "  %-24s %-22s %10d calls %14d bytes %11s\n", where, k[1], a.calls, a.bytes, seconds(a.time))
		}
		var dropped int64
		for _, rk := range m.Ranks {
			dropped += rk.Dropped
		}
		if dropped > 0 {
			fmt.Fprintf(w, "  (the timeline leaves out %d calls past the library's limit; the totals count them)\n", dropped)
		}
	}

	if len(prof.Arrays) > 0 {
		fmt.Fprintf(w, "\nArrays (time of the innermost timed loops writing them and of their messages):\n")
		for _, a := range prof.Arrays {
			fmt.Fprintf(w, "  %-24s %11s %14d bytes\n", a.Name, seconds(a.Time), a.Bytes)
		}
	}
	if len(p.Skipped) > 0 {
		fmt.Fprintf(w, "\nNot instrumented:\n")
		for _, s := range p.Skipped {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
}

// seconds prints a time with a unit that suits it.
func seconds(s float64) string { return Seconds(s) }

// Seconds prints a time in seconds with a unit that suits it.
func Seconds(s float64) string {
	switch {
	case s >= 1:
		return fmt.Sprintf("%.3f s", s)
	case s >= 1e-3:
		return fmt.Sprintf("%.3f ms", s*1e3)
	}
	return fmt.Sprintf("%.3f µs", s*1e6)
}
