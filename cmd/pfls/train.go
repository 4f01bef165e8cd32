package main

// pfls train: compile the training set (train.TrainingProgram) with
// the MPI C compiler wrapper, run it with mpirun at each processor count,
// fit the measurements and write the machine model. The MPI side — which
// MPI, running as root, more ranks than cores, stopping every process on
// Ctrl-C, a closed output pipe or a time limit — is internal/mpirun.

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pfls/pfls/internal/mpirun"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/machine/train"
	"github.com/pfls/pfls/partition"
)

// Thresholds of the load check: the share of the machine's CPU time other
// processes used while pfls watched for a second before a run. Measured
// on the 2-core development machine on 2026-11-22 (commits a614d46 and
// a8a0347): one curve trained at 50% load came out 25× too slow.
const (
	busyWarn   = 0.15 // warn: the curves may come out slow
	busyRefuse = 0.50 // refuse unless --force: a busy machine made one curve 25x too slow
	// noisyRuns is the median spread of the passes above which train
	// warns: quiet runs here spread 4-13%, runs beside a busy tenant of
	// the host 51-187%.
	noisyRuns = 0.4
)

func runTrain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	npArg := fs.String("np", "2", "processor counts to train, comma-separated (e.g. 2,4)")
	quick := fs.Bool("quick", false, "fewer sizes and passes: under a minute on 2 cores")
	out := fs.String("out", "", "write the machine model to this file (JSON)")
	passes := fs.Int("passes", 0, "passes pooled by median per point (default 3 with --quick, else 7; 1 on a --platform without --host-speed, which repeats exactly)")
	timeout := fs.Duration("timeout", 0, "stop after this long (default 5m with --quick, else 30m)")
	force := fs.Bool("force", false, "train even when other processes keep the machine busy")
	rawDir := fs.String("raw", "", "also keep the training set's raw output in this folder")
	mpicc := fs.String("mpicc", "", "MPI C compiler wrapper (default: mpicc on PATH)")
	mpirunPath := fs.String("mpirun", "", "MPI launcher (default: mpirun on PATH)")
	hostfile := fs.String("hostfile", "", "run the ranks on the machines this MPI hostfile lists (a cluster)")
	platformArg := fs.String("platform", "", "train on a machine simulated by SimGrid's SMPI: a preset (ncube2, cluster) or a SimGrid platform FILE.xml")
	hostSpeed := fs.String("host-speed", "", "with --platform: time the computation on this machine and charge it at this flop/s (default: charge each loop's counted operations at the platform's node speed, repeatable exactly)")
	deriveAbove := fs.Int("derive-above", 256, "with --platform: above this many processors measure only the collectives and take the neighbour curves (and a pairwise all-to-all) from a smaller count; 0 measures everything at every count")
	deriveBase := fs.Int("derive-base", 64, "with --platform: the smaller count the neighbour curves come from when --np has none at or below --derive-above")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if *out == "" || fs.NArg() != 0 {
		fmt.Fprintln(stderr, "pfls train: usage: pfls train [--np P,...] [--quick] [--passes K] [--timeout D] [--force] [--raw DIR] [--hostfile FILE | --platform NAME|FILE.xml [--host-speed F] [--derive-above N] [--derive-base P]] --out FILE")
		return 2
	}
	procs, err := parseProcs(*npArg)
	if err != nil {
		fmt.Fprintf(stderr, "pfls train: --np %s: %v\n", *npArg, err)
		return 2
	}
	if *passes < 0 || *passes > 64 {
		fmt.Fprintf(stderr, "pfls train: --passes %d: want 1 to 64\n", *passes)
		return 2
	}
	limit := *timeout
	if limit == 0 {
		limit = 30 * time.Minute
		if *quick {
			limit = 5 * time.Minute
		}
	}
	if *deriveAbove < 0 || *deriveBase < 2 || (*deriveAbove > 0 && *deriveBase > *deriveAbove) {
		fmt.Fprintf(stderr, "pfls train: --derive-above %d --derive-base %d: want a count of at least 0 (0: derive nothing) and a base of 2 up to it\n", *deriveAbove, *deriveBase)
		return 2
	}
	var plan derivePlan
	if *platformArg != "" {
		plan = planDerived(procs, *deriveAbove, *deriveBase)
		procs = plan.procs
	}
	var mpi *mpirun.Tools
	var sim *simulated
	if *platformArg != "" {
		if *hostfile != "" || *mpicc != "" || *mpirunPath != "" {
			fmt.Fprintln(stderr, "pfls train: --platform runs SMPI's smpicc and smpirun on the platform's hosts: leave out --hostfile, --mpicc and --mpirun")
			return 2
		}
		if sim, err = setupPlatform(*platformArg, procs, mpirun.C, *hostSpeed); err != nil {
			fmt.Fprintf(stderr, "pfls train: --platform: %v\n", fileErr(*platformArg, err))
			return 2
		}
		defer sim.close()
		mpi = sim.mpi
	} else {
		if mpi, err = mpirun.Find(mpirun.C, *mpicc, *mpirunPath); err != nil {
			fmt.Fprintf(stderr, "pfls train: %v\n", err)
			return 2
		}
		if mpi.Hostfile, err = mpirun.HostfilePath(*hostfile); err != nil {
			fmt.Fprintf(stderr, "pfls train: --hostfile: %v\n", fileErr(*hostfile, err))
			return 2
		}
	}

	ctx, cancel := mpirun.Context(limit)
	defer cancel()

	dir, err := os.MkdirTemp("", "pfls-train-")
	if err != nil {
		fmt.Fprintf(stderr, "pfls train: %v\n", err)
		return 2
	}
	defer os.RemoveAll(dir)
	prog, err := mpi.Compile(ctx, dir, mpirun.Source{Name: "pfls-train.c", Text: train.TrainingProgram})
	if err != nil {
		fmt.Fprintf(stderr, "pfls train: %v\n", err)
		return 2
	}

	cores := runtime.NumCPU()
	progress := newProgressBar(stderr)
	var runs []*train.TrainingRun
	var loads, options []string
	for _, p := range procs {
		busy, loadavg := mpirun.Busy(time.Second)
		loads = append(loads, fmt.Sprintf("before P=%d: %.0f%% of the CPU busy with other work, load average %s", p, 100*busy, loadavg))
		switch {
		case sim != nil && sim.charged():
			// The computation is charged, the communication simulated:
			// the load of this machine cannot change the times.
		case busy >= busyRefuse && !*force:
			fmt.Fprintf(stderr, "pfls train: other processes keep %.0f%% of the CPU busy (load average %s); the curves would come out too slow. Stop them, or give --force to train anyway (the load is recorded in the model).\n", 100*busy, loadavg)
			return 1
		case busy >= busyWarn:
			fmt.Fprintf(stderr, "pfls train: warning: other processes keep %.0f%% of the CPU busy (load average %s); the times may come out slow\n", 100*busy, loadavg)
		}
		runArgs := []string{}
		if sim != nil && sim.charged() {
			runArgs = append(runArgs, "--charge")
		}
		if plan.derived(p) {
			// the collectives alone, each size's first call timed: SMPI
			// repeats a call within 0.5% (ncube2, P = 64)
			runArgs = append(runArgs, "--patterns", strings.Join(measuredAt(sim, p), ","))
			if sim.charged() {
				runArgs = append(runArgs, "--once")
			}
		}
		if *quick {
			runArgs = append(runArgs, "--quick")
		}
		switch {
		case *passes > 0:
			runArgs = append(runArgs, "--passes", strconv.Itoa(*passes))
		case sim != nil && sim.charged():
			// Simulated communication and charged computation repeat
			// exactly: one pass measures what seven would.
			runArgs = append(runArgs, "--passes", "1")
		}
		launch := mpi.Launch(p, cores)
		options = append(options, fmt.Sprintf("P=%d: %s", p, strings.Join(append(launch.Describe(), runArgs...), " ")))
		progress.start(p)
		raw, res, err := runTraining(ctx, mpi, launch, prog, runArgs, progress.update)
		progress.finish()
		if *rawDir != "" {
			if werr := os.WriteFile(filepath.Join(*rawDir, fmt.Sprintf("train-P%d.txt", p)), raw, 0o644); werr != nil {
				fmt.Fprintf(stderr, "pfls train: --raw: %v\n", werr)
			}
		}
		if err != nil {
			switch {
			case errors.Is(ctx.Err(), context.DeadlineExceeded):
				fmt.Fprintf(stderr, "pfls train: stopped at P=%d after the time limit of %v; no model written (every MPI process was stopped)\n", p, limit)
			case ctx.Err() != nil:
				fmt.Fprintf(stderr, "pfls train: interrupted at P=%d; no model written (every MPI process was stopped)\n", p)
			default:
				fmt.Fprintf(stderr, "pfls train: P=%d: %v\n", p, err)
			}
			return 1
		}
		if res.Procs != p {
			fmt.Fprintf(stderr, "pfls train: asked mpirun for %d processes, the training set ran on %d (check the hostfile or the MPI installation)\n", p, res.Procs)
			return 1
		}
		runs = append(runs, res)
	}
	busy, loadavg := mpirun.Busy(500 * time.Millisecond)
	loads = append(loads, fmt.Sprintf("after: %.0f%% busy, load average %s", 100*busy, loadavg))

	host, _ := os.Hostname()
	if cpu := mpirun.CPUModel(); cpu != "" {
		host = strings.TrimSpace(host + " (" + cpu + ")")
	}
	mode := "full"
	if *quick {
		mode = "quick"
	}
	prov := machine.Provenance{
		Source:   "pfls train",
		Host:     host,
		Cores:    strconv.Itoa(cores),
		MPI:      runs[0].MPI,
		Compiler: mpi.CompilerVersion,
		Date:     time.Now().UTC().Format(time.RFC3339),
		Options:  fmt.Sprintf("%s run; %s", mode, strings.Join(options, "; ")),
		Load:     strings.Join(loads, "; "),
	}
	if len(mpi.Env) > 0 {
		prov.Options += "; environment " + strings.Join(mpi.Env, " ")
	}
	if mpi.Hostfile != "" {
		// The ranks ran where the hostfile put them: this machine's cores
		// and load describe only the one pfls ran on.
		prov.Host = "the machines of hostfile " + filepath.Base(mpi.Hostfile) + "; pfls ran on " + host
		prov.Cores = prov.Cores + " on the machine pfls ran on"
		prov.Load = "on the machine pfls ran on: " + prov.Load
	}
	if sim != nil {
		// The platform's files lived in a temporary folder: name them only.
		prov.Options = strings.ReplaceAll(prov.Options, sim.dir+string(filepath.Separator), "")
		prov.Platform = sim.describe()
		prov.Host = "simulated (" + sim.platform.Name + "); pfls ran on " + host
		prov.Cores = prov.Cores + " on the machine pfls ran on"
	}
	m, fits, err := train.BuildMachine(runs, prov, train.FitOptions{})
	if err != nil {
		fmt.Fprintf(stderr, "pfls train: fitting the measurements: %v\n", err)
		return 1
	}
	m.Provenance.Notes = train.FitNotes(runs, fits)
	var made []machine.DerivedCurve
	for _, p := range plan.targets {
		var pw *train.Pairwise
		if pairwise(sim, p) {
			pw = &train.Pairwise{HopLatency: hopLatency(sim.platform.XML)}
		}
		d, err := train.DeriveCurves(m, p, plan.base, pw)
		if err != nil {
			fmt.Fprintf(stderr, "pfls train: %v\n", err)
			return 1
		}
		made = append(made, d...)
	}
	if plan.added {
		m.Provenance.Notes = append(m.Provenance.Notes, fmt.Sprintf("P=%d was trained (not asked for) for the neighbour curves of P=%s", plan.base, joinInts(plan.targets)))
	}
	m.Provenance.Notes = append(m.Provenance.Notes, train.DerivedNotes(made)...)
	// The load check sees this machine's processes only; on a virtual
	// machine other tenants of the host show as noise in the passes.
	if m.Noise > noisyRuns {
		warn := fmt.Sprintf("the passes disagree by %.0f%% (median spread): something outside pfls's view (another tenant of a virtual machine's host, frequency changes) slowed some of them; the model is recorded, but train again when the machine is quiet", 100*m.Noise)
		fmt.Fprintf(stderr, "pfls train: warning: %s\n", warn)
		m.Provenance.Notes = append([]string{"warning: " + warn}, m.Provenance.Notes...)
	}
	if sim == nil { // the OpenMP kernels (train_omp.go); SMPI simulates MPI only
		var note string
		if m.SharedMemory, note = trainShared(ctx, mpi.CC, dir, *quick, cores, *rawDir, stderr); note != "" {
			m.Provenance.Notes = append(m.Provenance.Notes, note)
		}
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err == nil {
		err = os.WriteFile(*out, append(data, '\n'), 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "pfls train: %v\n", fileErr(*out, err))
		return 2
	}
	printFits(stdout, fits)
	for _, d := range made {
		add := ""
		if d.Add != 0 {
			add = fmt.Sprintf(" + %.4g s", d.Add)
		}
		fmt.Fprintf(stdout, "%-4d %-20s derived: %.6g x %s at P=%d%s\n", d.Procs, d.Pattern, d.Scale, d.FromPattern, d.FromProcs, add)
	}
	fmt.Fprintf(stdout, "wrote %s (%s, P = %s)\n", *out, runs[0].MPI, joinInts(procs))
	return 0
}

