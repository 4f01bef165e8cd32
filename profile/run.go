package profile

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/pfls/pfls/internal/mpirun"
)

// PMPILibrary is the MPI call recorder (C), linked into the instrumented
// MPI program, whose calls of the routines it records are renamed PFL_...;
// compiled with -DPFLS_PLAIN it only times the uninstrumented run.
//
//go:embed pmpi/pfls-pmpi.c
var PMPILibrary string

// Options say how to build and run a program.
type Options struct {
	// MPI is the MPI found for an MPI program (nil for serial and OpenMP
	// programs, which gfortran builds).
	MPI   *mpirun.Tools
	Procs int
	Args  []string
	// Stdout receives the instrumented run's standard output.
	Stdout io.Writer
	// Dirs are folders searched for INCLUDE files and modules (-I), the
	// folders of the user's files.
	Dirs []string
	// WorkDir is the folder the program runs in, where it finds its
	// input files ("": the current folder); what pfls reads back goes to
	// its temporary folder.
	WorkDir string
	// Reps is how many times each build runs, alternately; the overhead
	// compares the fastest runs (a shared machine's noise only slows
	// runs down). The counts come from the last instrumented run.
	Reps int
}

// Rank is what one rank recorded.
type Rank struct {
	Counts map[int]int64   // counter → value
	Times  map[int]float64 // timer → seconds
	Lines  []LineTotal     // MPI calls per line and routine
	Calls  []Call          // the timeline's calls, in order
	MPI    bool            // the rank ran with the MPI call recorder
	Start  float64         // MPI_Init's end (MPI_Wtime), MPI programs only
	End    float64         // MPI_Finalize's start
	// Dropped counts the calls left out of the timeline (past the
	// library's limit).
	Dropped int64
}

// LineTotal is the MPI calls of one routine on one line of one rank.
type LineTotal struct {
	Code  int // file*lineMarkerBase + line
	Fn    string
	Calls int64
	Bytes int64
	Time  float64
}

// Call is one recorded MPI call.
type Call struct {
	Fn     string
	Code   int
	T0, T1 float64
	Bytes  int64
	Peer   int
}

// Measurement is the result of the two runs.
type Measurement struct {
	Ranks []Rank
	// Plain and Instrumented are the run times without and with the
	// instrumentation, the fastest of Runs: MPI_Init to MPI_Finalize on
	// rank 0 for MPI programs, the process's wall time otherwise.
	Plain, Instrumented float64
	Runs                int    // runs of each build
	Compiler            string // the compiler command used
	Launch              []string
}

