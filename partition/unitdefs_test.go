package partition

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/machine"
)

// mpiBlockSrc is an MPI Jacobi sweep over a local block of NLOC
// columns, NLOC set once from the process count as users write it.
const mpiBlockSrc = `program j
  implicit none
  integer, parameter :: n = 1024
  integer :: np, nloc, i, j, it, ierr
  real(8), allocatable :: u(:,:), v(:,:)
  call mpi_comm_size(0, np, ierr)
  NLOC_DEF
  allocate(u(0:n+1, 0:nloc+1), v(0:n+1, 0:nloc+1))
  do it = 1, 10
     do j = 1, nloc
        do i = 1, n
           v(i,j) = 0.25d0*(u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1))
        end do
     end do
     u(1:n,1:nloc) = v(1:n,1:nloc)
  end do
end program j
`

// TestSetUpValues: NLOC = N / NP is a number at every processor count:
// the estimate at P equals the estimate of the same program with NLOC a
// PARAMETER of N / P, its time a number, not a polynomial in NLOC (the
// loop's trips were resolved, the section's elements were not). A
// division that does not come out whole truncates, as Fortran's does.
func TestSetUpValues(t *testing.T) {
	m := machine.DefaultMachine()
	est := func(def string, procs int) (float64, *Estimate) {
		src := strings.Replace(mpiBlockSrc, "NLOC_DEF", def, 1)
		if strings.Contains(def, "parameter") {
			src = strings.Replace(src, "integer :: np, nloc,", "integer :: np,", 1)
			src = strings.Replace(src, "  call mpi_comm_size", def+"\n  call mpi_comm_size", 1)
			src = strings.Replace(src, "\n  "+def+"\n  allocate", "\n  allocate", 1)
		}
		e := ompEstimate(t, src, 9, procs, m)
		return ompSeconds(t, e), e
	}
	for _, p := range []int{4, 16, 3} {
		got, e := est("nloc = n / np", p)
		want, _ := est("integer, parameter :: nloc = "+itoa(1024/p), p)
		if !ompNear(got, want) {
			t.Errorf("P = %d: %g s, want %g s (NLOC = %d as a PARAMETER)", p, got, want, 1024/p)
		}
		if !hasNote(e, "NLOC, assigned once at line 7, is "+itoa(1024/p)) {
			t.Errorf("P = %d: notes %q", p, e.Notes)
		}
	}
	// Assigned twice: not a set-up value, the time stays symbolic.
	src := strings.Replace(mpiBlockSrc, "NLOC_DEF", "nloc = n / np\n  nloc = nloc + 1", 1)
	e := ompEstimate(t, src, 10, 16, m)
	if _, ok := e.Time.Value(); ok {
		t.Errorf("NLOC assigned twice: time %v is a number", e.Time)
	}
}
