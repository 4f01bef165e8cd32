! Jacobi iteration for a banded, diagonally dominant system (bandwidth
! 2·bw + 1), written as a scientist writes it: a DO WHILE convergence
! loop with an iteration cap, the band's column loop with MAX/MIN
! bounds, and the boundary condition chosen by SELECT CASE on a
! PARAMETER.
!
! Expert's view, and why (all-one counts, DESIGN's table):
! - The band loop DO J = MAX(1, I-BW), MIN(N, I+BW) runs 2·BW+1 = 7
!   times for 4 <= I <= 997, fewer at the ends: 4, 5, 6 for I = 1, 2, 3
!   and 6, 5, 4 for I = 998, 999, 1000: 994·7 + 2·(4+5+6) = 6988 J
!   iterations (Fortran 2018 11.1.7.4.1: the trip count is
!   MAX(0, hi - lo + 1) with the bounds evaluated once). Its bounds cost 6
!   (MAX 1, I 1, the subtraction 1, and as much for MIN); its body, IF
!   (J /= I) XNEW(I) = XNEW(I) + X(J), is 2 (J and I) plus ½·7 = 11/2.
!   The I loop: 1000·(4 + 6 + 7) + 11/2·6988 = 17000 + 38434 = 55434.
! - SELECT CASE (BC) with BC = 2, a PARAMETER: only CASE (2) runs (F2018
!   11.1.9.2: the case whose value matches the selector), XNEW(1) =
!   XNEW(2) (2) and XNEW(N) = XNEW(N-1) (3): 5, not an average of the
!   arms.
! - The update loop: ERR = MAX(ERR, ABS(XNEW(I) - X(I))) is 8 and X(I) =
!   XNEW(I) 4: 1000·12 = 12000.
! - The DO WHILE runs an unknown number of times: its count is one
!   unknown, UNKNOWN_1, times an iteration (IT = IT + 1: 3, ERR = 0: 1,
!   55434, 5, 12000, and the test ERR > TOL .AND. IT < MAXIT: three
!   references and a logical operator, 4) = 67447, plus the last test, 4.
!   IT counts from 0 and the loop stops when IT reaches MAXIT = 500, so
!   the estimate is bounded by 500 iterations (an upper bound: ERR may
!   fall below TOL sooner), not one.
! - Estimates: the I loop is 1000 iterations, too many to estimate one by
!   one; its band loop must still be counted with its 7 iterations (not
!   one, the bounds not being polynomial), range by range.
!@procs(1)
program banded_relax
  implicit none
  integer, parameter :: n = 1000, bw = 3, maxit = 500
  integer, parameter :: bc = 2
  real(8) :: a(n), b(n), x(n), xnew(n), err, tol
  integer :: i, j, it

  tol = 1.0d-8
  it = 0
  err = 1.0d0
  a = 4.0d0
  b = 1.0d0
  x = 0.0d0
  !@hover("^\*\*Cost\*\* \(DO\): `67447\*UNKNOWN_1 \+ 4`")
  !@hover("UNKNOWN_1: the iterations of the DO WHILE")
  !@estimate(noreport "estimated for one iteration")
  !@estimate(report "at most 500 iterations")
  do while (err > tol .and. it < maxit)
    it = it + 1
    err = 0.0d0
    !@hover("^\*\*Cost\*\* \(DO\): `55434`")
    !@estimate(report "estimated in 3 ranges \(1-3, 4-996, 997-1000\)")
    !@estimate(noreport "range not polynomial|for one iteration")
    do i = 1, n
      xnew(i) = b(i)
      do j = max(1, i - bw), min(n, i + bw)
        if (j /= i) xnew(i) = xnew(i) + x(j) !@hover("^\*\*Cost\*\* \(IF\): `11/2`")
      end do
      xnew(i) = xnew(i) / a(i)
    end do
    !@hover("^\*\*Cost\*\* \(IF\): `5`")
    select case (bc)
    case (1)
      xnew(1) = 0.0d0
      xnew(n) = 0.0d0
    case (2)
      xnew(1) = xnew(2)
      xnew(n) = xnew(n-1)
    case default
      continue
    end select
    !@hover("^\*\*Cost\*\* \(DO\): `12000`")
    do i = 1, n
      err = max(err, abs(xnew(i) - x(i)))
      x(i) = xnew(i)
    end do
  end do
  print *, it, err
end program banded_relax
