package complexity

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// spanSkipCases are units where the work and the span part in one place
// each (or do not): a parallel loop, DO CONCURRENT, FORALL, WHERE, an
// array assignment, an array right side for a scalar left side, an
// array in an I/O list, the transformational intrinsics, a call of a
// routine whose span is not its work, a pointer assignment, and an
// assumed-shape extent met first where only the work looks.
const spanSkipCases = `subroutine par(a, n)
  integer n
  real a(n)
  !$omp parallel do
  do i = 1, n
    a(i) = 0.0
  end do
end subroutine
subroutine callpar(a, n)
  integer n
  real a(n)
  call par(a, n)
  call par(a, 2*n)
end subroutine
subroutine conc(a, n)
  integer n
  real a(n)
  do concurrent (i = 1:n)
    a(i) = 1.0
  end do
end subroutine
subroutine fa(a, n)
  integer n
  real a(n)
  forall (i = 1:n) a(i) = 2.0
end subroutine
subroutine wh(a, n)
  integer n
  real a(n)
  where (a > 0.0) a = 3.0
end subroutine
subroutine arr(a, b, n)
  integer n
  real a(n), b(n)
  a = b + 1.0
end subroutine
subroutine alloc(b, n)
  integer n
  real b(n)
  real, allocatable :: a(:)
  a = b
end subroutine
subroutine comp(c, b, n)
  use types
  integer n
  real b(n)
  type(t) :: c
  c%v = b
  call xerbla('COMP', n)
end subroutine
subroutine red(b, n, s)
  integer n
  real b(n), s
  s = sum(b)
end subroutine
subroutine dot(a, b, n, s)
  integer n
  real a(n), b(n), s
  s = dot_product(a, b)
end subroutine
subroutine io(b, n)
  integer n
  real b(n)
  write (*, *) b(1:n:2)
end subroutine
subroutine shaped(x, y, s)
  real x(:), y(:), s
  integer k
  s = x(1)
  print *, y
  k = size(x)
  s = s + k
end subroutine
subroutine pt(p, q)
  real, pointer :: p(:), q(:)
  p => q
end subroutine
subroutine scal(a, n, s)
  integer n
  real a(n), s
  s = 0.0
  do i = 1, n
    s = s + a(i) * a(max(i - 1, 1))
  end do
  call xerbla('SCAL', n)
end subroutine
`

// TestSpanPassSkipped: skipping the span pass where the work pass saw
// nothing that would make it differ changes no result: every unit of the
// repository's programs, of the cases above and of the generated
// benchmark file comes out the same as with the span pass always run.
// And the pass is skipped where it has nothing to add.
func TestSpanPassSkipped(t *testing.T) {
	var names []string
	for _, g := range []string{"../examples/*.f*", "../examples/*.hpf", "testdata/*.f*", "../hints/testdata/programs/*.f*", "../hints/testdata/programs/*.hpf"} {
		m, _ := filepath.Glob(g)
		names = append(names, m...)
	}
	files := []*parser.File{
		parser.Parse("cases.f90", []byte(spanSkipCases), nil),
		parser.Parse("gen.f", []byte(complexitySource(3)), nil),
	}
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, parser.Parse(filepath.Base(n), src, nil))
	}
	skipped := map[string]bool{}
	units, spans := 0, 0
	for _, f := range files {
		always := NewEngine(Options{})
		always.analyze = func(f *parser.File, u *parser.Unit, c *CostTable, keep []string, p procTable) *UnitResult {
			r, _ := analyzeUnitSpan(f, u, c, keep, p, true)
			return r
		}
		skipping := NewEngine(Options{})
		skipping.analyze = func(f *parser.File, u *parser.Unit, c *CostTable, keep []string, p procTable) *UnitResult {
			r, ran := analyzeUnitSpan(f, u, c, keep, p, false)
			if !ran && needsSpan(u) {
				skipped[f.Name+" "+u.Name] = true
			}
			return r
		}
		want, got := always.File(f), skipping.File(f)
		if len(want) != len(got) {
			t.Fatalf("%s: %d units, want %d", f.Name, len(got), len(want))
		}
		for i := range want {
			units++
			if want[i].HasSpan {
				spans++
			}
			if w, g := dumpResult(want[i]), dumpResult(got[i]); w != g {
				t.Errorf("%s %s: with the span pass skipped\n%s\nwant\n%s", f.Name, want[i].Unit.Name, g, w)
			}
		}
	}
	if units < 60 || spans < 20 {
		t.Errorf("only %d units, %d with a span", units, spans)
	}
	for _, u := range []string{"gen.f S0", "gen.f S2", "cases.f90 SCAL"} {
		if !skipped[u] {
			t.Errorf("%s: the span pass ran, with nothing to add", u)
		}
	}
	for _, u := range []string{"PAR", "CALLPAR", "CONC", "FA", "WH", "ARR", "ALLOC", "COMP", "RED", "DOT", "IO", "SHAPED", "PT"} {
		if skipped["cases.f90 "+u] {
			t.Errorf("%s: the span pass was skipped", u)
		}
	}
}

// dumpResult prints everything a unit's result says, its statements'
// included.
func dumpResult(r *UnitResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "summary %s count %s when %v pieces %v\n", r.Summary, r.Count, r.When, r.Pieces)
	fmt.Fprintf(&b, "span %s spancount %s has %v\n", r.Span, r.SpanCount, r.HasSpan)
	fmt.Fprintf(&b, "stats %v notes %q calls %q unknowns %q\n", r.Stats, r.Notes, r.Calls, r.Unknowns)
	fmt.Fprintf(&b, "mod %v out %v\n", r.Mod, r.Out)
	var ext []string
	for k, x := range r.Extents {
		ext = append(ext, fmt.Sprintf("%s=%s/%d/%v", k, x.Dummy, x.Dim, x.Host != nil))
	}
	slices.Sort(ext)
	fmt.Fprintf(&b, "extents %q\n", ext)
	for _, s := range r.Statements {
		fmt.Fprintf(&b, "%d %s cost %s count %s when %v pieces %v span %s has %v stats %v notes %q\n",
			s.Stmt.Pos(), s.Kind, s.Cost, s.Count, s.When, s.Pieces, s.Span, s.HasSpan, s.Stats, s.Notes)
	}
	return b.String()
}
