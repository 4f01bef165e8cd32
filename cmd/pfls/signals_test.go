//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pfls/pfls/internal/kit"
)

// stopWithSIGPIPE runs pfls with args in the background, waits until the
// process named by waitFor runs, sends pfls (this test process) SIGPIPE,
// as a shell does when the reader of `pfls ... | head` has gone, and
// checks that pfls stops within the time limit, leaves no process and no
// temporary folder behind.
func stopWithSIGPIPE(t *testing.T, waitFor []string, args ...string) (code int, stderr string) {
	t.Helper()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	type result struct {
		code   int
		stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, _, stderr := runCmd(args...)
		done <- result{code, stderr}
	}()
	deadline := time.Now().Add(20 * time.Second)
	for len(processesNamed(waitFor...)) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%v never started", waitFor)
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	syscall.Kill(os.Getpid(), syscall.SIGPIPE)
	var r result
	select {
	case r = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("pfls did not stop after SIGPIPE")
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("stopping took %v", d)
	}
	for _, pid := range processesNamed(waitFor...) {
		t.Errorf("process %d (%v) outlived pfls", pid, waitFor)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("temporary folders left: %v", left)
	}
	return r.code, r.stderr
}

// TestTrainStopsOnSIGPIPE: `pfls train | head` whose reader has gone
// stops its run, even one whose processes ignore SIGTERM (they get
// SIGKILL), and removes its build folder.
func TestTrainStopsOnSIGPIPE(t *testing.T) {
	fakeMPI(t)
	t.Setenv("FAKE_MODE", "stubborn")
	out := filepath.Join(t.TempDir(), "model.json")
	code, stderr := stopWithSIGPIPE(t, []string{"sleep", "301"}, "train", "--force", "--timeout", "60s", "--out", out)
	if code != 1 || !strings.Contains(stderr, "interrupted at P=2") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a model was written")
	}
}

// fakeKitMPI puts an mpif90 and an mpirun on PATH (and no mpicc: the kit
// is Fortran) whose programs print the kit's result line: a time that
// grows with N, twice as fast for the "block" layout, and the same
// checksum for every layout. FAKE_MODE=stubborn makes them ignore
// SIGTERM and sleep instead.
func fakeKitMPI(t *testing.T) (bin string) {
	t.Helper()
	bin = t.TempDir()
	ownProcesses(t, bin)
	mpif90 := `#!/bin/sh
if [ "$1" = "--version" ]; then echo "GNU Fortran (fake) 12.2.0"; exit 0; fi
echo "mpif90 $*" >> "$FAKE_LOG"
out=""
while [ $# -gt 0 ]; do
  if [ "$1" = "-o" ]; then out="$2"; shift; fi
  shift
done
cat > "$out" <<'EOS'
#!/bin/sh
if [ "$FAKE_MODE" = stubborn ]; then trap '' TERM; exec sleep 302; fi
layout=$1; n=$2
t=$(awk -v n="$n" -v l="$layout" 'BEGIN { f = (l == "block") ? 2e-7 : 4e-7; printf "%.9g", n * f }')
echo "result median=$t min=$t max=$t checksum=$n.5"
EOS
chmod +x "$out"
`
	mpirun := `#!/bin/sh
if [ "$1" = "--version" ]; then echo "mpirun (Open MPI) 4.1.4"; exit 0; fi
while [ $# -gt 0 ]; do
  case "$1" in
  -np) shift 2 ;;
  --oversubscribe) shift ;;
  *) break ;;
  esac
done
exec "$@"
`
	for name, text := range map[string]string{"mpif90": mpif90, "mpirun": mpirun} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+"/usr/bin:/bin")
	t.Setenv("FAKE_LOG", filepath.Join(bin, "log"))
	return bin
}

