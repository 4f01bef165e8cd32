!@rename("cnt = 5", tally)
!@rename("c => cnt", ctr)
!@rename("c + n", ctr)
!@rename("c => cnt", k)
!@rename("cnt", seen)
!@rename("cnt, 0", n)
!@rename("cnt = 5", hidden)
program main
  use counters
  implicit none
  integer :: k
  cnt = 5
  call bump()
  print *, cnt, total
  k = 1
end program main

subroutine report
  use counters, only: c => cnt
  implicit none
  integer :: n
  n = 2
  print *, c + n
end subroutine report

subroutine other
  use counters, only: cnt
  print *, cnt
end subroutine other

subroutine far
  use relay
  print *, cnt, 0
  hidden = 1
end subroutine far
