package main

// pfls validate: run the validation kit's MPI node programs and compare
// the measured times with pfls's estimates of the equivalent Fortran D
// sources (validation/README.md describes the kit).

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pfls/pfls/capability"
	"github.com/pfls/pfls/internal/svgplot"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/machine/train"
	"github.com/pfls/pfls/partition"
)

// kit is validation/kit.json: the kernels, their Fortran D sources and
// the layouts to compare.
type kit struct {
	// Library lists the sources every program is built with (the
	// kernels' shared module), relative to the kit.
	Library []string    `json:"library"`
	Kernels []kitKernel `json:"kernels"`
}

type kitKernel struct {
	Name    string           `json:"name"`
	Program string           `json:"program"` // MPI node program (Fortran 90), relative to the kit
	Source  string           `json:"source"`  // the Fortran D source pfls estimates
	Line    int              `json:"line"`    // the loop estimated (the timed one)
	Set     map[string]int64 `json:"set"`     // values besides N (NCYCLE, ...)
	Sizes   []int64          `json:"sizes"`
	Quick   []int64          `json:"quick_sizes"`
	Layouts []kitLayout      `json:"layouts"`
	Extra   []string         `json:"args,omitempty"` // trailing program arguments (a block size)
}

type kitLayout struct {
	Name         string `json:"name"`         // the node program's layout argument
	Distribution string `json:"distribution"` // the candidate distribution pfls names for it
}

// point is one kernel run and its estimate.
type point struct {
	Kernel   string  `json:"kernel"`
	Layout   string  `json:"layout"`
	Procs    int     `json:"procs"`
	N        int64   `json:"n"`
	Measured float64 `json:"measured"` // median over the repetitions, seconds
	Min      float64 `json:"min"`
	Max      float64 `json:"max"`
	Checksum float64 `json:"checksum"`
	Estimate float64 `json:"estimate"`
	Comm     float64 `json:"comm"` // estimated communication share of Estimate, seconds
	Error    float64 `json:"error"`
	// Oversubscribed: more ranks than cores; the estimate's computation
	// is scaled by P/cores.
	Oversubscribed bool `json:"oversubscribed,omitempty"`
}

// kernelSummary is the comparison for one kernel at one processor count.
type kernelSummary struct {
	Kernel           string   `json:"kernel"`
	Procs            int      `json:"procs"`
	Points           int      `json:"points"`
	MedianError      float64  `json:"medianError"`
	WorstError       float64  `json:"worstError"`
	MedianErrorComp  *float64 `json:"medianErrorComputation,omitempty"`
	MedianErrorComm  *float64 `json:"medianErrorCommunication,omitempty"`
	MeasuredCross    *float64 `json:"measuredCrossover,omitempty"`
	PredictedCross   *float64 `json:"predictedCrossover,omitempty"`
	CrossoverFactor  *float64 `json:"crossoverFactor,omitempty"`
	AboutTheSame     []int64  `json:"aboutTheSame,omitempty"` // sizes where noise exceeds the layouts' difference
	MeasuredFaster   []string `json:"measuredFaster"`         // per size, the faster layout measured
	PredictedFaster  []string `json:"predictedFaster"`
	Plot             string   `json:"plot,omitempty"`
	RatioPlot        string   `json:"ratioPlot,omitempty"`
	ChecksumsAgree   bool     `json:"checksumsAgree"`
	ChecksumMismatch string   `json:"checksumMismatch,omitempty"`
}

type validateReport struct {
	Machine machine.Provenance `json:"machine"`
	Points  []point            `json:"points"`
	Kernels []kernelSummary    `json:"kernels"`
}

