! 1-D explicit heat equation with array syntax, WHERE and FORALL, plain
! Fortran 90 (no directives).
!
! Expert's view: every array statement stands for a loop over its
! elements: u(2:n-1) = ... is n-2 element updates, the WHERE tests
! and assigns n elements, the FORALL n-2 elements. A complexity that
! counts each as one statement underestimates the step loop by a factor
! of about n = 10⁵. The hover of an array assignment should give its
! element count (N-2 times the per-element cost); the step loop's count
! is about nsteps × 4n × (per-element cost): about 10¹⁰.
program heat1d
  implicit none
  integer, parameter :: n = 100000, nsteps = 5000
  real, parameter :: r = 0.25
  real :: u(n), v(n)
  integer :: i, step

  u = 0.0
  u(n/2) = 1.0
  ! The label shows work and span (DESIGN §5: array syntax has both):
  ! 5000 steps × 1999965 = 9999825000, about 10¹⁰ (a second reading:
  ! "above 10¹⁰" took every element at the same cost).
  !@hint("^work [0-9.]+ G · span ", tooltip="work [0-9]{10,}\b")
  do step = 1, nsteps
    !@hover("Elements\*\*: `99998`")
    v(2:n-1) = u(2:n-1) + r*(u(1:n-2) - 2.0*u(2:n-1) + u(3:n))
    where (v < 1.0e-12) v = 0.0
    !@hint("^work [0-9.]+ [kMG] · span ", tooltip="work [0-9]{6,}\b")
    forall (i = 2:n-1) u(i) = v(i)
  end do
  print *, maxval(u), sum(u)
end program heat1d
