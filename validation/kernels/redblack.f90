! redblack.f90 -- MPI node program for red-black relaxation (pfls validation kit)
!
! The SPMD program a Fortran D compiler makes of examples/redblack.f:
! VAL(0:N+1,0:N+1) relaxed NCYCLE times, each cycle four sweeps in the order of
! the source (loops 10 and 20 update the red points, 30 and 40 the black ones),
! VAL(I,J) = A*(VAL(I,J-1) + VAL(I-1,J) + VAL(I,J+1) + VAL(I+1,J)) + B*VAL(I,J)
! with A = 0.25, B = 0.0.
!
! Layouts (the template G is distributed, VAL is aligned with it):
!   column  G(:,BLOCK)      the columns J in P contiguous strips (grid 1 x P)
!   row     G(BLOCK,:)      the rows I in P contiguous strips (grid P x 1)
!   block   G(BLOCK,BLOCK)  a Px x Py grid, Px >= Py as even as possible, the
!                           factorization pfls uses (P=2: 2 x 1, P=4: 2 x 2)
!   column-express, row-express, block-express: the same grids, split as the
!                           paper's hand-written EXPRESS node program (below)
! BLOCK is Fortran D's: along a dimension of Q processes, the template 0:N+1
! is cut into blocks of B = ceil((N+2)/Q) indices, process c holding c*B to
! c*B+B-1, and each process computes the interior points 1..N of its block
! (owner computes). So N needs no divisibility, and the last processes may
! hold fewer points, or none (N = 32 on 16 columns: blocks of 3, the last
! four hold none): the busiest process sets the time, as pfls's estimate
! counts it. The -express layouts split the interior 1..N instead, in
! blocks of ceil(N/Q), as the paper's REDBLACK does ("each processor
! getting a column partition of size N x N/P"): equal shares when Q divides
! N. The global boundary lines 0 and N+1 live in the ghost cells of the
! processes next to them and are never written. Non-periodic: a process
! exchanges only with neighbours that hold interior points.
!
! Communication is what message vectorization gives: before each of the four
! sweeps, every process exchanges with each neighbour the part of its
! boundary line that the sweep reads, that is the points of the other colour
! on the rows (or columns) of the sweep's parity -- every second element, sent
! with an MPI vector datatype (stride 2 along a column, 2*LD along a row).
!
! Usage: redblack LAYOUT N NCYCLE REPS
! Output (rank 0, one line):
!   result kernel=redblack layout=L n=N p=P ncycle=C reps=R median=.. min=.. max=.. checksum=..
! Times are seconds for the whole NCYCLE cycles, the maximum over the ranks;
! checksum is the sum of VAL(1:N,1:N) in double precision.

module redblack_mod
  use mpi
  use kit, only: dp, charge, block_of, neighbour
  implicit none
  private
  public :: part_t, setup_part, free_part, init_val, relax, local_sum, first_of

  integer, parameter :: sp = kind(1.0)

  !> One process's share of the grid, with global index bounds.
  type :: part_t
     integer :: comm = MPI_COMM_NULL   !< Cartesian communicator, dims (px, py)
     integer :: px = 1, py = 1         !< processes along I (dim 1) and J (dim 2)
     integer :: ilo, ihi, jlo, jhi     !< owned interior points, global indices
     integer :: north, south           !< neighbours at lower / higher I
     integer :: west, east             !< neighbours at lower / higher J
     integer :: coltype(2)             !< rows of one column starting odd (1) or even (2)
     integer :: rowtype(2)             !< columns of one row starting odd (1) or even (2)
  end type part_t

  integer, parameter :: tag_j = 10, tag_i = 20

