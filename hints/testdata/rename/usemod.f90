!@rename("cnt", count)
!@rename("cnt", total)
!@rename("cnt", bump)
!@rename("cnt", c)
module counters
  implicit none
  integer :: cnt = 0
  integer :: total
  integer, private :: hidden
contains
  subroutine bump()
    cnt = cnt + 1
    hidden = cnt
  end subroutine bump
end module counters

module relay
  use counters
end module relay
