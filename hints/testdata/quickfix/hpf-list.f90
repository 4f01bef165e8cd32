! A Jacobi-like update whose right-hand side F sits in a DISTRIBUTE with
! another array, (CYCLIC,*), while U is (BLOCK,BLOCK) onto P. The fix
! takes F out of its list and leaves G distributed as it was.
program lists
  implicit none
  integer, parameter :: n = 512
  real :: u(n,n), unew(n,n), f(n,n)
  integer :: i, j
!hpf$ processors p(4,4)
!hpf$ distribute (block,block) onto p :: u, unew
!hpf$ distribute (cyclic,*) :: f, g
  real :: g(n,n)
  f = 1.0
  u = 0.0
  do j = 2, n-1
    do i = 2, n-1
      f(i,j) = u(i,j) + 1.0
    end do
  end do
  print *, f(2,2), unew(1,1), g(1,1)
end program lists
