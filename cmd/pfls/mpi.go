package main

// Finding, compiling with and running an MPI: the part of `pfls train`
// and `pfls validate` that knows about mpicc and mpirun.

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
	"syscall"
	"time"

	"github.com/pfls/pfls/machine/train"
)

const installHint = "install an MPI library with its compiler wrappers and a compiler: on Debian or Ubuntu `apt-get install openmpi-bin libopenmpi-dev gfortran` (or `apt-get install mpich libmpich-dev gfortran`)"

// mpiTools is the MPI pfls found: its compiler wrapper and launcher.
type mpiTools struct {
	cc, fc, launcher string
	flavour          string // "Open MPI", "MPICH" or "" when not recognised
	version          string // first line of mpirun --version
	compilerVersion  string // first line of mpicc --version
	// env is what every mpirun gets on top of pfls's environment (Open
	// MPI refuses to run as root without it).
	env []string
	// hostfile lists the machines of a cluster to spread the ranks over
	// ("" : this machine only).
	hostfile string
}

// findMPI looks for the wrapper and launcher (the given paths, or mpicc
// and mpirun on PATH) and asks mpirun which MPI it is.
func findMPI(cc, run string) (*mpiTools, error) {
	look := func(given, name string) (string, error) {
		if given == "" {
			given = name
		}
		p, err := exec.LookPath(given)
		if err != nil {
			return "", fmt.Errorf("no MPI found: %s is not on PATH; %s", given, installHint)
		}
		return p, nil
	}
	t := &mpiTools{}
	var err error
	if t.cc, err = look(cc, "mpicc"); err != nil {
		return nil, err
	}
	if t.launcher, err = look(run, "mpirun"); err != nil {
		return nil, err
	}
	t.fc, _ = exec.LookPath("mpif90")
	first := func(name string, args ...string) string {
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
	t.version = first(t.launcher, "--version")
	switch v := strings.ToLower(t.version); {
	case strings.Contains(v, "open mpi") || strings.Contains(v, "openrte"):
		t.flavour = "Open MPI"
	case strings.Contains(v, "hydra") || strings.Contains(v, "mpich"):
		t.flavour = "MPICH"
	}
	if t.version == "" {
		return nil, fmt.Errorf("%s --version printed nothing; is the MPI installation complete? %s", t.launcher, installHint)
	}
	t.compilerVersion = first(t.cc, "--version")
	if t.flavour == "Open MPI" && os.Geteuid() == 0 {
		t.env = []string{"OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"}
	}
	return t, nil
}

// runContext is the context of a command that runs MPI programs: it ends
// at Ctrl-C, SIGTERM or the time limit, and a second Ctrl-C during the
// clean-up ends pfls at once.
func runContext(limit time.Duration) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	ctx, cancel := context.WithTimeout(ctx, limit)
	return ctx, func() { cancel(); stop() }
}

// source is one file of a program: its name and text.
type source struct{ name, text string }

// compile writes the sources into dir and builds them into one program,
// named after the last source, with the C wrapper or, when the last is a
// .f90 file, the Fortran one. It returns the program's path; the
// compiler's own messages are in the error.
func (t *mpiTools) compile(ctx context.Context, dir string, srcs ...source) (string, error) {
	last := srcs[len(srcs)-1].name
	prog := filepath.Join(dir, strings.TrimSuffix(last, filepath.Ext(last)))
	args := []string{"-O2", "-o", prog}
	for _, s := range srcs {
		path := filepath.Join(dir, s.name)
		if err := os.WriteFile(path, []byte(s.text), 0o644); err != nil {
			return "", err
		}
		args = append(args, path)
	}
	cc := t.cc
	if strings.HasSuffix(last, ".f90") {
		if t.fc == "" {
			return "", fmt.Errorf("no MPI Fortran compiler wrapper (mpif90) on PATH; %s", installHint)
		}
		cc = t.fc
	} else {
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
			hint = "\n(the compiler behind the wrapper may be missing: " + installHint + ")"
		}
		return "", fmt.Errorf("compiling %s with %s failed (%v):\n%s%s", last, filepath.Base(cc), err, msg, hint)
	}
	return prog, nil
}

// launchSpec is how one program is started: the mpirun flags.
type launchSpec struct {
	procs int
	flags []string
	why   []string // why each flag is there, for the provenance
}

