! Jacobi iteration on a 1-D slab decomposition with MPI: each rank owns
! nloc columns plus two ghost columns, exchanges them with MPI_Sendrecv
! and agrees on the residual with MPI_Allreduce.
!
! Expert's view: each iteration sends two columns of n doubles (8 KB
! each at n = 1024) to the neighbours and takes part in one allreduce
! of one double (log P steps). The message sizes come from the calls
! (count n, MPI_DOUBLE_PRECISION): 2 × 8192 bytes per iteration plus
! 8 bytes reduced. There is no data distribution to choose, so no
! candidate layouts and no HPF/Fortran D diagnostics: no missing ALIGN,
! no broadcast warning. The update is nloc × n = 64 × 1024 points per
! rank per iteration, 1000 iterations: tens of milliseconds.
program jacobi_mpi
  use mpi
  implicit none
  integer, parameter :: n = 1024, nloc = 64, maxit = 1000
  double precision :: u(n, 0:nloc+1), unew(n, 0:nloc+1)
  double precision :: diff, gdiff
  integer :: rank, nprocs, left, right, ierr, it, i, j
  integer :: status(MPI_STATUS_SIZE)

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
  left = rank - 1
  right = rank + 1
  if (left < 0) left = MPI_PROC_NULL
  if (right >= nprocs) right = MPI_PROC_NULL
  u = 0.0d0
  if (rank == 0) u(:, 0) = 1.0d0

  !@estimate(report "exchange of MPI_SENDRECV: 1000 × 8192 bytes")
  !@estimate(report "reduction-broadcast of MPI_ALLREDUCE: 1000 × 8 bytes")
  !@estimate(report "computation [1-9][0-9.]* ms")
  !@estimate(report "EXIT|exit")
  !@nodiag(non-overlapped-broadcast) !@nodiag(missing-align)
  do it = 1, maxit
    call mpi_sendrecv(u(1, nloc), n, MPI_DOUBLE_PRECISION, right, 1,   &
                      u(1, 0), n, MPI_DOUBLE_PRECISION, left, 1,       &
                      MPI_COMM_WORLD, status, ierr)
    call mpi_sendrecv(u(1, 1), n, MPI_DOUBLE_PRECISION, left, 2,       &
                      u(1, nloc+1), n, MPI_DOUBLE_PRECISION, right, 2, &
                      MPI_COMM_WORLD, status, ierr)
    diff = 0.0d0
    do j = 1, nloc
      do i = 2, n - 1
        unew(i, j) = 0.25d0 * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
        diff = max(diff, abs(unew(i, j) - u(i, j)))
      end do
    end do
    u(2:n-1, 1:nloc) = unew(2:n-1, 1:nloc)
    call mpi_allreduce(diff, gdiff, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
    if (gdiff < 1.0d-8) exit
  end do
  if (rank == 0) print *, 'iterations', it, gdiff
  call mpi_finalize(ierr)
end program jacobi_mpi
