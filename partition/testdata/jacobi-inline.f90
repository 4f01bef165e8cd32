! A Jacobi iteration on a 1-D slab decomposition with MPI, its arrays
! allocated once NLOC = N / NPROCS is known: TestCalleeAsInline.
program jacobi_mpi
  use mpi
  implicit none
  integer, parameter :: maxit = 1000
  integer :: n, nloc
  double precision, allocatable :: u(:, :), unew(:, :)
  double precision :: diff, gdiff
  integer :: rank, nprocs, left, right, ierr, it, i, j
  integer :: status(MPI_STATUS_SIZE)

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
