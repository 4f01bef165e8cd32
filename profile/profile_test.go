package profile

import (
	"bytes"
	"context"
	"crypto/sha256"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pfls/pfls/internal/mpirun"
	"github.com/pfls/pfls/parser"
)

var update = flag.Bool("update", false, "rewrite the golden instrumented copies")

func parse(t *testing.T, path string) *parser.File {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parser.Parse(path, src, nil)
}

// TestInstrumentGolden: the instrumented copy of each test program is its
// golden file (testdata/golden/NAME.instrumented; -update rewrites them),
// and instrumenting never changes the parsed source.
func TestInstrumentGolden(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*.f*")
	if len(paths) < 4 {
		t.Fatalf("test programs missing: %v", paths)
	}
	for _, path := range paths {
		f := parse(t, path)
		before := string(f.Src)
		p := Instrument([]*parser.File{f}, []string{path})
		if string(f.Src) != before {
			t.Errorf("%s: Instrument changed the parsed source", path)
		}
		golden := filepath.Join("testdata", "golden", filepath.Base(path)+".instrumented")
		if *update {
			if err := os.WriteFile(golden, []byte(p.Texts[0]), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		if p.Texts[0] != string(want) {
			t.Errorf("%s: the instrumented copy differs from %s (go test -update rewrites it):\n%s", path, golden, p.Texts[0])
		}
		if len(p.Skipped) > 0 {
			t.Errorf("%s: places not instrumented: %v", path, p.Skipped)
		}
	}
}

// TestInstrumentSharedLine: a DO WHILE sharing its line with its body
// cannot be counted (its counter would go into the line), and the reason
// is given; a counted DO on one line is counted before it starts.
func TestInstrumentSharedLine(t *testing.T) {
	src := "program p\n  integer :: i, s\n  s = 0\n  do while (s < 3); s = s + 1; end do\n  do i = 1, 3; s = s + i; end do\n  print *, s\nend program p\n"
	f := parser.Parse("p.f90", []byte(src), nil)
	p := Instrument([]*parser.File{f}, []string{"p.f90"})
	if len(p.Skipped) != 1 || !strings.Contains(p.Skipped[0], "p.f90:4: DO shares its line") {
		t.Errorf("skipped: %q", p.Skipped)
	}
	if !strings.Contains(p.Texts[0], "  do while (s < 3); s = s + 1; end do\n") ||
		!strings.Contains(p.Texts[0], "+max(0,int((3)-(1)+1,8))\n  call pfls_go(2)\n  do i = 1, 3; s = s + i; end do\n  call pfls_end(2)\n") {
		t.Errorf("the instrumented copy:\n%s", p.Texts[0])
	}
}

// TestInstrumentFallThrough: an IF construct without ELSE and a SELECT
// without CASE DEFAULT get an ELSE (CASE DEFAULT) arm that counts the
// times no branch was taken, on their END line; constructs that have one
// get none (a second CASE DEFAULT would not compile).
func TestInstrumentFallThrough(t *testing.T) {
	src := `program p
  integer :: i, s
  s = 0
  do i = 1, 5
     if (i > 3) then
        s = s + 1
     end if
     if (i == 1) then
        s = s + 2
     else
        s = s - 1
     end if
     select case (i)
     case (1)
        s = s + 1
     end select
     select case (i)
     case (2)
        s = s + 3
     case default
        s = s + 4
     end select
  end do
  print *, s
end program p
`
	f := parser.Parse("p.f90", []byte(src), nil)
	p := Instrument([]*parser.File{f}, []string{"p.f90"})
	var arms []int
	for _, s := range p.Sites {
		if s.Kind == Arm {
			arms = append(arms, s.Line)
		}
	}
	if want := []int{5, 7, 8, 10, 14, 16, 18, 20}; !slices.Equal(arms, want) {
		t.Errorf("counted branches on lines %v, want %v", arms, want)
	}
	text := strings.ToLower(p.Texts[0])
	if n := strings.Count(text, "case default"); n != 2 {
		t.Errorf("%d CASE DEFAULTs in the copy, want 2:\n%s", n, p.Texts[0])
	}
	if n := strings.Count(text, "else\n"); n != 2 {
		t.Errorf("%d ELSEs in the copy, want 2:\n%s", n, p.Texts[0])
	}
	if len(p.Skipped) > 0 {
		t.Errorf("skipped: %q", p.Skipped)
	}
}

// TestInstrumentErrorStop: the counters are written before an ERROR STOP
// (as before a STOP), which ends the program without its exit handlers
// under some runtimes and MPI.
func TestInstrumentErrorStop(t *testing.T) {
	src := "program p\n  integer :: k\n  k = 1\n  if (k > 0) then\n     error stop 2\n  end if\n  stop\nend program p\n"
	f := parser.Parse("p.f90", []byte(src), nil)
	p := Instrument([]*parser.File{f}, []string{"p.f90"})
	for _, stop := range []string{"     error stop 2\n", "  stop\n"} {
		if !strings.Contains(p.Texts[0], "call pfls_fini()\n"+stop) {
			t.Errorf("no pfls_fini before %q:\n%s", stop, p.Texts[0])
		}
	}
}

// TestInstrumentStatusIgnore: a receive or wait given MPI_STATUS_IGNORE
// (MPI_STATUSES_IGNORE) calls the recorder's PFI_ wrapper (which passes a
// status of its own, to read the count received), one given a status
// PFL_; the names keep their length.
func TestInstrumentStatusIgnore(t *testing.T) {
	src := `program p
  use mpi
  integer :: ierr, st(MPI_STATUS_SIZE), req(2)
  double precision :: x(4)
  call MPI_Init(ierr)
  call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call mpi_recv(x, 4, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD, st, ierr)
  call MPI_Sendrecv(x, 1, MPI_DOUBLE_PRECISION, 0, 1, x(2), 1, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD, mpi_status_ignore, ierr)
  call MPI_Sendrecv_replace(x, 1, MPI_DOUBLE_PRECISION, 0, 1, 0, 1, MPI_COMM_WORLD, st, ierr)
  call MPI_Wait(req(1), MPI_STATUS_IGNORE, ierr)
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
  call MPI_Wait(req(1), st, ierr)
  call MPI_Finalize(ierr)
end program p
`
	f := parser.Parse("p.f90", []byte(src), nil)
	p := Instrument([]*parser.File{f}, []string{"p.f90"})
	for _, want := range []string{"call PFI_Recv(x, 4,", "call pfl_recv(x, 4,", "call PFI_Sendrecv(x, 1,", "call PFL_Sendrecv_replace(x, 1,",
		"call PFI_Wait(req(1), MPI", "call PFI_Waitall(2,", "call PFL_Wait(req(1), st"} {
		if !strings.Contains(p.Texts[0], want) {
			t.Errorf("no %q in:\n%s", want, p.Texts[0])
		}
	}
}

// expectation is one !@profile(...) annotation: the line and its numbers.
type expectation struct {
	line int
	want map[string]int64
}

var annotation = regexp.MustCompile(`@profile\(([^)]*)\)`)

func expectations(t *testing.T, path string) []expectation {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []expectation
	for i, l := range strings.Split(string(src), "\n") {
		m := annotation.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		e := expectation{line: i + 1, want: map[string]int64{}}
		for _, kv := range strings.Split(m[1], ",") {
			k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatalf("%s:%d: bad annotation %q", path, i+1, m[0])
			}
			e.want[k] = n
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		t.Fatalf("%s has no @profile annotations", path)
	}
	return out
}

// checkProfile compares a profile with the annotations of its program.
func checkProfile(t *testing.T, path string, prof *Profile) {
	t.Helper()
	abs, _ := filepath.Abs(path)
	byLine := map[int]Line{}
	for _, l := range prof.Lines {
		if l.Path == abs {
			byLine[l.Line] = l
		}
	}
	for _, e := range expectations(t, path) {
		l, ok := byLine[e.line]
		if !ok {
			t.Errorf("%s:%d: no measurement", path, e.line)
			continue
		}
		got := map[string]int64{"count": l.Count, "entries": l.Entries, "calls": l.Calls, "bytes": l.Bytes}
		for k, v := range e.want {
			if got[k] != v {
				t.Errorf("%s:%d: %s = %d, want %d", path, e.line, k, got[k], v)
			}
		}
	}
}

// checkTimeline: every rank has states from 0 to its end, in order and
// without gaps, and each state is one of the five.
func checkTimeline(t *testing.T, prof *Profile) {
	t.Helper()
	valid := map[string]bool{}
	for _, s := range States {
		valid[s] = true
	}
	last := map[int]float64{}
	seen := map[int]bool{}
	for _, iv := range prof.Timeline {
		if !valid[iv.State] {
			t.Errorf("rank %d: state %q", iv.Rank, iv.State)
		}
		if !seen[iv.Rank] && iv.Start != 0 {
			t.Errorf("rank %d starts at %g", iv.Rank, iv.Start)
		}
		if seen[iv.Rank] && iv.Start < last[iv.Rank]-1e-9 {
			t.Errorf("rank %d: interval %+v overlaps the one before (end %g)", iv.Rank, iv, last[iv.Rank])
		}
		if iv.End < iv.Start {
			t.Errorf("rank %d: interval %+v ends before it starts", iv.Rank, iv)
		}
		seen[iv.Rank] = true
		last[iv.Rank] = iv.End
	}
	for r := 0; r < prof.Ranks; r++ {
		if !seen[r] || last[r] <= 0 {
			t.Errorf("the timeline does not cover rank %d", r)
		}
	}
}

func hash(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// profileRun instruments and runs the files with temporary files in a
// folder of their own, and checks that the run leaves no file in it, no
// process, and the sources unchanged.
func profileRun(t *testing.T, mpi *mpirun.Tools, procs int, args []string, paths ...string) (*Program, *Measurement, *Profile) {
	t.Helper()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var files []*parser.File
	var abs, dirs []string
	var sums [][32]byte
	for _, p := range paths {
		files = append(files, parse(t, p))
		a, _ := filepath.Abs(p)
		abs = append(abs, a)
		dirs = append(dirs, filepath.Dir(a))
		sums = append(sums, hash(t, p))
	}
	prog := Instrument(files, paths)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var out bytes.Buffer
	m, err := Run(ctx, prog, Options{MPI: mpi, Procs: procs, Args: args, Stdout: &out, Dirs: dirs})
	if err != nil {
		t.Fatalf("%v: %v", paths, err)
	}
	if out.Len() == 0 {
		t.Errorf("%v: the program printed nothing", paths)
	}
	for i, p := range paths {
		if hash(t, p) != sums[i] {
			t.Errorf("%s was changed", p)
		}
	}
	left, _ := os.ReadDir(tmp)
	for _, e := range left {
		t.Errorf("temporary file left: %s", e.Name())
	}
	if pids := running(tmp); len(pids) > 0 {
		t.Errorf("processes left running from %s: %v", tmp, pids)
	}
	return prog, m, Build(prog, m, abs)
}

// running lists the processes whose executable lies under dir (Linux).
func running(dir string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err == nil && strings.HasPrefix(exe, dir) {
			out = append(out, e.Name()+" "+exe)
		}
	}
	return out
}

func findMPI(t *testing.T) *mpirun.Tools {
	t.Helper()
	for _, tool := range []string{"mpif90", "mpicc", "mpirun"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH: the MPI profiles need Open MPI (apt-get install openmpi-bin libopenmpi-dev gfortran)", tool)
		}
	}
	mpi, err := mpirun.Find(mpirun.Fortran, "", "")
	if err != nil {
		t.Skip(err)
	}
	return mpi
}

// TestProfileMPI runs the halo exchange, the reductions, the pipelined
// sweep and the fixed-form ring (INCLUDE 'mpif.h') at P = 2 under mpirun:
// counts, MPI calls and bytes per line are exactly the annotations, and
// the timeline covers both ranks.
func TestProfileMPI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs MPI programs")
	}
	mpi := findMPI(t)
	for _, name := range []string{"halo.f90", "reduce.f90", "sweep.f90", "ring.f"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", name)
			prog, m, prof := profileRun(t, mpi, 2, nil, path)
			if name == "halo.f90" {
				checkHaloReport(t, prog, m, prof)
				checkSendrecvState(t, prof)
			}
			if prof.Ranks != 2 {
				t.Errorf("ranks = %d", prof.Ranks)
			}
			checkProfile(t, path, prof)
			checkTimeline(t, prof)
			if m.Plain <= 0 || m.Instrumented <= 0 {
				t.Errorf("run times %g, %g", m.Plain, m.Instrumented)
			}
		})
	}
}

