package complexity

import (
	"math/big"
	mbits "math/bits"
	"slices"
	"strconv"
	"strings"
)

// Factor is one variable raised to a nonzero integer power, a factor of a
// monomial. Exp may be negative: LPRNT^-1 is Factor{"LPRNT", -1}.
type Factor struct {
	Name string
	Exp  int
}

// Term is one coefficient times a monomial, as handed out by Poly.Terms.
// Factors are sorted by name and hold each name once; the constant term has
// no factors. A Term is a copy: changing it does not change the polynomial.
type Term struct {
	Coef    *big.Rat
	Factors []Factor
}

// term is the internal form of a Term. Its coefficient is never zero and,
// like the monomial, is never modified once the term is part of a Poly, so
// terms are shared freely between polynomials.
type term struct {
	coef coef
	mono []Factor // sorted by Name, no zero exponent, no repeated name
	deg  int      // sum of the exponents
}

// Poly is a multivariate polynomial with exact rational coefficients and
// integer (possibly negative) exponents, that is a Laurent polynomial. A
// Poly is an immutable value: every operation returns a new Poly and
// leaves its operands unchanged, so polynomials may be shared between
// goroutines. The zero value is the zero polynomial.
//
// Terms are kept in canonical order, the order in which String prints
// them: by total degree, highest first (a negative exponent counts
// negatively); terms of equal degree by their exponent vectors compared
// variable by variable in name order, the larger exponent first; the
// constant term last. No zero coefficient is stored, so two polynomials are
// equal exactly when their term lists are.
//
// Operations keep to the budgets of limits.go: a result past MaxDegree,
// MaxTerms, MaxProducts or MaxCoefBits is the variable TooLarge instead,
// and TooLarge absorbs every sum, product and power it enters.
type Poly struct {
	terms []term
}

// Zero returns the zero polynomial.
func Zero() Poly { return Poly{} }

// Int returns the constant polynomial n.
func Int(n int64) Poly {
	if n == 0 {
		return Poly{}
	}
	if n >= -maxSmall && n <= maxSmall {
		return smallInt(n)
	}
	return Poly{terms: []term{{coef: coef{r: new(big.Rat).SetInt64(n)}}}}
}

// Constant polynomials from minShared to maxShared are made once and
// shared (a Poly is immutable, and no operation appends to the terms of
// its operands): the costs of expressions are sums of small constants,
// and each sum would otherwise allocate its result.
const (
	minShared = -64
	maxShared = 1024
)

var sharedInts = func() []term {
	ts := make([]term, maxShared-minShared+1)
	for i := range ts {
		ts[i] = term{coef: coef{n: int64(i + minShared), d: 1}}
	}
	return ts
}()

// smallInt returns the constant n, nonzero and within maxSmall.
func smallInt(n int64) Poly {
	if n >= minShared && n <= maxShared {
		i := n - minShared
		return Poly{terms: sharedInts[i : i+1 : i+1]}
	}
	return Poly{terms: []term{{coef: coef{n: n, d: 1}}}}
}

// constSum returns p + q (p - q when neg) for two constants with small
// coefficients, without the general merge.
func constSum(a, b coef, neg bool) Poly {
	if neg {
		b = b.neg()
	}
	s := a.add(b)
	switch {
	case s.sign() == 0:
		return Poly{}
	case s.r == nil && s.d == 1:
		return smallInt(s.n)
	}
	return Poly{terms: []term{{coef: s}}}
}

// Frac returns the constant polynomial p/q. It panics if q is zero.
func Frac(p, q int64) Poly {
	return Rat(big.NewRat(p, q))
}

// Rat returns the constant polynomial r. The polynomial keeps a copy of r.
func Rat(r *big.Rat) Poly {
	if r.Sign() == 0 {
		return Poly{}
	}
	return Poly{terms: []term{{coef: coefFromRat(r)}}}
}

// Var returns the polynomial made of the variable name alone.
func Var(name string) Poly {
	return Poly{terms: []term{{coef: coefOne, mono: []Factor{{name, 1}}, deg: 1}}}
}