func runValidate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kitDir := fs.String("kit", "validation", "the validation kit folder (with kit.json)")
	machineFile := fs.String("machine", "", "machine model file (default: the model inside pfls)")
	npArg := fs.String("np", "2,4", "processor counts, comma-separated")
	sizesArg := fs.String("sizes", "", "values of N, comma-separated (default: the kit's; with --quick its quick sizes)")
	quick := fs.Bool("quick", false, "small sizes and few repetitions")
	reps := fs.Int("reps", 0, "timed repetitions per run (default 5, 3 with --quick)")
	only := fs.String("kernel", "", "run only this kernel")
	outDir := fs.String("out", "", "write results.json and the SVG plots here")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	timeout := fs.Duration("timeout", 60*time.Minute, "stop after this long")
	mpirun := fs.String("mpirun", "", "MPI launcher (default: mpirun on PATH)")
	hostfile := fs.String("hostfile", "", "run the ranks on the machines this MPI hostfile lists (a cluster)")
	mpif90 := fs.String("mpif90", "mpif90", "MPI Fortran compiler wrapper")
	launches := fs.Int("launches", 0, "launches of each run, pooled by median (default 3, 1 with --quick)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(stderr, "pfls validate: usage: pfls validate [--kit DIR] [--machine FILE] [--np P,...] [--sizes N,...] [--quick] [--reps R] [--launches K] [--kernel NAME] [--out DIR] [--hostfile FILE] [--mpif90 PATH] [--mpirun PATH] [--json]")
		return 2
	}
	procs, err := parseProcs(*npArg)
	if err != nil {
		fmt.Fprintf(stderr, "pfls validate: --np %s: %v\n", *npArg, err)
		return 2
	}
	var sizes []int64
	if *sizesArg != "" {
		for _, f := range strings.Split(*sizesArg, ",") {
			n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
			if err != nil || n < 1 {
				fmt.Fprintf(stderr, "pfls validate: --sizes: %q is not a positive number\n", f)
				return 2
			}
			sizes = append(sizes, n)
		}
	}
	if *reps < 0 {
		fmt.Fprintf(stderr, "pfls validate: --reps %d: want at least 1\n", *reps)
		return 2
	}
	if *launches < 0 {
		fmt.Fprintf(stderr, "pfls validate: --launches %d: want at least 1\n", *launches)
		return 2
	}
	if *launches == 0 {
		*launches = 3
		if *quick {
			*launches = 1
		}
	}
	if *reps == 0 {
		*reps = 5
		if *quick {
			*reps = 3
		}
	}
	k, err := loadKit(*kitDir)
	if err != nil {
		fmt.Fprintf(stderr, "pfls validate: %v\n", err)
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
	mpi, err := findMPI(*mpif90, *mpirun)
	if err != nil {
		fmt.Fprintf(stderr, "pfls validate: %v\n", err)
		return 2
	}
	mpi.fc = mpi.cc // the kit's programs are Fortran
	if mpi.hostfile, err = hostfilePath(*hostfile); err != nil {
		fmt.Fprintf(stderr, "pfls validate: --hostfile: %v\n", err)
		return 2
	}
	if *outDir != "" {
		if err := os.MkdirAll(*outDir, 0o755); err != nil {
			fmt.Fprintf(stderr, "pfls validate: %v\n", fileErr(*outDir, err))
			return 2
		}
	}
	ctx, cancel := runContext(*timeout)
	defer cancel()
	tmp, err := os.MkdirTemp("", "pfls-validate-")
	if err != nil {
		fmt.Fprintf(stderr, "pfls validate: %v\n", err)
		return 2
	}
	defer os.RemoveAll(tmp)

	rep := validateReport{Machine: model.Provenance}
	failed := false
	for _, kk := range k.Kernels {
		if *only != "" && kk.Name != *only {
			continue
		}
		var srcs []source
		for _, f := range append(append([]string(nil), k.Library...), kk.Program) {
			text, err := os.ReadFile(filepath.Join(*kitDir, f))
			if err != nil {
				fmt.Fprintf(stderr, "pfls validate: %v\n", fileErr(filepath.Join(*kitDir, f), err))
				return 2
			}
			srcs = append(srcs, source{filepath.Base(f), string(text)})
		}
		prog, err := mpi.compile(ctx, tmp, srcs...)
		if err != nil {
			fmt.Fprintf(stderr, "pfls validate: %v\n", err)
			return 2
		}
		ns := sizes
		if ns == nil {
			ns = kk.Sizes
			if *quick && len(kk.Quick) > 0 {
				ns = kk.Quick
			}
		}
		for _, p := range procs {
			var pts []point
			for _, n := range ns {
				for _, l := range kk.Layouts {
					fmt.Fprintf(stderr, "%s %s N=%d P=%d\n", kk.Name, l.Name, n, p)
					pt, err := runLaunches(ctx, mpi, prog, kk, l, p, n, *reps, *launches)
					if err != nil {
						fmt.Fprintf(stderr, "pfls validate: %s %s N=%d P=%d: %v\n", kk.Name, l.Name, n, p, err)
						if ctx.Err() != nil {
							return 1
						}
						failed = true
						continue
					}
					est, comm, err := estimateKernel(*kitDir, kk, l, p, n, model)
					if err != nil {
						fmt.Fprintf(stderr, "pfls validate: %v\n", err)
						return 2
					}
					// With more ranks than cores each rank gets cores/P of
					// a core: its computation takes P/cores times longer.
					// (The communication curves trained at that P were
					// measured oversubscribed too.)
					if cores := runtime.NumCPU(); p > cores && mpi.hostfile == "" {
						est = comm + (est-comm)*float64(p)/float64(cores)
						pt.Oversubscribed = true
					}
					pt.Estimate, pt.Comm = est, comm
					if pt.Measured > 0 {
						pt.Error = (est - pt.Measured) / pt.Measured
					}
					pts = append(pts, pt)
				}
			}
			sum := summarize(kk, p, pts)
			if *outDir != "" && len(pts) > 0 {
				name := fmt.Sprintf("%s-P%d.svg", kk.Name, p)
				if err := plotKernel(filepath.Join(*outDir, name), kk, p, pts); err != nil {
					fmt.Fprintf(stderr, "pfls validate: %v\n", err)
					return 2
				}
				ratio := fmt.Sprintf("%s-P%d-ratio.svg", kk.Name, p)
				if err := plotRatio(filepath.Join(*outDir, ratio), kk, p, pts); err != nil {
					fmt.Fprintf(stderr, "pfls validate: %v\n", err)
					return 2
				}
				sum.Plot, sum.RatioPlot = name, ratio
			}
			if !sum.ChecksumsAgree {
				failed = true
			}
			rep.Points = append(rep.Points, pts...)
			rep.Kernels = append(rep.Kernels, sum)
		}
	}
	if len(rep.Kernels) == 0 {
		fmt.Fprintf(stderr, "pfls validate: no kernel named %q in %s\n", *only, filepath.Join(*kitDir, "kit.json"))
		return 2
	}
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "pfls validate: %v\n", err)
		return 1
	}
	if *outDir != "" {
		if err := os.WriteFile(filepath.Join(*outDir, "results.json"), append(data, '\n'), 0o644); err != nil {
			fmt.Fprintf(stderr, "pfls validate: %v\n", err)
			return 2
		}
	}
	if *asJSON {
		fmt.Fprintln(stdout, string(data))
	} else {
		writeValidateText(stdout, rep)
	}
	if failed {
		return 1
	}
	return 0
}

