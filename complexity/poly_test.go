package complexity

import (
	"math/big"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// The four polynomials printed in the PIPS report (the SUB2 summary, COLLC
// under all-one and fp-one, PRNTFF under all-one), built with the algebra
// and printed.
func TestReportStrings(t *testing.T) {
	m := Var("M")
	i2, j2, il, jl := Var("I2"), Var("J2"), Var("IL"), Var("JL")
	lprnt := Var("LPRNT")
	sc := func(p, q int64, x Poly) Poly { return x.Scale(big.NewRat(p, q)) }

	sub2 := sc(57, 2, m.Mul(m)).Add(sc(195, 2, m)).Add(Int(1))
	collc := Int(103).Add(sc(56, 1, jl)).Add(sc(4, 1, j2)).Add(sc(62, 1, il)).
		Add(sc(94, 1, il.Mul(jl))).Add(sc(60, 1, j2.Mul(i2)))
	collcFP := sc(6, 1, il).Add(sc(10, 1, jl.Mul(il))).Add(sc(4, 1, i2.Mul(j2)))
	// PRNTFF = (93·I2·J2 − 91·I2 − 93·J2 + 91)/LPRNT + 186·I2.
	num := sc(93, 1, i2.Mul(j2)).Sub(sc(91, 1, i2)).Sub(sc(93, 1, j2)).Add(Int(91))
	q, ok := num.Div(lprnt)
	if !ok {
		t.Fatal("Div by LPRNT failed")
	}
	prntff := q.Add(sc(186, 1, i2))

	for _, c := range []struct {
		p    Poly
		want string
	}{
		{sub2, "57/2*M^2 + 195/2*M + 1"},
		{collc, "60*I2.J2 + 94*IL.JL + 62*IL + 4*J2 + 56*JL + 103"},
		{collcFP, "4*I2.J2 + 10*IL.JL + 6*IL"},
		{prntff, "93*I2.J2.LPRNT^-1 + 186*I2 - 91*I2.LPRNT^-1 - 93*J2.LPRNT^-1 + 91*LPRNT^-1"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("String() = %q, want %q", got, c.want)
		}
		back, err := Parse(c.want)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.want, err)
		} else if !back.Equal(c.p) {
			t.Errorf("Parse(%q) = %q, want the same polynomial", c.want, back)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		in, ascii, uni string
	}{
		{"0", "0", "0"},
		{"M - M", "0", "0"},
		{"1 - 3*M", "-3*M + 1", "-3·M + 1"},
		{"-M", "-M", "-M"},
		{"-3/2", "-3/2", "-3/2"},
		{"6/4", "3/2", "3/2"},
		{"M*M", "M^2", "M²"},
		{"-M^2 - M", "-M^2 - M", "-M² - M"},
		{"1/LPRNT", "LPRNT^-1", "LPRNT⁻¹"},
		{"-7*A**12*B", "-7*A^12.B", "-7·A¹²·B"},
		{"57/2*M^2 + 195/2*M + 1", "57/2*M^2 + 195/2*M + 1", "57/2·M² + 195/2·M + 1"},
		{"17*IL.JL.LPRNT^-1 + 2*IL.LPRNT^-1 + 4", "17*IL.JL.LPRNT^-1 + 2*IL.LPRNT^-1 + 4", "17·IL·JL·LPRNT⁻¹ + 2·IL·LPRNT⁻¹ + 4"},
		{"U_RANGE*IL + X2^-10", "IL.U_RANGE + X2^-10", "IL·U_RANGE + X2⁻¹⁰"},
		// The constant comes last even after terms of negative degree,
		// and a term of degree 0 such as A^-1.B is placed by its exponents.
		{"5 + A^-1*B + A^-2", "A^-1.B + A^-2 + 5", "A⁻¹·B + A⁻² + 5"},
		{"52*IL*JL + 14*I2 - 52*IL - 37*JL + 39", "52*IL.JL + 14*I2 - 52*IL - 37*JL + 39", "52·IL·JL + 14·I2 - 52·IL - 37·JL + 39"},
		{"9*I^2 - 12*I*M + 3*M^2 - 84*I + 72*M + 135", "9*I^2 - 12*I.M + 3*M^2 - 84*I + 72*M + 135", "9·I² - 12·I·M + 3·M² - 84·I + 72·M + 135"},
	} {
		p, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := p.String(); got != c.ascii {
			t.Errorf("Parse(%q).String() = %q, want %q", c.in, got, c.ascii)
		}
		if got := p.Unicode(); got != c.uni {
			t.Errorf("Parse(%q).Unicode() = %q, want %q", c.in, got, c.uni)
		}
		if back, err := Parse(c.uni); err != nil || !back.Equal(p) {
			t.Errorf("Parse(%q) = %v, %v; want %q", c.uni, back, err, c.ascii)
		}
	}
}

