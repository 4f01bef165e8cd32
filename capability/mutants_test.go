package capability

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
	"github.com/pfls/pfls/partition"
)

// Tests written against the mutants gremlins found alive or uncovered
// (issue 21, scripts/mutation.sh): each pins a behaviour the other tests
// left free.

// TestAlignFixEachDialect: the ALIGN a missing-align finding offers is
// written in the unit's dialect and the file's form, and goes on the line
// after the target's declaration and the declaration of what it names:
// Fortran D aligns with the source's decomposition, HPF with the source's
// template when it has one (else with the source itself), CM Fortran
// with the source; free form starts the directive with "!"; the case is
// that of the unit's directives (else of the target's declaration). The
// target's own ALIGN or DISTRIBUTE is removed, so that the finding goes.
func TestAlignFixEachDialect(t *testing.T) {
	for _, c := range []struct {
		name, src, decl, text string
		form                  parser.Form
	}{
		{"fd.f", `      PROGRAM FD
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N)
      DECOMPOSITION D(N,N), E(N,N)
      ALIGN A WITH D
      ALIGN B WITH E
      DISTRIBUTE D(:,BLOCK)
      DISTRIBUTE E(BLOCK,:)
      DO 10 J = 1, N
         DO 10 I = 1, N
            B(I,J) = A(I,J) * 2.0
   10 CONTINUE
      END
`, "      DECOMPOSITION D(N,N), E(N,N)\n", "      ALIGN B WITH D\n", parser.Fixed},
		{"ht.f", `      PROGRAM HT
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N)
!HPF$ TEMPLATE T(N,N)
!HPF$ ALIGN A(I,J) WITH T(I,J)
!HPF$ DISTRIBUTE T(*,BLOCK)
!HPF$ DISTRIBUTE B(BLOCK,*)
      DO 10 J = 1, N
         DO 10 I = 1, N
            B(I,J) = A(I,J) * 2.0
   10 CONTINUE
      END
`, "!HPF$ TEMPLATE T(N,N)\n", "!HPF$ ALIGN B(I,J) WITH T(I,J)\n", parser.Fixed},
		{"h.f90", `program h
  integer, parameter :: n = 512
  real :: a(n,n), b(n,n)
  integer :: i, j
!hpf$ distribute a(*,block)
!hpf$ distribute b(block,*)
  do j = 1, n
    do i = 1, n
      b(i,j) = a(i,j) * 2.0
    end do
  end do
end program h
`, "  real :: a(n,n), b(n,n)\n", "!hpf$ align b(i,j) with a(i,j)\n", parser.Free},
		{"c.fcm", `program c
  integer, parameter :: n = 512
  integer :: a(n+1,n+1), b(n,n)
  integer :: k, i, j
  a = 0
  do k = 1, 10
    forall (i = 2:n+1, j = 2:n+1) a(j,i) = k*(i+j)
    forall (i = 1:n/2, j = 1:n/2) b(j,i) = a(j,i) + a(j+1,i+1)
  end do
end program c
`, "  integer :: a(n+1,n+1), b(n,n)\n", "!cmf$ align b(i,j) with a(i,j)\n", parser.Free},
	} {
		cfg := &parser.Config{Form: c.form}
		f := parser.Parse(c.name, []byte(c.src), cfg)
		var fix *Fix
		for _, x := range Capabilities(f, nil, partition.Options{Procs: 16}) {
			if x.Code == "missing-align" {
				fix = x.Fix
			}
		}
		if fix == nil {
			t.Errorf("%s: no missing-align fix", c.name)
			continue
		}
		at := strings.Index(c.src, c.decl) + len(c.decl)
		title := "Insert " + strings.TrimSpace(strings.TrimPrefix(c.text, "!"))
		if fix.Offset != at || fix.Text != c.text || !strings.HasPrefix(fix.Title, title) {
			t.Errorf("%s: fix %+v, want %q at %d titled %q", c.name, *fix, c.text, at, title)
		}
		fixed := []byte(c.src)
		for i := len(fix.Edits) - 1; i >= 0; i-- {
			e := fix.Edits[i]
			fixed = append(fixed[:e.Start:e.Start], append([]byte(e.Text), fixed[e.End:]...)...)
		}
		g := parser.Parse(c.name, fixed, cfg)
		if errs := g.Errors(); len(errs) > 0 {
			t.Errorf("%s fixed: %v", c.name, errs)
		}
		if n := codes(Capabilities(g, nil, partition.Options{Procs: 16}))["missing-align"]; n != 0 {
			t.Errorf("%s: missing-align still reported after the fix", c.name)
		}
	}
}

