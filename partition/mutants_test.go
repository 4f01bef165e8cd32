package partition

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// Tests written against the mutants gremlins found alive or uncovered
// in partition (issue 21, scripts/mutation.sh).

func parseUnit(t *testing.T, name, src string) *parser.Unit {
	t.Helper()
	f := parser.Parse(name, []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatalf("%s: %v", name, errs)
	}
	return f.Units[0]
}

// parseAny parses src as an editor sees it while the user types: with
// whatever errors it has.
func parseAny(t *testing.T, name, src string) *parser.Unit {
	t.Helper()
	f := parser.Parse(name, []byte(src), nil)
	if len(f.Units) == 0 {
		t.Fatalf("%s: no unit", name)
	}
	return f.Units[0]
}

// TestBlockCountsConstantPosition: a loop that stays at one position
// (stride 0) is all on that position's owner; a position on a block's
// boundary belongs to the block it starts: with blocks of 4, position 4
// is processor 1's, 3 processor 0's, and one past the last block the
// last processor's (it holds everything past its block), one below 0
// the first's.
func TestBlockCountsConstantPosition(t *testing.T) {
	for _, c := range []struct {
		c    int64
		want []int64
	}{
		{4, []int64{0, 3, 0}},
		{3, []int64{3, 0, 0}},
		{8, []int64{0, 0, 3}},
		{7, []int64{0, 3, 0}},
		{12, []int64{0, 0, 3}},
		{-1, []int64{3, 0, 0}},
	} {
		if got := blockCounts(c.c, 0, 3, 4, 3); !reflect.DeepEqual(got, c.want) {
			t.Errorf("3 iterations at position %d, blocks of 4 on 3: %v, want %v", c.c, got, c.want)
		}
	}
}

// TestDialectOfDirectives: HPF directives make an HPF unit; a Fortran D
// directive (no sentinel) makes it Fortran D whatever the HPF lines
// around it; CMF$ lines make it CM Fortran; no directive, no dialect.
func TestDialectOfDirectives(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"      PROGRAM P\n      REAL A(10)\n!HPF$ DISTRIBUTE A(BLOCK)\n      END\n", "hpf"},
		{"      PROGRAM P\n      REAL A(10), B(10)\n!HPF$ DISTRIBUTE A(BLOCK)\n!HPF$ ALIGN B(I) WITH A(I)\n      END\n", "hpf"},
		{"      PROGRAM P\n      REAL A(10)\n      DECOMPOSITION D(10)\n      ALIGN A WITH D\n!HPF$ PROCESSORS PR(4)\n      DISTRIBUTE D(BLOCK)\n      END\n", "fortran-d"},
		{"      PROGRAM P\n      REAL A(10,10)\nCMF$ LAYOUT A(:SERIAL, :NEWS)\n      END\n", "cmf"},
		{"      PROGRAM P\n      REAL A(10)\n      END\n", ""},
	} {
		u := parseUnit(t, "p.f", c.src)
		if got := Dialect(u); got != c.want {
			t.Errorf("%q: dialect %q, want %q", c.src, got, c.want)
		}
		// The file's dialect applies only when the directives name none.
		if got, want := FromUnit(u, 4, "cmf").Dialect, map[bool]string{true: "cmf", false: c.want}[c.want == ""]; got != want {
			t.Errorf("%q in a .fcm file: dialect %q, want %q", c.src, got, want)
		}
		if got, want := WithFormats(u, 4, "A", []string{"BLOCK"}, "cmf").Dialect, map[bool]string{true: "cmf", false: c.want}[c.want == ""]; got != want {
			t.Errorf("%q in a .fcm file, candidate: dialect %q, want %q", c.src, got, want)
		}
	}
}