// Monomial returns c times the product of the factors. Factors may come in
// any order and may repeat a name (their exponents add up); factors with a
// zero exponent are ignored.
func Monomial(c *big.Rat, factors ...Factor) Poly {
	if c.Sign() == 0 {
		return Poly{}
	}
	return Poly{terms: []term{makeTerm(coefFromRat(c), factors)}}
}

// FromTerms returns the sum of the given terms, which may come in any order
// and may repeat monomials. It is the inverse of Poly.Terms.
func FromTerms(ts []Term) Poly {
	out := make([]term, 0, len(ts))
	for _, t := range ts {
		if t.Coef == nil || t.Coef.Sign() == 0 {
			continue
		}
		out = append(out, makeTerm(coefFromRat(t.Coef), t.Factors))
	}
	return normalize(out)
}

// makeTerm builds a term from factors in any order, merging repeated names
// and dropping zero exponents.
func makeTerm(c coef, factors []Factor) term {
	m := make([]Factor, 0, len(factors))
	for _, f := range factors {
		if f.Exp != 0 {
			m = append(m, f)
		}
	}
	slices.SortStableFunc(m, func(a, b Factor) int { return strings.Compare(a.Name, b.Name) })
	out := m[:0]
	for _, f := range m {
		if n := len(out); n > 0 && out[n-1].Name == f.Name {
			out[n-1].Exp += f.Exp
			if out[n-1].Exp == 0 {
				out = out[:n-1]
			}
			continue
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		out = nil
	}
	return term{coef: c, mono: out, deg: degreeOf(out)}
}

func degreeOf(m []Factor) int {
	d := 0
	for _, f := range m {
		d += f.Exp
	}
	return d
}

// compareMono orders two monomials of equal total degree: at the first
// variable (in name order) where their exponents differ, the monomial with
// the larger exponent comes first. A variable missing from a monomial has
// exponent 0 there.
func compareMono(a, b []Factor) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		fa, fb := a[i], b[j]
		switch {
		case fa.Name == fb.Name:
			if fa.Exp != fb.Exp {
				if fa.Exp > fb.Exp {
					return -1
				}
				return 1
			}
			i++
			j++
		case fa.Name < fb.Name:
			// The variable is in a only; b has exponent 0 for it.
			if fa.Exp > 0 {
				return -1
			}
			return 1
		default:
			if fb.Exp < 0 {
				return -1
			}
			return 1
		}
	}
	if i < len(a) {
		if a[i].Exp > 0 {
			return -1
		}
		return 1
	}
	if j < len(b) {
		if b[j].Exp < 0 {
			return -1
		}
		return 1
	}
	return 0
}

// compareTerms is the canonical term order: higher total degree first,
// then compareMono, the constant term last.
func compareTerms(a, b *term) int {
	ca, cb := len(a.mono) == 0, len(b.mono) == 0
	switch {
	case ca && cb:
		return 0
	case ca:
		return 1
	case cb:
		return -1
	}
	if a.deg != b.deg {
		if a.deg > b.deg {
			return -1
		}
		return 1
	}
	return compareMono(a.mono, b.mono)
}

func sameMono(a, b []Factor) bool {
	return slices.Equal(a, b)
}

// mulMono returns the product of two monomials; the result may share
// memory with a or b.
func mulMono(a, b []Factor) []Factor {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := appendMulMono(make([]Factor, 0, len(a)+len(b)), a, b)
	if len(out) == 0 {
		return nil
	}
	return out
}

