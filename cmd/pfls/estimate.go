package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pfls/pfls/capability"
	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/internal/svgplot"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

type jsonMessage struct {
	Pattern string `json:"pattern"`
	Array   string `json:"array"`
	Line    int    `json:"line"`
	Count   any    `json:"count"`
	Bytes   any    `json:"bytes"`
	Time    any    `json:"time"`
	Why     string `json:"why"`

	time partition.Poly // for the text output
}

type jsonEstimate struct {
	Distribution string        `json:"distribution"`
	Time         any           `json:"time"`
	Comm         any           `json:"comm"`
	Compute      any           `json:"compute"`
	Messages     []jsonMessage `json:"messages"`

	time, comm, compute partition.Poly // for the text output
}

type jsonCrossover struct {
	Symbol string `json:"symbol"`
	Value  int64  `json:"value"`
	Below  string `json:"below"`
	Above  string `json:"above"`
}

type jsonLoop struct {
	Line       int             `json:"line"`
	Unit       string          `json:"unit"`
	Current    jsonEstimate    `json:"current"`
	Candidates []jsonEstimate  `json:"candidates"`
	Crossovers []jsonCrossover `json:"crossovers"`
	Notes      []string        `json:"notes,omitempty"`

	report *partition.LoopReport // what the text rendering reads beyond the JSON
}

// num is a number when p is constant (and finite), else p's text.
func num(p partition.Poly) any {
	if v, ok := complexity.Seconds(p); ok && !math.IsInf(v, 0) && !math.IsNaN(v) {
		return v
	}
	return p.String()
}