contains

  !> First index >= lo whose parity is that of start (1 = odd, 2 = even).
  pure integer function first_of(lo, start)
    integer, intent(in) :: lo, start
    first_of = lo + modulo(start - lo, 2)
  end function first_of

  !> Number of indices first_of(lo,start), +2, ... not above hi.
  pure integer function count_of(lo, hi, start)
    integer, intent(in) :: lo, hi, start
    if (first_of(lo, start) > hi) then
       count_of = 0
    else
       count_of = (hi - first_of(lo, start)) / 2 + 1
    end if
  end function count_of

  !> Build the px x py process grid, this process's block of 1..N in each
  !> dimension, its neighbours and the strided datatypes of its boundary lines.
  subroutine setup_part(n, px, py, express, part)
    integer, intent(in) :: n, px, py
    logical, intent(in) :: express
    type(part_t), intent(out) :: part
    integer :: dims(2), coords(2), ierr, ld, s
    logical :: periods(2)

    dims = [px, py]
    periods = [.false., .false.]
    call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., part%comm, ierr)
    call MPI_Comm_rank(part%comm, s, ierr)
    call MPI_Cart_coords(part%comm, s, 2, coords, ierr)
    part%px = px
    part%py = py
    call block_of(n, px, coords(1), express, part%ilo, part%ihi)
    call block_of(n, py, coords(2), express, part%jlo, part%jhi)
    if (part%ilo > part%ihi .or. part%jlo > part%jhi) then
       ! No interior points: nothing to compute or exchange.
       part%north = MPI_PROC_NULL
       part%south = MPI_PROC_NULL
       part%west = MPI_PROC_NULL
       part%east = MPI_PROC_NULL
    else
       part%north = neighbour(part%comm, n, dims, coords, 1, -1, express)
       part%south = neighbour(part%comm, n, dims, coords, 1, 1, express)
       part%west = neighbour(part%comm, n, dims, coords, 2, -1, express)
       part%east = neighbour(part%comm, n, dims, coords, 2, 1, express)
    end if

    ! Local array is VAL(ilo-1:ihi+1, jlo-1:jhi+1): leading dimension ld.
    ld = max(part%ihi - part%ilo + 1, 0) + 2
    do s = 1, 2
       ! Every second row of one column: contiguous in memory with stride 2.
       call MPI_Type_vector(count_of(part%ilo, part%ihi, s), 1, 2, MPI_REAL, &
            part%coltype(s), ierr)
       call MPI_Type_commit(part%coltype(s), ierr)
       ! Every second column of one row: stride 2*ld elements.
       call MPI_Type_vector(count_of(part%jlo, part%jhi, s), 1, 2 * ld, MPI_REAL, &
            part%rowtype(s), ierr)
       call MPI_Type_commit(part%rowtype(s), ierr)
    end do
  end subroutine setup_part

  subroutine free_part(part)
    type(part_t), intent(inout) :: part
    integer :: s, ierr
    do s = 1, 2
       call MPI_Type_free(part%coltype(s), ierr)
       call MPI_Type_free(part%rowtype(s), ierr)
    end do
    call MPI_Comm_free(part%comm, ierr)
  end subroutine free_part

  !> The initial value of grid point (i, j): the same for every layout and P.
  elemental real(sp) function initial(i, j)
    integer, intent(in) :: i, j
    initial = real(modulo(7 * i + 13 * j, 101), sp) / 101.0_sp
  end function initial

  !> Set the owned points and the ghost cells (which hold the global
  !> boundary on the edge processes) to their initial values.
  subroutine init_val(part, val)
    type(part_t), intent(in) :: part
    real(sp), intent(out) :: val(part%ilo-1:part%ihi+1, part%jlo-1:part%jhi+1)
    integer :: i, j
    do j = part%jlo - 1, part%jhi + 1
       do i = part%ilo - 1, part%ihi + 1
          val(i, j) = initial(i, j)
       end do
    end do
  end subroutine init_val

  !> Exchange with the four neighbours the boundary points a sweep over
  !> rows starting at istart and columns starting at jstart reads:
  !> along J the rows of parity istart of the first/last owned column,
  !> along I the columns of parity jstart of the first/last owned row.
  subroutine exchange(part, val, istart, jstart)
    type(part_t), intent(in) :: part
    real(sp), intent(inout) :: val(part%ilo-1:part%ihi+1, part%jlo-1:part%jhi+1)
    integer, intent(in) :: istart, jstart
    integer :: i0, j0, ierr

    if (part%ilo > part%ihi .or. part%jlo > part%jhi) return ! no points, no neighbours
    i0 = first_of(part%ilo, istart)
    j0 = first_of(part%jlo, jstart)
    if (part%py > 1) then
       ! first column to the west, east ghost column from the east
       call MPI_Sendrecv(val(i0, part%jlo), 1, part%coltype(istart), part%west, tag_j, &
            val(i0, part%jhi + 1), 1, part%coltype(istart), part%east, tag_j, &
            part%comm, MPI_STATUS_IGNORE, ierr)
       ! last column to the east, west ghost column from the west
       call MPI_Sendrecv(val(i0, part%jhi), 1, part%coltype(istart), part%east, tag_j, &
            val(i0, part%jlo - 1), 1, part%coltype(istart), part%west, tag_j, &
            part%comm, MPI_STATUS_IGNORE, ierr)
    end if
    if (part%px > 1) then
       ! first row to the north, south ghost row from the south
       call MPI_Sendrecv(val(part%ilo, j0), 1, part%rowtype(jstart), part%north, tag_i, &
            val(part%ihi + 1, j0), 1, part%rowtype(jstart), part%south, tag_i, &
            part%comm, MPI_STATUS_IGNORE, ierr)
       ! last row to the south, north ghost row from the north
       call MPI_Sendrecv(val(part%ihi, j0), 1, part%rowtype(jstart), part%south, tag_i, &
            val(part%ilo - 1, j0), 1, part%rowtype(jstart), part%north, tag_i, &
            part%comm, MPI_STATUS_IGNORE, ierr)
    end if
  end subroutine exchange

  !> One sweep: DO J = jstart, N, 2 / DO I = istart, N, 2 restricted to the
  !> owned points (owner computes), same expression as the source. Its
  !> charge: 6 operations a point (4 additions, 2 multiplications).
  subroutine sweep(part, val, istart, jstart, a, b)
    type(part_t), intent(in) :: part
    real(sp), intent(inout) :: val(part%ilo-1:part%ihi+1, part%jlo-1:part%jhi+1)
    integer, intent(in) :: istart, jstart
    real(sp), intent(in) :: a, b
    integer :: i, j
    do j = first_of(part%jlo, jstart), part%jhi, 2
       do i = first_of(part%ilo, istart), part%ihi, 2
          val(i, j) = a * (val(i, j - 1) + val(i - 1, j) &
               + val(i, j + 1) + val(i + 1, j)) + b * val(i, j)
       end do
    end do
    call charge(6.0_dp * count_of(part%ilo, part%ihi, istart) * count_of(part%jlo, part%jhi, jstart))
  end subroutine sweep

  !> The timed loop DO 100 KC = 1, NCYCLE of the source.
  subroutine relax(part, val, ncycle)
    type(part_t), intent(in) :: part
    real(sp), intent(inout) :: val(part%ilo-1:part%ihi+1, part%jlo-1:part%jhi+1)
    integer, intent(in) :: ncycle
    real(sp), parameter :: a = 0.25_sp, b = 0.0_sp
    ! (istart, jstart) of loops 10, 20 (red) and 30, 40 (black)
    integer, parameter :: istart(4) = [1, 2, 2, 1], jstart(4) = [1, 2, 1, 2]
    integer :: kc, l
    do kc = 1, ncycle
       do l = 1, 4
          call exchange(part, val, istart(l), jstart(l))
          call sweep(part, val, istart(l), jstart(l), a, b)
       end do
    end do
  end subroutine relax

  !> Sum of the owned interior points in double precision.
  real(dp) function local_sum(part, val)
    type(part_t), intent(in) :: part
    real(sp), intent(in) :: val(part%ilo-1:part%ihi+1, part%jlo-1:part%jhi+1)
    integer :: i, j
    local_sum = 0.0_dp
    do j = part%jlo, part%jhi
       do i = part%ilo, part%ihi
          local_sum = local_sum + real(val(i, j), dp)
       end do
    end do
  end function local_sum

