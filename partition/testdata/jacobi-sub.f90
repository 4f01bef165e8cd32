! The Jacobi iteration of jacobi-inline.f90 with its halo exchange and its
! sweep as subroutines (assumed shapes, sizes from SIZE and UBOUND):
! TestCalleeAsInline.
module halo
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
end module halo

program jacobi_mpi
  use mpi
  use halo
  implicit none
  integer, parameter :: maxit = 1000
  integer :: n, nloc
  double precision, allocatable :: u(:, :), unew(:, :)
  double precision :: diff, gdiff
  integer :: rank, nprocs, left, right, ierr, it

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (rank == 0) read *, n
  call mpi_bcast(n, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  nloc = n / nprocs
  allocate (u(n, 0:nloc+1), unew(n, 0:nloc+1))
  left = rank - 1
  right = rank + 1
  if (left < 0) left = MPI_PROC_NULL
  if (right >= nprocs) right = MPI_PROC_NULL
  u = 0.0d0
  if (rank == 0) u(:, 0) = 1.0d0
  do it = 1, maxit
    call exchange(u, n, nloc, left, right)
    call sweep(u, unew, diff)
    u(2:n-1, 1:nloc) = unew(2:n-1, 1:nloc)
    call mpi_allreduce(diff, gdiff, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
    if (gdiff < 1.0d-8) exit
  end do
  if (rank == 0) print *, 'iterations', it, gdiff
  call mpi_finalize(ierr)
end program jacobi_mpi
