! Histogram with an OpenMP array reduction: every thread bins its share
! of the samples into a private copy, the copies are summed at the end.
!
! Expert's view: 4·10⁶ samples split statically over the threads; the
! reduction(+:hist) adds 16 private 256-bin arrays at the end (a tree
! or a serial sum: at most 16 × 256 adds, negligible), plus one
! barrier. The loop scales almost linearly: speed-up 10-16 on 16 cores.
program histogram_omp
  implicit none
  integer, parameter :: ns = 4000000, nbins = 256
  real :: x(ns)
  integer :: hist(nbins), i, b

  call random_number(x)
  hist = 0
  !$omp parallel do private(b) reduction(+:hist)
  !@estimate(scales "10-16")
  !@estimate(report "reduction of HIST \(\+, 256 elements\) over 16 threads")
  do i = 1, ns
    b = 1 + int(x(i) * (nbins - 1))
    hist(b) = hist(b) + 1
  end do
  !$omp end parallel do
  print *, hist(1:4)
end program histogram_omp
