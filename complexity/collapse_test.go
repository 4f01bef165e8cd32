package complexity

import "testing"

// TestCollapseSpan: the iterations of loops joined by COLLAPSE(n) are one
// parallel iteration space (OpenMP 5.2 §4.4.3), so the span of the nest
// is one iteration of the innermost collapsed loop's body, not one
// iteration of the outer loop (a whole inner loop). X(K,J) = X(K,J) -
// 0.5D0 costs 4 + 4 + 1 = 9; the inner loop 3 × 9 = 27; the nest's work
// 1 + N × 27 (the bound N is a reference). Without COLLAPSE the span is
// 1 + 27; COLLAPSE(1) is the same; with COLLAPSE(2) 1 + 9.
func TestCollapseSpan(t *testing.T) {
	for _, c := range []struct{ clause, span string }{
		{"", "28"}, {" collapse(1)", "28"}, {" collapse(2)", "10"},
	} {
		f := parseSrc(t, `subroutine s(x, n)
  integer n, j, k
  real(8) x(3, n)
  !$omp parallel do`+c.clause+`
  do j = 1, n
    do k = 1, 3
      x(k, j) = x(k, j) - 0.5d0
    end do
  end do
end subroutine
`)
		r := NewEngine(Options{}).File(f)[0]
		if got, want := r.Summary.String(), "27*N + 1"; got != want {
			t.Errorf("%q: work %s, want %s", c.clause, got, want)
		}
		if got := r.Span.String(); !r.HasSpan || got != c.span {
			t.Errorf("%q: span %s (has %v), want %s", c.clause, got, r.HasSpan, c.span)
		}
	}
}
