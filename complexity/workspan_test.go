package complexity

import (
	"math/big"
	"strings"
	"testing"

	"github.com/pfls/pfls/parser"
)

func unitsFree(t *testing.T, src string) map[string]*UnitResult {
	t.Helper()
	f := parser.Parse("w.f90", []byte(src), nil)
	if errs := f.Errors(); len(errs) > 0 {
		t.Fatalf("%v", errs)
	}
	out := map[string]*UnitResult{}
	for _, r := range NewEngine(Options{}).File(f) {
		out[r.Unit.Name] = r
	}
	return out
}

// TestWorkAndSpan: parallel constructs report all iterations as their
// work and their largest iteration as their span (seed 004 §4.4.5).
func TestWorkAndSpan(t *testing.T) {
	us := unitsFree(t, `subroutine omp(a, n)
  integer n
  real a(n, n)
  !$omp parallel do
  do i = 1, n
    do j = 1, n
      a(i, j) = a(i, j) * 2.0
    end do
  end do
end subroutine
subroutine seq(a, n)
  integer n
  real a(n, n)
  do i = 1, n
    do j = 1, n
      a(i, j) = a(i, j) * 2.0
    end do
  end do
end subroutine
`)
	omp, seq := us["OMP"], us["SEQ"]
	if omp.Summary.String() != seq.Summary.String() || omp.Summary.String() != "9*N^2 + N + 1" {
		t.Errorf("work of the parallel loop %s, of the sequential one %s; want both 9*N^2 + N + 1", omp.Summary, seq.Summary)
	}
	if !omp.HasSpan || omp.Span.String() != "9*N + 2" || seq.HasSpan {
		t.Errorf("span %s (has %v), sequential has span %v", omp.Span, omp.HasSpan, seq.HasSpan)
	}
	// CM Fortran: 200 steps of array syntax over 256x256 arrays.
	f := parseFile(t, "testdata/cmf_blocked.f90")
	rs := NewEngine(Options{}).File(f)
	cmf := rs[0]
	if got := cmf.Summary.String(); got != "157286400" || cmf.Span.String() != "2400" {
		t.Errorf("CM Fortran work %s span %s, want 157286400 (200·65536·12) and 2400", got, cmf.Span)
	}
	// Blocked multiply with MIN bounds: exact for every N and BS ≥ 1,
	// whether BS divides N or not (the last block is short).
	blk := rs[1]
	checked := 0
	for n := int64(0); n <= 40; n++ {
		for bs := int64(1); bs <= 12; bs++ {
			checked += checkBlocked(t, blk, n, bs)
		}
	}
	for _, nb := range [][2]int64{{100, 7}, {100, 10}, {257, 16}, {1000, 999}, {1000, 1000}, {1000, 1001}} {
		checked += checkBlocked(t, blk, nb[0], nb[1])
	}
	t.Logf("blocked multiply: %d (N, BS) pairs equal brute force", checked)
	noted := false
	for _, s := range blk.Statements {
		for _, n := range s.Notes {
			noted = noted || strings.Contains(n, "FLOOR((N - 1)/BS) is ⌊(N - 1)/BS⌋")
		}
	}
	if !noted {
		t.Errorf("the blocked loop does not say what FLOOR((N - 1)/BS) is")
	}
}

// checkBlocked compares the blocked multiply's count, and the piece that
// holds, at N and BS with the loop nest run by hand.
func checkBlocked(t *testing.T, blk *UnitResult, n, bs int64) int {
	t.Helper()
	env := map[string]*big.Rat{"N": big.NewRat(n, 1), "BS": big.NewRat(bs, 1)}
	got, ok := EvalGuarded(blk.Count, env).Value()
	want := int64(2) // the JJ loop's bounds: N and BS
	for jj := int64(1); jj <= n; jj += bs {
		want += 2 // KK bounds
		for kk := int64(1); kk <= n; kk += bs {
			want++ // I bound
			for i := int64(1); i <= n; i++ {
				want += 1 + 6 // J bounds: JJ, MIN(JJ+BS-1, N)
				for j := jj; j <= min(jj+bs-1, n); j++ {
					want += 1 + 6
					for k := kk; k <= min(kk+bs-1, n); k++ {
						want += 18
					}
				}
			}
		}
	}
	if !ok || got.Cmp(big.NewRat(want, 1)) != 0 {
		t.Fatalf("blocked multiply N=%d BS=%d: %v, brute force %d", n, bs, EvalGuarded(blk.Count, env), want)
	}
	holds := 0
	for _, p := range blk.Pieces {
		in := true
		for _, c := range p.When {
			in = in && c.Holds(env)
		}
		if !in {
			continue
		}
		holds++
		if v, ok := EvalGuarded(p.Cost, env).Value(); !ok || v.Cmp(big.NewRat(want, 1)) != 0 {
			t.Fatalf("N=%d BS=%d: piece %s: %s = %v, brute force %d", n, bs, WhenString(p.When, false), p.Cost, EvalGuarded(p.Cost, env), want)
		}
	}
	if holds != 1 {
		t.Fatalf("N=%d BS=%d: %d pieces hold: %v", n, bs, holds, blk.Pieces)
	}
	return 1
}

// TestCallsAsTheReportDefines: a call costs its callee alone, locals of
// known value are substituted, and a callee that writes none of its
// arguments leaves them known.
func TestCallsAsTheReportDefines(t *testing.T) {
	us := unitsFree(t, `subroutine t(m)
  call s(m)
end
subroutine s(m)
end
subroutine u()
  k = 10
  do i = 1, 2
    call s2(k)
  end do
end
subroutine s2(m)
  do i = 1, m
    x = x + 1.0
  end do
end
subroutine v(im)
  call noop(im)
  do i = 1, im
    x = x + 1.0
  end do
end
subroutine w()
  read *, j
  call s2(j)
  call s2(j + 1)
end
subroutine noop(k)
  y = k
end
`)
	if got := us["T"].Summary.String(); got != "0" {
		t.Errorf("call of an empty routine costs %s, want 0", got)
	}
	// s2(10) = 1 + 3·10; two iterations, bounds free: 62; k = 10 costs 1.
	if got := us["U"].Summary.String(); got != "63" {
		t.Errorf("call with a local of known value: %s, want 63", got)
	}
	if got := us["V"].Summary.String(); strings.Contains(got, "UNKNOWN") || got != "3*IM + 3" {
		t.Errorf("an argument the callee does not write stays known: %s", got)
	}
	w := us["W"]
	if vs := w.Summary.Vars(); len(vs) != 2 || vs[0] != "UNKNOWN_1" || vs[1] != "UNKNOWN_2" || len(w.Unknowns) != 2 {
		t.Errorf("W = %s, unknowns %q: want UNKNOWN_1 and UNKNOWN_2, never J", w.Summary, w.Unknowns)
	}
}