// runEstimate implements `pfls estimate` (DESIGN.md §4).
func runEstimate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("estimate", flag.ContinueOnError)
	inc := includeFlags(fs)
	fs.SetOutput(stderr)
	machineFile := fs.String("machine", "", "machine model file (JSON; default: the model inside pfls)")
	procs := fs.Int("procs", 16, "number of processors")
	var setArg repeatedList
	fs.Var(&setArg, "set", "values of symbols and PARAMETERs, NAME=V,... (may be repeated)")
	vary := fs.String("vary", "", "symbol to find crossovers in (default: the one the array extents depend on)")
	line := fs.Int("line", 0, "estimate the loop starting on this line (default: every outermost loop)")
	plot := fs.String("plot", "", "write an SVG plot of time against the varied symbol")
	asJSON := fs.Bool("json", false, "print JSON")
	info := fs.Bool("machine-info", false, "describe the machine model (its provenance and curves) and stop")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if *info {
		if fs.NArg() != 0 {
			fmt.Fprintln(stderr, "pfls estimate: --machine-info takes no file (usage: pfls estimate [--machine FILE] --machine-info)")
			return 2
		}
		m, err := loadMachine(*machineFile)
		if err != nil {
			fmt.Fprintf(stderr, "pfls: %v\n", err)
			return 2
		}
		if m == nil {
			m = machine.DefaultMachine()
		}
		writeMachineInfo(stdout, m, *machineFile)
		return 0
	}
	if fs.NArg() < 1 {
		fmt.Fprintln(stderr, "pfls estimate: give a file (usage: pfls estimate [--machine FILE] [--procs P] [--set NAME=V,...] [--vary NAME] [--line L] [--plot FILE.svg] [--json] FILE [OTHER...])")
		return 2
	}
	if *procs < 1 || *procs > partition.MaxProcs {
		fmt.Fprintf(stderr, "pfls estimate: --procs %d: want 1 to %d\n", *procs, partition.MaxProcs)
		return 2
	}
	model, err := loadMachine(*machineFile)
	if err != nil {
		fmt.Fprintf(stderr, "pfls: %v\n", err)
		return 2
	}
	if model == nil {
		model = machine.DefaultMachine()
	}
	values, err := parseEval(setArg.String())
	if err != nil {
		fmt.Fprintf(stderr, "pfls: --set: %v\n", err)
		return 2
	}
	path := fs.Arg(0)
	f, err := parseFile(path, inc)
	if err != nil {
		fmt.Fprintf(stderr, "pfls: %v\n", err)
		return 2
	}
	// The program's other files: the procedures (modules, external
	// subroutines) the estimated file's loops call.
	var others []*parser.File
	for _, o := range fs.Args()[1:] {
		g, err := parseFile(o, inc)
		if err != nil {
			fmt.Fprintf(stderr, "pfls: %v\n", err)
			return 2
		}
		others = append(others, g)
	}
	opt := partition.Options{Machine: model, Procs: *procs, Values: values, Others: others}
	reports, err := partition.ReportsAt(f, *line, opt, partition.ReportOptions{Vary: *vary, Crossovers: true})
	if err != nil {
		fmt.Fprintf(stderr, "pfls estimate: %v\n", err)
		return 2
	}
	if *line != 0 && len(reports) == 0 {
		fmt.Fprintf(stderr, "pfls estimate: %s:%d: no DO loop starts on this line\n", path, *line)
		return 2
	}
	if *plot != "" {
		if err := checkPlotTarget(*plot); err != nil {
			fmt.Fprintf(stderr, "pfls estimate: --plot: %v\n", err)
			return 2
		}
	}
	var loops []jsonLoop
	var plotted *partition.LoopReport
	for _, r := range reports {
		jl := jsonLoop{report: r, Line: r.Line, Unit: r.Unit.Name,
			Current: jsonEstimateOf(f, r.Estimate), Candidates: []jsonEstimate{}, Crossovers: []jsonCrossover{}, Notes: r.Notes}
		for _, c := range r.Ranked {
			jl.Candidates = append(jl.Candidates, jsonEstimateOf(f, c.Est))
		}
		for _, c := range r.Crossovers {
			jl.Crossovers = append(jl.Crossovers, jsonCrossover{c.Symbol, c.Value, c.Below, c.Above})
		}
		if plotted == nil && r.Symbol != "" {
			plotted = r
		}
		loops = append(loops, jl)
	}
	if *plot != "" {
		var series []svgplot.Series
		symbol := ""
		if plotted != nil {
			symbol = plotted.Symbol
			for _, s := range plotted.Sweeps(plotted.PlotHi()) {
				series = append(series, svgplot.Series{Name: s.Name, X: s.X, Y: s.Y})
			}
		}
		out, err := os.Create(*plot)
		if err == nil {
			err = svgplot.WritePlot(out, fmt.Sprintf("%s at P = %d", filepath.Base(path), *procs), symbol, "estimated time (s)", series)
			if cerr := out.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "pfls: %v\n", fileErr(*plot, err))
			return 2
		}
	}
	if *asJSON {
		if loops == nil {
			loops = []jsonLoop{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Path  string     `json:"path"`
			Procs int        `json:"procs"`
			Loops []jsonLoop `json:"loops"`
		}{path, *procs, loops}); err != nil {
			fmt.Fprintf(stderr, "pfls: %v\n", err)
			return 2
		}
	} else {
		for _, l := range loops {
			writeEstimateText(stdout, path, *procs, l, model)
		}
	}
	return syntaxCode(f, stderr)
}

// syntaxCode reports the first error of a file on stderr and returns 1,
// or 0 when it has none: the estimate of a broken program is partial.
func syntaxCode(f *parser.File, stderr io.Writer) int {
	for _, e := range f.Errors() {
		if e.Severity == parser.SevError {
			l, c := f.Lines.RuneColumn(int(e.Pos))
			fmt.Fprintf(stderr, "%s:%d:%d: %s [%s]\n", f.Name, l+1, c+1, e.Msg, e.Code)
			return 1
		}
	}
	return 0
}

