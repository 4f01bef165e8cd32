package complexity

import (
	"math/big"
	"math/rand"
	"sync"
	"testing"
)

func TestBernoulli(t *testing.T) {
	faulhaber(12)
	faulhaberCache.Lock()
	b := bernoulliLocked(12)
	faulhaberCache.Unlock()
	for m, want := range map[int]*big.Rat{
		0: big.NewRat(1, 1), 1: big.NewRat(-1, 2), 2: big.NewRat(1, 6), 3: new(big.Rat),
		4: big.NewRat(-1, 30), 6: big.NewRat(1, 42), 8: big.NewRat(-1, 30),
		10: big.NewRat(5, 66), 11: new(big.Rat), 12: big.NewRat(-691, 2730),
	} {
		if b[m].Cmp(want) != 0 {
			t.Errorf("B_%d = %v, want %v", m, b[m], want)
		}
	}
}

func TestFaulhaber(t *testing.T) {
	for k := 0; k <= 16; k++ {
		coef := faulhaber(k)
		if len(coef) != k+2 {
			t.Fatalf("S_%d has %d coefficients", k, len(coef))
		}
		sum := new(big.Rat)
		for n := int64(1); n <= 12; n++ {
			sum.Add(sum, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(n), big.NewInt(int64(k)), nil)))
			got := new(big.Rat)
			for j := len(coef) - 1; j >= 0; j-- {
				got.Mul(got, big.NewRat(n, 1))
				got.Add(got, coef[j])
			}
			if got.Cmp(sum) != 0 {
				t.Fatalf("S_%d(%d) = %v, want %v", k, n, got, sum)
			}
		}
	}
}

