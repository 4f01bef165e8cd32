package complexity

import (
	"fmt"
	"math/big"
)

// SolveLinear solves g = c + P·g for the vector of polynomials g, the
// PIPS rule for unstructured control flow: gᵢ = cᵢ + Σⱼ pᵢⱼ·gⱼ, where cᵢ
// is the proper cost of node i, pᵢⱼ the probability of going from node i
// to node j, and gᵢ the expected cost from node i to the exit. P must be
// n×n for n = len(c); a nil entry counts as zero. The system is solved
// exactly by Gaussian elimination over the rationals. SolveLinear returns
// an error when the sizes disagree or when I − P is singular, as it is for
// a cycle the control flow leaves with probability 0 (an infinite loop).
func SolveLinear(p [][]*big.Rat, c []Poly) ([]Poly, error) {
	n := len(c)
	if len(p) != n {
		return nil, fmt.Errorf("complexity: %d rows of probabilities for %d costs", len(p), n)
	}
	// a = I − P, with the right-hand side kept beside it.
	a := make([][]*big.Rat, n)
	for i, row := range p {
		if len(row) != n {
			return nil, fmt.Errorf("complexity: row %d has %d probabilities, want %d", i, len(row), n)
		}
		a[i] = make([]*big.Rat, n)
		for j, v := range row {
			x := new(big.Rat)
			if v != nil {
				x.Neg(v)
			}
			if i == j {
				x.Add(x, big.NewRat(1, 1))
			}
			a[i][j] = x
		}
	}
	rhs := append([]Poly(nil), c...)

	// Forward elimination. The arithmetic is exact, so any nonzero pivot
	// will do; the first one keeps the order of the rows when possible.
	for col := 0; col < n; col++ {
		piv := -1
		for r := col; r < n; r++ {
			if a[r][col].Sign() != 0 {
				piv = r
				break
			}
		}
		if piv < 0 {
			return nil, fmt.Errorf("complexity: the system is singular: some cycle of the control flow is never left")
		}
		a[col], a[piv] = a[piv], a[col]
		rhs[col], rhs[piv] = rhs[piv], rhs[col]
		for r := col + 1; r < n; r++ {
			if a[r][col].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Quo(a[r][col], a[col][col])
			for k := col; k < n; k++ {
				a[r][k] = new(big.Rat).Sub(a[r][k], new(big.Rat).Mul(f, a[col][k]))
			}
			rhs[r] = rhs[r].Sub(rhs[col].Scale(f))
		}
	}

	// Back substitution.
	g := make([]Poly, n)
	for i := n - 1; i >= 0; i-- {
		s := rhs[i]
		for k := i + 1; k < n; k++ {
			if a[i][k].Sign() != 0 {
				s = s.Sub(g[k].Scale(a[i][k]))
			}
		}
		g[i] = s.Scale(new(big.Rat).Inv(a[i][i]))
	}
	return g, nil
}
