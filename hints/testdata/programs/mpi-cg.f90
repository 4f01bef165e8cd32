! Conjugate gradient for the 2-D Poisson matrix (5-point stencil) with
! MPI: rows of the grid split into slabs, halo rows exchanged with
! MPI_Isend/MPI_Irecv/MPI_Waitall, dot products with MPI_Allreduce.
!
! Expert's view: per iteration one halo exchange (two messages of nx
! doubles each way, 4 KB at nx = 512) and two allreduces of one double
! (log P combining steps, latency-bound). With 200 iterations: 400
! allreduces, 400 sends and 400 receives. The matrix-vector product and
! the vector updates are 512 × 32 points per rank: local. No HPF/Fortran
! D diagnostics apply to an MPI program.
program cg_mpi
  use mpi
  implicit none
  integer, parameter :: nx = 512, nyloc = 32, maxit = 200
  double precision :: x(nx, nyloc), r(nx, nyloc), p(nx, 0:nyloc+1), q(nx, nyloc)
  double precision :: rho, rho0, pq, alpha, beta, loc
  integer :: rank, nprocs, up, down, ierr, it, i, j
  integer :: req(4)

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
  down = merge(MPI_PROC_NULL, rank - 1, rank == 0)
  up = merge(MPI_PROC_NULL, rank + 1, rank == nprocs - 1)
  x = 0.0d0
  r = 1.0d0
  p = 0.0d0
  p(:, 1:nyloc) = r
  loc = sum(r*r)
  call mpi_allreduce(loc, rho, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)

  !@estimate(report "(?s)reduction-broadcast of MPI_ALLREDUCE: 200 × 8 bytes.*reduction-broadcast of MPI_ALLREDUCE: 200 × 8 bytes")
  !@estimate(report "(?s)shift of MPI_ISEND: 200 × 4096 bytes.*shift of MPI_ISEND: 200 × 4096 bytes")
  !@estimate(noreport "MPI_IRECV|MPI_WAITALL")
  !@nodiag(missing-align) !@nodiag(non-overlapped-broadcast)
  do it = 1, maxit
    call mpi_irecv(p(1, 0), nx, MPI_DOUBLE_PRECISION, down, 1, MPI_COMM_WORLD, req(1), ierr)
    call mpi_irecv(p(1, nyloc+1), nx, MPI_DOUBLE_PRECISION, up, 2, MPI_COMM_WORLD, req(2), ierr)
    call mpi_isend(p(1, nyloc), nx, MPI_DOUBLE_PRECISION, up, 1, MPI_COMM_WORLD, req(3), ierr)
    call mpi_isend(p(1, 1), nx, MPI_DOUBLE_PRECISION, down, 2, MPI_COMM_WORLD, req(4), ierr)
    call mpi_waitall(4, req, MPI_STATUSES_IGNORE, ierr)
    do j = 1, nyloc
      do i = 1, nx
        q(i, j) = 4.0d0*p(i, j) - p(max(i-1, 1), j) - p(min(i+1, nx), j) - p(i, j-1) - p(i, j+1)
      end do
    end do
    loc = sum(p(:, 1:nyloc)*q)
    call mpi_allreduce(loc, pq, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    alpha = rho / pq
    x = x + alpha*p(:, 1:nyloc)
    r = r - alpha*q
    rho0 = rho
    loc = sum(r*r)
    call mpi_allreduce(loc, rho, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    beta = rho / rho0
    p(:, 1:nyloc) = r + beta*p(:, 1:nyloc)
  end do
  if (rank == 0) print *, 'rho', rho
  call mpi_finalize(ierr)
end program cg_mpi