func TestParseForms(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"(M+1)^2", "M^2 + 2*M + 1"},
		{"(M+1)**2", "M^2 + 2*M + 1"},
		{"2^-1", "1/2"},
		{"(2)^(-2)*M", "1/4*M"},
		{"M^(+2)", "M^2"},
		{"-M^2", "-M^2"},
		{"--M", "M"},
		{"2*-M", "-2*M"},
		{"2.5*N", "5/2*N"},
		{"(N^2 + N)/N", "N + 1"},
		{"N/2/3", "1/6*N"},
		{"I.J.I", "I^2.J"},
		{"I·J×K", "I.J.K"},
		{"  \tA  +\nB ", "A + B"},
		{"M^0", "1"},
		{"0^0", "1"},
		{"n_1*x", "n_1.x"},
		{"123456789012345678901234567890", "123456789012345678901234567890"},
	} {
		p, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := p.String(); got != c.want {
			t.Errorf("Parse(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		in  string
		col int
		msg string
	}{
		{"", 1, "empty"},
		{"   ", 1, "empty"},
		{"M +", 4, "end of input"},
		{"M + + ", 7, "end of input"},
		{"2 M", 3, "unexpected name M"},
		{"M # 2", 3, "unexpected character"},
		{"(M + 1", 7, `expected ")"`},
		{"M / (M + 1)", 5, "single term"},
		{"M / 0", 5, "division by zero"},
		{"(M + 1)^-1", 8, "negative power"},
		{"0^-1", 2, "negative power of zero"},
		{"M^N", 3, "integer exponent"},
		{"M^2.5", 3, "integer exponent"},
		{"M^99999", 3, "too large"},
		{"(A+1)**3210", 6, "power too large"},
		{"(A+B+C)^200", 8, "power too large"},
		{"(2^10000)^10000", 10, "power too large"},
		{"M⁻", 2, "without digits"},
		{"·M", 1, "expected a number"},
		{"M ) ", 3, `unexpected ")"`},
		{"ÄM", 1, "unexpected character"},
		{"α + β", 1, "unexpected character"},
		{"M² + ü", 6, "unexpected character"},
	} {
		_, err := Parse(c.in)
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", c.in)
			continue
		}
		pe, ok := err.(*ParseError)
		if !ok {
			t.Errorf("Parse(%q) error %T, want *ParseError", c.in, err)
			continue
		}
		if pe.Col != c.col || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("Parse(%q) = %v, want column %d and %q", c.in, err, c.col, c.msg)
		}
		if !strings.HasPrefix(err.Error(), "column ") {
			t.Errorf("Parse(%q) error %q does not name the column", c.in, err)
		}
	}
}

