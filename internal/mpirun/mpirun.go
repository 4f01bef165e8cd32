// Package mpirun finds an MPI installation (compiler wrappers and
// launcher), compiles programs with it and runs them under mpirun so that
// a Ctrl-C, a closed output pipe or a time limit stops every process of
// the run. Process groups and signals are Unix matters (mpirun_unix.go);
// elsewhere a run is stopped by killing the launcher (mpirun_other.go).
package mpirun

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// InstallHint says how to install an MPI; error messages end with it.
const InstallHint = "install an MPI library with its compiler wrappers and a compiler: on Debian or Ubuntu `apt-get install openmpi-bin libopenmpi-dev gfortran` (or `apt-get install mpich libmpich-dev gfortran`)"

// Tools is the MPI pfls found: its compiler wrappers and launcher.
type Tools struct {
	CC, FC, Launcher string
	Flavour          string // "Open MPI", "MPICH" or "" when not recognised
	Version          string // first line of mpirun --version
	CompilerVersion  string // first line of the C (or Fortran) wrapper's --version
	// Env is what every mpirun gets on top of pfls's environment (Open
	// MPI refuses to run as root without it).
	Env []string
	// Hostfile lists the machines of a cluster to spread the ranks over
	// ("" : this machine only).
	Hostfile string
	// SMPIFlags are the smpirun options of a simulated platform (the
	// platform file, its hostfile, the host speed) when the MPI is
	// SimGrid's SMPI (FindSMPI).
	SMPIFlags []string
	// SMPIProcsFlags, when not nil, gives the smpirun options of a run
	// on procs ranks beyond SMPIFlags (platform.Platform.LaunchFlags).
	SMPIProcsFlags func(procs int) []string
}

// SMPI is the Flavour of SimGrid's MPI.
const SMPI = "SMPI"

// SMPIInstallHint says how to install SimGrid's SMPI.
const SMPIInstallHint = "install SimGrid's SMPI (smpicc, smpif90, smpirun): on Debian or Ubuntu `apt-get install libsimgrid-dev gfortran`"

// FindSMPI looks for SimGrid's SMPI on PATH: smpicc, smpif90 and smpirun,
// which compile unmodified MPI programs and run them on a simulated
// platform. flags are the smpirun options of the platform
// (platform.SmpirunFlags); the hostfile is among them.
func FindSMPI(lang Lang, flags []string) (*Tools, error) {
	t := &Tools{Flavour: SMPI, SMPIFlags: flags}
	t.CC, _ = exec.LookPath("smpicc")
	t.FC, _ = exec.LookPath("smpif90")
	need, name := t.CC, "smpicc"
	if lang == Fortran {
		need, name = t.FC, "smpif90"
	}
	if need == "" {
		return nil, fmt.Errorf("--platform needs SimGrid's SMPI: %s is not on PATH; %s", name, SMPIInstallHint)
	}
	var err error
	if t.Launcher, err = exec.LookPath("smpirun"); err != nil {
		return nil, fmt.Errorf("--platform needs SimGrid's SMPI: smpirun is not on PATH; %s", SMPIInstallHint)
	}
	t.Version = firstLine(t.Launcher, "-version")
	if t.Version == "" {
		return nil, fmt.Errorf("%s -version printed nothing; is SimGrid complete? %s", t.Launcher, SMPIInstallHint)
	}
	t.CompilerVersion = firstLine(need, "--version")
	return t, nil
}

// firstLine is the first non-empty line a command prints (within 20 s).
func firstLine(name string, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, name, args...).CombinedOutput()
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// Lang is the language of the programs a command compiles: it decides
// which compiler wrapper must be there.
type Lang int

const (
	// C programs (the training set) need mpicc.
	C Lang = iota
	// Fortran programs (the validation kit) need mpif90.
	Fortran
)

// Find looks for the compiler wrapper of lang and the launcher (the given
// paths, or mpicc or mpif90 and mpirun on PATH) and asks mpirun which MPI
// it is. The other language's wrapper is looked up on PATH too and may be
// missing (Compile says so when it is needed).
func Find(lang Lang, wrapper, launcher string) (*Tools, error) {
	look := func(given, name string) (string, error) {
		if given == "" {
			given = name
		}
		p, err := exec.LookPath(given)
		if err != nil {
			return "", fmt.Errorf("no MPI found: %s is not on PATH; %s", given, InstallHint)
		}
		return p, nil
	}
	t := &Tools{}
	var err error
	main := &t.CC
	if lang == Fortran {
		main = &t.FC
		t.CC, _ = exec.LookPath("mpicc")
		if *main, err = look(wrapper, "mpif90"); err != nil {
			return nil, err
		}
	} else {
		if *main, err = look(wrapper, "mpicc"); err != nil {
			return nil, err
		}
		t.FC, _ = exec.LookPath("mpif90")
	}
	if t.Launcher, err = look(launcher, "mpirun"); err != nil {
		return nil, err
	}
	first := firstLine
	t.Version = first(t.Launcher, "--version")
	switch v := strings.ToLower(t.Version); {
	case strings.Contains(v, "open mpi") || strings.Contains(v, "openrte"):
		t.Flavour = "Open MPI"
	case strings.Contains(v, "hydra") || strings.Contains(v, "mpich"):
		t.Flavour = "MPICH"
	}
	if t.Version == "" {
		return nil, fmt.Errorf("%s --version printed nothing; is the MPI installation complete? %s", t.Launcher, InstallHint)
	}
	t.CompilerVersion = first(*main, "--version")
	if t.Flavour == "Open MPI" && runningAsRoot() {
		t.Env = []string{"OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"}
	}
	return t, nil
}