// checkSendrecvState: the halo's MPI_SENDRECV calls (lines 24 and 26)
// are in the timeline as receives (they wait for their incoming data;
// profile.json has no sixth state), never as sends or compute.
func checkSendrecvState(t *testing.T, prof *Profile) {
	t.Helper()
	n := 0
	for _, iv := range prof.Timeline {
		if iv.Line == 24 || iv.Line == 26 {
			n++
			if iv.State != "receive" {
				t.Errorf("MPI_SENDRECV on line %d shown as %q", iv.Line, iv.State)
			}
		}
	}
	if n == 0 {
		t.Error("no MPI_SENDRECV in the timeline")
	}
}

// TestProfileSerial builds the fixed-form program with gfortran and runs
// it as one process: the counts of the labelled loops (one of them sharing
// its terminal statement), the IF arms and the routine are exact, and the
// routine left through IF (...) RETURN has a time.
func TestProfileSerial(t *testing.T) {
	if _, err := exec.LookPath("gfortran"); err != nil {
		t.Skip("gfortran is not on PATH")
	}
	path := filepath.Join("testdata", "serial.f")
	prog, _, prof := profileRun(t, nil, 1, nil, path)
	checkProfile(t, path, prof)
	checkTimeline(t, prof)
	scaled := false // SCALE's header is line 37
	for _, l := range prof.Lines {
		if l.Line == 37 {
			scaled = l.Time > 0
		}
	}
	if !scaled {
		t.Error("SCALE has no time")
	}
	if prog.MPI {
		t.Error("serial.f taken for an MPI program")
	}
}

