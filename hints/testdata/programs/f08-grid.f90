! Heat diffusion on a grid held in a derived type, as Fortran 2008 users
! write it: the sizes are integer components set by an INIT routine, the
! fields allocatable components, the update a DO CONCURRENT over the
! interior, the copy-back an array assignment of component sections.
!
! Expert's view, in the all-one table (an element of a rank-2 array
! costs 2, its store or load and the index of its second dimension; a
! loop index costs 1 where it is read; each + - * 1):
! - the update g%unew(i,j) = ...: 7 elements (14), their 14 indices
!   read (14), the 4 neighbour offsets (4), ALPHA (1) and 7 operations:
!   40 a point. DO CONCURRENT (J = 1:G%NY, I = 1:G%NX) runs G%NX·G%NY
!   points (Fortran 2018 11.1.7.4.3), 40·G%NX·G%NY in STEP, where the
!   sizes are those of the structure passed in.
! - the copy-back g%u(1:nx,1:ny) = g%unew(1:nx,1:ny): 2 elements of 2 a
!   point, and the two sections' bounds (4 reads of G%NX, G%NY) once.
! - INIT sets G%NX = 256 and G%NY = 128, so the main program's CALL
!   STEP(G, 0.1) counts 256 × 128 = 32,768 points: 40 × 32,768 + 2 for
!   the loop and 4 × 32,768 + 4 for the copy-back, 1,441,798 (a CALL
!   costs its callee's count, seed 004 §4.4.2); STEP changes G%U and
!   G%UNEW, not the sizes, so the time loop keeps them.
! - the estimate: 100 steps of 32,768 points of a REAL 5-point stencil
!   and its copy, on one processor (no distribution): a few ms, the
!   loop counted over its range (not one iteration).
module grid_mod
  implicit none
  type :: grid_t
    integer :: nx, ny
    real, allocatable :: u(:,:), unew(:,:)
  end type grid_t
contains
  subroutine init(g, nx, ny)
    type(grid_t), intent(inout) :: g
    integer, intent(in) :: nx, ny
    g%nx = nx
    g%ny = ny
    allocate(g%u(0:nx+1, 0:ny+1), g%unew(0:nx+1, 0:ny+1))
    g%u = 0.0
    g%unew = 0.0
  end subroutine init

  subroutine step(g, alpha)
    type(grid_t), intent(inout) :: g
    real, intent(in) :: alpha
    integer :: i, j
    !@hover("\*\*Work\*\* \(DO\): `40\*G%NX\.G%NY \+ 2`")
    do concurrent (j = 1:g%ny, i = 1:g%nx)
      g%unew(i,j) = g%u(i,j) + alpha * (g%u(i-1,j) + g%u(i+1,j) &
                  + g%u(i,j-1) + g%u(i,j+1) - 4.0 * g%u(i,j))
    end do
    !@hover("Elements\*\*: `G%NX\.G%NY`")
    g%u(1:g%nx, 1:g%ny) = g%unew(1:g%nx, 1:g%ny)
  end subroutine step
end module grid_mod

program heat
  use grid_mod
  implicit none
  type(grid_t) :: g
  integer :: it
  call init(g, 256, 128)
  !@estimate(report "computation [1-9](\.[0-9]+)? ms")
  !@estimate(noreport "without a counted range")
  do it = 1, 100
    !@hover("\*\*Work\*\* \(STAT\): `1441798`")
    call step(g, 0.1)
  end do
  print *, g%u(128, 64)
end program heat
