package complexity

import (
	"math/big"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

// checkPieces compares every piece of a count, and the guarded count
// itself, with the reference interpreter at each point.
func checkPieces(t *testing.T, res *UnitResult, src string, points []map[string]int64) int {
	t.Helper()
	u := res.Unit
	m := &unitModel{u: u, f: res.File, sc: u.Scope, cost: AllOne(), keep: map[string]bool{}, res: &UnitResult{}}
	units := map[string]*unitModel{}
	for _, v := range res.File.Units {
		if v.Scope != nil {
			units[v.Name] = &unitModel{u: v, f: res.File, sc: v.Scope, cost: AllOne(), keep: map[string]bool{}, res: &UnitResult{}}
		}
	}
	checked := 0
	for _, pt := range points {
		in := &interp{m: m, units: units}
		vals := map[string]int64{}
		env := map[string]*big.Rat{}
		for k, v := range pt {
			vals[k] = v
			env[k] = big.NewRat(v, 1)
		}
		want := in.list(u.Body, vals)
		got, ok := EvalGuarded(res.Count, env).Value()
		if !ok || got.Cmp(want) != 0 {
			t.Fatalf("at %v: count %v, interpreter %s\n%s", pt, EvalGuarded(res.Count, env), want.RatString(), src)
		}
		// The piece that holds at the point gives the same number.
		found := 0
		pieces := res.Pieces
		if pieces == nil {
			pieces = []Piece{{When: res.When, Cost: res.Summary}}
		}
		for _, p := range pieces {
			holds := true
			for _, c := range p.When {
				holds = holds && c.Holds(env)
			}
			if !holds {
				continue
			}
			found++
			v, ok := EvalGuarded(p.Cost, env).Value()
			if !ok || v.Cmp(want) != 0 {
				t.Fatalf("at %v: piece %s: %s = %v, interpreter %s\n%s", pt, WhenString(p.When, false), p.Cost, EvalGuarded(p.Cost, env), want.RatString(), src)
			}
		}
		if found != 1 && (res.Pieces != nil || res.When != nil) {
			t.Fatalf("at %v: %d pieces hold (want 1): %v when %v\n%s", pt, found, res.Pieces, res.When, src)
		}
		checked++
	}
	return checked
}

func TestSUB2PiecesEqualBruteForce(t *testing.T) {
	src, err := os.ReadFile("../examples/sub2.f")
	if err != nil {
		t.Fatal(err)
	}
	f := parser.Parse("sub2.f", src, nil)
	res := NewEngine(Options{}).File(f)[0]
	var pts []map[string]int64
	for m := int64(1); m <= 200; m++ {
		pts = append(pts, map[string]int64{"M": m})
	}
	checkPieces(t, res, string(src), pts)
	for m, want := range map[int64]int64{20: 14497, 100: 702817} {
		got, _ := EvalGuarded(res.Count, map[string]*big.Rat{"M": big.NewRat(m, 1)}).Value()
		if got.Cmp(big.NewRat(want, 1)) != 0 {
			t.Errorf("M = %d: %s, want %d", m, got.RatString(), want)
		}
	}
	for _, p := range res.Pieces {
		t.Logf("%s: %s", WhenString(p.When, false), p.Cost)
	}
	// The report's convention keeps the report's polynomial.
	pips := NewEngine(Options{Pips: true}).File(f)[0]
	if got := pips.Summary.String(); got != "57/2*M^2 + 195/2*M + 1" {
		t.Errorf("--pips summary %s", got)
	}
}

// TestSectionCountExact: an array assignment over a section has the
// section's number of elements, max(0, ⌊(hi − lo + step)/step⌋) (Fortran
// 2018 9.5.3.3.2), counted here by stepping through the triplet: none
// where X(M:N) has M > N (it was N − M + 1, negative there), ⌈N/2⌉ for
// X(1:N:2) (it was (N + 1)/2 whatever N's parity), the reversed
// X(N:1:-1), and a right side's section of the same shape as the left's.
// Its work is one element's cost times that number, plus the bounds
// paid once: the same cost for each element more, whatever the point.
func TestSectionCountExact(t *testing.T) {
	type triplet struct{ lo, hi, step func(n, m int64) int64 }
	for _, c := range []struct {
		stmt string
		sec  triplet
	}{
		{"x(m:n) = 0.0", triplet{func(n, m int64) int64 { return m }, func(n, m int64) int64 { return n }, func(int64, int64) int64 { return 1 }}},
		{"x(1:n:2) = 0.0", triplet{func(int64, int64) int64 { return 1 }, func(n, m int64) int64 { return n }, func(int64, int64) int64 { return 2 }}},
		{"x(n:1:-1) = y(1:n)", triplet{func(n, m int64) int64 { return n }, func(int64, int64) int64 { return 1 }, func(int64, int64) int64 { return -1 }}},
		{"x(2:n:3) = x(2:n:3) + 1.0", triplet{func(int64, int64) int64 { return 2 }, func(n, m int64) int64 { return n }, func(int64, int64) int64 { return 3 }}},
		// MIN and MAX bounds, summed as a DO loop's are (they were an
		// unknown number of elements).
		{"x(max(m,1):n:2) = 0.0", triplet{func(n, m int64) int64 { return max(m, 1) }, func(n, m int64) int64 { return n }, func(int64, int64) int64 { return 2 }}},
		{"x(max(m,1):min(n,9)) = 1.0", triplet{func(n, m int64) int64 { return max(m, 1) }, func(n, m int64) int64 { return min(n, 9) }, func(int64, int64) int64 { return 1 }}},
		{"x(min(m,n):max(n,3):3) = 0.0", triplet{func(n, m int64) int64 { return min(m, n) }, func(n, m int64) int64 { return max(n, 3) }, func(int64, int64) int64 { return 3 }}},
	} {
		src := "subroutine s(x, y, n, m)\n  integer n, m\n  real x(100), y(100)\n  " + c.stmt + "\nend subroutine\n"
		r := unitsFree(t, src)["S"]
		var st *StmtResult
		for _, s := range r.Statements {
			if s.Kind == "STAT" {
				st = s
			}
		}
		var perElement, base *big.Rat // from the first two points
		var baseElems int64
		for n := int64(0); n <= 12; n++ {
			for m := int64(-3); m <= 14; m++ {
				elems := int64(0)
				lo, hi, step := c.sec.lo(n, m), c.sec.hi(n, m), c.sec.step(n, m)
				for i := lo; step > 0 && i <= hi || step < 0 && i >= hi; i += step {
					elems++
				}
				env := map[string]*big.Rat{"N": big.NewRat(n, 1), "M": big.NewRat(m, 1)}
				if got, ok := EvalGuarded(st.Elements, env).Value(); !ok || got.Cmp(big.NewRat(elems, 1)) != 0 {
					t.Fatalf("%s at N = %d, M = %d: %s elements, want %d", c.stmt, n, m, EvalGuarded(st.Elements, env), elems)
				}
				work, ok := EvalGuarded(st.Count, env).Value()
				if !ok {
					t.Fatalf("%s at N = %d, M = %d: work %s", c.stmt, n, m, EvalGuarded(st.Count, env))
				}
				switch {
				case base == nil:
					base, baseElems = work, elems
				case perElement == nil && elems != baseElems:
					perElement = new(big.Rat).Sub(work, base)
					perElement.Quo(perElement, big.NewRat(elems-baseElems, 1))
				case perElement != nil:
					want := new(big.Rat).Mul(perElement, big.NewRat(elems-baseElems, 1))
					want.Add(want, base)
					if work.Cmp(want) != 0 {
						t.Fatalf("%s at N = %d, M = %d: work %s, want %s (%s an element)", c.stmt, n, m, work.RatString(), want.RatString(), perElement.RatString())
					}
				}
			}
		}
		if perElement == nil || perElement.Sign() <= 0 {
			t.Errorf("%s: %v an element", c.stmt, perElement)
		}
	}
}

// TestWhenStringFixedValue: where a piece's inequalities fix a variable
// ("N = 2"), its congruences on that variable alone say nothing more and
// are not printed; congruences on another variable are.
func TestWhenStringFixedValue(t *testing.T) {
	n, m := Var("N"), Var("M")
	cs := []Cond{
		{G: n, Mod: 2},                  // N even
		{G: n.Sub(Int(2))},              // N >= 2
		{G: n.Sub(Int(2)), Mod: 3},      // N mod 3 = 2
		{G: Int(2).Sub(n)},              // N <= 2
		{G: m, Mod: 2},                  // M even
		{G: n.Sub(m).Add(Int(1)).Neg()}, // M >= N + 1
	}
	if got, want := WhenString(cs, false), "N = 2, M even, M >= N + 1"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestLargePieceRunsTheLoop: the count shown for DO I = M + 1, N − 1 is
// the piece where the loop runs (N ≥ M + 2: 2 an iteration, N − M − 1
// iterations, and the loop's own 4), not the one where it is empty
// (M + 1 ≥ N: the loop's 4 alone), which holds when M and N are both
// equally large; a section X(M+1:N−1) likewise (a store an element, its
// bounds M + 1 and N − 1 once, 4: N − M − 1 + 4); and the unit's summary is the piece where both its
// ranges are non-empty. With one parameter the piece for large values is
// as before (N ≥ 1 for DO I = 1, N: 2 an iteration and the loop's 1).
func TestLargePieceRunsTheLoop(t *testing.T) {
	r := unitsFree(t, `subroutine s(x, n, m)
  integer n, m, i
  real x(1000)
  do i = m+1, n-1
    x(i) = 0.0
  end do
  x(m+1:n-1) = 0.0
  do i = 1, n
    x(i) = 1.0
  end do
end subroutine
`)["S"]
	want := []string{"2*N - 2*M - 2 + 4 for N >= M + 2", "N - M + 3 for N >= M + 2", "2*N + 1 for N >= 1"}
	var got []string
	for _, s := range r.Statements {
		if s.Kind == "DO" || strings.Contains(s.Cost.String(), "M") {
			got = append(got, s.Cost.String()+" for "+WhenString(s.When, false))
		}
	}
	norm := func(p string) string {
		c, err := Parse(strings.SplitN(p, " for ", 2)[0])
		if err != nil {
			t.Fatal(err)
		}
		return c.String() + " for " + strings.SplitN(p, " for ", 2)[1]
	}
	if len(got) != len(want) {
		t.Fatalf("counts %q, want %d", got, len(want))
	}
	for i := range want {
		if got[i] != norm(want[i]) {
			t.Errorf("statement %d: %s, want %s", i+1, got[i], norm(want[i]))
		}
	}
	if w := WhenString(r.When, false); w != "N >= M + 2, N >= 1" {
		t.Errorf("summary %s for %s", r.Summary, WhenString(r.When, false))
	}
}

// TestSectionTooLargeFallsBack: a strided section of seven dimensions,
// each count with its parities, multiplies past the guarded-term budget;
// its count is then the product of each dimension's count with its range
// non-empty, with a note, not TOO_LARGE (as before exact section counts).
func TestSectionTooLargeFallsBack(t *testing.T) {
	r := unitsFree(t, `subroutine s(a, n1, n2, n3, n4, n5, n6, n7, m1, m2, m3)
  integer n1, n2, n3, n4, n5, n6, n7, m1, m2, m3
  real a(100,100,100,100,100,100,100)
  a(m1:n1:2, m2:n2:3, m3:n3:5, 1:n4:7, 2:n5:2, 3:n6:3, m1:n7:4) = 0.0
end subroutine
`)["S"]
	if r.Summary.IsTooLarge() || !strings.Contains(r.Summary.String(), "N1.N2.N3.N4.N5.N6") {
		t.Errorf("summary %s, want the product of the seven counts", r.Summary)
	}
	if !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "a section's ranges assumed non-empty") }) {
		t.Errorf("notes %q", r.Notes)
	}
}

// TestSectionShapeMinMax: a section with MIN and MAX bounds inside an
// expression has the exact number of elements too: SUM over
// X(MAX(M,1):N) costs 2 an element (a load and an add) and 4 once (the
// assignment of T and the bounds), max(0, N − max(M, 1) + 1) elements.
// The count was 2·UNKNOWN_1 + 4.
func TestSectionShapeMinMax(t *testing.T) {
	r := unitsFree(t, "subroutine s(m, n, x, t)\n  integer :: m, n\n  real :: x(*), t\n  t = sum(x(max(m,1):n))\nend subroutine\n")["S"]
	for n := int64(-2); n <= 9; n++ {
		for m := int64(-3); m <= 9; m++ {
			elems := max(0, n-max(m, 1)+1)
			env := map[string]*big.Rat{"N": big.NewRat(n, 1), "M": big.NewRat(m, 1)}
			got, ok := EvalGuarded(r.Count, env).Value()
			if want := big.NewRat(2*elems+4, 1); !ok || got.Cmp(want) != 0 {
				t.Fatalf("N = %d, M = %d: %s, want %s", n, m, EvalGuarded(r.Count, env), want.RatString())
			}
		}
	}
}
