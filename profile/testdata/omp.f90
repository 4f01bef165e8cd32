! omp.f90 -- an OpenMP program for pfls profile's tests: a parallel loop
! whose iterations run on several threads (its counters are atomic) with an
! inner loop and a branch, then a serial loop. Expectations are the
! annotations at the ends of lines (one process, any number of threads).
program omp
  implicit none
  integer, parameter :: n = 200, m = 30
  double precision :: a(n, m), s
  integer :: i, j, nodd
  nodd = 0
  !$omp parallel do private(j) reduction(+:nodd)
  do i = 1, n                    !@profile(count=200, entries=1)
     do j = 1, m                 !@profile(count=6000, entries=200)
        a(i, j) = i + j
     end do
     if (mod(i, 4) == 0) then    !@profile(count=50)
        nodd = nodd + 1
     end if                      !@profile(count=150)
  end do
  !$omp end parallel do
  s = 0
  do j = 1, m                    !@profile(count=30, entries=1)
     s = s + sum(a(:, j))
  end do
  print '(a,f14.1,i5)', 'omp', s, nodd
end program omp
