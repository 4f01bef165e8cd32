!@rename("n, x", m)
!@rename("n=10", nn)
!@rename("n, x", x)
!@rename("k)", j)
subroutine s(n, x)
  integer, intent(in) :: n
  real :: x(n)
  x = 0.0
end subroutine s

real function f(k)
  integer, intent(in) :: k
  f = 2.0 * k
end function f

program p
  real :: a(10), y
  call s(n=10, x=a)
  call s(10, a)
  y = f(k=2)
  write (unit=6, fmt=*) y
end program p