// TestOwnerComputesForall: a FORALL over the distributed dimension is
// divided among the owners (no serial phase before the broadcast); one
// over the other dimension, with the distributed subscript fixed at K,
// runs on the owner of row K alone while the others wait. Both as a
// FORALL statement and as a FORALL construct.
func TestOwnerComputesForall(t *testing.T) {
	ge := func(scale string) string {
		return `      PROGRAM GE
      PARAMETER (N = 512)
      DOUBLE PRECISION A(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A WITH D
      DISTRIBUTE D(CYCLIC,:)
      DO 30 K = 1, N-1
` + scale + `         DO 20 I = K+1, N
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
		{"row-stmt.f", "         FORALL (J = K+1:N) A(K,J) = A(K,J) / A(K,K)\n", 1},
		{"col-stmt.f", "         FORALL (I = K+1:N) A(I,K) = A(I,K) / A(K,K)\n", 0},
		{"row-construct.f", "         FORALL (J = K+1:N)\n            A(K,J) = A(K,J) / A(K,K)\n         END FORALL\n", 1},
		{"col-construct.f", "         FORALL (I = K+1:N)\n            A(I,K) = A(I,K) / A(K,K)\n         END FORALL\n", 0},
	} {
		fs := findings(t, c.name, ge(c.scale), "")
		if got := codes(fs)["non-overlapped-broadcast"]; got != c.want {
			t.Errorf("%s: %d non-overlapped-broadcast, want %d: %v", c.name, got, c.want, fs)
		}
	}
}

// TestUnusedArraySizes: an unused array's memory per processor, with
// binary prefixes from 1 KiB on (REAL is 4 bytes): 10 elements are 40
// bytes, 255 are 1020, 256 are 1 KiB, 2^18 are 1 MiB, 2^28 are 1 GiB; a
// distributed one divides by its processors (1024 × 4 / 16 = 256).
func TestUnusedArraySizes(t *testing.T) {
	src := `      PROGRAM U
      REAL W(10), V(255), X(256), Y(262144)
      REAL Z(16384,16384), U(1024), S(4)
      DECOMPOSITION D(1024)
      ALIGN U WITH D
      DISTRIBUTE D(BLOCK)
      S(1) = 1.0
      END
`
	want := map[string]string{"W": "40 bytes", "V": "1020 bytes", "X": "1 KiB", "Y": "1 MiB", "Z": "1 GiB", "U": "256 bytes"}
	got := map[string]string{}
	for _, x := range findings(t, "u.f", src, "") {
		if x.Code != "unused-array" {
			t.Errorf("unexpected %s: %s", x.Code, x.Message)
			continue
		}
		var name, size string
		if _, err := fmt.Sscanf(x.Message, "array %s is never", &name); err != nil {
			t.Fatalf("message %q", x.Message)
		}
		size = strings.TrimSuffix(x.Message[strings.Index(x.Message, "it takes ")+len("it takes "):], " per processor")
		got[name] = size
		if at := strings.Index(src, name+"("); x.Start != at || x.End != at+len(name) {
			t.Errorf("%s: range %d-%d, want %d-%d", name, x.Start, x.End, at, at+len(name))
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("sizes %v, want %v", got, want)
	}
}

// TestHumanUnitsAtBoundaries: each unit starts at its own boundary
// (1 ps, 1 ns, 1 µs, 1 ms, 1 s, then whole seconds from 1000 s up to
// 10¹⁵ s), and each SI prefix of a count at its power of ten.
func TestHumanUnitsAtBoundaries(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{1e-12, "1 ps"}, {9.99e-10, "999 ps"}, {1e-9, "1 ns"}, {1e-6, "1 µs"}, {1e-3, "1 ms"},
		{1, "1 s"}, {999, "999 s"}, {1000, "1000 s"}, {1234.5, "1230 s"}, {-0.0276, "-27.6 ms"},
		{9.99e14, "999000000000000 s"}, {1e15, "1e+15 s"}, {math.NaN(), "NaN s"}, {math.Inf(-1), "-Inf s"},
	} {
		if got := HumanSeconds(c.v); got != c.want {
			t.Errorf("HumanSeconds(%g) = %q, want %q", c.v, got, c.want)
		}
	}
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0.5, "0.5"}, {1e4, "10 k"}, {-12345, "-12.3 k"}, {1e6, "1 M"}, {1e9, "1 G"}, {1e12, "1 T"},
		{1e15, "1 P"}, {1e18, "1 E"}, {1e21, "1e+21"},
	} {
		if got := HumanCount(c.v); got != c.want {
			t.Errorf("HumanCount(%g) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestFindingOrderAndRange: findings come in the order of the file, a
// loop's findings on its DO line in the order the loop's analysis finds
// them (the wait for a broadcast, then the grain); a finding on a
// statement spans the line from its first non-blank character (after
// spaces or tabs) to its end. N = 16 on 16 processors leaves one column
// per processor: a broadcast of the pivot column each step, and far
// less work than communication.
func TestFindingOrderAndRange(t *testing.T) {
	fixed := `      PROGRAM GE
      PARAMETER (N = 16)
      DOUBLE PRECISION A(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A WITH D
      DISTRIBUTE D(:,CYCLIC)
      DO 30 K = 1, N-1
         DO 20 I = K+1, N
            A(I,K) = A(I,K) / A(K,K)
            DO 10 J = K+1, N
               A(I,J) = A(I,J) - A(I,K)*A(K,J)
   10       CONTINUE
   20    CONTINUE
   30 CONTINUE
      END
`
	free := "program ge\n\tinteger, parameter :: n = 16\n\tdouble precision :: a(n,n)\n\tinteger :: i, j, k\n!hpf$ distribute a(*,cyclic)\n" +
		"\t \tdo k = 1, n-1\n\t\tdo i = k+1, n\n\t\t\ta(i,k) = a(i,k) / a(k,k)\n\t\t\tdo j = k+1, n\n\t\t\t\ta(i,j) = a(i,j) - a(i,k)*a(k,j)\n" +
		"\t\t\tend do\n\t\tend do\n\tend do\nend program ge\n"
	for _, c := range []struct{ name, src, line string }{
		{"ge.f", fixed, "DO 30 K = 1, N-1"},
		{"ge.f90", free, "do k = 1, n-1"},
	} {
		f := parser.Parse(c.name, []byte(c.src), nil)
		var got []string
		for _, x := range Capabilities(f, nil, partition.Options{Procs: 16}) {
			got = append(got, x.Code)
			if at := strings.Index(c.src, c.line); x.Start != at || x.End != at+len(c.line) {
				t.Errorf("%s: %s spans %q, want %q", c.name, x.Code, c.src[x.Start:x.End], c.line)
			}
		}
		if strings.Join(got, " ") != "non-overlapped-broadcast fine-grain-loop" {
			t.Errorf("%s: findings %v", c.name, got)
		}
	}
	// Unused arrays are found in the order of their names; the findings
	// come in the order of the file.
	src := "      PROGRAM U\n      REAL W(10), V(20), X(30)\n      END\n"
	var names []string
	for _, x := range findings(t, "u.f", src, "") {
		names = append(names, src[x.Start:x.End])
	}
	if strings.Join(names, " ") != "W V X" {
		t.Errorf("unused arrays in the order %v, want W V X", names)
	}
}

// TestLoadProfileBlockZero: pipelineBlock 0 (no pipelining in blocks, CM
// Fortran's) is a valid profile; only a negative block is refused.
func TestLoadProfileBlockZero(t *testing.T) {
	p, err := LoadProfile(strings.NewReader(`{"name": "Element pipeline", "pipelineBlock": 0}`))
	if err != nil || p.PipelineBlock != 0 || p.Name != "Element pipeline" {
		t.Errorf("profile %+v, %v", p, err)
	}
}

// TestCountTextThreshold: a count takes an SI prefix from 10⁴ on, as
// HumanCount's own threshold, and stays exact below.
func TestCountTextThreshold(t *testing.T) {
	for v, want := range map[int64]string{9999: "9999", 10000: "10 k", -10000: "-10 k"} {
		if got := CountText(complexity.Int(v)); got != want {
			t.Errorf("CountText(%d) = %q, want %q", v, got, want)
		}
	}
}

// TestShareOfTheLoop: a finding's share of its loop is its time over the
// loop's, as the numbers it prints say (each has three significant
// digits, so the quotient of the printed numbers is within 1.5 points).
func TestShareOfTheLoop(t *testing.T) {
	src, err := os.ReadFile("../examples/dgefa.f")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`Estimated waiting: ([0-9.]+ [µmn]?s), ([0-9]+)% of the loop's ([0-9.]+ [µmn]?s)$`)
	n := 0
	for _, x := range findings(t, "dgefa.f", string(src), "") {
		if x.Code != "non-overlapped-broadcast" {
			continue
		}
		n++
		m := re.FindStringSubmatch(x.Message)
		if m == nil {
			t.Fatalf("message %q", x.Message)
		}
		wait, total := parseSeconds(t, m[1]), parseSeconds(t, m[3])
		pct, _ := strconv.ParseFloat(m[2], 64)
		if want := 100 * wait / total; math.Abs(pct-want) > 1.5 || pct <= 0 || pct > 100 {
			t.Errorf("%s%% of the loop, but %s of %s is %.1f%%", m[2], m[1], m[3], want)
		}
	}
	if n == 0 {
		t.Fatal("no non-overlapped-broadcast in dgefa.f")
	}
}

func parseSeconds(t *testing.T, s string) float64 {
	t.Helper()
	num, unit, _ := strings.Cut(s, " ")
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		t.Fatalf("time %q", s)
	}
	return v * map[string]float64{"s": 1, "ms": 1e-3, "µs": 1e-6, "ns": 1e-9}[unit]
}

// TestCallWithoutCommunication: a procedure whose arrays are distributed
// but whose loops are all local sends nothing per call, so calling it in
// a loop is no finding; one that shifts is.
func TestCallWithoutCommunication(t *testing.T) {
	prog := func(rhs string) string {
		return `      PROGRAM DRIVER
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
         Y(I) = ` + rhs + `
   20 CONTINUE
      END
`
	}
	for rhs, want := range map[string]int{"X(I) * 2.0": 0, "X(I-1)": 1} {
		if got := codes(findings(t, "driver.f", prog(rhs), ""))["beyond-compiler"]; got != want {
			t.Errorf("Y(I) = %s: %d beyond-compiler, want %d", rhs, got, want)
		}
	}
}

// TestAlignSavingInWords: missing-align says what aligning saves over
// the unit's loops, as before → after with their difference (each
// printed to three significant digits), and the saving is a real one.
func TestAlignSavingInWords(t *testing.T) {
	src, err := os.ReadFile("../examples/example.fcm")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`; aligning it saves about ([0-9.]+ [µmn]?s) \(([0-9.]+ [µmn]?s) → ([0-9.]+ [µmn]?s)\)$`)
	n := 0
	for _, x := range findings(t, "example.fcm", string(src), "cmf") {
		if x.Code != "missing-align" {
			continue
		}
		n++
		m := re.FindStringSubmatch(x.Message)
		if m == nil {
			t.Fatalf("message %q", x.Message)
		}
		saves, before, after := parseSeconds(t, m[1]), parseSeconds(t, m[2]), parseSeconds(t, m[3])
		if !(after < before) || math.Abs(saves-(before-after)) > 0.01*before {
			t.Errorf("saves %s, from %s to %s", m[1], m[2], m[3])
		}
	}
	if n != 1 {
		t.Fatalf("%d missing-align findings in example.fcm", n)
	}
}

