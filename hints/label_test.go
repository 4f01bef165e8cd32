package hints

import (
	"math/big"
	"testing"

	"github.com/pfls/pfls/complexity"
)

func TestLabelPoly(t *testing.T) {
	n := complexity.Var("N")
	m := complexity.Var("M")
	big6 := complexity.Int(1500000)
	for _, c := range []struct {
		p    complexity.Poly
		want string
	}{
		{complexity.Int(18278991513), "18.3 G"},
		{complexity.Int(127500080), "128 M"},
		{complexity.Int(999600), "1 M"},
		{complexity.Int(12345), "12.3 k"},
		{complexity.Int(9999), "9999"},
		{complexity.Int(-2694064363), "-2.69 G"},
		{complexity.Rat(big.NewRat(57, 2)), "57/2"},
		{m.Mul(m).Mul(complexity.Frac(57, 2)).Add(m.Mul(complexity.Frac(195, 2))).Add(complexity.Int(1)), "57/2·M² + 195/2·M + 1"},
		{n.Mul(n).Mul(big6).Add(n).Sub(complexity.Int(20000)), "1.5×10⁶·N² + N - 20000"},
		{n.Mul(complexity.Int(12)).Add(big6), "12·N + 1.5×10⁶"},
		{n.Mul(complexity.Int(30740)).Add(complexity.Int(15362)), "30740·N + 15362"},
		{n.Mul(complexity.Int(-30740)).Add(complexity.Int(15749122)), "-30740·N + 15.7×10⁶"},
	} {
		if got := labelPoly(c.p); got != c.want {
			t.Errorf("labelPoly(%s) = %q, want %q", c.p, got, c.want)
		}
	}
}
