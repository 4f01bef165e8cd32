! erlebacher.f90 -- MPI node program for ERLEBACHER's forward substitution
! (pfls validation kit)
!
! The SPMD program a Fortran D compiler makes of validation/fortrand/erlebacher.f:
! F(N,N,N) with DISTRIBUTE DZ(:,:,BLOCK), A(N) and B(N) replicated; NCYCLE times
!   loop 20: DO K = 2, N-1 / DO J = 1, N / DO I = 1, N
!              F(I,J,K) = (F(I,J,K) - A(K)*F(I,J,K-1))*B(K)
! The planes K are split into P blocks of N/P (N must be divisible by P). The K
! loop carries a dependence across the processes, so the compiler pipelines it
! (coarse-grain pipelining) as the Fortran D compiler does in seed 000's Figure
! 2b: for each column J, the I loop is strip-mined into blocks of BLOCK
! elements and, for each block, a process
!   1. receives the block's elements of plane klo-1 (the last plane of its
!      left neighbour, already updated) into its ghost plane,
!   2. updates its planes K = klo..khi for those elements,
!   3. sends its last plane khi of the block to its right neighbour,
! so the right neighbour starts while this one goes on with the next block.
!
! Layouts:
!   block    pipelined in blocks of BLOCK elements of I (default 8, seed 000's B)
!   noblock  BLOCK = N: a whole column of I a message
! Both are DZ(:,:,BLOCK); they differ only in the granularity of the pipeline.
!
! A and B are chosen so that every update is a convex combination of
! F(I,J,K) and F(I,J,K-1) (B(K) in [0.5,0.75], A(K) = (B(K)-1)/B(K)): the
! values stay within the range of the initial data for any NCYCLE, with no
! overflow and no denormal numbers to distort the timings.
!
! Usage: erlebacher LAYOUT N NCYCLE REPS [BLOCK]
! Output (rank 0, one line):
!   result kernel=erlebacher layout=L n=N p=P ncycle=C reps=R block=B median=.. min=.. max=.. checksum=..
! Times are seconds for the whole NCYCLE cycles, the maximum over the ranks;
! checksum is the sum of F(1:N,1:N,1:N) in double precision.

module erlebacher_mod
  use mpi
  use kit, only: dp, charge
  implicit none
  private
  public :: part_t, setup_part, init_arrays, forward, local_sum

  integer, parameter :: sp = kind(1.0)

  !> One process's share: the planes klo..khi of F, plus the ghost plane klo-1.
  type :: part_t
     integer :: n             !< the global extent of each dimension
     integer :: klo, khi      !< owned planes, global indices
     integer :: left, right   !< neighbours holding planes below / above (or MPI_PROC_NULL)
  end type part_t

  integer, parameter :: tag_pipe = 30

contains

  !> This process's block of planes and its neighbours in the pipeline.
  subroutine setup_part(n, rank, nprocs, part)
    integer, intent(in) :: n, rank, nprocs
    type(part_t), intent(out) :: part
    part%n = n
    part%klo = rank * (n / nprocs) + 1
    part%khi = part%klo + n / nprocs - 1
    part%left = MPI_PROC_NULL
    part%right = MPI_PROC_NULL
    if (rank > 0) part%left = rank - 1
    if (rank < nprocs - 1) part%right = rank + 1
  end subroutine setup_part

  !> Initial F on the owned planes (a formula of the global indices, the
  !> same for every layout and P), zero in the ghost plane; A and B.
  subroutine init_arrays(part, f, a, b)
    type(part_t), intent(in) :: part
    real(sp), intent(out) :: f(part%n, part%n, part%klo-1:part%khi)
    real(sp), intent(out) :: a(part%n), b(part%n)
    integer :: i, j, k
    f(:, :, part%klo - 1) = 0.0_sp
    do k = part%klo, part%khi
       do j = 1, part%n
          do i = 1, part%n
             f(i, j, k) = 1.0_sp + real(modulo(7 * i + 13 * j + 5 * k, 97), sp) / 97.0_sp
          end do
       end do
    end do
    do k = 1, part%n
       b(k) = 0.5_sp + 0.125_sp * real(modulo(k, 3), sp)
       a(k) = (b(k) - 1.0_sp) / b(k)
    end do
  end subroutine init_arrays

  !> The timed loop: NCYCLE forward substitutions, pipelined as seed 000's
  !> Figure 2b: for each column J, the I loop in blocks of nb elements,
  !> the planes K inside. There is no synchronization between cycles: a
  !> process goes on with the next cycle as soon as it has sent its last
  !> block.
  subroutine forward(part, f, a, b, ncycle, nb)
    type(part_t), intent(in) :: part
    real(sp), intent(inout) :: f(part%n, part%n, part%klo-1:part%khi)
    real(sp), intent(in) :: a(part%n), b(part%n)
    integer, intent(in) :: ncycle, nb
    integer :: kc, i0, i1, i, j, k, n, words, ierr

    n = part%n
    do kc = 1, ncycle
       do j = 1, n
          do i0 = 1, n, nb
             i1 = min(i0 + nb - 1, n)
             ! F(i0:i1, j, k) is contiguous: i1-i0+1 reals.
             words = i1 - i0 + 1
             if (part%left /= MPI_PROC_NULL) then
                call MPI_Recv(f(i0, j, part%klo - 1), words, MPI_REAL, part%left, tag_pipe, &
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
             end if
             do k = max(2, part%klo), min(n - 1, part%khi)
                do i = i0, i1
                   f(i, j, k) = (f(i, j, k) - a(k) * f(i, j, k - 1)) * b(k)
                end do
             end do
             ! 3 operations a point (1 subtraction, 2 multiplications)
             call charge(3.0_dp * words * max(0, min(n - 1, part%khi) - max(2, part%klo) + 1))
             if (part%right /= MPI_PROC_NULL) then
                call MPI_Send(f(i0, j, part%khi), words, MPI_REAL, part%right, tag_pipe, &
                     MPI_COMM_WORLD, ierr)
             end if
          end do
       end do
    end do
  end subroutine forward

  !> Sum of the owned planes of F in double precision.
  real(dp) function local_sum(part, f)
    type(part_t), intent(in) :: part
    real(sp), intent(in) :: f(part%n, part%n, part%klo-1:part%khi)
    integer :: i, j, k
    local_sum = 0.0_dp
    do k = part%klo, part%khi
       do j = 1, part%n
          do i = 1, part%n
             local_sum = local_sum + real(f(i, j, k), dp)
          end do
       end do
    end do
  end function local_sum

end module erlebacher_mod


program erlebacher
  use mpi
  use erlebacher_mod
  use kit
  implicit none
  integer :: ierr, rank, nprocs, n, ncycle, reps, nb, r, nargs
  character(len=32) :: layout
  type(part_t) :: part
  real, allocatable :: f(:, :, :), a(:), b(:)
  real(dp), allocatable :: times(:)
  real(dp) :: t0, t, mysum, checksum

  kit_name = 'erlebacher'
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  ! ---- arguments: LAYOUT N NCYCLE REPS [BLOCK]
  nargs = command_argument_count()
  if (nargs < 4 .or. nargs > 5) &
       call fail(rank, 'usage: erlebacher LAYOUT N NCYCLE REPS [BLOCK] (LAYOUT block or noblock)')
  call get_command_argument(1, layout)
  n = int_arg(2, 'N', rank)
  ncycle = int_arg(3, 'NCYCLE', rank)
  reps = int_arg(4, 'REPS', rank)
  if (n < 3) call fail(rank, 'N must be at least 3')
  if (reps < 1) call fail(rank, 'REPS must be at least 1')
  select case (trim(layout))
  case ('block')
     nb = 8
     if (nargs == 5) nb = int_arg(5, 'BLOCK', rank)
     if (nb < 1) call fail(rank, 'BLOCK must be at least 1')
     nb = min(nb, n)
  case ('noblock')
     if (nargs == 5) call fail(rank, 'layout noblock takes no BLOCK (it is N)')
     nb = n
  case default
     call fail(rank, 'unknown layout "'//trim(layout)//'" (block or noblock)')
  end select
  if (mod(n, nprocs) /= 0) &
       call fail(rank, 'N='//itoa(n)//' is not divisible by P='//itoa(nprocs)//' (DZ(:,:,BLOCK))')

  ! ---- data: refuse sizes that would not fit in the memory of a node
  call setup_part(n, rank, nprocs, part)
  call check_memory(4.0_dp * real(n, dp)**2 * real(part%khi - part%klo + 2, dp))
  allocate (f(n, n, part%klo-1:part%khi), a(n), b(n), stat=r)
  if (r /= 0) call fail(rank, 'cannot allocate the local arrays')
  allocate (times(reps))

  ! ---- one untimed warm-up run, then REPS timed runs
  call init_arrays(part, f, a, b)
  call forward(part, f, a, b, ncycle, nb)
  do r = 1, reps
     call init_arrays(part, f, a, b)
     call MPI_Barrier(MPI_COMM_WORLD, ierr)
     t0 = MPI_Wtime()
     call forward(part, f, a, b, ncycle, nb)
     t = MPI_Wtime() - t0
     call MPI_Allreduce(t, times(r), 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  end do

  mysum = local_sum(part, f)
  call MPI_Reduce(mysum, checksum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)

  if (rank == 0) call report(layout, n, nprocs, ncycle, reps, ' block='//itoa(nb), times, checksum)

  deallocate (f, a, b, times)
  call MPI_Finalize(ierr)

contains

  !> Fail, on every rank alike, when the ranks of some node together need
  !> more than 90% of that node's available memory (Linux /proc/meminfo;
  !> no check where it cannot be read). F of N=2048 alone is 32 GiB.
  subroutine check_memory(mybytes)
    real(dp), intent(in) :: mybytes
    integer :: node, noderank, ierr, over, anyover
    real(dp) :: nodebytes, avail

    call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, node, ierr)
    call MPI_Comm_rank(node, noderank, ierr)
    call MPI_Allreduce(mybytes, nodebytes, 1, MPI_DOUBLE_PRECISION, MPI_SUM, node, ierr)
    avail = -1.0_dp
    if (noderank == 0) avail = mem_available()
    over = 0
    if (noderank == 0 .and. avail > 0.0_dp .and. nodebytes > 0.9_dp * avail) over = 1
    call MPI_Allreduce(over, anyover, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
    call MPI_Comm_free(node, ierr)
    if (anyover /= 0) call fail(rank, 'N='//itoa(n)//' does not fit: the ranks of a node need ' &
         //itoa(nint(nodebytes / 2.0_dp**20))//' MiB, more than 90% of its available memory')
  end subroutine check_memory

  !> MemAvailable of /proc/meminfo in bytes, or -1 if it cannot be read.
  real(dp) function mem_available()
    character(len=256) :: line
    integer :: u, ios
    real(dp) :: kb
    mem_available = -1.0_dp
    open (newunit=u, file='/proc/meminfo', status='old', action='read', iostat=ios)
    if (ios /= 0) return
    do
       read (u, '(a)', iostat=ios) line
       if (ios /= 0) exit
       if (index(line, 'MemAvailable:') == 1) then
          read (line(14:), *, iostat=ios) kb
          if (ios == 0) mem_available = kb * 1024.0_dp
          exit
       end if
    end do
    close (u)
  end function mem_available

end program erlebacher