// TestProfileOpenMP builds the OpenMP program with gfortran -fopenmp and
// runs it on two threads: the counters inside the parallel loop are
// atomic, so the counts are exact.
func TestProfileOpenMP(t *testing.T) {
	if _, err := exec.LookPath("gfortran"); err != nil {
		t.Skip("gfortran is not on PATH")
	}
	t.Setenv("OMP_NUM_THREADS", "2")
	path := filepath.Join("testdata", "omp.f90")
	prog, _, prof := profileRun(t, nil, 1, nil, path)
	if !prog.OpenMP || prog.MPI {
		t.Errorf("OpenMP %v, MPI %v", prog.OpenMP, prog.MPI)
	}
	checkProfile(t, path, prof)
	checkTimeline(t, prof)
}

// TestInstrumentSequenceNumbers: fixed-form text past column 72 (card
// sequence numbers) does not keep a statement from being instrumented.
func TestInstrumentSequenceNumbers(t *testing.T) {
	src := "      PROGRAM P                                                         00000010\n" +
		"      INTEGER I, S                                                      00000020\n" +
		"      S = 0                                                             00000030\n" +
		"      DO 10 I = 1, 5                                                    00000040\n" +
		"      IF (S .GT. 2) THEN                                                00000050\n" +
		"      S = S + I                                                         00000060\n" +
		"      END IF                                                            00000070\n" +
		"   10 CONTINUE                                                          00000080\n" +
		"      END                                                               00000090\n"
	f := parser.Parse("p.f", []byte(src), nil)
	p := Instrument([]*parser.File{f}, []string{"p.f"})
	if len(p.Skipped) > 0 {
		t.Errorf("skipped: %v", p.Skipped)
	}
	if !strings.Contains(p.Texts[0], "00000050\n      pfls_c(4)=pfls_c(4)+1\n") || !strings.Contains(p.Texts[0], "00000080\n      call pfls_end(2)\n") {
		t.Errorf("instrumented:\n%s", p.Texts[0])
	}
}

