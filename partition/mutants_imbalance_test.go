package partition

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
	"github.com/pfls/pfls/parser"
)

// Tests of imbalance (the busiest processor's share of a loop whose
// bounds follow an enclosing index), written against the mutants of
// imbalance.go that lived (issue 21, docs/mutation-partition.md). Each
// calls imbalance directly for an inner loop on J whose bounds lo, hi
// and step are given, under the outer loop DO K = outer of a program
// declaring A(decl), whose first dimension is distributed as f; the
// expected shares are counted by hand from the block or cyclic owners.

type imbalanceCase struct {
	decl, outer   string // A's dimensions; the outer loop's range
	lo, hi, step  Poly
	body          Poly
	f             DimFormat
	fraction      float64 // the busiest share / all the work; 0 when not ok
	k, root, most []float64
}

// runImbalance returns imbalance's fraction, whether it gave one, and
// the step-by-step shares it recorded (nil when none).
func runImbalance(t *testing.T, decl, outer string, lo, hi, step, body Poly, f DimFormat) (float64, bool, *stepShares) {
	t.Helper()
	src := "      PROGRAM P\n      REAL A(" + decl + ")\n      DO 10 K = " + outer + "\n   10 CONTINUE\n      END\n"
	fl := parser.Parse("p.f", []byte(src), nil)
	if errs := fl.Errors(); len(errs) > 0 {
		t.Fatalf("%s: %v", src, errs)
	}
	u := fl.Units[0]
	var do *parser.DoConstruct
	for _, s := range u.Body {
		if x, ok := s.(*parser.DoConstruct); ok {
			do = x
		}
	}
	if do == nil {
		t.Fatalf("no loop in %s", src)
	}
	e := &est{f: fl, u: u, sc: u.Scope, d: FromUnit(u, f.Procs, ""), opt: Options{Machine: machine.DefaultMachine(), Procs: f.Procs}}
	q, ok := e.imbalance("J", lo, hi, step, body, []loopInfo{{do: do, index: "K"}}, "A", 0, f)
	if !ok {
		return 0, false, e.shares[do]
	}
	v, okV := complexity.Seconds(q)
	if !okV {
		t.Fatalf("fraction %v is not a number", q)
	}
	return v, true, e.shares[do]
}

func kPlus(c int64) Poly { return complexity.Var("K").Add(complexity.Int(c)) }

var (
	one    = complexity.Int(1)
	block4 = DimFormat{Kind: "BLOCK", Procs: 4}
	block2 = DimFormat{Kind: "BLOCK", Procs: 2}
)

