! The Jacobi iteration of mpi-jacobi.f90 as an MPI code is usually
! written: the halo exchange and the sweep are subroutines of a module,
! the sweep takes its arrays as assumed shapes (u(:, 0:)) and reads its
! sizes with SIZE and UBOUND, and the program allocates its arrays once
! it knows its share of the columns (nloc = n / nprocs).
!
! Expert's view: what the program does is mpi-jacobi.f90's, so the loop
! report must say what that program's says. Each iteration sends two
! columns of n doubles (8 KB each at n = 1024) to the neighbours - the
! MPI_SENDRECV calls are inside EXCHANGE, called once an iteration, and
! their counts are EXCHANGE's argument n - and takes part in one
! allreduce of one double. The sweep is nloc × (n - 2) points a rank an
! iteration; at the suite's 16 processors nloc = 64, as in
! mpi-jacobi.f90: tens to hundreds of milliseconds over 1000 iterations,
! priced loop by loop like the inline loop, not by an operation count.
! No distribution to choose: no HPF/Fortran D diagnostics.
module jacobi_kernels
  use mpi
  implicit none
contains
  subroutine exchange(u, n, nloc, left, right)
    integer, intent(in) :: n, nloc, left, right
    double precision, intent(inout) :: u(n, 0:nloc+1)
    integer :: status(MPI_STATUS_SIZE), ierr
    call mpi_sendrecv(u(1, nloc), n, MPI_DOUBLE_PRECISION, right, 1,   &
                      u(1, 0), n, MPI_DOUBLE_PRECISION, left, 1,       &
                      MPI_COMM_WORLD, status, ierr)
    call mpi_sendrecv(u(1, 1), n, MPI_DOUBLE_PRECISION, left, 2,       &
                      u(1, nloc+1), n, MPI_DOUBLE_PRECISION, right, 2, &
                      MPI_COMM_WORLD, status, ierr)
  end subroutine exchange

  subroutine sweep(u, unew, diff)
    double precision, intent(in) :: u(:, 0:)
    double precision, intent(inout) :: unew(:, 0:)
    double precision, intent(out) :: diff
    integer :: i, j, n, nloc
    n = size(u, 1)
    nloc = ubound(u, 2) - 1
    diff = 0.0d0
    do j = 1, nloc
      do i = 2, n - 1
        unew(i, j) = 0.25d0 * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
        diff = max(diff, abs(unew(i, j) - u(i, j)))
      end do
    end do
  end subroutine sweep
end module jacobi_kernels

program jacobi_mpi_sub
  use mpi
  use jacobi_kernels
  implicit none
  integer, parameter :: n = 1024, maxit = 1000
  double precision, allocatable :: u(:, :), unew(:, :)
  double precision :: diff, gdiff
  integer :: rank, nprocs, nloc, left, right, ierr, it

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
  nloc = n / nprocs
  allocate (u(n, 0:nloc+1), unew(n, 0:nloc+1))
  left = rank - 1
  right = rank + 1
  if (left < 0) left = MPI_PROC_NULL
  if (right >= nprocs) right = MPI_PROC_NULL
  u = 0.0d0
  unew = u
  if (rank == 0) u(:, 0) = 1.0d0

  !@estimate(report "exchange of MPI_SENDRECV: 1000 × 8192 bytes")
  !@estimate(report "inside EXCHANGE called at line 80")
  !@estimate(report "reduction-broadcast of MPI_ALLREDUCE: 1000 × 8 bytes")
  !@estimate(report "computation [1-9][0-9.]* ms")
  !@estimate(report "SWEEP is estimated with the arguments of each call")
  !@estimate(noreport "priced by its operation count|not estimated|not included|symbolic")
  !@nodiag(non-overlapped-broadcast) !@nodiag(missing-align)
  do it = 1, maxit
    call exchange(u, n, nloc, left, right)
    call sweep(u, unew, diff)
    u(2:n-1, 1:nloc) = unew(2:n-1, 1:nloc)
    call mpi_allreduce(diff, gdiff, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
    if (gdiff < 1.0d-8) exit
  end do
  if (rank == 0) print *, 'iterations', it, gdiff
  call mpi_finalize(ierr)
end program jacobi_mpi_sub
