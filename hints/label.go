package hints

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/pfls/pfls/complexity"
)

// siThreshold is the magnitude from which a label shows a number alone
// scaled rather than in full: 10⁴, so that 5-digit counts and up read at a
// glance. coefThreshold is the same for a coefficient or constant term
// beside variables, where the power-of-ten form is only shorter from 10⁶.
const (
	siThreshold   = 1e4
	coefThreshold = 1e6
)

// labelPoly is p as an inlay label shows it: Poly.Unicode, except that
// large numbers are rounded to 3 significant digits. A polynomial that is
// a number alone gets an SI prefix ("18.3 G"); a large coefficient or
// constant term beside variables is written with a power of ten
// ("1.5×10⁶·N²"), because a prefix letter such as M or G would read as a
// variable there. The exact value stays in the tooltip.
func labelPoly(p complexity.Poly) string {
	ts := p.Terms()
	if p.IsConst() && len(ts) == 1 {
		if v := ratFloat(ts[0].Coef); math.Abs(v) >= siThreshold {
			return siScale(v)
		}
		return p.Unicode()
	}
	if !hasLarge(ts) {
		return p.Unicode()
	}
	var sb strings.Builder
	for i, t := range ts {
		neg := t.Coef.Sign() < 0
		switch {
		case i == 0 && neg:
			sb.WriteByte('-')
		case i > 0 && neg:
			sb.WriteString(" - ")
		case i > 0:
			sb.WriteString(" + ")
		}
		abs := new(big.Rat).Abs(t.Coef)
		if v := ratFloat(abs); v >= coefThreshold {
			sb.WriteString(pow10Scale(v))
			if len(t.Factors) > 0 {
				sb.WriteString("·")
			}
		} else if abs.Cmp(big.NewRat(1, 1)) != 0 || len(t.Factors) == 0 {
			sb.WriteString(abs.RatString())
			if len(t.Factors) > 0 {
				sb.WriteString("·")
			}
		}
		for k, f := range t.Factors {
			if k > 0 {
				sb.WriteString("·")
			}
			sb.WriteString(f.Name)
			if f.Exp != 1 {
				sb.WriteString(superscript(f.Exp))
			}
		}
	}
	return sb.String()
}

func hasLarge(ts []complexity.Term) bool {
	for _, t := range ts {
		if math.Abs(ratFloat(t.Coef)) >= coefThreshold {
			return true
		}
	}
	return false
}

func ratFloat(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}

var siPrefixes = []string{"", " k", " M", " G", " T", " P", " E", " Z", " Y"}

// siScale writes v with 3 significant digits and an SI prefix: 18.3 G,
// 128 M, 12.3 k. Values below siThreshold print in full.
func siScale(v float64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	if v < siThreshold {
		return sign + strconv.FormatFloat(v, 'g', -1, 64)
	}
	m, e := engineering(v)
	if e/3 >= len(siPrefixes) {
		return sign + pow10Scale(v)
	}
	return sign + m + siPrefixes[e/3]
}

// pow10Scale writes v with 3 significant digits times a power of ten that
// is a multiple of 3, as SI prefixes go: 1.5×10⁶.
func pow10Scale(v float64) string {
	m, e := engineering(v)
	return m + "×10" + superscript(e)
}

// engineering splits v ≥ 1 into a mantissa of 3 significant digits in
// [1, 1000) and an exponent that is a multiple of 3.
func engineering(v float64) (string, int) {
	// Round to 3 significant digits first: 999.6 k becomes 1 M, not 1000 k.
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'e', 2, 64), 64)
	e := int(math.Floor(math.Log10(r)))
	e -= e % 3
	m := r / math.Pow(10, float64(e))
	return strconv.FormatFloat(m, 'g', 3, 64), e
}

var superDigits = [10]rune{'⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'}

func superscript(n int) string {
	var sb strings.Builder
	for _, r := range strconv.Itoa(n) {
		if r == '-' {
			sb.WriteRune('⁻')
		} else {
			sb.WriteRune(superDigits[r-'0'])
		}
	}
	return sb.String()
}