// checkHaloReport: the halo exchange's messages are charged to U (both
// exchanges' buffers), the smoothing loop's time to V, and report.txt
// gives the statistics of the time-step loop with its MPI share.
func checkHaloReport(t *testing.T, prog *Program, m *Measurement, prof *Profile) {
	t.Helper()
	arrays := map[string]Array{}
	for _, a := range prof.Arrays {
		arrays[a.Name] = a
	}
	if arrays["U"].Bytes != 320 || arrays["U"].Time <= 0 || arrays["V"].Time <= 0 || arrays["V"].Bytes != 0 {
		t.Errorf("arrays: %+v", prof.Arrays)
	}
	var b strings.Builder
	WriteReport(&b, prog, m, prof)
	rep := b.String()
	row := regexp.MustCompile(`(?m)^  halo\.f90:22 +20 +2 +\S+ \S+ +\S+ \S+ +([0-9.]+) +([0-9.]+) +([0-9.]+)%$`).FindStringSubmatch(rep)
	if row == nil {
		t.Fatalf("report.txt has no row for the time-step loop:\n%s", rep)
	}
	imb, _ := strconv.ParseFloat(row[1], 64)
	eff, _ := strconv.ParseFloat(row[2], 64)
	comm, _ := strconv.ParseFloat(row[3], 64)
	// Efficiency is time outside MPI over P x max, so it is at most
	// 1 - comm (both printed to two places). Under load the MPI share can
	// reach 99.6% and the efficiency print as 0.00: no lower bound but 0.
	if imb < 1 || eff < 0 || eff > 1 || comm <= 0 || comm > 100 || eff > 1-comm/100+0.011 {
		t.Errorf("time-step loop: imbalance %g, efficiency %g, comm %g%%", imb, eff, comm)
	}
	for _, want := range []string{`instrumentation overhead [-+][0-9.]+%`, `halo\.f90:24 +MPI_SENDRECV +20 calls +160 bytes`, `halo\.f90:26 +MPI_SENDRECV +20 calls +160 bytes`} {
		if !regexp.MustCompile(want).MatchString(rep) {
			t.Errorf("report.txt lacks %q:\n%s", want, rep)
		}
	}
}