func loadKit(dir string) (*kit, error) {
	path := filepath.Join(dir, "kit.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fileErr(path, err)
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	var k kit
	if err := dec.Decode(&k); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: unexpected data after the kit at byte %d", path, dec.InputOffset())
	}
	if len(k.Kernels) == 0 {
		return nil, fmt.Errorf("%s: no kernels", path)
	}
	for i, kk := range k.Kernels {
		switch {
		case kk.Name == "" || kk.Program == "" || kk.Source == "" || kk.Line < 1:
			return nil, fmt.Errorf("%s: kernel %d needs name, program, source and line", path, i+1)
		case len(kk.Layouts) == 0:
			return nil, fmt.Errorf("%s: kernel %s has no layouts", path, kk.Name)
		case len(kk.Sizes) == 0:
			return nil, fmt.Errorf("%s: kernel %s has no sizes", path, kk.Name)
		}
	}
	return &k, nil
}

// runLaunches launches a run several times: a slow spell of the machine
// can last seconds and bend every repetition of one launch. With several
// launches the point is the median of the launches' medians, and its range
// (min, max) the range of those medians: the run-to-run spread, which
// decides "about the same". Every launch must compute the same checksum.
func runLaunches(ctx context.Context, mpi *mpiTools, prog string, kk kitKernel, l kitLayout, procs int, n int64, reps, launches int) (point, error) {
	var pts []point
	for i := 0; i < launches; i++ {
		pt, err := runKernel(ctx, mpi, prog, kk, l, procs, n, reps)
		if err != nil {
			return pt, err
		}
		if len(pts) > 0 && !closeRel(pt.Checksum, pts[0].Checksum, 1e-12) {
			return pt, fmt.Errorf("launch %d computed checksum %.13g, launch 1 %.13g", i+1, pt.Checksum, pts[0].Checksum)
		}
		pts = append(pts, pt)
	}
	out := pts[0]
	if len(pts) == 1 {
		return out, nil
	}
	meds := make([]float64, len(pts))
	out.Min, out.Max = math.Inf(1), 0
	for i, p := range pts {
		meds[i] = p.Measured
		out.Min = math.Min(out.Min, p.Measured)
		out.Max = math.Max(out.Max, p.Measured)
	}
	out.Measured = train.Median(meds)
	return out, nil
}

