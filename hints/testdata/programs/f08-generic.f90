! BLAS-like kernels behind generic interfaces, as a Fortran 2008 module
! offers them: AXPY and DOT for REAL(SP) and REAL(DP) vectors, the
! program calling the generic names only.
!
! Expert's view, in the all-one table (a load or a store 1, a name read
! 1, an operation 1):
! - Each call means the specific procedure its arguments select (Fortran
!   2018 15.5.5.2): XS, YS are REAL(SP), so SAXPY and SDOT; XD, YD are
!   REAL(DP), so DAXPY and DDOT (2.0_SP and 2.0_DP agree with either:
!   the vectors decide).
! - AXPY: Y(I) 2, A 1, X(I) 2, * and + 2, the store of Y(I) 2 = 9 a trip,
!   and the bound N 1: 9 × 4096 + 1 = 36,865, in either kind.
! - DOT: S = 0 1, then S 1, X(I) 2, Y(I) 2, * and + 2, the store 1 = 8 a
!   trip, the bound 1: 32,770, and the caller's store of the result 1:
!   32,771.
! - The DO: 50 × (2 × 36,865 + 2 × 32,771) = 6,963,600.
! - The estimate follows each specific procedure loop by loop (no
!   operation-count pricing, nothing left symbolic): 50 × 4 × 4096
!   element updates, a fraction of a millisecond.
! Before generic interfaces were resolved every call counted nothing.
module blas_generic
  implicit none
  integer, parameter :: sp = kind(1.0), dp = kind(1.0d0)
  interface axpy
    module procedure saxpy, daxpy
  end interface axpy
  interface dot
    module procedure sdot, ddot
  end interface dot
contains
  subroutine saxpy(n, a, x, y)
    integer, intent(in) :: n
    real(sp), intent(in) :: a, x(n)
    real(sp), intent(inout) :: y(n)
    integer :: i
    do i = 1, n
      y(i) = y(i) + a * x(i)
    end do
  end subroutine saxpy

  subroutine daxpy(n, a, x, y)
    integer, intent(in) :: n
    real(dp), intent(in) :: a, x(n)
    real(dp), intent(inout) :: y(n)
    integer :: i
    do i = 1, n
      y(i) = y(i) + a * x(i)
    end do
  end subroutine daxpy

  function sdot(n, x, y) result(s)
    integer, intent(in) :: n
    real(sp), intent(in) :: x(n), y(n)
    real(sp) :: s
    integer :: i
    s = 0.0_sp
    do i = 1, n
      s = s + x(i) * y(i)
    end do
  end function sdot

  function ddot(n, x, y) result(s)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n), y(n)
    real(dp) :: s
    integer :: i
    s = 0.0_dp
    do i = 1, n
      s = s + x(i) * y(i)
    end do
  end function ddot
end module blas_generic

program generic_blas
  use blas_generic
  implicit none
  integer, parameter :: n = 4096, nrep = 50
  real(sp) :: xs(n), ys(n), s
  real(dp) :: xd(n), yd(n), d
  integer :: rep

  xs = 1.0_sp
  ys = 0.0_sp
  xd = 1.0_dp
  yd = 0.0_dp
  !@hover("\*\*Cost\*\* \(DO\): `6963600`")
  !@estimate(report "SAXPY is estimated with the arguments of each call")
  !@estimate(report "DDOT is estimated with the arguments of each call")
  !@estimate(report "computation [1-9][0-9.]* µs")
  !@estimate(noreport "priced by its operation count|not included|symbolic")
  do rep = 1, nrep
    call axpy(n, 2.0_sp, xs, ys) !@hover("\*\*Cost\*\* \(STAT\): `36865`")
    call axpy(n, 2.0_dp, xd, yd) !@hover("\*\*Cost\*\* \(STAT\): `36865`")
    s = dot(n, xs, ys) !@hover("\*\*Cost\*\* \(STAT\): `32771`")
    d = dot(n, xd, yd) !@hover("\*\*Cost\*\* \(STAT\): `32771`")
  end do
  print *, s, d
end program generic_blas