// TestInstrumentF08: with mpi_f08 (optional IERROR, derived-type
// handles) the calls are not renamed to the recorder's wrappers, and the
// report says they are not recorded.
func TestInstrumentF08(t *testing.T) {
	src := "program p\n  use mpi_f08\n  integer :: x\n  call MPI_Init()\n  call MPI_Bcast(x, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)\n  call MPI_Finalize()\nend program p\n"
	f := parser.Parse("p.f90", []byte(src), nil)
	p := Instrument([]*parser.File{f}, []string{"p.f90"})
	if strings.Contains(strings.ToUpper(p.Texts[0]), "PFL_") || strings.Contains(strings.ToUpper(p.Plain[0]), "PFL_") {
		t.Errorf("mpi_f08 calls renamed:\n%s", p.Texts[0])
	}
	if len(p.Skipped) != 3 || !strings.Contains(p.Skipped[1], "p.f90:5: MPI_BCAST is not recorded: the file uses mpi_f08") {
		t.Errorf("skipped: %q", p.Skipped)
	}
	if _, err := Run(context.Background(), p, Options{}); err == nil || !strings.Contains(err.Error(), "mpi_f08") {
		t.Errorf("Run: %v", err)
	}
}

// TestProfileWorkDir: the program runs in the folder given (it reads its
// input there), and pfls's files stay out of it.
func TestProfileWorkDir(t *testing.T) {
	if _, err := exec.LookPath("gfortran"); err != nil {
		t.Skip("gfortran is not on PATH")
	}
	t.Setenv("TMPDIR", t.TempDir())
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "pfls-input.txt"), []byte("7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "input.f90")
	abs, _ := filepath.Abs(path)
	prog := Instrument([]*parser.File{parse(t, path)}, []string{path})
	var out bytes.Buffer
	m, err := Run(context.Background(), prog, Options{Stdout: &out, WorkDir: work})
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != "input 28\n" {
		t.Errorf("output %q", out.String())
	}
	checkProfile(t, path, Build(prog, m, []string{abs}))
	left, _ := os.ReadDir(work)
	if len(left) != 1 {
		t.Errorf("files in the working folder: %v", left)
	}
}

// TestProfileStop: a program that ends in IF (...) STOP inside a
// subroutine still writes its counters (at exit), and they are exact.
func TestProfileStop(t *testing.T) {
	if _, err := exec.LookPath("gfortran"); err != nil {
		t.Skip("gfortran is not on PATH")
	}
	path := filepath.Join("testdata", "stop.f90")
	_, _, prof := profileRun(t, nil, 1, nil, path)
	checkProfile(t, path, prof)
}