// runKernel runs one node program once (its REPS repetitions) and reads
// its result line.
func runKernel(ctx context.Context, mpi *mpiTools, prog string, kk kitKernel, l kitLayout, procs int, n int64, reps int) (point, error) {
	ncycle := kk.Set["NCYCLE"]
	if ncycle == 0 {
		ncycle = 1
	}
	args := append([]string{l.Name, strconv.FormatInt(n, 10), strconv.FormatInt(ncycle, 10), strconv.Itoa(reps)}, kk.Extra...)
	pt := point{Kernel: kk.Name, Layout: l.Name, Procs: procs, N: n}
	found := false
	err := mpi.exec(ctx, mpi.launch(procs, runtime.NumCPU()), prog, args, func(r io.Reader) error {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) == 0 || f[0] != "result" {
				continue
			}
			kv := map[string]string{}
			for _, x := range f[1:] {
				if k, v, ok := strings.Cut(x, "="); ok {
					kv[k] = v
				}
			}
			var err error
			get := func(k string) float64 {
				v, e := strconv.ParseFloat(kv[k], 64)
				if e != nil && err == nil {
					err = fmt.Errorf("result line: %s=%q is not a number", k, kv[k])
				}
				return v
			}
			pt.Measured, pt.Min, pt.Max, pt.Checksum = get("median"), get("min"), get("max"), get("checksum")
			if err != nil {
				return err
			}
			for _, v := range []float64{pt.Measured, pt.Min, pt.Max, pt.Checksum} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("result line %q: a time or the checksum is not a finite number", sc.Text())
				}
			}
			if pt.Min < 0 || pt.Min > pt.Measured || pt.Measured > pt.Max {
				return fmt.Errorf("result line %q: want 0 <= min <= median <= max", sc.Text())
			}
			found = true
		}
		return sc.Err()
	})
	if err != nil {
		return pt, err
	}
	if !found {
		return pt, fmt.Errorf("the program printed no result line")
	}
	return pt, nil
}

// estimateKernel is pfls's estimate of the kernel's Fortran D loop under
// the layout's distribution at N = n on procs processors: the time and
// its communication part.
func estimateKernel(dir string, kk kitKernel, l kitLayout, procs int, n int64, m *machine.Machine) (float64, float64, error) {
	path := filepath.Join(dir, kk.Source)
	f, err := parseFile(path)
	if err != nil {
		return 0, 0, err
	}
	values, err := parseEval(kitValues(kk, n))
	if err != nil {
		return 0, 0, err
	}
	loops := doLoops(f, kk.Line)
	if len(loops) == 0 {
		return 0, 0, fmt.Errorf("%s:%d: no DO loop starts on this line", path, kk.Line)
	}
	u, loop := loops[0].u, loops[0].loop
	_, cands := partition.Candidates(u, procs, "")
	for _, d := range cands {
		if d.Name() != l.Distribution {
			continue
		}
		e := partition.EstimateLoop(f, u, loop, d, partition.Options{Machine: m, Procs: procs, Values: values})
		t, ok1 := partition.Seconds(e.Time)
		c, ok2 := partition.Seconds(e.Comm)
		if !ok1 || !ok2 {
			return 0, 0, fmt.Errorf("%s:%d: the estimate still depends on a symbol: %s", path, kk.Line, e.Time.String())
		}
		return t, c, nil
	}
	var names []string
	for _, d := range cands {
		names = append(names, d.Name())
	}
	return 0, 0, fmt.Errorf("%s: no candidate distribution %q (candidates: %s)", path, l.Distribution, strings.Join(names, ", "))
}

func kitValues(kk kitKernel, n int64) string {
	parts := []string{"N=" + strconv.FormatInt(n, 10)}
	keys := make([]string, 0, len(kk.Set))
	for k := range kk.Set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%d", k, kk.Set[k]))
	}
	return strings.Join(parts, ",")
}