// The SUB2 example of the report, section 5: every loop of the listing
// and the routine summary, computed bottom-up as PIPS does.
func TestSUB2(t *testing.T) {
	sum := func(body, idx, lo, hi string) Poly {
		t.Helper()
		p, ok := Sum(MustParse(body), idx, MustParse(lo), MustParse(hi))
		if !ok {
			t.Fatalf("Sum(%s, %s, %s, %s) failed", body, idx, lo, hi)
		}
		return p
	}
	subst := func(p Poly, x, q string) Poly {
		t.Helper()
		r, ok := p.Subst(x, MustParse(q))
		if !ok {
			t.Fatalf("Subst failed")
		}
		return r
	}
	check := func(p Poly, want string) {
		t.Helper()
		if got := p.String(); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	// DO 30 K = JJ+2, M+10 with two statements of cost 3: bounds cost 2+2.
	loop30 := subst(sum("6", "K", "JJ + 2", "M + 10").Add(Int(4)), "JJ", "I + J - 2")
	check(loop30, "-6*I - 6*J + 6*M + 70")
	// DO 20 J = II, M+2 around JJ = I+J-2 (cost 5): bounds cost 1+2.
	loop20 := subst(sum(Int(5).Add(loop30).String(), "J", "II", "M + 2").Add(Int(3)), "II", "I + 1")
	check(loop20, "9*I^2 - 12*I.M + 3*M^2 - 84*I + 72*M + 135")
	// DO 10 I = 1, M around II = I+1 (cost 3): bounds cost 0+1.
	loop10 := sum(Int(3).Add(loop20).String(), "I", "1", "M").Add(Int(1))
	check(loop10, "57/2*M^2 + 195/2*M + 1")
	if got := value(t, loop10, map[string]*big.Rat{"M": big.NewRat(10, 1)}); got.Cmp(big.NewRat(3826, 1)) != 0 {
		t.Errorf("SUB2(M=10) = %v, want 3826", got)
	}
}

func TestSumExamples(t *testing.T) {
	for _, c := range []struct{ body, idx, lo, hi, want string }{
		{"1", "I", "1", "N", "N"},
		{"I", "I", "1", "N", "1/2*N^2 + 1/2*N"},
		{"I^2", "I", "1", "N", "1/3*N^3 + 1/2*N^2 + 1/6*N"},
		{"I^3", "I", "1", "N", "1/4*N^4 + 1/2*N^3 + 1/4*N^2"},
		{"7", "I", "3", "2", "0"},
		{"7", "I", "10", "1", "0"},
		{"I", "I", "10", "1", "0"},
		{"I", "I", "1", "10", "55"},
		{"J", "I", "1", "N", "J.N"},
		{"I.LPRNT^-1", "I", "1", "N", "1/2*LPRNT^-1.N^2 + 1/2*LPRNT^-1.N"},
		{"1", "I", "1", "N.LPRNT^-1", "LPRNT^-1.N"},
		// The lower bound refers to the I outside the loop.
		{"1", "I", "I + 1", "N", "-I + N"},
		{"I", "I", "I + 1", "N", "-1/2*I^2 + 1/2*N^2 - 1/2*I + 1/2*N"},
	} {
		got, ok := Sum(MustParse(c.body), c.idx, MustParse(c.lo), MustParse(c.hi))
		if !ok || got.String() != c.want {
			t.Errorf("Sum(%s, %s=%s..%s) = %v, %v; want %s", c.body, c.idx, c.lo, c.hi, got, ok, c.want)
		}
	}
	if _, ok := Sum(MustParse("I^-1 + 1"), "I", Int(1), Var("N")); ok {
		t.Errorf("Sum of a body with a negative power of the index succeeded")
	}
}

// randBody returns a random polynomial in idx (exponents 0 to 4) and in N
// and M (exponents -1 to 2).
func randBody(rng *rand.Rand, idx string) Poly {
	var ts []Term
	for k := rng.Intn(6); k > 0; k-- {
		ts = append(ts, Term{Coef: randRat(rng), Factors: []Factor{
			{idx, rng.Intn(5)}, {"N", rng.Intn(4) - 1}, {"M", rng.Intn(4) - 1},
		}})
	}
	return FromTerms(ts)
}

// randLinear returns a + b·N + c·M with small random integers.
func randLinear(rng *rand.Rand) Poly {
	return Int(int64(rng.Intn(11) - 5)).
		Add(Var("N").Mul(Int(int64(rng.Intn(5) - 2)))).
		Add(Var("M").Mul(Int(int64(rng.Intn(5) - 2))))
}

func randNonzero(rng *rand.Rand, n int) int64 {
	for {
		if v := int64(rng.Intn(2*n+1) - n); v != 0 {
			return v
		}
	}
}

// bruteSum adds body over idx = lo, lo+step, … while not past hi.
func bruteSum(t *testing.T, body Poly, idx string, env map[string]*big.Rat, lo, hi, step int64) *big.Rat {
	t.Helper()
	sum := new(big.Rat)
	e := map[string]*big.Rat{}
	for k, v := range env {
		e[k] = v
	}
	for i := lo; step > 0 && i <= hi || step < 0 && i >= hi; i += step {
		e[idx] = big.NewRat(i, 1)
		sum.Add(sum, value(t, body, e))
	}
	return sum
}

func intValue(t *testing.T, p Poly, env map[string]*big.Rat) int64 {
	t.Helper()
	v := value(t, p, env)
	if !v.IsInt() {
		t.Fatalf("%v is not an integer under %v", p, env)
	}
	return v.Num().Int64()
}

func TestSumBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	tested := 0
	for tested < 400 {
		body := randBody(rng, "I")
		lo, hi := randLinear(rng), randLinear(rng)
		got, ok := Sum(body, "I", lo, hi)
		if !ok {
			t.Fatalf("Sum(%v, I, %v, %v) failed", body, lo, hi)
		}
		if got.Has("I") {
			t.Fatalf("Sum(%v, I, %v, %v) = %v still has I", body, lo, hi, got)
		}
		env := map[string]*big.Rat{"N": big.NewRat(randNonzero(rng, 6), 1), "M": big.NewRat(randNonzero(rng, 6), 1)}
		l, h := intValue(t, lo, env), intValue(t, hi, env)
		if h < l-1 {
			continue // outside the range where the formal sum is the sum
		}
		tested++
		if want := bruteSum(t, body, "I", env, l, h, 1); value(t, got, env).Cmp(want) != 0 {
			t.Fatalf("Sum(%v, I, %v, %v) = %v: %v at %v, want %v", body, lo, hi, got, value(t, got, env), env, want)
		}
	}
}

