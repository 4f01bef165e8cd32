package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestProfileHelp: `pfls help profile` lists every flag with its default.
func TestProfileHelp(t *testing.T) {
	var out, errs strings.Builder
	if code := run([]string{"help", "profile"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	lines := strings.Split(out.String(), "\n")
	listed := map[string]bool{}
	for i, l := range lines {
		if strings.HasPrefix(l, "  --") {
			name, _, _ := strings.Cut(strings.TrimSpace(l), " ")
			listed[name] = true
			if !strings.Contains(lines[i+1], "(default") {
				t.Errorf("%s has no default: %q", name, lines[i+1])
			}
		}
	}
	for _, f := range []string{"--np", "--mpirun", "--platform", "--out", "--reps", "--timeout"} {
		if !listed[f] {
			t.Errorf("%s not listed:\n%s", f, out.String())
		}
	}
}

// TestProfileUsage: bad command lines exit 2 with a message.
func TestProfileUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"profile"}, "no file given"},
		{[]string{"profile", "--np", "0", "x.f90"}, "--np 0"},
		{[]string{"profile", "nosuch.f90"}, "nosuch.f90"},
		{[]string{"profile", "--platform", "cluster", "--mpirun", "mpirun", "x.f90"}, "leave out --mpirun"},
	} {
		var out, errs strings.Builder
		if code := run(c.args, &out, &errs); code != 2 || !strings.Contains(errs.String(), c.want) {
			t.Errorf("%v: exit %d, %q (want 2 and %q)", c.args, code, errs.String(), c.want)
		}
	}
}

func needMPI(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs MPI programs")
	}
	for _, tool := range []string{"mpif90", "mpicc", "mpirun"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH: pfls profile needs Open MPI here (apt-get install openmpi-bin libopenmpi-dev gfortran)", tool)
		}
	}
}

