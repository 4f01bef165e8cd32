! Jacobi on a 1-D slab decomposition with the halo exchange overlapped
! with the interior update: MPI_Irecv and MPI_Isend post the two halo
! columns, the columns that need no halo are updated while they travel,
! MPI_Waitall completes them, then the two boundary columns are updated.
!
! Expert's view, and why:
! - Messages: each step sends two columns of n = 1024 doubles, 8192
!   bytes each, one to each neighbour (200 steps). The send is the
!   message; the matching MPI_Irecv and the MPI_Waitall move no further
!   data (MPI 4.0 §3.7: a nonblocking send and its receive are one
!   transfer, the wait only completes it), so they are not priced again.
! - The overlap is legal: the interior loop j = 2..nloc-1 reads
!   U(:, j-1) and U(:, j+1) for 1 <= j-1 and j+1 <= nloc, never the
!   receive buffers U(:, 0) and U(:, nloc+1) before the wait (MPI 4.0
!   §3.7.3), and it only reads the send buffers, which MPI allows since
!   MPI 3.0. No HPF/Fortran D diagnostic applies: no non-overlapped
!   broadcast here (and no broadcast at all).
! - Time: the interior is 62 columns × 1022 points a step, about 0.1 ms,
!   while the two 8 KB messages take a few µs: with the overlap the
!   messages are hidden behind the interior and the loop costs its
!   computation; the blocking version (MPI_Sendrecv before the sweep)
!   would pay both. seed 003's ESTIMATE adds communication to
!   computation; an estimator that credits the overlap should say so
!   (85-100 µs of interior a step hide both sends entirely).
! - Counts (all-one table): the update statement is 28 (UNEW(I,J) 4;
!   the four neighbours 5 each, 20; three additions and a
!   multiplication, 4); the I loop 1022 × 28 + 1 (its bound n - 1) =
!   28617; the interior J loop 62 × 28617 + 1 (nloc - 1) = 1774255; the
!   boundary loop DO J = 1, NLOC, NLOC - 1 runs max(0, ⌊(64 - 1 + 63)/63⌋)
!   = 2 times (J = 1 and J = 64): 2 × 28617 + 1 (the step's subtraction)
!   = 57235.
!@procs(16)
program heat_overlap
  use mpi
  implicit none
  integer, parameter :: n = 1024, nloc = 64, nsteps = 200
  double precision :: u(n, 0:nloc+1), unew(n, nloc)
  integer :: rank, nprocs, left, right, ierr, step, i, j
  integer :: req(4)
  integer :: stats(MPI_STATUS_SIZE, 4)

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
  left = merge(MPI_PROC_NULL, rank - 1, rank == 0)
  right = merge(MPI_PROC_NULL, rank + 1, rank == nprocs - 1)
  u = 0.0d0
  if (rank == 0) u(:, 0) = 1.0d0

  !@estimate(report "(?s)shift of MPI_ISEND: 200 × 8192 bytes.*shift of MPI_ISEND: 200 × 8192 bytes")
  !@estimate(noreport "(?m)^- .*(MPI_IRECV|MPI_WAITALL)")
  !@estimate(report "computation ([1-9]|[1-4][0-9])(\.[0-9]+)? ms")
  !@estimate(report "nonblocking sends at lines 59, 60 travel together while [0-9.]+ µs of computation runs before the MPI_WAITALL at line 68")
  !@estimate(report "hidden behind it")
  !@nodiag(non-overlapped-broadcast) !@nodiag(missing-align)
  do step = 1, nsteps
    call mpi_irecv(u(1, 0), n, MPI_DOUBLE_PRECISION, left, 0, MPI_COMM_WORLD, req(1), ierr)
    call mpi_irecv(u(1, nloc+1), n, MPI_DOUBLE_PRECISION, right, 1, MPI_COMM_WORLD, req(2), ierr)
    call mpi_isend(u(1, nloc), n, MPI_DOUBLE_PRECISION, right, 0, MPI_COMM_WORLD, req(3), ierr)
    call mpi_isend(u(1, 1), n, MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, req(4), ierr)
    ! the interior columns need no halo
    !@hover("^\*\*Cost\*\* \(DO\): `1774255`")
    do j = 2, nloc - 1
      do i = 2, n - 1 !@hover("^\*\*Cost\*\* \(DO\): `28617`")
        unew(i, j) = 0.25d0 * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
      end do
    end do
    call mpi_waitall(4, req, stats, ierr)
    ! the two boundary columns, now that the halo has arrived
    !@hover("^\*\*Cost\*\* \(DO\): `57235`")
    do j = 1, nloc, nloc - 1
      do i = 2, n - 1
        unew(i, j) = 0.25d0 * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
      end do
    end do
    u(2:n-1, 1:nloc) = unew(2:n-1, 1:nloc)
  end do
  if (rank == 0) print *, u(n/2, 1)
  call mpi_finalize(ierr)
end program heat_overlap