// TestInstrumentJumpTargets: a GO TO to a labelled DO, RETURN or END runs
// what is inserted before it (the label moves to a CONTINUE above), so
// the loop's entries and trips and the routine's time are all measured;
// a label that ends a DO stays on its statement.
func TestInstrumentJumpTargets(t *testing.T) {
	path := filepath.Join("testdata", "golabel.f")
	prog := Instrument([]*parser.File{parse(t, path)}, []string{path})
	text := prog.Texts[0]
	for _, want := range []string{
		"5     continue\n      pfls_c(",
		"\n   10 CONTINUE\n",
		"\n   20 CONTINUE\n",
		"30    continue\n      call pfls_end(",
		"99    continue\n      call pfls_end(",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	// The line marker and the end of the counters before MPI_FINALIZE
	// run on GO TO 99 too; a DO's terminal MPI call keeps its label.
	src := "      PROGRAM P\n      INCLUDE 'mpif.h'\n      INTEGER IERR, I, X\n      CALL MPI_INIT(IERR)\n" +
		"      DO 10 I = 1, 3\n   10 CALL MPI_BCAST(X, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)\n" +
		"      IF (X .GT. 0) GO TO 99\n      X = 1\n   99 CALL MPI_FINALIZE(IERR)\n      END\n"
	mpi := Instrument([]*parser.File{parser.Parse("fin.f", []byte(src), nil)}, []string{"fin.f"}).Texts[0]
	for _, want := range []string{"\n99    continue\n      pfls_line=9\n", "\n      CALL PFL_FINALIZE(IERR)\n",
		"      pfls_line=6\n   10 CALL PFL_BCAST("} {
		if !strings.Contains(mpi, want) {
			t.Errorf("no %q in\n%s", want, mpi)
		}
	}
	if _, err := exec.LookPath("gfortran"); err != nil {
		t.Skip("gfortran is not on PATH")
	}
	_, _, prof := profileRun(t, nil, 1, nil, path)
	checkProfile(t, path, prof)
}

// TestProfileOpenMPRegion: in a PARALLEL region every thread reaches the
// counters before a loop: an !$omp do loop is counted by one thread
// (!$omp single), a loop each thread runs by all, atomically.
func TestProfileOpenMPRegion(t *testing.T) {
	if _, err := exec.LookPath("gfortran"); err != nil {
		t.Skip("gfortran is not on PATH")
	}
	t.Setenv("OMP_NUM_THREADS", "3")
	path := filepath.Join("testdata", "ompregion.f90")
	_, _, prof := profileRun(t, nil, 1, nil, path)
	checkProfile(t, path, prof)
}

// TestInstrumentSpecification: the routine's entry counter goes after
// the specification part, which an ENUM, BIND(C) block and a CHARACTER
// statement function belong to (a substring assignment does not), and
// the copies compile.
func TestInstrumentSpecification(t *testing.T) {
	for _, c := range []struct{ src, after, before string }{
		{"subroutine s(x)\n  real :: x\n  enum, bind(c)\n    enumerator :: red = 1, blue\n  end enum\n  x = red\nend subroutine\n",
			"end enum", "x = red"},
		{"subroutine s(s4)\n  character(len=4) :: s4, cf\n  character(len=1) :: a\n  cf(a) = a // 'bcd'\n  s4(1:2) = 'zz'\n  s4 = cf('q')\nend subroutine\n",
			"cf(a) =", "s4(1:2) ="},
	} {
		f := parser.Parse("spec.f90", []byte(c.src), nil)
		prog := Instrument([]*parser.File{f}, []string{"spec.f90"})
		text := prog.Texts[0]
		at := strings.Index(text, "pfls_c(1)=pfls_c(1)+1")
		if at < strings.Index(text, c.after) || at > strings.Index(text, c.before) {
			t.Errorf("entry counter not between %q and %q:\n%s", c.after, c.before, text)
		}
		if _, err := exec.LookPath("gfortran"); err != nil {
			continue
		}
		dir := t.TempDir()
		for name, text := range map[string]string{"pfls_prof.f90": prog.Module(dir), "spec.f90": text} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command("gfortran", "-c", "pfls_prof.f90", "spec.f90")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("gfortran: %v\n%s\n%s", err, out, text)
		}
	}
}