// TestMainTemplateAndCanonicalNames: the main template is the one of
// most dimensions, among those the first written, whatever the order of
// the names (a map is walked in a different order each run); arrays
// mapped alike are aligned with the main template when it is one of
// them, else with the first of them written, not the first by name.
func TestMainTemplateAndCanonicalNames(t *testing.T) {
	src := `      PROGRAM P
      REAL U(64,64), V(64,64), X(100), Y(100)
!HPF$ TEMPLATE TB(100), TA(100)
!HPF$ DISTRIBUTE (BLOCK) :: TB, TA
!HPF$ ALIGN X(I) WITH TA(I)
!HPF$ ALIGN Y(I) WITH TB(I)
!HPF$ DISTRIBUTE (BLOCK,BLOCK) :: V, U
      END
`
	u := parseUnit(t, "p.f", src)
	for run := 0; run < 20; run++ {
		d := FromUnit(u, 16, "")
		if d.Name() != "V(BLOCK,BLOCK)" {
			t.Fatalf("run %d: distribution %s, want V(BLOCK,BLOCK)", run, d.Name())
		}
		for name, want := range map[string]string{"U": "V", "V": "V", "X": "TB", "Y": "TB"} {
			if got := d.Arrays[name].Template; got != want {
				t.Fatalf("run %d: %s is aligned with %s, want %s", run, name, got, want)
			}
		}
	}
	// The main template as the first written of the group it is in,
	// which is not the first by name.
	src = `      PROGRAM P
      REAL A(100), B(100)
!HPF$ TEMPLATE T(100)
!HPF$ DISTRIBUTE (BLOCK) :: T, B
!HPF$ ALIGN A(I) WITH T(I)
      END
`
	u = parseUnit(t, "p.f", src)
	for run := 0; run < 20; run++ {
		d := FromUnit(u, 16, "")
		if d.Template != "T" {
			t.Fatalf("run %d: main template %s, want T", run, d.Template)
		}
		for name, want := range map[string]string{"A": "T", "B": "T"} {
			if got := d.Arrays[name].Template; got != want {
				t.Fatalf("run %d: %s is aligned with %s, want %s", run, name, got, want)
			}
		}
	}
}

// TestCMFCanonicalByName: CM Fortran arrays in the default layout have
// no written distribution: those of one shape are aligned with the
// first by name, the largest-rank array naming the distribution.
func TestCMFCanonicalByName(t *testing.T) {
	u := parseUnit(t, "p.fcm", "      PROGRAM P\n      REAL C(50), A(64,64), B(50), D(50)\n      END\n")
	for run := 0; run < 10; run++ {
		d := FromUnit(u, 16, "cmf")
		if d.Name() != "A(BLOCK,BLOCK)" {
			t.Fatalf("distribution %s, want A(BLOCK,BLOCK)", d.Name())
		}
		for name, want := range map[string]string{"A": "A", "B": "B", "C": "B", "D": "B"} {
			if got := d.Arrays[name].Template; got != want {
				t.Fatalf("run %d: %s is aligned with %s, want %s", run, name, got, want)
			}
		}
	}
}

