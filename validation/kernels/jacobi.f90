! jacobi.f90 -- MPI node program for Jacobi relaxation (pfls validation kit)
!
! The SPMD program a Fortran D compiler makes of validation/fortrand/jacobi.f:
! A and B of (0:N+1,0:N+1), aligned with one template G; NCYCLE cycles of
!   loop 10: B(I,J) = 0.25*(A(I-1,J) + A(I+1,J) + A(I,J-1) + A(I,J+1)), I,J = 1..N
!   loop 20: A(I,J) = B(I,J),                                          I,J = 1..N
!
! Layouts (G is distributed, A and B follow it):
!   column  G(:,BLOCK)      the columns J in P contiguous strips (grid 1 x P)
!   row     G(BLOCK,:)      the rows I in P contiguous strips (grid P x 1)
!   block   G(BLOCK,BLOCK)  a Px x Py grid, Px >= Py as even as possible, the
!                           factorization pfls uses (P=2: 2 x 1, P=4: 2 x 2)
! BLOCK is Fortran D's, as in redblack.f90: the template 0:N+1 in blocks of
! ceil((N+2)/Q) over the Q processes of a dimension, each process computing
! the interior points 1..N of its block; any N runs, and the last processes
! may hold fewer points or none (they sit out the exchanges). The global
! boundary lines 0 and N+1 of A live in the ghost cells of the processes
! next to them and are never written. Non-periodic.
!
! Communication is what message vectorization gives: once per cycle, before
! loop 10, every process exchanges its first and last owned column and row of
! A with its (up to four) neighbours. A column is contiguous; a row has stride
! LD and is sent with an MPI vector datatype. Loop 20 is local.
!
! Usage: jacobi LAYOUT N NCYCLE REPS
! Output (rank 0, one line):
!   result kernel=jacobi layout=L n=N p=P ncycle=C reps=R median=.. min=.. max=.. checksum=..
! Times are seconds for the whole NCYCLE cycles, the maximum over the ranks;
! checksum is the sum of A(1:N,1:N) in double precision.

module jacobi_mod
  use mpi
  use kit, only: dp, charge, block_of, neighbour
  implicit none
  private
  public :: part_t, setup_part, free_part, init_arrays, relax, local_sum

  integer, parameter :: sp = kind(1.0)

  !> One process's share of the grid, with global index bounds.
  type :: part_t
     integer :: comm = MPI_COMM_NULL   !< Cartesian communicator, dims (px, py)
     integer :: px = 1, py = 1         !< processes along I (dim 1) and J (dim 2)
     integer :: ilo, ihi, jlo, jhi     !< owned interior points, global indices
     integer :: north, south           !< neighbours at lower / higher I
     integer :: west, east             !< neighbours at lower / higher J
     integer :: rowtype                !< the owned part of one row (stride ld)
  end type part_t

  integer, parameter :: tag_j = 10, tag_i = 20

