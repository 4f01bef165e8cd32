! ompregion.f90 -- loops in a PARALLEL region: a worksharing !$omp do
! loop, which runs once among the threads (one thread counts its entry
! and trips), and a loop that every thread runs (atomic counters).
! Expectations are the annotations, for three threads (one process).
program ompregion
  implicit none
  integer, parameter :: n = 300
  double precision :: a(n)
  integer :: i, k, t
  t = 0
  !$omp parallel private(k) reduction(+:t)
  !$omp do
  do i = 1, n                    !@profile(count=300, entries=1)
     a(i) = i
  end do
  !$omp end do
  do k = 1, 10                   !@profile(count=30, entries=3)
     t = t + 1
  end do
  !$omp end parallel
  print '(a,f10.1,i5)', 'ompregion', sum(a), t
end program ompregion
