! Blocked (tiled) matrix multiply with OpenMP: the tile loops use MIN
! bounds for the ragged last tile, the outer tile loop is shared among
! the threads.
!
! Expert's view: 800³ = 5.12·10⁸ multiply-adds whatever the tiling;
! the MIN bounds only cut the last tile (800 = 12 × 64 + 32), so the
! inner statement runs exactly 800³ times and the count must be summed
! exactly, never "one iteration". The jj loop has 13 iterations shared
! statically among the threads: with 16 threads only 13 work, so the
! speed-up is at most 13 (and 12.5 accounting for the short last tile);
! with no communication the parallel loop should scale close to that.
! The all-one cost of the inner statement is 18 (four 2-D array
! elements at 4 each, one add, one multiply), so the loop's count is
! above 18 × 800³ ≈ 9.2·10⁹.
program matmul_omp
  implicit none
  integer, parameter :: n = 800, bs = 64
  real(8) :: a(n,n), b(n,n), c(n,n)
  integer :: i, j, k, ii, jj, kk

  call random_number(a)
  call random_number(b)
  c = 0.0d0
  !$omp parallel do private(i, j, k, ii, kk) schedule(static)
  !@estimate(scales "8-13")
  !@estimate(report "busiest thread does [0-9.]+% \(1/1(3|2\.[0-9]+); even would be 1/16\)")
  !@estimate(noreport "one iteration|not polynomial")
  !@estimate(report "computation [0-9.]+ (ms|s)\)")
  !@hint("^work [0-9.]+ [GT] · span ", tooltip="work [0-9]{10,}\b")
  do jj = 1, n, bs
    do kk = 1, n, bs
      do ii = 1, n, bs
        do j = jj, min(jj + bs - 1, n)
          do k = kk, min(kk + bs - 1, n)
            do i = ii, min(ii + bs - 1, n)
              c(i,j) = c(i,j) + a(i,k) * b(k,j)
            end do
          end do
        end do
      end do
    end do
  end do
  !$omp end parallel do
  print *, c(1,1), c(n,n)
end program matmul_omp