// FuzzParse checks that Parse never panics and that whatever it accepts
// prints to a form it reads back to the same polynomial.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"57/2*M^2 + 195/2*M + 1", "93*I2.J2.LPRNT^-1 + 186*I2", "57/2·M² + 195/2·M + 1",
		"(M+1)**3/N", "2^-1", "-(A-B)*(A+B)", "M⁻¹²", "1.25*X", "((", "M^", "/0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Count(s, "^")+strings.Count(s, "*") > 12 {
			return // keep powers of powers from taking long
		}
		p, err := Parse(s)
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("Parse(%q) error %T", s, err)
			}
			return
		}
		for _, form := range []string{p.String(), p.Unicode()} {
			q, err := Parse(form)
			if err != nil || !q.Equal(p) {
				t.Fatalf("Parse(%q) = %q; Parse(%q) = %v, %v", s, p, form, q, err)
			}
		}
	})
}

func TestAccessors(t *testing.T) {
	p := MustParse("3*I^2.N^-1 - I + 5*M + 7")
	if got, want := p.Vars(), []string{"I", "M", "N"}; !slices.Equal(got, want) {
		t.Errorf("Vars() = %v, want %v", got, want)
	}
	if lo, hi := p.Degree("I"); lo != 0 || hi != 2 {
		t.Errorf("Degree(I) = %d, %d, want 0, 2", lo, hi)
	}
	if lo, hi := p.Degree("N"); lo != -1 || hi != 0 {
		t.Errorf("Degree(N) = %d, %d, want -1, 0", lo, hi)
	}
	if lo, hi := p.Degree("Z"); lo != 0 || hi != 0 {
		t.Errorf("Degree(Z) = %d, %d, want 0, 0", lo, hi)
	}
	if lo, hi := Zero().Degree("I"); lo != 0 || hi != 0 {
		t.Errorf("Zero().Degree(I) = %d, %d", lo, hi)
	}
	if p.TotalDegree() != 1 || p.Len() != 4 || !p.Has("N") || p.Has("Z") {
		t.Errorf("TotalDegree/Len/Has wrong for %v", p)
	}
	if p.IsConst() || p.IsZero() || p.IsMonomial() {
		t.Errorf("%v reported constant, zero or monomial", p)
	}
	if _, ok := p.Value(); ok {
		t.Errorf("Value of %v succeeded", p)
	}
	if v, ok := Frac(-6, 4).Value(); !ok || v.Cmp(big.NewRat(-3, 2)) != 0 {
		t.Errorf("Frac(-6,4).Value() = %v, %v", v, ok)
	}
	if v, ok := Zero().Value(); !ok || v.Sign() != 0 {
		t.Errorf("Zero().Value() = %v, %v", v, ok)
	}
	var zero Poly
	if !zero.IsZero() || !zero.IsConst() || !zero.Equal(Int(0)) || zero.String() != "0" {
		t.Errorf("zero value is not the zero polynomial")
	}
	if got := p.Coeff("I", 2).String(); got != "3*N^-1" {
		t.Errorf("Coeff(I, 2) = %q", got)
	}
	if got := p.Coeff("I", 0).String(); got != "5*M + 7" {
		t.Errorf("Coeff(I, 0) = %q", got)
	}
	m := Monomial(big.NewRat(2, 1), Factor{"B", 1}, Factor{"A", 2}, Factor{"B", -1}, Factor{"C", 0})
	if got := m.String(); got != "2*A^2" {
		t.Errorf("Monomial = %q, want 2*A^2", got)
	}
	if !Monomial(new(big.Rat), Factor{"A", 1}).IsZero() {
		t.Errorf("Monomial with zero coefficient is not zero")
	}
	r := big.NewRat(5, 3)
	c := Rat(r)
	r.SetInt64(9)
	if got := c.String(); got != "5/3" {
		t.Errorf("Rat kept a reference to its argument: %q", got)
	}
}