contains

  !> Build the px x py process grid, this process's block of 1..N in each
  !> dimension, its neighbours and the datatype of one row.
  subroutine setup_part(n, px, py, part)
    integer, intent(in) :: n, px, py
    type(part_t), intent(out) :: part
    integer :: dims(2), coords(2), ierr, me, ni, nj
    logical :: periods(2)

    dims = [px, py]
    periods = [.false., .false.]
    call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., part%comm, ierr)
    call MPI_Comm_rank(part%comm, me, ierr)
    call MPI_Cart_coords(part%comm, me, 2, coords, ierr)
    part%px = px
    part%py = py
    call block_of(n, px, coords(1), .false., part%ilo, part%ihi)
    call block_of(n, py, coords(2), .false., part%jlo, part%jhi)
    ni = max(part%ihi - part%ilo + 1, 0)
    nj = max(part%jhi - part%jlo + 1, 0)
    if (ni == 0 .or. nj == 0) then
       ! No interior points: nothing to compute or exchange.
       part%north = MPI_PROC_NULL
       part%south = MPI_PROC_NULL
       part%west = MPI_PROC_NULL
       part%east = MPI_PROC_NULL
    else
       part%north = neighbour(part%comm, n, dims, coords, 1, -1, .false.)
       part%south = neighbour(part%comm, n, dims, coords, 1, 1, .false.)
       part%west = neighbour(part%comm, n, dims, coords, 2, -1, .false.)
       part%east = neighbour(part%comm, n, dims, coords, 2, 1, .false.)
    end if

    ! Local arrays are (ilo-1:ihi+1, jlo-1:jhi+1): leading dimension ni+2.
    call MPI_Type_vector(nj, 1, ni + 2, MPI_REAL, part%rowtype, ierr)
    call MPI_Type_commit(part%rowtype, ierr)
  end subroutine setup_part

  subroutine free_part(part)
    type(part_t), intent(inout) :: part
    integer :: ierr
    call MPI_Type_free(part%rowtype, ierr)
    call MPI_Comm_free(part%comm, ierr)
  end subroutine free_part

  !> The initial value of A at grid point (i, j): the same for every layout and P.
  elemental real(sp) function initial(i, j)
    integer, intent(in) :: i, j
    initial = real(modulo(7 * i + 13 * j, 101), sp) / 101.0_sp
  end function initial

  !> A takes its initial values on the owned points and the ghost cells
  !> (the global boundary on the edge processes); B starts at zero.
  subroutine init_arrays(part, a, b)
    type(part_t), intent(in) :: part
    real(sp), intent(out) :: a(part%ilo-1:part%ihi+1, part%jlo-1:part%jhi+1)
    real(sp), intent(out) :: b(part%ilo-1:part%ihi+1, part%jlo-1:part%jhi+1)
    integer :: i, j
    do j = part%jlo - 1, part%jhi + 1
       do i = part%ilo - 1, part%ihi + 1
          a(i, j) = initial(i, j)
          b(i, j) = 0.0_sp
       end do
    end do
  end subroutine init_arrays

  !> Fill the ghost lines of A from the (up to four) neighbours.
  subroutine exchange(part, a)
    type(part_t), intent(in) :: part
    real(sp), intent(inout) :: a(part%ilo-1:part%ihi+1, part%jlo-1:part%jhi+1)
    integer :: ni, ierr

    ni = part%ihi - part%ilo + 1
    if (ni <= 0 .or. part%jlo > part%jhi) return ! no points, no neighbours
    if (part%py > 1) then
       ! first column to the west, east ghost column from the east
       call MPI_Sendrecv(a(part%ilo, part%jlo), ni, MPI_REAL, part%west, tag_j, &
            a(part%ilo, part%jhi + 1), ni, MPI_REAL, part%east, tag_j, &
            part%comm, MPI_STATUS_IGNORE, ierr)
       ! last column to the east, west ghost column from the west
       call MPI_Sendrecv(a(part%ilo, part%jhi), ni, MPI_REAL, part%east, tag_j, &
            a(part%ilo, part%jlo - 1), ni, MPI_REAL, part%west, tag_j, &
            part%comm, MPI_STATUS_IGNORE, ierr)
    end if
    if (part%px > 1) then
       ! first row to the north, south ghost row from the south
       call MPI_Sendrecv(a(part%ilo, part%jlo), 1, part%rowtype, part%north, tag_i, &
            a(part%ihi + 1, part%jlo), 1, part%rowtype, part%south, tag_i, &
            part%comm, MPI_STATUS_IGNORE, ierr)
       ! last row to the south, north ghost row from the north
       call MPI_Sendrecv(a(part%ihi, part%jlo), 1, part%rowtype, part%south, tag_i, &
            a(part%ilo - 1, part%jlo), 1, part%rowtype, part%north, tag_i, &
            part%comm, MPI_STATUS_IGNORE, ierr)
    end if
  end subroutine exchange

  !> The timed loop DO 100 KC = 1, NCYCLE of the source, on the owned points.
  subroutine relax(part, a, b, ncycle)
    type(part_t), intent(in) :: part
    real(sp), intent(inout) :: a(part%ilo-1:part%ihi+1, part%jlo-1:part%jhi+1)
    real(sp), intent(inout) :: b(part%ilo-1:part%ihi+1, part%jlo-1:part%jhi+1)
    integer, intent(in) :: ncycle
    integer :: kc, i, j
    do kc = 1, ncycle
       call exchange(part, a)
       ! loop 10: the 4-point sweep
       do j = part%jlo, part%jhi
          do i = part%ilo, part%ihi
             b(i, j) = 0.25_sp * (a(i - 1, j) + a(i + 1, j) &
                  + a(i, j - 1) + a(i, j + 1))
          end do
       end do
       ! 4 operations a point (3 additions, 1 multiplication)
       call charge(4.0_dp * max(part%ihi - part%ilo + 1, 0) * max(part%jhi - part%jlo + 1, 0))
       ! loop 20: copy back (no operations: nothing to charge)
       do j = part%jlo, part%jhi
          do i = part%ilo, part%ihi
             a(i, j) = b(i, j)
          end do
       end do
    end do
  end subroutine relax

  !> Sum of the owned interior points of A in double precision.
  real(dp) function local_sum(part, a)
    type(part_t), intent(in) :: part
    real(sp), intent(in) :: a(part%ilo-1:part%ihi+1, part%jlo-1:part%jhi+1)
    integer :: i, j
    local_sum = 0.0_dp
    do j = part%jlo, part%jhi
       do i = part%ilo, part%ihi
          local_sum = local_sum + real(a(i, j), dp)
       end do
    end do
  end function local_sum