// TestCallsCounted: a CALL in a loop is made once per iteration, with a
// step and through nested loops: 25 × 3 calls, and the communication of
// all of them is the count times that of one.
func TestCallsCounted(t *testing.T) {
	src := `      PROGRAM DRIVER
      PARAMETER (N = 256)
      REAL X(N)
      DO 10 K = 1, 50, 2
         DO 10 L = 3, 1, -1
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
	re := regexp.MustCompile(`communicates \(([0-9.]+ [µmn]?s) per call\) and is called inside a loop, ([0-9]+) times: ([0-9.]+ [µmn]?s) of communication`)
	n := 0
	for _, x := range findings(t, "driver.f", src, "") {
		if x.Code != "beyond-compiler" {
			continue
		}
		n++
		m := re.FindStringSubmatch(x.Message)
		if m == nil {
			t.Fatalf("message %q", x.Message)
		}
		if m[2] != "75" {
			t.Errorf("%s calls, want 25 × 3 = 75", m[2])
		}
		one, all := parseSeconds(t, m[1]), parseSeconds(t, m[3])
		if math.Abs(all-75*one) > 0.01*all {
			t.Errorf("75 calls of %s each: %s", m[1], m[3])
		}
	}
	if n != 1 {
		t.Fatalf("%d beyond-compiler findings", n)
	}
}

// TestAlignFixAfterContinuation: the ALIGN goes after the whole
// declaration statement, not between its line and its continuation.
func TestAlignFixAfterContinuation(t *testing.T) {
	src := `      PROGRAM EXAMPLE
      PARAMETER (N=1000)
      INTEGER B(N,N),
     &        A(N+1,N+1), ASUM
      A = 0
      DO K = 1, 10
         FORALL (I = 2:N+1, J = 2:N+1) A(J,I) = K*(I+J)
         ASUM = SUM(A)
         FORALL (I = 1:N/2, J = 1:N/2) B(J,I) = A(J,I) + A(J+1,I+1)
      END DO
      END
`
	var fix *Fix
	for _, x := range findings(t, "e.fcm", src, "cmf") {
		if x.Code == "missing-align" {
			fix = x.Fix
		}
	}
	want := strings.Index(src, "ASUM\n") + len("ASUM\n")
	if fix == nil || fix.Offset != want {
		t.Fatalf("fix %+v, want it at offset %d (after the continuation line)", fix, want)
	}
	g := parser.Parse("e.fcm", []byte(src[:fix.Offset]+fix.Text+src[fix.Offset:]), nil)
	if errs := g.Errors(); len(errs) > 0 {
		t.Errorf("fixed file: %v", errs)
	}
	if n := codes(Capabilities(g, nil, partition.Options{Procs: 16}))["missing-align"]; n != 0 {
		t.Errorf("missing-align still reported after the fix")
	}
}

// TestBestBlockAtTheEnd: with fixed costs only, every larger block saves
// start-ups, so the best block is the whole of N2, searched to its last
// value also where the exhaustive search stops (4096) and past it, where
// the geometric steps (4096, 4177, ..., 4987, 5086) miss 5000: T_pipe(N2) =
// (P−2)(stage + comm) + stage + comm + stage = 2·3 + 1 + 2 + 1 = 10.
func TestBestBlockAtTheEnd(t *testing.T) {
	for _, n2 := range []float64{100, 4096, 5000} {
		pm := PipelineModel{P: 4, N1: 64, N2: n2, CfStage: 1, CfComm: 2}
		best, tBest := pm.BestBlock(func(float64) PipelineModel { return pm })
		if best != int(n2) || tBest != 10 {
			t.Errorf("N2 = %g: best block %d (%g), want %g (10)", n2, best, tBest, n2)
		}
	}
}

// TestBestBlockPastTheExhaustiveRange: with N2 = 10⁸ the smooth optimum
// (equation 2) lies near B = 20000, beyond the exhaustive search; the
// geometric steps of 2% land within 2% of it, where T_pipe is all but
// flat.
func TestBestBlockPastTheExhaustiveRange(t *testing.T) {
	// den = (P−1)(ClStage·N1/P + ClComm) = 7 × 9e-9 = 6.3e-8;
	// B_opt = √(N2 · CfStage / den) = √(1e8 × 2.52e-7 / 6.3e-8) = 20000.
	pm := PipelineModel{P: 8, N1: 64, N2: 1e8, ClStage: 1e-9, ClComm: 1e-9, CfStage: 2.52e-7}
	bopt, ok := pm.BOpt()
	if !ok || math.Abs(bopt-20000) > 1e-6 {
		t.Fatalf("B_opt = %g, %v; want 20000", bopt, ok)
	}
	best, tBest := pm.BestBlock(func(float64) PipelineModel { return pm })
	if math.Abs(float64(best)-bopt) > 0.02*bopt || tBest > pm.TPipe(bopt)*(1+1e-3) {
		t.Errorf("best block %d (%g s), the smooth optimum %g (%g s)", best, tBest, bopt, pm.TPipe(bopt))
	}
}

// TestBestBlockTiesAndNoOptimum: among blocks of equal time the search
// keeps the smallest; a denominator of exactly 0 has no optimum.
func TestBestBlockTiesAndNoOptimum(t *testing.T) {
	flat := PipelineModel{P: 4, N1: 64, N2: 100}
	if best, tBest := flat.BestBlock(func(float64) PipelineModel { return flat }); best != 1 || tBest != 0 {
		t.Errorf("no costs at all: best block %d (%g), want 1 (0)", best, tBest)
	}
	// den = (2−1)(0 + 1) − 1 − 0 = 0.
	if b, ok := (PipelineModel{P: 2, N1: 64, N2: 100, ClComm: 1, ClRovhd: 1, CfStage: 1}).BOpt(); ok {
		t.Errorf("a zero denominator gave B_opt = %g", b)
	}
}

// TestPipelineEquations: equation (1) at B = 10 by hand, and equation
// (2) by hand with send and receive overheads per unit, where it is the
// stationary point of equation (1).
func TestPipelineEquations(t *testing.T) {
	pm := PipelineModel{P: 4, N1: 64, N2: 100, ClStage: 1e-3, CfStage: 0.5, ClComm: 0.1, CfComm: 2,
		ClSovhd: 0.01, CfSovhd: 0.2, ClRovhd: 0.02, CfRovhd: 0.1}
	// stage = 1e-3·10·64/4 + 0.5 = 0.66, comm = 0.1·10 + 2 = 3,
	// send = 0.01·10 + 0.2 = 0.3, receive = 0.02·10 + 0.1 = 0.3:
	// (4−2)(0.66 + 3) + 0.66 + (100/10 − 1)(0.3 + 0.3 + 0.66) + 3 + 0.66.
	if got, want := pm.TPipe(10), 2*(0.66+3)+0.66+9*(0.3+0.3+0.66)+3+0.66; math.Abs(got-want) > 1e-12*want {
		t.Errorf("T_pipe(10) = %.15g, want %.15g", got, want)
	}
	// den = 3·(1e-3·64/4 + 0.1) − 0.02 − 0.01 = 0.318; B_opt = √(100·0.8/0.318).
	b, ok := pm.BOpt()
	if want := math.Sqrt(100 * 0.8 / 0.318); !ok || math.Abs(b-want) > 1e-12*want {
		t.Errorf("B_opt = %.15g, %v; want %.15g", b, ok, want)
	}
	if t0 := pm.TPipe(b); !(t0 < pm.TPipe(b*0.999) && t0 < pm.TPipe(b*1.001)) {
		t.Errorf("B_opt %g is not a minimum of T_pipe", b)
	}
}

// TestPipelineStagePricedFromTheStatement: the stage cost of a pipelined
// sweep is its own statement's: a division and a square root per element
// make every block size slower than a plain copy.
func TestPipelineStagePricedFromTheStatement(t *testing.T) {
	prog := func(rhs string) string {
		return `      PROGRAM SWEEP
      PARAMETER (N = 1024)
      REAL U(N,N)
      DECOMPOSITION D(N,N)
      ALIGN U WITH D
      DISTRIBUTE D(:,BLOCK)
      DO 20 J = 2, N
         DO 10 I = 1, N
            U(I,J) = ` + rhs + `
   10    CONTINUE
   20 CONTINUE
      PRINT *, U(2,2)
      END
`
	}
	re := regexp.MustCompile(`predicts ([0-9.]+ [µmn]?s) at B = 8 and ([0-9.]+ [µmn]?s) at B_opt`)
	at8 := map[string]float64{}
	for _, rhs := range []string{"U(I,J-1)", "SQRT(U(I,J-1)) / (U(I,J-1) + 3.0)"} {
		var msg string
		for _, x := range findings(t, "sweep.f", prog(rhs), "") {
			if x.Code == "pipeline-granularity" {
				msg = x.Message
			}
		}
		m := re.FindStringSubmatch(msg)
		if m == nil {
			t.Fatalf("U(I,J) = %s: pipeline-granularity %q", rhs, msg)
		}
		at8[rhs] = parseSeconds(t, m[1])
	}
	if cheap, dear := at8["U(I,J-1)"], at8["SQRT(U(I,J-1)) / (U(I,J-1) + 3.0)"]; !(dear > cheap) {
		t.Errorf("a square root and a division per element: %g s at B = 8, a copy: %g s", dear, cheap)
	}
}

// TestPipelineExtentsFromBounds: the pipeline model takes each
// dimension's extent, upper − lower + 1, whatever its lower bound: a
// sweep over U(1001:1002,N) is the sweep over U(2,N), and U(1001:2024,N)
// the one over U(1024,N). Two rows (N2 = 2) still give finite times.
func TestPipelineExtentsFromBounds(t *testing.T) {
	pipeline := func(rows, lo, hi string) string {
		src := `      PROGRAM SWEEP
      PARAMETER (N = 1024)
      REAL U(` + rows + `,N)
      DECOMPOSITION D(N,N)
      ALIGN U WITH D
      DISTRIBUTE D(:,BLOCK)
      DO 20 J = 2, N
         DO 10 I = ` + lo + `, ` + hi + `
            U(I,J) = U(I,J-1)
   10    CONTINUE
   20 CONTINUE
      PRINT *, U(` + lo + `,2)
      END
`
		for _, x := range findings(t, "sweep.f", src, "") {
			if x.Code == "pipeline-granularity" {
				return x.Message
			}
		}
		t.Fatalf("U(%s,N): no pipeline-granularity", rows)
		return ""
	}
	for _, c := range [][2][3]string{
		{{"2", "1", "2"}, {"1001:1002", "1001", "1002"}},
		{{"1024", "1", "1024"}, {"1001:2024", "1001", "2024"}},
	} {
		one, off := pipeline(c[0][0], c[0][1], c[0][2]), pipeline(c[1][0], c[1][1], c[1][2])
		if one != off {
			t.Errorf("U(%s,N): %s\nU(%s,N): %s", c[0][0], one, c[1][0], off)
		}
		if strings.Contains(one, "Inf") || strings.Contains(one, "NaN") {
			t.Errorf("U(%s,N): %s", c[0][0], one)
		}
	}
}

// sweepFD is a Fortran D sweep along the BLOCK-distributed dimension:
// each column J needs column J-1, a pipeline across the processors.
const sweepFD = `      PROGRAM SWEEP
      PARAMETER (N = 1024)
      REAL U(N,N)
      DECOMPOSITION D(N,N)
      ALIGN U WITH D
      DISTRIBUTE D(:,BLOCK)
      DO 20 J = 2, N
         DO 10 I = 1, N
            U(I,J) = U(I,J-1)
   10    CONTINUE
   20 CONTINUE
      PRINT *, U(2,2)
      END
`

// TestPipelineOnTwoProcessors: two processors already make a pipeline
// (the second waits for the first's blocks).
func TestPipelineOnTwoProcessors(t *testing.T) {
	src := sweepFD
	f := parser.Parse("sweep.f", []byte(src), nil)
	for _, procs := range []int{2, 4} {
		if n := codes(Capabilities(f, nil, partition.Options{Procs: procs}))["pipeline-granularity"]; n != 1 {
			t.Errorf("%d processors: %d pipeline-granularity findings", procs, n)
		}
	}
}

// TestPipelineModelByHand: on a made-up machine whose operations cost
// nothing and whose vector shift takes 1 µs + 1 ns per byte, the pipeline
// of a REAL sweep (4 bytes an element) over N = 1024 on 16 processors is
// all communication: a block of B elements takes T_comm = 1 µs + 4 ns·B,
// its fixed 1 µs shared by the send and the receive. Equation (1):
// T(B) = 15·T_comm(B) + (1024/B − 1)·1 µs, so T(8) = 15 × 1.032 µs + 127
// µs = 142.48 µs; equation (2): B_opt = √(1024 × 1 µs / (15 × 4 ns)) =
// 130.6, and of the integers 131 is the better one, T(131) = 15 × 1.524
// µs + (1024/131 − 1) µs = 29.68 µs.
func TestPipelineModelByHand(t *testing.T) {
	src := sweepFD
	m := &machine.Machine{Ops: map[string]float64{}, Comm: map[int]map[string]machine.Curve{
		16: {machine.PatternVectorShift: {{From: 0, To: 0, A: 1e-6, B: 1e-9}}}}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	f := parser.Parse("sweep.f", []byte(src), nil)
	var msg string
	for _, x := range Capabilities(f, nil, partition.Options{Procs: 16, Machine: m}) {
		if x.Code == "pipeline-granularity" {
			msg = x.Message
		}
	}
	if want := "predicts 142 µs at B = 8 and 29.7 µs at B_opt = 131, the best block size (the smooth optimum on its interval is 130.6)"; !strings.Contains(msg, want) {
		t.Errorf("pipeline-granularity %q, want it to say %q", msg, want)
	}
}

// TestOwnerComputesFunctionOrArray: a row filled from an array G(J) is a
// copy (no work before its broadcast), one filled from a function F(J),
// declared with a type but no dimensions, is computed by the owner of
// row K while the others wait, as one filled from an intrinsic is.
func TestOwnerComputesFunctionOrArray(t *testing.T) {
	prog := func(decl, rhs string) string {
		return `      PROGRAM GE
      PARAMETER (N = 512)
      DOUBLE PRECISION A(N,N)` + decl + `
      DECOMPOSITION D(N,N)
      ALIGN A WITH D
      DISTRIBUTE D(CYCLIC,:)
      DO 30 K = 1, N-1
         DO 5 J = K+1, N
            A(K,J) = ` + rhs + `
    5    CONTINUE
         DO 20 I = K+1, N
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
		decl, rhs string
		want      int
	}{{", G(N)", "G(J)", 0}, {", F", "F(J)", 1}, {"", "DBLE(J)", 1}} {
		if got := codes(findings(t, "ge.f", prog(c.decl, c.rhs), ""))["non-overlapped-broadcast"]; got != c.want {
			t.Errorf("A(K,J) = %s: %d non-overlapped-broadcast, want %d", c.rhs, got, c.want)
		}
	}
}

