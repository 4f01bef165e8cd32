package complexity

import (
	"fmt"
	"math/big"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/pfls/pfls/parser"
)

// Hostile inputs, one test per family: each must give an explicit answer
// (a value, or TOO_LARGE / UNBOUNDED with a note) quickly. A test that
// regresses hangs or exhausts memory instead of failing politely, which
// `go test -timeout` still reports.

// analyseOne returns the result of the first unit of src.
func analyseOne(t *testing.T, src string) *UnitResult {
	t.Helper()
	f := parser.Parse("h.f", []byte(src), nil)
	rs := NewEngine(Options{}).File(f)
	if len(rs) == 0 {
		t.Fatalf("no unit in\n%s", src)
	}
	return rs[0]
}

func hasNote(notes []string, sub string) bool {
	for _, n := range notes {
		if strings.Contains(n, sub) {
			return true
		}
	}
	return false
}

func TestParameterCycle(t *testing.T) {
	src := "      SUBROUTINE P\n      PARAMETER (K = J + 1)\n      PARAMETER (J = K + 1)\n" +
		"      DO 10 I = 1, K\n      X = X + 1.0\n   10 CONTINUE\n      END\n"
	r := analyseOne(t, src)
	if !hasNote(r.Notes, "PARAMETER K is defined in terms of itself (K → J → K)") {
		t.Errorf("notes %q do not name the cycle", r.Notes)
	}
	unknown := false
	for _, v := range r.Summary.Vars() {
		unknown = unknown || isUnknown(v)
	}
	if !unknown {
		t.Errorf("a loop bounded by a cyclic PARAMETER costs %s, want it in an unknown", r.Summary)
	}
	// A PARAMETER defined by itself.
	r = analyseOne(t, strings.Replace(src, "J + 1", "K * 2", 1))
	if !hasNote(r.Notes, "PARAMETER K is defined in terms of itself (K → K)") {
		t.Errorf("notes %q", r.Notes)
	}
}

// TestParameterChain: K(i+1) = K(i) + K(i) is evaluated once per
// PARAMETER (unmemoized, 200 lines would take 2²⁰⁰ steps), exactly, past
// the range of int64.
func TestParameterChain(t *testing.T) {
	r := analyseOne(t, paramChain(200))
	// 2²⁰⁰ iterations of X = X + 1.0 at 3 each.
	want := Int(3).Mul(Rat(new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 200))))
	if !r.Summary.Equal(want) {
		t.Errorf("chain of 200: %s, want %s", r.Summary, want)
	}
	// Integer PARAMETER arithmetic truncates, as in Fortran.
	r = analyseOne(t, "      SUBROUTINE Q\n      PARAMETER (K = 7/2, L = 2**K - 1)\n      DO 10 I = 1, L\n      X = X + 1.0\n   10 CONTINUE\n      END\n")
	if got := r.Summary.String(); got != "21" {
		t.Errorf("K = 7/2, L = 2**K - 1 gives %s, want 21 (7 iterations)", got)
	}
	// K(i+1) = K(i)·K(i): 2^(2^i), a number of 2^i bits, stops at the
	// coefficient budget.
	sq := strings.ReplaceAll(paramChain(40), "+ K", "* K")
	sq = strings.Replace(sq, "K0 = 1)", "K0 = 2)", 1)
	r = analyseOne(t, sq)
	if !r.Summary.IsTooLarge() || !hasNote(r.Notes, "65536-bit coefficients") {
		t.Errorf("squaring chain: %.40s, notes %q", r.Summary, r.Notes)
	}
	// Past MaxParamDepth: a note, no crash.
	r = analyseOne(t, paramChain(MaxParamDepth+10))
	if !hasNote(r.Notes, "PARAMETERs defined in terms of each other more than") {
		t.Errorf("notes %q", r.Notes)
	}
}

