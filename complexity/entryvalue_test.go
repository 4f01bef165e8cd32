package complexity

import (
	"math/big"
	"strings"
	"testing"
)

// TestEntryValues: an integer local that a routine never assigns has
// one value throughout, so every loop it bounds shares one unknown
// (PIPS keeps such a variable under its own name); a local that is read,
// assigned or passed where it may change gets an unknown per use. The
// costs are the all-one table's, worked out by hand: T(I) = 0. is 2.
func TestEntryValues(t *testing.T) {
	us := unitsFree(t, `subroutine u1()
  real t(100)
  do i = 1, n
    t(i) = 0.
  end do
  do j = 1, n
    t(j) = 1.
  end do
end
subroutine u2()
  real t(100)
  read *, n
  do i = 1, n
    t(i) = 0.
  end do
  read *, n
  do j = 1, n
    t(j) = 1.
  end do
end
`)
	// Each loop: its bound N (1) and 2 per iteration: 2*U + 1 twice
	// where U >= 1, the bounds alone (2) where U <= 0.
	u1 := us["U1"]
	if got := u1.Summary.String(); got != "4*UNKNOWN_1 + 2" || len(u1.Unknowns) != 1 || !strings.Contains(u1.Unknowns[0], "the value of N, which U1 never assigns") {
		t.Errorf("U1 = %s, unknowns %q; want 4*UNKNOWN_1 + 2, one unknown for N", u1.Summary, u1.Unknowns)
	}
	for u, want := range map[int64]int64{0: 2, 1: 6, 7: 30} {
		got, ok := EvalGuarded(u1.Count, map[string]*big.Rat{"UNKNOWN_1": big.NewRat(u, 1)}).Value()
		if !ok || got.Cmp(big.NewRat(want, 1)) != 0 {
			t.Errorf("U1 at UNKNOWN_1 = %d: %v, want %d", u, got, want)
		}
	}
	// Two READs: two values, two unknowns (the iterations of each loop).
	u2 := us["U2"]
	if vs := u2.Summary.Vars(); len(vs) != 2 || len(u2.Unknowns) != 2 {
		t.Errorf("U2 = %s, unknowns %q; want two unknowns", u2.Summary, u2.Unknowns)
	}
}

// TestAssignedFormals: a formal the routine assigns holds its new value
// from there on, in terms of the values on entry; one it reads, or that
// an IF arm may change, is unknown after; passed to a routine whose body
// is not in view it keeps its value on entry. All-one: N = 2*N is 3, a
// loop's bound 1 and X = X + 1.0 3 per iteration.
func TestAssignedFormals(t *testing.T) {
	us := unitsFree(t, `subroutine a1(n)
  n = 2*n
  do i = 1, n
    x = x + 1.0
  end do
end
subroutine a2(n, m, k)
  read *, n
  do i = 1, n
    x = x + 1.0
  end do
  call ext(m)
  do i = 1, m
    x = x + 1.0
  end do
  if (x > 0.0) k = 5
  do i = 1, k
    x = x + 1.0
  end do
end
`)
	// 3 + 1 + 3·(2·N) where 2·N ≥ 1 (it was 3·N + 4).
	if got := us["A1"].Summary.String(); got != "6*N + 4" {
		t.Errorf("A1 = %s, want 6*N + 4", got)
	}
	// READ: N unknown; EXT is not in view: M kept; K maybe 5: unknown.
	a2 := us["A2"]
	if !a2.Summary.Has("M") || a2.Summary.Has("N") || a2.Summary.Has("K") || len(a2.Unknowns) != 2 {
		t.Errorf("A2 = %s, unknowns %q: want M kept, N and K unknowns", a2.Summary, a2.Unknowns)
	}
}

// TestExitValues: a call to a routine that assigns a formal a known
// value gives the caller's actual argument that value (M = M1 + M2 at
// CALL ADD(10, 30, N): N = 40); a routine that may return early gives
// nothing. All-one: M = M1 + M2 is 4, M = N + 1 3, a loop's bound 1
// and X = X + 1.0 3 per iteration; EARLY is M = L 2, the IF 1 and
// M = 2 * L 3.
func TestExitValues(t *testing.T) {
	us := unitsFree(t, `subroutine c1()
  call add(10, 30, n)
  do i = 1, n
    x = x + 1.0
  end do
end
subroutine c2()
  k = 4
  call inc(k, n)
  do i = 1, n
    x = x + 1.0
  end do
end
subroutine c3()
  call early(10, n)
  do i = 1, n
    x = x + 1.0
  end do
end
subroutine add(m1, m2, m)
  m = m1 + m2
end
subroutine inc(n, m)
  m = n + 1
end
subroutine early(l, m)
  m = l
  if (x > 0.0) return
  m = 2 * l
end
`)
	for unit, want := range map[string]string{
		"C1": "125",             // 4 + 1 + 3·40
		"C2": "20",              // K = 4 is 1, INC 3, 1 + 3·5
		"C3": "3*UNKNOWN_1 + 7", // 6 + 1 + 3·N, N (L or 2·L) unknown
	} {
		if got := us[unit].Summary.String(); got != want {
			t.Errorf("%s = %s, want %s", unit, got, want)
		}
	}
	if out := us["ADD"].Out; len(out) != 1 || out["M"].String() != "M1 + M2" {
		t.Errorf("ADD's exit values %v", out)
	}
}
