! Free form: & continuation (also at the start of the next line), ";"
! separators, "!" comments, construct names, modules, derived types.
module geometry
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type :: point
     real(dp) :: x = 0.0_dp, y = 0.0_dp
  end type point
  private :: helper
contains
  pure function norm(p) result(r)
    type(point), intent(in) :: p
    real(dp) :: r
    r = sqrt(p%x**2 + &
             p%y**2)
  end function norm
  subroutine helper(a, n)
    integer, intent(in) :: n
    real(dp), intent(inout) :: a(:)
    integer :: i
    do concurrent (i = 1:n, a(i) > 0)
      a(i) = a(i) * 2
    end do
  end subroutine helper
end module geometry

program main
  use geometry, only: point, norm
  implicit none
  real, allocatable :: v(:,:)
  integer :: i, j, n; character(len=*), parameter :: msg = "a ""quoted"" &
    &string"
  type(point) :: p
  n = 4; allocate(v(n, n))
  outer: do i = 1, n
    inner: do j = 1, n
      if (i == j) cycle inner
      v(i, j) = real(i + j)
      if (v(i,j) > 100.0) exit outer
    end do inner
  end do outer
  where (v > 2.0)
    v = v - 1.0
  elsewhere
    v = 0.0
  end where
  forall (i = 1:n, j = 1:n, i /= j) v(i, j) = v(j, i)
  select case (n)
  case (1:3)
    print *, 'small'
  case (4, 5)
    print *, 'medium'
  case default
    print *, 'large'
  end select
  p = point(1.0, 2.0)
  v(1, :) = [1.0, 2.0, 3.0, 4.0]
  v(2, :) = (/ (real(i), i = 1, n) /)
  do while (n > 0)
    n = n - 1
  end do
  block
    integer :: k
    k = 1
  end block
  write (*, '(a, f8.3)') msg, norm(p)
  deallocate (v)
end program main