func TestEndlessLoop(t *testing.T) {
	r := analyseOne(t, "      SUBROUTINE E\n   10 X = X + 1\n      GOTO 10\n      END\n")
	if !r.Summary.Has(Unbounded) || !hasNote(r.Notes, "does not terminate: the jumps from line 2 on") {
		t.Errorf("endless loop: %s, notes %q", r.Summary, r.Notes)
	}
	// An IF that never holds does not leave either.
	r = analyseOne(t, "      SUBROUTINE E\n   10 X = X + 1\n      IF (1 .GT. 2) GOTO 20\n      GOTO 10\n   20 CONTINUE\n      END\n")
	if !r.Summary.Has(Unbounded) {
		t.Errorf("loop left by an IF that never holds: %s", r.Summary)
	}
	// A loop left from inside an IF block (as LAPACK's dsbgst does) is
	// not endless: the block is taken to leave with probability 1/2.
	// g(10) = 1 + 3 + g(IF block), IF block: 1 + 1/2·(… + 1/2 exit) …:
	// the visits of the loop are 2, so 2·(3 + cost of the block) + 1.
	src := "      SUBROUTINE L(N)\n      I = 0\n   10 I = I + 1\n      IF (I .GT. N) THEN\n         GOTO 20\n      END IF\n      GOTO 10\n   20 CONTINUE\n      END\n"
	r = analyseOne(t, src)
	if r.Summary.Has(Unbounded) || !hasNote(r.Notes, "left from inside the statement at line 4") {
		t.Errorf("loop left from an IF block: %s, notes %q", r.Summary, r.Notes)
	}
}

// TestKnotOfJumps: a knot of 200 random jumps is solved exactly (the
// same answer as dense elimination of the whole system); one of 400 is
// refused as too large, quickly.
func TestKnotOfJumps(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a 400-statement knot")
	}
	r := analyseOne(t, spaghetti(400, 1))
	if !r.Summary.IsTooLarge() || !hasNote(r.Notes, "too large to analyse (jumps too intricate") {
		t.Errorf("knot of 400: %.80s, notes %q", r.Summary, r.Notes)
	}
	// Inside a loop, the loop says that a part of it is too large, and
	// only the knot's own reason is given.
	knot := strings.Replace(strings.Replace(spaghetti(400, 1), "      SUBROUTINE S(Y)\n", "      SUBROUTINE S(Y, N)\n      DO 9999 K = 1, N\n", 1), "      END\n", " 9999 CONTINUE\n      END\n", 1)
	r = analyseOne(t, knot)
	do := r.Statements[0]
	if !r.Summary.IsTooLarge() || !hasNote(do.Notes, "a part of it is too large") || hasNote(r.Notes, "a polynomial past") {
		t.Errorf("knot in a loop: %.40s, loop notes %q, unit notes %q", r.Summary, do.Notes, r.Notes)
	}
	r = analyseOne(t, gotoLoops(400))
	if got := r.Summary.String(); got != "2800" {
		t.Errorf("400 nested GOTO loops: %s, want 2800", got)
	}
}

// TestExpectedCostMatchesDense compares the sparse component-wise solver
// with dense Gaussian elimination on random systems, some with nodes
// node 0 cannot reach.
func TestExpectedCostMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.Intn(12)
		p := make([][]*big.Rat, n)
		c := make([]Poly, n)
		for i := range p {
			p[i] = make([]*big.Rat, n)
			k := 1 + rng.Intn(4)
			// k targets, each 1/(k+1); the rest leaves.
			for range k {
				j := rng.Intn(n)
				if p[i][j] == nil {
					p[i][j] = new(big.Rat)
				}
				p[i][j].Add(p[i][j], big.NewRat(1, int64(k+1)))
			}
			c[i] = Int(int64(rng.Intn(5))).Add(Var(string(rune('A' + rng.Intn(3)))).Scale(big.NewRat(int64(rng.Intn(3)), 1)))
		}
		got, err := expectedCost(p, c, nil)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		g, err := SolveLinear(p, c)
		if err != nil {
			t.Fatalf("trial %d: dense: %v", trial, err)
		}
		if !got.Equal(g[0]) {
			t.Fatalf("trial %d: sparse %s, dense %s", trial, got, g[0])
		}
	}
}

