!@rename("myrank = 0", me)
!@rename("ierr)", status)
!@rename("outer: do", loop)
!@rename("b => bump", inc)
!@rename("bump()", step)
!@rename("keep = 1", kept)
program outside
  use mpi
  implicit none
  integer :: ierr, i
  myrank = 0
  call mpi_init(ierr)
  outer: do i = 1, 3
    if (i == 2) exit outer
  end do outer
  call mpi_finalize(ierr)
end program outside

module tools
  integer, private :: keep
  integer :: step_count
contains
  subroutine bump()
    keep = 1
    step_count = step_count + keep
  end subroutine bump
end module tools

subroutine user
  use tools, only: b => bump
  call b()
  keep = 2
end subroutine user

subroutine user2
  use tools
  call bump()
end subroutine user2