// Run builds the instrumented program and the user's own (for the
// overhead) in a temporary folder, runs both, reads the per-rank files
// and removes the folder: no file of the run is left, and every process
// of a stopped run is ended (internal/mpirun).
func Run(ctx context.Context, p *Program, o Options) (m *Measurement, err error) {
	if o.Stdout == nil {
		o.Stdout = io.Discard
	}
	if o.WorkDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		o.WorkDir = wd
	}
	if p.F08 {
		return nil, errors.New("the program uses mpi_f08: pfls profile records the MPI calls of programs that use the mpi module or mpif.h")
	}
	dir, err := os.MkdirTemp("", "pfls-profile-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	instr, plain := filepath.Join(dir, "instrumented"), filepath.Join(dir, "plain")
	for _, d := range []string{instr, plain} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return nil, err
		}
	}
	m = &Measurement{}
	fc, cc := "gfortran", ""
	if o.MPI != nil {
		fc, cc = o.MPI.FC, o.MPI.CC
		if fc == "" {
			return nil, fmt.Errorf("no MPI Fortran compiler wrapper (mpif90) on PATH; %s", mpirun.InstallHint)
		}
		if cc == "" {
			return nil, fmt.Errorf("the MPI call recorder needs the MPI C compiler wrapper (mpicc), which is not on PATH; %s", mpirun.InstallHint)
		}
	} else if _, err := exec.LookPath(fc); err != nil {
		return nil, fmt.Errorf("gfortran is not on PATH: install it (`apt-get install gfortran`)")
	}
	m.Compiler = filepath.Base(fc)
	flags := []string{"-O2"}
	if p.OpenMP {
		flags = append(flags, "-fopenmp")
	}
	for _, d := range o.Dirs {
		flags = append(flags, "-I"+d)
	}

	// The instrumented copy: the module first, then the files in order.
	srcs := []string{filepath.Join(instr, "pfls_prof.f90")}
	if err := os.WriteFile(srcs[0], []byte(p.Module(instr)), 0o644); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, path := range p.Paths {
		base := filepath.Base(path)
		if seen[base] {
			return nil, fmt.Errorf("%s: two files named %s; give files with different names", path, base)
		}
		seen[base] = true
		dst := filepath.Join(instr, base)
		if err := os.WriteFile(dst, []byte(p.Texts[i]), 0o644); err != nil {
			return nil, err
		}
		srcs = append(srcs, dst)
	}
	var plainSrcs []string
	for i, path := range p.Paths {
		dst := filepath.Join(plain, filepath.Base(path))
		if err := os.WriteFile(dst, []byte(p.Plain[i]), 0o644); err != nil {
			return nil, err
		}
		plainSrcs = append(plainSrcs, dst)
	}
	instrArgs := append(append([]string{}, flags...), srcs...)
	if o.MPI != nil && gfortranAtLeast10(ctx, fc) {
		// PFL_SEND has no interface: gfortran 10 on refuses calls of one
		// external with different buffer types unless told otherwise.
		instrArgs = append(instrArgs, "-fallow-argument-mismatch")
	}
	plainArgs := append(append([]string{}, flags...), plainSrcs...)
	if o.MPI != nil {
		lib := filepath.Join(dir, "pfls-pmpi.c")
		if err := os.WriteFile(lib, []byte(PMPILibrary), 0o644); err != nil {
			return nil, err
		}
		if err := compile(ctx, dir, cc, "-O2", "-DPFLS_DIR="+strconv.Quote(instr), "-c", lib, "-o", filepath.Join(dir, "pfls-pmpi.o")); err != nil {
			return nil, err
		}
		if err := compile(ctx, dir, cc, "-O2", "-DPFLS_PLAIN", "-DPFLS_DIR="+strconv.Quote(plain), "-c", lib, "-o", filepath.Join(dir, "pfls-plain.o")); err != nil {
			return nil, err
		}
		instrArgs = append(instrArgs, filepath.Join(dir, "pfls-pmpi.o"))
		plainArgs = append(plainArgs, filepath.Join(dir, "pfls-plain.o"))
	}
	instrProg, plainProg := filepath.Join(instr, "prog"), filepath.Join(plain, "prog")
	if err := compile(ctx, plain, fc, append(plainArgs, "-o", plainProg)...); err != nil {
		return nil, fmt.Errorf("the program does not compile as it is: %w", err)
	}
	if err := compile(ctx, instr, fc, append(instrArgs, "-o", instrProg)...); err != nil {
		return nil, fmt.Errorf("the instrumented copy does not compile (a pfls bug; please report it): %w", err)
	}

	procs := 1
	if o.MPI != nil {
		procs = max(o.Procs, 1)
	}
	if o.MPI != nil {
		m.Launch = o.MPI.Launch(procs, runtime.NumCPU()).Describe()
	}
	for i := 0; i < max(o.Reps, 1); i++ {
		plainT, err := execute(ctx, o, plainProg, procs, "plain")
		if err != nil {
			return nil, err
		}
		instrT, err := execute(ctx, o, instrProg, procs, "prof")
		if err != nil {
			return nil, err
		}
		if i == 0 || plainT < m.Plain {
			m.Plain = plainT
		}
		if i == 0 || instrT < m.Instrumented {
			m.Instrumented = instrT
		}
		m.Runs++
	}
	for r := 0; r < procs; r++ {
		rk, err := readRank(instr, r, o.MPI != nil)
		if err != nil {
			return nil, err
		}
		m.Ranks = append(m.Ranks, rk)
	}
	return m, nil
}

// gfortranAtLeast10 says the Fortran compiler (behind the wrapper) is
// GNU Fortran 10 or later, which knows -fallow-argument-mismatch.
func gfortranAtLeast10(ctx context.Context, fc string) bool {
	out, _ := exec.CommandContext(ctx, fc, "--version").Output()
	first, _, _ := strings.Cut(string(out), "\n")
	if !strings.Contains(first, "GNU Fortran") {
		return false
	}
	for _, f := range strings.Fields(first) {
		if major, _, ok := strings.Cut(f, "."); ok {
			if n, err := strconv.Atoi(major); err == nil {
				return n >= 10
			}
		}
	}
	return false
}