// TestElementPipelinePredictsAtOne: a profile that does not pipeline in
// blocks prices its pipeline at B = 1, with finite times.
func TestElementPipelinePredictsAtOne(t *testing.T) {
	src := sweepFD
	f := parser.Parse("sweep.f", []byte(src), nil)
	found := false
	for _, x := range Capabilities(f, CMFortran(), partition.Options{Procs: 16}) {
		if x.Code != "pipeline-granularity" {
			continue
		}
		found = true
		if !regexp.MustCompile(`predicts [0-9.]+ [µmn]?s at B = 1 and`).MatchString(x.Message) {
			t.Errorf("message %q", x.Message)
		}
	}
	if !found {
		t.Error("no pipeline-granularity")
	}
}

// TestAlignFixTakesOneNameOut: when the target of a missing-align fix
// shares its DISTRIBUTE or ALIGN with other arrays, the fix takes only
// the target's name out of the list, with the comma on its side and, for
// an alignee, its own subscripts: the first name with the comma after it
// (b, c → c; B(I,J), C(J,I) → C(J,I)), a later one with the comma
// before it (C, B → C; C(J,I), B(I,J) → C(J,I), also with blanks or a
// tab before the subscripts).
// The new ALIGN is written as the source's is: with the template alone
// when the source's ALIGN has no subscripts (HPF's "ALIGN WITH T ::
// B"); through an identity chain (A(I,J) with C(I,J),
// C with T; A with C, C with T) to the ultimate template; and not at all
// through a chain that permutes the dimensions (A(I,J) with C(J,I)) or
// has subscripts on one side only (A(I,J) with C, A with C(I,J)).
func TestAlignFixTakesOneNameOut(t *testing.T) {
	loop := func(form parser.Form) string {
		if form == parser.Free {
			return "  do j = 1, n\n    do i = 1, n\n      b(i,j) = a(i,j) * 2.0\n    end do\n  end do\nend program h\n"
		}
		return "      DO 10 J = 1, N\n         DO 10 I = 1, N\n            B(I,J) = A(I,J) * 2.0\n   10 CONTINUE\n      END\n"
	}
	for _, c := range []struct {
		name, head, want string // want: head after the fix ("" for no fix)
		form             parser.Form
	}{
		{"first.f90", `program h
  integer, parameter :: n = 512
  real :: a(n,n), b(n,n), c(n,n)
  integer :: i, j
!hpf$ distribute a(*,block)
!hpf$ distribute (block,*) :: b, c
  c = 0.0
`, `program h
  integer, parameter :: n = 512
  real :: a(n,n), b(n,n), c(n,n)
!hpf$ align b(i,j) with a(i,j)
  integer :: i, j
!hpf$ distribute a(*,block)
!hpf$ distribute (block,*) :: c
  c = 0.0
`, parser.Free},
		{"last.f", `      PROGRAM HT
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
!HPF$ TEMPLATE T(N,N)
!HPF$ ALIGN A WITH T
!HPF$ DISTRIBUTE T(*,BLOCK)
!HPF$ DISTRIBUTE (BLOCK,*) :: C, B
      C = 0.0
`, `      PROGRAM HT
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
!HPF$ TEMPLATE T(N,N)
!HPF$ ALIGN WITH T :: B
!HPF$ ALIGN A WITH T
!HPF$ DISTRIBUTE T(*,BLOCK)
!HPF$ DISTRIBUTE (BLOCK,*) :: C
      C = 0.0
`, parser.Fixed},
		{"alignee.f", `      PROGRAM FD
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
      DECOMPOSITION D(N,N), E(N,N)
      ALIGN A WITH D
      ALIGN C(J,I), B(I,J) WITH E(I,J)
      DISTRIBUTE D(:,BLOCK)
      DISTRIBUTE E(BLOCK,:)
      C(1,1) = 0.0
`, `      PROGRAM FD
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
      DECOMPOSITION D(N,N), E(N,N)
      ALIGN B WITH D
      ALIGN A WITH D
      ALIGN C(J,I) WITH E(I,J)
      DISTRIBUTE D(:,BLOCK)
      DISTRIBUTE E(BLOCK,:)
      C(1,1) = 0.0
`, parser.Fixed},
		{"first-alignee.f", `      PROGRAM FD
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
      DECOMPOSITION D(N,N), E(N,N)
      ALIGN A WITH D
      ALIGN B(I,J), C(J,I) WITH E(I,J)
      DISTRIBUTE D(:,BLOCK)
      DISTRIBUTE E(BLOCK,:)
      C(1,1) = 0.0
`, `      PROGRAM FD
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
      DECOMPOSITION D(N,N), E(N,N)
      ALIGN B WITH D
      ALIGN A WITH D
      ALIGN C(J,I) WITH E(I,J)
      DISTRIBUTE D(:,BLOCK)
      DISTRIBUTE E(BLOCK,:)
      C(1,1) = 0.0
`, parser.Fixed},
		{"spaces.f", `      PROGRAM FD
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
      DECOMPOSITION D(N,N), E(N,N)
      ALIGN A WITH D
      ALIGN C (J,I), B (I,J) WITH E(I,J)
      DISTRIBUTE D(:,BLOCK)
      DISTRIBUTE E(BLOCK,:)
      C(1,1) = 0.0
`, `      PROGRAM FD
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
      DECOMPOSITION D(N,N), E(N,N)
      ALIGN B WITH D
      ALIGN A WITH D
      ALIGN C (J,I) WITH E(I,J)
      DISTRIBUTE D(:,BLOCK)
      DISTRIBUTE E(BLOCK,:)
      C(1,1) = 0.0
`, parser.Fixed},
		{"tab.f", `      PROGRAM FD
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
      DECOMPOSITION D(N,N), E(N,N)
      ALIGN A WITH D
      ALIGN C	(J,I), B	(I,J) WITH E(I,J)
      DISTRIBUTE D(:,BLOCK)
      DISTRIBUTE E(BLOCK,:)
      C(1,1) = 0.0
`, `      PROGRAM FD
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
      DECOMPOSITION D(N,N), E(N,N)
      ALIGN B WITH D
      ALIGN A WITH D
      ALIGN C	(J,I) WITH E(I,J)
      DISTRIBUTE D(:,BLOCK)
      DISTRIBUTE E(BLOCK,:)
      C(1,1) = 0.0
`, parser.Fixed},
		{"chain-none.f", `      PROGRAM HC
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
!HPF$ TEMPLATE T(N,N)
!HPF$ ALIGN A WITH C
!HPF$ ALIGN C WITH T
!HPF$ DISTRIBUTE T(*,BLOCK)
!HPF$ DISTRIBUTE B(BLOCK,*)
      C(1,1) = 0.0
`, `      PROGRAM HC
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
!HPF$ TEMPLATE T(N,N)
!HPF$ ALIGN WITH T :: B
!HPF$ ALIGN A WITH C
!HPF$ ALIGN C WITH T
!HPF$ DISTRIBUTE T(*,BLOCK)
      C(1,1) = 0.0
`, parser.Fixed},
		{"one-sided-own.f", `      PROGRAM HC
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
!HPF$ TEMPLATE T(N,N)
!HPF$ ALIGN A(I,J) WITH C
!HPF$ ALIGN C WITH T
!HPF$ DISTRIBUTE T(*,BLOCK)
!HPF$ DISTRIBUTE B(BLOCK,*)
      C(1,1) = 0.0
`, "", parser.Fixed},
		{"one-sided-target.f", `      PROGRAM HC
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
!HPF$ TEMPLATE T(N,N)
!HPF$ ALIGN A WITH C(I,J)
!HPF$ ALIGN C WITH T
!HPF$ DISTRIBUTE T(*,BLOCK)
!HPF$ DISTRIBUTE B(BLOCK,*)
      C(1,1) = 0.0
`, "", parser.Fixed},
		{"chain.f", `      PROGRAM HC
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
!HPF$ TEMPLATE T(N,N)
!HPF$ ALIGN A(I,J) WITH C(I,J)
!HPF$ ALIGN C(I,J) WITH T(I,J)
!HPF$ DISTRIBUTE T(*,BLOCK)
!HPF$ DISTRIBUTE B(BLOCK,*)
      C(1,1) = 0.0
`, `      PROGRAM HC
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
!HPF$ TEMPLATE T(N,N)
!HPF$ ALIGN B(I,J) WITH T(I,J)
!HPF$ ALIGN A(I,J) WITH C(I,J)
!HPF$ ALIGN C(I,J) WITH T(I,J)
!HPF$ DISTRIBUTE T(*,BLOCK)
      C(1,1) = 0.0
`, parser.Fixed},
		{"permuted.f", `      PROGRAM HC
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N), C(N,N)
!HPF$ TEMPLATE T(N,N)
!HPF$ ALIGN A(I,J) WITH C(J,I)
!HPF$ ALIGN C(I,J) WITH T(I,J)
!HPF$ DISTRIBUTE T(*,BLOCK)
!HPF$ DISTRIBUTE B(BLOCK,*)
      C(1,1) = 0.0
`, "", parser.Fixed},
	} {
		src := c.head + loop(c.form)
		f := parser.Parse(c.name, []byte(src), &parser.Config{Form: c.form})
		if errs := f.Errors(); len(errs) > 0 {
			t.Fatalf("%s: %v", c.name, errs)
		}
		n := 0
		for _, x := range Capabilities(f, nil, partition.Options{Procs: 16}) {
			if x.Code != "missing-align" {
				continue
			}
			n++
			if !strings.HasPrefix(x.Message, "B is not aligned with A") {
				t.Errorf("%s: %q", c.name, x.Message)
			}
			if c.want == "" {
				if x.Fix != nil {
					t.Errorf("%s: fix %+v, want none", c.name, *x.Fix)
				}
				continue
			}
			if x.Fix == nil {
				t.Errorf("%s: no fix", c.name)
				continue
			}
			fixed := []byte(src)
			for i := len(x.Fix.Edits) - 1; i >= 0; i-- {
				e := x.Fix.Edits[i]
				fixed = append(fixed[:e.Start:e.Start], append([]byte(e.Text), fixed[e.End:]...)...)
			}
			if want := c.want + loop(c.form); string(fixed) != want {
				t.Errorf("%s fixed:\n%s\nwant:\n%s", c.name, fixed, want)
			}
		}
		if n != 1 {
			t.Errorf("%s: %d missing-align findings, want 1", c.name, n)
		}
	}
}

