program cmf
  integer, parameter :: n = 256
  real a(n, n), b(n, n)
  do step = 1, 200
    a = b * 2.0 + a
    where (a > 1.0) a = 0.0
  end do
end
subroutine blk(a, b, c, n, bs)
  integer n, bs
  real a(n, n), b(n, n), c(n, n)
  do jj = 1, n, bs
    do kk = 1, n, bs
      do i = 1, n
        do j = jj, min(jj + bs - 1, n)
          do k = kk, min(kk + bs - 1, n)
            c(i, j) = c(i, j) + a(i, k) * b(k, j)
          end do
        end do
      end do
    end do
  end do
end