// derivePlan is what pfls train --platform measures where: at the
// processor counts above --derive-above (targets) the collectives only,
// the other curves made from those at base (train.DeriveCurves).
type derivePlan struct {
	procs   []int // every count run, base included
	targets []int
	base    int
	added   bool // base was not in --np
}

func (d derivePlan) derived(p int) bool { return slices.Contains(d.targets, p) }

// planDerived picks the targets above limit (none when limit is 0) and
// the base: the largest count of procs at or below limit, else fallback,
// added to the counts run.
func planDerived(procs []int, limit, fallback int) derivePlan {
	d := derivePlan{procs: procs}
	if limit == 0 {
		return d
	}
	for _, p := range procs {
		if p > limit {
			d.targets = append(d.targets, p)
		} else {
			d.base = p
		}
	}
	if len(d.targets) == 0 || d.base != 0 {
		return d
	}
	d.base, d.added = fallback, true
	d.procs = append([]int{fallback}, procs...)
	sort.Ints(d.procs)
	return d
}

// pairwise says whether the all-to-all of a run at p ranks is the
// pairwise exchange (P − 1 steps of one swap a rank), which
// train.DeriveCurves makes from the halo-2 curve.
func pairwise(sim *simulated, p int) bool {
	return sim != nil && slices.Contains(sim.platform.LaunchFlags(p), "--cfg=smpi/alltoall:pair")
}