// launch says how to start procs ranks on a machine with cores cores:
// Open MPI refuses more ranks than cores without --oversubscribe (MPICH
// does not).
func (t *mpiTools) launch(procs, cores int) launchSpec {
	l := launchSpec{procs: procs}
	if t.hostfile != "" {
		// Open MPI's --hostfile, MPICH's -f; the cores of the cluster are
		// the hostfile's business.
		flag := "--hostfile"
		if t.flavour == "MPICH" {
			flag = "-f"
		}
		l.flags = append(l.flags, flag, t.hostfile)
		return l
	}
	if procs > cores && t.flavour == "Open MPI" {
		l.flags = append(l.flags, "--oversubscribe")
		l.why = append(l.why, fmt.Sprintf("(%d ranks on %d cores)", procs, cores))
	}
	return l
}

func (l launchSpec) describe() []string {
	d := append([]string{"mpirun"}, l.flags...)
	d = append(d, "-np", strconv.Itoa(l.procs))
	return append(d, l.why...)
}

// run starts prog under mpirun, feeds its standard output to the
// training-set reader, and returns the raw output and what it read. When
// ctx ends (Ctrl-C, the time limit) every process of the run is stopped:
// mpirun's process group first, then any rank that outlived it.
func (t *mpiTools) run(ctx context.Context, l launchSpec, prog string, args []string, progress func(train.TrainingProgress)) ([]byte, *train.TrainingRun, error) {
	var raw bytes.Buffer
	var res *train.TrainingRun
	err := t.exec(ctx, l, prog, args, func(r io.Reader) error {
		var err error
		res, err = train.ParseTraining(io.TeeReader(r, &raw), filepath.Base(prog)+" output", progress)
		return err
	})
	return raw.Bytes(), res, err
}

// exec runs prog under mpirun and hands its standard output to read,
// which must read it to the end. The error says why the run failed, with
// the end of mpirun's standard error.
func (t *mpiTools) exec(ctx context.Context, l launchSpec, prog string, args []string, read func(io.Reader) error) error {
	argv := append(append(append([]string{}, l.flags...), "-np", strconv.Itoa(l.procs), prog), args...)
	cmd := exec.Command(t.launcher, argv...)
	cmd.Env = append(os.Environ(), t.env...)
	cmd.Dir = filepath.Dir(prog)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr tailBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %v", t.launcher, err)
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
		stopRun(cmd, prog, waitDone, false)
		return ctx.Err()
	}
	if readErr != nil {
		// Not the output expected: stop the run now rather than wait for
		// it to end or time out.
		stopRun(cmd, prog, waitDone, false)
		return fmt.Errorf("%v\n%s", readErr, stderr.String())
	}
	go func() { waitDone <- cmd.Wait() }()
	var waitErr error
	select {
	case waitErr = <-waitDone:
	case <-ctx.Done():
		stopRun(cmd, prog, waitDone, true)
		return ctx.Err()
	}
	killStragglers(prog)
	if waitErr != nil {
		return fmt.Errorf("%s exited with %v:\n%s", filepath.Base(t.launcher), waitErr, stderr.String())
	}
	return nil
}

// stopRun ends a run: SIGTERM to mpirun's process group (mpirun passes it
// on to its ranks), SIGKILL to the group when mpirun has not exited two
// seconds later, then any rank that outlived it. waitDone receives
// cmd.Wait's result; waiting says whether a Wait is under way already,
// else stopRun starts it (an unreaped mpirun would keep its group alive).
func stopRun(cmd *exec.Cmd, prog string, waitDone chan error, waiting bool) {
	pid := cmd.Process.Pid
	syscall.Kill(-pid, syscall.SIGTERM)
	if !waiting {
		go func() { waitDone <- cmd.Wait() }()
	}
	select {
	case <-waitDone:
	case <-time.After(2 * time.Second):
		syscall.Kill(-pid, syscall.SIGKILL)
		select {
		case <-waitDone:
		case <-time.After(3 * time.Second):
		}
	}
	syscall.Kill(-pid, syscall.SIGKILL) // ranks left in mpirun's group
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
			syscall.Kill(pid, syscall.SIGKILL)
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

// hostfilePath checks that a hostfile can be read and makes its path
// absolute (mpirun runs in the build folder). "" stays "".
func hostfilePath(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if _, err := os.ReadFile(abs); err != nil {
		return "", fileErr(p, err)
	}
	return abs, nil
}