end module redblack_mod


program redblack
  use mpi
  use redblack_mod
  use kit
  implicit none
  integer :: ierr, rank, nprocs, n, ncycle, reps, px, py, r, nargs
  character(len=32) :: layout
  logical :: express
  type(part_t) :: part
  real, allocatable :: val(:, :)
  real(dp), allocatable :: times(:)
  real(dp) :: t0, t, mysum, checksum

  kit_name = 'redblack'
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  ! ---- arguments: LAYOUT N NCYCLE REPS
  nargs = command_argument_count()
  if (nargs /= 4) call fail(rank, 'usage: redblack LAYOUT N NCYCLE REPS (LAYOUT column, row or block)')
  call get_command_argument(1, layout)
  n = int_arg(2, 'N', rank)
  ncycle = int_arg(3, 'NCYCLE', rank)
  reps = int_arg(4, 'REPS', rank)
  if (n < 1) call fail(rank, 'N must be at least 1')
  if (reps < 1) call fail(rank, 'REPS must be at least 1')
  select case (trim(layout))
  case ('column', 'column-express')
     px = 1
     py = nprocs
  case ('row', 'row-express')
     px = nprocs
     py = 1
  case ('block', 'block-express')
     call grid_2d(nprocs, px, py)
  case default
     call fail(rank, 'unknown layout "'//trim(layout)//'" (column, row or block, or one of them + -express)')
  end select
  express = index(layout, '-express') > 0
  ! ---- data
  call setup_part(n, px, py, express, part)
  allocate (val(part%ilo-1:part%ihi+1, part%jlo-1:part%jhi+1), stat=r)
  if (r /= 0) call fail(rank, 'cannot allocate the local array')
  allocate (times(reps))

  ! ---- one untimed warm-up run, then REPS timed runs
  call init_val(part, val)
  call relax(part, val, ncycle)
  do r = 1, reps
     call init_val(part, val)
     call MPI_Barrier(MPI_COMM_WORLD, ierr)
     t0 = MPI_Wtime()
     call relax(part, val, ncycle)
     t = MPI_Wtime() - t0
     call MPI_Allreduce(t, times(r), 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  end do

  mysum = local_sum(part, val)
  call MPI_Reduce(mysum, checksum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)

  if (rank == 0) call report(layout, n, nprocs, ncycle, reps, '', times, checksum)

  deallocate (val, times)
  call free_part(part)
  call MPI_Finalize(ierr)

end program redblack
