! Relaxation on a field held in a derived type, written as Fortran 2008
! users write it: a module type with a fixed-size and an allocatable
! component, ALLOCATE with the sizes, ASSOCIATE for the interior, a
! BLOCK for a temporary inside the loop, an array constructor and an
! ELEMENTAL function.
!
! Expert's view: no "not declared" diagnostic in RELAX, whose module
! has IMPLICIT NONE and no USE: associate names and BLOCK locals are
! declared by their constructs (Fortran 2018 11.1.3.3, 11.1.4). Every
! array statement counts every element: the component F%W is 64×64 =
! 4096 elements (its type says so, 9.4.2), the interior association
! 62×62 = 3844, the allocated U(N,N) 256² = 65536 (its one ALLOCATE
! with a PARAMETER). The constructor is built once: 8 items, not 8 per
! element.
module fields
  implicit none
  integer, parameter :: nb = 64, n = 256
  type :: field_t
     real :: w(nb, nb)
     real, allocatable :: u(:,:)
  end type field_t
contains
  elemental real function sq(x)
    real, intent(in) :: x
    sq = x*x
  end function sq

  subroutine relax(f, iters, r)
    type(field_t), intent(inout) :: f
    integer, intent(in) :: iters
    real, intent(out) :: r
    real, allocatable :: u(:,:)
    real :: wts(8)
    integer :: it, k
    allocate(u(n, n))
    !@hover("Elements\*\*: `65536`")
    u = 0.0
    !@hover("Elements\*\*: `4096`")
    f%w = 1.0
    ! 8 items of (1 load K + 1 / + 0 REAL), then 8 stores: 24.
    !@hover("\*\*Work\*\* \(STAT\): `24`")
    wts = [ (1.0 / real(k), k = 1, 8) ]
    r = 0.0
    do it = 1, iters
       associate (inner => f%w(2:nb-1, 2:nb-1))   !@nodiag(undeclared)
         !@hover("Elements\*\*: `3844`") !@nodiag(undeclared)
         inner = 0.5 * inner
         ! 3844×(4 SQ + 1 +) + 1 load R + 1 + + 1 * + 1 load WTS(1) + 1 store.
         !@nodiag(undeclared) !@hover("\*\*Work\*\* \(STAT\): `19225`")
         r = r + sum(sq(inner)) * wts(1)
       end associate
       block
         real :: t
         !@nodiag(undeclared)
         t = r / real(n)
         !@hover("Elements\*\*: `256`") !@nodiag(undeclared)
         u(1, :) = t
       end block
    end do
  end subroutine relax
end module fields
