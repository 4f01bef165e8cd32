package kit

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/internal/mpirun"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

// Config is one validation run: which kit, machine model and MPI, and
// what to run.
type Config struct {
	Dir      string // the kit folder (with kit.json)
	Kit      *Kit
	Machine  *machine.Machine
	MPI      *mpirun.Tools
	Procs    []int
	Sizes    []int64 // nil: the kernels' sizes (Quick: their quick sizes)
	Quick    bool
	Reps     int    // timed repetitions per run
	Launches int    // launches per run, pooled by median
	Only     string // run only this kernel ("" : all)
	Out      string // write the SVG plots here ("" : none)
	Cores    int    // cores of this machine (0: runtime.NumCPU)
	// Charged builds the kernels with the kit's SMPI charge module: under
	// SimGrid's SMPI with smpi/simulate-computation:no, each loop charges
	// its operation count to the simulated host.
	Charged bool
	// Progress, when not nil, receives one line per run started.
	Progress io.Writer
}

// ErrNoKernel says that Config.Only names no kernel of the kit.
var ErrNoKernel = errors.New("no such kernel")

// Run compiles each kernel's node program in a temporary folder (removed
// before Run returns, whatever happens), runs it at every size, layout
// and processor count, estimates each run and summarises the comparison.
// A run that fails is reported on Progress and left out (the report is
// then marked Failed); a cancelled ctx stops everything and Run returns
// ctx's error; other errors (unreadable kit files, a failed compile, a
// loop pfls cannot estimate, a plot that cannot be written) stop Run.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	cores := cfg.Cores
	if cores == 0 {
		cores = runtime.NumCPU()
	}
	progress := cfg.Progress
	if progress == nil {
		progress = io.Discard
	}
	tmp, err := os.MkdirTemp("", "pfls-validate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	rep := &Report{Machine: cfg.Machine.Provenance}
	for _, kk := range cfg.Kit.Kernels {
		if cfg.Only != "" && kk.Name != cfg.Only {
			continue
		}
		charge := cfg.Kit.Charge.MPI
		if cfg.Charged {
			if charge = cfg.Kit.Charge.SMPI; charge == "" {
				return nil, fmt.Errorf("%s: no charge.smpi: the kernels cannot charge their computation to a simulated host", filepath.Join(cfg.Dir, "kit.json"))
			}
		}
		var files []string
		if charge != "" {
			files = append(files, charge)
		}
		var srcs []mpirun.Source
		for _, f := range append(append(files, cfg.Kit.Library...), kk.Program) {
			text, err := os.ReadFile(filepath.Join(cfg.Dir, f))
			if err != nil {
				return nil, err
			}
			srcs = append(srcs, mpirun.Source{Name: filepath.Base(f), Text: string(text)})
		}
		prog, err := cfg.MPI.Compile(ctx, tmp, srcs...)
		if err != nil {
			return nil, err
		}
		src, err := parseSource(filepath.Join(cfg.Dir, kk.Source))
		if err != nil {
			return nil, err
		}
		ns := cfg.Sizes
		if ns == nil {
			ns = kk.Sizes
			if cfg.Quick && len(kk.Quick) > 0 {
				ns = kk.Quick
			}
		}
		for _, p := range cfg.Procs {
			var pts []Point
			for _, n := range ns {
				for _, l := range kk.Layouts {
					fmt.Fprintf(progress, "%s %s N=%d P=%d\n", kk.Name, l.Name, n, p)
					pt, err := runLaunches(ctx, cfg.MPI, prog, kk, l, p, n, cfg.Reps, cfg.Launches)
					if err != nil {
						if ctx.Err() != nil {
							return nil, ctx.Err()
						}
						fmt.Fprintf(progress, "pfls validate: %s %s N=%d P=%d: %v\n", kk.Name, l.Name, n, p, err)
						rep.Failed = true
						continue
					}
					est, comm, err := estimateKernel(src, kk, l, p, n, cfg.Machine)
					if err != nil {
						return nil, err
					}
					// With more ranks than cores each rank gets cores/P of
					// a core: its computation takes P/cores times longer.
					// (The communication curves trained at that P were
					// measured oversubscribed too.) On SMPI every rank
					// has a simulated host of its own.
					if p > cores && cfg.MPI.Hostfile == "" && cfg.MPI.Flavour != mpirun.SMPI {
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
			if cfg.Out != "" && len(pts) > 0 {
				name := fmt.Sprintf("%s-P%d.svg", kk.Name, p)
				if err := plotKernel(filepath.Join(cfg.Out, name), kk, p, pts); err != nil {
					return nil, err
				}
				ratio := fmt.Sprintf("%s-P%d-ratio.svg", kk.Name, p)
				if err := plotRatio(filepath.Join(cfg.Out, ratio), kk, p, pts); err != nil {
					return nil, err
				}
				sum.Plot, sum.RatioPlot = name, ratio
				if len(kk.Layouts) == 2 {
					cross := fmt.Sprintf("%s-P%d-crossover.svg", kk.Name, p)
					if err := plotCrossover(filepath.Join(cfg.Out, cross), kk, p, pts); err != nil {
						return nil, err
					}
					sum.CrossoverPlot = cross
				}
			}
			if !sum.ChecksumsAgree {
				rep.Failed = true
			}
			rep.Points = append(rep.Points, pts...)
			rep.Kernels = append(rep.Kernels, sum)
		}
	}
	if len(rep.Kernels) == 0 {
		return nil, fmt.Errorf("%w %q in %s", ErrNoKernel, cfg.Only, filepath.Join(cfg.Dir, "kit.json"))
	}
	return rep, nil
}

// parseSource reads and parses a Fortran D source; INCLUDE lines are
// looked up next to it.
func parseSource(path string) (*parser.File, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parser.Parse(path, src, &parser.Config{Include: parser.IncludeFromDisk}), nil
}

// runLaunches launches a run several times: a slow spell of the machine
// can last seconds and bend every repetition of one launch. With several
// launches the point is the median of the launches' medians, and its range
// (min, max) the range of those medians: the run-to-run spread, which
// decides "about the same". Every launch must compute the same checksum.
func runLaunches(ctx context.Context, mpi *mpirun.Tools, prog string, kk Kernel, l Layout, procs int, n int64, reps, launches int) (Point, error) {
	var pts []Point
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
	out.Measured = machine.Median(meds)
	return out, nil
}

// runKernel runs one node program once (its REPS repetitions) and reads
// its result line.
func runKernel(ctx context.Context, mpi *mpirun.Tools, prog string, kk Kernel, l Layout, procs int, n int64, reps int) (Point, error) {
	ncycle := kk.Set["NCYCLE"]
	if ncycle == 0 {
		ncycle = 1
	}
	args := append([]string{l.Name, strconv.FormatInt(n, 10), strconv.FormatInt(ncycle, 10), strconv.Itoa(reps)}, kk.Extra...)
	pt := Point{Kernel: kk.Name, Layout: l.Name, Procs: procs, N: n}
	found := false
	err := mpi.Exec(ctx, mpi.Launch(procs, runtime.NumCPU()), prog, args, func(r io.Reader) error {
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
		return pt, errors.New("the program printed no result line")
	}
	return pt, nil
}

// estimateKernel is pfls's estimate of the kernel's Fortran D loop under
// the layout's distribution at N = n on procs processors: the time and
// its communication part, read off the loop's report.
func estimateKernel(f *parser.File, kk Kernel, l Layout, procs int, n int64, m *machine.Machine) (float64, float64, error) {
	loops := parser.LoopsAt(f, kk.Line)
	if len(loops) == 0 {
		return 0, 0, fmt.Errorf("%s:%d: no DO loop starts on this line", f.Name, kk.Line)
	}
	r, err := partition.NewReport(f, loops[0], partition.Options{Machine: m, Procs: procs, Values: kitValues(kk, n)}, partition.ReportOptions{})
	if err != nil {
		return 0, 0, fmt.Errorf("%s:%d: %w", f.Name, kk.Line, err)
	}
	e := r.Candidate(l.Distribution)
	if e == nil {
		return 0, 0, fmt.Errorf("%s: no candidate distribution %q (candidates: %s)", f.Name, l.Distribution, strings.Join(r.Names(), ", "))
	}
	t, ok1 := complexity.Seconds(e.Time)
	c, ok2 := complexity.Seconds(e.Comm)
	if !ok1 || !ok2 {
		return 0, 0, fmt.Errorf("%s:%d: the estimate still depends on a symbol: %s", f.Name, kk.Line, e.Time.String())
	}
	return t, c, nil
}

// kitValues are the symbol values of one run: N and the kernel's Set.
func kitValues(kk Kernel, n int64) map[string]*big.Rat {
	out := map[string]*big.Rat{"N": big.NewRat(n, 1)}
	keys := make([]string, 0, len(kk.Set))
	for k := range kk.Set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out[strings.ToUpper(k)] = big.NewRat(kk.Set[k], 1)
	}
	return out
}