// TestImbalanceByHand: shares counted iteration by iteration.
func TestImbalanceByHand(t *testing.T) {
	for _, c := range []struct {
		name string
		imbalanceCase
	}{
		// DO K = 1, 15, 2 / DO J = 1, K on A(16) in blocks of 4: K takes
		// 8 values (1, 3, ..., 15), 64 iterations; processor 0 (1 to 4)
		// has 1 + 3 + 6·4 = 28 of them, the most.
		{"outer step 2", imbalanceCase{decl: "16", outer: "1, 15, 2", lo: one, hi: complexity.Var("K"), step: one, body: one, f: block4,
			fraction: 28.0 / 64, k: []float64{1, 3, 5, 7, 9, 11, 13, 15}}},
		// DO K = 1, 8 / DO J = K, 16, 2: 52 iterations, 16 each on
		// processors 2 and 3 (two at every step), 14 on 1, 6 on 0.
		{"inner step 2", imbalanceCase{decl: "16", outer: "1, 8", lo: complexity.Var("K"), hi: complexity.Int(16), step: complexity.Int(2), body: one, f: block4,
			fraction: 16.0 / 52}},
		// DO K = 1, 9, 2 / DO J = K+4, 8 on A(8) in blocks of 2: steps
		// K = 5, 7, 9 are empty; processor 3 (7, 8) has 4 of the 6
		// iterations. The step's owner (root) is that of position K:
		// 1 → 0, 3 → 1, 5 → 2, 7 → 3, 9 (past the end) → 3.
		{"empty steps", imbalanceCase{decl: "8", outer: "1, 9, 2", lo: kPlus(4), hi: complexity.Int(8), step: one, body: one, f: block4,
			fraction: 4.0 / 6, k: []float64{1, 3, 5, 7, 9}, root: []float64{0, 1, 2, 3, 3}, most: []float64{2, 2, 0, 0, 0}}},
		// A(0:15): position 0 is processor 0's, 12 to 15 processor 3's.
		// DO K = 0, 15 / DO J = K, 15: 136 iterations, processor 3 works
		// at every step: 13·4 + 3 + 2 + 1 = 58 (with a lower bound of 1
		// it would be processor 2 with 46).
		{"lower bound 0", imbalanceCase{decl: "0:15", outer: "0, 15", lo: complexity.Var("K"), hi: complexity.Int(15), step: one, body: one, f: block4,
			fraction: 58.0 / 136}},
		// Weighed iteration by iteration (the body takes J seconds):
		// DO K = 1, 5, 2 / DO J = K, 8 on A(8) in blocks of 4 over 2.
		// K = 1: processor 0 has 1+2+3+4 = 10, processor 1 5+…+8 = 26;
		// K = 3: 7 and 26; K = 5: 0 and 26. The busiest of each step
		// adds up to 78 of 95. The owner of K+2 (3, 5, 7) holds 10, 26,
		// 26.
		{"weighted, outer step 2", imbalanceCase{decl: "8", outer: "1, 5, 2", lo: complexity.Var("K"), hi: complexity.Int(8), step: one, body: complexity.Var("J"), f: block2,
			fraction: 78.0 / 95, k: []float64{1, 3, 5}, most: []float64{26, 26, 26}}},
		// DO K = 1, 2 / DO J = K, 8, 2 weighed: K = 1: 1+3 = 4 against
		// 5+7 = 12; K = 2: 2+4 = 6 against 6+8 = 14: 26 of 36.
		{"weighted, inner step 2", imbalanceCase{decl: "8", outer: "1, 2", lo: complexity.Var("K"), hi: complexity.Int(8), step: complexity.Int(2), body: complexity.Var("J"), f: block2,
			fraction: 26.0 / 36, k: []float64{1, 2}, most: []float64{12, 14}}},
		// Weighed, A(8) in CYCLIC(2) over 2: positions 1, 2, 5, 6 are
		// processor 0's, 3, 4, 7, 8 processor 1's. DO K = 1, 1 /
		// DO J = K, 8, J seconds each: 1+2+5+6 = 14 against 3+4+7+8 =
		// 22.
		{"weighted, cyclic(2)", imbalanceCase{decl: "8", outer: "1, 1", lo: complexity.Var("K"), hi: complexity.Int(8), step: one, body: complexity.Var("J"),
			f: DimFormat{Kind: "CYCLIC", K: 2, Procs: 2}, fraction: 22.0 / 36, most: []float64{22}}},
		// Weighed by K·J: DO K = 2, 3 / DO J = K, 8 on A(8) in blocks
		// of 4. K = 2: 2·(2+3+4) = 18 against 2·(5+…+8) = 52; K = 3:
		// 3·(3+4) = 21 against 78: 130 of 169.
		{"weighted by K and J", imbalanceCase{decl: "8", outer: "2, 3", lo: complexity.Var("K"), hi: complexity.Int(8), step: one, body: complexity.Var("K").Mul(complexity.Var("J")),
			f: block2, fraction: 130.0 / 169, most: []float64{52, 78}}},
		// A(1) on 2 processors: position 1 is processor 0's, 2 (past the
		// end) processor 1's: DO K = 1, 2 / DO J = K, K gives each one.
		{"extent 1", imbalanceCase{decl: "1", outer: "1, 2", lo: complexity.Var("K"), hi: complexity.Var("K"), step: one, body: one, f: block2,
			fraction: 0.5}},
	} {
		got, ok, rec := runImbalance(t, c.decl, c.outer, c.lo, c.hi, c.step, c.body, c.f)
		if !ok || math.Abs(got-c.fraction) > 1e-12 {
			t.Errorf("%s: fraction %v (ok %v), want %v", c.name, got, ok, c.fraction)
			continue
		}
		if rec == nil {
			t.Errorf("%s: no step-by-step shares recorded", c.name)
			continue
		}
		if c.k != nil && !reflect.DeepEqual(rec.k, c.k) {
			t.Errorf("%s: steps at K = %v, want %v", c.name, rec.k, c.k)
		}
		if c.most != nil && !reflect.DeepEqual(rec.most, c.most) {
			t.Errorf("%s: busiest shares %v, want %v", c.name, rec.most, c.most)
		}
		if c.root != nil {
			var root []float64
			for _, r := range rec.root {
				root = append(root, float64(r))
			}
			if !reflect.DeepEqual(root, c.root) {
				t.Errorf("%s: step owners %v, want %v", c.name, root, c.root)
			}
		}
	}
}

// TestImbalanceWeightedOwner: at each step of a weighed walk the share
// of the processor owning the next step's position (K+2 from 1, 3, 5:
// 3, 5, 7 on A(8) in blocks of 4): 10, 26, 26 (as above); and of every
// processor, step by step.
func TestImbalanceWeightedOwner(t *testing.T) {
	_, ok, rec := runImbalance(t, "8", "1, 5, 2", complexity.Var("K"), complexity.Int(8), one, complexity.Var("J"), block2)
	if !ok || rec == nil {
		t.Fatal("no shares")
	}
	if want := []float64{10, 26, 26}; !reflect.DeepEqual(rec.owner, want) {
		t.Errorf("next owner's shares %v, want %v", rec.owner, want)
	}
	if want := []float64{36, 33, 26}; !reflect.DeepEqual(rec.all, want) {
		t.Errorf("work per step %v, want %v", rec.all, want)
	}
	buf := make([]float64, 2)
	var got [][]float64
	for i := range rec.k {
		got = append(got, append([]float64(nil), rec.shareAt(i, buf)...))
	}
	if want := [][]float64{{10, 26}, {7, 26}, {0, 26}}; !reflect.DeepEqual(got, want) {
		t.Errorf("shares %v, want %v", got, want)
	}
}

