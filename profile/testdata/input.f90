! input.f90 -- reads its trip count from the file pfls-input.txt in the
! folder it runs in (pfls profile's tests write 7 there).
program input
  implicit none
  integer :: n, i, s
  open (10, file='pfls-input.txt', status='old', action='read')
  read (10, *) n
  close (10)
  s = 0
  do i = 1, n                  !@profile(count=7, entries=1)
     s = s + i
  end do
  print '(a,i0)', 'input ', s
end program input
