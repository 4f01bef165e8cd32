package complexity

import (
	"math/big"
	"strings"
	"sync"
)

// faulhaberCache holds the Bernoulli numbers and the Faulhaber polynomials
// computed so far; both only grow.
var faulhaberCache struct {
	sync.Mutex
	bern []*big.Rat   // bern[m] = B_m with B_1 = -1/2
	sums [][]*big.Rat // sums[k][j] = coefficient of n^j in S_k(n)
}

// bernoulliLocked returns the Bernoulli numbers B_0 … B_m (with
// B_1 = -1/2), extending the cache as needed. The caller holds the lock.
func bernoulliLocked(m int) []*big.Rat {
	c := &faulhaberCache
	for len(c.bern) <= m {
		k := len(c.bern)
		if k == 0 {
			c.bern = append(c.bern, big.NewRat(1, 1))
			continue
		}
		// Σ_{j=0}^{k} C(k+1, j)·B_j = 0 gives
		// B_k = -1/(k+1) · Σ_{j=0}^{k-1} C(k+1, j)·B_j.
		s := new(big.Rat)
		binom := big.NewInt(1) // C(k+1, j)
		for j := 0; j < k; j++ {
			s.Add(s, new(big.Rat).Mul(new(big.Rat).SetInt(binom), c.bern[j]))
			binom.Mul(binom, big.NewInt(int64(k+1-j)))
			binom.Quo(binom, big.NewInt(int64(j+1)))
		}
		s.Quo(s, big.NewRat(int64(-(k+1)), 1))
		c.bern = append(c.bern, s)
	}
	return c.bern
}

// faulhaber returns the coefficients of S_k(n) = Σ_{i=1}^{n} i^k as a
// polynomial in n: element j is the coefficient of n^j, for j = 0 … k+1.
// The result is shared and must not be modified.
func faulhaber(k int) []*big.Rat {
	c := &faulhaberCache
	c.Lock()
	defer c.Unlock()
	for len(c.sums) <= k {
		kk := len(c.sums)
		bern := bernoulliLocked(kk)
		// S_k(n) = 1/(k+1) · Σ_{j=0}^{k} C(k+1, j)·B⁺_j·n^{k+1-j},
		// where B⁺_1 = +1/2 and B⁺_j = B_j otherwise.
		coef := make([]*big.Rat, kk+2)
		coef[0] = new(big.Rat)
		binom := big.NewInt(1)
		for j := 0; j <= kk; j++ {
			b := bern[j]
			if j == 1 {
				b = big.NewRat(1, 2)
			}
			v := new(big.Rat).Mul(new(big.Rat).SetInt(binom), b)
			v.Quo(v, big.NewRat(int64(kk+1), 1))
			coef[kk+1-j] = v
			binom.Mul(binom, big.NewInt(int64(kk+1-j)))
			binom.Quo(binom, big.NewInt(int64(j+1)))
		}
		c.sums = append(c.sums, coef)
	}
	return c.sums[k]
}

// Sum returns Σ_{idx=lo}^{hi} body, the cost of a DO loop with step 1 whose
// body costs body. body must be a polynomial in idx with non-negative
// exponents of idx (other variables may have any exponents); Sum returns
// false otherwise. The bounds are polynomials in any variables; when they
// contain idx itself, that idx is the value before the loop, and so is
// every idx of the result.
//
// The sum is the formal one, F(hi) − F(lo−1) where F(n) = Σ_{i=1}^{n}
// body(i) is computed exactly through Faulhaber's formula. As a polynomial
// identity it equals the iterated sum whenever hi ≥ lo − 1 (it is zero
// for hi = lo − 1); for a symbolic range that may be empty the caller
// decides whether the formula applies. When both bounds are integer
// constants the sum is the true one, zero for an empty range.
func Sum(body Poly, idx string, lo, hi Poly) (Poly, bool) {
	dmin, dmax := body.Degree(idx)
	if dmin < 0 {
		return Poly{}, false
	}
	if emptyConstRange(lo, hi) {
		return Poly{}, true
	}
	if dmax == 0 {
		// The body does not depend on idx: multiply by the trip count.
		return body.Mul(hi.Sub(lo).Add(Int(1))), true
	}
	// Write body = Σ_k c_k·idx^k and F(n) = Σ_k c_k·S_k(n) = Σ_j d_j·n^j.
	d := make([]Poly, dmax+2)
	for k := 0; k <= dmax; k++ {
		ck := body.Coeff(idx, k)
		if ck.IsZero() {
			continue
		}
		for j, s := range faulhaber(k) {
			if s.Sign() != 0 {
				d[j] = d[j].Add(ck.Scale(s))
			}
		}
	}
	return horner(d, hi).Sub(horner(d, lo.Sub(Int(1)))), true
}

