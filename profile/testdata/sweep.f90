! sweep.f90 -- a pipelined sweep for pfls profile's tests: the columns are
! split over the ranks; for each block of rows a rank receives the boundary
! from the rank before it (MPI_PROC_NULL for the first), sweeps its columns
! and sends its last column on (MPI_PROC_NULL for the last). Expectations
! for P = 2.
program sweep
  use mpi
  implicit none
  integer, parameter :: n = 64, nb = 8, ncols = 16
  double precision :: a(n, 0:ncols)
  integer :: ierr, rank, nprocs, prev, next, ib

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  prev = rank - 1
  next = rank + 1
  if (prev < 0) prev = MPI_PROC_NULL
  if (next >= nprocs) next = MPI_PROC_NULL
  a = 1
  do ib = 1, n, nb                 !@profile(count=16, entries=2)
     ! 8 rows of 8 bytes from the rank before (room for 16): rank 1 only
     call MPI_Recv(a(ib, 0), 2*nb, MPI_DOUBLE_PRECISION, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr) !@profile(calls=16, bytes=512)
     call block(a, ib)
     ! and on to the next: rank 0 only
     call MPI_Send(a(ib, ncols), nb, MPI_DOUBLE_PRECISION, next, 3, MPI_COMM_WORLD, ierr) !@profile(calls=16, bytes=512)
  end do
  if (rank == nprocs - 1) print '(a,f10.4)', 'sweep', a(n, ncols)
  call MPI_Finalize(ierr)
contains
  subroutine block(a, ib)          !@profile(count=16)
    double precision, intent(inout) :: a(n, 0:ncols)
    integer, intent(in) :: ib
    integer :: i, j
    do j = 1, ncols                !@profile(count=256, entries=16)
       do i = ib, ib + nb - 1      !@profile(count=2048, entries=256)
          a(i, j) = 0.5d0 * (a(i, j - 1) + a(i, j)) + 1d-3
       end do
    end do
    if (ib > n) return
  end subroutine block
end program sweep