// Bounds with negative exponents: DO I = 1, N/L, evaluated where L
// divides N.
func TestSumLaurentBounds(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	hi, _ := Var("N").Div(Var("L"))
	for n := 0; n < 100; n++ {
		body := randBody(rng, "I")
		got, ok := Sum(body, "I", Int(1), hi)
		if !ok {
			t.Fatalf("Sum failed")
		}
		l := int64(rng.Intn(4) + 1)
		k := int64(rng.Intn(6))
		env := map[string]*big.Rat{"L": big.NewRat(l, 1), "N": big.NewRat(l*k, 1), "M": big.NewRat(randNonzero(rng, 5), 1)}
		if k == 0 {
			env["N"] = big.NewRat(l, 1) // N must be nonzero for the body
			k = 1
		}
		if want := bruteSum(t, body, "I", env, 1, k, 1); value(t, got, env).Cmp(want) != 0 {
			t.Fatalf("Sum(%v, I, 1, N/L) = %v wrong at %v", body, got, env)
		}
	}
}

// SumStep against brute force for loops whose step divides the range:
// DO I = lo, lo + step·(K−1), step for constant steps of both signs and
// for a symbolic step L.
func TestSumStepBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for n := 0; n < 400; n++ {
		body := randBody(rng, "I")
		lo := randLinear(rng)
		var step Poly
		var s int64
		symbolic := n%3 == 0
		env := map[string]*big.Rat{"N": big.NewRat(randNonzero(rng, 6), 1), "M": big.NewRat(randNonzero(rng, 6), 1)}
		if symbolic {
			step = Var("L")
			s = int64(rng.Intn(4) + 1)
			env["L"] = big.NewRat(s, 1)
		} else {
			s = randNonzero(rng, 3)
			step = Int(s)
		}
		hi := lo.Add(step.Mul(Var("K").Sub(Int(1))))
		got, ok := SumStep(body, "I", lo, hi, step)
		if !ok {
			t.Fatalf("SumStep(%v, I, %v, %v, %v) failed", body, lo, hi, step)
		}
		k := int64(rng.Intn(7))
		env["K"] = big.NewRat(k, 1)
		l, h := intValue(t, lo, env), intValue(t, hi, env)
		if want := bruteSum(t, body, "I", env, l, h, s); value(t, got, env).Cmp(want) != 0 {
			t.Fatalf("SumStep(%v, I, %v, %v, %v) = %v: %v at %v, want %v",
				body, lo, hi, step, got, value(t, got, env), env, want)
		}
	}
}

// With constant bounds and step, SumStep follows Fortran exactly, whether
// or not the step divides the range and also for empty loops.
func TestSumStepConstant(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	for n := 0; n < 400; n++ {
		body := randBody(rng, "I")
		l, h := int64(rng.Intn(21)-10), int64(rng.Intn(21)-10)
		s := randNonzero(rng, 4)
		got, ok := SumStep(body, "I", Int(l), Int(h), Int(s))
		if !ok {
			t.Fatalf("SumStep failed")
		}
		env := map[string]*big.Rat{"N": big.NewRat(randNonzero(rng, 6), 1), "M": big.NewRat(randNonzero(rng, 6), 1)}
		if want := bruteSum(t, body, "I", env, l, h, s); value(t, got, env).Cmp(want) != 0 {
			t.Fatalf("SumStep(%v, I, %d, %d, %d) = %v, want %v", body, l, h, s, got, want)
		}
	}
}