// TestInstrumentFallThroughSelectType: the fall-through arm of a SELECT
// TYPE is CLASS DEFAULT and that of a SELECT RANK is RANK DEFAULT (a
// CASE DEFAULT does not belong to either construct, F2018 11.1.10-11);
// one that has CLASS DEFAULT gets none (a second would not compile).
func TestInstrumentFallThroughSelectType(t *testing.T) {
	src := `subroutine s(x, a)
  class(*) :: x
  real :: a(..)
  integer :: k
  k = 0
  select type (x)
  type is (integer)
     k = 1
  end select
  select type (x)
  type is (real)
     k = 2
  class default
     k = 3
  end select
  select rank (a)
  rank (1)
     k = 4
  end select
end subroutine s
`
	f := parser.Parse("s.f90", []byte(src), nil)
	p := Instrument([]*parser.File{f}, []string{"s.f90"})
	text := strings.ToLower(p.Texts[0])
	if n := strings.Count(text, "case default"); n != 0 {
		t.Errorf("%d CASE DEFAULTs in the copy, want 0:\n%s", n, p.Texts[0])
	}
	if n := strings.Count(text, "class default"); n != 2 {
		t.Errorf("%d CLASS DEFAULTs in the copy, want 2:\n%s", n, p.Texts[0])
	}
	if n := strings.Count(text, "rank default"); n != 1 {
		t.Errorf("%d RANK DEFAULTs in the copy, want 1:\n%s", n, p.Texts[0])
	}
	var arms []int
	for _, s := range p.Sites {
		if s.Kind == Arm {
			arms = append(arms, s.Line)
		}
	}
	if want := []int{7, 9, 11, 13, 17, 19}; !slices.Equal(arms, want) {
		t.Errorf("counted branches on lines %v, want %v", arms, want)
	}
}

// TestInstrumentErrorStopLeavesLoop: ERROR STOP, like STOP, ends the
// program (F2018 11.4): a loop that holds one may stop before its trip
// count, so it counts its iterations in its body as a loop with a STOP
// does, not its whole trip count before it starts (the counters are
// written at the ERROR STOP).
func TestInstrumentErrorStopLeavesLoop(t *testing.T) {
	src := "program p\n  integer :: i, n\n  n = 100\n  do i = 1, n\n     if (i == 3) then\n        STOPPING\n     end if\n  end do\nend program p\n"
	copyOf := func(stop string) string {
		s := strings.Replace(src, "STOPPING", stop, 1)
		f := parser.Parse("p.f90", []byte(s), nil)
		return Instrument([]*parser.File{f}, []string{"p.f90"}).Texts[0]
	}
	plain, errorStop := copyOf("stop 1"), copyOf("error stop 1")
	if want := strings.Replace(plain, "stop 1", "error stop 1", 1); errorStop != want {
		t.Errorf("with ERROR STOP:\n%s\nwant, as with STOP:\n%s", errorStop, want)
	}
}

// TestInstrumentStopInDoConcurrent: no procedure that is not PURE may be
// referenced in a DO CONCURRENT (F2018 C1139), so the counters are not
// written before a STOP or ERROR STOP there (gfortran: "Subroutine call
// to 'pfls_end' in DO CONCURRENT block is not PURE"); it is noted.
func TestInstrumentStopInDoConcurrent(t *testing.T) {
	src := "program p\n  integer :: i\n  real :: a(10)\n  do concurrent (i = 1:10)\n     a(i) = i\n     if (a(i) > 20.0) then\n        error stop 3\n     end if\n  end do\n  print *, a(1)\n  stop\nend program p\n"
	f := parser.Parse("p.f90", []byte(src), nil)
	p := Instrument([]*parser.File{f}, []string{"p.f90"})
	text := p.Texts[0]
	loop := text[strings.Index(text, "do concurrent"):strings.Index(text, "end do")]
	if strings.Contains(loop, "call ") {
		t.Errorf("a call inside the DO CONCURRENT:\n%s", text)
	}
	if !strings.Contains(text, "call pfls_fini()\n  stop\n") {
		t.Errorf("no pfls_fini before the STOP outside it:\n%s", text)
	}
	if len(p.Skipped) != 1 || !strings.Contains(strings.Join(p.Skipped, "\n"), "DO CONCURRENT") {
		t.Errorf("skipped: %q, want the ERROR STOP in DO CONCURRENT", p.Skipped)
	}
}

// TestProfileTypeFreed: an MPI_IRECV whose derived datatype the program
// frees before the MPI_WAIT that completes it (MPI 3.1 4.1.9: the
// communication completes normally) runs under the recorder too, which
// reads its count with a datatype of its own: the freed handle is no
// longer valid (Open MPI: MPI_ERR_TYPE, fatal, the job aborted).
func TestProfileTypeFreed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs MPI programs")
	}
	mpi := findMPI(t)
	path := filepath.Join("testdata", "typefree.f90")
	_, _, prof := profileRun(t, mpi, 2, nil, path)
	checkProfile(t, path, prof)
}