// appendMulMono appends the factors of the product of a and b to out.
func appendMulMono(out, a, b []Factor) []Factor {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i].Name == b[j].Name:
			if e := a[i].Exp + b[j].Exp; e != 0 {
				out = append(out, Factor{a[i].Name, e})
			}
			i++
			j++
		case a[i].Name < b[j].Name:
			out = append(out, a[i])
			i++
		default:
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// normalize sorts terms into canonical order, adds up the coefficients of
// equal monomials and drops zero terms. It may reuse the memory of ts.
func normalize(ts []term) Poly {
	switch len(ts) {
	case 0:
		return Poly{}
	case 1:
		if ts[0].coef.sign() == 0 {
			return Poly{}
		}
		return Poly{terms: ts[:1:1]}
	}
	// Sort a permutation rather than the terms themselves: terms are
	// large and hold pointers, so moving them is slow.
	perm := make([]int32, len(ts))
	for i := range perm {
		perm[i] = int32(i)
	}
	slices.SortFunc(perm, func(a, b int32) int { return compareTerms(&ts[a], &ts[b]) })
	out := make([]term, 0, len(ts))
	for i := 0; i < len(perm); {
		t := ts[perm[i]]
		j := i + 1
		for ; j < len(perm) && sameMono(ts[perm[j]].mono, t.mono); j++ {
			t.coef = t.coef.add(ts[perm[j]].coef)
		}
		if t.coef.sign() != 0 {
			out = append(out, t)
		}
		i = j
	}
	if len(out) == 0 {
		return Poly{}
	}
	return Poly{terms: out}
}

// IsZero reports whether p is the zero polynomial.
func (p Poly) IsZero() bool { return len(p.terms) == 0 }

// IsConst reports whether p is a constant (including zero).
func (p Poly) IsConst() bool {
	return len(p.terms) == 0 || len(p.terms) == 1 && len(p.terms[0].mono) == 0
}

// IsMonomial reports whether p is a single nonzero term, that is whether
// p can be a divisor or be raised to a negative power.
func (p Poly) IsMonomial() bool { return len(p.terms) == 1 }

// Len returns the number of terms of p.
func (p Poly) Len() int { return len(p.terms) }

// Value returns the value of p when p is a constant, and false otherwise.
// The result is a new big.Rat owned by the caller.
func (p Poly) Value() (*big.Rat, bool) {
	switch {
	case len(p.terms) == 0:
		return new(big.Rat), true
	case p.IsConst():
		return p.terms[0].coef.rat(), true
	}
	return nil, false
}