func TestTermsRoundTrip(t *testing.T) {
	p := MustParse("93*I2.J2.LPRNT^-1 + 186*I2 - 91*I2.LPRNT^-1 + 1")
	ts := p.Terms()
	if len(ts) != 4 || ts[0].Coef.Cmp(big.NewRat(93, 1)) != 0 ||
		!slices.Equal(ts[0].Factors, []Factor{{"I2", 1}, {"J2", 1}, {"LPRNT", -1}}) ||
		len(ts[3].Factors) != 0 {
		t.Fatalf("Terms() = %v", ts)
	}
	// Changing the copies leaves p alone.
	ts[0].Coef.SetInt64(0)
	ts[1].Factors[0].Exp = 7
	if got := p.String(); got != "93*I2.J2.LPRNT^-1 + 186*I2 - 91*I2.LPRNT^-1 + 1" {
		t.Fatalf("Terms() exposed internals: %q", got)
	}
	ts = p.Terms()
	rand.New(rand.NewSource(1)).Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
	ts = append(ts, Term{Coef: big.NewRat(-1, 1)}, Term{Coef: big.NewRat(2, 1), Factors: []Factor{{"I2", 1}}})
	if got := FromTerms(ts); !got.Equal(p.Add(MustParse("2*I2 - 1"))) {
		t.Errorf("FromTerms = %v", got)
	}
}

// TestImmutable checks that operations leave their operands unchanged.
func TestImmutable(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for n := 0; n < 200; n++ {
		p, q := randPoly(rng, 6, true), randPoly(rng, 6, true)
		ps, qs := p.String(), q.String()
		_ = p.Add(q)
		_ = p.Sub(q)
		_ = p.Mul(q)
		_ = p.Neg()
		_ = p.Scale(big.NewRat(-3, 7))
		_, _ = p.Pow(3)
		_, _ = p.Div(q)
		_, _ = p.Subst("I", q)
		_ = p.Eval(map[string]*big.Rat{"I": big.NewRat(2, 1)})
		_ = p.Coeff("I", 1)
		if p.String() != ps || q.String() != qs {
			t.Fatalf("operands changed: %q -> %q, %q -> %q", ps, p, qs, q)
		}
	}
}

var testVars = []string{"I", "J", "M", "N", "LPRNT"}

// randRat returns a random rational, often a small integer and sometimes
// too large for the inline form of coefficients.
func randRat(rng *rand.Rand) *big.Rat {
	if rng.Intn(12) == 0 {
		num := new(big.Int).Lsh(big.NewInt(int64(rng.Intn(19)-9)), uint(rng.Intn(50)))
		den := new(big.Int).Exp(big.NewInt(3), big.NewInt(int64(rng.Intn(30))), nil)
		return new(big.Rat).SetFrac(num, den)
	}
	num := int64(rng.Intn(19) - 9)
	den := int64(1)
	if rng.Intn(3) == 0 {
		den = int64(rng.Intn(6) + 1)
	}
	return big.NewRat(num, den)
}

// randPoly returns a random polynomial of up to n terms in testVars, with
// negative exponents when neg is set.
func randPoly(rng *rand.Rand, n int, neg bool) Poly {
	var ts []Term
	for k := rng.Intn(n + 1); k > 0; k-- {
		var fs []Factor
		for _, v := range testVars {
			if rng.Intn(2) == 0 {
				continue
			}
			e := rng.Intn(4)
			if neg {
				e = rng.Intn(6) - 2
			}
			fs = append(fs, Factor{v, e})
		}
		ts = append(ts, Term{Coef: randRat(rng), Factors: fs})
	}
	return FromTerms(ts)
}

// randEnv binds every test variable to a small nonzero rational.
func randEnv(rng *rand.Rand) map[string]*big.Rat {
	env := map[string]*big.Rat{}
	for _, v := range testVars {
		r := randRat(rng)
		for r.Sign() == 0 {
			r = randRat(rng)
		}
		env[v] = r
	}
	return env
}

func value(t *testing.T, p Poly, env map[string]*big.Rat) *big.Rat {
	t.Helper()
	v, ok := p.Eval(env).Value()
	if !ok {
		t.Fatalf("%v is not constant under %v", p, env)
	}
	return v
}

