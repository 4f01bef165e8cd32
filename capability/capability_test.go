package capability

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/pfls/pfls/complexity"

	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

func codes(fs []Finding) map[string]int {
	out := map[string]int{}
	for _, f := range fs {
		out[f.Code]++
	}
	return out
}

func findings(t *testing.T, name, src, dialect string) []Finding {
	t.Helper()
	f := parser.Parse(name, []byte(src), nil)
	for _, e := range f.Errors() {
		if e.Severity == parser.SevError { // warnings (an empty array) are expected in some inputs
			t.Fatalf("%s: %v", name, f.Errors())
		}
	}
	if f.Dialect != dialect {
		t.Fatalf("%s: dialect %q, want %q", name, f.Dialect, dialect)
	}
	return Capabilities(f, nil, partition.Options{Procs: 16})
}

// TestCapabilityAcceptance: the diagnostics the papers find in their
// programs.
func TestCapabilityAcceptance(t *testing.T) {
	for _, c := range []struct{ file, code, dialect, inMessage string }{
		{"dgefa.f", "non-overlapped-broadcast", "", "K loop"},
		{"example.fcm", "missing-align", "cmf", "B is not aligned with A"},
		{"tridvpk.f", "pipeline-granularity", "", "B_opt = "},
		{"redblack.f", "loop-distribution", "", "block boundaries"},
	} {
		src, err := os.ReadFile("../examples/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		fs := findings(t, c.file, string(src), c.dialect)
		found := false
		for _, f := range fs {
			if f.Code == c.code && strings.Contains(f.Message, c.inMessage) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no %s in %v", c.file, c.code, fs)
		}
	}
}

// TestMissingAlignFix: the fix inserts CMF$ ALIGN B(I,J) WITH A(I,J),
// leaves a file that parses, removes the diagnostic and does not make the
// estimate worse.
func TestMissingAlignFix(t *testing.T) {
	src, err := os.ReadFile("../examples/example.fcm")
	if err != nil {
		t.Fatal(err)
	}
	f := parser.Parse("example.fcm", src, nil)
	opt := partition.Options{Procs: 16}
	if f.Dialect != parser.DialectCMF {
		t.Fatalf("example.fcm: dialect %q", f.Dialect)
	}
	var fix *Fix
	for _, x := range Capabilities(f, nil, opt) {
		if x.Code == "missing-align" {
			fix = x.Fix
		}
	}
	if fix == nil || fix.Text != "CMF$ ALIGN B(I,J) WITH A(I,J)\n" {
		t.Fatalf("fix %+v", fix)
	}
	nsrc := string(src[:fix.Offset]) + fix.Text + string(src[fix.Offset:])
	g := parser.Parse("example.fcm", []byte(nsrc), nil)
	if errs := g.Errors(); len(errs) > 0 {
		t.Fatalf("fixed file: %v\n%s", errs, nsrc)
	}
	if n := codes(Capabilities(g, nil, opt))["missing-align"]; n != 0 {
		t.Errorf("missing-align still reported after the fix")
	}
	before, after := Capabilities0(f, opt), Capabilities0(g, opt)
	if after[0] > before[0] {
		t.Errorf("the fix made the estimate worse: %g -> %g", before[0], after[0])
	}
}

// TestCapabilityNegatives: code that does not warrant a diagnostic stays
// clean: aligned arrays, local loops, coarse loops.
func TestCapabilityNegatives(t *testing.T) {
	aligned := `      PROGRAM ALIGNED
      PARAMETER (N = 1000)
      REAL A(N,N), B(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A, B WITH D
      DISTRIBUTE D(:, BLOCK)
      DO 10 J = 1, N
         DO 10 I = 1, N
            B(I,J) = A(I,J) * 2.0
   10 CONTINUE
      END
`
	local := `      PROGRAM LOCAL
      PARAMETER (N = 1000)
      REAL A(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A WITH D
      DISTRIBUTE D(:, BLOCK)
      DO 10 J = 1, N
         DO 10 I = 2, N
            A(I,J) = A(I-1,J) + 1.0
   10 CONTINUE
      END
`
	coarse := `      PROGRAM COARSE
      PARAMETER (N = 4000)
      REAL A(N,N), B(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A, B WITH D
      DISTRIBUTE D(:, BLOCK)
      DO 10 J = 2, N - 1
         DO 10 I = 1, N
            B(I,J) = SQRT(A(I,J)) + A(I,J-1) + A(I,J+1)
   10 CONTINUE
      END
`
	for name, src := range map[string]string{"aligned.f": aligned, "local.f": local} {
		if fs := findings(t, name, src, ""); len(fs) != 0 {
			t.Errorf("%s: %v", name, fs)
		}
	}
	// The coarse loop shifts along J (a loop-distribution note is right)
	// but is no fine-grain loop.
	if c := codes(findings(t, "coarse.f", coarse, "")); c["fine-grain-loop"] != 0 || c["missing-align"] != 0 {
		t.Errorf("coarse.f: %v", c)
	}
}

func TestUnusedArrayAndFineGrain(t *testing.T) {
	src := `      PROGRAM FINE
      PARAMETER (N = 64)
      REAL A(N), B(N), SPARE(1000,1000)
      DECOMPOSITION D(N)
      ALIGN A, B WITH D
      DISTRIBUTE D(BLOCK)
      DO 10 I = 2, N
         A(I) = B(I-1)
   10 CONTINUE
      END
`
	fs := findings(t, "fine.f", src, "")
	c := codes(fs)
	if c["unused-array"] != 1 || c["fine-grain-loop"] != 1 {
		t.Fatalf("%v", fs)
	}
	for _, f := range fs {
		if f.Code == "unused-array" && !strings.Contains(f.Message, "SPARE") || f.Code == "unused-array" && !strings.Contains(f.Message, "3.81 MiB per processor") {
			t.Errorf("unused-array message: %s", f.Message)
		}
	}
}

func TestPipelineModel(t *testing.T) {
	pm := PipelineModel{P: 8, N1: 64, N2: 4096, ClStage: 1e-9, ClComm: 1e-9, CfComm: 20e-6, CfSovhd: 5e-6, CfRovhd: 5e-6}
	b, ok := pm.BOpt()
	if !ok {
		t.Fatal("no optimum")
	}
	// Equation (2) is the minimum of equation (1): neighbours cost more.
	if !(pm.TPipe(b) <= pm.TPipe(b*0.9) && pm.TPipe(b) <= pm.TPipe(b*1.1)) {
		t.Errorf("B_opt %g is not a minimum of T_pipe", b)
	}
	best, tBest := pm.BestBlock(func(float64) PipelineModel { return pm })
	if d := float64(best) - b; d > 1 || d < -1 || tBest > pm.TPipe(8) {
		t.Errorf("integer search %d (%g) vs %g", best, tBest, b)
	}
	if _, err := LoadProfile(strings.NewReader(`{"name": "x", "pipelineBlock": -1}`)); err == nil {
		t.Errorf("negative block accepted")
	}
	if p, err := LoadProfile(strings.NewReader(`{"name": "Overlapping HPF", "loopDistribution": true}`)); err != nil || !p.LoopDistribution || p.PipelineBlock != 8 {
		t.Errorf("profile %+v %v", p, err)
	}
	if _, err := LoadProfile(strings.NewReader(`{"nmae": "typo"}`)); err == nil {
		t.Errorf("unknown field accepted")
	}
}

func TestBeyondCompilerCalls(t *testing.T) {
	src := `      PROGRAM DRIVER
      PARAMETER (N = 256)
      REAL X(N)
      DO 10 K = 1, 50
         CALL SWEEP(X, N)
   10 CONTINUE
      END
      SUBROUTINE SWEEP(X, N)
      INTEGER N
      REAL X(N), Y(N)
      DECOMPOSITION D(N)
      ALIGN X, Y WITH D
      DISTRIBUTE D(BLOCK)
      DO 20 I = 2, N
         Y(I) = X(I-1)
   20 CONTINUE
      END
`
	fs := findings(t, "driver.f", src, "")
	found := false
	for _, f := range fs {
		if f.Code == "beyond-compiler" && strings.Contains(f.Message, "SWEEP communicates") && strings.Contains(f.Message, "50 times") {
			found = true
		}
	}
	if !found {
		t.Errorf("no beyond-compiler finding: %v", fs)
	}
	// A profile that transforms across procedures does not report it.
	f := parser.Parse("driver.f", []byte(src), nil)
	p := RiceFortranD()
	p.Interprocedural = true
	if c := codes(Capabilities(f, p, partition.Options{Procs: 16})); c["beyond-compiler"] != 0 {
		t.Errorf("interprocedural profile: %v", c)
	}
}

// TestReviewRegressions: inputs a second reading found that crashed, hung
// or gave wrong numbers.
func TestReviewRegressions(t *testing.T) {
	zero := `      PROGRAM Z
      PARAMETER (N = 0)
      REAL A(N)
      DECOMPOSITION D(N)
      ALIGN A WITH D
      DISTRIBUTE D(BLOCK)
      DO 10 I = 1, 5
         A(I) = A(I-1) + 1.0
   10 CONTINUE
      END
`
	findings(t, "zero.f", zero, "") // an empty extent must not divide by zero
	huge := `      PROGRAM Z
      PARAMETER (N = 100000000)
      REAL A(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A WITH D
      DISTRIBUTE D(BLOCK,:)
      DO 10 I = 2, N
         DO 10 J = 2, N
            A(I,J) = A(I-1,J) + A(I,J-1)
   10 CONTINUE
      END
`
	if c := codes(findings(t, "huge.f", huge, "")); c["pipeline-granularity"] != 1 {
		t.Errorf("huge pipeline: %v", c) // and it must finish
	}
}

// TestProfileByDialect: without a profile, each unit's findings name the
// built-in profile of its dialect; a profile given explicitly wins.
func TestProfileByDialect(t *testing.T) {
	for dialect, name := range map[string]string{"hpf": "HPF", "cmf": "CM Fortran", "fortran-d": "Rice Fortran 77D", "": "Rice Fortran 77D"} {
		if p := ProfileFor(dialect); p.Name != name {
			t.Errorf("ProfileFor(%q) = %s, want %s", dialect, p.Name, name)
		}
	}
	if p := CMFortran(); p.PipelineBlock != 0 || !p.Collectives || p.LoopDistribution || p.Interprocedural {
		t.Errorf("CM Fortran profile %+v", p)
	}
	dgefa, err := os.ReadFile("../examples/dgefa.f")
	if err != nil {
		t.Fatal(err)
	}
	hpf := `program lu
  integer, parameter :: n = 900
  double precision :: a(n,n)
  integer :: i, j, k
!hpf$ processors procs(16)
!hpf$ distribute a(*,cyclic) onto procs
  call random_number(a)
  do k = 1, n - 1
    a(k+1:n,k) = a(k+1:n,k) / a(k,k)
    do j = k + 1, n
      do i = k + 1, n
        a(i,j) = a(i,j) - a(i,k) * a(k,j)
      end do
    end do
  end do
end program lu
`
	cmf := `      PROGRAM SWEEP
      REAL A(1024,1024)
      A = 1.0
      DO 10 J = 1, 1024
      DO 10 I = 2, 1024
         A(I,J) = A(I-1,J) * 0.5 + A(I,J)
   10 CONTINUE
      END
`
	for _, c := range []struct {
		file, src, code string
		prof            *Profile
		want            string
	}{
		{"dgefa.f", string(dgefa), "non-overlapped-broadcast", nil, "the Rice Fortran 77D compiler profile does not move a broadcast"},
		{"lu.hpf", hpf, "non-overlapped-broadcast", nil, "the HPF compiler profile does not move a broadcast"},
		{"lu.hpf", hpf, "non-overlapped-broadcast", RiceFortranD(), "the Rice Fortran 77D compiler profile does not move a broadcast"},
		{"sweep.fcm", cmf, "pipeline-granularity", nil, "the CM Fortran compiler profile does not pipeline loops in blocks, so this loop nest passes one element at a time (B = 1)"},
		{"sweep.fcm", cmf, "pipeline-granularity", HPFCompiler(), "the HPF compiler profile pipelines this loop nest across the distributed dimension of A in blocks of B = 8"},
	} {
		f := parser.Parse(c.file, []byte(c.src), nil)
		var got []string
		found := false
		for _, x := range Capabilities(f, c.prof, partition.Options{Procs: 16}) {
			got = append(got, x.Code+": "+x.Message)
			found = found || x.Code == c.code && strings.Contains(x.Message, c.want)
		}
		if !found {
			t.Errorf("%s (profile %v): no %s saying %q in\n%s", c.file, c.prof, c.code, c.want, strings.Join(got, "\n"))
		}
	}
}

// TestMessagesInWords: no equation numbers or paper notation without
// words in the messages; times as decimals with units, counts with SI
// prefixes.
func TestMessagesInWords(t *testing.T) {
	for _, file := range []string{"dgefa.f", "tridvpk.f", "redblack.f", "example.fcm"} {
		src, err := os.ReadFile("../examples/" + file)
		if err != nil {
			t.Fatal(err)
		}
		f := parser.Parse(file, src, nil)
		for _, x := range Capabilities(f, nil, partition.Options{Procs: 16}) {
			for _, bad := range []string{"equation", "Eq.", "iSR", "vSR", "seed 0", "e+0", "e-0", "/"} {
				if strings.Contains(x.Message, bad) {
					t.Errorf("%s: %s message contains %q: %s", file, x.Code, bad, x.Message)
				}
			}
		}
	}
	for v, want := range map[float64]string{0: "0 ns", 2.5e-11: "25 ps", 3.2e-7: "320 ns", 0.0276: "27.6 ms", 12.5: "12.5 s", 599147: "599000 s", math.Inf(1): "+Inf s", 2e20: "2e+20 s"} {
		if got := HumanSeconds(v); got != want {
			t.Errorf("HumanSeconds(%g) = %q, want %q", v, got, want)
		}
	}
	for v, want := range map[float64]string{999: "999", 9999: "9999", 12345: "12.3 k", 1.05e6: "1.05 M", 4.29e9: "4.29 G", 2.5e15: "2.5 P", 7e18: "7 E"} {
		if got := HumanCount(v); got != want {
			t.Errorf("HumanCount(%g) = %q, want %q", v, got, want)
		}
	}
}

// TestPolySecondsAndCounts: a time that still depends on a symbol prints
// each coefficient as a decimal with a unit, never rational seconds; a
// symbolic count of several terms is parenthesised, a large one gets an
// SI prefix, a small one stays exact.
func TestPolySecondsAndCounts(t *testing.T) {
	p := complexity.Frac(685269937, 10000000000000).Mul(complexity.Var("NLOC")).Add(complexity.Frac(21, 10000000))
	if got := PolySeconds(p); got != "68.5 µs·NLOC + 2.1 µs" {
		t.Errorf("PolySeconds = %q", got)
	}
	q := complexity.Var("N").Mul(complexity.Var("N")).Sub(complexity.Frac(1, 1000000000))
	if got := PolySeconds(q); got != "1 s·N^2 - 1 ns" {
		t.Errorf("PolySeconds = %q", got)
	}
	cases := []struct {
		p    complexity.Poly
		want string
	}{
		{complexity.Var("NPROCS").Sub(complexity.Int(1)), "(NPROCS - 1)"},
		{complexity.Var("N"), "N"},
		{complexity.Frac(1, 2), "1/2"},
		{complexity.Int(999), "999"},
		{complexity.Int(1048576), "1.05 M"},
	}
	for _, c := range cases {
		if got := CountText(c.p); got != c.want {
			t.Errorf("CountText(%s) = %q, want %q", c.p.String(), got, c.want)
		}
	}
}

// A unit without directives takes the profile of the file's first unit
// with some: CALLER, plain Fortran, calls the HPF routine H in a loop and
// is told about the HPF compiler profile, after any number of plain units.
func TestUnitProfileFromFile(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "subroutine s%d(a)\n  real a(10)\n  a(1) = 0\nend\n", i)
	}
	b.WriteString(`subroutine caller(a)
  real a(100,100)
  integer k
  do k = 1, 10
    call h(a)
  end do
end
subroutine h(a)
  real a(100,100)
  integer i, j
!hpf$ distribute a(*,block)
  do j = 2, 100
    do i = 1, 100
      a(i,j) = a(i,j-1)
    end do
  end do
end
`)
	f := parser.Parse("many.f90", []byte(b.String()), nil)
	found := false
	for _, x := range Capabilities(f, nil, partition.Options{Procs: 16}) {
		if x.Code == "beyond-compiler" {
			found = true
			if !strings.Contains(x.Message, "the HPF compiler profile does not transform across procedures") {
				t.Errorf("message %q", x.Message)
			}
		}
	}
	if !found {
		t.Error("no beyond-compiler finding for CALLER")
	}
}

