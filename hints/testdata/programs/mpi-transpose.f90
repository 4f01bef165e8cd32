! Distributed matrix transpose with MPI_Alltoall (the communication step
! of a slab-decomposed 2-D FFT): each rank holds n/P columns, packs
! P blocks of (n/P) × (n/P), exchanges them, and unpacks.
!
! Expert's view: one all-to-all per transpose in which every rank sends
! (n/P)² = 64² complex numbers (16 bytes each: 65536 bytes) to every
! other rank; the estimator should price an all-to-all of 65536 bytes
! per pair, 10 times. Packing and unpacking are local copies of n × n/P
! elements. No data-parallel diagnostics apply.
program transpose_mpi
  use mpi
  implicit none
  integer, parameter :: n = 1024, np = 16, nb = n/np, nrep = 10
  complex(8) :: a(n, nb), buf(nb, nb, np), rbuf(nb, nb, np)
  integer :: rank, ierr, rep, i, j, k

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  a = cmplx(rank, 0, kind=8)
  !@estimate(report "alltoall of MPI_ALLTOALL: 10 × 65536 bytes")
  !@nodiag(missing-align)
  do rep = 1, nrep
    do k = 1, np
      do j = 1, nb
        do i = 1, nb
          buf(i, j, k) = a((k-1)*nb + i, j)
        end do
      end do
    end do
    call mpi_alltoall(buf, nb*nb, MPI_DOUBLE_COMPLEX, rbuf, nb*nb, MPI_DOUBLE_COMPLEX, &
                      MPI_COMM_WORLD, ierr)
    do k = 1, np
      do j = 1, nb
        do i = 1, nb
          a((k-1)*nb + j, i) = rbuf(i, j, k)
        end do
      end do
    end do
  end do
  call mpi_finalize(ierr)
end program transpose_mpi
