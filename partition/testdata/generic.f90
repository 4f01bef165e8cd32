! A generic interface over REAL and DOUBLE PRECISION vectors (TestGenericCallee).
module norms
  implicit none
  interface vnorm
    module procedure vnorm_s, vnorm_d
  end interface
contains
  real function vnorm_s(x, n)
    integer, intent(in) :: n
    real, intent(in) :: x(n)
    integer :: i
    vnorm_s = 0.0
    do i = 1, n
      vnorm_s = vnorm_s + x(i) * x(i)
    end do
  end function
  double precision function vnorm_d(x, n)
    integer, intent(in) :: n
    double precision, intent(in) :: x(n)
    integer :: i
    vnorm_d = 0.0d0
    do i = 1, n
      vnorm_d = vnorm_d + x(i) * x(i)
    end do
    vnorm_d = vnorm_d * 2
  end function
end module

program p
  use norms
  integer, parameter :: n = 1000
  real :: x(n), s
  double precision :: y(n), t
  integer :: it
  x = 1.0
  y = 1.0d0
  do it = 1, 100
    s = vnorm(x, n)
    t = vnorm(y, n)
  end do
end program