func sum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// TestProfileCommand profiles the halo exchange at P = 2 with the default
// output folder (.pfls/profile-TIMESTAMP next to the file): the three
// files are there, profile.json has exactly the fields of DESIGN.md §4,
// the file is unchanged and no temporary file is left.
func TestProfileCommand(t *testing.T) {
	needMPI(t)
	work, tmp := t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", tmp)
	src, err := os.ReadFile(filepath.Join("..", "..", "profile", "testdata", "halo.f90"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(work, "halo.f90")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	before := sum(t, path)
	var out, errs strings.Builder
	if code := run([]string{"profile", "--np", "2", path}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), "halo u(1) =") {
		t.Errorf("the program's output is not shown: %q", out.String())
	}
	if sum(t, path) != before {
		t.Error("the user's file was changed")
	}
	dirs, _ := filepath.Glob(filepath.Join(work, ".pfls", "profile-*"))
	if len(dirs) != 1 {
		t.Fatalf("output folders: %v (stderr %s)", dirs, errs.String())
	}
	for _, f := range []string{"profile.json", "timeline.svg", "report.txt"} {
		if st, err := os.Stat(filepath.Join(dirs[0], f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	left, _ := os.ReadDir(tmp)
	for _, e := range left {
		t.Errorf("temporary file left: %s", e.Name())
	}
	data, err := os.ReadFile(filepath.Join(dirs[0], "profile.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc) != 4 || doc["ranks"] == nil || doc["lines"] == nil || doc["arrays"] == nil || doc["timeline"] == nil {
		t.Errorf("profile.json's fields: %s", keys(doc))
	}
	fields := map[string]map[string]bool{
		"lines":    {"path": true, "line": true, "count": true, "time": true, "calls": true, "bytes": true, "entries": true},
		"arrays":   {"name": true, "time": true, "bytes": true},
		"timeline": {"rank": true, "state": true, "start": true, "end": true, "line": true},
	}
	for list, allowed := range fields {
		var items []map[string]any
		if err := json.Unmarshal(doc[list], &items); err != nil || len(items) == 0 {
			t.Errorf("%s: %v, %d items", list, err, len(items))
		}
		for _, it := range items {
			for k := range it {
				if !allowed[k] {
					t.Errorf("%s: field %q", list, k)
				}
			}
		}
	}
	svg, _ := os.ReadFile(filepath.Join(dirs[0], "timeline.svg"))
	for _, want := range []string{"rank 0", "rank 1", "receive", "compute"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("timeline.svg lacks %q", want)
		}
	}
}

func keys(m map[string]json.RawMessage) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return strings.Join(ks, ",")
}

// TestProfileKit profiles the validation kit's red-black relaxation at
// P = 2 (column layout, N = 128, 20 cycles, 2 timed runs after the
// warm-up) and checks the sweep's counts and the exchange's messages
// against the kernel's known trip counts; the overhead is logged.
func TestProfileKit(t *testing.T) {
	needMPI(t)
	t.Setenv("TMPDIR", t.TempDir())
	out := t.TempDir()
	kit := filepath.Join("..", "..", "validation", "kernels")
	const n, ncycle, reps, procs = 128, 20, 2, 2
	var stdout, errs strings.Builder
	args := []string{"profile", "--np", "2", "--reps", "2", "--out", out,
		filepath.Join(kit, "charge.f90"), filepath.Join(kit, "kit.f90"), filepath.Join(kit, "redblack.f90"), "--",
		"column", strconv.Itoa(n), strconv.Itoa(ncycle), strconv.Itoa(reps)}
	if code := run(args, &stdout, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	data, err := os.ReadFile(filepath.Join(out, "profile.json"))
	if err != nil {
		t.Fatal(err)
	}
	var prof struct {
		Lines []struct {
			Path                         string
			Line                         int
			Count, Calls, Bytes, Entries int64
		}
	}
	if err := json.Unmarshal(data, &prof); err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(filepath.Join(kit, "redblack.f90"))
	lineOf := func(text string) int {
		for i, l := range strings.Split(string(src), "\n") {
			if strings.Contains(l, text) {
				return i + 1
			}
		}
		t.Fatalf("redblack.f90 has no line %q", text)
		return 0
	}
	get := func(line int) (c, e, calls, b int64) {
		for _, l := range prof.Lines {
			if strings.HasSuffix(l.Path, "redblack.f90") && l.Line == line {
				return l.Count, l.Entries, l.Calls, l.Bytes
			}
		}
		t.Errorf("redblack.f90:%d: no measurement", line)
		return
	}
	// Each rank owns N/P columns and all N rows; a sweep visits every
	// second column and row of its block. relax runs once to warm up and
	// once per timed run, four sweeps per cycle.
	sweeps := int64(procs * (1 + reps) * ncycle * 4)
	cols, rows := int64(n/procs/2), int64(n/2)
	if c, e, _, _ := get(lineOf("do j = first_of(part%jlo, jstart), part%jhi, 2")); c != sweeps*cols || e != sweeps {
		t.Errorf("sweep's J loop: %d iterations in %d entries, want %d in %d", c, e, sweeps*cols, sweeps)
	}
	if c, e, _, _ := get(lineOf("do i = first_of(part%ilo, istart), part%ihi, 2")); c != sweeps*cols*rows || e != sweeps*cols {
		t.Errorf("sweep's I loop: %d iterations in %d entries, want %d in %d", c, e, sweeps*cols*rows, sweeps*cols)
	}
	// Each exchange sends one boundary column of every second row (N/2
	// REALs) one way and receives one the other way; at the edge one of
	// the two is MPI_PROC_NULL and carries nothing.
	for _, text := range []string{"call MPI_Sendrecv(val(i0, part%jlo)", "call MPI_Sendrecv(val(i0, part%jhi)"} {
		if _, _, calls, b := get(lineOf(text)); calls != sweeps || b != sweeps*rows*4 {
			t.Errorf("%s: %d calls, %d bytes, want %d and %d", text, calls, b, sweeps, sweeps*rows*4)
		}
	}
	report, _ := os.ReadFile(filepath.Join(out, "report.txt"))
	m := regexp.MustCompile(`instrumentation overhead ([-+0-9.]+)%`).FindSubmatch(report)
	if m == nil {
		t.Fatalf("report.txt gives no overhead:\n%s", report)
	}
	t.Logf("redblack N=%d P=%d: instrumentation overhead %s%% (%s)", n, procs, m[1], strings.TrimSpace(errs.String()))
}

// writeProfileJSON writes a profile.json with the given DO lines of path:
// line → {count, entries}.
func writeProfileJSON(t *testing.T, dir, path string, lines map[int][2]int64) string {
	t.Helper()
	abs, _ := filepath.Abs(path)
	var ls []map[string]any
	for line, c := range lines {
		ls = append(ls, map[string]any{"path": abs, "line": line, "count": c[0], "time": 0, "calls": 0, "bytes": 0, "entries": c[1]})
	}
	data, _ := json.Marshal(map[string]any{"ranks": 2, "lines": ls, "arrays": []any{}, "timeline": []any{}})
	out := filepath.Join(dir, "profile.json")
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestComplexityProfile: `pfls complexity --profile` agrees with counts
// equal to the loops' trip counts, flags one iteration too many where
// the model is exact (exit 1), and does not compare a loop left by GO TO
// (the model weighs the IF half and half).
func TestComplexityProfile(t *testing.T) {
	dir := t.TempDir()
	halo := filepath.Join("..", "..", "profile", "testdata", "halo.f90")
	exact := map[int][2]int64{19: {204, 2}, 22: {20, 2}, 28: {2000, 20}}
	var out, errs strings.Builder
	if code := run([]string{"complexity", "--profile", writeProfileJSON(t, dir, halo, exact), halo}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs.String(), out.String())
	}
	for _, want := range []string{
		"halo.f90:19: trip 102 (204 iterations in 2 entries); nest 102 per entry, model 102  agrees",
		"halo.f90:22: trip 10 (20 iterations in 2 entries); nest 1010 per entry, model 1010  agrees",
		"halo.f90:28: trip 100 (2000 iterations in 20 entries); nest 100 per entry, model 100  agrees",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in:\n%s", want, out.String())
		}
	}
	exact[28] = [2]int64{2001, 20}
	out.Reset()
	errs.Reset()
	if code := run([]string{"complexity", "--profile", writeProfileJSON(t, dir, halo, exact), halo}, &out, &errs); code != 1 ||
		!strings.Contains(out.String(), "halo.f90:28: trip 100.05 (2001 iterations in 20 entries); nest 100.05 per entry, model 100  DISAGREES") ||
		!strings.Contains(out.String(), "halo.f90:22: trip 10 (20 iterations in 2 entries); nest 1010.5 per entry, model 1010  DISAGREES") {
		t.Errorf("exit %d: %s\n%s", code, errs.String(), out.String())
	}
	serial := filepath.Join("..", "..", "profile", "testdata", "serial.f")
	out.Reset()
	if code := run([]string{"complexity", "--profile", writeProfileJSON(t, dir, serial, map[int][2]int64{22: {8, 1}}), serial}, &out, &errs); code != 0 ||
		!strings.Contains(out.String(), "serial.f:22: trip 8 (8 iterations in 1 entries); nest 8 per entry, model 30  (model not exact: not compared)") {
		t.Errorf("exit %d:\n%s", code, out.String())
	}
	out.Reset()
	if code := run([]string{"complexity", "--profile", filepath.Join(dir, "nosuch.json"), halo}, &out, &errs); code != 2 {
		t.Errorf("a missing profile: exit %d", code)
	}
}

// TestProfileSMPI profiles the halo exchange at P = 2 on SimGrid's SMPI
// (--platform cluster): the calls are recorded there too (the program
// calls the recorder's PFL_SENDRECV, which calls SMPI's MPI_SENDRECV), so
// the calls, bytes and counts are exact, and the simulated timeline
// covers both ranks.
func TestProfileSMPI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs SMPI")
	}
	for _, tool := range []string{"smpif90", "smpicc", "smpirun"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH: --platform needs SimGrid's SMPI (apt-get install libsimgrid-dev gfortran)", tool)
		}
	}
	t.Setenv("TMPDIR", t.TempDir())
	out := t.TempDir()
	halo := filepath.Join("..", "..", "profile", "testdata", "halo.f90")
	var stdout, errs strings.Builder
	if code := run([]string{"profile", "--platform", "cluster", "--np", "2", "--out", out, halo}, &stdout, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	data, err := os.ReadFile(filepath.Join(out, "profile.json"))
	if err != nil {
		t.Fatal(err)
	}
	var prof struct {
		Ranks int
		Lines []struct {
			Line                         int
			Count, Calls, Bytes, Entries int64
		}
		Timeline []struct{ Rank int }
	}
	if err := json.Unmarshal(data, &prof); err != nil {
		t.Fatal(err)
	}
	got := map[int][4]int64{}
	for _, l := range prof.Lines {
		got[l.Line] = [4]int64{l.Count, l.Entries, l.Calls, l.Bytes}
	}
	for line, want := range map[int][4]int64{22: {20, 2, 0, 0}, 24: {20, 0, 20, 160}, 26: {20, 0, 20, 160}, 28: {2000, 20, 0, 0}} {
		if got[line] != want {
			t.Errorf("halo.f90:%d: count, entries, calls, bytes = %v, want %v", line, got[line], want)
		}
	}
	ranks := map[int]bool{}
	for _, iv := range prof.Timeline {
		ranks[iv.Rank] = true
	}
	if prof.Ranks != 2 || !ranks[0] || !ranks[1] {
		t.Errorf("ranks %d, timeline of %v", prof.Ranks, ranks)
	}
	if !strings.Contains(errs.String(), "simulated") {
		t.Errorf("stderr does not say what is simulated: %s", errs.String())
	}
}