// summarize compares one kernel's points at one processor count.
func summarize(kk kitKernel, procs int, pts []point) kernelSummary {
	s := kernelSummary{Kernel: kk.Name, Procs: procs, Points: len(pts), ChecksumsAgree: true, MeasuredFaster: []string{}, PredictedFaster: []string{}}
	var all, comp, comm []float64
	for _, p := range pts {
		e := math.Abs(p.Error)
		all = append(all, e)
		if p.Comm > p.Estimate/2 {
			comm = append(comm, e)
		} else {
			comp = append(comp, e)
		}
		s.WorstError = math.Max(s.WorstError, e)
	}
	s.MedianError = train.Median(all)
	if len(comp) > 0 {
		v := train.Median(comp)
		s.MedianErrorComp = &v
	}
	if len(comm) > 0 {
		v := train.Median(comm)
		s.MedianErrorComm = &v
	}
	// Checksums: every layout computes the same thing.
	byN := map[int64][]point{}
	var ns []int64
	for _, p := range pts {
		if byN[p.N] == nil {
			ns = append(ns, p.N)
		}
		byN[p.N] = append(byN[p.N], p)
	}
	sort.Slice(ns, func(i, j int) bool { return ns[i] < ns[j] })
	for _, n := range ns {
		ps := byN[n]
		for _, p := range ps[1:] {
			if !closeRel(p.Checksum, ps[0].Checksum, 1e-5) {
				s.ChecksumsAgree = false
				s.ChecksumMismatch = fmt.Sprintf("N=%d: %s gives %.12g, %s gives %.12g", n, ps[0].Layout, ps[0].Checksum, p.Layout, p.Checksum)
			}
		}
	}
	if len(kk.Layouts) != 2 {
		return s
	}
	a, b := kk.Layouts[0].Name, kk.Layouts[1].Name
	var xs []float64
	var measDiff, predDiff []float64
	for _, n := range ns {
		var pa, pb *point
		for i := range byN[n] {
			switch byN[n][i].Layout {
			case a:
				pa = &byN[n][i]
			case b:
				pb = &byN[n][i]
			}
		}
		if pa == nil || pb == nil {
			continue
		}
		xs = append(xs, float64(n))
		measDiff = append(measDiff, math.Log(pa.Measured/pb.Measured))
		predDiff = append(predDiff, math.Log(pa.Estimate/pb.Estimate))
		faster := func(d float64) string {
			if d < 0 {
				return a
			}
			return b
		}
		s.MeasuredFaster = append(s.MeasuredFaster, faster(measDiff[len(measDiff)-1]))
		s.PredictedFaster = append(s.PredictedFaster, faster(predDiff[len(predDiff)-1]))
		// The layouts are "about the same" where their measured ranges
		// (min to max of the repetitions) overlap.
		if pa.Min <= pb.Max && pb.Min <= pa.Max {
			s.AboutTheSame = append(s.AboutTheSame, n)
		}
	}
	if x, ok := crossing(xs, measDiff); ok {
		s.MeasuredCross = &x
	}
	if x, ok := crossing(xs, predDiff); ok {
		s.PredictedCross = &x
	}
	if s.MeasuredCross != nil && s.PredictedCross != nil {
		f := *s.PredictedCross / *s.MeasuredCross
		if f < 1 {
			f = 1 / f
		}
		s.CrossoverFactor = &f
	}
	return s
}

// crossing is the first x where d changes sign, interpolated on log x.
func crossing(xs, d []float64) (float64, bool) {
	for i := 1; i < len(xs); i++ {
		if d[i-1] == 0 {
			return xs[i-1], true
		}
		if (d[i-1] < 0) != (d[i] < 0) {
			t := d[i-1] / (d[i-1] - d[i])
			return math.Exp(math.Log(xs[i-1]) + t*(math.Log(xs[i])-math.Log(xs[i-1]))), true
		}
	}
	return 0, false
}

func closeRel(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b)) || a == b
}

