! charge.f90 -- the computation charge of the kit's kernels on a real MPI
! (pfls validation kit): nothing. On real hardware a kernel's computation
! takes what it takes; its MPI_Wtime times measure it.
!
! Under SimGrid's SMPI, pfls builds the kernels with charge_smpi.f90 in
! this file's place instead: the same module, whose charge makes the
! simulated host compute the given number of floating-point operations.
! Each kernel calls charge after each loop nest with the loop's operation
! count, weighted as charge_smpi.f90 says.

module charge_mod
  implicit none
  private
  public :: charge

contains

  !> Charge flops floating-point operations: nothing on a real machine.
  subroutine charge(flops)
    real(kind(1.0d0)), intent(in) :: flops
    if (flops < 0) error stop 'charge: a negative operation count'
  end subroutine charge

end module charge_mod
