! charge_smpi.f90 -- the computation charge of the kit's kernels under
! SimGrid's SMPI (pfls validation kit); pfls validate --platform builds the
! kernels with this file in place of charge.f90.
!
! pfls runs SMPI with smpi/simulate-computation:no: the time the kernels
! take on the machine that runs the simulation is not charged to the
! simulated hosts at all. Each kernel instead charges its loop nests
! explicitly: the loop's operation count, in floating-point operations
! weighted as the Livermore Fortran Kernels count them (McMahon 1986):
! +, -, * one; / and SQRT four; EXP and ** eight; a comparison one. Copies,
! subscripts and loop control charge nothing. SMPI's smpi_execute_flops
! then advances the host's clock by flops / the host's speed (the speed
! of the platform file), so the simulated times depend on the kernel and
! the platform alone and repeat exactly from run to run. The training set
! (pfls train --platform) charges its operation kernels the same way.
!
! Keep the keyword of a main unit out of this file and kit.f90, even in
! comments: smpif90 (SimGrid 3.32) appends every file after the first one
! that contains it to one temporary file, and the modules come out twice.

module charge_mod
  use iso_c_binding, only: c_double
  implicit none
  private
  public :: charge

  interface
     !> SimGrid's SMPI: compute flops operations on this rank's host.
     subroutine smpi_execute_flops(flops) bind(C, name='smpi_execute_flops')
       import :: c_double
       real(c_double), value :: flops
     end subroutine smpi_execute_flops
  end interface

contains

  !> Charge flops floating-point operations to the simulated host.
  subroutine charge(flops)
    real(kind(1.0d0)), intent(in) :: flops
    if (flops < 0) error stop 'charge: a negative operation count'
    if (flops > 0) call smpi_execute_flops(real(flops, c_double))
  end subroutine charge

end module charge_mod