// BenchmarkCapabilitiesManyUnits: 2,000 plain units before the one with
// directives; the file's dialect is found once, not once per unit (20,000
// such units took 26 s to check when it was).
func BenchmarkCapabilitiesManyUnits(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&sb, "subroutine s%d(a)\n  real a(10)\n  a(1) = 0\nend\n", i)
	}
	sb.WriteString("subroutine h(a)\n  real a(100,100)\n  integer i, j\n!hpf$ distribute a(*,block)\n  do j = 2, 100\n    do i = 1, 100\n      a(i,j) = a(i,j-1)\n    end do\n  end do\nend\n")
	f := parser.Parse("many.f90", []byte(sb.String()), nil)
	for i := 0; i < b.N; i++ {
		Capabilities(f, nil, partition.Options{Procs: 16})
	}
}

// TestBroadcastOfParallelUpdate: non-overlapped-broadcast is the wait
// for values one processor computes alone in the iteration (seed 000's
// DGEFA: the owner of column K scales it while the others wait). With
// rows distributed, elimination broadcasts the pivot row, whose values
// the previous step's update computed on every processor: no serial
// phase, no finding. Once the owner of row K scales it first, the
// others wait for that work again, and the finding returns.
func TestBroadcastOfParallelUpdate(t *testing.T) {
	prog := func(scale string) string {
		return `      PROGRAM GE
      PARAMETER (N = 512)
      DOUBLE PRECISION A(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A WITH D
      DISTRIBUTE D(CYCLIC,:)
      DO 30 K = 1, N-1
` + scale + `         DO 20 I = K+1, N
            A(I,K) = A(I,K) / A(K,K)
            DO 10 J = K+1, N
               A(I,J) = A(I,J) - A(I,K)*A(K,J)
   10       CONTINUE
   20    CONTINUE
   30 CONTINUE
      END
`
	}
	for _, c := range []struct {
		name, scale string
		want        int
	}{
		{"rows.f", "", 0},
		{"rows-copied.f", "         DO 5 J = K+1, N\n            A(K,J) = A(N,J)\n    5    CONTINUE\n", 0},
		{"rows-scaled.f", "         DO 5 J = K+1, N\n            A(K,J) = A(K,J) / A(K,K)\n    5    CONTINUE\n", 1},
	} {
		fs := findings(t, c.name, prog(c.scale), "")
		if got := codes(fs)["non-overlapped-broadcast"]; got != c.want {
			t.Errorf("%s: %d non-overlapped-broadcast, want %d: %v", c.name, got, c.want, fs)
		}
	}
}

