! Free form: inlay hints on function and subroutine headers (their
! summaries in the dummies) and on the loops; none on array assignments.
!@allhints
module heat
  implicit none
contains
  function energy(u, n) result(e)  !@hint("^8·N \+ 2 for N ≥ 1$", tooltip="^Cost of function ENERGY")
    integer, intent(in) :: n
    real, intent(in) :: u(n)
    real :: e
    integer :: i
    e = 0.0
    do i = 1, n  !@hint("^8·N \+ 1 for N ≥ 1$")
      e = e + u(i) * u(i)  !@hover("`8`")
    end do
  end function energy

  ! A step: the I loop's 14·N - 26 and the section copy's 2·(N - 2) + 4
  ! (a store and a load an element, the bounds N - 1 once each).
  !@hint("^work 16·N·STEPS - … for N ≥ 3, STEPS ≥ 1$", tooltip="^Cost of subroutine STEP")
  subroutine step(u, v, n, steps)
    integer, intent(in) :: n, steps
    real, intent(inout) :: u(n), v(n)
    integer :: i, t
    do t = 1, steps  !@hint("^work 16·N·STEPS - … for N ≥ 3, STEPS ≥ 1$", tooltip="work 16\*N\.STEPS - 26\*STEPS \+ 1   for N >= 3, STEPS >= 1") !@noaction("^Distribute")
      do i = 2, n - 1  !@hint("^14·N - 26 for N ≥ 3$")
        v(i) = 0.25 * (u(i-1) + 2.0 * u(i) + u(i+1))
      end do
      u(2:n-1) = v(2:n-1)  !@nohint
    end do
  end subroutine step
end module heat