// TestUnvectorizedMessageByProfile: X(K) and X(K-1) (K = 253) lie on two
// processors and each iteration needs what the other wrote, so each of
// the M = 100 iterations sends one element per reference: two
// unvectorized-message findings on the two statements. The reason given
// depends on the profile: one that vectorizes messages is kept from it
// by the dependences; one that does not (messageVectorization false)
// never combines, and the advice is to rewrite the loop.
func TestUnvectorizedMessageByProfile(t *testing.T) {
	src := `      PROGRAM RELAX
      PARAMETER (N = 1000, M = 100, K = 253)
      REAL X(N), Y(M)
      DECOMPOSITION D(N)
      ALIGN X WITH D
      DISTRIBUTE D(BLOCK)
      DO 10 I = 1, M
         X(K) = X(K-1) + Y(I)
         X(K-1) = 0.5 * X(K)
   10 CONTINUE
      END
`
	f := parser.Parse("relax.f", []byte(src), nil)
	noVec := &Profile{Name: "Plain", PipelineBlock: 8, Collectives: true}
	for _, c := range []struct {
		prof      *Profile
		why, what string
	}{
		{nil, "dependences keep this message inside the innermost loop",
			"(the Rice Fortran 77D compiler profile combines a loop's elements into one message only where dependences allow)"},
		{noVec, "the Plain compiler profile does not combine a loop's elements into one message",
			"(one message for the whole loop needs the loop rewritten in array syntax or with its communication hoisted)"},
	} {
		var lines []string
		for _, x := range Capabilities(f, c.prof, partition.Options{Procs: 16}) {
			if x.Code != "unvectorized-message" {
				continue
			}
			lines = append(lines, src[x.Start:x.End])
			if x.Severity != "warning" || !strings.Contains(x.Message, ": "+c.why+", so 100 messages of one element each are sent rather than one for the whole loop "+c.what+": ") {
				t.Errorf("%v: %s %q", c.prof, x.Severity, x.Message)
			}
		}
		if want := []string{"X(K) = X(K-1) + Y(I)", "X(K-1) = 0.5 * X(K)"}; fmt.Sprint(lines) != fmt.Sprint(want) {
			t.Errorf("%v: findings on %q, want %q", c.prof, lines, want)
		}
	}
}

