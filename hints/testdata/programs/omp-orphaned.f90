! Heat diffusion with OpenMP written the way larger codes are: one
! PARALLEL region around the time loop, the kernels in a module with
! orphaned !$omp do directives that bind to the caller's team, and the
! same smoothing kernel also called from serial set-up code.
!
! Expert's view: inside the region each sweep's 1022 columns are shared
! by the 16 threads (64 columns for the busiest), with a barrier at the
! end of each orphaned DO: the time loop should scale like a PARALLEL
! DO would, 4-16 on 16 threads (two 8 MB arrays: partly bound by memory
! bandwidth). The set-up loop calls the same kernel outside every
! region, where an orphaned DO binds to a team of one thread: it runs
! serially and must not be credited with any speed-up.
module heat_kernels
  implicit none
contains
  subroutine smooth(u, unew, n)
    integer, intent(in) :: n
    real(8), intent(in) :: u(n, n)
    real(8), intent(inout) :: unew(n, n)
    integer :: i, j
    !$omp do
    do j = 2, n - 1
      do i = 2, n - 1
        unew(i, j) = 0.25d0 * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
      end do
    end do
    !$omp end do
  end subroutine smooth

  subroutine copy_back(u, unew, n)
    integer, intent(in) :: n
    real(8), intent(inout) :: u(n, n)
    real(8), intent(in) :: unew(n, n)
    integer :: i, j
    !$omp do
    do j = 2, n - 1
      do i = 2, n - 1
        u(i, j) = unew(i, j)
      end do
    end do
    !$omp end do
  end subroutine copy_back
end module heat_kernels

program heat_orphaned
  use heat_kernels
  implicit none
  integer, parameter :: n = 1024, nsteps = 200
  real(8) :: u(n, n), unew(n, n)
  integer :: step, k

  u = 0.0d0
  u(:, 1) = 1.0d0
  unew = u
  !@estimate(report "it runs on one thread")
  !@estimate(noreport "shares its iterations")
  !@estimate(scales "0.9-1.1")
  do k = 1, 3
    call smooth(u, unew, n)
    call copy_back(u, unew, n)
  end do

  !$omp parallel private(step)
  !@estimate(report "orphaned: it shares its iterations among the team of the PARALLEL region at line 63")
  !@estimate(report "barrier at the end of the loop at line 22")
  !@estimate(noreport "priced by its operation count|runs on one thread")
  !@estimate(scales "4-16")
  do step = 1, nsteps
    call smooth(u, unew, n)
    call copy_back(u, unew, n)
  end do
  !$omp end parallel
  print *, u(n/2, n/2)
end program heat_orphaned