// TestImbalanceShareAtCounted: shares kept as counts (the body's time
// not depending on J) are recounted by shareAt from the record's block:
// DO K = 1, 2 / DO J = K, 16 on A(16) in blocks of 4, one second an
// iteration: K = 1 gives 4 to each processor, K = 2 3, 4, 4, 4.
func TestImbalanceShareAtCounted(t *testing.T) {
	_, ok, rec := runImbalance(t, "16", "1, 2", complexity.Var("K"), complexity.Int(16), one, one, block4)
	if !ok || rec == nil {
		t.Fatal("no shares")
	}
	buf := make([]float64, 4)
	var got []string
	for i := range rec.k {
		got = append(got, fmt.Sprint(rec.shareAt(i, buf)))
	}
	if want := []string{"[4 4 4 4]", "[3 4 4 4]"}; !reflect.DeepEqual(got, want) {
		t.Errorf("shares %v, want %v", got, want)
	}
}

// TestImbalanceLimits: the walk's bounds are inclusive: 100,000 steps
// of the enclosing loop, an extent and bound values of 10^15, 65,536
// processors; one more gives no fraction (the caller's closed form then),
// nor does a loop empty at every step.
func TestImbalanceLimits(t *testing.T) {
	k := complexity.Var("K")
	for _, c := range []struct {
		name, decl, outer string
		hi                Poly
		f                 DimFormat
		ok                bool
		fraction          float64
	}{
		// J = K, K on A(4) in blocks of 2: positions 1 and 2 are
		// processor 0's, 3 to 100,000 processor 1's.
		{"100000 steps", "4", "1, 100000", k, block2, true, 99998.0 / 100000},
		{"100001 steps", "4", "1, 100001", k, block2, false, 0},
		// J = K, 10^15 on A(10^15) in blocks of 2.5·10^14: processor 3
		// holds the last 2.5·10^14 of each step's.
		{"extent 1e15", "1000000000000000", "1, 2", complexity.Int(1e15), block4, true, 5e14 / (2e15 - 1)},
		{"extent past 1e15", "1000000000000001", "1, 2", complexity.Int(1e15), block4, false, 0},
		{"bound past 1e15", "1000000000000000", "1, 2", complexity.Int(1e15 + 1), block4, false, 0},
		// J = K, K on 65,536 processors: each step's one iteration is the
		// busiest share.
		{"65536 processors", "4", "1, 2", k, DimFormat{Kind: "BLOCK", Procs: MaxProcs}, true, 0.5},
		{"65537 processors", "4", "1, 2", k, DimFormat{Kind: "BLOCK", Procs: MaxProcs + 1}, false, 0},
		// J = K, 0 is empty at every step: no work, no share.
		{"no work", "4", "1, 2", complexity.Int(0), block2, false, 0},
	} {
		got, ok, _ := runImbalance(t, c.decl, c.outer, k, c.hi, one, one, c.f)
		if ok != c.ok || ok && math.Abs(got-c.fraction) > 1e-12 {
			t.Errorf("%s: fraction %v (ok %v), want %v (ok %v)", c.name, got, ok, c.fraction, c.ok)
		}
	}
}

// TestImbalanceWeighedBudget: one step of 2^22 iterations (the budget
// exactly) is still weighed one by one: the body taking J seconds, the
// second half of A(2^22) holds 3/4 of the work, not the half that
// counting iterations gives.
func TestImbalanceWeighedBudget(t *testing.T) {
	const n = 1 << 22
	got, ok, _ := runImbalance(t, fmt.Sprint(n), "1, 1", complexity.Var("K"), complexity.Int(n), one, complexity.Var("J"), block2)
	m := float64(n / 2)
	total := float64(n) * (n + 1) / 2
	if want := (total - m*(m+1)/2) / total; !ok || math.Abs(got-want) > 1e-9 {
		t.Errorf("fraction %v (ok %v), want %v", got, ok, want)
	}
}

// TestImbalanceKeptShares: every processor's share of every weighed step
// is kept up to 2^22 values: 64 steps on 65,536 processors exactly,
// not 65.
func TestImbalanceKeptShares(t *testing.T) {
	f := DimFormat{Kind: "BLOCK", Procs: MaxProcs}
	for _, c := range []struct {
		outer string
		kept  int
	}{{"1, 64", 64}, {"1, 65", 0}} {
		_, ok, rec := runImbalance(t, "4", c.outer, complexity.Var("K"), complexity.Var("K"), one, complexity.Var("J"), f)
		if !ok || rec == nil {
			t.Fatalf("%s: no shares", c.outer)
		}
		if len(rec.procs) != c.kept {
			t.Errorf("DO K = %s on %d processors: %d steps' shares kept, want %d", c.outer, MaxProcs, len(rec.procs), c.kept)
		}
	}
}
