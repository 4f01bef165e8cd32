package complexity

import (
	"math/big"
	"strings"
	"testing"
)

// Tests written against the mutants gremlins found alive (issue 21,
// scripts/mutation.sh).

// TestBlockedLoopDividesPieces: a loop over blocks of BS splits on
// whether BS divides N. The conditions say so in words, and where BS
// divides N the number of blocks, ⌊(N − 1)/BS⌋ + 1, is the exact
// quotient N/BS: that piece has no floor left, and its value is the
// other piece's formula wherever BS divides N. Exactly one piece holds
// at each N and BS, with the unit's count.
func TestBlockedLoopDividesPieces(t *testing.T) {
	us := unitsFree(t, `subroutine s(a, n, bs)
  integer n, bs, i, j
  real a(n)
  do i = 1, n, bs
    do j = i, min(i+bs-1, n)
      a(j) = 0
    end do
  end do
end
`)
	u := us["S"]
	var divides, not *Piece
	var whens []string
	for i, p := range u.Pieces {
		w := WhenString(p.When, false)
		whens = append(whens, w)
		switch w {
		case "BS divides N, N >= 1":
			divides = &u.Pieces[i]
		case "BS does not divide N, N >= 1":
			not = &u.Pieces[i]
		}
	}
	if divides == nil || not == nil || len(u.Pieces) != 3 {
		t.Fatalf("pieces when %q", whens)
	}
	if strings.Contains(divides.Cost.String(), "FLOOR") {
		t.Errorf("BS divides N: %s still has a floor", divides.Cost)
	}
	for n := int64(1); n <= 30; n++ {
		for bs := int64(1); bs <= 8; bs++ {
			env := map[string]*big.Rat{"N": big.NewRat(n, 1), "BS": big.NewRat(bs, 1)}
			holds := 0
			for _, p := range u.Pieces {
				in := true
				for _, c := range p.When {
					in = in && c.Holds(env)
				}
				if !in {
					continue
				}
				holds++
				if got, want := EvalGuarded(p.Cost, env), EvalGuarded(u.Count, env); !got.Equal(want) {
					t.Errorf("N=%d BS=%d: piece %s gives %s, the count %s", n, bs, WhenString(p.When, false), got, want)
				}
			}
			if holds != 1 {
				t.Errorf("N=%d BS=%d: %d pieces hold", n, bs, holds)
			}
			if n%bs == 0 {
				if a, b := EvalGuarded(divides.Cost, env), EvalGuarded(not.Cost, env); !a.Equal(b) {
					t.Errorf("N=%d BS=%d: exact piece %s, floor formula %s", n, bs, a, b)
				}
			}
		}
	}
}
