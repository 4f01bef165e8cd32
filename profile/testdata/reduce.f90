! reduce.f90 -- reductions for pfls profile's tests: allreduce, reduce, bcast,
! and a ring exchange with MPI_Isend, MPI_Irecv (room for 3 integers, 1
! received) and MPI_Waitall. Expectations for P = 2.
program reduce
  use mpi
  implicit none
  integer, parameter :: nsteps = 5, m = 4
  double precision :: part(m), total(m), grand
  integer :: ierr, rank, nprocs, k, j, req(2), token, got(3)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  grand = 0
  do k = 1, nsteps                 !@profile(count=10, entries=2)
     do j = 1, m                   !@profile(count=40, entries=10)
        part(j) = rank + k * j
     end do
     call MPI_Allreduce(part, total, m, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr) !@profile(calls=10, bytes=320)
     grand = grand + sum(total)
  end do
  call MPI_Reduce(grand, total(1), 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr) !@profile(calls=2, bytes=16)
  call MPI_Bcast(total, m, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr) !@profile(calls=2, bytes=64)
  token = rank
  call MPI_Irecv(got, 3, MPI_INTEGER, mod(rank + nprocs - 1, nprocs), 7, MPI_COMM_WORLD, req(1), ierr) !@profile(calls=2, bytes=8)
  call MPI_Isend(token, 1, MPI_INTEGER, mod(rank + 1, nprocs), 7, MPI_COMM_WORLD, req(2), ierr) !@profile(calls=2, bytes=8)
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr) !@profile(calls=2, bytes=0)
  call MPI_Barrier(MPI_COMM_WORLD, ierr) !@profile(calls=2, bytes=0)
  if (rank == 0) print '(a,f14.2,i3)', 'reduce', total(1), got(1)
  call MPI_Finalize(ierr)
end program reduce