// TestNoSplitAdviceForPipeline: a sweep updated in place under
// D(:,BLOCK) is pipelined, and its other neighbour's shift (the old
// values U(I,J+1)) already arrives behind each processor's interior
// work: no loop-distribution advice. The same stencil written into
// another array is fully parallel, and splitting its boundary iterations
// hides the shifts: the advice stays.
func TestNoSplitAdviceForPipeline(t *testing.T) {
	prog := func(lhs string) string {
		return `      PROGRAM SOR
      PARAMETER (N = 1024)
      REAL U(N,N), V(N,N)
      DECOMPOSITION D(N,N)
      ALIGN U, V WITH D
      DISTRIBUTE D(:,BLOCK)
      DO 20 J = 2, N-1
         DO 10 I = 2, N-1
            ` + lhs + `(I,J) = 0.25*(U(I-1,J) + U(I+1,J) + U(I,J-1) + U(I,J+1))
   10    CONTINUE
   20 CONTINUE
      PRINT *, U(2,2), V(2,2)
      END
`
	}
	for _, c := range []struct {
		name, lhs string
		advice    int
	}{{"inplace.f", "U", 0}, {"jacobi.f", "V", 1}} {
		fs := findings(t, c.name, prog(c.lhs), "")
		if got := codes(fs)["loop-distribution"]; got != c.advice {
			t.Errorf("%s: %d loop-distribution, want %d: %v", c.name, got, c.advice, fs)
		}
		if c.lhs == "U" && codes(fs)["pipeline-granularity"] != 1 {
			t.Errorf("%s: not pipelined: %v", c.name, fs)
		}
	}
}

