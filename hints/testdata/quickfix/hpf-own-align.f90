! A is aligned with the row template T; B was aligned with C, which is
! distributed by columns. The fix aligns B with T as A is, in place of
! B's own ALIGN.
program realign
  implicit none
  integer, parameter :: n = 512
  real :: a(n,n), b(n,n), c(n,n)
!hpf$ template t(n,n)
!hpf$ distribute t(block,*)
!hpf$ align a(i,j) with t(i,j)
!hpf$ distribute c(*,block)
!hpf$ align b(i,j) with c(i,j)
  integer :: i, j
  a = 1.0
  c = 0.0
  do j = 1, n
    do i = 1, n
      b(i,j) = a(i,j) * 2.0
    end do
  end do
  print *, b(1,1), c(1,1)
end program realign