// Context is the context of a command that runs MPI programs: it ends at
// Ctrl-C, at the signals that say nobody is listening any more (SIGTERM,
// SIGHUP, and SIGPIPE when standard output or error is a pipe whose
// reader has gone, as in `pfls train 2>&1 | head`), or at the time limit.
// Once it has ended Ctrl-C and SIGTERM take their usual effect again, so
// a second Ctrl-C during the clean-up ends pfls at once. SIGPIPE stays
// caught until the returned cancel is called: a write to the closed pipe
// returns an error instead of killing pfls, so the caller gets to stop
// its runs and remove its temporary folders.
func Context(limit time.Duration) (context.Context, context.CancelFunc) {
	sigCtx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	go func() {
		<-sigCtx.Done()
		stop()
	}()
	pipeCtx, cancelPipe := context.WithCancel(sigCtx)
	pipe := make(chan os.Signal, 1)
	if len(pipeSignals) > 0 {
		signal.Notify(pipe, pipeSignals...)
		go func() {
			select {
			case <-pipe:
				cancelPipe()
			case <-pipeCtx.Done():
			}
		}()
	}
	ctx, cancel := context.WithTimeout(pipeCtx, limit)
	return ctx, func() {
		cancel()
		cancelPipe()
		stop()
		signal.Stop(pipe)
	}
}

// Source is one file of a program: its name and text.
type Source struct{ Name, Text string }

// Compile writes the sources into dir and builds them into one program,
// named after the last source, with the C wrapper or, when the last is a
// .f90 file, the Fortran one. It returns the program's path; the
// compiler's own messages are in the error.
func (t *Tools) Compile(ctx context.Context, dir string, srcs ...Source) (string, error) {
	last := srcs[len(srcs)-1].Name
	prog := filepath.Join(dir, strings.TrimSuffix(last, filepath.Ext(last)))
	args := []string{"-O2", "-o", prog}
	for _, s := range srcs {
		path := filepath.Join(dir, s.Name)
		if err := os.WriteFile(path, []byte(s.Text), 0o644); err != nil {
			return "", err
		}
		args = append(args, path)
	}
	cc := t.CC
	if strings.HasSuffix(last, ".f90") {
		if t.FC == "" {
			return "", fmt.Errorf("no MPI Fortran compiler wrapper (mpif90) on PATH; %s", InstallHint)
		}
		cc = t.FC
	} else {
		if cc == "" {
			return "", fmt.Errorf("no MPI C compiler wrapper (mpicc) on PATH; %s", InstallHint)
		}
		args = append(args, "-lm")
	}
	cmd := exec.CommandContext(ctx, cc, args...)
	cmd.Dir = dir // Fortran module files land here, not in the caller's folder
	out, err := cmd.CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if len(msg) > 2000 {
			msg = msg[:2000] + " …"
		}
		hint := ""
		if strings.Contains(msg, "not found") || strings.Contains(msg, "No such file") {
			hint = "\n(the compiler behind the wrapper may be missing: " + InstallHint + ")"
		}
		return "", fmt.Errorf("compiling %s with %s failed (%w):\n%s%s", last, filepath.Base(cc), err, msg, hint)
	}
	return prog, nil
}

// Spec is how one program is started: the mpirun flags.
type Spec struct {
	Launcher string // "mpirun" or "smpirun", for Describe
	Procs    int
	Flags    []string
	Why      []string // why each flag is there, for the provenance
	Dir      string   // the run's working folder ("": the program's)
}

// Launch says how to start procs ranks on a machine with cores cores:
// Open MPI refuses more ranks than cores without --oversubscribe (MPICH
// does not).
func (t *Tools) Launch(procs, cores int) Spec {
	l := Spec{Procs: procs}
	if t.Launcher != "" {
		l.Launcher = filepath.Base(t.Launcher)
	}
	if t.Flavour == SMPI {
		// Simulated hosts: the platform's hostfile places the ranks, and
		// the cores of this machine do not matter.
		l.Flags = append(l.Flags, t.SMPIFlags...)
		if t.SMPIProcsFlags != nil {
			l.Flags = append(l.Flags, t.SMPIProcsFlags(procs)...)
		}
		return l
	}
	if t.Hostfile != "" {
		// Open MPI's --hostfile, MPICH's -f; the cores of the cluster are
		// the hostfile's business.
		flag := "--hostfile"
		if t.Flavour == "MPICH" {
			flag = "-f"
		}
		l.Flags = append(l.Flags, flag, t.Hostfile)
		return l
	}
	if procs > cores && t.Flavour == "Open MPI" {
		l.Flags = append(l.Flags, "--oversubscribe")
		l.Why = append(l.Why, fmt.Sprintf("(%d ranks on %d cores)", procs, cores))
	}
	return l
}

