package complexity

import (
	"math/big"
	"testing"
)

// TestFunctionReferences: a reference to a user function whose body is
// in view costs exactly the function's summary with the actual
// arguments put for its formals through the preconditions (seed 004
// §4.4.2), nothing for the arguments; intrinsics keep the cost table's
// price. The numbers are worked out by hand from the all-one table:
// a scalar or element read or written 1, an operator 1, SQRT 1, ABS 0.
func TestFunctionReferences(t *testing.T) {
	us := unitsFree(t, `real function f(k)
  integer k
  real a(100)
  f = 0.0
  do i = 1, k
    f = f + a(i)
  end do
end
real function h(b)
  real b(10)
  h = b(1)
end
subroutine t1(n)
  integer n
  x = f(n) + 1.0
end
subroutine t2()
  k = 10
  x = f(k)
end
subroutine t3(x, y)
  y = sqrt(x) + abs(y)
end
subroutine t4(n, y)
  x = g(n, y)
end
subroutine t5()
  real a(10)
  x = h(a)
end
subroutine t6(n)
  integer n
  do i = 1, n
    x = x + f(i)
  end do
end
`)
	// F: F = 0.0 is 1; the loop's bound K is 1; F = F + A(I) is
	// 1 + (1 + 2 + 1) = 5 per iteration: 5·K + 2 where K ≥ 1, 2 else.
	if got := us["F"].Summary.String(); got != "5*K + 2" {
		t.Fatalf("F = %s, want 5*K + 2", got)
	}
	cases := []struct {
		unit string
		at   map[string]int64
		want int64
	}{
		// X = F(N) + 1.0: X 1, F(N) 5·N + 2, + 1; the argument N is not
		// charged (it was: 5·N + 5).
		{"T1", map[string]int64{"N": 5}, 1 + 27 + 1},
		{"T1", map[string]int64{"N": 0}, 1 + 2 + 1},
		// K = 10 is 1; X = F(K) is 1 + F(10) = 1 + 52, K through the
		// preconditions (it was an unknown).
		{"T2", nil, 1 + 1 + 52},
		// Y 1, SQRT(X) 1 + 1, ABS(Y) 1 + 0, + 1.
		{"T3", nil, 5},
		// G's body is not in view: the evaluation of its arguments, N and
		// Y, is all that is known.
		{"T4", map[string]int64{"N": 3}, 1 + 1 + 1},
		// H(A) costs H: H = B(1) is 1 + 1; the array A is not charged.
		{"T5", nil, 1 + 2},
		// Σ_{I=1..N} (X + X + F(I) + 1) + the bound N: Σ (5·I + 5) + 1.
		{"T6", map[string]int64{"N": 4}, 5*10 + 5*4 + 1},
		{"T6", map[string]int64{"N": 0}, 1},
	}
	for _, c := range cases {
		r := us[c.unit]
		env := map[string]*big.Rat{}
		for k, v := range c.at {
			env[k] = big.NewRat(v, 1)
		}
		got, ok := EvalGuarded(r.Count, env).Value()
		if !ok || got.Cmp(big.NewRat(c.want, 1)) != 0 {
			t.Errorf("%s at %v: %v (summary %s), want %d", c.unit, c.at, EvalGuarded(r.Count, env), r.Summary, c.want)
		}
		if len(r.Unknowns) > 0 {
			t.Errorf("%s: unknowns %v", c.unit, r.Unknowns)
		}
	}
	if got := us["T6"].Summary.String(); got != "5/2*N^2 + 15/2*N + 1" {
		t.Errorf("T6 = %s, want 5/2*N^2 + 15/2*N + 1", got)
	}
}
