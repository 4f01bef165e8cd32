package main

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
)

// fakeOpenMP wraps fakeMPI's mpicc: compiling pfls-omp.c gives a program
// that prints the recorded output of the OpenMP kernels on the 2-core
// development machine (machine/train/testdata/omp-2threads.txt) and logs
// its arguments, or, with fail, a compiler that refuses -fopenmp.
func fakeOpenMP(t *testing.T, fail bool) (bin string) {
	t.Helper()
	bin = fakeMPI(t)
	fixture, err := filepath.Abs("../../machine/train/testdata/omp-2threads.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(bin, "mpicc"), filepath.Join(bin, "mpicc.mpi")); err != nil {
		t.Fatal(err)
	}
	omp := `  out=""; while [ $# -gt 0 ]; do if [ "$1" = "-o" ]; then out="$2"; shift; fi; shift; done
  printf '#!/bin/sh\necho "$@" > "$FAKE_LOG.omp"\ncat "` + fixture + `"\n' > "$out"; chmod +x "$out"; exit 0`
	if fail {
		omp = `  echo "gcc: error: unrecognized command-line option '-fopenmp'" >&2; exit 1`
	}
	wrapper := `#!/bin/sh
omp=""
for a in "$@"; do case "$a" in *pfls-omp.c) omp=1 ;; esac; done
if [ -n "$omp" ]; then
` + omp + `
fi
exec "` + filepath.Join(bin, "mpicc.mpi") + `" "$@"
`
	if err := os.WriteFile(filepath.Join(bin, "mpicc"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// pfls train measures the shared-memory section with the OpenMP kernels
// at 1 to the machine's cores threads and writes it into the model.
func TestTrainSharedMemory(t *testing.T) {
	bin := fakeOpenMP(t, false)
	out := filepath.Join(t.TempDir(), "model.json")
	raw := t.TempDir()
	code, stdout, stderr := runCmd("train", "--np", "2", "--force", "--quick", "--raw", raw, "--out", out)
	if code != 0 {
		t.Fatalf("train: exit %d\n%s%s", code, stdout, stderr)
	}
	fh, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := machine.LoadMachine(fh)
	fh.Close()
	if err != nil {
		t.Fatal(err)
	}
	s := m.SharedMemory
	if s == nil {
		t.Fatalf("no shared-memory section; notes %q", m.Provenance.Notes)
	}
	// The fork fit passes through the two recorded points.
	if !strings.HasPrefix(s.Source, "pfls train: OpenMP kernels") || !strings.Contains(s.Source, "at 1, 2 threads") ||
		s.Cores != 2 || s.CoreBandwidth != 1.547992e+10 || math.Abs(s.Fork.A-2.10877e-07) > 1e-15 {
		t.Errorf("section %+v", s)
	}
	args, _ := os.ReadFile(filepath.Join(bin, "log.omp"))
	if want := "--threads " + strconv.Itoa(runtime.NumCPU()) + " --quick"; strings.TrimSpace(string(args)) != want {
		t.Errorf("kernels ran with %q, want %q", args, want)
	}
	if _, err := os.Stat(filepath.Join(raw, "train-omp.txt")); err != nil {
		t.Errorf("--raw: %v", err)
	}
	if !strings.Contains(stderr, "shared memory: OpenMP kernels at 1 to") {
		t.Errorf("progress:\n%s", stderr)
	}
	// --machine-info shows the section, each overhead at 1 thread and at
	// the node's 2 cores.
	code, info, errOut := runCmd("estimate", "--machine", out, "--machine-info")
	if code != 0 || !strings.Contains(info, "source:   pfls train: OpenMP kernels") ||
		!strings.Contains(info, "fork/join  211 ns at 1, 718 ns at 2 (log2 of the threads)") {
		t.Errorf("machine-info: exit %d\n%s%s", code, info, errOut)
	}
}

// A compiler without OpenMP does not stop the training: the model has no
// section (estimates then take the built-in one and say so) and its
// provenance says why.
func TestTrainSharedMemoryWithoutOpenMP(t *testing.T) {
	fakeOpenMP(t, true)
	out := filepath.Join(t.TempDir(), "model.json")
	code, stdout, stderr := runCmd("train", "--np", "2", "--force", "--quick", "--out", out)
	if code != 0 {
		t.Fatalf("train: exit %d\n%s%s", code, stdout, stderr)
	}
	m := loadTrained(t, out)
	if m.SharedMemory != nil || !strings.Contains(strings.Join(m.Provenance.Notes, "\n"), "shared-memory kernels not run: compiling pfls-omp.c with mpicc -fopenmp failed") {
		t.Errorf("section %+v, notes %q", m.SharedMemory, m.Provenance.Notes)
	}
}

// loadTrained reads the model pfls train wrote to path.
func loadTrained(t *testing.T, path string) *machine.Machine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := machine.LoadMachine(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}