// applyFix returns src with a fix's edits made (they are in file order).
func applyFix(src string, fix *Fix) string {
	b := []byte(src)
	for i := len(fix.Edits) - 1; i >= 0; i-- {
		e := fix.Edits[i]
		b = append(b[:e.Start:e.Start], append([]byte(e.Text), b[e.End:]...)...)
	}
	return string(b)
}

// TestAlignFixEdits pins how a missing-align fix's edits are laid out:
// when the target's own DISTRIBUTE is the very line the new ALIGN goes to
// (right after the declarations), the ALIGN takes its place in one edit;
// two whole-line removals that touch (the target's ALIGN and DISTRIBUTE
// on consecutive lines) are both made; an array aligned with the target
// does not stop the fix when the target is aligned with a distributed
// array (HPF: c stays aligned with b), but does in CM Fortran, where the
// target is aligned with an array laid out by default (CM Fortran
// resolves one step of alignment), while an array aligned with another
// one does not. The title says when the target's own mapping goes.
func TestAlignFixEdits(t *testing.T) {
	const loop = "  do j = 1, n\n    do i = 1, n\n      b(i,j) = a(i,j) * 2.0\n    end do\n  end do\nend program h\n"
	const floop = "      DO 10 J = 1, N\n         DO 10 I = 1, N\n            B(I,J) = A(I,J) * 2.0\n   10 CONTINUE\n      END\n"
	const cloop = "  do k = 1, 10\n    forall (i = 2:n+1, j = 2:n+1) a(j,i) = k*(i+j)\n" +
		"    forall (i = 1:n/2, j = 1:n/2) b(j,i) = a(j,i) + a(j+1,i+1)\n  end do\nend program c\n"
	for _, c := range []struct {
		name, src, want string // want: the whole file after the fix ("" for no fix)
		edits           int
		form            parser.Form
		title           string
	}{
		{"inplace.f90", "program h\n  integer, parameter :: n = 512\n  real :: a(n,n), b(n,n)\n!hpf$ distribute b(block,*)\n" +
			"  integer :: i, j\n!hpf$ distribute a(*,block)\n" + loop,
			"program h\n  integer, parameter :: n = 512\n  real :: a(n,n), b(n,n)\n!hpf$ align b(i,j) with a(i,j)\n" +
				"  integer :: i, j\n!hpf$ distribute a(*,block)\n" + loop, 1, parser.Free,
			"Insert hpf$ align b(i,j) with a(i,j) (in place of B's own mapping)"},
		{"touching.f", "      PROGRAM HT\n      PARAMETER (N = 512)\n      REAL A(N,N), B(N,N)\n!HPF$ TEMPLATE T(N,N), E(N,N)\n" +
			"!HPF$ ALIGN A(I,J) WITH T(I,J)\n!HPF$ DISTRIBUTE T(*,BLOCK)\n!HPF$ DISTRIBUTE E(BLOCK,*)\n" +
			"!HPF$ ALIGN B(I,J) WITH E(I,J)\n!HPF$ DISTRIBUTE B(BLOCK,*)\n" + floop,
			"      PROGRAM HT\n      PARAMETER (N = 512)\n      REAL A(N,N), B(N,N)\n!HPF$ TEMPLATE T(N,N), E(N,N)\n" +
				"!HPF$ ALIGN B(I,J) WITH T(I,J)\n!HPF$ ALIGN A(I,J) WITH T(I,J)\n!HPF$ DISTRIBUTE T(*,BLOCK)\n!HPF$ DISTRIBUTE E(BLOCK,*)\n" + floop,
			3, parser.Fixed, "Insert HPF$ ALIGN B(I,J) WITH T(I,J) (in place of B's own mapping)"},
		{"follower.f90", "program h\n  integer, parameter :: n = 512\n  real :: a(n,n), b(n,n), c(n,n)\n  integer :: i, j\n" +
			"!hpf$ distribute a(*,block)\n!hpf$ distribute b(block,*)\n!hpf$ align c(i,j) with b(i,j)\n  c = 0.0\n" + loop,
			"program h\n  integer, parameter :: n = 512\n  real :: a(n,n), b(n,n), c(n,n)\n!hpf$ align b(i,j) with a(i,j)\n  integer :: i, j\n" +
				"!hpf$ distribute a(*,block)\n!hpf$ align c(i,j) with b(i,j)\n  c = 0.0\n" + loop, 2, parser.Free,
			"Insert hpf$ align b(i,j) with a(i,j) (in place of B's own mapping)"},
		{"follower.fcm", "program c\n  integer, parameter :: n = 512\n  integer :: a(n+1,n+1), b(n,n), c(n,n)\n  integer :: k, i, j\n" +
			"!cmf$ align c(i,j) with b(i,j)\n  a = 0\n  c = 0\n" + cloop, "", 0, parser.Free, ""},
		{"other.fcm", "program c\n  integer, parameter :: n = 512\n  integer :: a(n+1,n+1), b(n,n), c(n,n)\n  integer :: k, i, j\n" +
			"!cmf$ align c(i,j) with a(i,j)\n  a = 0\n  c = 0\n" + cloop,
			"program c\n  integer, parameter :: n = 512\n  integer :: a(n+1,n+1), b(n,n), c(n,n)\n!cmf$ align b(i,j) with a(i,j)\n  integer :: k, i, j\n" +
				"!cmf$ align c(i,j) with a(i,j)\n  a = 0\n  c = 0\n" + cloop, 1, parser.Free,
			"Insert cmf$ align b(i,j) with a(i,j)"},
	} {
		f := parser.Parse(c.name, []byte(c.src), &parser.Config{Form: c.form})
		if errs := f.Errors(); len(errs) > 0 {
			t.Fatalf("%s: %v", c.name, errs)
		}
		n := 0
		for _, x := range Capabilities(f, nil, partition.Options{Procs: 16}) {
			if x.Code != "missing-align" {
				continue
			}
			n++
			switch {
			case c.want == "" && x.Fix != nil:
				t.Errorf("%s: fix %+v, want none", c.name, *x.Fix)
			case c.want == "":
			case x.Fix == nil:
				t.Errorf("%s: no fix", c.name)
			case x.Fix.Title != c.title:
				t.Errorf("%s: fix titled %q, want %q", c.name, x.Fix.Title, c.title)
			case len(x.Fix.Edits) != c.edits || applyFix(c.src, x.Fix) != c.want:
				t.Errorf("%s: %d edits %+v giving\n%s\nwant %d giving\n%s", c.name, len(x.Fix.Edits), x.Fix.Edits, applyFix(c.src, x.Fix), c.edits, c.want)
			}
		}
		if n != 1 {
			t.Errorf("%s: %d missing-align findings, want 1", c.name, n)
		}
	}
}

