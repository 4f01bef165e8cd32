! Free-form corners: continued strings, labels, ";" after a label,
! OpenMP directives over several lines, conditional-compilation comments.
program edge
  implicit none
  integer :: i, n = 3
  real :: s(10)
  character(len=40) :: t
  t = 'a string that goes &
      &on'
10 continue; s = 0.0
  !$omp parallel do private(i) &
  !$omp& shared(s) reduction(+:n)
  do i = 1, 10
    s(i) = real(i)
  end do
  !$omp end parallel do
  !$ n = n + 1
  if (n > 2) goto 10
  n = n + &   ! a comment after the ampersand
      1
  print '(a)', trim(t)
  write (*, *) s(1:3), (s(i), i = 4, 5)
  n = merge(1, 2, n > 0 .and. .not. (n == 4))
  i = x_undeclared ! ERROR "X_UNDECLARED is not declared"
end program edge
