!@rename("v = ", w)
!@rename("vol(2.0)", volume)
!@rename("vol(2.0)", r)
!@rename("twice(v)", double)
!@rename("vol(2.0)", sqrt)
function vol(r) result(v)
  real, intent(in) :: r
  real :: v
  v = r**3 + twice(v)
end function vol

function twice(x)
  real :: x, twice
  twice = 2 * x
end function twice

program fr2
  real :: vol
  print *, vol(2.0)
end program fr2