func jsonEstimateOf(f *parser.File, e *partition.Estimate) jsonEstimate {
	je := jsonEstimate{Distribution: e.Distribution, Time: num(e.Time), Comm: num(e.Comm), Compute: num(e.Compute), Messages: []jsonMessage{},
		time: e.Time, comm: e.Comm, compute: e.Compute}
	for _, m := range e.Messages {
		je.Messages = append(je.Messages, jsonMessage{Pattern: m.Pattern, Array: m.Array, Line: f.Lines.Line(m.Offset) + 1,
			Count: num(m.Count), Bytes: num(m.Bytes), Time: num(m.Time), Why: m.Why, time: m.Time})
	}
	return je
}

// seconds prints a time with a unit; a time that still depends on
// symbols is written term by term with units (68.5 µs·NLOC + 2.1 µs).
func seconds(v any, p partition.Poly) string {
	f, ok := v.(float64)
	if !ok {
		return capability.PolySeconds(p) + " (symbolic)"
	}
	return capability.HumanSeconds(f)
}

func writeEstimateText(w io.Writer, path string, procs int, l jsonLoop, m *machine.Machine) {
	fmt.Fprintf(w, "%s:%d: loop of %s at P = %d\n", path, l.Line, l.Unit, procs)
	fmt.Fprintf(w, "  current %s: %s (communication %s)\n", l.Current.Distribution, seconds(l.Current.Time, l.Current.time), seconds(l.Current.Comm, l.Current.comm))
	fmt.Fprintf(w, "    computation %s\n", seconds(l.Current.Compute, l.Current.compute))
	for _, m := range l.Current.Messages {
		fmt.Fprintf(w, "    %s of %s at line %d: %v × %v bytes = %s (%s)\n", m.Pattern, m.Array, m.Line, m.Count, m.Bytes, seconds(m.Time, m.time), m.Why)
	}
	if len(l.Candidates) > 0 {
		fmt.Fprintln(w, "  candidates, fastest first:")
		best, bestOK := l.Candidates[0].Time.(float64)
		for i, c := range l.Candidates {
			same := ""
			if t, ok := c.Time.(float64); ok && bestOK && i > 0 && m.AboutTheSame(t, best) {
				same = fmt.Sprintf("  about the same as the fastest (within the machine's %.0f%% noise)", 100*m.Noise)
			}
			fmt.Fprintf(w, "    %-22s %s (communication %s)%s\n", c.Distribution, seconds(c.Time, c.time), seconds(c.Comm, c.comm), same)
		}
	}
	// Crossovers in order, each with the range where its Below wins.
	for i, c := range l.Crossovers {
		from := ""
		if v, ok := l.report.From(i); ok {
			from = fmt.Sprintf("%d ≤ ", v)
		}
		fmt.Fprintf(w, "  crossover at %s = %d (P = %d): %s is faster for %s%s < %d, %s from %d on\n",
			c.Symbol, c.Value, procs, c.Below, from, c.Symbol, c.Value, c.Above, c.Value)
	}
	for _, n := range l.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if _, ok := l.Current.Time.(string); ok {
		fmt.Fprintln(w, "  note: the time still depends on symbols without a value; give them with --set NAME=V")
	}
}

