package main

// pfls validate: run the validation kit's MPI node programs and compare
// the measured times with pfls's estimates of the equivalent Fortran D
// sources (validation/README.md describes the kit; internal/kit runs it).
// This file reads the flags and renders the report.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pfls/pfls/capability"
	"github.com/pfls/pfls/internal/kit"
	"github.com/pfls/pfls/internal/mpirun"
	"github.com/pfls/pfls/machine"
)

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
	mpirunPath := fs.String("mpirun", "", "MPI launcher (default: mpirun on PATH)")
	hostfile := fs.String("hostfile", "", "run the ranks on the machines this MPI hostfile lists (a cluster)")
	mpif90 := fs.String("mpif90", "mpif90", "MPI Fortran compiler wrapper")
	launches := fs.Int("launches", 0, "launches of each run, pooled by median (default 3, 1 with --quick)")
	platformArg := fs.String("platform", "", "run on a machine simulated by SimGrid's SMPI: a preset (ncube2, cluster) or a SimGrid platform FILE.xml")
	hostSpeed := fs.String("host-speed", "", "with --platform: time the computation on this machine and charge it at this flop/s (default: charge each loop's counted operations at the platform's node speed, repeatable exactly)")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(stderr, "pfls validate: usage: pfls validate [--kit DIR] [--machine FILE] [--np P,...] [--sizes N,...] [--quick] [--reps R] [--launches K] [--kernel NAME] [--out DIR] [--hostfile FILE] [--mpif90 PATH] [--mpirun PATH] [--platform NAME|FILE.xml [--host-speed F]] [--json]")
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
	k, err := kit.Load(*kitDir)
	if err != nil {
		fmt.Fprintf(stderr, "pfls validate: %v\n", fileErr(filepath.Join(*kitDir, "kit.json"), err))
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
	var mpi *mpirun.Tools
	var sim *simulated
	if *platformArg != "" {
		if *hostfile != "" || *mpirunPath != "" {
			fmt.Fprintln(stderr, "pfls validate: --platform runs SMPI's smpif90 and smpirun on the platform's hosts: leave out --hostfile and --mpirun")
			return 2
		}
		if sim, err = setupPlatform(*platformArg, procs, mpirun.Fortran, *hostSpeed); err != nil {
			fmt.Fprintf(stderr, "pfls validate: --platform: %v\n", fileErr(*platformArg, err))
			return 2
		}
		defer sim.close()
		mpi = sim.mpi
	} else {
		if mpi, err = mpirun.Find(mpirun.Fortran, *mpif90, *mpirunPath); err != nil {
			fmt.Fprintf(stderr, "pfls validate: %v\n", err)
			return 2
		}
		if mpi.Hostfile, err = mpirun.HostfilePath(*hostfile); err != nil {
			fmt.Fprintf(stderr, "pfls validate: --hostfile: %v\n", fileErr(*hostfile, err))
			return 2
		}
	}
	if *outDir != "" {
		if err := os.MkdirAll(*outDir, 0o755); err != nil {
			fmt.Fprintf(stderr, "pfls validate: %v\n", fileErr(*outDir, err))
			return 2
		}
	}
	ctx, cancel := mpirun.Context(*timeout)
	defer cancel()
	rep, err := kit.Run(ctx, kit.Config{Dir: *kitDir, Kit: k, Machine: model, MPI: mpi, Procs: procs, Sizes: sizes,
		Quick: *quick, Reps: *reps, Launches: *launches, Only: *only, Out: *outDir, Progress: stderr,
		Charged: sim != nil && sim.charged()})
	if err != nil {
		switch {
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			fmt.Fprintf(stderr, "pfls validate: stopped after the time limit of %v (every MPI process was stopped)\n", *timeout)
			return 1
		case ctx.Err() != nil:
			fmt.Fprintln(stderr, "pfls validate: interrupted (every MPI process was stopped)")
			return 1
		}
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = fileErr(pe.Path, pe)
		}
		fmt.Fprintf(stderr, "pfls validate: %v\n", err)
		return 2
	}
	if sim != nil {
		rep.Platform = sim.describe()
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
		_, err = fmt.Fprintln(stdout, string(data))
	} else {
		err = writeValidateText(stdout, rep)
	}
	if err != nil {
		fmt.Fprintf(stderr, "pfls validate: writing the report: %v\n", err)
		return 1
	}
	if rep.Failed {
		return 1
	}
	return 0
}

func writeValidateText(out io.Writer, rep *kit.Report) error {
	w := &errWriter{w: out}
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
			plots := []string{s.Plot, s.RatioPlot}
			if s.CrossoverPlot != "" {
				plots = append(plots, s.CrossoverPlot)
			}
			fmt.Fprintf(w, "  plots: %s\n", strings.Join(plots, ", "))
		}
	}
	return w.err
}

// errWriter keeps the first error of its writes, so that a report written
// line by line to a closed pipe fails once and says so.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