// TestProfilePipelineBlock: the estimator prices a pipelined sweep with
// the profile's block size. A profile that does not pipeline in blocks
// (pipelineBlock 0, CM Fortran's) passes one element at a time: 1022
// messages per sweep rather than the 128 of blocks of 8 (the estimator's
// own default, Rice Fortran 77D's profile), and the findings quote the
// communication of that pricing.
func TestProfilePipelineBlock(t *testing.T) {
	src := `      PROGRAM SOR
      PARAMETER (N = 1024)
      REAL U(N,N)
      DECOMPOSITION D(N,N)
      ALIGN U WITH D
      DISTRIBUTE D(:,BLOCK)
      DO 20 J = 2, N-1
         DO 10 I = 2, N-1
            U(I,J) = 0.25*(U(I-1,J) + U(I+1,J) + U(I,J-1) + U(I,J+1))
   10    CONTINUE
   20 CONTINUE
      PRINT *, U(2,2)
      END
`
	f := parser.Parse("sor.f", []byte(src), nil)
	u := f.Units[0]
	var loop *parser.DoConstruct
	for _, s := range u.Body {
		if c, ok := s.(*parser.DoConstruct); ok {
			loop = c
		}
	}
	for _, c := range []struct {
		block, msgs int
	}{{8, 128}, {0, 1022}} {
		prof := &Profile{Name: "test", MessageVectorization: true, PipelineBlock: c.block, Collectives: true}
		opt := partition.Options{Procs: 16, PipelineBlock: estimatorBlock(prof)}
		e := partition.EstimateLoop(f, u, loop, partition.FromUnit(u, 16, f.Dialect), opt)
		n := ""
		for _, m := range e.Messages {
			if m.Pipeline {
				n = m.Count.String()
			}
		}
		if n != fmt.Sprint(c.msgs) {
			t.Errorf("pipelineBlock %d: %s pipelined messages, want %d", c.block, n, c.msgs)
		}
		comm := "communication it needs (" + HumanSeconds(secs(e.Comm)) + ")"
		found := false
		for _, fd := range Capabilities(f, prof, partition.Options{Procs: 16}) {
			found = found || fd.Code == "fine-grain-loop" && strings.Contains(fd.Message, comm)
		}
		if !found {
			t.Errorf("pipelineBlock %d: no fine-grain-loop quoting %q", c.block, comm)
		}
	}
}

// TestEstimatesLoops: only a unit with a template or distributed arrays
// has its loops estimated (and so needs the program's other files): the
// Fortran D examples do (on one processor too: a template), an MPI node
// program and a plain Fortran 77 routine do not.
func TestEstimatesLoops(t *testing.T) {
	read := func(name string) *parser.File {
		b, err := os.ReadFile("../examples/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return parser.Parse(name, b, nil)
	}
	plain := parser.Parse("p.f", []byte("      SUBROUTINE S(A, N)\n      REAL A(N)\n      DO 10 I = 1, N\n         A(I) = 0.0\n   10 CONTINUE\n      END\n"), nil)
	for _, c := range []struct {
		f     *parser.File
		procs int
		want  bool
	}{
		{read("redblack.f"), 16, true},
		{read("dgefa.f"), 16, true},
		{read("redblack.f"), 1, true}, // its DECOMPOSITION: a template
		{plain, 16, false},
		{read("../hints/testdata/programs/mpi-jacobi.f90"), 16, false},
	} {
		if got := EstimatesLoops(c.f, c.procs); got != c.want {
			t.Errorf("%s at P = %d: %v, want %v", c.f.Name, c.procs, got, c.want)
		}
	}
}
