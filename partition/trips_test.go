package partition

import (
	"math/rand"
	"testing"
)

// busiestBrute steps through the iterations, as localTrips did before
// its closed form.
func busiestBrute(c, s, n, ext, p, k int64, cyclic bool) int64 {
	counts := make([]int64, p)
	b := (ext + p - 1) / p
	for i := int64(0); i < n; i++ {
		pos := max(c+i*s, 0)
		var owner int64
		if cyclic {
			owner = (pos / k) % p
		} else {
			owner = min(pos/b, p-1)
		}
		counts[owner]++
	}
	best := int64(0)
	for _, v := range counts {
		best = max(best, v)
	}
	return best
}

// TestBusiestClosedForm: the closed forms count what stepping through
// the iterations counts, for random loops (steps of either sign, starts
// below the array, BLOCK and CYCLIC(k)).
func TestBusiestClosedForm(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for trial := 0; trial < 20000; trial++ {
		ext := 1 + r.Int63n(300)
		p := 1 + r.Int63n(17)
		k := 1 + r.Int63n(5)
		n := r.Int63n(400)
		s := r.Int63n(9) - 4
		c := r.Int63n(ext+20) - 10
		cyclic := trial%2 == 1
		want := busiestBrute(c, s, n, ext, p, k, cyclic)
		var got int64
		if cyclic {
			got = busiestCyclic(c, s, n, k, p)
		} else {
			got = busiestBlock(c, s, n, (ext+p-1)/p, p)
		}
		if got != want {
			t.Fatalf("c=%d s=%d n=%d ext=%d p=%d k=%d cyclic=%v: %d, want %d", c, s, n, ext, p, k, cyclic, got, want)
		}
	}
}

// BenchmarkLocalTripsLarge: a loop of 10^12 iterations costs the same as
// a small one (the old loop stopped stepping at 10^7).
func BenchmarkLocalTripsLarge(b *testing.B) {
	for i := 0; i < b.N; i++ {
		busiestBlock(0, 1, 1e12, 1e12/16+1, 16)
		busiestCyclic(0, 3, 1e12, 2, 16)
	}
}
