! halo.f90 -- a 1-D halo exchange for pfls profile's tests: each rank owns
! u(1:n) with ghost cells u(0) and u(n+1); the edge ranks exchange with
! MPI_PROC_NULL, which carries no bytes. Expectations for P = 2 are the
! annotations at the ends of lines: counts and calls are totals over the ranks.
program halo
  use mpi
  implicit none
  integer, parameter :: n = 100, nsteps = 10
  double precision :: u(0:n+1), v(0:n+1)
  integer :: ierr, rank, nprocs, left, right, step, i

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  left = rank - 1
  right = rank + 1
  if (left < 0) left = MPI_PROC_NULL
  if (right >= nprocs) right = MPI_PROC_NULL
  do i = 0, n + 1            !@profile(count=204, entries=2)
     u(i) = rank * n + i
  end do
  do step = 1, nsteps        !@profile(count=20, entries=2)
     ! to the right, from the left: 8 bytes on each rank (one side is MPI_PROC_NULL)
     call MPI_Sendrecv(u(n), 1, MPI_DOUBLE_PRECISION, right, 1, &  !@profile(calls=20, bytes=160)
          u(0), 1, MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
     call MPI_Sendrecv(u(1), 1, MPI_DOUBLE_PRECISION, left, 2, &  !@profile(calls=20, bytes=160)
          u(n+1), 1, MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
     do i = 1, n             !@profile(count=2000, entries=20)
        v(i) = 0.5d0 * (u(i-1) + u(i+1))
     end do
     u(1:n) = v(1:n)
  end do
  if (rank == 0) then        !@profile(count=1)
     print '(a,f12.3)', 'halo u(1) =', u(1)
  else                       !@profile(count=1)
     continue
  end if
  call MPI_Finalize(ierr)
end program halo
