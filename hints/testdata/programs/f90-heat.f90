! 1-D explicit heat equation with array syntax, WHERE and FORALL, plain
! Fortran 90 (no directives).
!
! Expert's view: every array statement stands for a loop over its
! elements: u(2:n-1) = ... is n-2 element updates, the WHERE tests
! and assigns n elements, the FORALL n-2 elements. A complexity that
! counts each as one statement underestimates the step loop by a factor
! of about n = 10⁵. The hover of an array assignment should give its
! element count (N-2 times the per-element cost); the step loop's count
! is about nsteps × 4n × (per-element cost): above 10¹⁰.
program heat1d
  implicit none
  integer, parameter :: n = 100000, nsteps = 5000
  real, parameter :: r = 0.25
  real :: u(n), v(n)
  integer :: i, step

  u = 0.0
  u(n/2) = 1.0
  !@todo hint("^[0-9.]+ [GT]$", tooltip="\b[0-9]{11,}\b", why="array assignments, WHERE and FORALL count as one element")
  do step = 1, nsteps
    !@todo hover("N|99998", why="an array assignment's hover does not count its elements")
    v(2:n-1) = u(2:n-1) + r*(u(1:n-2) - 2.0*u(2:n-1) + u(3:n))
    where (v < 1.0e-12) v = 0.0
    !@hint("^work [0-9.]+ [kMG] · span ", tooltip="work [0-9]{6,}\b")
    forall (i = 2:n-1) u(i) = v(i)
  end do
  print *, maxval(u), sum(u)
end program heat1d