func TestAlgebraProperties(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := 0; n < 500; n++ {
		p, q, r := randPoly(rng, 5, true), randPoly(rng, 5, true), randPoly(rng, 5, true)
		if got, want := p.Mul(q.Add(r)), p.Mul(q).Add(p.Mul(r)); !got.Equal(want) {
			t.Fatalf("p(q+r) = %v, pq+pr = %v for p=%v q=%v r=%v", got, want, p, q, r)
		}
		if !p.Mul(q).Equal(q.Mul(p)) || !p.Add(q).Equal(q.Add(p)) {
			t.Fatalf("not commutative for p=%v q=%v", p, q)
		}
		if !p.Mul(q).Mul(r).Equal(p.Mul(q.Mul(r))) {
			t.Fatalf("Mul not associative for p=%v q=%v r=%v", p, q, r)
		}
		if !p.Add(q).Sub(q).Equal(p) || !p.Sub(p).IsZero() || !p.Add(p.Neg()).IsZero() {
			t.Fatalf("Add/Sub/Neg inconsistent for p=%v q=%v", p, q)
		}
		if !p.Scale(big.NewRat(3, 2)).Equal(p.Mul(Frac(3, 2))) {
			t.Fatalf("Scale differs from Mul by a constant for p=%v", p)
		}
		p3, _ := p.Pow(3)
		if !p3.Equal(p.Mul(p).Mul(p)) {
			t.Fatalf("p^3 = %v, p*p*p = %v", p3, p.Mul(p).Mul(p))
		}
		// Evaluation is a ring homomorphism.
		env := randEnv(rng)
		if value(t, p.Mul(q), env).Cmp(new(big.Rat).Mul(value(t, p, env), value(t, q, env))) != 0 {
			t.Fatalf("Eval(pq) != Eval(p)Eval(q) for p=%v q=%v", p, q)
		}
		// Division by a monomial undoes multiplication.
		if mono := randPoly(rng, 1, true); mono.IsMonomial() {
			d, ok := p.Mul(mono).Div(mono)
			if !ok || !d.Equal(p) {
				t.Fatalf("(p*m)/m = %v, want %v (m=%v)", d, p, mono)
			}
			inv, ok := mono.Pow(-2)
			m2, _ := mono.Pow(2)
			if !ok || !inv.Mul(m2).Equal(Int(1)) {
				t.Fatalf("m^-2 * m^2 = %v for m=%v", inv.Mul(m2), mono)
			}
		}
		if _, ok := p.Div(q); ok != q.IsMonomial() {
			t.Fatalf("Div by %v: ok=%v", q, ok)
		}
	}
}

func TestSubstEvalCommute(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for n := 0; n < 500; n++ {
		p := randPoly(rng, 6, true)
		neg := rng.Intn(2) == 0
		q := randPoly(rng, 3, true)
		if neg {
			q = randPoly(rng, 1, true)
		}
		x := testVars[rng.Intn(len(testVars))]
		s, ok := p.Subst(x, q)
		if lo, _ := p.Degree(x); ok != (lo >= 0 || q.IsMonomial()) {
			t.Fatalf("Subst(%s, %v) in %v: ok=%v", x, q, p, ok)
		}
		if !ok {
			continue
		}
		env := randEnv(rng)
		qv := value(t, q, env)
		env2 := map[string]*big.Rat{}
		for k, v := range env {
			env2[k] = v
		}
		env2[x] = qv
		if lo, _ := p.Degree(x); lo < 0 && qv.Sign() == 0 {
			continue
		}
		if got, want := value(t, s, env), value(t, p, env2); got.Cmp(want) != 0 {
			t.Fatalf("Subst(%s, %v) in %v = %v: value %v, want %v", x, q, p, s, got, want)
		}
		// Partial evaluation commutes with substitution when the
		// substituted variable is not evaluated.
		part := map[string]*big.Rat{}
		for _, v := range testVars {
			if v != x && rng.Intn(2) == 0 {
				part[v] = env[v]
			}
		}
		s2, ok := p.Eval(part).Subst(x, q.Eval(part))
		if !ok || !s2.Equal(s.Eval(part)) {
			t.Fatalf("Eval then Subst = %v, Subst then Eval = %v", s2, s.Eval(part))
		}
	}
}