// horner returns Σ_j d[j]·x^j.
func horner(d []Poly, x Poly) Poly {
	acc := d[len(d)-1]
	for j := len(d) - 2; j >= 0; j-- {
		acc = acc.Mul(x).Add(d[j])
	}
	return acc
}

// emptyConstRange reports whether lo and hi are constants with hi < lo.
func emptyConstRange(lo, hi Poly) bool {
	l, ok1 := lo.Value()
	h, ok2 := hi.Value()
	return ok1 && ok2 && h.Cmp(l) < 0
}

// TripCount returns the number of iterations of DO idx = lo, hi, step:
// (hi − lo + step)/step. The step must be a monomial (a nonzero constant
// such as 2 or -1, or a single term such as LPRNT); TripCount returns
// false otherwise. When lo, hi and step are all constants the result is
// Fortran's count, max(0, ⌊(hi − lo + step)/step⌋ rounded toward zero);
// otherwise it is the exact quotient, which is the count when step
// divides hi − lo and the range is not empty.
func TripCount(lo, hi, step Poly) (Poly, bool) {
	if !step.IsMonomial() {
		return Poly{}, false
	}
	span := hi.Sub(lo).Add(step)
	if l, ok := span.Value(); ok {
		if s, ok := step.Value(); ok {
			q := new(big.Rat).Quo(l, s)
			n := new(big.Int).Quo(q.Num(), q.Denom()) // truncates toward zero
			if n.Sign() < 0 {
				return Poly{}, true
			}
			return Rat(new(big.Rat).SetInt(n)), true
		}
	}
	return span.Div(step)
}

// SumStep returns the sum of body over the iterations of
// DO idx = lo, hi, step: Σ_{t=0}^{T−1} body[idx := lo + step·t] with T the
// TripCount of the loop. body must have non-negative exponents of idx and
// step must be a monomial; SumStep returns false otherwise. Like Sum, the
// result is a formal sum, exact when T is a non-negative integer for the
// values of the symbols, that is when step divides hi − lo + step and the
// range is not empty; with constant bounds and step it is always exact.
func SumStep(body Poly, idx string, lo, hi, step Poly) (Poly, bool) {
	if s, ok := step.Value(); ok && s.Cmp(big.NewRat(1, 1)) == 0 {
		return Sum(body, idx, lo, hi)
	}
	if dmin, _ := body.Degree(idx); dmin < 0 {
		return Poly{}, false
	}
	trips, ok := TripCount(lo, hi, step)
	if !ok {
		return Poly{}, false
	}
	if n, ok := trips.Value(); ok && n.Sign() <= 0 {
		return Poly{}, true
	}
	t := freshVar(body, lo, hi, step)
	b, ok := body.Subst(idx, lo.Add(step.Mul(Var(t))))
	if !ok {
		return Poly{}, false
	}
	return Sum(b, t, Int(0), trips.Sub(Int(1)))
}

// freshVar returns a variable name that occurs in none of ps. The names it
// tries are not Fortran names, so they cannot clash with program symbols.
func freshVar(ps ...Poly) string {
	name := "$t"
	for {
		used := false
		for _, p := range ps {
			if p.Has(name) {
				used = true
				break
			}
		}
		if !used {
			return name
		}
		name = strings.Replace(name, "$", "$$", 1)
	}
}