// Vars returns the names of the variables of p, sorted.
func (p Poly) Vars() []string {
	var names []string
	for _, t := range p.terms {
		for _, f := range t.mono {
			names = append(names, f.Name)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// Has reports whether the variable name occurs in p.
func (p Poly) Has(name string) bool {
	for _, t := range p.terms {
		if expOf(t.mono, name) != 0 {
			return true
		}
	}
	return false
}

// Degree returns the smallest and the largest exponent of the variable
// name over the terms of p; a term without the variable counts as exponent
// 0. The zero polynomial gives (0, 0).
func (p Poly) Degree(name string) (lo, hi int) {
	for i, t := range p.terms {
		e := expOf(t.mono, name)
		if i == 0 || e < lo {
			lo = e
		}
		if i == 0 || e > hi {
			hi = e
		}
	}
	return lo, hi
}

// TotalDegree returns the largest total degree (sum of exponents) of the
// terms of p, 0 for the zero polynomial.
func (p Poly) TotalDegree() int {
	d := 0
	for i, t := range p.terms {
		if i == 0 || t.deg > d {
			d = t.deg
		}
	}
	return d
}

func expOf(m []Factor, name string) int {
	for _, f := range m {
		if f.Name == name {
			return f.Exp
		}
		if f.Name > name {
			break
		}
	}
	return 0
}

// Equal reports whether p and q are the same polynomial.
func (p Poly) Equal(q Poly) bool {
	if len(p.terms) != len(q.terms) {
		return false
	}
	for i := range p.terms {
		a, b := &p.terms[i], &q.terms[i]
		if !sameMono(a.mono, b.mono) || !a.coef.equal(b.coef) {
			return false
		}
	}
	return true
}

// Terms returns the terms of p in canonical order. The result is a copy.
func (p Poly) Terms() []Term {
	out := make([]Term, len(p.terms))
	for i, t := range p.terms {
		out[i] = Term{Coef: t.coef.rat(), Factors: slices.Clone(t.mono)}
	}
	return out
}

// tooLarge returns the polynomial made of the variable TooLarge.
func tooLarge() Poly { return Var(TooLarge) }

// IsTooLarge reports whether p is the unknown TooLarge, the result of an
// operation past the budgets of limits.go.
func (p Poly) IsTooLarge() bool {
	return len(p.terms) == 1 && len(p.terms[0].mono) == 1 && p.terms[0].mono[0].Name == TooLarge
}

// withinBudget returns p, or TooLarge when p has more than MaxTerms terms
// or a term past MaxDegree or MaxCoefBits.
func withinBudget(p Poly) Poly {
	if len(p.terms) > MaxTerms {
		return tooLarge()
	}
	for _, t := range p.terms {
		if !monoWithin(t.mono, t.deg) || t.coef.r != nil && ratBits(t.coef.r) > MaxCoefBits {
			return tooLarge()
		}
	}
	return p
}

// monoWithin reports whether a monomial of total degree deg keeps to
// MaxDegree.
func monoWithin(m []Factor, deg int) bool {
	if deg > MaxDegree || deg < -MaxDegree {
		return false
	}
	for _, f := range m {
		if f.Exp > MaxDegree || f.Exp < -MaxDegree {
			return false
		}
	}
	return true
}

// Neg returns -p.
func (p Poly) Neg() Poly {
	if len(p.terms) == 0 || p.IsTooLarge() {
		return p
	}
	out := make([]term, len(p.terms))
	for i, t := range p.terms {
		t.coef = t.coef.neg()
		out[i] = t
	}
	return Poly{terms: out}
}

// Scale returns r·p.
func (p Poly) Scale(r *big.Rat) Poly {
	if r.Sign() == 0 || len(p.terms) == 0 {
		return Poly{}
	}
	return p.scale(coefFromRat(r))
}

// scale returns c·p for a nonzero c.
func (p Poly) scale(c coef) Poly {
	if c.isOne() || p.IsTooLarge() {
		return p
	}
	out := make([]term, len(p.terms))
	large := c.r != nil
	for i, t := range p.terms {
		t.coef = t.coef.mul(c)
		out[i] = t
		large = large || t.coef.r != nil
	}
	if large {
		return withinBudget(Poly{terms: out})
	}
	return Poly{terms: out}
}

// Add returns p + q.
func (p Poly) Add(q Poly) Poly { return merge(p, q, false) }

// Sub returns p - q.
func (p Poly) Sub(q Poly) Poly { return merge(p, q, true) }

// merge adds (or subtracts) two polynomials by merging their sorted term
// lists.
func merge(p, q Poly, neg bool) Poly {
	if p.IsTooLarge() || q.IsTooLarge() {
		return tooLarge()
	}
	if len(q.terms) == 0 {
		return p
	}
	if len(p.terms) == 0 {
		if neg {
			return q.Neg()
		}
		return q
	}
	if len(p.terms) == 1 && len(q.terms) == 1 && len(p.terms[0].mono) == 0 && len(q.terms[0].mono) == 0 {
		return constSum(p.terms[0].coef, q.terms[0].coef, neg)
	}
	out := make([]term, 0, len(p.terms)+len(q.terms))
	i, j := 0, 0
	for i < len(p.terms) && j < len(q.terms) {
		a, b := &p.terms[i], &q.terms[j]
		switch c := compareTerms(a, b); {
		case c < 0:
			out = append(out, *a)
			i++
		case c > 0:
			t := *b
			if neg {
				t.coef = t.coef.neg()
			}
			out = append(out, t)
			j++
		default:
			bc := b.coef
			if neg {
				bc = bc.neg()
			}
			if s := a.coef.add(bc); s.sign() != 0 {
				t := *a
				t.coef = s
				out = append(out, t)
			}
			i++
			j++
		}
	}
	out = append(out, p.terms[i:]...)
	for ; j < len(q.terms); j++ {
		t := q.terms[j]
		if neg {
			t.coef = t.coef.neg()
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return Poly{}
	}
	if len(out) > MaxTerms {
		return tooLarge()
	}
	return Poly{terms: out}
}

// Mul returns p·q.
func (p Poly) Mul(q Poly) Poly {
	if len(p.terms) == 0 || len(q.terms) == 0 {
		return Poly{}
	}
	if p.IsTooLarge() || q.IsTooLarge() {
		return tooLarge()
	}
	if len(p.terms) < len(q.terms) {
		p, q = q, p
	}
	if q.IsConst() {
		return p.scale(q.terms[0].coef)
	}
	if len(p.terms)*len(q.terms) > MaxProducts {
		return tooLarge()
	}
	// All the product monomials share one backing array.
	size := 0
	for _, a := range p.terms {
		size += len(a.mono)
	}
	for _, b := range q.terms {
		size += len(b.mono) * len(p.terms)
	}
	buf := make([]Factor, 0, size)
	out := make([]term, 0, len(p.terms)*len(q.terms))
	for _, b := range q.terms {
		for _, a := range p.terms {
			start := len(buf)
			buf = appendMulMono(buf, a.mono, b.mono)
			var m []Factor
			if len(buf) > start {
				m = buf[start:len(buf):len(buf)]
			}
			if !monoWithin(m, a.deg+b.deg) {
				return tooLarge()
			}
			out = append(out, term{coef: a.coef.mul(b.coef), mono: m, deg: a.deg + b.deg})
		}
	}
	return withinBudget(normalize(out))
}

// Pow returns p raised to the power n. A negative n is allowed only when p
// is a monomial (a single nonzero term); otherwise Pow returns false. p⁰ is
// 1 for every p, including zero.
func (p Poly) Pow(n int) (Poly, bool) {
	switch {
	case n == 0:
		return Int(1), true
	case n == 1:
		return p, true
	case len(p.terms) == 0:
		return p, n > 0
	case p.IsTooLarge():
		return p, true
	case len(p.terms) == 1:
		// Check the budgets before computing: the power of a large
		// coefficient would take as long as it is large.
		t := p.terms[0]
		if !t.coef.isUnit() && (abs(n) > MaxCoefBits || t.coef.bits()*abs(n) > MaxCoefBits) {
			return tooLarge(), true
		}
		if len(t.mono) > 0 && (abs(n) > MaxDegree || !monoWithin(t.mono, t.deg*n)) {
			return tooLarge(), true
		}
		for _, f := range t.mono {
			if abs(f.Exp*n) > MaxDegree {
				return tooLarge(), true
			}
		}
		return Poly{terms: []term{powTerm(t, n)}}, true
	case n < 0:
		return Poly{}, false
	case n > MaxDegree:
		// p has a variable (it is not a single term), so p^n has degree n
		// or more.
		return tooLarge(), true
	}
	result := Int(1)
	base := p
	for {
		if n&1 == 1 {
			result = result.Mul(base)
		}
		n >>= 1
		if n == 0 {
			return result, true
		}
		base = base.Mul(base)
	}
}

// powTerm raises a nonzero term to any integer power.
func powTerm(t term, n int) term {
	m := make([]Factor, len(t.mono))
	for i, f := range t.mono {
		m[i] = Factor{f.Name, f.Exp * n}
	}
	if len(m) == 0 {
		m = nil
	}
	return term{coef: t.coef.pow(n), mono: m, deg: t.deg * n}
}

// ratPow returns r^n as a new value; r must be nonzero when n < 0.
func ratPow(r *big.Rat, n int) *big.Rat {
	num := new(big.Int).Set(r.Num())
	den := new(big.Int).Set(r.Denom())
	if n < 0 {
		num, den = den, num
		n = -n
	}
	e := big.NewInt(int64(n))
	num.Exp(num, e, nil)
	den.Exp(den, e, nil)
	return new(big.Rat).SetFrac(num, den)
}

// Div returns p/q when q is a monomial (a single nonzero term), and false
// otherwise. The division is exact: exponents may become negative.
func (p Poly) Div(q Poly) (Poly, bool) {
	if len(q.terms) != 1 {
		return Poly{}, false
	}
	inv := Poly{terms: []term{powTerm(q.terms[0], -1)}}
	return p.Mul(inv), true
}

// Coeff returns the coefficient of name^k in p, the polynomial in the
// other variables that multiplies name^k when p is written as a sum of
// powers of name.
func (p Poly) Coeff(name string, k int) Poly {
	var out []term
	for _, t := range p.terms {
		if expOf(t.mono, name) == k {
			out = append(out, withoutVar(t, name))
		}
	}
	// Removing the same power of one variable from distinct monomials
	// keeps them distinct, so only the order has to be restored.
	return normalize(out)
}

// withoutVar returns t with the factor of name removed.
func withoutVar(t term, name string) term {
	for i, f := range t.mono {
		if f.Name == name {
			m := make([]Factor, 0, len(t.mono)-1)
			m = append(m, t.mono[:i]...)
			m = append(m, t.mono[i+1:]...)
			if len(m) == 0 {
				m = nil
			}
			return term{coef: t.coef, mono: m, deg: t.deg - f.Exp}
		}
	}
	return t
}

// Subst returns p with the variable name replaced by q. When name occurs
// with a negative exponent, q must be a monomial (a single nonzero term),
// and Subst returns false otherwise. q may itself contain name.
func (p Poly) Subst(name string, q Poly) (Poly, bool) {
	lo, hi := p.Degree(name)
	if lo == 0 && hi == 0 {
		return p, true
	}
	if q.IsTooLarge() {
		return tooLarge(), true
	}
	if lo < 0 && !q.IsMonomial() {
		return Poly{}, false
	}
	if q.IsMonomial() {
		// Every term stays one term: no grouping needed.
		out := make([]term, 0, len(p.terms))
		for _, t := range p.terms {
			e := expOf(t.mono, name)
			if e == 0 {
				out = append(out, t)
				continue
			}
			r := withoutVar(t, name)
			qt := powTerm(q.terms[0], e)
			out = append(out, term{coef: r.coef.mul(qt.coef), mono: mulMono(r.mono, qt.mono), deg: r.deg + qt.deg})
		}
		return withinBudget(normalize(out)), true
	}
	// Group the terms by the exponent of name and combine the groups
	// with powers of q, computed once each.
	groups := make([][]term, hi+1)
	for _, t := range p.terms {
		e := expOf(t.mono, name)
		groups[e] = append(groups[e], withoutVar(t, name))
	}
	result := normalize(groups[0])
	power := Int(1)
	for e := 1; e <= hi; e++ {
		power = power.Mul(q)
		if len(groups[e]) > 0 {
			result = result.Add(normalize(groups[e]).Mul(power))
		}
	}
	return result, true
}

// Eval returns p with every variable that env binds replaced by its value;
// the other variables stay. A variable bound to zero keeps its factor
// where it occurs with a negative exponent, since the value is undefined
// there, and so does a factor whose value raised to its exponent would
// pass MaxCoefBits.
func (p Poly) Eval(env map[string]*big.Rat) Poly {
	if len(env) == 0 || len(p.terms) == 0 {
		return p
	}
	out := make([]term, 0, len(p.terms))
	changed := false
	for _, t := range p.terms {
		var c coef
		var m []Factor
		for i, f := range t.mono {
			v, ok := env[f.Name]
			if !ok || (v.Sign() == 0 && f.Exp < 0) || ratBits(v)*abs(f.Exp) > MaxCoefBits {
				if m != nil {
					m = append(m, f)
				}
				continue
			}
			if m == nil {
				m = append(make([]Factor, 0, len(t.mono)), t.mono[:i]...)
				c = t.coef
			}
			c = c.mul(coefFromRat(ratPow(v, f.Exp)))
		}
		if m == nil {
			out = append(out, t)
			continue
		}
		changed = true
		if len(m) == 0 {
			m = nil
		}
		out = append(out, term{coef: c, mono: m, deg: degreeOf(m)})
	}
	if !changed {
		return p
	}
	return normalize(out)
}

// String returns the canonical ASCII form of p, the notation of the PIPS
// report: terms in canonical order joined by " + " and " - ", the
// coefficient joined to its monomial by "*" (omitted when it is 1),
// rational coefficients as p/q, variables joined by "." in name order and
// powers as ^n, for example "57/2*M^2 + 195/2*M + 1" or
// "93*I2.J2.LPRNT^-1 + 186*I2". The zero polynomial prints as "0".
func (p Poly) String() string { return p.format(false) }

// Unicode returns a compact form of p for editors: like String but with
// "·" between all factors and superscript exponents, for example
// "57/2·M² + 195/2·M + 1" or "LPRNT⁻¹".
func (p Poly) Unicode() string { return p.format(true) }

func (p Poly) format(uni bool) string {
	if len(p.terms) == 0 {
		return "0"
	}
	var sb strings.Builder
	coefSep, varSep := "*", "."
	if uni {
		coefSep, varSep = "·", "·"
	}
	for i, t := range p.terms {
		neg := t.coef.sign() < 0
		switch {
		case i == 0 && neg:
			sb.WriteByte('-')
		case i > 0 && neg:
			sb.WriteString(" - ")
		case i > 0:
			sb.WriteString(" + ")
		}
		if abs := t.coef.abs(); !abs.isOne() || len(t.mono) == 0 {
			abs.write(&sb)
			if len(t.mono) > 0 {
				sb.WriteString(coefSep)
			}
		}
		for k, f := range t.mono {
			if k > 0 {
				sb.WriteString(varSep)
			}
			sb.WriteString(f.Name)
			if f.Exp != 1 {
				if uni {
					writeSuperscript(&sb, f.Exp)
				} else {
					var buf [24]byte
					sb.WriteByte('^')
					sb.Write(strconv.AppendInt(buf[:0], int64(f.Exp), 10))
				}
			}
		}
	}
	return sb.String()
}

var superDigits = [10]rune{'⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'}

func writeSuperscript(sb *strings.Builder, n int) {
	for _, r := range strconv.Itoa(n) {
		if r == '-' {
			sb.WriteRune('⁻')
		} else {
			sb.WriteRune(superDigits[r-'0'])
		}
	}
}

// coef is an exact rational coefficient. Values whose numerator and
// denominator are below 2³¹ in magnitude, which covers nearly every cost,
// are held inline so that arithmetic on them allocates nothing and cannot
// overflow int64; other values are held as a big.Rat. The form is
// canonical: a value is held inline exactly when it fits.
type coef struct {
	n, d int64    // the value n/d when r is nil: d > 0, gcd(|n|, d) = 1
	r    *big.Rat // the value when it does not fit inline; never modified
}

const maxSmall = 1<<31 - 1

var coefOne = coef{n: 1, d: 1}

func fitsSmall(n, d int64) bool {
	return n >= -maxSmall && n <= maxSmall && d <= maxSmall
}

// coefFromRat returns r as a coef, without keeping a reference to r.
func coefFromRat(r *big.Rat) coef {
	num, den := r.Num(), r.Denom()
	if num.IsInt64() && den.IsInt64() {
		if n, d := num.Int64(), den.Int64(); fitsSmall(n, d) {
			return coef{n: n, d: d}
		}
	}
	return coef{r: new(big.Rat).Set(r)}
}

// coefOwned is coefFromRat for an r nobody else refers to.
func coefOwned(r *big.Rat) coef {
	num, den := r.Num(), r.Denom()
	if num.IsInt64() && den.IsInt64() {
		if n, d := num.Int64(), den.Int64(); fitsSmall(n, d) {
			return coef{n: n, d: d}
		}
	}
	return coef{r: r}
}

// small reduces n/d (d > 0, both below 2⁶³ in magnitude) to a coef.
func small(n, d int64) coef {
	g := gcd(n, d)
	n, d = n/g, d/g
	if fitsSmall(n, d) {
		return coef{n: n, d: d}
	}
	return coef{r: big.NewRat(n, d)}
}

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	for b != 0 {
		a, b = b, a%b
	}
	if a == 0 {
		return 1
	}
	return a
}

// rat returns the value as a new big.Rat.
func (c coef) rat() *big.Rat {
	if c.r != nil {
		return new(big.Rat).Set(c.r)
	}
	return big.NewRat(c.n, c.d)
}

// big returns the value as a big.Rat that must not be modified.
func (c coef) big() *big.Rat {
	if c.r != nil {
		return c.r
	}
	return big.NewRat(c.n, c.d)
}

func (c coef) sign() int {
	if c.r != nil {
		return c.r.Sign()
	}
	switch {
	case c.n > 0:
		return 1
	case c.n < 0:
		return -1
	}
	return 0
}

func (c coef) isOne() bool { return c.r == nil && c.n == 1 && c.d == 1 }

// isUnit reports whether c is 1 or -1, whose powers stay small.
func (c coef) isUnit() bool { return c.r == nil && c.d == 1 && (c.n == 1 || c.n == -1) }

// bits returns the bits of the numerator and the denominator of c.
func (c coef) bits() int {
	if c.r != nil {
		return ratBits(c.r)
	}
	n := c.n
	if n < 0 {
		n = -n
	}
	return mbits.Len64(uint64(n)) + mbits.Len64(uint64(c.d))
}

func ratBits(r *big.Rat) int { return r.Num().BitLen() + r.Denom().BitLen() }

// abs returns |n|, saturating at the largest int.
func abs(n int) int {
	if n == -n && n != 0 {
		return int(^uint(0) >> 1)
	}
	if n < 0 {
		return -n
	}
	return n
}

func (c coef) equal(e coef) bool {
	if c.r != nil || e.r != nil {
		return c.r != nil && e.r != nil && c.r.Cmp(e.r) == 0
	}
	return c.n == e.n && c.d == e.d
}

func (c coef) neg() coef {
	if c.r != nil {
		return coef{r: new(big.Rat).Neg(c.r)}
	}
	return coef{n: -c.n, d: c.d}
}

func (c coef) abs() coef {
	if c.sign() < 0 {
		return c.neg()
	}
	return c
}

func (c coef) add(e coef) coef {
	if c.r == nil && e.r == nil {
		if c.d == e.d {
			return small(c.n+e.n, c.d)
		}
		return small(c.n*e.d+e.n*c.d, c.d*e.d)
	}
	return coefOwned(new(big.Rat).Add(c.big(), e.big()))
}

func (c coef) mul(e coef) coef {
	if c.r == nil && e.r == nil {
		return small(c.n*e.n, c.d*e.d)
	}
	return coefOwned(new(big.Rat).Mul(c.big(), e.big()))
}

// inv returns 1/c; c must be nonzero.
func (c coef) inv() coef {
	if c.r != nil {
		return coef{r: new(big.Rat).Inv(c.r)}
	}
	if c.n < 0 {
		return coef{n: -c.d, d: -c.n}
	}
	return coef{n: c.d, d: c.n}
}

// pow returns c^n; c must be nonzero when n < 0.
func (c coef) pow(n int) coef {
	if n < 0 {
		c, n = c.inv(), -n
	}
	if c.r == nil && c.d == 1 && (c.n == 1 || c.n == -1) {
		if c.n == -1 && n%2 == 1 {
			return c
		}
		return coefOne
	}
	// Multiply while the value stays inline (at most 31 times, since
	// |c| ≥ 2 or its denominator is), then finish with big arithmetic.
	r := coefOne
	for ; n > 0 && r.r == nil && c.r == nil; n-- {
		r = r.mul(c)
	}
	if n == 0 {
		return r
	}
	return r.mul(coefOwned(ratPow(c.big(), n)))
}

// write writes the value as an integer or as p/q.
func (c coef) write(sb *strings.Builder) {
	if c.r != nil {
		sb.WriteString(c.r.RatString())
		return
	}
	var buf [24]byte
	sb.Write(strconv.AppendInt(buf[:0], c.n, 10))
	if c.d != 1 {
		sb.WriteByte('/')
		sb.Write(strconv.AppendInt(buf[:0], c.d, 10))
	}
}