// plotKernel draws measured and predicted time against N for each
// layout, like Figure 6 of seed 003.
func plotKernel(path string, kk kitKernel, procs int, pts []point) error {
	var series []svgplot.Series
	for _, l := range kk.Layouts {
		meas := svgplot.Series{Name: l.Name + " measured"}
		pred := svgplot.Series{Name: l.Name + " predicted"}
		for _, p := range pts {
			if p.Layout != l.Name {
				continue
			}
			meas.X, meas.Y = append(meas.X, float64(p.N)), append(meas.Y, p.Measured)
			pred.X, pred.Y = append(pred.X, float64(p.N)), append(pred.Y, p.Estimate)
		}
		series = append(series, meas, pred)
	}
	out, err := os.Create(path)
	if err != nil {
		return fileErr(path, err)
	}
	err = svgplot.WritePlot(out, fmt.Sprintf("%s at P = %d: measured and predicted", kk.Name, procs), "N", "time of the loop (s)", series)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// plotRatio draws predicted/measured against log2 N for each layout, with
// the line of a perfect prediction: every size gets the same room, so the
// small sizes, where communication dominates and crossovers sit, show.
func plotRatio(path string, kk kitKernel, procs int, pts []point) error {
	var series []svgplot.Series
	perfect := svgplot.Series{Name: "predicted = measured"}
	seen := map[int64]bool{}
	for _, l := range kk.Layouts {
		s := svgplot.Series{Name: l.Name}
		for _, p := range pts {
			if p.Layout != l.Name || p.Measured <= 0 {
				continue
			}
			x := math.Log2(float64(p.N))
			s.X, s.Y = append(s.X, x), append(s.Y, p.Estimate/p.Measured)
			if !seen[p.N] {
				seen[p.N] = true
				perfect.X, perfect.Y = append(perfect.X, x), append(perfect.Y, 1)
			}
		}
		series = append(series, s)
	}
	sort.Float64s(perfect.X)
	series = append(series, perfect)
	out, err := os.Create(path)
	if err != nil {
		return fileErr(path, err)
	}
	err = svgplot.WriteRatioPlot(out, fmt.Sprintf("%s at P = %d: predicted / measured", kk.Name, procs), "log2 N", "predicted / measured", series)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

func writeValidateText(w io.Writer, rep validateReport) {
	fmt.Fprintf(w, "machine model: %s", rep.Machine.Source)
	if rep.Machine.Date != "" {
		fmt.Fprintf(w, ", %s", rep.Machine.Date)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-11s %-8s %2s %6s %11s %9s %11s %8s %6s\n", "kernel", "layout", "P", "N", "measured", "spread", "predicted", "error", "comm")
	for _, p := range rep.Points {
		spread := 0.0
		if p.Measured > 0 {
			spread = (p.Max - p.Min) / p.Measured
		}
		commShare := 0.0
		if p.Estimate > 0 {
			commShare = p.Comm / p.Estimate
		}
		fmt.Fprintf(w, "%-11s %-8s %2d %6d %11s %8.0f%% %11s %+7.0f%% %5.0f%%\n", p.Kernel, p.Layout, p.Procs, p.N,
			capability.HumanSeconds(p.Measured), 100*spread, capability.HumanSeconds(p.Estimate), 100*p.Error, 100*commShare)
	}
	for _, s := range rep.Kernels {
		if s.Points == 0 {
			fmt.Fprintf(w, "%s at P=%d: no run succeeded\n", s.Kernel, s.Procs)
			continue
		}
		fmt.Fprintf(w, "%s at P=%d: median error %.0f%%, worst %.0f%%", s.Kernel, s.Procs, 100*s.MedianError, 100*s.WorstError)
		if s.MedianErrorComp != nil {
			fmt.Fprintf(w, "; where computation dominates %.0f%%", 100**s.MedianErrorComp)
		}
		if s.MedianErrorComm != nil {
			fmt.Fprintf(w, "; where communication dominates %.0f%%", 100**s.MedianErrorComm)
		}
		fmt.Fprintln(w)
		switch {
		case s.MeasuredCross != nil && s.PredictedCross != nil:
			fmt.Fprintf(w, "  crossover: measured N ≈ %.0f, predicted N ≈ %.0f (factor %.2f)\n", *s.MeasuredCross, *s.PredictedCross, *s.CrossoverFactor)
		case s.MeasuredCross != nil:
			fmt.Fprintf(w, "  crossover: measured N ≈ %.0f, none predicted in the sizes run\n", *s.MeasuredCross)
		case s.PredictedCross != nil:
			fmt.Fprintf(w, "  crossover: predicted N ≈ %.0f, none measured in the sizes run\n", *s.PredictedCross)
		}
		if len(s.MeasuredFaster) > 0 {
			fmt.Fprintf(w, "  faster, measured:  %s\n  faster, predicted: %s\n", strings.Join(s.MeasuredFaster, " "), strings.Join(s.PredictedFaster, " "))
		}
		if len(s.AboutTheSame) > 0 {
			fmt.Fprintf(w, "  about the same (the repetitions' ranges overlap) at N = %v\n", s.AboutTheSame)
		}
		if !s.ChecksumsAgree {
			fmt.Fprintf(w, "  CHECKSUMS DIFFER: %s\n", s.ChecksumMismatch)
		}
		if s.Plot != "" {
			fmt.Fprintf(w, "  plots: %s, %s\n", s.Plot, s.RatioPlot)
		}
	}
}
