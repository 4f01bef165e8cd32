! Syntax errors in free form: an expression cut short, a CALL without
! its name (once a crash of the resolver), an undeclared variable under
! IMPLICIT NONE. The loop around the bad statement keeps its hint.
program broken
  implicit none
  integer :: i
  real :: a(10)
  do i = 1, 10  !@hint("^\d+$")
    a(i) = 2.0 *  !@diag(syntax, "expected an expression", error)
  end do
  call  !@diag(syntax, "expected a name")
  y = a(1)  !@diag(undeclared, "^Y is not declared \(IMPLICIT NONE\)$", error)
!@nodiag(undeclared)
  a(2) = a(1)
end program broken