func TestSubstExamples(t *testing.T) {
	for _, c := range []struct{ p, x, q, want string }{
		{"-6*I - 6*J + 6*M + 70", "J", "I + 1", "-12*I + 6*M + 64"},
		{"I^2 + I", "I", "I + 1", "I^2 + 3*I + 2"},
		{"N^-1 + N", "N", "2*M", "2*M + 1/2*M^-1"},
		{"K^2", "K", "0", "0"},
		{"A + 1", "K", "N^2", "A + 1"},
	} {
		got, ok := MustParse(c.p).Subst(c.x, MustParse(c.q))
		if !ok || got.String() != c.want {
			t.Errorf("(%s)[%s := %s] = %v, %v; want %s", c.p, c.x, c.q, got, ok, c.want)
		}
	}
	if _, ok := MustParse("N^-1").Subst("N", MustParse("M + 1")); ok {
		t.Errorf("substituting a sum for a variable with a negative exponent succeeded")
	}
	if _, ok := MustParse("N^-1").Subst("N", Zero()); ok {
		t.Errorf("substituting zero for a variable with a negative exponent succeeded")
	}
}

func TestEvalPartial(t *testing.T) {
	p := MustParse("93*I2.J2.LPRNT^-1 + 186*I2 - 91*I2.LPRNT^-1")
	got := p.Eval(map[string]*big.Rat{"LPRNT": big.NewRat(2, 1)})
	if want := "93/2*I2.J2 + 281/2*I2"; got.String() != want {
		t.Errorf("Eval(LPRNT=2) = %q, want %q", got, want)
	}
	got = p.Eval(map[string]*big.Rat{"LPRNT": new(big.Rat), "J2": big.NewRat(1, 1)})
	if want := "186*I2 + 2*I2.LPRNT^-1"; got.String() != want {
		t.Errorf("Eval(LPRNT=0, J2=1) = %q, want %q", got, want)
	}
	if got := p.Eval(nil); !got.Equal(p) {
		t.Errorf("Eval(nil) changed p")
	}
}

func TestParseRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for n := 0; n < 1000; n++ {
		p := randPoly(rng, 8, true)
		for _, s := range []string{p.String(), p.Unicode()} {
			q, err := Parse(s)
			if err != nil {
				t.Fatalf("Parse(%q): %v", s, err)
			}
			if !q.Equal(p) {
				t.Fatalf("Parse(%q) = %q", s, q)
			}
		}
	}
}

// TestCanonical checks that the order of construction does not matter.
func TestCanonical(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for n := 0; n < 300; n++ {
		p := randPoly(rng, 8, true)
		ts := p.Terms()
		rng.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
		sum := Zero()
		for _, tm := range ts {
			sum = sum.Add(FromTerms([]Term{tm}))
		}
		if !sum.Equal(p) || sum.String() != p.String() {
			t.Fatalf("sum of shuffled terms %q, want %q", sum, p)
		}
		// Terms are strictly ordered.
		for i := 1; i < len(p.terms); i++ {
			if compareTerms(&p.terms[i-1], &p.terms[i]) >= 0 {
				t.Fatalf("terms of %q out of order at %d", p, i)
			}
		}
	}
}

func TestPow(t *testing.T) {
	for _, c := range []struct {
		p    string
		n    int
		want string
		ok   bool
	}{
		{"M + 1", 3, "M^3 + 3*M^2 + 3*M + 1", true},
		{"M + 1", 0, "1", true},
		{"M + 1", -1, "", false},
		{"2/3*M^2.N^-1", -2, "9/4*M^-4.N^2", true},
		{"0", 2, "0", true},
		{"0", -1, "", false},
	} {
		got, ok := MustParse(c.p).Pow(c.n)
		if ok != c.ok || ok && got.String() != c.want {
			t.Errorf("(%s)^%d = %v, %v; want %s, %v", c.p, c.n, got, ok, c.want, c.ok)
		}
	}
}