// writeMachineInfo describes a machine model: where its numbers come from,
// its operation and memory times, and per processor count the segments of
// each communication curve.
func writeMachineInfo(w io.Writer, m *machine.Machine, file string) {
	where := "inside pfls"
	if file != "" {
		where = file
	}
	fmt.Fprintf(w, "machine model %q (%s)\n", m.Name, where)
	p := m.Provenance
	for _, kv := range [][2]string{{"source", p.Source}, {"host", p.Host}, {"cores", p.Cores}, {"mpi", p.MPI},
		{"compiler", p.Compiler}, {"date", p.Date}, {"options", p.Options}, {"load", p.Load}} {
		if kv[1] != "" {
			fmt.Fprintf(w, "  %-9s %s\n", kv[0]+":", kv[1])
		}
	}
	if m.Noise > 0 {
		fmt.Fprintf(w, "  noise:    %.0f%% run-to-run spread; estimates closer than this are about the same\n", 100*m.Noise)
	}
	for _, n := range p.Notes {
		fmt.Fprintf(w, "  note:     %s\n", n)
	}
	names := make([]string, 0, len(m.Ops))
	for k := range m.Ops {
		names = append(names, k)
	}
	sort.Strings(names)
	fmt.Fprintln(w, "operations:")
	for _, k := range names {
		fmt.Fprintf(w, "  %-20s %s\n", k, capability.HumanSeconds(m.Ops[k]))
	}
	if len(m.Memory) > 0 {
		fmt.Fprintln(w, "memory (per element, by the size of a loop's data):")
		for _, l := range m.Memory {
			line := fmt.Sprintf("  up to %-10s load %-9s store %s", humanBytes(l.Bytes), capability.HumanSeconds(l.Load), capability.HumanSeconds(l.Store))
			if l.Memcpy > 0 {
				line = fmt.Sprintf("%-48s memcpy %s per 8 bytes", line, capability.HumanSeconds(l.Memcpy))
			}
			fmt.Fprintln(w, line)
		}
	}
	writeSharedInfo(w, m) // train_omp.go
	for _, procs := range m.Procs() {
		fmt.Fprintf(w, "communication at P = %d (time of one call; a + b·bytes per segment):\n", procs)
		pats := make([]string, 0, len(m.Comm[procs]))
		for k := range m.Comm[procs] {
			pats = append(pats, k)
		}
		sort.Strings(pats)
		for _, name := range pats {
			var segs []string
			for _, s := range m.Comm[procs][name] {
				to := "∞"
				if s.To != 0 {
					to = humanBytes(s.To)
				}
				segs = append(segs, fmt.Sprintf("[%s, %s): %s + %.3g ns/B", humanBytes(s.From), to, capability.HumanSeconds(s.A), s.B*1e9))
			}
			fmt.Fprintf(w, "  %-20s %s\n", name, strings.Join(segs, "; "))
		}
	}
}

func humanBytes(b int64) string {
	switch {
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", b>>20)
	case b >= 1<<10 && b%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", b>>10)
	}
	return fmt.Sprintf("%d B", b)
}

// checkPlotTarget refuses to write a plot over an existing file that is
// not an SVG image (such as the source being estimated): only a file that
// starts like an SVG (after an XML declaration or comments) may be
// replaced.
func checkPlotTarget(path string) error {
	fh, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fileErr(path, err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return fileErr(path, err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file; give a new file name ending in .svg", path)
	}
	head := make([]byte, 1024)
	n, _ := io.ReadFull(fh, head)
	if !isSVG(head[:n]) {
		return fmt.Errorf("%s exists and is not an SVG image; pfls does not write over it (give a new file name ending in .svg)", path)
	}
	return nil
}

// isSVG reports whether the start of a file is an SVG document: an <svg
// element, possibly after an XML declaration, a doctype and comments.
func isSVG(head []byte) bool {
	s := strings.TrimLeft(string(head), "\ufeff \t\r\n")
	for {
		switch {
		case strings.HasPrefix(s, "<svg"):
			return true
		case strings.HasPrefix(s, "<?xml"), strings.HasPrefix(s, "<!--"), strings.HasPrefix(s, "<!DOCTYPE"), strings.HasPrefix(s, "<!doctype"):
			end := ">"
			if strings.HasPrefix(s, "<!--") {
				end = "-->"
			}
			i := strings.Index(s, end)
			if i < 0 {
				return false
			}
			s = strings.TrimLeft(s[i+len(end):], " \t\r\n")
		default:
			return false
		}
	}
}

// repeatedList is a flag that may be given more than once, each value a
// comma-separated list: --set N=512 --set M=8 is --set N=512,M=8 (the
// second --set replaced the first before).
type repeatedList []string

func (l *repeatedList) String() string { return strings.Join(*l, ",") }

func (l *repeatedList) Set(v string) error {
	*l = append(*l, v)
	return nil
}