func TestBudgetPolynomials(t *testing.T) {
	n := Var("N")
	if p, _ := n.Pow(1000000); !p.IsTooLarge() {
		t.Errorf("N^1000000 = %.40s", p)
	}
	if p, _ := n.Pow(MaxDegree); p.IsTooLarge() {
		t.Errorf("N^%d is within the budget", MaxDegree)
	}
	if p, _ := n.Add(Int(1)).Pow(MaxDegree + 1); !p.IsTooLarge() {
		t.Errorf("(N+1)^%d = %.40s", MaxDegree+1, p)
	}
	if p, _ := Int(10).Pow(100000); !p.IsTooLarge() {
		t.Errorf("10^100000 has a %d-bit coefficient", p.terms[0].coef.bits())
	}
	// Two polynomials of 600 terms: 360,000 products, past MaxProducts.
	a, b := Zero(), Zero()
	for i := range 600 {
		a = a.Add(Var("A").Mul(mustPow(Var("X"), i%30)).Mul(mustPow(Var("Y"), i/30)))
		b = b.Add(Var("B").Mul(mustPow(Var("Z"), i%30)).Mul(mustPow(Var("W"), i/30)))
	}
	if a.Len() != 600 || !a.Mul(b).IsTooLarge() {
		t.Errorf("product of %d and %d terms: %.40s", a.Len(), b.Len(), a.Mul(b))
	}
	// TooLarge absorbs.
	tl := Var(TooLarge)
	for _, p := range []Poly{tl.Add(n), n.Sub(tl), tl.Mul(n), tl.Neg(), tl.Scale(big.NewRat(3, 2))} {
		if !p.IsTooLarge() {
			t.Errorf("%s is not TOO_LARGE", p)
		}
	}
	if s, _ := n.Mul(n).Subst("N", tl); !s.IsTooLarge() {
		t.Errorf("N² at N = TOO_LARGE: %s", s)
	}
	// Eval keeps a factor whose value would be too large.
	huge := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(10000), nil))
	if got := mustPow(n, 60).Eval(map[string]*big.Rat{"N": huge}); !got.Equal(mustPow(n, 60)) {
		t.Errorf("N^60 at N = 10^10000: %.40s", got)
	}
}

func mustPow(p Poly, k int) Poly {
	r, ok := p.Pow(k)
	if !ok {
		panic("pow")
	}
	return r
}

func TestBudgetProgram(t *testing.T) {
	r := analyseOne(t, hugePower(1000000))
	if !r.Summary.IsTooLarge() || !hasNote(r.Notes, "too large to analyse (a polynomial past degree 64") {
		t.Errorf("N**1000000: %s, notes %q", r.Summary, r.Notes)
	}
	if got := r.Summary.Eval(map[string]*big.Rat{"N": new(big.Rat).SetFloat64(1e100)}); !got.IsTooLarge() {
		t.Errorf("evaluated: %.40s", got)
	}
	r = analyseOne(t, nestedDo(10000))
	if !r.Summary.IsTooLarge() || !hasNote(r.Notes, "constructs nested deeper than 100 levels") {
		t.Errorf("10,000 nested DOs: %s, notes %q", r.Summary, r.Notes)
	}
	// The statement that went past the budget says so, and the loops
	// around it say that a part of them did.
	var own, part int
	for _, s := range r.Statements {
		switch {
		case hasNote(s.Notes, "a part of it is too large"):
			part++
		case hasNote(s.Notes, "too large to analyse"):
			own++
		}
	}
	if own == 0 || part == 0 {
		t.Errorf("statement notes: %d too large, %d holding a part too large", own, part)
	}
	// 50 nested loops are within every budget: 3·N⁵⁰ + N⁴⁹ + ... exactly.
	r = analyseOne(t, nestedDo(50))
	if r.Summary.IsTooLarge() || r.Summary.TotalDegree() != 50 {
		t.Errorf("50 nested DOs: %.60s", r.Summary)
	}
}

