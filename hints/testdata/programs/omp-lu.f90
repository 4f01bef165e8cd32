! LU factorization without pivoting with OpenMP: the column updates of
! each step are shared among the threads with a cyclic schedule.
!
! Expert's view: step k updates n-k columns of n-k elements; the
! parallel j loop shrinks from n-1 to 1 iterations, so schedule(static,1)
! (cyclic) keeps the threads balanced, at the price of one barrier per
! step (n-1 = 1023 barriers, microseconds each). The outer k loop is
! sequential. n³/3 ≈ 3.6·10⁸ multiply-adds: on 16 cores a speed-up near
! 10-16 for the large steps, less for the last ones (fewer columns than
! threads): overall 8-16.
program lu_omp
  implicit none
  integer, parameter :: n = 1024
  real(8) :: a(n,n)
  integer :: i, j, k

  call random_number(a)
  do i = 1, n
    a(i,i) = a(i,i) + n
  end do
  !@estimate(scales "8-16")
  !@estimate(report "barrier at the end of the loop")
  !@estimate(report "schedule static,1, 16 threads")
  do k = 1, n - 1
    do i = k + 1, n
      a(i,k) = a(i,k) / a(k,k)
    end do
    !$omp parallel do schedule(static, 1)
    do j = k + 1, n
      do i = k + 1, n
        a(i,j) = a(i,j) - a(i,k) * a(k,j)
      end do
    end do
    !$omp end parallel do
  end do
  print *, a(n,n)
end program lu_omp
