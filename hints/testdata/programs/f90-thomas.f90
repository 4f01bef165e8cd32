! Thomas algorithm for one tridiagonal system, Fortran 90 module
! procedure with assumed-size style explicit bounds.
!
! Expert's view (all-one cost): forward elimination, n-1 iterations of
! m = a(i)/b(i-1) (4: a(i) 2, b(i-1) 3 with the subtraction in the
! subscript... see below) and so on; the counts are linear in n with
! exact coefficients, and the routine's cost is one linear polynomial
! in N. 1-D array elements cost their subscript + 1, so a(i) is 2 and
! b(i-1) is 3. Forward body: m = a(i)/b(i-1) → 1 + 2 + 3 + 1 = 7;
! b(i) = b(i) - m*c(i-1) → 2 + 2 + 1 + 3 + 2 = 10; d(i) = d(i) - m*d(i-1)
! → 10: 27 per iteration, bounds 0 and 1 (n): 27·N - 26. Back
! substitution x(i) = (d(i) - c(i)*x(i+1))/b(i): 2 + 2 + 2 + 3 + 2 + 3 = 14,
! bounds n-1 (2), 1 (0) and the step -1 (a unary minus, 1): 14·N - 11;
! with x(n) = d(n)/b(n) (7) the routine costs 41·N - 30.
module tridiag
  implicit none
contains
  !@hint("^41·N - 30 for N ≥ 2$", tooltip="^Cost of subroutine THOMAS")
  subroutine thomas(a, b, c, d, x, n)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n), c(n)
    real(8), intent(inout) :: b(n), d(n)
    real(8), intent(out) :: x(n)
    real(8) :: m
    integer :: i
    do i = 2, n  !@hint("^27·N - 26 for N ≥ 2$")
      m = a(i) / b(i-1)
      b(i) = b(i) - m*c(i-1)
      d(i) = d(i) - m*d(i-1)
    end do
    x(n) = d(n) / b(n)
    do i = n - 1, 1, -1  !@hint("^14·N - 11 for N ≥ 2$")
      x(i) = (d(i) - c(i)*x(i+1)) / b(i)
    end do
  end subroutine thomas
end module tridiag