// TestHugeLiterals: literals whose exact values would have millions of
// digits stand for TOO_LARGE at once.
func TestHugeLiterals(t *testing.T) {
	for _, bound := range []string{"1" + strings.Repeat("0", 400), "1E100000000", "1.5D+99999999", "2E-400000"} {
		src := "subroutine h\nj = " + bound + "\ndo i = 1, j\nx = x + 1.0\nend do\nend\n"
		f := parser.Parse("h.f90", []byte(src), nil)
		r := NewEngine(Options{}).File(f)[0]
		if !r.Summary.IsTooLarge() {
			t.Errorf("bound %.20s: %.60s", bound, r.Summary)
		}
	}
	for _, ok := range []string{"1E300", "12345678901234567890", "1.0D0", "3_8"} {
		if literalTooLarge(ok) {
			t.Errorf("%s is within the budget", ok)
		}
	}
}

// TestCallChain: routines each calling the next, past MaxCallDepth, do
// not exhaust the stack; the calls past the depth cost TOO_LARGE with a
// note, and the routines near the end of the chain keep exact costs.
func TestCallChain(t *testing.T) {
	n := MaxCallDepth + 200
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "      SUBROUTINE C%d(N)\n      X = X + 1.0\n", i)
		if i+1 < n {
			fmt.Fprintf(&b, "      CALL C%d(N)\n", i+1)
		}
		b.WriteString("      END\n")
	}
	f := parser.Parse("chain.f", []byte(b.String()), nil)
	rs := NewEngine(Options{}).File(f)
	if len(rs) != n {
		t.Fatalf("%d results", len(rs))
	}
	if !rs[0].Summary.IsTooLarge() || !hasNote(rs[MaxCallDepth-1].Notes, "calls nested deeper than") {
		t.Errorf("head of the chain: %s; notes of C%d: %q", rs[0].Summary, MaxCallDepth-1, rs[MaxCallDepth-1].Notes)
	}
	// C(n-1) costs 3; each caller adds its statement (3), and its CALL
	// the callee's summary alone (report §4.4.2, DESIGN §5: no charge for
	// the argument): 10 routines of 3.
	if got := rs[n-10].Summary.String(); got != "30" {
		t.Errorf("C%d = %s, want 30", n-10, got)
	}
}

func BenchmarkHostile(b *testing.B) {
	for _, c := range []struct{ name, src string }{
		{"knot-200", spaghetti(200, 1)},
		{"knot-400", spaghetti(400, 1)},
		{"goto-loops-400", gotoLoops(400)},
		{"param-chain-200", paramChain(200)},
		{"nested-do-10000", nestedDo(10000)},
		{"power-1000000", hugePower(1000000)},
	} {
		f := parser.Parse("h.f", []byte(c.src), nil)
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				NewEngine(Options{}).File(f)
			}
		})
	}
}

// TestExactCountBudget: an exact (piecewise) count that goes past the
// budgets is TOO_LARGE as a whole, with the budget's note, not a
// piecewise count with a TOO_LARGE piece beside exact ones.
func TestExactCountBudget(t *testing.T) {
	r := analyseOne(t, "      SUBROUTINE D(N)\n      DO 10 I = 1, N**40\n      DO 10 J = 1, N**30\n      X = X + 1.0\n   10 CONTINUE\n      END\n")
	if !r.Summary.IsTooLarge() || len(r.Pieces) != 0 || !hasNote(r.Notes, "too large to analyse (a polynomial past degree 64") {
		t.Errorf("N^40 · N^30 iterations: %s, pieces %v, notes %q", r.Summary, r.Pieces, r.Notes)
	}
	if do := r.Statements[1]; do.Cost.IsTooLarge() {
		t.Errorf("the inner loop alone is within the budgets: %s", do.Cost)
	}
}

