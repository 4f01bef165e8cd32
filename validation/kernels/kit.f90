! kit.f90 -- what the validation kernels share (pfls validation kit)
!
! Argument reading, the error exit, the processor grid as pfls factors it,
! the result line every kernel prints, and charge (from charge.f90, or
! charge_smpi.f90 under SimGrid's SMPI), which the kernels call with each
! loop nest's operation count. Build it with each kernel:
!   mpif90 -O2 -o jacobi charge.f90 kit.f90 jacobi.f90

module kit
  use mpi
  use charge_mod, only: charge
  implicit none
  private
  public :: dp, kit_name, fail, int_arg, grid_2d, block_of, neighbour, itoa, report, charge

  integer, parameter :: dp = kind(1.0d0)

  !> The kernel's name, which starts its error messages.
  character(len=32) :: kit_name = 'kernel'

contains

  !> Rank 0 prints the reason on standard error; the run ends with code 2.
  subroutine fail(rank, why)
    use iso_fortran_env, only: error_unit
    integer, intent(in) :: rank
    character(len=*), intent(in) :: why
    integer :: ierr
    if (rank == 0) then
       write (error_unit, '(a)') trim(kit_name)//': '//why
       flush (error_unit)
       call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
    end if
    ! The other ranks wait here until rank 0's abort ends them.
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    stop 2
  end subroutine fail

  !> The k-th command-line argument as a non-negative integer.
  integer function int_arg(k, name, rank)
    integer, intent(in) :: k, rank
    character(len=*), intent(in) :: name
    character(len=64) :: s
    integer :: ios
    call get_command_argument(k, s)
    read (s, *, iostat=ios) int_arg
    if (ios /= 0 .or. verify(trim(s), '0123456789') /= 0) &
         call fail(rank, name//' must be a non-negative integer, not "'//trim(s)//'"')
  end function int_arg

  !> P = px * py with px >= py as equal as possible, as pfls factors it.
  subroutine grid_2d(p, px, py)
    integer, intent(in) :: p
    integer, intent(out) :: px, py
    py = int(sqrt(real(p, dp)) + 1.0e-9_dp)
    do while (mod(p, py) /= 0)
       py = py - 1
    end do
    px = p / py
  end subroutine grid_2d

  !> The interior points lo..hi of process c of q along a dimension (lo >
  !> hi: none): Fortran D's BLOCK of the template 0:N+1, or with express
  !> the paper's split of 1..N.
  pure subroutine block_of(n, q, c, express, lo, hi)
    integer, intent(in) :: n, q, c
    logical, intent(in) :: express
    integer, intent(out) :: lo, hi
    integer :: b
    if (express) then
       b = (n + q - 1) / q
       lo = c * b + 1
       hi = min(n, c * b + b)
    else
       b = (n + 2 + q - 1) / q
       lo = max(1, c * b)
       hi = min(n, c * b + b - 1)
    end if
  end subroutine block_of

  !> The rank of the process at coords + d*e_dim when it holds interior
  !> points along dim, else MPI_PROC_NULL.
  integer function neighbour(comm, n, dims, coords, dim, d, express)
    integer, intent(in) :: comm, n, dims(2), coords(2), dim, d
    logical, intent(in) :: express
    integer :: c(2), lo, hi, ierr
    c = coords
    c(dim) = c(dim) + d
    neighbour = MPI_PROC_NULL
    if (c(dim) < 0 .or. c(dim) >= dims(dim)) return
    call block_of(n, dims(dim), c(dim), express, lo, hi)
    if (lo > hi) return
    call MPI_Cart_rank(comm, c, neighbour, ierr)
  end function neighbour

  function itoa(i) result(s)
    integer, intent(in) :: i
    character(len=:), allocatable :: s
    character(len=16) :: buf
    write (buf, '(i0)') i
    s = trim(buf)
  end function itoa

  !> Rank 0's result line: the median, smallest and largest of the run
  !> times, and the checksum. extra ('' or ' block=8') goes after reps=.
  subroutine report(layout, n, nprocs, ncycle, reps, extra, times, checksum)
    character(len=*), intent(in) :: layout, extra
    integer, intent(in) :: n, nprocs, ncycle, reps
    real(dp), intent(inout) :: times(:)
    real(dp), intent(in) :: checksum
    call sort(times)
    write (*, '(a)') 'result kernel='//trim(kit_name)//' layout='//trim(layout)//' n='//itoa(n) &
         //' p='//itoa(nprocs)//' ncycle='//itoa(ncycle)//' reps='//itoa(reps)//extra &
         //' median='//es(median(times), 3)//' min='//es(times(1), 3) &
         //' max='//es(times(size(times)), 3)//' checksum='//es(checksum, 12)
  end subroutine report

  !> x in scientific notation with d digits after the point, lower-case e.
  function es(x, d) result(s)
    real(dp), intent(in) :: x
    integer, intent(in) :: d
    character(len=:), allocatable :: s
    character(len=40) :: buf
    character(len=20) :: form
    integer :: k
    write (form, '(a,i0,a,i0,a)') '(es', d + 9, '.', d, 'e2)'
    write (buf, form) x
    s = trim(adjustl(buf))
    k = index(s, 'E')
    if (k > 0) s(k:k) = 'e'
  end function es

  subroutine sort(x)
    real(dp), intent(inout) :: x(:)
    integer :: i, j
    real(dp) :: v
    do i = 2, size(x)
       v = x(i)
       j = i - 1
       do while (j >= 1)
          if (x(j) <= v) exit
          x(j + 1) = x(j)
          j = j - 1
       end do
       x(j + 1) = v
    end do
  end subroutine sort

  !> Median of sorted x.
  real(dp) function median(x)
    real(dp), intent(in) :: x(:)
    integer :: m
    m = size(x)
    if (mod(m, 2) == 1) then
       median = x((m + 1) / 2)
    else
       median = 0.5_dp * (x(m / 2) + x(m / 2 + 1))
    end if
  end function median

end module kit
