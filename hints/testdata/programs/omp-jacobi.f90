! Jacobi relaxation with OpenMP: one parallel region per sweep, the
! convergence test as a max reduction.
!
! Expert's view: 2046² points per sweep shared by rows of columns
! among the threads; the update loop and the copy loop are both
! parallel, with an implicit barrier after each; reduction(max:err)
! combines one value per thread. Memory-bound at this size (two 32 MB
! arrays), so the speed-up on 16 cores is limited by memory bandwidth
! rather than by the cores: 4-16 is what an expert would accept from a
! model without a bandwidth term.
program jacobi_omp
  implicit none
  integer, parameter :: n = 2048, maxit = 100
  real(8) :: u(n,n), unew(n,n), err
  integer :: i, j, it

  u = 0.0d0
  u(:,1) = 1.0d0
  unew = u
  !@estimate(scales "4-16")
  !@estimate(report "reduction of ERR \(MAX\) over 16 threads")
  !@estimate(report "memory bandwidth: 67 MB per execution.*memory-bound")
  do it = 1, maxit
    err = 0.0d0
    !$omp parallel do reduction(max:err)
    do j = 2, n - 1
      do i = 2, n - 1
        unew(i,j) = 0.25d0 * (u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1))
        err = max(err, abs(unew(i,j) - u(i,j)))
      end do
    end do
    !$omp end parallel do
    !$omp parallel do
    do j = 2, n - 1
      do i = 2, n - 1
        u(i,j) = unew(i,j)
      end do
    end do
    !$omp end parallel do
    if (err < 1.0d-6) exit
  end do
  print *, it, err
end program jacobi_omp
