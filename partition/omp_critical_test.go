package partition

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
)

// TestOmpCriticalSerializes: a CRITICAL section runs on one thread at a
// time (OpenMP 5.2 §15.2), so a loop whose iterations spend most of
// their time in one cannot take less than the sections' sum over all the
// iterations, however many threads share them. The loop of only the
// section's statement, on one thread, is that sum: the 16-thread loop
// takes at least as long. Without the CRITICAL the same loop shares out
// evenly (under a quarter of it).
func TestOmpCriticalSerializes(t *testing.T) {
	const src = `program p
  integer, parameter :: n = 16000
  real(8) :: a(n), s
  integer :: i
  !$omp parallel do
  do i = 1, n
    !$omp critical
    s = s + sqrt(a(i)) / (a(i) + 1.0d0)
    !$omp end critical
  end do
  !$omp end parallel do
end program p
`
	m := machine.DefaultMachine()
	serial := strings.NewReplacer("    !$omp critical\n", "", "    !$omp end critical\n", "", "  !$omp parallel do\n", "", "  !$omp end parallel do\n", "").Replace(src)
	sum := ompSeconds(t, ompEstimate(t, serial, 5, 1, m)) // the loop moved up a line
	crit := ompEstimate(t, src, 6, 16, m)
	if got := ompSeconds(t, crit); got < sum {
		t.Errorf("with CRITICAL on 16 threads %g s, want at least the sections' sum %g s", got, sum)
	}
	if !strings.Contains(strings.Join(crit.Notes, "\n"), "CRITICAL section at line 7: one thread at a time") {
		t.Errorf("notes %q: want the CRITICAL section's", crit.Notes)
	}
	free := strings.NewReplacer("    !$omp critical\n", "", "    !$omp end critical\n", "").Replace(src)
	if got := ompSeconds(t, ompEstimate(t, free, 6, 16, m)); got > sum/4 {
		t.Errorf("without CRITICAL on 16 threads %g s, want under a quarter of %g s", got, sum)
	}
}

// TestOmpAtomicNote: an ATOMIC update is priced as the plain update, and
// the report says that the machine model has no time for it.
func TestOmpAtomicNote(t *testing.T) {
	const src = `program p
  integer, parameter :: n = 1600
  real(8) :: a(n), h(16)
  integer :: i
  !$omp parallel do
  do i = 1, n
    !$omp atomic update
    h(mod(i, 16) + 1) = h(mod(i, 16) + 1) + a(i)
  end do
  !$omp end parallel do
end program p
`
	e := ompEstimate(t, src, 6, 16, machine.DefaultMachine())
	if !strings.Contains(strings.Join(e.Notes, "\n"), "ATOMIC update at line 7 priced as a plain update") {
		t.Errorf("notes %q: want the ATOMIC update's", e.Notes)
	}
}
