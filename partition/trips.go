package partition

// The busiest processor's share of a loop over a distributed dimension,
// in closed form: the loop visits positions c, c+s, c+2s, ... (n of
// them, 0-based in the dimension, those below 0 taken as 0) and each
// position belongs to one of p processors.

// busiestBlock is the largest number of the n positions c + i·s that one
// processor holds when the dimension is cut into blocks of b (the last
// processor also holds everything past its block): per processor, the
// positions in its interval, counted as an arithmetic progression.
func busiestBlock(c, s, n, b, p int64) int64 {
	return maxOf(blockCounts(c, s, n, b, p))
}

// blockCounts is every processor's number of the positions under blocks
// of b (see busiestBlock).
func blockCounts(c, s, n, b, p int64) []int64 {
	counts := make([]int64, p)
	for q := int64(0); q < p; q++ {
		lo, hi := q*b, (q+1)*b
		loOpen, hiOpen := q == 0, q == p-1 // owner 0 takes the clamped positions
		counts[q] = countAP(c, s, n, lo, hi, loOpen, hiOpen)
	}
	return counts
}

func maxOf(xs []int64) int64 {
	best := int64(0)
	for _, v := range xs {
		best = max(best, v)
	}
	return best
}

// busiestCyclic is the largest number of the n positions c + i·s that one
// processor holds under CYCLIC(k) over p processors: position x belongs
// to (x/k) mod p, and positions below 0 to processor 0. The owners repeat
// with period k·p/gcd(|s|, k·p) in i, so one period is counted and scaled.
func busiestCyclic(c, s, n, k, p int64) int64 {
	return maxOf(cyclicCounts(c, s, n, k, p))
}

// cyclicCounts is every processor's number of the positions under
// CYCLIC(k) (see busiestCyclic).
func cyclicCounts(c, s, n, k, p int64) []int64 {
	counts := make([]int64, p)
	// Positions below 0 (a contiguous run of i at one end).
	neg := countAP(c, s, n, 0, 0, true, false)
	counts[0] += neg
	first := int64(0) // first i with a position ≥ 0
	if s > 0 || (s == 0 && c < 0) {
		first = neg
	}
	m := n - neg // iterations at positions ≥ 0, from i = first on
	if m > 0 {
		kp := k * p
		period := kp / gcd(abs64(s), kp)
		if period > m {
			period = m
		}
		full, rest := m/period, m%period
		for j := int64(0); j < period; j++ {
			x := c + (first+j)*s
			q := (x / k) % p
			counts[q] += full
			if j < rest {
				counts[q]++
			}
		}
	}
	return counts
}

// countAP counts the i in [0, n) with lo ≤ c + i·s < hi; loOpen drops the
// lower bound, hiOpen the upper one.
func countAP(c, s, n, lo, hi int64, loOpen, hiOpen bool) int64 {
	if n <= 0 {
		return 0
	}
	if s == 0 {
		if (loOpen || c >= lo) && (hiOpen || c < hi) {
			return n
		}
		return 0
	}
	if s < 0 {
		// c + i·s in [lo, hi)  ⇔  -c + i·(-s) in (-hi, -lo] = [1-hi, 1-lo).
		return countAP(-c, -s, n, 1-hi, 1-lo, hiOpen, loOpen)
	}
	from, to := int64(0), n
	if !loOpen {
		from = max(from, ceilDiv(lo-c, s))
	}
	if !hiOpen {
		to = min(to, ceilDiv(hi-c, s))
	}
	return max(to-from, 0)
}

func ceilDiv(a, b int64) int64 { // b > 0
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func abs64(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}