// TestValidateWithFakeMPI: the kit's Fortran is compiled with mpif90 (no
// mpicc needed), every run gets pfls's estimate of its loop, the layouts'
// checksums are compared, and the plots are written.
func TestValidateWithFakeMPI(t *testing.T) {
	bin := fakeKitMPI(t)
	dir := t.TempDir()
	code, stdout, stderr := runCmd("validate", "--kit", "../../validation", "--np", "2", "--quick", "--kernel", "jacobi", "--out", dir, "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	var rep kit.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Points) != 6 || len(rep.Kernels) != 1 {
		t.Fatalf("%d points, %d summaries; want 3 sizes × 2 layouts, 1 summary", len(rep.Points), len(rep.Kernels))
	}
	for _, p := range rep.Points {
		if !(p.Estimate > 0) || !(p.Measured > 0) || p.Estimate < p.Comm {
			t.Errorf("%+v: no estimate", p)
		}
	}
	s := rep.Kernels[0]
	if !s.ChecksumsAgree || strings.Join(s.MeasuredFaster, " ") != "block block block" {
		t.Errorf("summary %+v", s)
	}
	for _, name := range []string{s.Plot, s.RatioPlot, "results.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); name == "" || err != nil {
			t.Errorf("plot %q: %v", name, err)
		}
	}
	log, _ := os.ReadFile(filepath.Join(bin, "log"))
	if !strings.Contains(string(log), "mpif90 -O2") || !strings.Contains(string(log), "jacobi.f90") {
		t.Errorf("compile log %q", log)
	}
	// Text output, and a kernel the kit does not have.
	if code, stdout, _ := runCmd("validate", "--kit", "../../validation", "--np", "2", "--quick", "--kernel", "jacobi"); code != 0 || !strings.Contains(stdout, "jacobi at P=2: median error") {
		t.Errorf("text: exit %d\n%s", code, stdout)
	}
	if code, _, stderr := runCmd("validate", "--kit", "../../validation", "--kernel", "nosuch"); code != 2 || !strings.Contains(stderr, `no such kernel "nosuch"`) {
		t.Errorf("unknown kernel: exit %d %q", code, stderr)
	}
}

// TestValidateStopsOnSIGPIPE: validate, too, stops its runs and removes
// its build folder when its output pipe closes.
func TestValidateStopsOnSIGPIPE(t *testing.T) {
	fakeKitMPI(t)
	t.Setenv("FAKE_MODE", "stubborn")
	code, stderr := stopWithSIGPIPE(t, []string{"sleep", "302"}, "validate", "--kit", "../../validation", "--np", "2", "--quick", "--kernel", "jacobi")
	if code != 1 || !strings.Contains(stderr, "interrupted") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestMain lets a test run this test binary as pfls itself
// (PFLS_TEST_MAIN=1), to see what a real process does with a real pipe.
func TestMain(m *testing.M) {
	if os.Getenv("PFLS_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestTrainStopsOnClosedPipe: `pfls train 2>&1 | head -1` as a process:
// once the reader has gone, pfls's next write fails, pfls stops the run
// (whose program ignores SIGTERM), removes its build folder and exits
// with 1 instead of being killed by SIGPIPE.
func TestTrainStopsOnClosedPipe(t *testing.T) {
	bin := fakeMPI(t)
	tmp := t.TempDir()
	cmd := exec.Command(os.Args[0], "train", "--force", "--timeout", "60s", "--out", filepath.Join(t.TempDir(), "m.json"))
	cmd.Env = append(os.Environ(), "PFLS_TEST_MAIN=1", "FAKE_MODE=trickle", "TMPDIR="+tmp)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	line, err := bufio.NewReader(r).ReadString('\n')
	r.Close() // head -1 has its line and goes
	if err != nil {
		t.Fatalf("first line: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("pfls did not stop after its pipe closed (first line %q)", line)
	}
	st := cmd.ProcessState
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Fatalf("pfls was killed by %v, first line %q", ws.Signal(), line)
	}
	if st.ExitCode() != 1 {
		t.Errorf("exit %d, want 1", st.ExitCode())
	}
	pid, _ := os.ReadFile(filepath.Join(bin, "log.pid"))
	if p := strings.TrimSpace(string(pid)); p == "" {
		t.Errorf("the fake training set never ran")
	} else if _, err := os.Stat("/proc/" + p); err == nil {
		t.Errorf("the training set (pid %s) outlived pfls", p)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("temporary folders left: %v", left)
	}
}