// Describe is the launch as a command line with the reasons of its flags.
func (l Spec) Describe() []string {
	launcher := l.Launcher
	if launcher == "" {
		launcher = "mpirun"
	}
	d := append([]string{launcher}, l.Flags...)
	d = append(d, "-np", strconv.Itoa(l.Procs))
	return append(d, l.Why...)
}

// Exec runs prog under mpirun and hands its standard output to read,
// which must read it to the end. When ctx ends (Ctrl-C, the time limit)
// or read fails, every process of the run is stopped: mpirun's process
// group first, then any rank that outlived it. The error says why the
// run failed, with the end of mpirun's standard error.
func (t *Tools) Exec(ctx context.Context, l Spec, prog string, args []string, read func(io.Reader) error) error {
	argv := append(append(append([]string{}, l.Flags...), "-np", strconv.Itoa(l.Procs), prog), args...)
	cmd := exec.Command(t.Launcher, argv...)
	cmd.Env = append(os.Environ(), t.Env...)
	cmd.Dir = filepath.Dir(prog)
	if l.Dir != "" {
		cmd.Dir = l.Dir
	}
	ownGroup(cmd)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr tailBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", t.Launcher, err)
	}
	readDone := make(chan error, 1)
	go func() {
		readDone <- read(stdout)
		io.Copy(io.Discard, stdout) // keep mpirun from blocking on a full pipe
	}()
	waitDone := make(chan error, 1)
	var readErr error
	select {
	case readErr = <-readDone:
	case <-ctx.Done():
		stop(cmd, prog, waitDone, false)
		return ctx.Err()
	}
	if readErr != nil {
		// Not the output expected: stop the run now rather than wait for
		// it to end or time out.
		stop(cmd, prog, waitDone, false)
		return fmt.Errorf("%w\n%s", readErr, stderr.String())
	}
	go func() { waitDone <- cmd.Wait() }()
	var waitErr error
	select {
	case waitErr = <-waitDone:
	case <-ctx.Done():
		stop(cmd, prog, waitDone, true)
		return ctx.Err()
	}
	killStragglers(prog)
	if waitErr != nil {
		return fmt.Errorf("%s exited with %w:\n%s", filepath.Base(t.Launcher), waitErr, stderr.String())
	}
	return nil
}

// Grace is how long a stopped run's launcher has between the polite
// signal and SIGKILL (Open MPI's mpirun passes SIGTERM on to its ranks
// within a second here; some launchers ignore it).
const Grace = 2 * time.Second

// stop ends a run: the polite signal to mpirun's process group (mpirun
// passes it on to its ranks), SIGKILL to the group when mpirun has not
// exited Grace later, then any rank that outlived it. waitDone receives
// cmd.Wait's result; waiting says whether a Wait is under way already,
// else stop starts it (an unreaped mpirun would keep its group alive).
func stop(cmd *exec.Cmd, prog string, waitDone chan error, waiting bool) {
	terminateGroup(cmd)
	if !waiting {
		go func() { waitDone <- cmd.Wait() }()
	}
	select {
	case <-waitDone:
	case <-time.After(Grace):
		killGroup(cmd)
		select {
		case <-waitDone:
		case <-time.After(3 * time.Second):
		}
	}
	killGroup(cmd) // ranks left in mpirun's group
	killStragglers(prog)
}

// killStragglers kills every process running prog: ranks that mpirun
// started in process groups of their own and that outlived it.
// It waits (up to five seconds) until they are gone.
func killStragglers(prog string) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		pids := processesRunning(prog)
		if len(pids) == 0 || time.Now().After(deadline) {
			return
		}
		for _, pid := range pids {
			killPid(pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// processesRunning lists the processes whose executable is prog (Linux
// /proc; none elsewhere).
func processesRunning(prog string) []int {
	abs, err := filepath.Abs(prog)
	if err != nil {
		return nil
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err != nil {
			continue
		}
		if strings.TrimSuffix(exe, " (deleted)") == abs {
			pids = append(pids, pid)
		}
	}
	return pids
}

// tailBuffer keeps the last 8 KiB written to it.
type tailBuffer struct{ b []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 8192 {
		t.b = append([]byte(nil), t.b[len(t.b)-8192:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(t.b))
	for sc.Scan() {
		if l := strings.TrimRight(sc.Text(), " "); strings.Trim(l, "-") != "" {
			lines = append(lines, "  "+l)
		}
	}
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	if len(lines) == 0 {
		return "  (nothing on standard error)"
	}
	return strings.Join(lines, "\n")
}

// HostfilePath checks that a hostfile can be read and makes its path
// absolute (mpirun runs in the build folder). "" stays "".
func HostfilePath(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if _, err := os.ReadFile(abs); err != nil {
		return "", err
	}
	return abs, nil
}
