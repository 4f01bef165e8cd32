! Kernels on assumed-shape arrays, as a Fortran 2008 module is written
! today, and a program that calls them on arrays whose size it knows.
!
! Expert's view, in the all-one table (a load or a store 1, the index of
! a second dimension 1, a name read 1, an operation 1):
! - Inside a kernel the extents come from the caller (Fortran 2018
!   8.5.8.3): SIZE(X) is not known there, but it is the same at every
!   use, so AXPY costs 9 a trip (Y(I) 2, A 1, X(I) 2, * and + 2, the
!   store of Y(I) 2) over one unknown: 9*UNKNOWN_1 + 1 (the bound's SIZE
!   1), for a non-empty X; the hover says what UNKNOWN_1 stands for.
! - RELAX over U(0:, 0:): UBOUND(U, 1) is the lower bound 0 plus the
!   extent less one, so the loops run 1 .. extent - 2. The statement
!   costs 33: four neighbours of 5 (load, second index, I, J, the ± 1),
!   F(I,J) 4, four operations and 0.25*, the store 4; each loop's bound
!   3 (UBOUND 2, the - 1). One polynomial in the two extents (numbered
!   as the count meets them: UNKNOWN_1 is the second dimension's, which
!   the outer loop asks first), not an unknown per loop.
! - At each call the extents are the actual arguments' (a whole array,
!   a section, passed by position or by keyword):
!   - RELAX(U, F) with U(0:257, 0:257): 256 columns of (256 × 33 + 3)
!     plus 3 = 2,163,459; the DO of 100 calls 216,345,900.
!   - AXPY(2.0, X, Y) with X(65536): 9 × 65,536 + 1 = 589,825.
!   - AXPY(Y=Y(1:N), X=X(1:N), A=0.5) by keyword, X's section of 256:
!     9 × 256 + 1 = 2305.
!   - R = RMS(Y): SUM(V**2) 3 an element over 65,536, SIZE, the
!     division, SQRT and the result's store 4, R's store 1: 196,613.
! - A loop bounded by SIZE, LBOUND or UBOUND of an array declared here is
!   the loop with the bound written out: DO J = LBOUND(U,2)+1,
!   UBOUND(U,2)-1 runs 256 times, 256 × 2 (the store of X(J) 1 and J 1)
!   + 6 for the bounds (each inquiry 2, as in RELAX, and its ± 1) = 518.
module kernels
  implicit none
contains
  subroutine axpy(a, x, y)
    real, intent(in) :: a, x(:)
    real, intent(inout) :: y(:)
    integer :: i
    !@hover("^\*\*Cost\*\* \(DO\): `9\*UNKNOWN_1 \+ 1` for UNKNOWN_1 ≥ 1")
    !@hover("UNKNOWN_1: the extent of X, an assumed-shape argument of AXPY")
    do i = 1, size(x)
      y(i) = y(i) + a * x(i)
    end do
  end subroutine axpy

  real function rms(v)
    real, intent(in) :: v(:)
    rms = sqrt(sum(v**2) / size(v))
  end function rms

  subroutine relax(u, f)
    real, intent(inout) :: u(0:, 0:)
    real, intent(in) :: f(:, :)
    integer :: i, j
    !@hover("`33\*UNKNOWN_1\.UNKNOWN_2 - 63\*UNKNOWN_1 - 66\*UNKNOWN_2 \+ 129`")
    !@hover("UNKNOWN_1: the extent of dimension 2 of U, an assumed-shape argument of RELAX")
    do j = 1, ubound(u, 2) - 1
      do i = 1, ubound(u, 1) - 1
        u(i, j) = 0.25 * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1) - f(i, j))
      end do
    end do
  end subroutine relax
end module kernels

program driver
  use kernels
  implicit none
  integer, parameter :: n = 256
  real :: u(0:n+1, 0:n+1), f(n, n), x(n*n), y(n*n), r
  integer :: it, j
  call random_number(f)
  u = 0.0
  x = 1.0
  y = 0.0
  !@hint("^216 M$", tooltip="\b216345900\b")
  do it = 1, 100
    !@hover("^\*\*Cost\*\* \(STAT\): `2163459`")
    call relax(u, f)
  end do
  !@hover("^\*\*Cost\*\* \(STAT\): `589825`")
  call axpy(2.0, x, y)
  !@hover("^\*\*Cost\*\* \(STAT\): `2305`")
  call axpy(y=y(1:n), x=x(1:n), a=0.5)
  !@hover("^\*\*Work\*\* \(STAT\): `196613`")
  r = rms(y)
  !@hover("^\*\*Cost\*\* \(DO\): `518`")
  do j = lbound(u, 2) + 1, ubound(u, 2) - 1
    x(j) = 0.0
  end do
  print *, r
end program driver
