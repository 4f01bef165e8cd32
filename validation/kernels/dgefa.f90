! dgefa.f90 -- MPI node program for LU factorization (pfls validation kit)
!
! The SPMD program a Fortran D compiler makes of validation/fortrand/dgefa.f:
! LINPACK's DGEFA, Gaussian elimination with partial pivoting of a
! DOUBLE PRECISION A(N,N), its columns distributed over the P processes
! (Adve, Koelbel and Mellor-Crummey's Figure 4a). For each step K = 1..N-1:
!   the owner of column K finds the pivot row L (largest |A(I,K)|, I >= K),
!   swaps A(L,K) and A(K,K) and makes the factors A(I,K) = -A(I,K)/A(K,K),
!   I > K; it broadcasts L (one INTEGER) and the factors (N-K DOUBLE
!   PRECISION values); every process then swaps rows L and K of its columns
!   J > K and adds T*A(I,K) to them (T = the swapped A(K,J)).
!
! Layouts (the template D is distributed, A is aligned with it):
!   block   D(:,BLOCK)   columns in P contiguous blocks of ceil(N/P)
!   cyclic  D(:,CYCLIC)  column J on process mod(J-1, P)
! BLOCK leaves the processes of the left columns idle once their columns
! are done; CYCLIC keeps every process busy to the end.
!
! The matrix is diagonally dominant (A(I,J) = (7I+13J mod 101)/101, plus N
! on the diagonal), so no pivot is zero and the pivot stays on the
! diagonal (the program still makes the exchanges, of a row with itself,
! as DGEFA does); every layout and P computes the same factors.
!
! Usage: dgefa LAYOUT N NCYCLE REPS   (NCYCLE factorizations per timed run)
! Output (rank 0, one line):
!   result kernel=dgefa layout=L n=N p=P ncycle=C reps=R median=.. min=.. max=.. checksum=..
! Times are seconds for the whole NCYCLE factorizations, the maximum over
! the ranks; checksum is the sum of the factored A(1:N,1:N) in double
! precision.

module dgefa_mod
  use mpi
  use kit, only: dp, charge
  implicit none
  private
  public :: part_t, setup_part, owner_of, init_a, factor, local_sum

  !> One process's columns.
  type :: part_t
     integer :: n, rank, nprocs
     logical :: cyclic
     integer :: ncols                      !< columns held here
     integer, allocatable :: cols(:)       !< their global indices, increasing
  end type part_t

contains

  !> The process that holds global column j.
  pure integer function owner_of(part, j)
    type(part_t), intent(in) :: part
    integer, intent(in) :: j
    integer :: b
    if (part%cyclic) then
       owner_of = modulo(j - 1, part%nprocs)
    else
       b = (part%n + part%nprocs - 1) / part%nprocs
       owner_of = (j - 1) / b
    end if
  end function owner_of

  subroutine setup_part(n, rank, nprocs, cyclic, part)
    integer, intent(in) :: n, rank, nprocs
    logical, intent(in) :: cyclic
    type(part_t), intent(out) :: part
    integer :: j, c
    part%n = n
    part%rank = rank
    part%nprocs = nprocs
    part%cyclic = cyclic
    part%ncols = 0
    do j = 1, n
       if (owner_of(part, j) == rank) part%ncols = part%ncols + 1
    end do
    allocate (part%cols(part%ncols))
    c = 0
    do j = 1, n
       if (owner_of(part, j) == rank) then
          c = c + 1
          part%cols(c) = j
       end if
    end do
  end subroutine setup_part

  subroutine init_a(part, a)
    type(part_t), intent(in) :: part
    real(dp), intent(out) :: a(:, :)
    integer :: i, c, j
    do c = 1, part%ncols
       j = part%cols(c)
       do i = 1, part%n
          a(i, c) = real(modulo(7 * i + 13 * j, 101), dp) / 101.0_dp
       end do
       a(j, c) = a(j, c) + real(part%n, dp)
    end do
  end subroutine init_a

  !> The timed loop DO 60 K = 1, N-1 of the source. buf holds the factors
  !> of column K on every process.
  subroutine factor(part, a, buf)
    type(part_t), intent(in) :: part
    real(dp), intent(inout) :: a(:, :)
    real(dp), intent(inout) :: buf(:)
    integer :: k, l, i, c, ck, first, root, n, ierr
    real(dp) :: t
    n = part%n
    first = 1 ! the first local column with index > k
    do k = 1, n - 1
       root = owner_of(part, k)
       do while (first <= part%ncols)
          if (part%cols(first) > k) exit
          first = first + 1
       end do
       if (root == part%rank) then
          ck = first - 1 ! column k is the last local one not above k
          ! loop 10: the pivot row; 2 ABS and a comparison an element
          l = k
          do i = k + 1, n
             if (abs(a(i, ck)) > abs(a(l, ck))) l = i
          end do
          call charge(3.0_dp * (n - k))
          t = a(l, ck)
          a(l, ck) = a(k, ck)
          a(k, ck) = t
          ! loop 20: the factors; a division and a negation each
          do i = k + 1, n
             a(i, ck) = -a(i, ck) / a(k, ck)
          end do
          call charge(5.0_dp * (n - k))
          buf(k + 1:n) = a(k + 1:n, ck)
       end if
       call MPI_Bcast(l, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
       call MPI_Bcast(buf(k + 1), n - k, MPI_DOUBLE_PRECISION, root, MPI_COMM_WORLD, ierr)
       ! loops 40 and 30 on the local columns J > K: a multiplication and
       ! an addition an element
       do c = first, part%ncols
          t = a(l, c)
          a(l, c) = a(k, c)
          a(k, c) = t
          do i = k + 1, n
             a(i, c) = a(i, c) + t * buf(i)
          end do
       end do
       call charge(2.0_dp * (n - k) * (part%ncols - first + 1))
    end do
  end subroutine factor

  real(dp) function local_sum(part, a)
    type(part_t), intent(in) :: part
    real(dp), intent(in) :: a(:, :)
    integer :: c
    local_sum = 0.0_dp
    do c = 1, part%ncols
       local_sum = local_sum + sum(a(1:part%n, c))
    end do
  end function local_sum

end module dgefa_mod


program dgefa
  use mpi
  use dgefa_mod
  use kit
  implicit none
  integer :: ierr, rank, nprocs, n, ncycle, reps, r, kc, nargs
  character(len=32) :: layout
  type(part_t) :: part
  real(dp), allocatable :: a(:, :), buf(:), times(:)
  real(dp) :: t0, t, mysum, checksum

  kit_name = 'dgefa'
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  nargs = command_argument_count()
  if (nargs /= 4) call fail(rank, 'usage: dgefa LAYOUT N NCYCLE REPS (LAYOUT block or cyclic)')
  call get_command_argument(1, layout)
  n = int_arg(2, 'N', rank)
  ncycle = int_arg(3, 'NCYCLE', rank)
  reps = int_arg(4, 'REPS', rank)
  if (n < 2) call fail(rank, 'N must be at least 2')
  if (reps < 1) call fail(rank, 'REPS must be at least 1')
  select case (trim(layout))
  case ('block', 'cyclic')
  case default
     call fail(rank, 'unknown layout "'//trim(layout)//'" (block or cyclic)')
  end select

  call setup_part(n, rank, nprocs, trim(layout) == 'cyclic', part)
  allocate (a(n, max(part%ncols, 1)), buf(n), times(reps), stat=r)
  if (r /= 0) call fail(rank, 'cannot allocate the local columns')

  ! one untimed warm-up run, then REPS timed runs, each from the same matrix
  call init_a(part, a)
  call factor(part, a, buf)
  do r = 1, reps
     call MPI_Barrier(MPI_COMM_WORLD, ierr)
     t = 0.0_dp
     do kc = 1, ncycle
        call init_a(part, a)
        call MPI_Barrier(MPI_COMM_WORLD, ierr)
        t0 = MPI_Wtime()
        call factor(part, a, buf)
        t = t + (MPI_Wtime() - t0)
     end do
     call MPI_Allreduce(t, times(r), 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  end do

  mysum = local_sum(part, a)
  call MPI_Reduce(mysum, checksum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) call report(layout, n, nprocs, ncycle, reps, '', times, checksum)

  deallocate (a, buf, times)
  call MPI_Finalize(ierr)

end program dgefa