// TestCMFLayoutSerial: CMF$ LAYOUT keeps a :SERIAL dimension on every
// processor and spreads the :NEWS ones over all of them; a LAYOUT
// naming fewer dimensions than the array has (an error) spreads the rest.
func TestCMFLayoutSerial(t *testing.T) {
	src := `      PROGRAM P
      REAL A(64,64), B(64,64), C(64,64)
CMF$ LAYOUT A(:NEWS, :SERIAL)
CMF$ LAYOUT B(:SERIAL, :NEWS)
CMF$ LAYOUT C(:SERIAL)
      END
`
	d := FromUnit(parseAny(t, "p.fcm", src), 16, "cmf")
	for name, want := range map[string]string{"A": "A(BLOCK/16,:/1)", "B": "B(:/1,BLOCK/16)", "C": "C(:/1,BLOCK/16)"} {
		if got := layoutString(d.Arrays[name]); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
}

// TestIdentityAlignmentRanks: Fortran D's ALIGN A WITH D lays the array's
// dimensions on the decomposition's first ones: a 1-D array on a 2-D
// decomposition takes the first format; a 2-D array on a 1-D one has its
// second dimension on every processor.
func TestIdentityAlignmentRanks(t *testing.T) {
	src := `      PROGRAM P
      REAL X(100), A(100,100)
      DECOMPOSITION D(100,100), E(100)
      ALIGN X WITH D
      ALIGN A WITH E
      DISTRIBUTE D(CYCLIC,BLOCK)
      DISTRIBUTE E(BLOCK)
      END
`
	d := FromUnit(parseUnit(t, "p.f", src), 8, "")
	for name, want := range map[string]string{"X": "X(CYCLIC/4)", "A": "A(BLOCK/8,:/1)"} {
		if got := layoutString(d.Arrays[name]); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	if got := d.Arrays["A"].TemplateDim; !reflect.DeepEqual(got, []int{0, -1}) {
		t.Errorf("A's template dimensions %v, want [0 -1]", got)
	}
}

// TestColonAlignments: ALIGN (:,:) WITH T(:,:) pairs the colons in
// order; a collapsed alignee dimension (*) is on no template dimension
// (-1); I-1 in the target is an offset of -1.
func TestColonAlignments(t *testing.T) {
	src := `      PROGRAM P
      REAL A(100,200), C(100,7), W(100)
!HPF$ TEMPLATE T(100,200)
!HPF$ DISTRIBUTE T(BLOCK,CYCLIC) ONTO PR
!HPF$ PROCESSORS PR(2,4)
!HPF$ ALIGN A(:,:) WITH T(:,:)
!HPF$ ALIGN C(I,*) WITH T(I,1)
!HPF$ ALIGN W(I) WITH T(*,I-1)
      END
`
	d := FromUnit(parseUnit(t, "p.f", src), 8, "")
	for _, c := range []struct {
		name, layout string
		tdim, off    []int
	}{
		{"A", "A(BLOCK/2,CYCLIC/4)", []int{0, 1}, []int{0, 0}},
		{"C", "C(BLOCK/2,:/1)", []int{0, -1}, []int{0, 0}},
		{"W", "W(CYCLIC/4)", []int{1}, []int{-1}},
	} {
		l := d.Arrays[c.name]
		if got := layoutString(l); got != c.layout {
			t.Errorf("%s: %s, want %s", c.name, got, c.layout)
		}
		if !reflect.DeepEqual(l.TemplateDim, c.tdim) || !reflect.DeepEqual(l.Offset, c.off) {
			t.Errorf("%s: template dimensions %v offsets %v, want %v %v", c.name, l.TemplateDim, l.Offset, c.tdim, c.off)
		}
	}
}

// TestMalformedAlignments: alignments with more subscripts than the
// alignee or the template has dimensions, or dummies and colons that do
// not pair up (what an editor sees while the user types), give a layout
// of the array's rank, never a crash.
func TestMalformedAlignments(t *testing.T) {
	ranks := map[string]int{"A": 1, "B": 2}
	for _, alignee := range []string{"A", "B"} {
		for _, target := range []string{"T", "U"} {
			for _, as := range []string{"(:)", "(:,:)", "(:,:,:)", "(I)", "(I,J)", "(I,J,K)", "(:,I)", "(I,:)", "(I,:,:)"} {
				for _, ts := range []string{"(:)", "(:,:)", "(:,:,:)", "(I)", "(I,J)", "(*,I)", "(*,I,J)", "(J,I,*)", "(1,:)", "(I,:,:)", "(I-1,J+1)"} {
					align := "!HPF$ ALIGN " + alignee + as + " WITH " + target + ts
					src := "      PROGRAM P\n      REAL A(100), B(100,100)\n!HPF$ TEMPLATE T(100), U(100,100)\n!HPF$ DISTRIBUTE T(BLOCK)\n!HPF$ DISTRIBUTE U(BLOCK,CYCLIC)\n" + align + "\n      END\n"
					u := parseAny(t, "p.f", src)
					func() {
						defer func() {
							if r := recover(); r != nil {
								t.Errorf("%s: panic %v", align, r)
							}
						}()
						d := FromUnit(u, 4, "")
						if l := d.Arrays[alignee]; l == nil || len(l.Dims) != ranks[alignee] || len(l.TemplateDim) != ranks[alignee] {
							t.Errorf("%s: layout %+v", align, l)
						}
					}()
				}
			}
		}
	}
}

// TestOntoArrangementShapes: an ONTO arrangement with an extent of 1 is
// used as written; one with an extent past MaxProcs or of none (an
// error), or of another processor count, is replaced by the even
// factorization.
func TestOntoArrangementShapes(t *testing.T) {
	for _, c := range []struct {
		procs string
		p     int
		want  string
	}{
		{"PR(1,4)", 4, "T(BLOCK/1,BLOCK/4)"},
		{"PR(4,1)", 4, "T(BLOCK/4,BLOCK/1)"},
		{"PR(65536,1)", 65536, "T(BLOCK/65536,BLOCK/1)"},
		{"PR(65537,1)", 65536, "T(BLOCK/256,BLOCK/256)"},
		{"PR(0,4)", 4, "T(BLOCK/2,BLOCK/2)"},
		{"PR(2,4)", 4, "T(BLOCK/2,BLOCK/2)"},
	} {
		src := "      PROGRAM P\n      REAL T(100,100)\n!HPF$ PROCESSORS " + c.procs + "\n!HPF$ DISTRIBUTE T(BLOCK,BLOCK) ONTO PR\n      END\n"
		d := FromUnit(parseAny(t, "p.f", src), c.p, "")
		if got := layoutString(d.Arrays["T"]); got != c.want {
			t.Errorf("ONTO %s on %d: %s, want %s", c.procs, c.p, got, c.want)
		}
	}
}

// TestFormatStrings: the formats as a DISTRIBUTE writes them: CYCLIC(k)
// with a known k, CYCLIC(expression) with an unknown one, ":" for a
// dimension not distributed; CYCLIC(1) prints as CYCLIC.
func TestFormatStrings(t *testing.T) {
	src := `      PROGRAM P
      INTEGER K
      PARAMETER (M = 4)
      REAL T(100,100,100)
!HPF$ DISTRIBUTE T(CYCLIC(K), CYCLIC(M), *)
      END
`
	d := FromUnit(parseUnit(t, "p.f", src), 16, "")
	if got := d.Name(); got != "T(CYCLIC(K),CYCLIC(4),:)" {
		t.Errorf("name %s, want T(CYCLIC(K),CYCLIC(4),:)", got)
	}
	for _, c := range []struct {
		f    DimFormat
		want string
	}{
		{DimFormat{Kind: "CYCLIC", K: 1}, "CYCLIC"},
		{DimFormat{Kind: "CYCLIC", K: 2}, "CYCLIC(2)"},
		{DimFormat{Kind: "CYCLIC"}, "CYCLIC"},
		{DimFormat{Kind: "BLOCK"}, "BLOCK"},
		{DimFormat{Kind: "*"}, ":"},
	} {
		if got := c.f.String(); got != c.want {
			t.Errorf("%+v: %s, want %s", c.f, got, c.want)
		}
	}
}

// TestAlignedWith: ALIGN target WITH source gives the target the
// source's layout and template but keeps its own extents; the others
// and d itself are unchanged; an unknown source gives nil.
func TestAlignedWith(t *testing.T) {
	src := `      PROGRAM P
      REAL A(100,100), B(50,50), C(10)
!HPF$ DISTRIBUTE A(BLOCK,CYCLIC)
      END
`
	d := FromUnit(parseUnit(t, "p.f", src), 16, "")
	nd := d.AlignedWith("B", "A")
	if nd == nil {
		t.Fatal("AlignedWith(B, A) = nil")
	}
	if got := layoutString(nd.Arrays["B"]); got != "B(BLOCK/4,CYCLIC/4)" || nd.Arrays["B"].Template != "A" {
		t.Errorf("B with A: %s on %s", got, nd.Arrays["B"].Template)
	}
	if e := nd.Arrays["B"].Extents; len(e) != 2 || e[0].Upper != 50 || e[1].Upper != 50 {
		t.Errorf("B's extents %+v, want its own 1:50", e)
	}
	if !d.Arrays["B"].Replicated || nd.Arrays["C"] != d.Arrays["C"] {
		t.Error("AlignedWith changed d or the other arrays")
	}
	if nd := d.AlignedWith("Q", "A"); nd == nil || nd.Arrays["Q"] == nil || nd.Arrays["Q"].Array != "Q" || len(nd.Arrays["Q"].Extents) != 2 {
		t.Errorf("AlignedWith(Q, A) for an array without a layout: %+v", nd)
	}
	if d.AlignedWith("B", "NOPE") != nil {
		t.Error("AlignedWith an unknown source is not nil")
	}
}

// TestWithFormatsCMFAlignedRanks: a candidate of a CM Fortran program
// lays the arrays aligned with the template array (CMF$ ALIGN) on its
// formats, cut to their rank or filled with ":" to it, and an array of
// the same shape in the default layout (aligned with A) on them too.
func TestWithFormatsCMFAlignedRanks(t *testing.T) {
	src := `      PROGRAM P
      REAL A(64,64), B(64), C(64,64,4), D(64,64)
CMF$ ALIGN B WITH A
CMF$ ALIGN C WITH A
      END
`
	u := parseUnit(t, "p.fcm", src)
	d := WithFormats(u, 16, "A", []string{"CYCLIC(2)", "BLOCK"}, "cmf")
	for name, want := range map[string]string{"A": "A(CYCLIC(2)/4,BLOCK/4)", "B": "B(CYCLIC(2)/4)", "C": "C(CYCLIC(2)/4,BLOCK/4,:/1)", "D": "D(CYCLIC(2)/4,BLOCK/4)"} {
		l := d.Arrays[name]
		if l == nil {
			t.Errorf("%s: no layout", name)
			continue
		}
		if got := layoutString(l); got != want || l.Template != "A" {
			t.Errorf("%s: %s on %s, want %s on A", name, got, l.Template, want)
		}
	}
}

// TestFactorThreeWays: p over n dimensions takes, dimension by
// dimension, the largest divisor of what is left not above its n-th
// root: 52 = 4·13 over 3 is 13×2×2 (not 13×4×1), 56 over 4 is 7×2×2×2,
// 66 over 3 is 11×3×2.
func TestFactorThreeWays(t *testing.T) {
	for _, c := range []struct {
		p, n int
		want []int
	}{
		{52, 3, []int{13, 2, 2}}, {56, 4, []int{7, 2, 2, 2}}, {66, 3, []int{11, 3, 2}},
		{64, 3, []int{4, 4, 4}}, {16, 1, []int{16}},
	} {
		if got := factor(c.p, c.n); !reflect.DeepEqual(got, c.want) {
			t.Errorf("factor(%d, %d) = %v, want %v", c.p, c.n, got, c.want)
		}
	}
}

// TestOMPScheduleModifier: an OpenMP 4.5 modifier (monotonic:,
// nonmonotonic:) does not change the schedule's kind: monotonic:dynamic
// is priced as dynamic.
func TestOMPScheduleModifier(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	with := func(sched string) *Estimate {
		return ompEstimate(t, strings.Replace(ompUniform, "!$omp parallel do", "!$omp parallel do schedule("+sched+")", 1), 6, 4, m)
	}
	dyn, mono, static := with("dynamic,4"), with("monotonic:dynamic,4"), with("static,4")
	if ompSeconds(t, mono) != ompSeconds(t, dyn) || ompSeconds(t, dyn) == ompSeconds(t, static) {
		t.Errorf("monotonic:dynamic %g s, dynamic %g s, static %g s", ompSeconds(t, mono), ompSeconds(t, dyn), ompSeconds(t, static))
	}
	if !hasNote(mono, "schedule dynamic,4") || hasNote(mono, "not an OpenMP schedule") {
		t.Errorf("monotonic:dynamic: notes %q", mono.Notes)
	}
}

// TestOMPNumThreadsOne: NUM_THREADS(1) is a team of one: all 1000
// iterations on it, and a fork of 1 thread (1 µs).
func TestOMPNumThreadsOne(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	e := ompEstimate(t, strings.Replace(ompUniform, "!$omp parallel do", "!$omp parallel do num_threads(1)", 1), 6, 16, m)
	if got, want := ompSeconds(t, e), 1000e-6+1e-6; !ompNear(got, want) {
		t.Errorf("%.9g s, want %.9g; notes %q", got, want, e.Notes)
	}
	if !hasNote(e, "makes the team 1 thread") {
		t.Errorf("notes %q", e.Notes)
	}
}

// TestOMPThreadsPastCores: 32 threads on the model's 16 cores are no
// faster than 16: the busiest does a 16th of the 1000 iterations
// (62.5 µs), not ceil(1000/32) = 32 of them; the fork is of 32 threads
// (1 + log2 32 = 6 µs). At 16 threads nothing is said about sharing.
func TestOMPThreadsPastCores(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	e := ompEstimate(t, ompUniform, 6, 32, m)
	if got, want := ompSeconds(t, e), 62.5e-6+6e-6; !ompNear(got, want) {
		t.Errorf("32 threads: %.9g s, want %.9g; notes %q", got, want, e.Notes)
	}
	if !hasNote(e, "32 threads on 16 cores: the threads share the cores") {
		t.Errorf("32 threads: notes %q", e.Notes)
	}
	if e := ompEstimate(t, ompUniform, 6, 16, m); hasNote(e, "share the cores") {
		t.Errorf("16 threads: notes %q", e.Notes)
	}
}

// TestOMPMeasuredRange: figures measured at up to 2 threads are
// extrapolated to 4, not at 2; a model without measurements says its
// figures are defaults.
func TestOMPMeasuredRange(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	if e := ompEstimate(t, ompUniform, 6, 2, m); hasNote(e, "extrapolated") || hasNote(e, "defaults") {
		t.Errorf("2 threads: notes %q", e.Notes)
	}
	if e := ompEstimate(t, ompUniform, 6, 4, m); !hasNote(e, "the shared-memory figures were measured at up to 2 threads; 4 threads is extrapolated from them") {
		t.Errorf("4 threads: notes %q", e.Notes)
	}
	src := `{"name": "omp-test", "provenance": {"source": "test"}, "ops": {"iteration": 1e-6}, "comm": {},
	  "sharedMemory": {"source": "guessed", "cores": 16, "sockets": 1,
	    "fork": {"a": 1e-6, "b": 1e-6, "growth": "log"}, "barrier": {"a": 5e-7, "b": 2.5e-7, "growth": "log"},
	    "reduction": {"a": 1e-7, "b": 1e-7, "growth": "linear"}, "chunk": {"a": 0, "b": 1e-8, "growth": "log"},
	    "coreBandwidth": 1e9, "socketBandwidth": 4e9}}`
	dm, err := machine.LoadMachine(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if e := ompEstimate(t, ompUniform, 6, 4, dm); !hasNote(e, "the shared-memory figures are defaults, not measurements: guessed") || hasNote(e, "extrapolated") {
		t.Errorf("no measurements: notes %q", e.Notes)
	}
}

// TestOMPOrphanAfterRegion: an OpenMP DO after its unit's PARALLEL
// region has closed stands outside it and runs on one thread; the one
// inside it is shared.
func TestOMPOrphanAfterRegion(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	src := `program p
  integer, parameter :: n = 100
  real(8) :: a(n)
  integer :: i
  !$omp parallel
  !$omp do
  do i = 1, n
    a(i) = 1
  end do
  !$omp end do
  !$omp end parallel
  !$omp do
  do i = 1, n
    a(i) = 2
  end do
  !$omp end do
end program p
`
	if e := ompEstimate(t, src, 7, 4, m); hasNote(e, "outside every PARALLEL region") || !ompNear(ompSeconds(t, e), 25e-6+0.5e-6+0.5e-6) {
		t.Errorf("the DO in the region: %.9g s (want 25 iterations and a barrier of 0.5 + 0.25·2 µs), notes %q", ompSeconds(t, e), e.Notes)
	}
	if e := ompEstimate(t, src, 13, 4, m); !hasNote(e, "OpenMP DO at line 13 stands outside every PARALLEL region: it runs on one thread") || !ompNear(ompSeconds(t, e), 100e-6) {
		t.Errorf("the DO after the region: %.9g s, notes %q", ompSeconds(t, e), e.Notes)
	}
}

// TestOMPArrayReduction: each thread adds its private copy of a
// reduction array into the shared one, one load and one store an
// element a thread past the first element: an array of 1000 costs
// (1000 − 10)·4·(10 + 20 ns) more than one of 10 on 4 threads, the loop
// being the same.
func TestOMPArrayReduction(t *testing.T) {
	src := `{"name": "omp-test", "provenance": {"source": "test"}, "ops": {"iteration": 1e-6, "load": 1e-8, "store": 2e-8}, "comm": {},
	  "sharedMemory": {"source": "test", "cores": 16, "sockets": 1, "measured": [1, 2],
	    "fork": {"a": 1e-6, "b": 1e-6, "growth": "log"}, "barrier": {"a": 5e-7, "b": 2.5e-7, "growth": "log"},
	    "reduction": {"a": 1e-7, "b": 1e-7, "growth": "linear"}, "chunk": {"a": 0, "b": 1e-8, "growth": "log"},
	    "coreBandwidth": 1e9, "socketBandwidth": 4e9}}`
	m, err := machine.LoadMachine(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	prog := func(size string) string {
		return `program p
  real(8) :: a(64), h(` + size + `)
  integer :: i
  !$omp parallel do reduction(+:h)
  do i = 1, 64
    h(1) = h(1) + a(i)
  end do
end program p
`
	}
	e10 := ompEstimate(t, prog("10"), 5, 4, m)
	// 10 elements: 0.1 + 0.1·3 µs, and 9·4·30 ns = 1.08 µs.
	if !hasNote(e10, "reduction of H (+, 10 elements) over 4 threads: 1.48 µs per execution") {
		t.Errorf("10 elements: notes %q", e10.Notes)
	}
	small, large := ompSeconds(t, e10), ompSeconds(t, ompEstimate(t, prog("1000"), 5, 4, m))
	if got, want := large-small, 990*4*3e-8; !ompNear(got, want) && math.Abs(got-want) > 1e-15 {
		t.Errorf("1000 elements %.9g s, 10 elements %.9g s: difference %.9g, want %.9g", large, small, got, want)
	}
	// A scalar's reduction is the model's alone: 0.1 + 0.1·3 µs.
	scalar := strings.Replace(strings.Replace(prog("10"), "h(1) = h(1)", "s = s", 1), "h(10)", "h(10), s", 1)
	e := ompEstimate(t, strings.Replace(scalar, "reduction(+:h)", "reduction(+:s)", 1), 5, 4, m)
	if !hasNote(e, "reduction of S (+) over 4 threads: 400 ns") {
		t.Errorf("scalar: notes %q", e.Notes)
	}
}

// TestOMPCoresWords: a one-socket node is described by its cores alone.
func TestOMPCoresWords(t *testing.T) {
	e := ompEstimate(t, ompUniform, 6, 4, ompModel(t, 1e-6, false))
	if !hasNote(e, "on the cores of one shared-memory node (the model's node has 16 cores)") {
		t.Errorf("notes %q", e.Notes)
	}
}

// TestOMPBandwidthInsideLoop: the memory traffic of a loop whose bounds
// depend on an enclosing loop's index is taken at that index's first
// value: K = 1 streams all 10^6 elements of A and B, 16 MB (the
// estimate of the K loop, which knows K's first value).
func TestOMPBandwidthInsideLoop(t *testing.T) {
	m := ompModel(t, 1e-9, true)
	src := `program p
  integer, parameter :: n = 1000000
  real(8) :: a(n), b(n)
  integer :: i, k
  do k = 1, 4
    !$omp parallel do
    do i = k, n
      a(i) = b(i)
    end do
  end do
end program p
`
	e := ompEstimate(t, src, 5, 4, m)
	if !hasNote(e, "memory bandwidth: 16 MB per execution from main memory") || !hasNote(e, "memory-bound") {
		t.Errorf("notes %q", e.Notes)
	}
}

// TestOMPCacheEdge: a loop whose data fills the model's 1 kB cache
// exactly (128 eight-byte elements) runs from the cache, with no
// bandwidth limit; one element more streams from main memory.
func TestOMPCacheEdge(t *testing.T) {
	m := ompModel(t, 1e-9, true)
	src := func(n string) string {
		return `program p
  integer, parameter :: n = ` + n + `
  real(8) :: a(n)
  integer :: i
  !$omp parallel do
  do i = 1, n
    a(i) = 2*a(i)
  end do
end program p
`
	}
	if e := ompEstimate(t, src("128"), 6, 4, m); hasNote(e, "memory bandwidth") {
		t.Errorf("128 elements: notes %q", e.Notes)
	}
	if e := ompEstimate(t, src("129"), 6, 4, m); !hasNote(e, "memory bandwidth") {
		t.Errorf("129 elements: notes %q", e.Notes)
	}
}

// TestOMPStaticHasNoChunks: a static schedule deals no chunks at run
// time, so none is counted or mentioned; a dynamic one counts its
// chunks.
func TestOMPStaticHasNoChunks(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	if e := ompEstimate(t, ompUniform, 6, 4, m); hasNote(e, "chunks on the busiest thread") {
		t.Errorf("static: notes %q", e.Notes)
	}
	dyn := strings.Replace(ompUniform, "!$omp parallel do", "!$omp parallel do schedule(dynamic,10)", 1)
	if e := ompEstimate(t, dyn, 6, 4, m); !hasNote(e, "dynamic schedule: 25 chunks on the busiest thread") {
		t.Errorf("dynamic: notes %q", e.Notes)
	}
}

// TestHybridTeamNotPositive: OMP_NUM_THREADS=0 or a negative value is
// no team: each process runs on the cores of a node, as without it.
func TestHybridTeamNotPositive(t *testing.T) {
	const p = 16
	f, u := parseOne(t, "hyb.f90", hybridSrc)
	m := machine.DefaultMachine()
	sm, _ := m.Shared()
	team := threadsWord(max(sm.Cores, 1))
	for _, v := range []int64{0, -2} {
		e := EstimateLoop(f, u, firstLoop(t, u, 10, f), FromUnit(u, p, f.Dialect), Options{Machine: m, Procs: p, Values: map[string]*big.Rat{"OMP_NUM_THREADS": big.NewRat(v, 1)}})
		if !hasNote(e, "each runs the loop's share on "+team+" (") {
			t.Errorf("OMP_NUM_THREADS=%d: notes %q, want a team of %s", v, e.Notes, team)
		}
		// The note says why the setting was not the team, not that it was.
		if !hasNote(e, fmt.Sprintf("OMP_NUM_THREADS=%d is not a positive integer", v)) || hasNote(e, "(OMP_NUM_THREADS)") {
			t.Errorf("OMP_NUM_THREADS=%d: notes %q, want the setting named as ignored", v, e.Notes)
		}
	}
}

// TestOMPCollapseEight: COLLAPSE(8) of an 8-deep nest of 2 iterations a
// loop shares its 2^8 = 256 innermost iterations among 16 threads: the
// busiest does a 16th of the nest's 2 + 4 + ... + 256 = 510 µs of
// iterations; the fork of 16 threads is 5 µs.
func TestOMPCollapseEight(t *testing.T) {
	m := ompModel(t, 1e-6, false)
	var b strings.Builder
	b.WriteString("program p\n  real(8) :: a(2,2,2,2,2,2,2,2)\n  integer :: i1, i2, i3, i4, i5, i6, i7, i8\n  !$omp parallel do collapse(8)\n")
	for k := 8; k >= 1; k-- {
		b.WriteString(strings.Repeat("  ", 9-k) + "do i" + string(rune('0'+k)) + " = 1, 2\n")
	}
	b.WriteString(strings.Repeat("  ", 9) + "a(i1,i2,i3,i4,i5,i6,i7,i8) = 0\n")
	for k := 1; k <= 8; k++ {
		b.WriteString(strings.Repeat("  ", k) + "end do\n")
	}
	b.WriteString("end program p\n")
	if got, want := ompSeconds(t, ompEstimate(t, b.String(), 5, 16, m)), 510e-6/16+5e-6; !ompNear(got, want) {
		t.Errorf("collapse(8): %.9g s, want %.9g", got, want)
	}
}

// TestCMFAlignRanks: CMF$ ALIGN B WITH A gives B the layout of A's
// first dimensions when B has fewer, and ":" for those past A's rank.
func TestCMFAlignRanks(t *testing.T) {
	src := `      PROGRAM P
      REAL A(64,64), B(64), C(64,64,4)
CMF$ ALIGN B WITH A
CMF$ ALIGN C WITH A
      END
`
	d := FromUnit(parseUnit(t, "p.fcm", src), 16, "cmf")
	for name, want := range map[string]string{"A": "A(BLOCK/4,BLOCK/4)", "B": "B(BLOCK/4)", "C": "C(BLOCK/4,BLOCK/4,:/1)"} {
		if got := layoutString(d.Arrays[name]); got != want || d.Arrays[name].Template != "A" {
			t.Errorf("%s: %s on %s, want %s on A", name, got, d.Arrays[name].Template, want)
		}
	}
}

// TestWithFormatsLeavesOthers: a candidate redistributes the template
// and what is aligned with it; an array aligned with nothing stays
// replicated, one distributed on its own keeps its own formats.
func TestWithFormatsLeavesOthers(t *testing.T) {
	src := `      PROGRAM P
      REAL A(100,100), S(100), G(50)
!HPF$ TEMPLATE T(100,100)
!HPF$ DISTRIBUTE T(BLOCK,BLOCK)
!HPF$ ALIGN A(I,J) WITH T(I,J)
!HPF$ DISTRIBUTE G(CYCLIC)
      END
`
	d := WithFormats(parseUnit(t, "p.f", src), 16, "T", []string{":", "CYCLIC(2)"}, "")
	for name, want := range map[string]string{"T": "T(:/1,CYCLIC(2)/16)", "A": "A(:/1,CYCLIC(2)/16)", "S": "S(:/1)", "G": "G(CYCLIC/16)"} {
		l := d.Arrays[name]
		if l == nil {
			if name != "T" {
				t.Errorf("%s: no layout", name)
			}
			continue
		}
		if got := layoutString(l); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	if !d.Arrays["S"].Replicated || d.Arrays["G"].Template != "G" {
		t.Errorf("S replicated %v, G on %s", d.Arrays["S"].Replicated, d.Arrays["G"].Template)
	}
}

// TestHumanUnits: times in the unit that keeps them between 1 and 1000
// (three significant digits), bytes with decimal SI prefixes up to EB,
// 1000 of a unit being one of the next.
func TestHumanUnits(t *testing.T) {
	for s, want := range map[float64]string{
		0: "0 s", 2.5e-9: "2.5 ns", 999e-9: "999 ns", 1e-6: "1 µs", 2.5e-3: "2.5 ms", 0.999: "999 ms",
		1: "1 s", 12.3: "12.3 s", 76412: "76400 s", -2.5e-3: "-2.5 ms",
	} {
		if got := humanSec(s); got != want {
			t.Errorf("humanSec(%g) = %q, want %q", s, got, want)
		}
	}
	for b, want := range map[float64]string{
		0: "0 B", 999: "999 B", 1000: "1 kB", 1024: "1.02 kB", 16e6: "16 MB", 2.5e9: "2.5 GB",
		1e18: "1 EB", 5e21: "5e+03 EB",
	} {
		if got := humanBytes(b); got != want {
			t.Errorf("humanBytes(%g) = %q, want %q", b, got, want)
		}
	}
}

// TestOMPBandwidthInnerAlone: a triangular OpenMP loop estimated alone,
// whose bounds use the enclosing loop's index, has no numeric footprint;
// the estimate says the bandwidth limit was not applied instead of
// dropping it silently.
func TestOMPBandwidthInnerAlone(t *testing.T) {
	m := ompModel(t, 1e-9, true)
	src := `program p
  integer, parameter :: n = 1000
  real(8) :: a(n,n)
  integer :: i, j
  do j = 1, n
    !$omp parallel do
    do i = j, n
      a(i,j) = 2*a(i,j)
    end do
  end do
end program p
`
	e := ompEstimate(t, src, 7, 4, m)
	if !hasNote(e, "memory bandwidth") {
		t.Errorf("notes %q", e.Notes)
	}
}
