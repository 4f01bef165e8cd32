! N-body forces with the systolic ring algorithm in MPI: each rank keeps
! its nloc bodies and passes a travelling copy of positions and masses
! around the ring with MPI_Sendrecv_replace, P-1 times.
!
! Expert's view: P-1 = 15 ring steps (at P = 16), each moving nloc
! positions and nloc masses (2 × 2048 doubles = 2 × 16384 bytes) to the
! right neighbour; each step computes nloc² = 4·10⁶ interactions
! locally. Communication is small against the 6·10⁷ interactions per
! rank: seconds of arithmetic (sqrt and divide per pair) against well
! under a millisecond of messages. The ring count depends on nprocs,
! a run-time value the estimator has to take from --procs.
program nbody_mpi
  use mpi
  implicit none
  integer, parameter :: nloc = 2048
  double precision :: x(nloc), m(nloc), f(nloc), xt(nloc), mt(nloc)
  double precision :: d
  integer :: rank, nprocs, left, right, ierr, step, i, j
  integer :: status(MPI_STATUS_SIZE)

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
  left = mod(rank - 1 + nprocs, nprocs)
  right = mod(rank + 1, nprocs)
  do i = 1, nloc
    x(i) = dble(rank*nloc + i)
    m(i) = 1.0d0
  end do
  f = 0.0d0
  xt = x
  mt = m
  !@estimate(report "MPI_SENDRECV_REPLACE: 15 × 16384 bytes")
  !@estimate(report "computation [0-9.]+ m?s\)")
  !@estimate(report "\(NPROCS - 1\) ×|15 ×")
  !@nodiag(missing-align)
  do step = 1, nprocs - 1
    call mpi_sendrecv_replace(xt, nloc, MPI_DOUBLE_PRECISION, right, 1, left, 1, &
                              MPI_COMM_WORLD, status, ierr)
    call mpi_sendrecv_replace(mt, nloc, MPI_DOUBLE_PRECISION, right, 2, left, 2, &
                              MPI_COMM_WORLD, status, ierr)
    do j = 1, nloc
      do i = 1, nloc
        d = xt(j) - x(i)
        f(i) = f(i) + mt(j)*d / (abs(d)**3 + 1.0d-3)
      end do
    end do
  end do
  if (rank == 0) print *, f(1)
  call mpi_finalize(ierr)
end program nbody_mpi
