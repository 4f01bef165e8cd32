package complexity

import (
	"math/big"
	"math/rand"
	"strings"
	"testing"
)

func r(p, q int64) *big.Rat { return big.NewRat(p, q) }

// residual returns g − P·g, which must equal c.
func residual(p [][]*big.Rat, g []Poly) []Poly {
	out := make([]Poly, len(g))
	for i := range g {
		s := g[i]
		for j, v := range p[i] {
			if v != nil {
				s = s.Sub(g[j].Scale(v))
			}
		}
		out[i] = s
	}
	return out
}

func TestSolveLinearExamples(t *testing.T) {
	// A GOTO loop: node 1 costs N and jumps back to itself with
	// probability 9/10, then node 2 costs 1.
	g, err := SolveLinear([][]*big.Rat{{r(9, 10), r(1, 10)}, {nil, nil}}, []Poly{Var("N"), Int(1)})
	if err != nil {
		t.Fatal(err)
	}
	if got := g[0].String(); got != "10*N + 1" {
		t.Errorf("g1 = %q, want 10*N + 1", got)
	}
	// An IF-GOTO diamond: 1 → 2 or 3 with probability 1/2 each, both → 4.
	g, err = SolveLinear([][]*big.Rat{
		{nil, r(1, 2), r(1, 2), nil},
		{nil, nil, nil, r(1, 1)},
		{nil, nil, nil, r(1, 1)},
		{nil, nil, nil, nil},
	}, []Poly{Int(1), MustParse("4*M"), MustParse("2*N"), Int(3)})
	if err != nil {
		t.Fatal(err)
	}
	if got := g[0].String(); got != "2*M + N + 4" {
		t.Errorf("g1 = %q, want 2*M + N + 4", got)
	}
	// I − P has a zero in the first pivot position, so the rows must be
	// exchanged (the solver does not require P to hold probabilities).
	g, err = SolveLinear([][]*big.Rat{{r(1, 1), r(-1, 1)}, {r(1, 1), r(0, 1)}}, []Poly{Var("A"), Var("B")})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range residual([][]*big.Rat{{r(1, 1), r(-1, 1)}, {r(1, 1), r(0, 1)}}, g) {
		if want := []Poly{Var("A"), Var("B")}[i]; !c.Equal(want) {
			t.Errorf("row %d: g - Pg = %v, want %v", i, c, want)
		}
	}
	if g, err := SolveLinear(nil, nil); err != nil || len(g) != 0 {
		t.Errorf("empty system: %v, %v", g, err)
	}
}

func TestSolveLinearErrors(t *testing.T) {
	for _, c := range []struct {
		p    [][]*big.Rat
		c    []Poly
		want string
	}{
		{[][]*big.Rat{{r(1, 1)}}, []Poly{Int(1)}, "singular"},
		// Two nodes that jump to each other for ever.
		{[][]*big.Rat{{nil, r(1, 1)}, {r(1, 1), nil}}, []Poly{Int(1), Int(2)}, "singular"},
		// Node 1 jumps to itself for ever; node 2 reaches it.
		{[][]*big.Rat{{r(1, 1), nil}, {r(1, 2), nil}}, []Poly{Int(0), Int(1)}, "singular"},
		{[][]*big.Rat{{nil}}, []Poly{Int(1), Int(2)}, "rows"},
		{[][]*big.Rat{{nil}, {nil}}, []Poly{Int(1), Int(2)}, "row 0"},
	} {
		_, err := SolveLinear(c.p, c.c)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("SolveLinear(%v) error %v, want %q", c.p, err, c.want)
		}
	}
}

// TestSolveLinearRandom solves random control-flow systems (each row a
// probability distribution over the nodes and the exit) and checks
// g − P·g = c exactly.
func TestSolveLinearRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	for n := 0; n < 200; n++ {
		size := rng.Intn(7) + 1
		p := make([][]*big.Rat, size)
		c := make([]Poly, size)
		for i := range p {
			p[i] = make([]*big.Rat, size)
			// Weights over the nodes and the exit; the exit always has
			// some weight so that the system is regular.
			weights := make([]int64, size+1)
			total := int64(0)
			for j := range weights {
				if rng.Intn(3) > 0 {
					weights[j] = int64(rng.Intn(5))
				}
				total += weights[j]
			}
			weights[size]++
			total++
			for j := 0; j < size; j++ {
				if weights[j] != 0 {
					p[i][j] = big.NewRat(weights[j], total)
				}
			}
			c[i] = randPoly(rng, 4, true)
		}
		g, err := SolveLinear(p, c)
		if err != nil {
			t.Fatalf("SolveLinear(%v): %v", p, err)
		}
		for i, res := range residual(p, g) {
			if !res.Equal(c[i]) {
				t.Fatalf("row %d: g - Pg = %v, want %v", i, res, c[i])
			}
		}
	}
}