// TestZeroCostModel: on a model where nothing costs anything, a finding
// gives no share of its loop (0 of 0 is no share: not "NaN%"), and
// aligning saves nothing, so missing-align says no saving (0 ns → 0 ns
// is not one).
func TestZeroCostModel(t *testing.T) {
	src := `      PROGRAM Z
      PARAMETER (N = 512)
      REAL X(N), Y(N), A(N,N), B(N,N)
      DECOMPOSITION D(N), E(N,N), G(N,N)
      ALIGN X, Y WITH D
      ALIGN A WITH E
      ALIGN B WITH G
      DISTRIBUTE D(BLOCK)
      DISTRIBUTE E(:,BLOCK)
      DISTRIBUTE G(BLOCK,:)
      DO 20 I = 2, N
         Y(I) = X(I-1)
   20 CONTINUE
      DO 10 J = 1, N
         DO 10 I = 1, N
            B(I,J) = A(I,J) * 2.0
   10 CONTINUE
      END
`
	zero := map[string]machine.Curve{}
	for _, p := range machine.Patterns() {
		zero[p] = machine.Curve{{From: 0, To: 0}}
	}
	m := &machine.Machine{Name: "zero", Comm: map[int]map[string]machine.Curve{2: zero}}
	f := parser.Parse("z.f", []byte(src), nil)
	got := map[string]string{}
	for _, x := range Capabilities(f, nil, partition.Options{Procs: 16, Machine: m}) {
		got[x.Code] = x.Message
	}
	want := map[string]string{
		"loop-distribution": "the iterations of this loop at block boundaries wait for 1 shift(s) from the neighbours, the others are local; the Rice Fortran 77D compiler profile does not split the loop. Split it into boundary and interior iterations and start the interior while the messages travel: up to 0 ns to hide",
		"missing-align":     "B is not aligned with A, so every element B reads from A travels (all-to-all, 0 ns)",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("findings\n%v\nwant\n%v", got, want)
	}
}