// TestReadThroughImpliedDo: a READ defines the variables among the items
// of its implied DOs (Fortran 2018 12.6.3), and every data transfer its
// implied DOs' indices: K read there is no longer the 5 assigned before,
// and M is past the end of its implied DO, no longer 2. With K = 5 the
// first loop would cost 5·5 + 1 = 26 (all-one: X(I) + 1 is a load, an
// addition and a store, 3, with the subscript and the loop's 2; its own
// 1); read, it is 5·K + 1 with K an unknown. The same for the loop to M.
func TestReadThroughImpliedDo(t *testing.T) {
	r := analyseOne(t, `      SUBROUTINE S(X)
      REAL X(100)
      INTEGER K, M, I, B(3)
      K = 5
      M = 2
      READ (*, *) (K, B(M), M = 1, 3)
      DO 10 I = 1, K
         X(I) = X(I) + 1.0
   10 CONTINUE
      WRITE (*, *) (B(M), M = 1, 3)
      DO 20 I = 1, M
         X(I) = X(I) + 1.0
   20 CONTINUE
      END
`)
	var loops []string
	for _, s := range r.Statements {
		if s.Kind == "DO" {
			loops = append(loops, s.Cost.String())
		}
	}
	if len(loops) != 2 {
		t.Fatalf("loops %q, want two", loops)
	}
	for i, c := range loops {
		if !strings.Contains(c, "UNKNOWN_") || c == "26" {
			t.Errorf("loop %d costs %s: the bound read or changed by the I/O statement is still taken as known", i+1, c)
		}
	}
}

// TestHugeConstantStep: a section or DO loop whose constant step is ten
// million is counted at once: the exact count gives up past 64 residues
// of the step, which it used to list one by one first (seconds for a
// million, minutes for ten million). The count left is the rational one,
// (N − 1 + 10⁷)/10⁷ elements of X(1:N:10000000).
func TestHugeConstantStep(t *testing.T) {
	done := make(chan *UnitResult, 1)
	go func() {
		done <- analyseOne(t, `      SUBROUTINE S(X, N)
      INTEGER N, I
      REAL X(*)
      X(1:N:10000000) = 0.0
      DO 10 I = 1, N, 10000000
         X(I) = 1.0
   10 CONTINUE
      END
`)
	}()
	select {
	case r := <-done:
		want := Var("N").Add(Int(9999999)).Scale(big.NewRat(1, 10000000))
		if got := r.Statements[0].Elements; !got.Equal(want) {
			t.Errorf("X(1:N:10000000) has %s elements, want %s", got, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a step of ten million still lists its residues")
	}
}

// TestReadDefinesSpecifiers: a namelist READ defines its group's
// variables, by NML= or second in the list, and IOSTAT= (any data
// transfer's), SIZE= and an INQUIRE's NUMBER= define theirs (Fortran 2018
// 12.6.3, 12.11.5, 12.10.2): each loop bound set to 100 before and
// defined by the I/O statement is no longer 100, so the loop no longer
// costs 100·2 + 1 = 201 (X(I) = 0.0 is a store and a subscript, 2; the
// loop's 1).
func TestReadDefinesSpecifiers(t *testing.T) {
	for _, io := range []string{
		"READ (5, NML=P)",
		"READ (5, P)",
		"READ (UNIT=5, NML=P, IOSTAT=K)",
		"READ (5, *, IOSTAT=N) X(1)",
		"WRITE (6, *, IOSTAT=N) X(1)",
		"READ (5, '(A)', ADVANCE='NO', SIZE=N) C",
		"INQUIRE (FILE='A.DAT', NUMBER=N)",
	} {
		r := analyseOne(t, `      SUBROUTINE S(X)
      REAL X(100)
      INTEGER N, I, K
      CHARACTER*80 C
      NAMELIST /P/ N
      N = 100
      `+io+`
      DO 10 I = 1, N
         X(I) = 0.0
   10 CONTINUE
      END
`)
		for _, s := range r.Statements {
			if s.Kind == "DO" && (s.Cost.String() == "201" || !strings.Contains(s.Cost.String(), "UNKNOWN_")) {
				t.Errorf("after %s the loop costs %s: N is still taken as 100", io, s.Cost)
			}
		}
	}
}
