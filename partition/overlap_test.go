package partition

import (
	"strings"
	"testing"

	"github.com/pfls/pfls/complexity"
	"github.com/pfls/pfls/machine"
)

// TestNonblockingOverlap: a nonblocking send travels while the statements
// up to its wait compute (MPI 4.0 §3.7): the halo of 8 KB takes a few µs
// against the interior update's ~100 µs, so all of it is hidden and the
// loop takes its computation alone, the messages still listed. With the
// wait straight after the sends, or with blocking sends, nothing runs
// while they travel: computation plus communication.
func TestNonblockingOverlap(t *testing.T) {
	const src = `program p
  use mpi
  integer, parameter :: n = 1024, nloc = 64
  double precision :: u(n, 0:nloc+1), v(n, nloc)
  integer :: req(2), ierr, step, i, j, left, right
  do step = 1, 10
    call mpi_isend(u(1, nloc), n, MPI_DOUBLE_PRECISION, right, 0, MPI_COMM_WORLD, req(1), ierr)
    call mpi_isend(u(1, 1), n, MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, req(2), ierr)
    WAITHERE
    do j = 2, nloc - 1
      do i = 1, n
        v(i, j) = u(i, j-1) + u(i, j+1)
      end do
    end do
    WAITTHERE
  end do
end program p
`
	const wait = "call mpi_waitall(2, req, MPI_STATUSES_IGNORE, ierr)"
	run := func(s string) (time, compute, comm float64) {
		f, u := parseOne(t, "p.f90", s)
		e := EstimateLoop(f, u, firstLoop(t, u, 6, f), FromUnit(u, 16, ""), Options{Machine: machine.DefaultMachine(), Procs: 16})
		var ok [3]bool
		time, ok[0] = complexity.Seconds(e.Time)
		compute, ok[1] = complexity.Seconds(e.Compute)
		comm, ok[2] = complexity.Seconds(e.Comm)
		if ok != [3]bool{true, true, true} || comm <= 0 || len(e.Messages) != 2 {
			t.Fatalf("time %s, computation %s, communication %s, %d messages: want numbers and two sends", e.Time, e.Compute, e.Comm, len(e.Messages))
		}
		return
	}
	near := func(a, b float64) bool { return a-b < 1e-12*b && b-a < 1e-12*b }
	if time, compute, _ := run(strings.NewReplacer("WAITHERE", "", "WAITTHERE", wait).Replace(src)); !near(time, compute) {
		t.Errorf("overlapped: time %g s, want the computation %g s", time, compute)
	}
	if time, compute, comm := run(strings.NewReplacer("WAITHERE", wait, "WAITTHERE", "").Replace(src)); !near(time, compute+comm) {
		t.Errorf("wait at once: time %g s, want computation + communication %g s", time, compute+comm)
	}
	blocking := strings.NewReplacer("WAITHERE", "", "WAITTHERE", "", "mpi_isend", "mpi_send", ", req(1), ierr)", ", ierr)", ", req(2), ierr)", ", ierr)").Replace(src)
	if time, compute, comm := run(blocking); !near(time, compute+comm) {
		t.Errorf("blocking: time %g s, want computation + communication %g s", time, compute+comm)
	}
}
