package main

// pfls train's shared-memory part: compile the OpenMP kernels
// (train.OpenMPProgram) with the C compiler behind the MPI wrapper and
// -fopenmp, run them on this machine with 1, 2, 4, ... threads up to its
// cores, and fit the model's shared-memory section.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pfls/pfls/capability"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/machine/train"
)

// trainShared measures the shared-memory section. Where that cannot be
// done (no OpenMP in the compiler, the kernels fail) it returns nil and a
// note for the provenance: the model then takes the built-in section, and
// says so in every OpenMP estimate.
func trainShared(ctx context.Context, cc, dir string, quick bool, cores int, rawDir string, stderr io.Writer) (*machine.SharedMemory, string) {
	src := filepath.Join(dir, "pfls-omp.c")
	prog := filepath.Join(dir, "pfls-omp")
	if err := os.WriteFile(src, []byte(train.OpenMPProgram), 0o644); err != nil {
		return nil, "shared-memory kernels not run: " + err.Error()
	}
	out, err := exec.CommandContext(ctx, cc, "-O2", "-fopenmp", "-o", prog, src).CombinedOutput()
	if err != nil {
		return nil, fmt.Sprintf("shared-memory kernels not run: compiling pfls-omp.c with %s -fopenmp failed (%v): %.300s", filepath.Base(cc), err, strings.TrimSpace(string(out)))
	}
	args := []string{"--threads", strconv.Itoa(max(cores, 1))}
	if quick {
		args = append(args, "--quick")
	}
	fmt.Fprintf(stderr, "shared memory: OpenMP kernels at 1 to %d threads\n", max(cores, 1))
	cmd := exec.CommandContext(ctx, prog, args...)
	var raw bytes.Buffer
	cmd.Stdout = &raw
	var errBuf bytes.Buffer
	cmd.Stderr = &errBuf
	runErr := cmd.Run()
	if rawDir != "" {
		if werr := os.WriteFile(filepath.Join(rawDir, "train-omp.txt"), raw.Bytes(), 0o644); werr != nil {
			fmt.Fprintf(stderr, "pfls train: --raw: %v\n", werr)
		}
	}
	if runErr != nil {
		return nil, fmt.Sprintf("shared-memory kernels not run: pfls-omp failed (%v): %.300s", runErr, strings.TrimSpace(errBuf.String()))
	}
	run, err := train.ParseOpenMP(&raw, "pfls-omp output")
	if err != nil {
		return nil, "shared-memory kernels not used: " + err.Error()
	}
	source := fmt.Sprintf("pfls train: OpenMP kernels (pfls-omp.c, %s -O2 -fopenmp) at %s threads on the machine pfls ran on", filepath.Base(cc), joinInts(run.Threads()))
	s, err := train.BuildShared(run, source)
	if err != nil {
		return nil, "shared-memory kernels not used: " + err.Error()
	}
	return s, ""
}

// writeSharedInfo describes the model's shared-memory section for
// --machine-info: where it comes from, each overhead at 1, 2, the
// largest measured and the node's core count of threads, the bandwidths.
func writeSharedInfo(w io.Writer, m *machine.Machine) {
	s, note := m.Shared()
	fmt.Fprintln(w, "shared memory (OpenMP; --procs is the thread count):")
	if note != "" {
		fmt.Fprintf(w, "  note:     %s\n", note)
	}
	fmt.Fprintf(w, "  source:   %s\n", s.Source)
	measured := "none (defaults)"
	if len(s.Measured) > 0 {
		measured = joinInts(s.Measured) + " threads"
	}
	fmt.Fprintf(w, "  node:     %d cores on %d socket(s); measured at %s\n", s.Cores, max(s.Sockets, 1), measured)
	var counts []int
	for _, t := range []int{1, 2, s.MaxMeasured(), s.Cores} {
		if t >= 1 && (len(counts) == 0 || t > counts[len(counts)-1]) {
			counts = append(counts, t)
		}
	}
	for _, o := range []struct {
		name string
		o    machine.Overhead
	}{{"fork/join", s.Fork}, {"barrier", s.Barrier}, {"reduction", s.Reduction}, {"chunk", s.Chunk}} {
		var at []string
		for _, t := range counts {
			at = append(at, fmt.Sprintf("%s at %d", capability.HumanSeconds(o.o.Time(t)), t))
		}
		fmt.Fprintf(w, "  %-10s %s (%s)\n", o.name, strings.Join(at, ", "), o.o.Words())
	}
	fmt.Fprintf(w, "  bandwidth  %.3g GB/s one core, %.3g GB/s a socket\n", s.CoreBandwidth/1e9, s.SocketBandwidth/1e9)
	for _, n := range s.Notes {
		fmt.Fprintf(w, "  note:     %s\n", n)
	}
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}
