!@rename("total = 0", tmp)
!@rename("total = 0", sum2)
!@rename("total = 0", add)
!@rename("total = 0", host)
!@rename("total = 0", a_rather_long_name_that_pushes_the_line_past_the_last_column_of_free_form)
!@rename("tmp = k", t)
!@rename("total = 0", total_of_all_the_increments_seen_so_far_x)
!@rename("tmp = k", tmp_xy)
!@rename("add(3)", addto)
!@rename("add(3)", total)
!@rename("print", x)
program host
  implicit none
  integer :: total
  total = 0
  call add(3)
  print *, total
contains
  subroutine add(k)
    integer, intent(in) :: k
    integer :: tmp
    tmp = k
    total = total + tmp + tmp + tmp + tmp + tmp + tmp + tmp + tmp + tmp + tmp + tmp + tmp + total
  end subroutine add
end program host