func TestBigCoefficients(t *testing.T) {
	// (2^20·M + 1)^4 has coefficients C(4,k)·2^(20k), up to 2^80.
	p, _ := MustParse("1048576*M + 1").Pow(4)
	want := "1208925819614629174706176*M^4 + 4611686018427387904*M^3 + 6597069766656*M^2 + 4194304*M + 1"
	if got := p.String(); got != want {
		t.Errorf("(2^20*M + 1)^4 = %q, want %q", got, want)
	}
	// Going through large values and back gives the inline form again,
	// so Equal still compares canonical forms.
	big3, _ := Int(1 << 40).Pow(3)
	q, ok := p.Mul(big3).Div(big3)
	if !ok || !q.Equal(p) {
		t.Errorf("(p·2^120)/2^120 = %v, want %v", q, p)
	}
	x := Int(1<<31 - 1).Add(Int(1)).Sub(Int(1))
	if !x.Equal(Int(1<<31-1)) || x.terms[0].coef.r != nil {
		t.Errorf("2^31-1 after a round trip through 2^31 is %v (big form %v)", x, x.terms[0].coef.r != nil)
	}
	if got := Frac(-7, 1<<40).Mul(Frac(1<<40, 7)).String(); got != "-1" {
		t.Errorf("(-7/2^40)·(2^40/7) = %s", got)
	}
	if got, _ := Frac(-2, 3).Pow(-41); got.String() != "-"+new(big.Int).Exp(big.NewInt(3), big.NewInt(41), nil).String()+"/"+new(big.Int).Lsh(big.NewInt(1), 41).String() {
		t.Errorf("(-2/3)^-41 = %s", got)
	}
	if got, _ := Int(-1).Pow(1_000_001); !got.Equal(Int(-1)) {
		t.Errorf("(-1)^1000001 = %v", got)
	}
	if got := Int(1 << 62).String(); got != "4611686018427387904" {
		t.Errorf("Int(2^62) = %s", got)
	}
	// Sums of large coefficients with equal denominators.
	a := Rat(new(big.Rat).SetFrac64(1<<40, 3))
	if got := a.Add(a).Sub(a).Sub(a); !got.IsZero() {
		t.Errorf("a + a - a - a = %v", got)
	}
}

// midPolys returns two polynomials of about 20 terms in 4 variables with
// small rational coefficients, the size of a large routine summary.
func midPolys() (Poly, Poly) {
	rng := rand.New(rand.NewSource(99))
	gen := func() Poly {
		var ts []Term
		for len(ts) < 20 {
			var fs []Factor
			for _, v := range []string{"I", "J", "N", "M"} {
				fs = append(fs, Factor{v, rng.Intn(3)})
			}
			c := big.NewRat(int64(rng.Intn(199)-99), int64(rng.Intn(4)+1))
			ts = append(ts, Term{Coef: c, Factors: fs})
		}
		return FromTerms(ts)
	}
	return gen(), gen()
}

func BenchmarkAdd(b *testing.B) {
	p, q := midPolys()
	b.ReportAllocs()
	for b.Loop() {
		_ = p.Add(q)
	}
}

func BenchmarkMul(b *testing.B) {
	p, q := midPolys()
	b.ReportAllocs()
	for b.Loop() {
		_ = p.Mul(q)
	}
}

func BenchmarkString(b *testing.B) {
	p, q := midPolys()
	r := p.Mul(q)
	b.ReportAllocs()
	for b.Loop() {
		_ = r.String()
	}
}

func BenchmarkParse(b *testing.B) {
	p, q := midPolys()
	s := p.Mul(q).String()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = Parse(s)
	}
}