// TestAlignFixCaseAndSubscripts: the fix's case follows the unit's
// first directive, whatever word it starts with (a lowercase "align"
// before the template's declaration), and in a unit without directives
// the statement that declares the target, not the statements before or
// after it (here in upper case). The subscripts of the new ALIGN are the
// source's own, from its place in a list of alignees (A(I,J) after
// C(J,I)), not the first alignee's, or those written before WITH for
// all the alignees after "::".
func TestAlignFixCaseAndSubscripts(t *testing.T) {
	const loop = "  do j = 1, n\n    do i = 1, n\n      b(i,j) = a(i,j) * 2.0\n    end do\n  end do\nend program h\n"
	const cloop = "  DO K = 1, 10\n    FORALL (I = 2:N+1, J = 2:N+1) A(J,I) = K*(I+J)\n" +
		"    FORALL (I = 1:N/2, J = 1:N/2) B(J,I) = A(J,I) + A(J+1,I+1)\n  END DO\nend program c\n"
	for _, c := range []struct {
		name, src, text string
		form            parser.Form
	}{
		{"align-first.f90", "program h\n  integer, parameter :: n = 512\n  real :: a(n,n), b(n,n)\n  integer :: i, j\n" +
			"!hpf$ align a(i,j) with t(i,j)\n!hpf$ template t(n,n)\n!hpf$ distribute t(*,block)\n!hpf$ distribute b(block,*)\n" + loop,
			"!hpf$ align b(i,j) with t(i,j)\n", parser.Free},
		{"mixed.fcm", "program c\n  INTEGER, PARAMETER :: N = 512\n  integer :: a(n+1,n+1), b(n,n)\n  INTEGER :: K, I, J\n  A = 0\n" + cloop,
			"!cmf$ align b(i,j) with a(i,j)\n", parser.Free},
		{"alignees.f", "      PROGRAM FD\n      PARAMETER (N = 512)\n      REAL A(N,N), B(N,N), C(N,N)\n      DECOMPOSITION D(N,N), E(N,N)\n" +
			"      ALIGN C(J,I), A(I,J) WITH E(I,J)\n      ALIGN B WITH D\n      DISTRIBUTE D(:,BLOCK)\n      DISTRIBUTE E(BLOCK,:)\n      C(1,1) = 0.0\n" +
			"      DO 10 J = 1, N\n         DO 10 I = 1, N\n            B(I,J) = A(I,J) * 2.0\n   10 CONTINUE\n      END\n",
			"      ALIGN B(I,J) WITH E(I,J)\n", parser.Fixed},
		{"dummies-first.f", "      PROGRAM HD\n      PARAMETER (N = 512)\n      REAL A(N,N), B(N,N), C(N,N)\n!HPF$ TEMPLATE T(N,N)\n" +
			"!HPF$ ALIGN (I,J) WITH T(I,J) :: A, C\n!HPF$ DISTRIBUTE T(*,BLOCK)\n!HPF$ DISTRIBUTE B(BLOCK,*)\n      C(1,1) = 0.0\n" +
			"      DO 10 J = 1, N\n         DO 10 I = 1, N\n            B(I,J) = A(I,J) * 2.0\n   10 CONTINUE\n      END\n",
			"!HPF$ ALIGN B(I,J) WITH T(I,J)\n", parser.Fixed},
	} {
		f := parser.Parse(c.name, []byte(c.src), &parser.Config{Form: c.form})
		if errs := f.Errors(); len(errs) > 0 {
			t.Fatalf("%s: %v", c.name, errs)
		}
		n := 0
		for _, x := range Capabilities(f, nil, partition.Options{Procs: 16}) {
			if x.Code != "missing-align" {
				continue
			}
			n++
			if x.Fix == nil || x.Fix.Text != c.text {
				t.Errorf("%s: fix %+v, want %q", c.name, x.Fix, c.text)
			}
		}
		if n != 1 {
			t.Errorf("%s: %d missing-align findings, want 1", c.name, n)
		}
	}
}

// TestAlignFixAtColumn72: "!HPF$ ALIGN " (12 columns), the target, "(I,J,K)
// WITH " (13), the template's 20-letter name and "(I,J,K)" (7) make 52
// columns plus the target's name: a 20-letter target ends the line at
// column 72, the last one a fixed-form compiler reads, and gets its fix;
// a 21-letter one does not.
func TestAlignFixAtColumn72(t *testing.T) {
	src := `      PROGRAM LONGN
      PARAMETER (N = 64)
      REAL TARGET(N,N,N), P(N,N,N)
!HPF$ TEMPLATE TEMPLATEOFTHEGRIDXYZ(N,N,N)
!HPF$ DISTRIBUTE TEMPLATEOFTHEGRIDXYZ(BLOCK,BLOCK,*)
!HPF$ DISTRIBUTE TARGET(*,*,BLOCK)
!HPF$ ALIGN P(I,J,K) WITH TEMPLATEOFTHEGRIDXYZ(I,J,K)
      P = 1.0
      DO 10 K = 1, N
         DO 10 J = 1, N
            DO 10 I = 1, N
               TARGET(I,J,K) = P(I,J,K) * 2.0
   10 CONTINUE
      PRINT *, TARGET(1,1,1)
      END
`
	for _, name := range []string{strings.Repeat("T", 20), strings.Repeat("T", 21)} {
		n := 0
		for _, x := range findings(t, "long.f", strings.ReplaceAll(src, "TARGET", name), "") {
			if x.Code != "missing-align" {
				continue
			}
			n++
			want := "!HPF$ ALIGN " + name + "(I,J,K) WITH TEMPLATEOFTHEGRIDXYZ(I,J,K)\n"
			switch {
			case len(name) == 20 && (x.Fix == nil || x.Fix.Text != want || len(want) != 73):
				t.Errorf("%d letters: fix %+v, want %q", len(name), x.Fix, want)
			case len(name) == 21 && x.Fix != nil:
				t.Errorf("%d letters: fix %+v past column 72", len(name), *x.Fix)
			}
		}
		if n != 1 {
			t.Errorf("%d letters: %d missing-align findings", len(name), n)
		}
	}
}

// TestTooFewSubscripts: an assignment to an array with fewer subscripts
// than its rank (an error, which the parser's checks let pass) does not
// stop the analysis: the broadcast of the pivot column is still found to wait for
// the column's owner (as in TestFindingOrderAndRange).
func TestTooFewSubscripts(t *testing.T) {
	src := `      PROGRAM GE
      PARAMETER (N = 16)
      DOUBLE PRECISION A(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A WITH D
      DISTRIBUTE D(:,CYCLIC)
      DO 30 K = 1, N-1
         A(K) = 2.0 * A(K,K)
         DO 20 I = K+1, N
            A(I,K) = A(I,K) / A(K,K)
            DO 10 J = K+1, N
               A(I,J) = A(I,J) - A(I,K)*A(K,J)
   10       CONTINUE
   20    CONTINUE
   30 CONTINUE
      END
`
	f := parser.Parse("ge.f", []byte(src), nil)
	if got := codes(Capabilities(f, nil, partition.Options{Procs: 16}))["non-overlapped-broadcast"]; got != 1 {
		t.Errorf("%d non-overlapped-broadcast, want 1", got)
	}
}