// hopLatency is the latency of a link of the platform's cluster, in
// seconds: the lat attribute of its (first) <cluster> element in
// SimGrid's units, 0 when there is none or it cannot be read.
func hopLatency(platformXML []byte) float64 {
	d := xml.NewDecoder(bytes.NewReader(platformXML))
	for {
		tok, err := d.Token()
		if err != nil {
			return 0
		}
		el, ok := tok.(xml.StartElement)
		if !ok || el.Name.Local != "cluster" {
			continue
		}
		for _, a := range el.Attr {
			if a.Name.Local == "lat" {
				return simgridSeconds(a.Value)
			}
		}
		return 0
	}
}

// simgridSeconds reads a SimGrid time ("10us", "1.5ms", "2e-6s", "0.1"):
// seconds, or 0 when it is not one.
func simgridSeconds(v string) float64 {
	v = strings.TrimSpace(v)
	for _, u := range []struct {
		suffix string
		scale  float64
	}{{"ps", 1e-12}, {"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}, {"", 1}} {
		if num, ok := strings.CutSuffix(v, u.suffix); ok {
			x, err := strconv.ParseFloat(num, 64)
			if err != nil || x < 0 || math.IsInf(x, 0) {
				return 0
			}
			return x * u.scale
		}
	}
	return 0
}

// measuredAt is what the training set measures at a count whose other
// curves are derived: the collectives, and the all-to-all unless it is
// the pairwise exchange.
func measuredAt(sim *simulated, p int) []string {
	pats := append([]string(nil), train.CollectivePatterns...)
	if !pairwise(sim, p) {
		pats = append(pats, machine.PatternAllToAll)
	}
	return pats
}

// runTraining runs the training set under mpirun and feeds its standard
// output to the training-set reader; it returns the raw output and what
// the reader made of it.
func runTraining(ctx context.Context, mpi *mpirun.Tools, l mpirun.Spec, prog string, args []string, progress func(train.TrainingProgress)) ([]byte, *train.TrainingRun, error) {
	var raw bytes.Buffer
	var res *train.TrainingRun
	err := mpi.Exec(ctx, l, prog, args, func(r io.Reader) error {
		var err error
		res, err = train.ParseTraining(io.TeeReader(r, &raw), filepath.Base(prog)+" output", progress)
		return err
	})
	return raw.Bytes(), res, err
}

// parseProcs reads "2,4" into sorted distinct counts of at least 2.
func parseProcs(s string) ([]int, error) {
	seen := map[int]bool{}
	var ps []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		p, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		if p < 2 || p > partition.MaxProcs {
			return nil, fmt.Errorf("%d: want 2 to %d processors (one processor does not communicate)", p, partition.MaxProcs)
		}
		if !seen[p] {
			seen[p] = true
			ps = append(ps, p)
		}
	}
	sort.Ints(ps)
	return ps, nil
}