end module jacobi_mod


program jacobi
  use mpi
  use jacobi_mod
  use kit
  implicit none
  integer :: ierr, rank, nprocs, n, ncycle, reps, px, py, r, nargs
  character(len=32) :: layout
  type(part_t) :: part
  real, allocatable :: a(:, :), b(:, :)
  real(dp), allocatable :: times(:)
  real(dp) :: t0, t, mysum, checksum

  kit_name = 'jacobi'
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  ! ---- arguments: LAYOUT N NCYCLE REPS
  nargs = command_argument_count()
  if (nargs /= 4) call fail(rank, 'usage: jacobi LAYOUT N NCYCLE REPS (LAYOUT column, row or block)')
  call get_command_argument(1, layout)
  n = int_arg(2, 'N', rank)
  ncycle = int_arg(3, 'NCYCLE', rank)
  reps = int_arg(4, 'REPS', rank)
  if (n < 1) call fail(rank, 'N must be at least 1')
  if (reps < 1) call fail(rank, 'REPS must be at least 1')
  select case (trim(layout))
  case ('column')
     px = 1
     py = nprocs
  case ('row')
     px = nprocs
     py = 1
  case ('block')
     call grid_2d(nprocs, px, py)
  case default
     call fail(rank, 'unknown layout "'//trim(layout)//'" (column, row or block)')
  end select

  ! ---- data
  call setup_part(n, px, py, part)
  allocate (a(part%ilo-1:part%ihi+1, part%jlo-1:part%jhi+1), &
       b(part%ilo-1:part%ihi+1, part%jlo-1:part%jhi+1), stat=r)
  if (r /= 0) call fail(rank, 'cannot allocate the local arrays')
  allocate (times(reps))

  ! ---- one untimed warm-up run, then REPS timed runs
  call init_arrays(part, a, b)
  call relax(part, a, b, ncycle)
  do r = 1, reps
     call init_arrays(part, a, b)
     call MPI_Barrier(MPI_COMM_WORLD, ierr)
     t0 = MPI_Wtime()
     call relax(part, a, b, ncycle)
     t = MPI_Wtime() - t0
     call MPI_Allreduce(t, times(r), 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  end do

  mysum = local_sum(part, a)
  call MPI_Reduce(mysum, checksum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)

  if (rank == 0) call report(layout, n, nprocs, ncycle, reps, '', times, checksum)

  deallocate (a, b, times)
  call free_part(part)
  call MPI_Finalize(ierr)

end program jacobi
