! stop.f90 -- a program that ends in a STOP inside a logical IF of a
! subroutine, which pfls cannot precede with a call: its counters are
! written at exit. Expectations are the annotations (one process).
program stop
  implicit none
  integer :: k
  do k = 1, 3                  !@profile(count=3, entries=1)
     call step(k)
  end do
  call finish(k - 1)
  print *, 'not reached'
contains
  subroutine step(k)           !@profile(count=3)
    integer, intent(in) :: k
    print '(a,i0)', 'step ', k
  end subroutine step
  subroutine finish(n)         !@profile(count=1)
    integer, intent(in) :: n
    if (n == 3) stop
  end subroutine finish
end program stop