func compile(ctx context.Context, dir, cc string, args ...string) error {
	cmd := exec.CommandContext(ctx, cc, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if len(msg) > 3000 {
			msg = msg[:3000] + " …"
		}
		return fmt.Errorf("%s failed (%v):\n%s", filepath.Base(cc), err, msg)
	}
	return nil
}

// execute runs one build and returns its time: for MPI programs rank 0's
// MPI_Init to MPI_Finalize as the recorder wrote it, else the wall
// time of the process.
func execute(ctx context.Context, o Options, prog string, procs int, kind string) (float64, error) {
	if kind == "plain" {
		o.Stdout = io.Discard // the instrumented run's output is the one shown
	}
	if o.MPI == nil {
		cmd := exec.CommandContext(ctx, prog, o.Args...)
		cmd.Dir = o.WorkDir
		cmd.Stdout = o.Stdout
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		start := time.Now()
		err := cmd.Run()
		t := time.Since(start).Seconds()
		if err != nil {
			return 0, fmt.Errorf("the %s run failed (%v):\n%s", kind, err, strings.TrimSpace(stderr.String()))
		}
		return t, nil
	}
	launch := o.MPI.Launch(procs, runtime.NumCPU())
	launch.Dir = o.WorkDir
	err := o.MPI.Exec(ctx, launch, prog, o.Args, func(r io.Reader) error {
		_, err := io.Copy(o.Stdout, r)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("the %s run failed: %w", kind, err)
	}
	name := "pfls-prof.0.mpi"
	if kind == "plain" {
		name = "pfls-plain.0.time"
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(prog), name))
	if err != nil {
		return 0, fmt.Errorf("the %s run wrote no timing (did it reach MPI_Finalize?): %w", kind, err)
	}
	if kind == "plain" {
		return strconv.ParseFloat(strings.TrimSpace(string(data)), 64)
	}
	f := strings.Fields(strings.SplitN(string(data), "\n", 2)[0])
	if len(f) != 3 || f[0] != "span" {
		return 0, errors.New("pfls-prof.0.mpi: no span line")
	}
	a, _ := strconv.ParseFloat(f[1], 64)
	b, _ := strconv.ParseFloat(f[2], 64)
	return b - a, nil
}

// readRank reads the counters and, for MPI programs, the MPI records of
// rank r.
func readRank(dir string, r int, mpi bool) (Rank, error) {
	rk := Rank{Counts: map[int]int64{}, Times: map[int]float64{}}
	name := filepath.Join(dir, fmt.Sprintf("pfls-prof.%d.cnt", r))
	data, err := os.ReadFile(name)
	if err != nil {
		return rk, fmt.Errorf("rank %d wrote no counters (%v): did it reach MPI_Finalize, STOP or END PROGRAM through a statement pfls instruments?", r, err)
	}
	rate := 1.0
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "rate":
			rate, _ = strconv.ParseFloat(f[1], 64)
		case "c", "t":
			if len(f) != 3 {
				continue
			}
			k, _ := strconv.Atoi(f[1])
			v, _ := strconv.ParseInt(f[2], 10, 64)
			if f[0] == "c" {
				rk.Counts[k] = v
			} else {
				rk.Times[k] = float64(v)
			}
		}
	}
	if rate <= 0 {
		rate = 1
	}
	for k, v := range rk.Times {
		rk.Times[k] = v / rate
	}
	if !mpi {
		return rk, nil
	}
	fh, err := os.Open(filepath.Join(dir, fmt.Sprintf("pfls-prof.%d.mpi", r)))
	if err != nil {
		return rk, fmt.Errorf("rank %d wrote no MPI records: %v", r, err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		num := func(i int) float64 { v, _ := strconv.ParseFloat(f[i], 64); return v }
		inum := func(i int) int64 { v, _ := strconv.ParseInt(f[i], 10, 64); return v }
		switch {
		case f[0] == "span" && len(f) == 3:
			rk.Start, rk.End, rk.MPI = num(1), num(2), true
		case f[0] == "dropped" && len(f) == 3:
			rk.Dropped = inum(1)
		case f[0] == "line" && len(f) == 6:
			rk.Lines = append(rk.Lines, LineTotal{Code: int(inum(1)), Fn: f[2], Calls: inum(3), Bytes: inum(4), Time: num(5)})
		case f[0] == "call" && len(f) == 7:
			rk.Calls = append(rk.Calls, Call{Fn: f[1], Code: int(inum(2)), T0: num(3), T1: num(4), Bytes: inum(5), Peer: int(inum(6))})
		}
	}
	return rk, sc.Err()
}
