! Scale a field into a second array that the user distributed on its own,
! by columns, while the source is distributed by rows: every element
! moves. The quick fix must replace B's DISTRIBUTE, not add a second
! mapping beside it.
program scale
  implicit none
  integer, parameter :: n = 512
  real :: a(n,n), b(n,n)
!hpf$ distribute a(block,*)
!hpf$ distribute b(*,block)
  integer :: i, j
  call random_number(a)
  do j = 1, n
    do i = 1, n
      b(i,j) = a(i,j) * 2.0
    end do
  end do
  print *, sum(b)
end program scale