func printFits(w io.Writer, fits []train.TrainedFit) {
	fmt.Fprintf(w, "%-4s %-20s %4s %9s %9s %7s  %s\n", "P", "pattern", "segs", "rms err", "worst", "spread", "steps")
	for _, f := range fits {
		var steps []string
		for _, s := range f.Report.Steps {
			if s.Before > 0 {
				steps = append(steps, fmt.Sprintf("x%.1f@%dB", s.After/s.Before, s.Bytes))
			}
		}
		fmt.Fprintf(w, "%-4d %-20s %4d %8.1f%% %8.1f%% %6.0f%%  %s\n", f.Procs, f.Pattern, f.Report.Segments,
			100*f.Report.RMSRel, 100*f.Report.MaxRel, 100*f.Spread, strings.Join(steps, " "))
	}
}

// progressBar draws how far a run is: a bar redrawn in place on a
// terminal, one line per pattern otherwise (a log, CI).
type progressBar struct {
	mu       sync.Mutex // the reader of a stopped run may still report
	w        io.Writer
	terminal bool
	procs    int
	last     string
	began    time.Time
}

func newProgressBar(w io.Writer) *progressBar {
	b := &progressBar{w: w}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			b.terminal = true
		}
	}
	return b
}

func (b *progressBar) start(procs int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.procs, b.last, b.began = procs, "", time.Now()
}

func (b *progressBar) update(p train.TrainingProgress) {
	b.mu.Lock()
	defer b.mu.Unlock()
	what := p.Label
	if i := strings.IndexByte(what, ' '); i >= 0 {
		what = what[:i]
	}
	if !b.terminal {
		if what != b.last {
			fmt.Fprintf(b.w, "P=%d: %s\n", b.procs, what)
			b.last = what
		}
		return
	}
	const width = 30
	frac := 0.0
	if p.Total > 0 {
		frac = math.Min(math.Max(float64(p.Done)/float64(p.Total), 0), 1)
	}
	n := int(frac * width)
	bar := strings.Repeat("#", n) + strings.Repeat(".", width-n)
	label := p.Label
	if strings.Contains(label, " ") {
		label += " B" // a pattern and a message size
	}
	fmt.Fprintf(b.w, "\r\x1b[KP=%d [%s] %3.0f%% %5.1fs  %s", b.procs, bar, 100*frac, time.Since(b.began).Seconds(), label)
}

func (b *progressBar) finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.terminal {
		fmt.Fprint(b.w, "\r\x1b[K")
	}
	fmt.Fprintf(b.w, "P=%d: done in %.1fs\n", b.procs, time.Since(b.began).Seconds())
}