func TestSumStepExamples(t *testing.T) {
	for _, c := range []struct{ body, lo, hi, step, want string }{
		{"1", "N", "1", "-1", "N"},
		{"I", "N", "1", "-1", "1/2*N^2 + 1/2*N"},
		{"1", "1", "N", "2", "1/2*N + 1/2"},
		{"I", "1", "2*K - 1", "2", "K^2"},
		{"93*J2 - 91", "1", "I2", "LPRNT",
			"93*I2.J2.LPRNT^-1 + 93*J2 - 91*I2.LPRNT^-1 - 93*J2.LPRNT^-1 + 91*LPRNT^-1 - 91"},
		{"I", "1", "10", "4", "15"},
		{"I", "10", "1", "1", "0"},
	} {
		got, ok := SumStep(MustParse(c.body), "I", MustParse(c.lo), MustParse(c.hi), MustParse(c.step))
		if !ok || got.String() != c.want {
			t.Errorf("SumStep(%s, I=%s,%s,%s) = %v, %v; want %s", c.body, c.lo, c.hi, c.step, got, ok, c.want)
		}
	}
	if _, ok := SumStep(Int(1), "I", Int(1), Var("N"), MustParse("K + 1")); ok {
		t.Errorf("SumStep with a non-monomial step succeeded")
	}
	if _, ok := SumStep(Int(1), "I", Int(1), Var("N"), Zero()); ok {
		t.Errorf("SumStep with a zero step succeeded")
	}
	if _, ok := SumStep(MustParse("I^-2"), "I", Int(1), Var("N"), Int(2)); ok {
		t.Errorf("SumStep with a negative power of the index succeeded")
	}
	// The fresh summation variable does not clash with a variable of the
	// body that already has its name.
	body := Var("$t").Add(Var("I"))
	got, ok := SumStep(body, "I", Int(1), Var("N"), Int(-1))
	if want := MustParse("(2 - N)*(1 + N)/2").Add(Var("$t").Mul(MustParse("2 - N"))); !ok || !got.Equal(want) {
		t.Errorf("SumStep with $t in the body = %v, want %v", got, want)
	}
}

func TestTripCount(t *testing.T) {
	for _, c := range []struct{ lo, hi, step, want string }{
		{"1", "N", "1", "N"},
		{"N", "1", "-1", "N"},
		{"1", "10", "3", "4"},
		{"1", "10", "4", "3"},
		{"10", "1", "1", "0"},
		{"10", "1", "-4", "3"},
		{"1", "10", "-1", "0"},
		{"1", "X", "LPRNT", "LPRNT^-1.X - LPRNT^-1 + 1"},
		{"I + 1", "M + 2", "1", "-I + M + 2"},
	} {
		got, ok := TripCount(MustParse(c.lo), MustParse(c.hi), MustParse(c.step))
		if !ok || got.String() != c.want {
			t.Errorf("TripCount(%s, %s, %s) = %v, %v; want %s", c.lo, c.hi, c.step, got, ok, c.want)
		}
	}
	for _, step := range []string{"0", "K + 1"} {
		if _, ok := TripCount(Int(1), Var("N"), MustParse(step)); ok {
			t.Errorf("TripCount with step %s succeeded", step)
		}
	}
}

// TestSumConcurrent exercises the shared Faulhaber cache from several
// goroutines (meaningful under go test -race).
func TestSumConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	results := make([]Poly, 8)
	for g := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body, _ := Var("I").Pow(20 + g%3)
			results[g], _ = Sum(body, "I", Int(1), Var("N"))
		}()
	}
	wg.Wait()
	for g := 3; g < len(results); g++ {
		if !results[g].Equal(results[g-3]) {
			t.Fatalf("concurrent sums differ")
		}
	}
	v := value(t, results[0], map[string]*big.Rat{"N": big.NewRat(3, 1)})
	want := new(big.Rat).SetInt(new(big.Int).Add(big.NewInt(1), new(big.Int).Add(new(big.Int).Exp(big.NewInt(2), big.NewInt(20), nil), new(big.Int).Exp(big.NewInt(3), big.NewInt(20), nil))))
	if v.Cmp(want) != 0 {
		t.Fatalf("S_20(3) = %v, want %v", v, want)
	}
}

// BenchmarkSumDeg3 sums a degree-3 body in I with coefficients in N and M
// between symbolic bounds, the shape of a triangular loop nest.
func BenchmarkSumDeg3(b *testing.B) {
	body := MustParse("3*I^3 + 2*I^2.N - 5*I.M + 7*N + 11")
	lo, hi := MustParse("J + 1"), MustParse("N + M - 1")
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := Sum(body, "I", lo, hi); !ok {
			b.Fatal("Sum failed")
		}
	}
}

func BenchmarkSumStepDeg3(b *testing.B) {
	body := MustParse("3*I^3 + 2*I^2.N - 5*I.M + 7*N + 11")
	lo, hi, step := MustParse("N"), MustParse("1"), Int(-2)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := SumStep(body, "I", lo, hi, step); !ok {
			b.Fatal("SumStep failed")
		}
	}
}
