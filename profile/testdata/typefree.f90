! typefree.f90 -- for pfls profile's tests: an MPI_Irecv of a derived
! datatype freed before the MPI_Wait that completes it, which MPI allows
! ("any communication that is currently using this datatype will
! complete normally", MPI 3.1 4.1.9). Rank 1 sends 6 of the 8 integers
! rank 0 has room for: 3 pairs, 24 bytes. Expectations for P = 2.
program typefree
  use mpi
  implicit none
  integer :: ierr, rank, pair, req, st(MPI_STATUS_SIZE), buf(8)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Type_contiguous(2, MPI_INTEGER, pair, ierr)
  call MPI_Type_commit(pair, ierr)
  buf = rank
  if (rank == 0) then
     call MPI_Irecv(buf, 4, pair, 1, 3, MPI_COMM_WORLD, req, ierr) !@profile(calls=1, bytes=24)
     call MPI_Type_free(pair, ierr)
     call MPI_Wait(req, st, ierr) !@profile(calls=1, bytes=0)
     print '(a,i3)', 'typefree', buf(6)
  else if (rank == 1) then
     call MPI_Type_free(pair, ierr)
     call MPI_Send(buf, 6, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, ierr) !@profile(calls=1, bytes=24)
  end if
  call MPI_Finalize(ierr)
end program typefree
