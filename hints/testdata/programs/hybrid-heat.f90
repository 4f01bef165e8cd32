! Heat diffusion on a 1-D slab decomposition with MPI between nodes and
! OpenMP threads inside each rank (hybrid MPI + OpenMP, P ranks × T
! threads): one PARALLEL region around the time loop; the master thread
! exchanges the halo columns with MPI_Sendrecv (MPI_THREAD_FUNNELED: only
! the thread that initialised MPI may call it, MPI 4.0 §11.6), the team
! shares the sweep with !$omp do, and the master combines the residual
! across ranks with MPI_Allreduce.
!
! Expert's view, and why:
! - The messages are those of the calls, wherever the calls stand in the
!   region: per step two exchanges of one column of n = 2048 doubles,
!   2048 × 8 = 16384 bytes each, and one allreduce of 8 bytes (one
!   double, MPI_MAX); 500 steps. A MASTER construct runs its block on
!   the primary thread only and the other threads skip it (OpenMP 5.2
!   §10.5; MASTER is deprecated for MASKED but still OpenMP), so each
!   message is sent once per rank, not once per thread.
! - MASTER has no implied barrier (OpenMP 5.2 §10.5), hence the explicit
!   !$omp barrier before the team reads the halo and the residual;
!   SINGLE would have one, but its block may run on any thread, which
!   FUNNELED forbids for MPI calls: the program is right to use
!   MASTER + BARRIER.
! - The threads: each !$omp do divides j = 1..nloc = 128 columns among
!   the team, statically: with 16 threads 8 columns each, an even share
!   (1/16); each ends with an implied barrier (no NOWAIT), the sweep's
!   reduction(max:diff) combines one value per thread. DIFF is shared in
!   the region (declared in the program, OpenMP 5.2 §5.1.1), as a
!   worksharing reduction requires.
! - No data distribution directives: no missing-align, no
!   non-overlapped-broadcast (MPI programs state their messages).
! - Counts (all-one table): the sweep statement TNEW(I,J) = ... is 39
!   (TNEW(I,J) 4; T(I,J) twice, 4 each; T(I±1,J), T(I,J±1) 5 each, 20;
!   7 operators: 4 + 8 + 20 + 7 = 39); DIFF = MAX(DIFF, ABS(TNEW(I,J) -
!   T(I,J))) is 12 (DIFF twice 2, MAX 1, the two elements 8, the minus
!   1); the I loop 2046 × 51 + 1 (its bound n - 1) = 104347; the J loop
!   128 × 104347 = 13356416, its span one J iteration, 104347.
! - Time: a rank sweeps 128 × 2046 = 261,888 points a step, 16,368 a
!   thread, 500 steps: 8.2 M point updates (and copies) a thread. At 1-4
!   ns a point (a stencil, a MAX and a copy, the 4 MB of T and TNEW in
!   the caches) that is 5-40 ms of computation.
!@procs(16)
program heat_hybrid
  use mpi
  implicit none
  integer, parameter :: n = 2048, nloc = 128, nsteps = 500
  double precision, parameter :: alpha = 0.1d0, tol = 1.0d-6
  double precision :: t(n, 0:nloc+1), tnew(n, nloc)
  double precision :: diff, gdiff
  integer :: rank, nprocs, left, right, ierr, step, i, j, provided
  integer :: status(MPI_STATUS_SIZE)

  call mpi_init_thread(MPI_THREAD_FUNNELED, provided, ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
  left = rank - 1
  right = rank + 1
  if (rank == 0) left = MPI_PROC_NULL
  if (rank == nprocs - 1) right = MPI_PROC_NULL
  t = 0.0d0
  if (rank == 0) t(:, 0) = 100.0d0

  !$omp parallel private(step, i)
  !@estimate(report "(?s)exchange of MPI_SENDRECV: 500 × 16384 bytes.*exchange of MPI_SENDRECV: 500 × 16384 bytes")
  !@estimate(report "reduction-broadcast of MPI_ALLREDUCE: 500 × 8 bytes")
  !@estimate(report "reduction of DIFF \(MAX\) over 16 threads")
  !@estimate(report "OpenMP DO at line 84, schedule static \(the default\), 16 threads: the busiest thread does 6\.25% \(1/16\)")
  !@estimate(report "OpenMP DO at line 92, schedule static \(the default\), 16 threads: the busiest thread does 6\.25% \(1/16\)")
  !@estimate(report "computation ([5-9]|[1-3][0-9])(\.[0-9]+)? ms")
  !@estimate(report "(?s)barrier at line 81 over 16 threads.*barrier at line 99 over 16 threads")
  !@estimate(noreport "fork and join")
  !@nodiag(missing-align) !@nodiag(non-overlapped-broadcast)
  do step = 1, nsteps
    !$omp master
    call mpi_sendrecv(t(1, nloc), n, MPI_DOUBLE_PRECISION, right, 0, &
                      t(1, 0), n, MPI_DOUBLE_PRECISION, left, 0,     &
                      MPI_COMM_WORLD, status, ierr)
    call mpi_sendrecv(t(1, 1), n, MPI_DOUBLE_PRECISION, left, 1,     &
                      t(1, nloc+1), n, MPI_DOUBLE_PRECISION, right, 1, &
                      MPI_COMM_WORLD, status, ierr)
    diff = 0.0d0
    !$omp end master
    !$omp barrier
    !$omp do reduction(max:diff)
    !@hover("^\*\*Work\*\* \(DO\): `13356416`") !@hover("\*\*Span\*\*[^`]*`104347`")
    do j = 1, nloc
      do i = 2, n - 1
        tnew(i, j) = t(i, j) + alpha * (t(i-1, j) + t(i+1, j) + t(i, j-1) + t(i, j+1) - 4.0d0 * t(i, j))
        diff = max(diff, abs(tnew(i, j) - t(i, j)))
      end do
    end do
    !$omp end do
    !$omp do
    do j = 1, nloc
      t(2:n-1, j) = tnew(2:n-1, j)
    end do
    !$omp end do
    !$omp master
    call mpi_allreduce(diff, gdiff, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
    !$omp end master
    !$omp barrier
    if (gdiff < tol) exit
  end do
  !$omp end parallel
  if (rank == 0) print *, 'steps', step, gdiff
  call mpi_finalize(ierr)
end program heat_hybrid
