! Every construct the formatter indents, written with uneven indentation.
module shapes   
implicit none
    type, public :: point
  real :: x, y
      end type point
  interface norm
module procedure norm2d
    end interface
contains
      pure function norm2d(p) result(r)
type(point), intent(in) :: p
  real :: r
r = sqrt(p%x**2 + &
         p%y**2)
    end function norm2d
end module shapes

program main   
use shapes
  implicit none
integer :: i, j, k, n
      real :: a(10), s
character(len=20) :: msg
n = 10
  ! a comment inside the program
outer: do i = 1, n
if (a(i) > 0.0) then
s = s + a(i)
  else if (a(i) < 0.0) then
 s = s - a(i)
      else
cycle outer
end if
   end do outer
select case (n)
case (1)
s = 0
    case default
  s = 1
end select
where (a > 0.0)
a = 1.0
elsewhere
a = 0.0
end where
do 10 j = 1, n
do 10 k = 1, n
s = s + 1
10 continue
msg = 'a string &
&continued'
  msg = 'kept &
   as written'
!$omp parallel do
do i = 1, n
a(i) = 0.0
enddo
!$omp end parallel do
#ifdef DEBUG
print *, s
#endif
block
  real :: t
t = s
end block
associate (q => a(1))
q = 2.0
end associate
  if (s > 0) s = 0; if (n > 0) then; n = 0; end if
call report(s, &
  n)
contains
subroutine report(x, m)
real, intent(in) :: x
integer, intent(inout) :: m
print *, x, m
end subroutine report
end program main
